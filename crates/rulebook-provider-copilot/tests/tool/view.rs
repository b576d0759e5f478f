//! GitHub Copilot in VS Code as its documentation says it loads instructions
//! (`rulebook_provider_copilot::host`, behaviour.md §13): the instructions files and `applyTo`.

use rulebook::HostStatus as Status;

use rulebook_test::Tree;

use crate::tool;

/// Copilot in VS Code (docs "Custom instructions"): only `*.instructions.md` files of
/// `.github/instructions` are instructions; `applyTo: "**"` applies to every file, so it
/// loads at start; another `applyTo` attaches the file to matching files at any depth.
#[test]
fn copilot_instructions_files_and_apply_to() {
    let tree = Tree::repository("r", "home");
    tree.write(
        "r/.github/instructions/all.instructions.md",
        "---\napplyTo: \"**\"\n---\nEverywhere.\n",
    )
    .write(
        "r/.github/instructions/src.instructions.md",
        "---\napplyTo: \"src/**\"\n---\nSources.\n",
    )
    .write(
        "r/.github/instructions/notes.md",
        "---\napplyTo: \"**\"\n---\nNot instructions.\n",
    );
    let view = tree.view(tool("copilot"), "r", "home");
    assert_eq!(
        tree.loaded(&view),
        ["r/.github/instructions/all.instructions.md"]
    );
    assert_eq!(
        tree.entry(&view, "r/.github/instructions/all.instructions.md")
            .reason,
        "applyTo: ** matches every file"
    );
    assert_eq!(
        tree.entry(&view, "r/.github/instructions/src.instructions.md")
            .status,
        Status::Scoped {
            base: tree.path("r"),
            globs: vec!["**/src/**".into()]
        }
    );
    assert!(
        !view.files.iter().any(|f| f.path.ends_with("notes.md")),
        "{:#?}",
        view.files
    );
    assert_eq!(view.prompt, "Everywhere.");
}
