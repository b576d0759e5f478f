//! The canonical [`Rule`] every provider produces, and what goes with it.
//!
//! - [`Rule`] and [`SourceMeta`]: behaviour.md §1. Identity is the name (exact, case-sensitive).
//! - [`Profile`]: `Reference` (the seeds' pipeline, exactly) or `Extended` (the default:
//!   Reference plus E1–E10).
//! - [`Diagnostic`]: a structured warning (severity, code, provider, path, line, column,
//!   message). Loading never prints; it returns these.
//! - [`coerce`]: the per-provider field coercion of behaviour.md §5 as reusable policies, so a new
//!   provider crate picks a row of the table instead of writing its own.
//! - [`build_rule`]: text of a rule file → [`Rule`] plus diagnostics, for providers.
//!
//! Depends on `rulebook-frontmatter` (parsing) and `serde` (everything serializes).
//!
//! ```
//! use std::path::Path;
//! use rulebook_rule::{build_rule, coerce::FieldPolicy, Level, Profile, RuleFile, SourceMeta};
//!
//! let path = Path::new("/p/.cursor/rules/ts.mdc");
//! let file = RuleFile {
//!     name: "ts",
//!     path,
//!     text: "---\ndescription: TypeScript\nglobs: *.ts\n---\nUse strict.",
//!     policy: FieldPolicy::CURSOR,
//!     source: &SourceMeta::new("cursor", "Cursor", Level::Project, path),
//! };
//! let (rule, diagnostics) = build_rule(&file, Profile::Extended);
//! assert_eq!(rule.description.as_deref(), Some("TypeScript"));
//! assert_eq!(rule.globs, Some(vec!["*.ts".to_owned()]));
//! assert_eq!(rule.content, "Use strict.");
//! assert_eq!(diagnostics.len(), 1); // the YAML error, recovered
//! ```

pub mod coerce;
mod diagnostic;

use std::path::{Path, PathBuf};

use rulebook_frontmatter::{ParseOptions, Recovery, WarningKind, parse_frontmatter};
use serde::Serialize;

pub use diagnostic::{Diagnostic, DiagnosticCode, Severity};
pub use rulebook_frontmatter::{Map, Outcome as FrontmatterOutcome, Value};

use coerce::{FieldPolicy, coerce_fields};

/// The default size cap of Extended E9: rule files over 1 MiB are skipped with a warning.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 1024 * 1024;

/// Which behaviour to follow where rulebook goes beyond the seeds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// The seeds' pipeline exactly, with its known partial semantics (behaviour.md "Seeds §9").
    Reference,
    /// Reference plus the extensions E1–E10 of `docs/behaviour.md`.
    #[default]
    Extended,
}

impl Profile {
    /// The frontmatter recovery this profile uses on a YAML error.
    pub fn recovery(self) -> Recovery {
        match self {
            Profile::Reference => Recovery::LineParser,
            Profile::Extended => Recovery::QuoteValues,
        }
    }
}

/// Where a rule source lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Under the user's home.
    User,
    /// Under the project (the working directory, or upward for Cline).
    Project,
}

/// Which provider produced a rule, and from where.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct SourceMeta {
    /// The provider's id (`cursor`).
    pub provider: String,
    /// The provider's display name (`Cursor`).
    pub provider_name: String,
    /// User or project.
    pub level: Level,
    /// The file, absolute.
    pub path: PathBuf,
}

impl SourceMeta {
    /// Builds the metadata of one file.
    pub fn new(
        provider: impl Into<String>,
        provider_name: impl Into<String>,
        level: Level,
        path: impl Into<PathBuf>,
    ) -> Self {
        Self {
            provider: provider.into(),
            provider_name: provider_name.into(),
            level,
            path: path.into(),
        }
    }
}

/// Extended E2: how Windsurf's `trigger:` key asks a rule to be applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Activation {
    /// `always_on`: always-apply.
    AlwaysOn,
    /// `model_decision`: listed in the rulebook by its description.
    ModelDecision,
    /// `glob`: attached when a file matches its globs.
    Glob,
    /// `manual`: only read through `rule://`.
    Manual,
}

/// The one shape every provider's rules are normalized into (behaviour.md §1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rule {
    /// The identity: dedup and precedence are by name only.
    pub name: String,
    /// The file, absolute.
    pub path: PathBuf,
    /// The body, frontmatter stripped.
    pub content: String,
    /// File patterns the rule is about.
    pub globs: Option<Vec<String>>,
    /// Inject the content into every prompt.
    pub always_apply: Option<bool>,
    /// What the rule is for; needed to be listed in the rulebook.
    pub description: Option<String>,
    /// `ttsr_trigger` (or `ttsrTrigger`) as written.
    pub ttsr_trigger: Option<String>,
    /// The TTSR conditions (regexes); non-empty makes this a TTSR candidate.
    pub condition: Vec<String>,
    /// Extended E2: Windsurf's `trigger:`, when set and understood.
    pub activation: Option<Activation>,
    /// Which provider produced the rule, and from where.
    pub source: SourceMeta,
    /// The parsed frontmatter, every key, for consumers.
    pub frontmatter: Map,
    /// How the frontmatter was read.
    pub frontmatter_outcome: FrontmatterOutcome,
}

/// One rule file as a provider found it.
#[derive(Debug, Clone, Copy)]
pub struct RuleFile<'a> {
    /// The rule's name (usually the file name without its extension).
    pub name: &'a str,
    /// The file, absolute.
    pub path: &'a Path,
    /// Its text (BOM stripped, UTF-8).
    pub text: &'a str,
    /// The provider's field coercion.
    pub policy: FieldPolicy,
    /// Provider and level.
    pub source: &'a SourceMeta,
}

/// Parses and coerces one rule file. Never fails: a file with broken frontmatter is still a
/// rule (its body is the content), and what was wrong is in the diagnostics.
pub fn build_rule(file: &RuleFile<'_>, profile: Profile) -> (Rule, Vec<Diagnostic>) {
    let parsed = parse_frontmatter(
        file.text,
        &ParseOptions::new()
            .source(file.path)
            .recovery(profile.recovery()),
    );
    let mut diagnostics: Vec<Diagnostic> = parsed
        .warnings
        .iter()
        .map(|w| {
            let code = match w.kind {
                WarningKind::NotAMap => DiagnosticCode::NotAMap,
                WarningKind::YamlSyntax => DiagnosticCode::YamlSyntax,
            };
            Diagnostic::warning(code, w.message.clone())
                .with_path(file.path)
                .at(w.line, w.column)
        })
        .collect();
    let (fields, coerce_diagnostics) = coerce_fields(
        &parsed.frontmatter,
        file.policy,
        profile,
        file.path,
        Some(file.text),
    );
    diagnostics.extend(coerce_diagnostics);
    let rule = Rule {
        name: file.name.to_owned(),
        path: file.path.to_path_buf(),
        content: parsed.body,
        globs: fields.globs,
        always_apply: fields.always_apply,
        description: fields.description,
        ttsr_trigger: fields.ttsr_trigger,
        condition: fields.condition,
        activation: None,
        source: file.source.clone(),
        frontmatter: parsed.frontmatter,
        frontmatter_outcome: parsed.outcome,
    };
    (rule, diagnostics)
}

/// Extended E1: a whole-file source (`.cursorrules`, `.windsurfrules`, a `.clinerules`
/// file, `global_rules.md`) is always-apply, as its tool applies it, unless its frontmatter
/// sets `alwaysApply` to a boolean itself.
pub fn apply_whole_file_default(rule: &mut Rule) {
    if !matches!(rule.frontmatter.get("alwaysApply"), Some(Value::Bool(_))) {
        rule.always_apply = Some(true);
    }
}

/// Validates a rule as the registry does (behaviour.md §6): a name, a path, non-empty content.
pub fn validate_rule(rule: &Rule) -> Result<(), String> {
    if rule.name.is_empty() {
        return Err("Rule must have a name".to_owned());
    }
    if rule.path.as_os_str().is_empty() {
        return Err("Rule must have a path".to_owned());
    }
    if rule.content.is_empty() {
        return Err("Rule must have content".to_owned());
    }
    Ok(())
}
