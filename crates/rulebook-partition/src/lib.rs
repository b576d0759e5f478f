//! The buckets of behaviour.md §7, with their exact predicates and precedence.
//!
//! For each rule, in order:
//! 1. **TTSR**: a non-empty `condition` is offered to the trigger registry (a callback, so
//!    this crate does no regex work and no I/O). A rule whose registration succeeds goes
//!    nowhere else, even with `alwaysApply`. A rejected one (duplicate name, condition that
//!    does not compile) is not TTSR: it falls through, with a warning that says so.
//! 2. **always-apply**: `always_apply == Some(true)`.
//! 3. **manual** (Extended E2 only): Windsurf's `trigger: manual`; read through `rule://`,
//!    never listed.
//! 4. **rulebook**: a non-empty description.
//! 5. Otherwise no bucket, with the reason.
//!
//! Depends on `rulebook-rule` and `serde`.
//!
//! ```
//! use rulebook_partition::{partition, RuleBucket};
//! # use rulebook_rule::*;
//! # fn rule(name: &str, description: Option<&str>, always: Option<bool>, condition: &[&str]) -> Rule {
//! #     let mut rule = Rule::new(name, format!("/r/{name}.md"), "c",
//! #         SourceMeta::new("native", "Native", Level::Project, "/r")).with_condition(condition.iter().copied());
//! #     rule.description = description.map(Into::into);
//! #     rule.always_apply = always;
//! #     rule
//! # }
//! let rules = [
//!     rule("both", Some("d"), Some(true), &["TODO"]), // TTSR only
//!     rule("always", Some("d"), Some(true), &[]),     // always-apply only
//!     rule("listed", Some("d"), None, &[]),           // rulebook
//!     rule("silent", None, None, &[]),                // no bucket
//! ];
//! let result = partition(&rules, Profile::Extended, |_| Ok(Vec::new()));
//! let buckets: Vec<_> = result.placements.iter().map(|p| p.bucket).collect();
//! assert_eq!(buckets, [Some(RuleBucket::Ttsr), Some(RuleBucket::AlwaysApply),
//!                      Some(RuleBucket::Rulebook), None]);
//! assert_eq!(result.placements[3].reason.as_deref(),
//!            Some("no description, not always-apply, and no TTSR condition"));
//! ```

use rulebook_rule::{Activation, Diagnostic, DiagnosticCode, Profile, Rule};
use serde::Serialize;

/// Where a rule ends up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleBucket {
    /// Registered with the TTSR manager: injected when the stream matches its condition.
    Ttsr,
    /// Its full content goes into every system prompt.
    AlwaysApply,
    /// Listed in the prompt by name and description; read through `rule://`.
    Rulebook,
    /// Extended E2: only read through `rule://` (Windsurf `trigger: manual`).
    Manual,
}

impl RuleBucket {
    /// The bucket's name as the CLI prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleBucket::Ttsr => "ttsr",
            RuleBucket::AlwaysApply => "always-apply",
            RuleBucket::Rulebook => "rulebook",
            RuleBucket::Manual => "manual",
        }
    }
}

/// An error of the trigger registry, kept as its own type.
pub type TriggerError = Box<dyn std::error::Error + Send + Sync>;

/// Why the trigger registry refused a TTSR rule.
#[derive(Debug)]
#[non_exhaustive]
pub enum Rejection {
    /// A rule of that name is registered already.
    DuplicateName,
    /// No condition compiles; the error says which and why.
    InvalidCondition(TriggerError),
}

/// What became of one rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// Its bucket, or `None`.
    pub bucket: Option<RuleBucket>,
    /// Why it is in no bucket (set exactly when `bucket` is `None`).
    pub reason: Option<String>,
    /// Why its TTSR registration was refused, if it was.
    pub ttsr_rejected: Option<String>,
}

/// The placements of the input rules, in input order, and the warnings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Partition {
    /// One per input rule, same order.
    pub placements: Vec<Placement>,
    /// Refused TTSR registrations.
    pub diagnostics: Vec<Diagnostic>,
}

impl Partition {
    /// The positions of the rules `rule://` resolves, in resolution order (behaviour.md
    /// §9): the rulebook, then always-apply rules; with `every_loaded_rule` (Extended E5
    /// and after), then TTSR and manual rules, then the rules in no bucket, so an agent
    /// told a rule exists (a glob-only rule attached to a path) can read it.
    pub fn resolvable(&self, every_loaded_rule: bool) -> Vec<usize> {
        let mut buckets = vec![RuleBucket::Rulebook, RuleBucket::AlwaysApply];
        if every_loaded_rule {
            buckets.extend([RuleBucket::Ttsr, RuleBucket::Manual]);
        }
        let mut positions: Vec<usize> = buckets.into_iter().flat_map(|b| self.indices(b)).collect();
        if every_loaded_rule {
            positions.extend(
                self.placements
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.bucket.is_none())
                    .map(|(i, _)| i),
            );
        }
        positions
    }

    /// Indices (into the input) of the rules in `bucket`, in input order.
    pub fn indices(&self, bucket: RuleBucket) -> impl Iterator<Item = usize> + '_ {
        self.placements
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.bucket == Some(bucket))
            .map(|(i, _)| i)
    }
}

/// Places every rule (see the crate docs). `register` offers a TTSR rule to the trigger
/// registry, in input order; `Ok` carries the errors of conditions it dropped (the rule is
/// registered with the others), each of which becomes a warning.
pub fn partition<'a, I, F>(rules: I, profile: Profile, mut register: F) -> Partition
where
    I: IntoIterator<Item = &'a Rule>,
    F: FnMut(&Rule) -> Result<Vec<TriggerError>, Rejection>,
{
    let rules = rules.into_iter();
    // One placement a rule: sized once (a vector grown by doubling holds up to twice the
    // placements at 100,000 rules).
    let mut out = Partition {
        placements: Vec::with_capacity(rules.size_hint().0),
        diagnostics: Vec::new(),
    };
    for rule in rules {
        let mut ttsr_rejected = None;
        if !rule.condition.is_empty() {
            match register(rule) {
                Ok(dropped) => {
                    for why in dropped {
                        out.diagnostics.push(
                            Diagnostic::new(
                                DiagnosticCode::InvalidTrigger,
                                format!(
                                    "TTSR rule `{}` ({}): {why}; that condition is dropped and the rule fires on its others",
                                    rule.name,
                                    rule.path.display()
                                ),
                            )
                            .with_path(&rule.path),
                        );
                    }
                    out.placements.push(Placement {
                        bucket: Some(RuleBucket::Ttsr),
                        reason: None,
                        ttsr_rejected: None,
                    });
                    continue;
                }
                Err(rejection) => {
                    let (code, why) = match rejection {
                        Rejection::DuplicateName => (
                            DiagnosticCode::DuplicateTrigger,
                            "a TTSR rule of that name is registered already".to_owned(),
                        ),
                        Rejection::InvalidCondition(why) => {
                            (DiagnosticCode::InvalidTrigger, why.to_string())
                        }
                    };
                    out.diagnostics.push(
                        Diagnostic::new(
                            code,
                            format!(
                                "TTSR rule `{}` ({}) was not registered: {why}; it is placed by the always-apply and rulebook predicates instead",
                                rule.name,
                                rule.path.display()
                            ),
                        )
                        .with_path(&rule.path),
                    );
                    ttsr_rejected = Some(why);
                }
            }
        }
        let never = rule.activation == Some(Activation::Never);
        let bucket = if never {
            None
        } else if rule.always_apply == Some(true) {
            Some(RuleBucket::AlwaysApply)
        } else if profile == Profile::Extended && rule.activation == Some(Activation::Manual) {
            Some(RuleBucket::Manual)
        } else if rule.description.as_deref().is_some_and(|d| !d.is_empty()) {
            Some(RuleBucket::Rulebook)
        } else {
            None
        };
        let reason = bucket
            .is_none()
            .then(|| no_bucket_reason(rule, profile, ttsr_rejected.as_deref()));
        out.placements.push(Placement {
            bucket,
            reason,
            ttsr_rejected,
        });
    }
    out
}

/// Whether a rule may be attached to a prompt because a path matches its globs (E3): a
/// rule listed in the rulebook or in no bucket, unless it never applies. TTSR, always-apply
/// and manual rules are never attached.
pub fn attachable(rule: &Rule, placement: &Placement) -> bool {
    matches!(placement.bucket, None | Some(RuleBucket::Rulebook))
        && rule.activation != Some(Activation::Never)
}

fn no_bucket_reason(rule: &Rule, profile: Profile, rejected: Option<&str>) -> String {
    if rule.activation == Some(Activation::Never) {
        return match rule.off_reason.as_deref() {
            Some(why) => format!("it never applies: {why}"),
            None => "it never applies: its provider turned it off".to_owned(),
        };
    }
    let description = match rule.description.as_deref() {
        None => "no description",
        Some(_) => "an empty description",
    };
    let has_globs = rule.globs.as_ref().is_some_and(|g| !g.is_empty());
    if profile == Profile::Extended && has_globs && rejected.is_none() {
        return format!(
            "{description}, so it is not listed; it is attached only when a path matches its globs (E3)"
        );
    }
    match rejected {
        Some(why) => format!(
            "its TTSR condition was refused ({why}), and it has {description} and is not always-apply"
        ),
        None => format!("{description}, not always-apply, and no TTSR condition"),
    }
}
