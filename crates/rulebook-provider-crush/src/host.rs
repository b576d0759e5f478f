//! Crush as the tool itself loads context files (`--as crush`), from its source
//! (`charmbracelet/crush` 37f36e93, `internal/config/config.go`,
//! `internal/agent/prompt/prompt.go`): it cannot be run here, so the view says "documented,
//! not verified" (behaviour.md §13).

use std::collections::HashSet;

use rulebook_kit::host::documented::{render, rule_files, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// Crush's default context paths, sorted as it sorts them (`slices.Sort`).
pub const CONTEXT_PATHS: [&str; 16] = [
    ".cursor/rules/",
    ".cursorrules",
    ".github/copilot-instructions.md",
    "AGENTS.md",
    "Agents.md",
    "CLAUDE.local.md",
    "CLAUDE.md",
    "CRUSH.local.md",
    "CRUSH.md",
    "Crush.local.md",
    "Crush.md",
    "GEMINI.md",
    "agents.md",
    "crush.local.md",
    "crush.md",
    "gemini.md",
];

/// Crush: `~/.config/crush/CRUSH.md` and `~/.config/AGENTS.md`; then its context paths in
/// the working directory, each lower-cased name once (the first spelling takes it, present
/// or not), a directory's every file.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    view.notes.push(
        "Crush collects its context files in a Go map, so their order in the prompt changes from run to run; this view lists them in the sorted order of its list".to_owned(),
    );
    let mut bodies = Vec::new();
    let cwd = options.cwd();
    let mut taken = HashSet::new();
    for rel in CONTEXT_PATHS {
        let path = cwd.join(rel.trim_end_matches('/'));
        let first = taken.insert(rel.to_ascii_lowercase());
        if !first {
            if util::exists(&path) {
                view.push(
                    path,
                    Scope::Project,
                    Status::NotRead,
                    "Crush took this name, lower-cased, for an earlier spelling of its list (present or not)",
                );
            }
            continue;
        }
        if rel.ends_with('/') {
            for file in rule_files(&path, &["*"]) {
                whole(
                    &mut view,
                    &mut bodies,
                    file,
                    Scope::Project,
                    "every file under .cursor/rules/, read raw",
                );
            }
        } else {
            whole(
                &mut view,
                &mut bodies,
                path,
                Scope::Project,
                "a context path of Crush's default list, in the working directory",
            );
        }
    }
    for rel in [".config/crush/CRUSH.md", ".config/AGENTS.md"] {
        whole(
            &mut view,
            &mut bodies,
            options.home().join(rel),
            Scope::User,
            "a global context path (user preferences)",
        );
    }
    render(&mut view, &bodies);
    view
}

/// Crush as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Crush;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "crush",
    "Crush",
    "crush",
    "Crush's source (`charmbracelet/crush` 37f36e93)",
);

impl Tool for Crush {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
