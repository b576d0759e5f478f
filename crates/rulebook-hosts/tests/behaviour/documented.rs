//! The documented hosts (Cursor, Windsurf, Copilot in VS Code, Kiro, Zed; each in the `host` module
//! of its provider crate, from each tool's documentation as behaviour.md §13 reads it): the rule
//! types, the reasons and the prompt (the loaded texts, blank ones left out, joined by blank
//! lines).

use rulebook_hosts::Status;

use crate::{Tree, entry, loaded, tool};

/// Cursor's rule types (docs "Rules"): `alwaysApply: true` loads at start, `globs` attach
/// the rule to matching files (a comma-separated list, as Cursor writes it, split as the
/// provider splits it: a comma inside `{…}` is the glob's own), a
/// `description` lets the agent request it, and a rule with none is manual (@-mentioned).
#[test]
fn cursor_rule_types() {
    let tree = Tree::new();
    tree.file(
        "r/.cursor/rules/always.mdc",
        "---\nalwaysApply: true\n---\nAlways.  \n",
    )
    .file(
        "r/.cursor/rules/globs.mdc",
        "---\nglobs: src/**/*.{ts,tsx}, docs/*.md\n---\nGlobs.\n",
    )
    .file(
        "r/.cursor/rules/asked.mdc",
        "---\ndescription: When writing SQL\n---\nAsked.\n",
    )
    .file(
        "r/.cursor/rules/manual.mdc",
        "---\ndescription: \"  \"\n---\nManual.\n",
    );
    let view = tree.view(tool("cursor"), "r");
    assert_eq!(loaded(&view, &tree), ["r/.cursor/rules/always.mdc"]);
    assert_eq!(
        entry(&view, &tree, "r/.cursor/rules/globs.mdc").status,
        Status::Scoped {
            base: tree.path("r"),
            globs: vec!["src/**/*.{ts,tsx}".into(), "docs/*.md".into()]
        }
    );
    let asked = entry(&view, &tree, "r/.cursor/rules/asked.mdc");
    assert_eq!(asked.status, Status::OnRequest);
    assert_eq!(
        asked.reason,
        "agent requested: the model sees its description and may read it"
    );
    let manual = entry(&view, &tree, "r/.cursor/rules/manual.mdc");
    assert_eq!(manual.status, Status::OnRequest);
    assert_eq!(manual.reason, "manual: only when @-mentioned");
    assert_eq!(view.prompt, "Always.");
    assert_eq!(
        view.notes,
        [
            "Cursor: documented, not verified (the tool cannot be run here); the wrapping of the text is not known, so the prompt is the loaded texts joined by blank lines"
        ]
    );
}

/// The prompt of a documented host is the loaded texts in order, each without trailing
/// white space, joined by blank lines; a blank file (here a legacy `.cursorrules`) adds
/// nothing, not even a separator.
#[test]
fn documented_prompts_join_the_non_blank_texts() {
    let tree = Tree::new();
    tree.file(
        "r/.cursor/rules/a.mdc",
        "---\nalwaysApply: true\n---\nRule A.\n\n",
    )
    .file("r/.cursorrules", " \n\n")
    .file("r/AGENTS.md", "Agents.\n");
    let view = tree.view(tool("cursor"), "r");
    assert_eq!(
        loaded(&view, &tree),
        ["r/.cursor/rules/a.mdc", "r/.cursorrules", "r/AGENTS.md"]
    );
    assert_eq!(view.prompt, "Rule A.\n\nAgents.");
}

/// Windsurf (docs "Memories & Rules"): an `always_on` rule of a `.windsurf/rules` below
/// the workspace applies to work inside its directory only, and a rule file is limited to
/// 12,000 characters: a longer one is cut there.
#[test]
fn windsurf_nested_rules_and_the_character_limit() {
    let tree = Tree::new();
    tree.file("r/.windsurf/rules/long.md", &"é".repeat(12_500))
        .file("r/sub/.windsurf/rules/sub.md", "Sub.\n");
    let view = tree.view(tool("windsurf"), "r");
    let long = entry(&view, &tree, "r/.windsurf/rules/long.md");
    assert_eq!(
        long.status,
        Status::Cut {
            truncated_at: 2 * 12_000
        }
    );
    assert_eq!(view.prompt, "é".repeat(12_000));
    let sub = entry(&view, &tree, "r/sub/.windsurf/rules/sub.md");
    assert_eq!(
        sub.status,
        Status::Scoped {
            base: tree.path("r/sub"),
            globs: vec!["**".into()]
        }
    );
    assert_eq!(
        sub.reason,
        "a rule of a subdirectory applies to work inside it"
    );
}

/// Copilot in VS Code (docs "Custom instructions"): only `*.instructions.md` files of
/// `.github/instructions` are instructions; `applyTo: "**"` applies to every file, so it
/// loads at start; another `applyTo` attaches the file to matching files at any depth.
#[test]
fn copilot_instructions_files_and_apply_to() {
    let tree = Tree::new();
    tree.file(
        "r/.github/instructions/all.instructions.md",
        "---\napplyTo: \"**\"\n---\nEverywhere.\n",
    )
    .file(
        "r/.github/instructions/src.instructions.md",
        "---\napplyTo: \"src/**\"\n---\nSources.\n",
    )
    .file(
        "r/.github/instructions/notes.md",
        "---\napplyTo: \"**\"\n---\nNot instructions.\n",
    );
    let view = tree.view(tool("copilot"), "r");
    assert_eq!(
        loaded(&view, &tree),
        ["r/.github/instructions/all.instructions.md"]
    );
    assert_eq!(
        entry(&view, &tree, "r/.github/instructions/all.instructions.md").reason,
        "applyTo: ** matches every file"
    );
    assert_eq!(
        entry(&view, &tree, "r/.github/instructions/src.instructions.md").status,
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

/// Windsurf limits every rule file to 12,000 characters (docs "Memories & Rules"): an
/// always-on rule and the global rules file past it are cut there, at a character's
/// boundary, and `budget` counts what is kept.
#[test]
fn windsurf_cuts_each_rule_file_at_twelve_thousand_characters() {
    let tree = Tree::new();
    let long = "é".repeat(12_500);
    tree.file("home/.codeium/windsurf/memories/global_rules.md", &long)
        .file(
            "r/.windsurf/rules/big.md",
            &format!("---\ntrigger: always_on\n---\n{long}"),
        )
        .file(
            "r/.windsurf/rules/small.md",
            "---\ntrigger: always_on\n---\nSmall.\n",
        );
    let view = tree.view(tool("windsurf"), "r");
    assert_eq!(
        entry(
            &view,
            &tree,
            "home/.codeium/windsurf/memories/global_rules.md"
        )
        .status,
        Status::Cut {
            truncated_at: 24_000
        }
    );
    // The file's first 12,000 characters: its frontmatter counts, as Windsurf counts the file.
    let front = "---\ntrigger: always_on\n---\n".len();
    assert_eq!(
        entry(&view, &tree, "r/.windsurf/rules/big.md").status,
        Status::Cut {
            truncated_at: front + (12_000 - front) * 2
        }
    );
    assert_eq!(
        entry(&view, &tree, "r/.windsurf/rules/small.md").status,
        Status::Loaded
    );
}
