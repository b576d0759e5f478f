//! The Copilot, Gemini and Kiro providers on the ecosystem's test cases (behaviour.md §13),
//! each in a scratch repository `r/` with a home `h/`.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::PathBuf;

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
    fn book_with(&self, cwd: &str, options: &Options) -> Rulebook {
        std::fs::create_dir_all(self.path(cwd)).unwrap();
        Rulebook::discover(self.path(cwd), Some(&self.path("h")), options)
    }
    fn book(&self) -> Rulebook {
        self.book_with("r", &Options::new())
    }
}

fn bucket(book: &Rulebook, name: &str) -> Option<String> {
    book.placements()
        .find(|(r, _)| r.name == name)
        .map(|(_, p)| p.bucket.map_or("none", RuleBucket::as_str).to_owned())
}

fn hits(book: &Rulebook, path: &str) -> Vec<String> {
    book.matches(path).into_iter().map(|m| m.name).collect()
}

fn has(book: &Rulebook, text: &str) -> bool {
    book.diagnostics().iter().any(|d| d.message.contains(text))
}

#[test]
fn copilot_t36_to_t44() {
    let t = Tree::new();
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
    let book = t.book();
    assert_eq!(
        bucket(&book, "copilot-instructions").as_deref(),
        Some("always-apply")
    );
    let ts = book.items().find(|r| r.name == "ts").unwrap();
    assert_eq!(ts.globs.as_deref().unwrap(), ["**/*.ts", "**/*.tsx"]);
    assert_eq!(bucket(&book, "ts").as_deref(), Some("rulebook"));
    assert!(hits(&book, "pkg/src/a.py").contains(&"py".to_owned()));
    assert!(has(&book, "GitHub's own agents anchor"));
    assert_eq!(bucket(&book, "all").as_deref(), Some("always-apply"));
    assert!(has(&book, "applyTo must be a string"));
    assert_eq!(bucket(&book, "list").as_deref(), Some("rulebook"));
    assert!(!hits(&book, "a.ts").contains(&"list".to_owned()));
    assert!(bucket(&book, "notes").is_none());
    assert!(hits(&book, "api/x.rs").contains(&"api".to_owned()));
    assert_eq!(bucket(&book, "rev").as_deref(), Some("none"));
    assert_eq!(bucket(&book, "cr").as_deref(), Some("rulebook"));
    assert!(hits(&book, "a.ts").contains(&"upper".to_owned()));
}

#[test]
fn gemini_t45_to_t51() {
    let t = Tree::new();
    t.write("r/GEMINI.md", "root")
        .write("r/Api/GEMINI.md", "api")
        .write("h/.gemini/GEMINI.md", "user");
    let book = t.book_with("r/Api", &Options::new());
    let order: Vec<&str> = book
        .bucket(RuleBucket::AlwaysApply)
        .into_iter()
        .filter(|r| r.source.provider == "gemini")
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(order, ["~:GEMINI", "GEMINI", "Api:GEMINI"]);
    // Lower case is not read.
    let t = Tree::new();
    t.write("r/gemini.md", "lower");
    assert!(t.book().items().all(|r| r.source.provider != "gemini"));
    // Not inside code.
    let t = Tree::new();
    t.write("r/GEMINI.md", "x\n```\n@./a.md\n```\n@a.md")
        .write("r/a.md", "A");
    let book = t.book();
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
    let t = Tree::new();
    std::fs::create_dir_all(t.path("r/GEMINI.md")).unwrap();
    let book = t.book();
    assert!(book.items().all(|r| r.source.provider != "gemini"));
    assert!(
        book.diagnostics()
            .iter()
            .all(|d| d.provider.as_deref() != Some("Gemini CLI"))
    );
    // AGENTS.md in `file_names` is left to agents-md.
    let t = Tree::new();
    t.write("r/AGENTS.md", "agents");
    let book = t.book_with(
        "r",
        &Options::new().provider_option("gemini", "file_names", "AGENTS.md,GEMINI.md"),
    );
    let providers: Vec<&str> = book.items().map(|r| r.source.provider.as_str()).collect();
    assert_eq!(providers, ["agents-md"]);
    assert!(has(&book, "read by its own provider"));
}

#[test]
fn kiro_t52_to_t60() {
    let t = Tree::new();
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
    let book = t.book();
    assert_eq!(bucket(&book, "product").as_deref(), Some("always-apply"));
    assert!(hits(&book, "components/ui/Button.tsx").contains(&"comp".to_owned()));
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
    assert!(has(&book, "comma list as one pattern"));
    assert!(!hits(&book, "src/a.ts").contains(&"comma".to_owned()));
    assert!(hits(&book, "a.py").contains(&"py".to_owned()));
    assert!(!hits(&book, "pkg/a.py").contains(&"py".to_owned()));
    assert_eq!(bucket(&book, "man").as_deref(), Some("manual"));
    assert!(book.resolve("rule://man").is_ok());
    assert!(!book.system_prompt_section().contains("Manual."));
    assert_eq!(bucket(&book, "auto").as_deref(), Some("rulebook"));
    assert_eq!(bucket(&book, "auto-bare").as_deref(), Some("none"));
    let php = book.items().find(|r| r.name == "php").unwrap();
    assert_eq!(&*php.content, "Project PHP, always.");
    assert_eq!(bucket(&book, "php").as_deref(), Some("always-apply"));
}

#[test]
fn reference_reads_none_of_them() {
    let t = Tree::new();
    t.write("r/.github/copilot-instructions.md", "x")
        .write("r/GEMINI.md", "g")
        .write("r/.kiro/steering/k.md", "k");
    let book = t.book_with("r", &Options::new().profile(Profile::Reference));
    assert_eq!(book.items().count(), 0);
}
