//! Kilo Code's VS Code extension as it loads rules (`--as kilocode`), from its source (a
//! fork of Roo Code): it cannot be run here, so the view says "documented, not verified"
//! (behaviour.md §13).

use rulebook_kit::host::documented::{render, rule_files, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// Kilo Code: `~/.kilocode/rules/**` then `.kilocode/rules/**` (else `.kilocoderules`),
/// sorted by file name; `AGENTS.md` (else `AGENT.md`) at the workspace root; mode rules
/// only in their mode.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    let mut bodies = Vec::new();
    let cwd = options.cwd();
    let sorted = |dir: &std::path::Path| {
        let mut files = rule_files(dir, &["*"]);
        files.retain(|p| {
            p.extension().is_none_or(|e| {
                !rulebook_kit::modes::EXCLUDED
                    .iter()
                    .any(|x| e.eq_ignore_ascii_case(x))
            })
        });
        files.sort_by_key(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().to_lowercase())
                .unwrap_or_default()
        });
        files
    };
    for path in sorted(&options.home().join(".kilocode/rules")) {
        whole(
            &mut view,
            &mut bodies,
            path,
            Scope::User,
            "a global rule (~/.kilocode/rules)",
        );
    }
    let project = sorted(&cwd.join(".kilocode/rules"));
    if project.is_empty() {
        whole(
            &mut view,
            &mut bodies,
            cwd.join(".kilocoderules"),
            Scope::Project,
            "the legacy rules file, read when .kilocode/rules has none",
        );
    }
    for path in project {
        whole(
            &mut view,
            &mut bodies,
            path,
            Scope::Project,
            "a workspace rule (.kilocode/rules)",
        );
    }
    let agents = cwd.join("AGENTS.md");
    if util::read_text(&agents).is_some_and(|t| !t.trim().is_empty()) {
        whole(
            &mut view,
            &mut bodies,
            agents,
            Scope::Project,
            "AGENTS.md at the workspace root",
        );
    } else {
        whole(
            &mut view,
            &mut bodies,
            cwd.join("AGENT.md"),
            Scope::Project,
            "AGENT.md, read when AGENTS.md is missing or empty",
        );
    }
    for base in [options.home().join(".kilocode"), cwd.join(".kilocode")] {
        for dir in util::entries(&base) {
            let is_mode = dir
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("rules-"));
            if !is_mode {
                continue;
            }
            for path in sorted(&dir) {
                view.push(
                    path,
                    Scope::Project,
                    Status::OnRequest,
                    "a mode's rule: only in that mode",
                );
            }
        }
    }
    render(&mut view, &bodies);
    view
}

/// Kilo Code as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Kilocode;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "kilocode",
    "Kilo Code",
    "kilocode",
    "Kilo Code's documentation and its extension's source (a fork of Roo Code)",
);

impl Tool for Kilocode {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
