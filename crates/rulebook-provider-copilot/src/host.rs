//! GitHub Copilot in VS Code as the tool itself loads rule files (`--as copilot`), from its documentation: it cannot
//! be run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::coerce::split_globs;
use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::documented::{agents_md, render, rule_files, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// GitHub Copilot in VS Code: `.github/copilot-instructions.md`,
/// `.github/instructions/**/*.instructions.md` by `applyTo`, the root `AGENTS.md`.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    let mut bodies = Vec::new();
    let root = options.cwd();
    whole(
        &mut view,
        &mut bodies,
        root.join(".github/copilot-instructions.md"),
        Scope::Project,
        "repository-wide instructions",
    );
    let dir = root.join(".github/instructions");
    for path in rule_files(&dir, &["md"]) {
        if !util::name(&path).ends_with(".instructions.md") {
            continue;
        }
        let Some(text) = util::read_text(&path) else {
            continue;
        };
        let (fm, body) = util::frontmatter(&text);
        let apply_to = fm
            .get("applyTo")
            .and_then(Value::as_str)
            .map(str::to_string);
        match apply_to {
            Some(a) if matches!(a.trim(), "**" | "**/*" | "*") => {
                view.push(
                    path,
                    Scope::Project,
                    Status::Loaded,
                    format!("applyTo: {a} matches every file"),
                );
                bodies.push(body);
            }
            Some(a) => {
                // VS Code un-anchors a pattern: `src/**` matches at any depth.
                let globs = split_globs(&a)
                    .into_iter()
                    .map(|g| {
                        if g.starts_with("**") {
                            g
                        } else {
                            format!("**/{g}")
                        }
                    })
                    .collect();
                view.push(
                    path,
                    Scope::Project,
                    Status::Scoped {
                        base: root.to_path_buf(),
                        globs,
                    },
                    "applyTo: attached when a matching file is in the chat",
                );
            }
            None => view.push(
                path,
                Scope::Project,
                Status::OnRequest,
                "no applyTo: offered by description",
            ),
        }
    }
    agents_md(&mut view, &mut bodies, root, false);
    render(&mut view, &bodies);
    view
}

/// GitHub Copilot (VS Code) as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Copilot;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "copilot",
    "GitHub Copilot (VS Code)",
    "copilot",
    "the documentation of custom instructions for GitHub Copilot in VS Code",
)
.with_other_folders(&[
    (
        ".github/prompts",
        "GitHub Copilot's prompt files, neither rules nor skills,",
    ),
    (
        ".github/agents",
        "GitHub Copilot's custom agents, neither rules nor skills,",
    ),
]);

impl Tool for Copilot {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
