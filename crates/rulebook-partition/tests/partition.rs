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

fn placed(rules: &[Rule], profile: Profile) -> rulebook_partition::Partition {
    partition(rules, profile, |_| Ok(Vec::new()))
}

/// The names the CLI, `--bucket` and `list --json` use for the buckets.
#[test]
fn bucket_names_are_the_json_contract() {
    let names: Vec<&str> = [
        RuleBucket::Ttsr,
        RuleBucket::AlwaysApply,
        RuleBucket::Rulebook,
        RuleBucket::Manual,
    ]
    .map(RuleBucket::as_str)
    .to_vec();
    assert_eq!(names, ["ttsr", "always-apply", "rulebook", "manual"]);
}

/// One rule of each fate, in an order that is no bucket's order.
fn mixed() -> Vec<Rule> {
    let mut manual = rule("manual", Some("on request"), None, &[]);
    manual.activation = Some(rulebook_rule::Activation::Manual);
    let mut globbed = rule("globbed", None, None, &[]);
    globbed.globs = Some(vec!["src/**".to_owned()]);
    let mut never = rule("never", Some("off"), None, &[]);
    never.activation = Some(rulebook_rule::Activation::Never);
    vec![
        rule("listed-1", Some("first"), None, &[]),
        rule("always", None, Some(true), &[]),
        rule("trigger", None, None, &["console\\.log"]),
        manual,
        globbed,
        rule("listed-2", Some("second"), None, &[]),
        never,
        rule("bare", None, None, &[]),
    ]
}

#[test]
fn indices_are_a_buckets_rules_in_input_order() {
    let p = placed(&mixed(), Profile::Extended);
    let of = |b| p.indices(b).collect::<Vec<_>>();
    assert_eq!(of(RuleBucket::Rulebook), [0, 5]);
    assert_eq!(of(RuleBucket::AlwaysApply), [1]);
    assert_eq!(of(RuleBucket::Ttsr), [2]);
    assert_eq!(of(RuleBucket::Manual), [3]);
}

/// A manual rule (Extended) is its own bucket; Reference knows no manual rules and files
/// it by its description.
#[test]
fn the_manual_bucket_is_extended_only() {
    let rules = mixed();
    assert_eq!(
        placed(&rules, Profile::Extended).placements[3].bucket,
        Some(RuleBucket::Manual)
    );
    assert_eq!(
        placed(&rules, Profile::Reference).placements[3].bucket,
        Some(RuleBucket::Rulebook)
    );
}

/// `rule://` order: the rulebook, then always-apply; with every loaded rule, then TTSR,
/// manual, and the rules in no bucket.
#[test]
fn resolution_order() {
    let p = placed(&mixed(), Profile::Extended);
    assert_eq!(p.resolvable(false), [0, 5, 1]);
    assert_eq!(p.resolvable(true), [0, 5, 1, 2, 3, 4, 6, 7]);
}

/// Only a listed rule or one in no bucket is attached by its globs; never a TTSR,
/// always-apply or manual rule, nor one that never applies.
#[test]
fn what_may_be_attached() {
    let rules = mixed();
    let p = placed(&rules, Profile::Extended);
    let attachable: Vec<&str> = rules
        .iter()
        .zip(&p.placements)
        .filter(|(r, placement)| rulebook_partition::attachable(r, placement))
        .map(|(r, _)| r.name.as_str())
        .collect();
    assert_eq!(attachable, ["listed-1", "globbed", "listed-2", "bare"]);
}

/// Why a rule is in no bucket, in words a person acts on.
#[test]
fn the_reasons_for_no_bucket() {
    let mut rules = mixed();
    rules.push(rule("blank", Some(""), None, &[]));
    let extended = placed(&rules, Profile::Extended);
    let reference = placed(&rules, Profile::Reference);
    let reason = |p: &rulebook_partition::Partition, i: usize| p.placements[i].reason.clone();
    assert_eq!(
        reason(&extended, 4).as_deref(),
        Some(
            "no description, so it is not listed; it is attached only when a path matches its globs (E3)"
        ),
        "globs only, Extended"
    );
    assert_eq!(
        reason(&reference, 4).as_deref(),
        Some("no description, not always-apply, and no TTSR condition"),
        "Reference never attaches by glob"
    );
    assert!(
        reason(&extended, 6).is_some_and(|r| r.starts_with("it never applies")),
        "{:?}",
        reason(&extended, 6)
    );
    assert_eq!(
        reason(&extended, 8).as_deref(),
        Some("an empty description, not always-apply, and no TTSR condition")
    );
    for (i, p) in extended.placements.iter().enumerate() {
        assert_eq!(p.bucket.is_none(), p.reason.is_some(), "rule {i}");
    }
}

/// A TTSR rule whose registration is refused falls through to the other buckets, and its
/// reason says why.
#[test]
fn a_refused_trigger_is_in_the_reason() {
    let rules = [rule("t", None, None, &["("])];
    let p = partition(&rules, Profile::Extended, |_| {
        Err(Rejection::InvalidCondition("unclosed group".into()))
    });
    assert_eq!(p.placements[0].bucket, None);
    let reason = p.placements[0].reason.clone().unwrap_or_default();
    assert!(
        reason.contains("its TTSR condition was refused (") && reason.contains("unclosed group"),
        "{reason}"
    );
    assert_eq!(p.diagnostics.len(), 1);
}
