//! Windsurf as its documentation says it loads rules (`rulebook_provider_windsurf::host`,
//! behaviour.md §13): nested rules and the character limits.

use rulebook::HostStatus as Status;

use rulebook_test::Tree;

use crate::tool;

/// Windsurf (docs "Memories & Rules"): an `always_on` rule of a `.windsurf/rules` below
/// the workspace applies to work inside its directory only, and a rule file is limited to
/// 12,000 characters: a longer one is cut there.
#[test]
fn windsurf_nested_rules_and_the_character_limit() {
    let tree = Tree::repository("r", "home");
    tree.write("r/.windsurf/rules/long.md", "é".repeat(12_500))
        .write("r/sub/.windsurf/rules/sub.md", "Sub.\n");
    let view = tree.view(tool("windsurf"), "r", "home");
    let long = tree.entry(&view, "r/.windsurf/rules/long.md");
    assert_eq!(
        long.status,
        Status::Cut {
            truncated_at: 2 * 12_000
        }
    );
    assert_eq!(view.prompt, "é".repeat(12_000));
    let sub = tree.entry(&view, "r/sub/.windsurf/rules/sub.md");
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

/// Windsurf limits every rule file to 12,000 characters (docs "Memories & Rules"): an
/// always-on rule and the global rules file past it are cut there, at a character's
/// boundary, and `budget` counts what is kept.
#[test]
fn windsurf_cuts_each_rule_file_at_twelve_thousand_characters() {
    let tree = Tree::repository("r", "home");
    let long = "é".repeat(12_500);
    tree.write("home/.codeium/windsurf/memories/global_rules.md", &long)
        .write(
            "r/.windsurf/rules/big.md",
            format!("---\ntrigger: always_on\n---\n{long}"),
        )
        .write(
            "r/.windsurf/rules/small.md",
            "---\ntrigger: always_on\n---\nSmall.\n",
        );
    let view = tree.view(tool("windsurf"), "r", "home");
    assert_eq!(
        tree.entry(&view, "home/.codeium/windsurf/memories/global_rules.md")
            .status,
        Status::Cut {
            truncated_at: 24_000
        }
    );
    // The file's first 12,000 characters: its frontmatter counts, as Windsurf counts the file.
    let front = "---\ntrigger: always_on\n---\n".len();
    assert_eq!(
        tree.entry(&view, "r/.windsurf/rules/big.md").status,
        Status::Cut {
            truncated_at: front + (12_000 - front) * 2
        }
    );
    assert_eq!(
        tree.entry(&view, "r/.windsurf/rules/small.md").status,
        Status::Loaded
    );
}
