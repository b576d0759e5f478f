//! One module per command, as ruff's `crates/ruff/src/commands/` does. Each writes into the
//! [`crate::printer::Printer`] and returns the exit code.

pub(crate) mod check;
pub(crate) mod complete;
pub(crate) mod explain;
pub(crate) mod host;
pub(crate) mod list;
pub(crate) mod matches;
pub(crate) mod prompt;
pub(crate) mod read;
pub(crate) mod skills;

use rulebook::{Rule, RuleBucket, Rulebook};

pub(crate) use rulebook_report::not_loaded;

/// Where an active rule landed: a bucket, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Landed {
    /// In this bucket.
    In(RuleBucket),
    /// In no bucket.
    Nowhere,
}

impl From<Option<RuleBucket>> for Landed {
    fn from(bucket: Option<RuleBucket>) -> Self {
        bucket.map_or(Self::Nowhere, Self::In)
    }
}

/// A bucket by the name `--bucket` takes (`none` is the rules in no bucket).
pub(crate) fn parse_bucket(name: &str) -> Result<Landed, String> {
    [
        RuleBucket::Ttsr,
        RuleBucket::AlwaysApply,
        RuleBucket::Rulebook,
        RuleBucket::Manual,
    ]
    .into_iter()
    .find(|b| b.as_str() == name)
    .map(Landed::In)
    .or_else(|| (name == "none").then_some(Landed::Nowhere))
    .ok_or_else(|| {
        format!("unknown bucket `{name}`: use ttsr, always-apply, rulebook, manual or none")
    })
}

/// Where a rule applies, when not everywhere in the project ([`Rulebook::scope`]), with
/// control characters escaped.
pub(crate) fn scope(book: &Rulebook, rule: &Rule) -> Option<String> {
    book.scope(rule)
        .map(|s| crate::printer::escape(&s).into_owned())
}

/// Whether two skill files hold the same bytes: a copy (or the same file through a link)
/// counts as one skill, and is said so rather than "shadowed". Compared a block at a time.
pub(crate) fn same_content(a: &std::path::Path, b: &std::path::Path) -> bool {
    rulebook::stages::fs::same_bytes(a, b).unwrap_or(false)
}
