//! The Gemini CLI provider on the ecosystem's test cases (behaviour.md §13), in a scratch
//! repository `r/` with a home `h/`.

use rulebook::{DiagnosticCode, Options, Profile, RuleBucket, Rulebook};
use rulebook_test::{Tree, says};

/// GEMINI.md from the user's `~/.gemini`, then from the root down to the working directory;
/// a lower-case name is not read, imports inside code are not expanded, without a
/// repository an import stays in its file's directory, a directory named GEMINI.md is
/// nothing, and `file_names` leaves AGENTS.md to the agents-md provider.
#[test]
fn context_files_up_and_down() {
    let t = Tree::repository("r", "h");
    t.write("r/GEMINI.md", "root")
        .write("r/Api/GEMINI.md", "api")
        .write("h/.gemini/GEMINI.md", "user");
    let book = t.discover("r/Api", "h", &Options::new());
    let order: Vec<&str> = book
        .bucket(RuleBucket::AlwaysApply)
        .into_iter()
        .filter(|r| r.source.provider == "gemini")
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(order, ["~:GEMINI", "GEMINI", "Api:GEMINI"]);
    // Lower case is not read.
    let t = Tree::repository("r", "h");
    t.write("r/gemini.md", "lower");
    assert!(
        t.discover("r", "h", &Options::new())
            .items()
            .all(|r| r.source.provider != "gemini")
    );
    // Not inside code.
    let t = Tree::repository("r", "h");
    t.write("r/GEMINI.md", "x\n```\n@./a.md\n```\n@a.md")
        .write("r/a.md", "A");
    let book = t.discover("r", "h", &Options::new());
    let rule = book.items().find(|r| r.name == "GEMINI").unwrap();
    assert_eq!(&*rule.content, "x\n```\n@./a.md\n```\nA");
    // Without a repository, imports stay in the file's directory.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("t/sub")).unwrap();
    std::fs::write(dir.path().join("t/sub/GEMINI.md"), "@../x.md").unwrap();
    std::fs::write(dir.path().join("t/x.md"), "X").unwrap();
    let book = Rulebook::discover(dir.path().join("t/sub"), Some(dir.path()), &Options::new());
    let rule = book
        .items()
        .find(|r| r.source.provider == "gemini")
        .unwrap();
    assert_eq!(&*rule.content, "@../x.md");
    assert!(
        book.diagnostics()
            .iter()
            .any(|d| d.code == DiagnosticCode::ImportFailed)
    );
    // A directory named GEMINI.md: nothing, no diagnostic.
    let t = Tree::repository("r", "h");
    std::fs::create_dir_all(t.path("r/GEMINI.md")).unwrap();
    let book = t.discover("r", "h", &Options::new());
    assert!(book.items().all(|r| r.source.provider != "gemini"));
    assert!(
        book.diagnostics()
            .iter()
            .all(|d| d.provider.as_deref() != Some("Gemini CLI"))
    );
    // AGENTS.md in `file_names` is left to agents-md.
    let t = Tree::repository("r", "h");
    t.write("r/AGENTS.md", "agents");
    let book = t.discover(
        "r",
        "h",
        &Options::new().provider_option("gemini", "file_names", "AGENTS.md,GEMINI.md"),
    );
    let providers: Vec<&str> = book.items().map(|r| r.source.provider.as_str()).collect();
    assert_eq!(providers, ["agents-md"]);
    assert!(says(&book, "read by its own provider"));
}

/// The reference profile reproduces the original pipeline, which has no Gemini CLI provider.
#[test]
fn reference_reads_none() {
    let t = Tree::repository("r", "h");
    t.write("r/GEMINI.md", "g");
    let book = t.discover("r", "h", &Options::new().profile(Profile::Reference));
    assert_eq!(book.items().count(), 0);
}
