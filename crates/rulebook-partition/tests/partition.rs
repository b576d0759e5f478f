//! Partition predicates beyond the fixture scenarios: a duplicate TTSR name.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook_partition::{Rejection, RuleBucket, partition};
use rulebook_rule::{FrontmatterOutcome, Level, Profile, Rule, SourceMeta};

fn rule(name: &str, description: Option<&str>, always: Option<bool>, condition: &[&str]) -> Rule {
    let mut rule = Rule::new(
        name,
        format!("/rules/{name}.md"),
        "content",
        SourceMeta::new("native", "Native", Level::Project, "/rules"),
    );
    rule.always_apply = always;
    rule.description = description.map(Into::into);
    rule.condition = condition.iter().map(ToString::to_string).collect();
    rule.frontmatter_outcome = FrontmatterOutcome::Parsed;
    rule
}

#[test]
fn duplicate_ttsr_name_falls_through() {
    // Two rules of one name reach the partition only when a caller passes them (the
    // registry deduplicates), but the registration rule must hold regardless.
    let rules = [
        rule("dup", None, None, &["a"]),
        rule("dup", Some("described"), None, &["b"]),
        rule("dup", None, Some(true), &["c"]),
    ];
    let mut seen = std::collections::HashSet::new();
    let result = partition(&rules, Profile::Reference, |r| {
        if seen.insert(r.name.clone()) {
            Ok(Vec::new())
        } else {
            Err(Rejection::DuplicateName)
        }
    });
    let buckets: Vec<_> = result.placements.iter().map(|p| p.bucket).collect();
    assert_eq!(
        buckets,
        [
            Some(RuleBucket::Ttsr),
            Some(RuleBucket::Rulebook),
            Some(RuleBucket::AlwaysApply)
        ]
    );
    assert_eq!(result.diagnostics.len(), 2);
    assert!(result.diagnostics[0].message.contains("registered already"));
}
