//! A table of globs and paths.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook_match::GlobIndex;
use rulebook_rule::{FrontmatterOutcome, Level, Rule, SourceMeta};

/// (rule name, first glob, first path).
type Summary<'a> = (&'a str, &'a str, &'a str);

fn rule(name: &str, globs: &[&str]) -> Rule {
    let mut rule = Rule::new(
        name,
        format!("/p/.cursor/rules/{name}.mdc"),
        String::new(),
        SourceMeta::new("cursor", "Cursor", Level::Project, "/p"),
    );
    rule.globs = Some(globs.iter().map(ToString::to_string).collect());
    rule.frontmatter_outcome = FrontmatterOutcome::Parsed;
    rule
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

/// The index splits each glob into a literal directory and a remainder; it must answer
/// exactly as the whole glob compiled alone would.
#[test]
fn the_prefix_index_agrees_with_each_glob_compiled_alone() {
    let globs = [
        "*.ts",
        "src/*.ts",
        "src/**",
        "src/**/*.ts",
        "src/a/**/b/*.rs",
        "/src/x.ts",
        "./docs/**/*.md",
        "apps/api/src/rest/*",
        "apps/*/src/**",
        "a[bc]/x",
        "{src,lib}/**/*.ts",
        "src/{a,b/c}/*.ts",
        "README.md",
        "docs/guide.md",
        "src/?.ts",
        "src\\*x/y",
        "**",
        "**/test_*.py",
        "src/a/b/c/d/e/f/*.go",
    ];
    let paths = [
        "a.ts",
        "src/a.ts",
        "src/a/b.ts",
        "src",
        "src/x.ts",
        "docs/a/b.md",
        "docs/guide.md",
        "apps/api/src/rest/m.ts",
        "apps/api/src/rest/deep/m.ts",
        "apps/web/src/x/y.tsx",
        "ab/x",
        "ac/x",
        "lib/q/r.ts",
        "src/b/c/z.ts",
        "src/a/z.ts",
        "README.md",
        "x/README.md",
        "src/q.ts",
        "src*x/y",
        "t/test_a.py",
        "src/a/b/c/d/e/f/m.go",
        "src/a/q/b/w.rs",
    ];
    let rules: Vec<Rule> = globs.iter().map(|g| rule(g, &[g])).collect();
    let (index, warnings) = GlobIndex::new(rules.iter());
    assert!(warnings.is_empty(), "{warnings:?}");
    for path in paths {
        let got: Vec<&str> = index
            .matches("/p", path)
            .iter()
            .map(|m| rules[m.rule].name.as_str())
            .collect();
        let expected: Vec<&str> = globs
            .iter()
            .copied()
            .filter(|g| {
                let g = g.trim_start_matches("./").trim_start_matches('/');
                let full = if g.contains('/') {
                    g.to_owned()
                } else {
                    format!("**/{g}")
                };
                globset::GlobBuilder::new(&full)
                    .literal_separator(true)
                    .backslash_escape(true)
                    .build()
                    .unwrap()
                    .compile_matcher()
                    .is_match(path)
            })
            .collect();
        assert_eq!(got, expected, "{path}");
    }
}

#[test]
fn hostile_globs_are_refused_each_by_name_and_the_rest_still_match() {
    // 500 braces (within the length bound) for the nesting bound; the attack's 100,000
    // braces are refused by the length bound before anything looks at them.
    let deep = "{".repeat(500);
    let long = format!("src/{}", "{".repeat(100_000));
    let rules = [
        rule("braces", &[deep.as_str(), "*.md"]),
        rule("long", &[long.as_str()]),
        rule("fine", &["*.ts"]),
    ];
    let (index, warnings) = GlobIndex::new(rules.iter());
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].message.contains("`braces`") && warnings[0].message.contains("nest"));
    assert!(warnings[1].message.contains("`long`") && warnings[1].message.contains("100004 bytes"));
    // The message cuts the pattern.
    assert!(warnings[0].message.len() < 400, "{}", warnings[0].message);
    assert!(
        warnings
            .iter()
            .all(|w| w.code == rulebook_rule::DiagnosticCode::InvalidGlob)
    );
    let names: Vec<_> = index
        .matches("/p", "a/b.md")
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, ["braces"]);
    assert_eq!(index.matches("/p", "x.ts")[0].name, "fine");
}

#[test]
fn one_hundred_thousand_globs_build_and_match() {
    // Each in its own directory: before, one set of 100,000 regexes (12 s, 1.76 GB to
    // build, then minutes per path). Not a timing assertion: a bound only that would break.
    let globs: Vec<String> = (0..100_000).map(|i| format!("src/dir{i}/*.ts")).collect();
    let rules: Vec<Rule> = globs
        .chunks(1_000)
        .enumerate()
        .map(|(i, chunk)| {
            let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
            rule(&format!("r{i}"), &refs)
        })
        .collect();
    let started = std::time::Instant::now();
    let (index, warnings) = GlobIndex::new(rules.iter());
    assert!(warnings.is_empty());
    let paths: Vec<String> = (0..10_000)
        .map(|i| format!("src/dir{}/x.ts", i * 7))
        .collect();
    let hits = index.applicable("/p", &paths);
    assert_eq!(hits.len(), 70);
    assert_eq!(index.matches("/p", "src/dir99999/a.ts")[0].name, "r99");
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}

fn anchored(name: &str, root: &str, globs: &[&str]) -> Rule {
    let mut rule = rule(name, globs);
    rule.glob_dialect = rulebook_rule::GlobDialect::Anchored;
    rule.glob_root = Some(root.into());
    rule
}

fn names(index: &GlobIndex, path: &str) -> Vec<String> {
    index
        .matches("/p", path)
        .into_iter()
        .map(|m| m.name)
        .collect()
}

/// Hundreds of rules (several compile sets of globs), one broken glob among them: every
/// other rule still matches its own files, and the broken one is named and never matches.
#[test]
fn a_broken_glob_among_hundreds_is_dropped_alone() {
    let mut rules: Vec<Rule> = (0..700)
        .map(|i| rule(&format!("r{i}"), &[&format!("dir{i}/**/*.ts")]))
        .collect();
    rules[600] = rule("broken", &["dir600/[*.ts"]);
    let (index, warnings) = GlobIndex::new(rules.iter());
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].message.contains("rule `broken`") && warnings[0].message.contains("dir600/["),
        "{}",
        warnings[0].message
    );
    for i in (0..700).filter(|&i| i != 600) {
        assert_eq!(
            names(&index, &format!("dir{i}/deep/a.ts")),
            [format!("r{i}")],
            "rule r{i}"
        );
    }
    assert!(names(&index, "dir600/[x.ts").is_empty());
    assert_eq!(index.len(), 699, "the broken glob is not counted");
}

/// Hundreds of distinct patterns with no literal directory (compiled in several sets):
/// each rule matches its own files and no other rule's.
#[test]
fn hundreds_of_distinct_patterns_each_match_their_own_files() {
    let rules: Vec<Rule> = (0..700)
        .map(|i| rule(&format!("r{i}"), &[&format!("**/*.e{i}")]))
        .collect();
    let (index, warnings) = GlobIndex::new(rules.iter());
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(index.len(), 700);
    for i in 0..700 {
        assert_eq!(
            names(&index, &format!("src/x/a.e{i}")),
            [format!("r{i}")],
            "rule r{i}"
        );
    }
}

/// Rules rooted at different directories (a nested rule directory and the project): each
/// glob is matched against the path relative to its own root.
#[test]
fn each_root_sees_the_path_relative_to_it() {
    let rules = [
        anchored("api", "/p/apps/api", &["src/**"]),
        anchored("top", "/p", &["src/**"]),
        anchored("web", "/p/apps/web", &["src/**"]),
    ];
    let (index, warnings) = GlobIndex::new(rules.iter());
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(names(&index, "apps/api/src/x.ts"), ["api"]);
    assert_eq!(names(&index, "src/x.ts"), ["top"]);
    assert_eq!(names(&index, "apps/web/src/x.ts"), ["web"]);
    assert!(names(&index, "apps/other/src/x.ts").is_empty());
}

/// A `!` glob (the anchored dialect) vetoes its own rule only.
#[test]
fn a_negation_vetoes_its_rule_only() {
    let rules = [
        anchored("code", "/p", &["src/**", "!src/gen/**"]),
        anchored("all", "/p", &["src/**"]),
    ];
    let (index, _) = GlobIndex::new(rules.iter());
    assert_eq!(names(&index, "src/a.ts"), ["code", "all"]);
    assert_eq!(names(&index, "src/gen/a.ts"), ["all"]);
}

/// The path the globs see: relative to the root, `/`-separated, `..` resolved; `None`
/// outside the root.
#[test]
fn relative_paths() {
    assert_eq!(
        GlobIndex::relative("/p", "/p/src/a.ts").as_deref(),
        Some("src/a.ts")
    );
    assert_eq!(
        GlobIndex::relative("/p", "src/../lib/b.ts").as_deref(),
        Some("lib/b.ts")
    );
    assert_eq!(GlobIndex::relative("/p", "/elsewhere/a.ts"), None);
    assert_eq!(GlobIndex::relative("/p", "../a.ts"), None);
}

#[test]
fn an_index_of_no_glob_is_empty() {
    let (none, _) = GlobIndex::new([rule("r", &[])].iter());
    assert!(none.is_empty());
    assert_eq!(none.len(), 0);
    let (one, _) = GlobIndex::new([rule("r", &["*.ts"])].iter());
    assert!(!one.is_empty());
    assert_eq!(one.len(), 1);
}

/// The bounds are inclusive: a glob of exactly the allowed length or nesting compiles; one
/// byte or one level more is refused with the reason. Escaped braces do not nest.
#[test]
fn glob_bounds_are_exact() {
    let warnings = |glob: &str| GlobIndex::new([rule("r", &[glob])].iter()).1;
    let long = format!("{}.ts", "a".repeat(rulebook_match::MAX_GLOB_LEN - 3));
    assert!(warnings(&long).is_empty(), "{:?}", warnings(&long));
    let too_long = format!("a{long}");
    assert!(warnings(&too_long)[0].message.contains("bytes long"));
    let nest = |n: usize| format!("{}x{}", "{a,".repeat(n), "}".repeat(n));
    let deep = nest(rulebook_match::MAX_GLOB_NESTING);
    assert!(warnings(&deep).is_empty(), "{:?}", warnings(&deep));
    let too_deep = nest(rulebook_match::MAX_GLOB_NESTING + 1);
    assert!(warnings(&too_deep)[0].message.contains("nest"));
    // Braces after a backslash are literal: they open no alternation.
    let escaped = format!("{}x", "\\{".repeat(rulebook_match::MAX_GLOB_NESTING + 4));
    assert!(
        !warnings(&escaped)
            .iter()
            .any(|w| w.message.contains("nest")),
        "{:?}",
        warnings(&escaped)
    );
    // A closing brace closes: siblings do not add up.
    let siblings = "{a,b}".repeat(rulebook_match::MAX_GLOB_NESTING + 4);
    assert!(warnings(&siblings).is_empty(), "{:?}", warnings(&siblings));
}
