//! Junie as the tool itself loads its rules (`--as junie`), from its documentation: it cannot be
//! run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::host::documented::{render, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Tool};

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

impl Tool for Junie {
    fn id(&self) -> &'static str {
        "junie"
    }

    fn name(&self) -> &'static str {
        "Junie"
    }

    fn provider(&self) -> &'static str {
        "junie"
    }

    fn source(&self) -> &'static str {
        "Junie's documentation (guidelines)"
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
