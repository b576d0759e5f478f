//! Rules as a [`Capability`]: keyed by name, valid with a name, a path and content.

use std::path::Path;

use rulebook_rule::{InvalidRule, Rule, validate_rule};

use crate::Capability;

/// The rules capability (`rules`).
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleCapability;

impl Capability for RuleCapability {
    type Item = Rule;
    const ID: &'static str = "rules";

    fn key(rule: &Rule) -> &str {
        &rule.name
    }

    type Invalid = InvalidRule;

    fn validate(rule: &Rule) -> Result<(), InvalidRule> {
        validate_rule(rule)
    }

    fn location(rule: &Rule) -> Option<&Path> {
        Some(&rule.path)
    }

    fn real_path(rule: &Rule) -> Option<&Path> {
        rule.source.real_path.as_deref()
    }
}
