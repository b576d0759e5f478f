//! Junie as the tool itself loads its rules (`--as junie`), from its documentation: it cannot be
//! run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::host::documented::{render, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Tool, ToolInfo};

/// Junie: `.junie/guidelines.md` at the workspace root, whole, at the start of every task.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    view.notes.push("another guidelines file (AGENTS.md) is used only when the IDE's Guidelines path setting names it, which this view cannot see".to_owned());
    let mut bodies = Vec::new();
    whole(
        &mut view,
        &mut bodies,
        options.cwd().join(".junie/guidelines.md"),
        Scope::Project,
        "the project's guidelines, added to every task",
    );
    render(&mut view, &bodies);
    view
}

/// Junie as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Junie;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "junie",
    "Junie",
    "junie",
    "Junie's documentation (guidelines)",
);

impl Tool for Junie {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
