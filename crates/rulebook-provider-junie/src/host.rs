//! Junie as the tool itself loads its rules (`--as junie`), from its documentation: it cannot be
//! run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::host::documented::{render, start, whole};
use rulebook_kit::host::{Host, HostOptions, HostView, Scope};

/// Junie: `.junie/guidelines.md` at the workspace root, whole, at the start of every task.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(Host::Junie);
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
