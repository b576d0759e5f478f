//! Goose as the tool itself loads its hints (`--as goose`), from its source
//! (`aaif-goose/goose` d0a2390, `crates/goose/src/hints/load_hints.rs`): it cannot be run
//! here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::host::documented::{render, scoped_below, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Tool, ToolInfo, util};

/// Goose's default `CONTEXT_FILE_NAMES`, in its source's order.
pub const NAMES: [&str; 2] = [".goosehints", "AGENTS.md"];

/// Goose: each name in `~/.config/goose/` (and `~/.agents/AGENTS.md`); then from the git
/// root (else the working directory alone) down to the working directory, each directory's
/// names in order; the directories below, when a tool touches them.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    view.notes.push(
        "@ref imports are not expanded in this view's text; Goose's documentation lists AGENTS.md before .goosehints, its source the other way round: this view follows the source".to_owned(),
    );
    let mut bodies = Vec::new();
    for name in NAMES {
        whole(
            &mut view,
            &mut bodies,
            options.home().join(".config/goose").join(name),
            Scope::User,
            "a global hints file (~/.config/goose)",
        );
    }
    whole(
        &mut view,
        &mut bodies,
        options.home().join(".agents/AGENTS.md"),
        Scope::User,
        "~/.agents/AGENTS.md, read when AGENTS.md is one of the names",
    );
    let cwd = options.cwd();
    let top = options.top();
    for dir in util::chain(top, cwd) {
        for name in NAMES {
            whole(
                &mut view,
                &mut bodies,
                dir.join(name),
                Scope::Project,
                "a hints file of a directory from the git root to the working directory",
            );
        }
    }
    scoped_below(
        &mut view,
        cwd,
        &NAMES,
        "a subdirectory's hints: loaded once a tool touches a path there",
    );
    render(&mut view, &bodies);
    view
}

/// Goose as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Goose;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "goose",
    "Goose",
    "goose",
    "Goose's source (`aaif-goose/goose` d0a2390, `load_hints.rs`)",
);

impl Tool for Goose {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
