//! Codex CLI 0.171.0 (`codex-rs/core/src/agents_md.rs`, observed with
//! `codex debug prompt-input`): the reasons `explain --as codex` gives, and the budget's
//! edges.

use rulebook::{HostScope as Scope, HostStatus as Status};

use rulebook_test::Tree;

use crate::tool;

const BUDGET: usize = 32 * 1024;

/// The user file: a blank `~/.codex/AGENTS.override.md` is skipped and Codex falls back to
/// `~/.codex/AGENTS.md` (fixture `codex-user`); a blank `AGENTS.md` there adds nothing.
/// Each says which of the two it was.
#[test]
fn a_blank_user_file_says_whether_codex_falls_back() {
    let tree = Tree::repository("r", "home");
    tree.write("home/.codex/AGENTS.override.md", " \n\t\n")
        .write("home/.codex/AGENTS.md", "User rules.\n");
    let view = tree.view(tool("codex"), "r", "home");
    let over = tree.entry(&view, "home/.codex/AGENTS.override.md");
    assert_eq!((over.scope, &over.status), (Scope::User, &Status::NotRead));
    assert_eq!(
        over.reason,
        "a blank user override is skipped: Codex falls back to ~/.codex/AGENTS.md"
    );
    let user = tree.entry(&view, "home/.codex/AGENTS.md");
    assert_eq!((user.scope, &user.status), (Scope::User, &Status::Loaded));
    assert_eq!(
        user.reason,
        "the user's Codex instructions (outside the project budget)"
    );

    let tree = Tree::repository("r", "home");
    tree.write("home/.codex/AGENTS.md", "\n");
    let view = tree.view(tool("codex"), "r", "home");
    assert_eq!(
        tree.entry(&view, "home/.codex/AGENTS.md").reason,
        "blank: Codex skips a user file with no text"
    );
    assert!(view.prompt.is_empty());
}

/// In the project, a whitespace-only `AGENTS.override.md` still takes its directory (the
/// `AGENTS.md` beside it is not read; fixture `codex-blank-override`), while a blank
/// `AGENTS.md` is just skipped: the reasons tell the two apart.
#[test]
fn a_blank_project_override_still_takes_its_directory() {
    let tree = Tree::repository("r", "home");
    tree.write("r/AGENTS.override.md", " \n")
        .write("r/AGENTS.md", "Root rules.\n")
        .write("r/sub/AGENTS.md", "\n");
    let view = tree.view(tool("codex"), "r/sub", "home");
    assert!(tree.loaded(&view).is_empty());
    assert_eq!(
        tree.entry(&view, "r/AGENTS.override.md").reason,
        "blank: a whitespace-only AGENTS.override.md still takes its directory (the AGENTS.md beside it is not read) and adds nothing"
    );
    assert_eq!(
        tree.entry(&view, "r/AGENTS.md").reason,
        "Codex reads one file per directory: AGENTS.override.md takes this directory"
    );
    assert_eq!(
        tree.entry(&view, "r/sub/AGENTS.md").reason,
        "blank: Codex skips a file with no text"
    );
}

/// The 32 KiB budget (`project_doc_max_bytes`): Codex cuts a file only when it is larger
/// than what remains (`size > remaining`), so a root file of exactly 32 KiB loads whole;
/// then nothing remains and the next file is dropped, with the budget as its reason.
#[test]
fn a_file_of_exactly_the_budget_loads_whole() {
    let tree = Tree::repository("r", "home");
    tree.write("r/AGENTS.md", "x".repeat(BUDGET))
        .write("r/sub/AGENTS.md", "Leaf rules.\n");
    let view = tree.view(tool("codex"), "r/sub", "home");
    let root = tree.entry(&view, "r/AGENTS.md");
    assert_eq!(root.status, Status::Loaded);
    assert_eq!(
        root.reason,
        "on the path from the project root to the working directory"
    );
    let leaf = tree.entry(&view, "r/sub/AGENTS.md");
    assert_eq!(leaf.status, Status::NotRead);
    assert_eq!(
        leaf.reason,
        "dropped: the 32768-byte project budget (project_doc_max_bytes) was spent on the files above it"
    );
}

/// A file larger than the rest of the budget is cut where the budget ends (fixture
/// `codex-budget`), and its reason gives the byte where it is cut and the file's size.
#[test]
fn a_cut_file_says_where_and_why() {
    let tree = Tree::repository("r", "home");
    tree.write("r/AGENTS.md", "r".repeat(30_000))
        .write("r/sub/AGENTS.md", "s".repeat(5_000));
    let view = tree.view(tool("codex"), "r/sub", "home");
    let leaf = tree.entry(&view, "r/sub/AGENTS.md");
    assert_eq!(
        leaf.status,
        Status::Cut {
            truncated_at: BUDGET - 30_000
        }
    );
    assert_eq!(
        leaf.reason,
        "cut at byte 2768 of 5000: the 32768-byte project budget is spent root first"
    );
    assert!(
        view.prompt
            .contains(&format!("\n\n{}\n</INSTRUCTIONS>", "s".repeat(2768)))
    );
}
