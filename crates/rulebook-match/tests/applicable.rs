//! A table of globs and paths.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook_match::GlobIndex;
use rulebook_rule::{FrontmatterOutcome, Level, Map, Rule, SourceMeta};

/// (rule name, first glob, first path).
type Summary<'a> = (&'a str, &'a str, &'a str);

fn rule(name: &str, globs: &[&str]) -> Rule {
    Rule {
        name: name.into(),
        path: format!("/p/.cursor/rules/{name}.mdc").into(),
        content: String::new(),
        globs: Some(globs.iter().map(ToString::to_string).collect()),
        always_apply: None,
        description: None,
        ttsr_trigger: None,
        condition: vec![],
        activation: None,
        source: SourceMeta::new("cursor", "Cursor", Level::Project, "/p"),
        frontmatter: Map::new(),
        frontmatter_outcome: FrontmatterOutcome::Parsed,
    }
}

fn matches(glob: &str, path: &str) -> bool {
    let rules = [rule("r", &[glob])];
    let (index, warnings) = GlobIndex::new(rules.iter());
    assert!(warnings.is_empty(), "{warnings:?}");
    !index.applicable("/p", [path]).is_empty()
}

#[test]
fn table() {
    let cases = [
        ("*.ts", "a.ts", true),
        ("*.ts", "src/deep/a.ts", true),
        ("*.ts", "a.tsx", false),
        ("*.{ts,tsx}", "src/a.tsx", true),
        ("src/*.ts", "src/a.ts", true),
        ("src/*.ts", "src/a/b.ts", false),
        ("src/**/*.ts", "src/a/b.ts", true),
        ("src/**/*.ts", "lib/src/a.ts", false),
        ("/src/**", "src/x", true),
        ("./src/**", "src/x", true),
        ("**/test_*.py", "a/b/test_x.py", true),
        ("Makefile", "sub/Makefile", true),
        ("docs/", "docs/x.md", false),
        ("*.ts", "/p/src/a.ts", true),
        ("*.ts", "/elsewhere/a.ts", false),
        ("*.ts", "../outside/a.ts", false),
        ("*.ts", "src/../a.ts", true),
        ("*.md", "src\\notes.md", true),
    ];
    for (glob, path, expected) in cases {
        assert_eq!(matches(glob, path), expected, "{glob} vs {path}");
    }
}

#[test]
fn first_glob_and_first_path_are_reported_in_rule_order() {
    let rules = [
        rule("none", &["*.go"]),
        rule("web", &["*.css", "*.html"]),
        rule("all", &["**"]),
        rule("web-again", &["*.html"]),
    ];
    let (index, _) = GlobIndex::new(rules.iter());
    // `*.html` is compiled once for both rules that wrote it.
    assert_eq!(index.len(), 4);
    let hits = index.applicable("/p", ["b.html", "a.css", "x.txt"]);
    let summary: Vec<Summary<'_>> = hits
        .iter()
        .map(|h| (h.name.as_str(), h.glob.as_str(), h.path.as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            ("web", "*.css", "b.html"),
            ("all", "**", "b.html"),
            ("web-again", "*.html", "b.html"),
        ]
    );
    let per_path: Vec<(String, String)> = index
        .matches("/p", "b.html")
        .into_iter()
        .map(|m| (m.name, m.glob))
        .collect();
    assert_eq!(
        per_path,
        [
            ("web".to_owned(), "*.html".to_owned()),
            ("all".to_owned(), "**".to_owned()),
            ("web-again".to_owned(), "*.html".to_owned()),
        ]
    );
}

#[test]
fn a_bad_glob_is_a_warning_and_the_others_work() {
    let rules = [rule("mixed", &["a[", "*.rs"])];
    let (index, warnings) = GlobIndex::new(rules.iter());
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].message.contains("\"a[\""),
        "{}",
        warnings[0].message
    );
    assert_eq!(index.applicable("/p", ["x.rs"]).len(), 1);
}
