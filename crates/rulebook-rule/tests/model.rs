//! What the model promises its users: the validation the registry applies, the codes and
//! their names (the `--json` and `rulebook.toml` contract), and how a diagnostic reads.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook_rule::{
    DEFAULT_MAX_FILE_SIZE, Diagnostic, DiagnosticCode, GlobDialect, InvalidRule, Level, Rule,
    Severity, SourceMeta, validate_rule,
};

fn rule(name: &str, path: &str, content: &str) -> Rule {
    Rule::new(
        name,
        path,
        content,
        SourceMeta::new("native", "Native", Level::Project, "/p"),
    )
}

#[test]
fn the_size_cap_is_one_mebibyte() {
    assert_eq!(DEFAULT_MAX_FILE_SIZE, 1_048_576);
}

#[test]
fn a_rule_needs_a_name_a_path_and_content() {
    assert_eq!(validate_rule(&rule("a", "/p/a.md", "x")), Ok(()));
    assert_eq!(
        validate_rule(&rule("", "/p/a.md", "x")),
        Err(InvalidRule::NoName)
    );
    assert_eq!(validate_rule(&rule("a", "", "x")), Err(InvalidRule::NoPath));
    assert_eq!(
        validate_rule(&rule("a", "/p/a.md", "")),
        Err(InvalidRule::NoContent)
    );
    // The original's messages, word for word (behaviour.md §6).
    assert_eq!(InvalidRule::NoName.to_string(), "Rule must have a name");
    assert_eq!(InvalidRule::NoPath.to_string(), "Rule must have a path");
    assert_eq!(InvalidRule::NoContent.to_string(), "Rule must have content");
}

#[test]
fn cursors_dialect_is_the_default_one() {
    assert!(GlobDialect::default().is_default());
    assert!(GlobDialect::Cursor.is_default());
    assert!(!GlobDialect::VsCode.is_default());
    assert!(!GlobDialect::Anchored.is_default());
}

/// Every code has a distinct kebab-case name, found again by that name; Display is the name.
#[test]
fn codes_round_trip_through_their_names() {
    let mut seen = std::collections::HashSet::new();
    for &code in DiagnosticCode::ALL {
        let name = code.as_str();
        assert!(
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{name}"
        );
        assert!(seen.insert(name), "{name} twice");
        assert_eq!(DiagnosticCode::from_name(name), Some(code));
        assert_eq!(code.to_string(), name);
    }
    assert_eq!(DiagnosticCode::YamlSyntax.as_str(), "yaml-syntax");
    assert_eq!(DiagnosticCode::from_name("no-such-code"), None);
    assert_eq!(DiagnosticCode::from_name(""), None);
}

#[test]
fn a_diagnostic_reads_with_its_provider() {
    let info = Diagnostic::new(DiagnosticCode::UnsupportedFormat, "x");
    assert_eq!(info.severity, Severity::Info);
    let warning = Diagnostic::new(DiagnosticCode::YamlSyntax, "Bad YAML")
        .with_path("/p/a.md")
        .at(Some(2), Some(5));
    assert_eq!(warning.severity, Severity::Error);
    assert_eq!(warning.to_string(), "Bad YAML");
    assert_eq!((warning.line, warning.column), (Some(2), Some(5)));
    assert_eq!(
        warning.with_provider("Cursor").to_string(),
        "[Cursor] Bad YAML"
    );
}
