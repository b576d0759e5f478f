//! The Augment Code rules provider (behaviour.md §13, the `augment` row), Extended only.
//!
//! Augment (its extensions and the Auggie CLI; `RulesService` in `@augmentcode/auggie`
//! 0.36.0, read in the bundle and run offline) reads at the workspace root `.augment-guidelines`
//! (workspace guidelines, 2,000 characters at most), `.augment/rules/**` (recursive, `.md`
//! and `.mdc`), and the user's `~/.augment/rules/**` (always applied, whatever their
//! frontmatter) and `~/.augment/user-guidelines.md`. A workspace rule's type:
//! 1. `type:` `always_apply`, `manual` or `agent_requested` (any case) wins;
//! 2. else `alwaysApply: true` → always;
//! 3. else a non-empty `description` → agent-requested (the model picks it by description);
//! 4. else always.
//!
//! Rulebook: always → always-apply; `agent_requested` → the rulebook, by description;
//! `manual` (attached by the user) → the manual bucket. Rules are named by their path
//! under `rules/` without the extension (`api:style`; the user's `~:api:style`); the
//! guidelines are `augment-guidelines` and `~:user-guidelines`. `AGENTS.md` and
//! `CLAUDE.md`, which Augment also reads, have their own providers.
//!
//! [`host`] is the tool's own view (`--as augment`), verified against Augment's CLI (`auggie`)
//! 0.36.0: the workspace root, the rules and guidelines its chat request carries, and its
//! skills.
//!
//! Depends on `rulebook-kit`, `regex` (the CLI's frontmatter pattern) and `serde_json`
//! (`.augment/rules/settings.json`).
//!
//! ```
//! use rulebook_provider_augment::{AugmentProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".augment/rules"))?;
//! std::fs::write(dir.path().join(".augment/rules/db.md"), "---\ntype: manual\n---\nUse migrations.")?;
//! let loaded = AugmentProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "db");
//! assert_eq!(loaded.items[0].activation, Some(rulebook_kit::Activation::Manual));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Augment, for the table of tools: `--as augment` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Augment);

use std::path::Path;

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::{Chain, ContextFiles};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, FileLoader, KnownKey, Level, LoadResult, Profile,
    ProviderError, ProviderMeta, Rule, RuleCapability, Value,
};

/// Augment's field coercion.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The keys Augment's rules read.
pub const KNOWN_KEYS: &[KnownKey] = &[
    KnownKey::new("type", "always_apply, agent_requested or manual"),
    KnownKey::new("description", "what the rule is for (agent_requested)"),
    KnownKey::new("alwaysApply", "true: always applied (without `type`)"),
];

/// The guidelines' limit, in characters.
pub const GUIDELINES_LIMIT: usize = 2_000;

/// The workspace's and the user's guidelines.
pub const GUIDELINES: ContextFiles = ContextFiles::new(&[".augment-guidelines"], Chain::Root)
    .with_user(&[".augment/user-guidelines.md"]);

/// The Augment provider (id `augment`, priority 24).
#[derive(Debug, Clone, Copy, Default)]
pub struct AugmentProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "augment",
    "Augment",
    "Augment: .augment-guidelines and .augment/rules at the project root, then ~/.augment (Extended)",
    24,
)
.with_known_keys(KNOWN_KEYS)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for AugmentProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let raw = FileLoader::new(ctx, "augment", "Augment", FIELD_POLICY).raw(true);
        GUIDELINES.load(&raw, ctx, &mut out);
        for rule in &out.items {
            let chars = rule.content.chars().count();
            if chars > GUIDELINES_LIMIT {
                out.diagnostics.push(
                    Diagnostic::new(
                        DiagnosticCode::OverToolBudget,
                        format!(
                            "{} has {chars} characters: Augment's guidelines take {GUIDELINES_LIMIT} at most",
                            rule.path.display()
                        ),
                    )
                    .with_path(&rule.path),
                );
            }
        }
        let loader = FileLoader::new(ctx, "augment", "Augment", FIELD_POLICY);
        let root = &ctx.project_root;
        let mut dirs = vec![(root.join(".augment/rules"), Level::Project)];
        if let Some(user) = ctx.in_home(".augment/rules") {
            dirs.push((user, Level::User));
        }
        for (dir, level) in dirs {
            let first = out.items.len();
            let name = |path: &Path| rulebook_kit::path_name(&dir, path, level);
            let boundary = (level == Level::Project).then_some(root.as_path());
            loader.load_dir_named(&dir, &["md", "mdc"], level, boundary, &mut out, &name);
            let mut notes = Vec::new();
            for rule in &mut out.items[first..] {
                rule.content = rule.content.trim().into();
                rule.globs = None;
                if level == Level::User {
                    rule.activate(Activation::AlwaysOn);
                } else {
                    notes.extend(rule_type(rule));
                }
            }
            out.diagnostics.extend(notes);
        }
        Ok(out)
    }
}

/// A workspace rule's type (`getRuleTypeFromContent`).
fn rule_type(rule: &mut Rule) -> Option<Diagnostic> {
    let declared = rule
        .frontmatter
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase);
    let mut note = None;
    let activation = match declared.as_deref() {
        Some("always_apply") => Activation::AlwaysOn,
        Some("manual") => Activation::Manual,
        Some("agent_requested") => Activation::ModelDecision,
        other => {
            if let Some(other) = other {
                note = Some(
                    Diagnostic::new(
                        DiagnosticCode::WrongType,
                        format!(
                            "`type: {other}` in {} is not always_apply, agent_requested or manual: Augment ignores it",
                            rule.path.display()
                        ),
                    )
                    .with_path(&rule.path),
                );
            }
            if rule.frontmatter.get("alwaysApply") == Some(&Value::Bool(true)) {
                Activation::AlwaysOn
            } else if rule.description.as_deref().is_some_and(|d| !d.is_empty()) {
                Activation::ModelDecision
            } else {
                Activation::AlwaysOn
            }
        }
    };
    rule.activate(activation);
    if activation == Activation::ModelDecision
        && rule.description.as_deref().is_none_or(str::is_empty)
    {
        note = Some(
            Diagnostic::new(
                DiagnosticCode::NoBucket,
                format!(
                    "`type: agent_requested` in {} has no description: the model has nothing to choose it by",
                    rule.path.display()
                ),
            )
            .with_path(&rule.path),
        );
    }
    note
}
