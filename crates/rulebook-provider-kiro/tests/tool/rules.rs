//! The Kiro provider on the ecosystem's test cases (behaviour.md §13), in a scratch
//! repository `r/` with a home `h/`.

use rulebook::{Options, Profile};
use rulebook_test::{Tree, bucket_of, matching, says};

/// Steering files by `inclusion`: always, `fileMatch` with one, a list or comma-separated
/// patterns, `manual` and `auto`, the user's too.
#[test]
fn steering_inclusion_modes() {
    let t = Tree::repository("r", "h");
    t.write("r/.kiro/steering/product.md", "The product.")
        .write("r/.kiro/steering/comp.md", "---\ninclusion: fileMatch\nfileMatchPattern: \"components/**/*.tsx\"\n---\nComponents.")
        .write("r/.kiro/steering/two.md", "---\ninclusion: fileMatch\nfileMatchPattern: [\"**/*.ts\", \"**/*.tsx\"]\n---\nTwo.")
        .write("r/.kiro/steering/comma.md", "---\ninclusion: fileMatch\nfileMatchPattern: \"src/**/*.ts,tests/**/*.ts\"\n---\nComma.")
        .write("r/.kiro/steering/py.md", "---\ninclusion: fileMatch\nfileMatchPattern: \"*.py\"\n---\nPy.")
        .write("r/.kiro/steering/man.md", "---\ninclusion: manual\n---\nManual.")
        .write("r/.kiro/steering/auto.md", "---\ninclusion: auto\ndescription: D\n---\nAuto.")
        .write("r/.kiro/steering/auto-bare.md", "---\ninclusion: auto\n---\nAuto, no description.")
        .write("h/.kiro/steering/php.md", "---\ninclusion: fileMatch\nfileMatchPattern: \"**/*.php\"\n---\nUser PHP.")
        .write("r/.kiro/steering/php.md", "Project PHP, always.");
    let book = t.discover("r", "h", &Options::new());
    assert_eq!(bucket_of(&book, "product").as_deref(), Some("always-apply"));
    assert!(matching(&book, "components/ui/Button.tsx").contains(&"comp".to_owned()));
    assert_eq!(
        book.items()
            .find(|r| r.name == "two")
            .unwrap()
            .globs
            .as_ref()
            .unwrap()
            .len(),
        2
    );
    assert!(says(&book, "comma list as one pattern"));
    assert!(!matching(&book, "src/a.ts").contains(&"comma".to_owned()));
    assert!(matching(&book, "a.py").contains(&"py".to_owned()));
    assert!(!matching(&book, "pkg/a.py").contains(&"py".to_owned()));
    assert_eq!(bucket_of(&book, "man").as_deref(), Some("manual"));
    assert!(book.resolve("rule://man").is_ok());
    assert!(!book.system_prompt_section().contains("Manual."));
    assert_eq!(bucket_of(&book, "auto").as_deref(), Some("rulebook"));
    assert_eq!(bucket_of(&book, "auto-bare").as_deref(), Some("none"));
    let php = book.items().find(|r| r.name == "php").unwrap();
    assert_eq!(&*php.content, "Project PHP, always.");
    assert_eq!(bucket_of(&book, "php").as_deref(), Some("always-apply"));
}

/// The reference profile reproduces the original pipeline, which has no Kiro provider.
#[test]
fn reference_reads_none() {
    let t = Tree::repository("r", "h");
    t.write("r/.kiro/steering/k.md", "k");
    let book = t.discover("r", "h", &Options::new().profile(Profile::Reference));
    assert_eq!(book.items().count(), 0);
}
