//! The canonical [`Rule`] every provider produces, and what goes with it.
//!
//! - [`Rule`] and [`SourceMeta`]: behaviour.md §1. Identity is the name (exact, case-sensitive).
//! - [`Profile`]: `Reference` (the seeds' pipeline, exactly) or `Extended` (the default:
//!   Reference plus E1–E10).
//! - [`Diagnostic`]: a structured warning (severity, code, provider, path, line, column,
//!   message). Loading never prints; it returns these.
//!
//! This is the lean model: the stages that take rules (partition, prompt, protocol, match,
//! ttsr) depend on it alone, and it pulls in no YAML parser (it uses the value model of
//! `rulebook-frontmatter` without its `parse` feature). Reading and building rules from
//! files is the provider kit's job (`rulebook-kit`).
//!
//! Depends on `rulebook-frontmatter` (its value model only) and `serde`.
//!
//! ```
//! use rulebook_rule::{Level, Rule, SourceMeta};
//!
//! let source = SourceMeta::new("cursor", "Cursor", Level::Project, "/p/.cursor/rules/ts.mdc");
//! let rule = Rule::new("ts", "/p/.cursor/rules/ts.mdc", "Use strict.", source)
//!     .with_description("TypeScript")
//!     .with_globs(["*.ts"]);
//! assert_eq!(rule.globs.as_deref(), Some(&["*.ts".to_owned()][..]));
//! assert!(rulebook_rule::validate_rule(&rule).is_ok());
//! ```

mod diagnostic;
mod shown;
mod skill;
mod uri;

use std::path::PathBuf;

use serde::Serialize;

pub use diagnostic::{Diagnostic, DiagnosticCode, Related, Severity};
pub use rulebook_frontmatter::{Map, Outcome as FrontmatterOutcome, Value};
pub use shown::{show_path, show_paths_in};
pub use skill::{InvalidSkill, Skill, validate_skill};
pub use uri::{percent_encode, percent_encode_bytes};

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
    /// The file's real path (links resolved), where the provider resolved it. In Extended a
    /// later rule whose real path equals an earlier one's is the same file: it is shadowed
    /// by it ("same file as …"), so `CLAUDE.md -> AGENTS.md` is injected once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub real_path: Option<PathBuf>,
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
            real_path: None,
        }
    }

    /// Sets the real path (see [`SourceMeta::real_path`]).
    #[must_use]
    pub fn with_real_path(mut self, real: impl Into<PathBuf>) -> Self {
        self.real_path = Some(real.into());
        self
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
    /// Never applies (Cline `paths: []`, a Copilot rule excluded for this agent): in no
    /// bucket, with the provider's reason, and never attached by a glob.
    Never,
}

/// How a rule's globs are matched: the same pattern means different things per tool
/// (`globs` stay verbatim, as the author wrote them, and are matched by their dialect).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GlobDialect {
    /// Cursor's (and Windsurf's, Claude's): a pattern without `/` matches the file name at
    /// any depth; one with `/` is relative to the glob root; `*` does not cross `/`.
    #[default]
    Cursor,
    /// VS Code's (Copilot `applyTo`): `**/` is prefixed unless the pattern starts with `/`
    /// or `**/`; case-insensitive.
    VsCode,
    /// Anchored at the glob root (Cline `paths`, Continue, Kiro): `*.md` is Markdown files in
    /// the root only; a leading `!` negates.
    Anchored,
}

impl GlobDialect {
    /// Whether this is the default dialect (for `skip_serializing_if`).
    pub fn is_default(&self) -> bool {
        *self == Self::Cursor
    }
}

/// The one shape every provider's rules are normalized into (behaviour.md §1).
///
/// `#[non_exhaustive]`: build one with [`Rule::new`] and the `with_*` setters, so fields
/// can be added without breaking providers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Rule {
    /// The identity: dedup and precedence are by name only.
    pub name: String,
    /// The file, absolute.
    pub path: PathBuf,
    /// The body, frontmatter stripped. Shared, not copied, with what holds it besides the
    /// rule (the TTSR manager), so every body is in memory once.
    pub content: std::sync::Arc<str>,
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
    /// How `globs` are matched.
    #[serde(skip_serializing_if = "GlobDialect::is_default")]
    pub glob_dialect: GlobDialect,
    /// The directory `globs` are relative to; `None`: the working directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub glob_root: Option<PathBuf>,
    /// Files expanded into `content` by imports (`@path`), in expansion order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub includes: Vec<PathBuf>,
    /// With [`Activation::Never`]: why the provider turned the rule off, and how to see it
    /// applied when there is a way (`excludeAgent: coding-agent`: "… `--option
    /// copilot.agent_kind=code-review` shows it as code review reads it").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub off_reason: Option<String>,
}

/// Feeds `value` to `state`: YAML values hashed by what they are (a float by its bits).
fn hash_value(value: &Value, state: &mut impl std::hash::Hasher) {
    use std::hash::Hash;
    std::mem::discriminant(value).hash(state);
    match value {
        Value::Null => {}
        Value::Bool(b) => b.hash(state),
        Value::Int(i) => i.hash(state),
        Value::Float(f) => f.to_bits().hash(state),
        Value::String(s) => s.hash(state),
        Value::List(items) => {
            items.len().hash(state);
            for item in items {
                hash_value(item, state);
            }
        }
        Value::Map(map) => hash_map(map, state),
    }
}

fn hash_map(map: &Map, state: &mut impl std::hash::Hasher) {
    use std::hash::Hash;
    map.len().hash(state);
    for (key, value) in map {
        key.hash(state);
        hash_value(value, state);
    }
}

impl Rule {
    /// A hash of every field but the text: two rules of one fingerprint differ by their
    /// [`Rule::content`] alone (but for a 64-bit collision), so one can stand in for the
    /// other wherever the text plays no part (its name, its place, its globs). A float of
    /// the frontmatter is compared by its bits.
    ///
    /// ```
    /// use rulebook_rule::{Level, Rule, SourceMeta};
    ///
    /// let rule = |text: &str| {
    ///     Rule::new("style", "/p/style.md", text, SourceMeta::new("cursor", "Cursor", Level::Project, "/p/style.md"))
    /// };
    /// assert_eq!(rule("Tabs.").shape_fingerprint(), rule("Spaces.").shape_fingerprint());
    /// assert_ne!(rule("Tabs.").shape_fingerprint(), rule("Tabs.").with_description("d").shape_fingerprint());
    /// ```
    pub fn shape_fingerprint(&self) -> u64 {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher, Hash, Hasher};
        // Every field named: a field added to `Rule` must be added here.
        let Self {
            name,
            path,
            content: _,
            globs,
            always_apply,
            description,
            ttsr_trigger,
            condition,
            activation,
            source,
            frontmatter,
            frontmatter_outcome,
            glob_dialect,
            glob_root,
            includes,
            off_reason,
        } = self;
        let mut state = BuildHasherDefault::<DefaultHasher>::default().build_hasher();
        (
            name,
            path,
            globs,
            always_apply,
            description,
            ttsr_trigger,
            condition,
            activation,
            source,
        )
            .hash(&mut state);
        hash_map(frontmatter, &mut state);
        std::mem::discriminant(frontmatter_outcome).hash(&mut state);
        (glob_dialect, glob_root, includes, off_reason).hash(&mut state);
        state.finish()
    }

    /// A rule with its identity, file, content and source, and nothing else set: no
    /// frontmatter (outcome [`FrontmatterOutcome::Absent`]), no globs, no description.
    pub fn new(
        name: impl Into<String>,
        path: impl Into<PathBuf>,
        content: impl Into<std::sync::Arc<str>>,
        source: SourceMeta,
    ) -> Self {
        Self {
            name: name.into(),
            path: path.into(),
            content: content.into(),
            globs: None,
            always_apply: None,
            description: None,
            ttsr_trigger: None,
            condition: Vec::new(),
            activation: None,
            source,
            frontmatter: Map::new(),
            frontmatter_outcome: FrontmatterOutcome::Absent,
            glob_dialect: GlobDialect::Cursor,
            glob_root: None,
            includes: Vec::new(),
            off_reason: None,
        }
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the globs.
    #[must_use]
    pub fn with_globs<I, S>(mut self, globs: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.globs = Some(globs.into_iter().map(Into::into).collect());
        self
    }

    /// Sets `alwaysApply`.
    #[must_use]
    pub fn with_always_apply(mut self, always: bool) -> Self {
        self.always_apply = Some(always);
        self
    }

    /// Sets the TTSR conditions.
    #[must_use]
    pub fn with_condition<I, S>(mut self, condition: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.condition = condition.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the activation.
    #[must_use]
    pub fn with_activation(mut self, activation: Activation) -> Self {
        self.activation = Some(activation);
        self
    }

    /// Decides how the rule applies, in one step, so its two fields agree (the partition
    /// reads `always_apply` first): [`Activation::AlwaysOn`] is always-apply
    /// (`always_apply: Some(true)`); any other activation clears `always_apply` (a rule
    /// that applies by description, by glob, by hand or never is not always-apply).
    /// Providers call this rather than set the fields; [`Rule::turn_off`] also says why.
    ///
    /// ```
    /// # use rulebook_rule::*;
    /// let mut rule = Rule::new("r", "/r.md", "c", SourceMeta::new("p", "P", Level::Project, "/r.md"))
    ///     .with_always_apply(true);
    /// rule.activate(Activation::Glob);
    /// assert_eq!((rule.always_apply, rule.activation), (None, Some(Activation::Glob)));
    /// rule.activate(Activation::AlwaysOn);
    /// assert_eq!((rule.always_apply, rule.activation), (Some(true), Some(Activation::AlwaysOn)));
    /// ```
    pub fn activate(&mut self, activation: Activation) {
        self.activation = Some(activation);
        self.always_apply = (activation == Activation::AlwaysOn).then_some(true);
    }

    /// Turns the rule off ([`Activation::Never`], no always-apply) and says why.
    #[must_use]
    pub fn turned_off(mut self, reason: impl Into<String>) -> Self {
        self.turn_off(reason);
        self
    }

    /// [`Rule::turned_off`] in place.
    pub fn turn_off(&mut self, reason: impl Into<String>) {
        self.activate(Activation::Never);
        self.off_reason = Some(reason.into());
    }

    /// Sets the frontmatter and how it was read.
    #[must_use]
    pub fn with_frontmatter(mut self, frontmatter: Map, outcome: FrontmatterOutcome) -> Self {
        self.frontmatter = frontmatter;
        self.frontmatter_outcome = outcome;
        self
    }

    /// Sets the glob dialect.
    #[must_use]
    pub fn with_glob_dialect(mut self, dialect: GlobDialect) -> Self {
        self.glob_dialect = dialect;
        self
    }

    /// Sets the directory the globs are relative to.
    #[must_use]
    pub fn with_glob_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.glob_root = Some(root.into());
        self
    }
}

/// Why a rule is invalid (behaviour.md §6); `Display` is the original's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InvalidRule {
    /// The name is empty.
    NoName,
    /// The path is empty.
    NoPath,
    /// The content is empty.
    NoContent,
}

impl std::fmt::Display for InvalidRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::NoName => "Rule must have a name",
            Self::NoPath => "Rule must have a path",
            Self::NoContent => "Rule must have content",
        })
    }
}

impl std::error::Error for InvalidRule {}

/// Validates a rule as the registry does (behaviour.md §6): a name, a path, non-empty content.
pub fn validate_rule(rule: &Rule) -> Result<(), InvalidRule> {
    if rule.name.is_empty() {
        return Err(InvalidRule::NoName);
    }
    if rule.path.as_os_str().is_empty() {
        return Err(InvalidRule::NoPath);
    }
    if rule.content.is_empty() {
        return Err(InvalidRule::NoContent);
    }
    Ok(())
}
