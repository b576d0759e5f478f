//! The `agents-md` provider on the ecosystem's test cases (behaviour.md §13),
//! each in a scratch tree with a `.git` marker, as Codex reads them.

use std::path::Path;

use rulebook::{DiagnosticCode, Options, Profile, RuleBucket, Rulebook};
use rulebook_test::Tree;

/// The agents-md rules discovered from `cwd` in `t` (home `h`): (name, bucket, content).
fn rules_at(t: &Tree, cwd: &str) -> Vec<(String, String, String)> {
    rules(&t.discover(cwd, "h", &Options::new()))
}

fn rules(book: &Rulebook) -> Vec<(String, String, String)> {
    book.placements()
        .filter(|(r, _)| r.source.provider == "agents-md")
        .map(|(r, p)| {
            (
                r.name.clone(),
                p.bucket.map_or("none", RuleBucket::as_str).to_owned(),
                r.content.to_string(),
            )
        })
        .collect()
}

fn owned(rows: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    rows.iter()
        .map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned()))
        .collect()
}

/// AGENTS.md files from the repository root down to the working directory, root first: the
/// root's always applies, a deeper one is the rulebook's until work reaches its directory.
#[test]
fn the_chain_root_first() {
    let t = Tree::repository("r", "h");
    t.write("r/AGENTS.md", "root")
        .write("r/pkg/api/AGENTS.md", "api");
    assert_eq!(
        rules_at(&t, "r"),
        owned(&[
            ("AGENTS", "always-apply", "root"),
            ("pkg:api:AGENTS", "rulebook", "api")
        ])
    );
    assert_eq!(
        rules_at(&t, "r/pkg/api"),
        owned(&[
            ("AGENTS", "always-apply", "root"),
            ("pkg:api:AGENTS", "always-apply", "api")
        ])
    );
}

/// `AGENTS.override.md` wins over `AGENTS.md` in its directory; an empty one hides it, with an
/// info.
#[test]
fn overrides() {
    let t = Tree::repository("r", "h");
    t.write("r/AGENTS.md", "versioned")
        .write("r/AGENTS.override.md", "local");
    let book = t.discover("r", "h", &Options::new());
    assert_eq!(rules(&book), owned(&[("AGENTS", "always-apply", "local")]));
    assert!(book.items().any(|r| r.path.ends_with("AGENTS.override.md")));
    // An empty override hides AGENTS.md, with an info.
    let t = Tree::repository("r", "h");
    t.write("r/AGENTS.md", "x")
        .write("r/AGENTS.override.md", "");
    let book = t.discover("r", "h", &Options::new());
    assert!(rules(&book).is_empty());
    assert!(book.diagnostics().iter().any(|d| {
        d.message
            .contains("empty AGENTS.override.md hides AGENTS.md")
    }));
    // An override that is a directory is passed over.
    let t = Tree::repository("r", "h");
    t.write("r/AGENTS.md", "primary");
    std::fs::create_dir_all(t.path("r/AGENTS.override.md")).unwrap();
    assert_eq!(
        rules_at(&t, "r"),
        owned(&[("AGENTS", "always-apply", "primary")])
    );
}

/// The chain starts at the project root: the working directory without a marker; a `.git` file
/// marks a root as a directory does.
#[test]
fn the_project_root() {
    // No marker: the root is the working directory.
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in [("t/AGENTS.md", "t"), ("t/sub/AGENTS.md", "sub")] {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let book = Rulebook::discover(dir.path().join("t/sub"), Some(dir.path()), &Options::new());
    assert_eq!(rules(&book), owned(&[("AGENTS", "always-apply", "sub")]));
    // `.git` may be a file.
    let t = Tree::repository("r", "h");
    std::fs::remove_dir(t.path("r/.git")).unwrap();
    t.write("r/.git", "gitdir: elsewhere")
        .write("r/AGENTS.md", "root");
    assert_eq!(
        rules_at(&t, "r/a/b"),
        owned(&[("AGENTS", "always-apply", "root")])
    );
    // The nearest marker wins.
    let t = Tree::repository("r", "h");
    t.write("r/AGENTS.md", "outer")
        .write("r/sub/AGENTS.md", "inner");
    std::fs::create_dir_all(t.path("r/sub/.git")).unwrap();
    assert_eq!(
        rules_at(&t, "r/sub"),
        owned(&[("AGENTS", "always-apply", "inner")])
    );
}

/// AGENTS.md files below the working directory are scoped to their directory; ignored, hidden
/// and `node_modules` directories are not read.
#[test]
fn descendants_scoped_and_skipped() {
    let t = Tree::repository("r", "h");
    t.write("r/AGENTS.md", "root")
        .write("r/frontend/AGENTS.md", "front")
        .write("r/node_modules/p/AGENTS.md", "nm")
        .write("r/.cache/AGENTS.md", "cache")
        .write("r/dist/AGENTS.md", "dist")
        .write("r/.gitignore", "dist/\n");
    let book = t.discover("r", "h", &Options::new());
    assert_eq!(
        rules(&book),
        owned(&[
            ("AGENTS", "always-apply", "root"),
            ("frontend:AGENTS", "rulebook", "front")
        ])
    );
    let front = book.items().find(|r| r.name == "frontend:AGENTS").unwrap();
    assert_eq!(
        front.globs.as_deref(),
        Some(&["frontend/**".to_owned()][..])
    );
    assert_eq!(
        front.description.as_deref(),
        Some("Instructions for folder 'frontend'")
    );
    let hits = |p: &str| -> Vec<String> { book.matches(p).into_iter().map(|m| m.name).collect() };
    assert_eq!(hits("frontend/src/a.ts"), ["frontend:AGENTS"]);
    assert!(hits("backend/a.ts").is_empty());
}

/// A lower-case `agents.md` is Windsurf's name, not Codex's: no rule, and a warning that says
/// so.
#[test]
fn lower_case_is_windsurfs() {
    let t = Tree::repository("r", "h");
    t.write("r/agents.md", "lower");
    let book = t.discover("r", "h", &Options::new());
    assert!(rules(&book).is_empty());
    assert!(
        book.diagnostics()
            .iter()
            .any(|d| d.message.contains("read by Windsurf, not by Codex"))
    );
}

/// The user's `~/.codex` file (a blank override falls back to AGENTS.md) and the fallback names
/// of the provider option.
#[test]
fn user_file_and_fallbacks() {
    let t = Tree::repository("r", "h");
    t.write("h/.codex/AGENTS.override.md", " \n")
        .write("h/.codex/AGENTS.md", "g");
    let book = t.discover("r", "h", &Options::new());
    let user = book.items().find(|r| r.name == "~:AGENTS").unwrap();
    assert_eq!(&*user.content, "g");
    assert_eq!(user.source.level, rulebook::Level::User);
    // Fallback names (a provider option).
    let t = Tree::repository("r", "h");
    t.write("r/TEAM_GUIDE.md", "team")
        .write("r/backend/AGENTS.override.md", "be");
    std::fs::create_dir_all(t.path("r/backend")).unwrap();
    let root = t.path("r");
    let ctx = rulebook::Options::new()
        .load_context(&root.join("backend"), &t.path("h"))
        .provider_option("agents-md", "fallback_filenames", "TEAM_GUIDE.md");
    let registry = rulebook::Options::new().registry();
    let book = Rulebook::discover_in(ctx, &registry);
    assert_eq!(
        rules(&book),
        owned(&[
            ("AGENTS", "always-apply", "team"),
            ("backend:AGENTS", "always-apply", "be")
        ])
    );
}

/// Files past Codex's 32 KiB project budget are kept whole, with a note of where Codex cuts.
#[test]
fn over_codex_budget() {
    let t = Tree::repository("r", "h");
    let big = "x".repeat(20 * 1024);
    t.write("r/AGENTS.md", &big).write("r/pkg/AGENTS.md", &big);
    let book = t.discover("r/pkg", "h", &Options::new());
    assert_eq!(rules(&book).len(), 2, "kept whole");
    let note = book
        .diagnostics()
        .iter()
        .find(|d| d.code == DiagnosticCode::OverToolBudget)
        .unwrap();
    assert!(
        note.message.contains("cuts") && note.message.contains("after 12288 bytes"),
        "{}",
        note.message
    );
    assert!(Path::new(note.path.as_deref().unwrap()).ends_with("pkg/AGENTS.md"));
}

/// The reference profile reproduces the original pipeline, which reads no AGENTS.md.
#[test]
fn reference_reads_none() {
    let t = Tree::repository("r", "h");
    t.write("r/AGENTS.md", "root")
        .write("r/frontend/AGENTS.md", "front");
    let book = t.discover("r", "h", &Options::new().profile(Profile::Reference));
    assert!(rules(&book).is_empty());
}
