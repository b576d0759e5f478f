//! Zed as the tool itself loads rule files (`--as zed`), from its documentation: it cannot
//! be run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::host::documented::{render, start};
use rulebook_kit::host::{Host, HostOptions, HostView, Scope, Status, util};

/// Zed: the first of nine names at the worktree root, one file only.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(Host::Zed);
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
