//! `Rulebook::rediscover` reads the rules again over the walk of the book it is called on:
//! after edits to files already read, its result is a fresh discovery's, nested rules
//! included; a directory created since is not seen (the walk is reused, which is the
//! point), so a caller that sees one discovers anew.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fmt::Write;
use std::path::Path;

use rulebook::{Options, Profile, Rulebook};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Every rule with its content and fate, and every diagnostic: what two books must share.
fn summary(book: &Rulebook) -> String {
    let mut out = String::new();
    for file in book.files() {
        writeln!(
            out,
            "{} {} {:?} {:?}",
            file.rule.name,
            file.rule.path.display(),
            &*file.rule.content,
            file.fate
        )
        .unwrap();
    }
    for d in book.diagnostics() {
        writeln!(out, "{d:?}").unwrap();
    }
    out
}

#[test]
fn after_edits_it_finds_what_a_fresh_discovery_finds() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    let top = root.join(".cursor/rules/style.mdc");
    let nested = root.join("apps/api/.cursor/rules/api.mdc");
    let agents = root.join("apps/web/AGENTS.md");
    write(&top, "---\nalwaysApply: true\n---\nTabs.\n");
    write(&nested, "---\nglobs: src/**\n---\nREST.\n");
    write(&agents, "Web.\n");
    for profile in [Profile::Extended, Profile::Reference] {
        let options = Options::new().profile(profile);
        let book = Rulebook::discover(&root, Some(&root.join("home")), &options);
        // The reference profile reads no nested rules (E11 is the extended profile's).
        let nested_read = profile == Profile::Extended;
        assert_eq!(summary(&book).contains("\"REST.\""), nested_read);

        write(
            &top,
            "---\nalwaysApply: false\ndescription: house style\n---\nSpaces.\n",
        );
        write(&nested, "---\nglobs: [unclosed\n---\nGraphQL.\n");
        write(&agents, "Web, again.\n");
        let again = book.rediscover(&options);
        let fresh = Rulebook::discover(&root, Some(&root.join("home")), &options);
        assert_eq!(summary(&again), summary(&fresh), "{profile:?}");
        assert!(summary(&again).contains("Spaces."), "{}", summary(&again));
        assert_eq!(summary(&again).contains("GraphQL."), nested_read);
        assert!(!summary(&again).contains("REST."), "{}", summary(&again));

        // A directory created since: a fresh discovery finds it, the reused walk does not.
        let new = root.join("apps/cli/.cursor/rules/cli.mdc");
        write(&new, "---\nalwaysApply: true\n---\nCLI.\n");
        assert!(!summary(&again.rediscover(&options)).contains("CLI."));
        let fresh = Rulebook::discover(&root, Some(&root.join("home")), &options);
        assert_eq!(summary(&fresh).contains("CLI."), nested_read);
        std::fs::remove_dir_all(root.join("apps/cli")).unwrap();
        write(&top, "---\nalwaysApply: true\n---\nTabs.\n");
        write(&nested, "---\nglobs: src/**\n---\nREST.\n");
    }
}
