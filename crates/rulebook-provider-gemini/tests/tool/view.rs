//! Gemini CLI 0.61.0 (`packages/core` `memoryDiscovery` and `memoryImportProcessor`;
//! `rulebook_provider_gemini::host`): what the upward walk lists, the note on its order, the
//! import depth.

use rulebook::HostStatus as Status;

use rulebook_test::Tree;

use crate::tool;

/// The walk from the working directory up to the git root lists only the `GEMINI.md` entries
/// that exist: directories without one add nothing. A directory named `GEMINI.md` passes
/// the tool's `fs.access` check and then fails to read: listed, not read.
#[test]
fn the_upward_walk_lists_only_existing_gemini_md() {
    let tree = Tree::repository("r", "home");
    tree.write("r/GEMINI.md", "Root.\n")
        .dir("r/a/GEMINI.md/x")
        .dir("r/a/b/c");
    let view = tree.view(tool("gemini"), "r/a/b/c", "home");
    assert_eq!(tree.listed(&view), ["r/GEMINI.md", "r/a/GEMINI.md"]);
    let dir = tree.entry(&view, "r/a/GEMINI.md");
    assert_eq!(dir.status, Status::NotRead);
    assert_eq!(dir.reason, "a directory named GEMINI.md is skipped");
}

/// Gemini CLI sorts the files it found by their absolute paths (fixture `gemini-order`):
/// when the working directory is below the git root, the view notes that the order is not
/// root-down; at the root there is nothing to order and no note.
#[test]
fn below_the_root_the_view_notes_the_sorted_order() {
    let tree = Tree::repository("r", "home");
    tree.write("r/GEMINI.md", "Root.\n")
        .write("r/Api/GEMINI.md", "Api.\n");
    let below = tree.view(tool("gemini"), "r/Api", "home");
    assert_eq!(tree.loaded(&below), ["r/Api/GEMINI.md", "r/GEMINI.md"]);
    assert_eq!(
        below.notes,
        ["Gemini CLI orders its files by sorting their absolute paths, not from the root down"]
    );
    assert!(tree.view(tool("gemini"), "r", "home").notes.is_empty());
}

/// `@path` imports are inlined five levels deep (`memoryImportProcessor`'s `maxDepth`):
/// the file at the fifth level is inlined as it is, its own `@` left as text.
#[test]
fn imports_are_inlined_five_levels_deep() {
    let tree = Tree::repository("r", "home");
    tree.write("r/GEMINI.md", "Level 0 @./l1.md\n");
    for level in 1..=6 {
        tree.write(
            format!("r/l{level}.md"),
            format!("Level {level} @./l{}.md\n", level + 1),
        );
    }
    let view = tree.view(tool("gemini"), "r", "home");
    for level in 1..=5 {
        assert!(
            view.prompt
                .contains(&format!("<!-- Imported from: ./l{level}.md -->")),
            "level {level}: {}",
            view.prompt
        );
    }
    assert!(view.prompt.contains("Level 5 @./l6.md"), "{}", view.prompt);
    assert!(!view.prompt.contains("Level 6"), "{}", view.prompt);
}

/// An `@` with no path after it, even at the very end of the file, is text (`findImports`).
#[test]
fn a_trailing_at_sign_is_text() {
    let tree = Tree::repository("r", "home");
    tree.write("r/GEMINI.md", "Ask the team @");
    let view = tree.view(tool("gemini"), "r", "home");
    assert!(
        view.prompt.contains("\nAsk the team @\n"),
        "{}",
        view.prompt
    );
}

/// Duplicates are found by device and inode: a `GEMINI.md` that is a link to the one
/// nearer the root is read once (fixture `gemini-link`) and listed with its reason, while
/// two distinct files with the same text are both read.
/// A file reached twice through a link (the same device and inode) is read once, where it is
/// nearest the root.
#[cfg(unix)]
#[test]
fn the_same_file_twice_is_read_once() {
    let tree = Tree::repository("r", "home");
    tree.write("r/GEMINI.md", "Root.\n")
        .write("r/a/GEMINI.md", "Root.\n")
        .dir("r/a/b");
    std::os::unix::fs::symlink("../GEMINI.md", tree.path("r/a/b/GEMINI.md")).unwrap();
    let view = tree.view(tool("gemini"), "r/a/b", "home");
    assert_eq!(tree.loaded(&view), ["r/GEMINI.md", "r/a/GEMINI.md"]);
    assert_eq!(
        tree.entry(&view, "r/a/b/GEMINI.md").reason,
        "the same file (device and inode) as one nearer the root: Gemini CLI reads it once"
    );
}

/// Gemini CLI finds code regions with a backtracking regex (``/(`+)([\s\S]*?)\1/g``), which
/// scans the rest of the text once per length it tries at a long run of backticks; the
/// emulation finds the same regions in one pass: a 200,000-backtick run before 600,000
/// letters (debug build: over 120 s when the emulation ran the regex's search, 0.02 s now)
/// is read, and the import before the run is inlined.
#[test]
fn a_long_run_of_backticks_is_read_in_one_pass() {
    let tree = Tree::repository("r", "home");
    let text = format!("@./a.md {}{}\n", "`".repeat(200_000), "x".repeat(600_000));
    tree.write("r/GEMINI.md", &text)
        .write("r/a.md", "Imported.\n");
    let view = tree.view(tool("gemini"), "r", "home");
    assert_eq!(tree.loaded(&view), ["r/GEMINI.md", "r/a.md"]);
    assert!(
        view.prompt
            .contains("<!-- Imported from: ./a.md -->\nImported.")
    );
}
