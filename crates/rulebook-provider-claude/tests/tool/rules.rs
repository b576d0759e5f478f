//! The `claude` provider on the ecosystem's test cases (behaviour.md §13),
//! each in a scratch tree (the repository `r/` and the home `h/`; Claude's walk up the tree
//! stops at the tree's root).

use rulebook::{DiagnosticCode, Options, Rulebook};
use rulebook_test::Tree;

/// A tree with the repository `r` and the home `h`; Claude Code's walk up stops at its root.
fn tree() -> Tree {
    Tree::repository("r", "h")
}

fn discover_with(t: &Tree, cwd: &str, options: Options) -> Rulebook {
    let options = options.provider_option("claude", "walk_ceiling", t.root().to_string_lossy());
    t.discover(cwd, "h", &options)
}

fn discover(t: &Tree, cwd: &str) -> Rulebook {
    discover_with(t, cwd, Options::new())
}

/// The claude rules: (name, bucket).
fn claude(book: &Rulebook) -> Vec<(String, String)> {
    book.placements()
        .filter(|(r, _)| r.source.provider == "claude")
        .map(|(r, p)| {
            (
                r.name.clone(),
                p.bucket
                    .map_or("none", rulebook::RuleBucket::as_str)
                    .to_owned(),
            )
        })
        .collect()
}

fn pairs(rows: &[(&str, &str)]) -> Vec<(String, String)> {
    rows.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

fn content<'a>(book: &'a Rulebook, name: &str) -> &'a str {
    &book.items().find(|r| r.name == name).unwrap().content
}

fn has(book: &Rulebook, code: DiagnosticCode, text: &str) -> bool {
    book.diagnostics()
        .iter()
        .any(|d| d.code == code && d.message.contains(text))
}

/// CLAUDE.md, `.claude/CLAUDE.md` and CLAUDE.local.md in each directory of the chain, and past
/// the git root up to the walk's ceiling.
#[test]
fn the_chain() {
    let t = tree();
    t.write("r/CLAUDE.md", "a")
        .write("r/.claude/CLAUDE.md", "b")
        .write("r/CLAUDE.local.md", "c");
    assert_eq!(
        claude(&discover(&t, "r")),
        pairs(&[
            ("CLAUDE", "always-apply"),
            (".claude:CLAUDE", "always-apply"),
            ("CLAUDE.local", "always-apply")
        ])
    );
    // past the git root.
    let t = tree();
    t.write("CLAUDE.md", "above").write("r/CLAUDE.md", "root");
    assert_eq!(
        claude(&discover(&t, "r")),
        pairs(&[("..:CLAUDE", "always-apply"), ("CLAUDE", "always-apply")])
    );
    // the user's file first.
    let t = tree();
    t.write("h/.claude/CLAUDE.md", "user")
        .write("r/CLAUDE.md", "root");
    assert_eq!(
        claude(&discover(&t, "r")),
        pairs(&[("~:CLAUDE", "always-apply"), ("CLAUDE", "always-apply")])
    );
}

/// `.claude/rules` files: always-apply without `paths:`, attached by their globs with it, in
/// every written form of `paths:`.
#[test]
fn rules_and_paths() {
    let t = tree();
    t.write("r/.claude/rules/general.md", "General.")
        .write(
            "r/.claude/rules/api/handlers.md",
            "---\npaths:\n  - \"src/api/**/*.ts\"\n---\nHandlers.",
        )
        .write(
            "r/.claude/rules/brace.md",
            "---\npaths: src/**/*.{ts,tsx}\n---\nBrace.",
        )
        .write(
            "r/.claude/rules/commas.md",
            "---\npaths: {src,lib}/**/*.ts, tests/**/*.test.ts\n---\nCommas.",
        )
        .write(
            "r/.claude/rules/md.md",
            "---\npaths: [\"*.md\"]\n---\nMarkdown.",
        )
        .write("r/.claude/rules/cs.md", "---\nglobs: \"**/*.cs\"\n---\nC#.")
        .write(
            "r/.claude/rules/empty.md",
            "---\npaths: []\n---\nEmpty paths.",
        )
        .write("r/.claude/rules/README.md", "Not a rule.")
        .write("h/.claude/rules/style.md", "user")
        .write("r/.claude/rules/style.md", "proj");
    let book = discover(&t, "r");
    let bucket = |name: &str| {
        claude(&book)
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b)
    };
    assert_eq!(bucket("general").as_deref(), Some("always-apply"));
    assert_eq!(bucket("handlers").as_deref(), Some("rulebook"));
    let handlers = book.items().find(|r| r.name == "handlers").unwrap();
    assert_eq!(
        handlers.description.as_deref(),
        Some("Applies to src/api/**/*.ts")
    );
    let hits = |p: &str| -> Vec<String> { book.matches(p).into_iter().map(|m| m.name).collect() };
    assert!(hits("src/api/a.ts").contains(&"handlers".to_owned()));
    assert!(!hits("lib/api/a.ts").contains(&"handlers".to_owned()));
    assert!(hits("src/x/a.tsx").contains(&"brace".to_owned()));
    // one string of several patterns, split outside braces; an info says so.
    let commas = book.items().find(|r| r.name == "commas").unwrap();
    assert_eq!(
        commas.globs.as_deref().unwrap(),
        ["{src,lib}/**/*.ts", "tests/**/*.test.ts"]
    );
    assert!(hits("lib/a.ts").contains(&"commas".to_owned()));
    assert!(has(
        &book,
        DiagnosticCode::ToolsOwnForm,
        "one string of several patterns"
    ));
    assert!(hits("scripts/notes.md").contains(&"md".to_owned())); // any depth
    // `globs` is not a Claude key.
    assert_eq!(bucket("cs").as_deref(), Some("always-apply"));
    assert!(has(
        &book,
        DiagnosticCode::WrongType,
        "Claude Code ignores `globs`"
    ));
    // `paths: []` loads unconditionally, with a warning.
    assert_eq!(bucket("empty").as_deref(), Some("always-apply"));
    assert!(has(&book, DiagnosticCode::WrongType, "lists no pattern"));
    assert!(bucket("README").is_none());
    // the project's rule wins over the user's.
    assert_eq!(content(&book, "style"), "proj");
}

/// `@path` imports are expanded (not inside code spans), to a bounded depth.
#[test]
fn imports_and_comments() {
    let t = tree();
    t.write("r/CLAUDE.md", "See @docs/a.md and `@docs/b.md`")
        .write("r/docs/a.md", "A")
        .write("r/docs/b.md", "B");
    let book = discover(&t, "r");
    assert_eq!(content(&book, "CLAUDE"), "See A and `@docs/b.md`");
    let rule = book.items().find(|r| r.name == "CLAUDE").unwrap();
    assert_eq!(rule.includes.len(), 1);
    assert!(rule.includes[0].ends_with("docs/a.md"));
    // four hops.
    let t = tree();
    t.write("r/CLAUDE.md", "@1.md")
        .write("r/1.md", "1 @2.md")
        .write("r/2.md", "2 @3.md")
        .write("r/3.md", "3 @4.md")
        .write("r/4.md", "4 @5.md")
        .write("r/5.md", "5");
    let book = discover(&t, "r");
    assert_eq!(content(&book, "CLAUDE"), "1 2 3 4 @5.md");
    assert!(has(
        &book,
        DiagnosticCode::ImportSkipped,
        "depth limit (4 hops)"
    ));
    // a cycle.
    let t = tree();
    t.write("r/CLAUDE.md", "@a.md")
        .write("r/a.md", "x @b.md")
        .write("r/b.md", "y @a.md");
    let book = discover(&t, "r");
    assert_eq!(content(&book, "CLAUDE"), "x y @a.md");
    assert!(has(&book, DiagnosticCode::ImportSkipped, "cycle"));
    // relative to the importing file.
    let t = tree();
    t.write("r/.claude/CLAUDE.md", "@insights/x.md")
        .write("r/insights/x.md", "X");
    let book = discover(&t, "r");
    assert_eq!(content(&book, ".claude:CLAUDE"), "@insights/x.md");
    assert!(has(
        &book,
        DiagnosticCode::ImportSkipped,
        ".claude/insights/x.md"
    ));
    // an e-mail address is no import.
    let t = tree();
    t.write("r/CLAUDE.md", "mail me@example.com");
    let book = discover(&t, "r");
    assert_eq!(content(&book, "CLAUDE"), "mail me@example.com");
    assert!(!book.diagnostics().iter().any(|d| matches!(
        d.code,
        DiagnosticCode::ImportFailed | DiagnosticCode::ImportSkipped
    )));
    // outside the project: refused, unless allowed.
    let t = tree();
    t.write("r/CLAUDE.md", "@~/.claude/personal.md")
        .write("h/.claude/personal.md", "P");
    let book = discover(&t, "r");
    assert_eq!(content(&book, "CLAUDE"), "@~/.claude/personal.md");
    assert!(has(
        &book,
        DiagnosticCode::ImportFailed,
        "external imports are not allowed"
    ));
    let allowed = discover_with(
        &t,
        "r",
        Options::new().provider_option("claude", "allow_external_imports", "true"),
    );
    assert_eq!(content(&allowed, "CLAUDE"), "P");
    // HTML comments are removed.
    let t = tree();
    t.write("r/CLAUDE.md", "a<!-- hidden -->b");
    assert_eq!(content(&discover(&t, "r"), "CLAUDE"), "ab");
}

/// A CLAUDE.md below the working directory is scoped to its directory; `paths:` are relative to
/// the directory holding `.claude`.
#[test]
fn descendants_and_the_glob_root() {
    let t = tree();
    t.write("r/frontend/CLAUDE.md", "front");
    let book = discover(&t, "r");
    let front = book.items().find(|r| r.name == "frontend:CLAUDE").unwrap();
    assert_eq!(front.globs.as_deref().unwrap(), ["frontend/**"]);
    // `paths` are relative to the directory holding `.claude`, from a subdirectory too.
    let t = tree();
    t.write(
        "r/.claude/rules/api.md",
        "---\npaths: [\"pkg/src/**\", \"other/**\"]\n---\nAPI.",
    );
    let book = discover(&t, "r/pkg");
    let hits = |p: &str| -> Vec<String> { book.matches(p).into_iter().map(|m| m.name).collect() };
    assert_eq!(hits("src/a.ts"), ["api"]);
    assert_eq!(hits("../other/x.ts"), ["api"]);
    assert!(hits("../../elsewhere/y.ts").is_empty());
}

/// `CLAUDE.md -> AGENTS.md` is one file: Claude (priority 65) reads it first, and the
/// AGENTS.md rule is the same file, injected once.
#[cfg(unix)]
/// A CLAUDE.md linked to AGENTS.md is the same file as the agents-md provider's: one rule.
#[test]
fn a_symlinked_claude_md_is_one_rule() {
    let t = tree();
    t.write("r/AGENTS.md", "Shared instructions.");
    std::os::unix::fs::symlink(t.path("r/AGENTS.md"), t.path("r/CLAUDE.md")).unwrap();
    let book = discover(&t, "r");
    let same: Vec<(&str, &str)> = book
        .all()
        .iter()
        .filter_map(|e| match e.status {
            rulebook::Status::SameFile { by } => Some((
                e.item.source.provider.as_str(),
                book.all()[by].item.source.provider.as_str(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(same, [("agents-md", "claude")]);
    assert_eq!(
        book.system_prompt_section()
            .matches("Shared instructions.")
            .count(),
        1
    );
}

/// A CLAUDE.md that is one import of AGENTS.md is reported as such, and injected once.
#[test]
fn a_claude_md_of_one_import_is_one_rule() {
    let t = tree();
    t.write("r/AGENTS.md", "Shared instructions.")
        .write("r/CLAUDE.md", "@AGENTS.md\n");
    let book = discover(&t, "r");
    assert_eq!(
        book.system_prompt_section()
            .matches("Shared instructions.")
            .count(),
        1
    );
    assert!(has(&book, DiagnosticCode::Shadowed, "is one import of"));
    let (loser, winner) = book.shadowed().next().unwrap();
    assert_eq!(
        (
            loser.source.provider.as_str(),
            winner.source.provider.as_str()
        ),
        ("agents-md", "claude")
    );
}

/// Reference: the original has no Claude Code provider.
#[test]
fn reference_reads_no_claude_files() {
    let t = tree();
    t.write("r/CLAUDE.md", "root")
        .write("r/.claude/rules/a.md", "A");
    let book = discover_with(
        &t,
        "r",
        Options::new().profile(rulebook::Profile::Reference),
    );
    assert!(claude(&book).is_empty());
}
