//! Zed as the tool itself loads rule files (`--as zed`), from its documentation: it cannot
//! be run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::host::documented::{render, start};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// Zed: the first of nine names at the worktree root, one file only.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    let mut bodies = Vec::new();
    let mut chosen: Option<&str> = None;
    for name in crate::NAMES {
        let path = options.cwd().join(name);
        if !util::is_file(&path) {
            continue;
        }
        match chosen {
            Some(first) => view.push(
                path,
                Scope::Project,
                Status::NotRead,
                format!("Zed reads only the first of its nine file names: {first} is used"),
            ),
            None => {
                let Some(text) = util::read_text(&path) else {
                    continue;
                };
                chosen = Some(name);
                view.push(
                    path,
                    Scope::Project,
                    Status::Loaded,
                    "the first of Zed's nine rule file names at the worktree root",
                );
                bodies.push(text);
            }
        }
    }
    render(&mut view, &bodies);
    view
}

/// Zed as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Zed;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new("zed", "Zed", "zed", "Zed's documentation (Rules)");

impl Tool for Zed {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
