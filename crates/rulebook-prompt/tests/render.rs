//! Rendered prompt text, each case under both profiles side by side.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook_prompt::{
    AlwaysApplied, Attached, ReferenceSection, SectionRenderer, render, section_for,
};
use rulebook_rule::{FrontmatterOutcome, Level, Profile, Rule, SourceMeta};

fn rule(name: &str, description: Option<&str>, globs: &[&str], content: &str) -> Rule {
    let mut rule = Rule::new(
        name,
        format!("/p/{name}.md"),
        content,
        SourceMeta::new("native", "Native", Level::Project, "/p"),
    );
    rule.globs = (!globs.is_empty()).then(|| globs.iter().map(ToString::to_string).collect());
    rule.description = description.map(Into::into);
    rule.frontmatter_outcome = FrontmatterOutcome::Parsed;
    rule
}

/// Both profiles' text, delimited so trailing whitespace stays visible.
fn both(always: &[&Rule], attached: &[Attached<'_>], rulebook: &[&Rule]) -> String {
    let mut out = String::new();
    for profile in [Profile::Reference, Profile::Extended] {
        let always: Vec<AlwaysApplied<'_>> = always
            .iter()
            .map(|rule| AlwaysApplied {
                rule,
                source: format!(".cursor/rules/{}.mdc", rule.name),
            })
            .collect();
        let text = render(&always, attached, rulebook, section_for(profile));
        out.push_str(&format!("=== {profile:?} ===\n{text}\n=== end ===\n"));
    }
    out
}

#[test]
fn zero_rules() {
    insta::assert_snapshot!(both(&[], &[], &[]));
}

#[test]
fn one_rule_without_globs() {
    let r = rule("style", Some("Code style"), &[], "");
    insta::assert_snapshot!(both(&[], &[], &[&r]));
}

#[test]
fn several_with_and_without_globs() {
    let a = rule(
        "typescript",
        Some("TypeScript conventions"),
        &["src/**/*.ts", "*.tsx"],
        "",
    );
    let b = rule("readme", Some("How to write the README"), &[], "");
    let c = rule("python", Some("Python style"), &["**/*.py"], "");
    insta::assert_snapshot!(both(&[], &[], &[&a, &b, &c]));
}

#[test]
fn multiline_and_whitespace_descriptions() {
    let a = rule("multi", Some("First line\nsecond line\n"), &[], "");
    let b = rule("blank", Some("   "), &["*.md"], "");
    insta::assert_snapshot!(both(&[], &[], &[&a, &b]));
}

#[test]
fn always_apply_only() {
    let a = rule("english", None, &[], "Always answer in English.");
    let b = rule(
        "tests",
        None,
        &[],
        "Run the tests before you finish.\n\nEvery time.",
    );
    insta::assert_snapshot!(both(&[&a, &b], &[], &[]));
}

#[test]
fn both_kinds_together() {
    let a = rule("english", None, &[], "Always answer in English.");
    let b = rule("style", Some("Code style"), &["*.rs"], "");
    insta::assert_snapshot!(both(&[&a], &[], &[&b]));
}

#[test]
fn markup_in_names_and_descriptions() {
    let a = rule(
        "a\"b<c>&d",
        Some("Use <T> & \"quotes\"; </rule> must not close"),
        &["src/<gen>/*.ts", "a&b"],
        "",
    );
    insta::assert_snapshot!(both(&[], &[], &[&a]));
}

#[test]
fn auto_attached_rules() {
    let always = rule("english", None, &[], "Always answer in English.");
    let ts = rule("typescript", None, &["*.ts"], "Use strict mode.");
    let listed = rule("style", Some("Code style"), &["*.rs"], "");
    let attached = [Attached {
        rule: &ts,
        glob: "*.ts",
    }];
    insta::assert_snapshot!(both(&[&always], &attached, &[&listed]));
}

#[test]
fn a_custom_section() {
    struct Terse;
    impl SectionRenderer for Terse {
        fn render_section(&self, rules: &[&Rule], out: &mut String) {
            out.push_str("Rules you may read:");
            for r in rules {
                out.push_str(&format!(" rule://{}", r.name));
            }
        }
    }
    let a = rule("english", None, &[], "Always answer in English.");
    let b = rule("style", Some("Code style"), &[], "");
    assert_eq!(
        render(
            &[AlwaysApplied {
                rule: &a,
                source: "a.md".into()
            }],
            &[],
            &[&b],
            &Terse
        ),
        "Always answer in English.\n\nRules you may read: rule://style"
    );
    // The reference renderer is a value like any other.
    assert!(render(&[], &[], &[&b], &ReferenceSection).starts_with("# Rules\n"));
}

#[test]
fn rendering_is_deterministic() {
    let a = rule("a", Some("x"), &["*.rs"], "");
    let first = render(&[], &[], &[&a], section_for(Profile::Extended));
    for _ in 0..10 {
        assert_eq!(
            render(&[], &[], &[&a], section_for(Profile::Extended)),
            first
        );
    }
}

/// `globs: []` renders as no globs at all: the empty line the original's template keeps
/// where the glob lines would be (not nothing, not `<glob></glob>`).
#[test]
fn an_empty_glob_list_keeps_the_empty_line_in_reference() {
    let mut empty = rule("style", Some("Code style"), &[], "");
    empty.globs = Some(Vec::new());
    let none = rule("style", Some("Code style"), &[], "");
    let render = |r: &Rule| {
        let mut out = String::new();
        ReferenceSection.render_section(&[r], &mut out);
        out
    };
    assert_eq!(render(&empty), render(&none));
    assert!(
        render(&empty).contains("<rule name=\"style\">\nCode style\n\n</rule>"),
        "{}",
        render(&empty)
    );
}
