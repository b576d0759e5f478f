//! The `agents-md` provider on the ecosystem's test cases (behaviour.md §13),
//! each in a scratch tree with a `.git` marker, as Codex reads them.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};

use rulebook::{DiagnosticCode, Options, Profile, RuleBucket, Rulebook};

struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("r/.git")).unwrap();
        std::fs::create_dir_all(dir.path().join("h")).unwrap();
        Self { dir }
    }
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }
    fn write(&self, rel: &str, text: &str) -> &Self {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }
    fn discover(&self, cwd: &str, options: &Options) -> Rulebook {
        std::fs::create_dir_all(self.path(cwd)).unwrap();
        Rulebook::discover(self.path(cwd), Some(&self.path("h")), options)
    }
    /// The agents-md rules: (name, bucket, content).
    fn rules(&self, cwd: &str) -> Vec<(String, String, String)> {
        rules(&self.discover(cwd, &Options::new()))
    }
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

#[test]
fn t1_t2_the_chain_root_first() {
    let t = Tree::new();
    t.write("r/AGENTS.md", "root")
        .write("r/pkg/api/AGENTS.md", "api");
    assert_eq!(
        t.rules("r"),
        owned(&[
            ("AGENTS", "always-apply", "root"),
            ("pkg:api:AGENTS", "rulebook", "api")
        ])
    );
    assert_eq!(
        t.rules("r/pkg/api"),
        owned(&[
            ("AGENTS", "always-apply", "root"),
            ("pkg:api:AGENTS", "always-apply", "api")
        ])
    );
}

#[test]
fn t3_t4_t5_overrides() {
    let t = Tree::new();
    t.write("r/AGENTS.md", "versioned")
        .write("r/AGENTS.override.md", "local");
    let book = t.discover("r", &Options::new());
    assert_eq!(rules(&book), owned(&[("AGENTS", "always-apply", "local")]));
    assert!(book.items().any(|r| r.path.ends_with("AGENTS.override.md")));
    // An empty override hides AGENTS.md, with an info.
    let t = Tree::new();
    t.write("r/AGENTS.md", "x")
        .write("r/AGENTS.override.md", "");
    let book = t.discover("r", &Options::new());
    assert!(rules(&book).is_empty());
    assert!(book.diagnostics().iter().any(|d| {
        d.message
            .contains("empty AGENTS.override.md hides AGENTS.md")
    }));
    // An override that is a directory is passed over.
    let t = Tree::new();
    t.write("r/AGENTS.md", "primary");
    std::fs::create_dir_all(t.path("r/AGENTS.override.md")).unwrap();
    assert_eq!(
        t.rules("r"),
        owned(&[("AGENTS", "always-apply", "primary")])
    );
}

#[test]
fn t6_t7_t8_the_project_root() {
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
    let t = Tree::new();
    std::fs::remove_dir(t.path("r/.git")).unwrap();
    t.write("r/.git", "gitdir: elsewhere")
        .write("r/AGENTS.md", "root");
    assert_eq!(
        t.rules("r/a/b"),
        owned(&[("AGENTS", "always-apply", "root")])
    );
    // The nearest marker wins.
    let t = Tree::new();
    t.write("r/AGENTS.md", "outer")
        .write("r/sub/AGENTS.md", "inner");
    std::fs::create_dir_all(t.path("r/sub/.git")).unwrap();
    assert_eq!(
        t.rules("r/sub"),
        owned(&[("AGENTS", "always-apply", "inner")])
    );
}

#[test]
fn t9_t10_descendants_scoped_and_skipped() {
    let t = Tree::new();
    t.write("r/AGENTS.md", "root")
        .write("r/frontend/AGENTS.md", "front")
        .write("r/node_modules/p/AGENTS.md", "nm")
        .write("r/.cache/AGENTS.md", "cache")
        .write("r/dist/AGENTS.md", "dist")
        .write("r/.gitignore", "dist/\n");
    let book = t.discover("r", &Options::new());
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

#[test]
fn t11_lower_case_is_windsurfs() {
    let t = Tree::new();
    t.write("r/agents.md", "lower");
    let book = t.discover("r", &Options::new());
    assert!(rules(&book).is_empty());
    assert!(
        book.diagnostics()
            .iter()
            .any(|d| d.message.contains("read by Windsurf, not by Codex"))
    );
}

#[test]
fn t12_t13_user_file_and_fallbacks() {
    let t = Tree::new();
    t.write("h/.codex/AGENTS.override.md", " \n")
        .write("h/.codex/AGENTS.md", "g");
    let book = t.discover("r", &Options::new());
    let user = book.items().find(|r| r.name == "~:AGENTS").unwrap();
    assert_eq!(&*user.content, "g");
    assert_eq!(user.source.level, rulebook::Level::User);
    // Fallback names (a provider option).
    let t = Tree::new();
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

#[test]
fn t14_over_codex_budget() {
    let t = Tree::new();
    let big = "x".repeat(20 * 1024);
    t.write("r/AGENTS.md", &big).write("r/pkg/AGENTS.md", &big);
    let book = t.discover("r/pkg", &Options::new());
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

#[test]
fn t16_reference_reads_none() {
    let t = Tree::new();
    t.write("r/AGENTS.md", "root")
        .write("r/frontend/AGENTS.md", "front");
    let book = t.discover("r", &Options::new().profile(Profile::Reference));
    assert!(rules(&book).is_empty());
}
