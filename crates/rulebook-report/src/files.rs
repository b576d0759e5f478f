//! What became of each loaded file, in the two shapes published for it: the CLI's
//! `explain --json` ([`FileReport`], [`Summary`]) and the MCP server's `explain`
//! ([`RuleStory`], [`Explanation`]). Both are read from the one join of
//! [`Rulebook::files`].

use std::path::Path;

use rulebook::stages::rule::{FrontmatterOutcome, Map};
use rulebook::{Activation, Diagnostic, DiagnosticCode, Fate, FileFate, RuleBucket, Rulebook};
use serde::Serialize;

use crate::findings::{Finding, finding};
use crate::text::{self, JsonSource, PathText};

/// What became of one file, as `explain --json` writes it (flattened into the file's
/// object, its `status` the tag).
#[derive(Debug, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum FateReport<'a> {
    /// A rule of higher priority has its name.
    Shadowed {
        /// The file that won.
        shadowed_by: JsonSource<'a>,
    },
    /// A provider of higher priority read the same file.
    #[serde(rename = "same-file")]
    SameFile {
        /// The file as that provider read it.
        same_file_as: JsonSource<'a>,
    },
    /// It failed validation.
    Invalid {
        /// Why.
        reason: &'a str,
    },
    /// Active, in a bucket.
    Bucketed {
        /// `ttsr`, `always-apply`, `rulebook` or `manual`.
        bucket: &'static str,
        /// Why its condition could not be a TTSR trigger, when it fell through.
        ttsr_rejected: Option<&'a str>,
    },
    /// Active, in no bucket.
    Unbucketed {
        /// Why.
        reason: &'a str,
    },
}

impl<'a> FateReport<'a> {
    /// The report of one fate.
    pub fn new(book: &'a Rulebook, fate: &Fate<'a>) -> Self {
        let source = |by: usize| JsonSource::new(&book.all()[by].item);
        match *fate {
            Fate::Shadowed { by } => Self::Shadowed {
                shadowed_by: source(by),
            },
            Fate::SameFile { by } => Self::SameFile {
                same_file_as: source(by),
            },
            Fate::Invalid { reason } => Self::Invalid { reason },
            Fate::Active { placement, .. } => match placement.bucket {
                Some(bucket) => Self::Bucketed {
                    bucket: bucket.as_str(),
                    ttsr_rejected: placement.ttsr_rejected.as_deref(),
                },
                None => Self::Unbucketed {
                    reason: placement.reason.as_deref().unwrap_or_default(),
                },
            },
        }
    }
}

/// The frontmatter and fields of a file, for `explain NAME --json`.
#[derive(Debug, Serialize)]
pub struct Details<'a> {
    /// Its description.
    pub description: Option<&'a str>,
    /// Its globs.
    pub globs: Option<&'a [String]>,
    /// Its `alwaysApply`.
    pub always_apply: Option<bool>,
    /// Its TTSR conditions.
    pub condition: &'a [String],
    /// Its activation, when the format says one.
    pub activation: Option<Activation>,
    /// The frontmatter as parsed.
    pub frontmatter: &'a Map,
    /// The body's size.
    pub content_bytes: usize,
    /// The files its imports pulled in.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub includes: Vec<PathText<'a>>,
}

/// One loaded file and what became of it (`explain --json`'s `files`).
#[derive(Debug, Serialize)]
pub struct FileReport<'a> {
    /// The rule's name.
    pub name: &'a str,
    /// The provider's id.
    pub provider: &'a str,
    /// The provider's display name.
    pub provider_name: &'a str,
    /// `project` or `user`.
    pub level: &'static str,
    /// The file.
    #[serde(serialize_with = "text::path")]
    pub path: &'a Path,
    /// How its frontmatter was read.
    pub frontmatter_outcome: FrontmatterOutcome,
    /// What became of it.
    #[serde(flatten)]
    pub fate: FateReport<'a>,
    /// Its fields, when asked for.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub details: Option<Details<'a>>,
}

impl<'a> FileReport<'a> {
    /// The report of one file, with its fields when `details`.
    pub fn new(book: &'a Rulebook, file: &FileFate<'a>, details: bool) -> Self {
        let rule = file.rule;
        Self {
            name: &rule.name,
            provider: &rule.source.provider,
            provider_name: &rule.source.provider_name,
            level: text::level(rule),
            path: &rule.path,
            frontmatter_outcome: rule.frontmatter_outcome,
            fate: FateReport::new(book, &file.fate),
            details: details.then(|| Details {
                description: rule.description.as_deref(),
                globs: rule.globs.as_deref(),
                always_apply: rule.always_apply,
                condition: &rule.condition,
                activation: rule.activation,
                frontmatter: &rule.frontmatter,
                content_bytes: rule.content.len(),
                includes: rule.includes.iter().map(|p| PathText(p)).collect(),
            }),
        }
    }
}

/// The diagnostics of files that were found but never became a rule: unreadable, too
/// large (E9), outside the project (E10), not a regular file.
pub fn not_loaded(book: &Rulebook) -> impl Iterator<Item = &Diagnostic> + '_ {
    book.diagnostics().iter().filter(|d| {
        matches!(
            d.code,
            DiagnosticCode::ReadFailed
                | DiagnosticCode::TooLarge
                | DiagnosticCode::OutsideProject
                | DiagnosticCode::NotAFile
        ) && d.path.is_some()
    })
}

/// How many files landed where.
#[derive(Debug, Serialize, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// In the TTSR bucket.
    pub ttsr: usize,
    /// Always applied.
    pub always_apply: usize,
    /// Listed in the rulebook.
    pub rulebook: usize,
    /// Manual (read through `rule://` only).
    pub manual: usize,
    /// Active, in no bucket.
    pub no_bucket: usize,
    /// Shadowed by a rule of the same name, or the same file read again.
    pub shadowed: usize,
    /// Failed validation.
    pub invalid: usize,
    /// Found but never a rule ([`not_loaded`]).
    pub not_loaded: usize,
}

impl Summary {
    /// The counts of `book`.
    pub fn new(book: &Rulebook) -> Self {
        let mut s = Self::default();
        for file in book.files() {
            match file.fate {
                Fate::Shadowed { .. } | Fate::SameFile { .. } => s.shadowed += 1,
                Fate::Invalid { .. } => s.invalid += 1,
                Fate::Active { placement, .. } => match placement.bucket {
                    None => s.no_bucket += 1,
                    Some(RuleBucket::Ttsr) => s.ttsr += 1,
                    Some(RuleBucket::AlwaysApply) => s.always_apply += 1,
                    Some(RuleBucket::Rulebook) => s.rulebook += 1,
                    Some(RuleBucket::Manual) => s.manual += 1,
                },
            }
        }
        s.not_loaded = not_loaded(book).count();
        s
    }
}

/// What happened to one rule file, as the MCP server's `explain` says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleStory {
    /// The rule's name.
    pub name: String,
    /// The provider that read it.
    pub provider: String,
    /// `project` or `user`.
    pub level: &'static str,
    /// The file.
    pub path: String,
    /// `active`, `shadowed` or `invalid`.
    pub status: &'static str,
    /// The bucket of an active rule; `null` when it landed in none.
    pub bucket: Option<&'static str>,
    /// Why: the rule that shadows it, why it is invalid, why it is in no bucket.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Where it applies when not the whole project.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Its globs.
    pub globs: Vec<String>,
    /// Its description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl RuleStory {
    /// The story of one file.
    pub fn new(book: &Rulebook, file: &FileFate<'_>) -> Self {
        let rule = file.rule;
        let (status, bucket, reason) = match file.fate {
            Fate::Active { placement, .. } => (
                "active",
                placement.bucket.map(RuleBucket::as_str),
                placement
                    .reason
                    .as_deref()
                    .filter(|_| placement.bucket.is_none())
                    .map(|r| book.display_message(r)),
            ),
            Fate::Shadowed { by } | Fate::SameFile { by } => {
                let winner = &book.all()[by].item;
                (
                    "shadowed",
                    None,
                    Some(format!(
                        "shadowed by {} ({}, {})",
                        winner.name,
                        winner.source.provider,
                        book.display_path(&winner.path)
                    )),
                )
            }
            Fate::Invalid { reason } => ("invalid", None, Some(book.display_message(reason))),
        };
        Self {
            name: rule.name.clone(),
            provider: rule.source.provider.clone(),
            level: text::level(rule),
            path: book.display_path(&rule.path),
            status,
            bucket,
            reason,
            scope: book.scope(rule),
            globs: rule.globs.clone().unwrap_or_default(),
            description: rule.description.clone(),
        }
    }
}

/// The answer of the MCP server's `explain`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// The profile.
    pub profile: &'static str,
    /// Every rule file (or the named rule's files), in discovery order.
    pub rules: Vec<RuleStory>,
    /// The warnings of discovery (about those files, when a name was given).
    pub warnings: Vec<Finding>,
}

impl Explanation {
    /// Why each rule file is or is not seen; with `name`, only the files of that name
    /// (`None` when no file has it).
    pub fn new(book: &Rulebook, name: Option<&str>) -> Option<Self> {
        let files: Vec<FileFate<'_>> = book
            .files()
            .filter(|f| name.is_none_or(|n| n == f.rule.name))
            .collect();
        if name.is_some() && files.is_empty() {
            return None;
        }
        let paths: Vec<&Path> = files.iter().map(|f| f.rule.path.as_path()).collect();
        let warnings = book
            .diagnostics()
            .iter()
            .filter(|d| name.is_none() || d.path.as_deref().is_some_and(|p| paths.contains(&p)))
            .map(|d| finding(book, d))
            .collect();
        Some(Self {
            profile: text::profile(book),
            rules: files.iter().map(|f| RuleStory::new(book, f)).collect(),
            warnings,
        })
    }
}
