//! The GitHub Copilot provider on the ecosystem's test cases (behaviour.md §13), in a scratch
//! repository `r/` with a home `h/`.

use rulebook::{Options, Profile};
use rulebook_test::{Tree, bucket_of, matching, says};

/// `copilot-instructions.md` always applies; an `.instructions.md` file attaches by its
/// `applyTo` globs (comma-separated; `**` applies always; a list is not a string and is
/// said so), and `excludeAgent` decides which agent reads it.
#[test]
fn instructions_and_apply_to() {
    let t = Tree::repository("r", "h");
    t.write("r/.github/copilot-instructions.md", "Repo-wide.")
        .write(
            "r/.github/instructions/ts.instructions.md",
            "---\napplyTo: \"**/*.ts,**/*.tsx\"\n---\nTS.",
        )
        .write(
            "r/.github/instructions/py.instructions.md",
            "---\napplyTo: \"src/**/*.py\"\n---\nPy.",
        )
        .write(
            "r/.github/instructions/all.instructions.md",
            "---\napplyTo: \"**\"\n---\nAll.",
        )
        .write(
            "r/.github/instructions/list.instructions.md",
            "---\napplyTo: [\"**/*.ts\"]\n---\nList.",
        )
        .write(
            "r/.github/instructions/notes.md",
            "Not an instruction file.",
        )
        .write(
            "r/.github/instructions/backend/api.instructions.md",
            "---\napplyTo: \"api/**\"\n---\nAPI.",
        )
        .write(
            "r/.github/instructions/rev.instructions.md",
            "---\nexcludeAgent: \"coding-agent\"\napplyTo: \"**\"\n---\nReview only.",
        )
        .write(
            "r/.github/instructions/cr.instructions.md",
            "---\nexcludeAgent: \"code-review\"\n---\nNot for review.",
        )
        .write(
            "r/.github/instructions/upper.instructions.md",
            "---\napplyTo: \"**/*.TS\"\n---\nUpper.",
        );
    let book = t.discover("r", "h", &Options::new());
    assert_eq!(
        bucket_of(&book, "copilot-instructions").as_deref(),
        Some("always-apply")
    );
    let ts = book.items().find(|r| r.name == "ts").unwrap();
    assert_eq!(ts.globs.as_deref().unwrap(), ["**/*.ts", "**/*.tsx"]);
    assert_eq!(bucket_of(&book, "ts").as_deref(), Some("rulebook"));
    assert!(matching(&book, "pkg/src/a.py").contains(&"py".to_owned()));
    assert!(says(&book, "GitHub's own agents anchor"));
    assert_eq!(bucket_of(&book, "all").as_deref(), Some("always-apply"));
    assert!(says(&book, "applyTo must be a string"));
    assert_eq!(bucket_of(&book, "list").as_deref(), Some("rulebook"));
    assert!(!matching(&book, "a.ts").contains(&"list".to_owned()));
    assert!(bucket_of(&book, "notes").is_none());
    assert!(matching(&book, "api/x.rs").contains(&"api".to_owned()));
    assert_eq!(bucket_of(&book, "rev").as_deref(), Some("none"));
    assert_eq!(bucket_of(&book, "cr").as_deref(), Some("rulebook"));
    assert!(matching(&book, "a.ts").contains(&"upper".to_owned()));
}

/// The reference profile reproduces the original pipeline, which has no GitHub Copilot provider.
#[test]
fn reference_reads_none() {
    let t = Tree::repository("r", "h");
    t.write("r/.github/copilot-instructions.md", "x");
    let book = t.discover("r", "h", &Options::new().profile(Profile::Reference));
    assert_eq!(book.items().count(), 0);
}
