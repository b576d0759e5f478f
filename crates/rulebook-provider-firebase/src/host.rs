//! Firebase Studio as the tool itself loads its rules (`--as firebase`), from its documentation: it cannot be
//! run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::host::documented::{render, start, whole};
use rulebook_kit::host::{Host, HostOptions, HostView, Scope};

/// Firebase Studio: `.idx/airules.md` at the workspace root, whole, at the start of every task.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(Host::Firebase);
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
