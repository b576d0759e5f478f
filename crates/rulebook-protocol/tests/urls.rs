//! The URL table: every URL parsed and resolved, one line each, in one snapshot.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fmt::Write;

use rulebook_protocol::{complete, resolve};
use rulebook_rule::{FrontmatterOutcome, Level, Rule, SourceMeta};

fn rule(name: &str) -> Rule {
    let mut rule = Rule::new(
        name,
        format!("/project/.xcsh/rules/{name}.md"),
        format!("Body of {name}."),
        SourceMeta::new("native", "Native", Level::Project, "/project"),
    );
    rule.description = Some(format!("About {name}"));
    rule.frontmatter_outcome = FrontmatterOutcome::Parsed;
    rule
}

const URLS: &[&str] = &[
    "rule://style",
    "RULE://style",
    "Rule://style",
    "rule://Style",
    "rule://STYLE",
    "rule://style/extra/path",
    "rule://style?version=2",
    "rule://style#section",
    "rule://style/?#",
    "rule://my%20rule",
    "rule://my rule",
    "rule://a%2Fb",
    "rule://%C3%BCber",
    "rule://über",
    "rule://%E0%A4%A",
    "rule://100%",
    "rule://%zz",
    "rule://%FF",
    "rule://v1.2.3",
    "rule://me@host",
    "rule://c:d",
    "rule://c++",
    "rule://~home",
    "rule://..",
    "rule://",
    "rule:///x",
    "rule://?q",
    "rule://#f",
    "rule:x",
    "rules://style",
    "http://style",
    "",
    "rule://unknown",
];

#[test]
fn url_table() {
    let rules: Vec<Rule> = [
        "style", "Style", "my rule", "a/b", "über", "%E0%A4%A", "100%", "%zz", "%FF", "v1.2.3",
        "me@host", "c:d", "c++", "~home",
    ]
    .into_iter()
    .map(rule)
    .collect();
    let mut table = String::new();
    for url in URLS {
        let outcome = match resolve(url, rules.iter()) {
            Ok(r) => format!(
                "ok {:?} ({} bytes, {}, {})",
                r.name,
                r.size,
                r.content_type,
                r.source_path.display()
            ),
            Err(e) => format!("error {:?}", e.to_string()),
        };
        writeln!(table, "{url:<24} → {outcome}").unwrap();
    }
    insta::assert_snapshot!(table);
}

#[test]
fn unknown_with_and_without_rules() {
    let err = resolve("rule://x", std::iter::empty()).unwrap_err();
    assert_eq!(err.to_string(), "Unknown rule: x\nAvailable: none");
    let rules = [rule("a"), rule("b"), rule("a")];
    let err = resolve("rule://x", rules.iter()).unwrap_err();
    assert_eq!(err.to_string(), "Unknown rule: x\nAvailable: a, b");
}

#[test]
fn first_match_wins() {
    let mut second = rule("dup");
    second.content = "second".into();
    let rules = [rule("dup"), second];
    assert_eq!(
        resolve("rule://dup", rules.iter()).unwrap().content,
        "Body of dup."
    );
}

/// Completions come in the rules' order, each name once, with the first rule's
/// description; a prefix every rule has lists every name.
#[test]
fn completions() {
    let mut later_style = rule("style");
    later_style.description = Some("The second style".to_owned());
    let rules = [
        rule("style"),
        rule("strict mode"),
        rule("other"),
        later_style,
    ];
    let found = complete("rule://st", rules.iter());
    let names: Vec<&str> = found.iter().map(|c| c.url.as_str()).collect();
    assert_eq!(names, ["rule://style", "rule://strict%20mode"]);
    assert_eq!(found[0].description.as_deref(), Some("About style"));
    assert_eq!(complete("", rules.iter()).len(), 3);
    // Many names, some twice: each once, in order.
    let many: Vec<Rule> = (0..2000).map(|i| rule(&format!("r{}", i % 1500))).collect();
    let all = complete("", many.iter());
    assert_eq!(all.len(), 1500);
    assert!(
        all.iter()
            .enumerate()
            .all(|(i, c)| c.name == format!("r{i}"))
    );
}

/// The index the facade resolves through: the first rule of a name wins, positions are
/// those of the rules given, and the names are counted once.
#[test]
fn the_url_index_keeps_the_first_rule_of_a_name() {
    use rulebook_protocol::{ProtocolError, UrlIndex};
    let rules = [rule("a"), rule("b"), rule("a"), rule("c")];
    let index = UrlIndex::new(rules.iter());
    assert_eq!(index.position("rule://a"), Ok(0));
    assert_eq!(index.position("rule://b"), Ok(1));
    assert_eq!(
        index.position("rule://c"),
        Ok(3),
        "the position among the rules given"
    );
    assert_eq!(index.len(), 3);
    assert!(!index.is_empty());
    match index.position("rule://zzz") {
        Err(ProtocolError::UnknownRule { name, available }) => {
            assert_eq!(name, "zzz");
            assert_eq!(available, ["a", "b", "c"]);
        }
        other => panic!("{other:?}"),
    }
    let none = UrlIndex::new([].iter());
    assert!(none.is_empty());
    assert_eq!(none.len(), 0);
}
