//! Firebase Studio as the tool itself loads its rules (`--as firebase`), from its documentation: it cannot be
//! run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::host::documented::{render, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Tool, ToolInfo};

/// Firebase Studio: `.idx/airules.md` at the workspace root, whole, at the start of every task.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    view.notes.push("Firebase Studio's order between .idx/airules.md, GEMINI.md and AGENTS.md is reported second-hand only; this view shows airules.md alone".to_owned());
    let mut bodies = Vec::new();
    whole(
        &mut view,
        &mut bodies,
        options.cwd().join(".idx/airules.md"),
        Scope::Project,
        "the workspace's AI rules, given to Gemini in Firebase Studio's chat",
    );
    render(&mut view, &bodies);
    view
}

/// Firebase Studio as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Firebase;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "firebase",
    "Firebase Studio",
    "firebase",
    "Firebase Studio's documentation (AI rules)",
);

impl Tool for Firebase {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
