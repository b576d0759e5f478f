//! The Trae rules provider (behaviour.md §13, the `trae` row), Extended only.
//!
//! Trae (closed source; its documentation, dated 2026-01, `rules-for-ai`) reads the
//! Markdown files of `.trae/rules/` in the project. Its rules panel writes the mode into the
//! frontmatter: **Always** (`alwaysApply: true`), **Specific files** (`globs`),
//! **Intelligently** (the model chooses by `description`), **Manually** (referenced with
//! `#Rule`). The older format is one `.trae/rules/project_rules.md` without frontmatter,
//! always on. Personal rules live in Trae's settings, not in a file.
//!
//! Rulebook: a file without frontmatter → always-apply (the older format); `alwaysApply:
//! true` → always-apply; `globs` → attached to the files they match (Cursor's dialect, as
//! Trae's rules are Cursor-shaped; not verified); a description → the rulebook; none of
//! them → manual. Named by file name without `.md`.
//!
//! [`host`] is the tool's own view (`--as trae`): documented, not verified.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_trae::{LoadContext, Provider, TraeProvider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".trae/rules"))?;
//! std::fs::write(dir.path().join(".trae/rules/project_rules.md"), "Use pnpm.")?;
//! let loaded = TraeProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].always_apply, Some(true));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Trae, for the table of tools: `--as trae` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Trae);

use std::path::Path;

use rulebook_kit::coerce::{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy,
};
use rulebook_kit::{
    Activation, FileLoader, FrontmatterOutcome, GlobDialect, KnownKey, Level, LoadResult, Profile,
    ProviderError, ProviderMeta, Rule, RuleCapability,
};

/// Trae's field coercion (Cursor-shaped).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOrScalarText,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::ScalarElementsAsText,
);

/// The keys Trae's rules read: `description`, `globs`, `alwaysApply`.
pub const KNOWN_KEYS: &[KnownKey] = &[COMMON_KEYS[0], COMMON_KEYS[1], COMMON_KEYS[2]];

/// The Trae provider (id `trae`, priority 25).
#[derive(Debug, Clone, Copy, Default)]
pub struct TraeProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "trae",
    "Trae",
    "Trae: .trae/rules/*.md at the project root (Extended)",
    25,
)
.with_known_keys(KNOWN_KEYS)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for TraeProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "trae", "Trae", FIELD_POLICY);
        let mut out = LoadResult::default();
        let root = &ctx.project_root;
        let dir = root.join(".trae/rules");
        loader.load_top_level(&dir, &["md"], Level::Project, Some(root), &mut out);
        for rule in &mut out.items {
            mode(rule, root);
        }
        Ok(out)
    }
}

/// A Trae rule's mode, from its frontmatter.
fn mode(rule: &mut Rule, root: &Path) {
    rule.content = rule.content.trim().into();
    let globs = rule.globs.clone().filter(|g| !g.is_empty());
    let described = rule.description.as_deref().is_some_and(|d| !d.is_empty());
    if rule.frontmatter_outcome == FrontmatterOutcome::Absent || rule.always_apply == Some(true) {
        rule.activate(Activation::AlwaysOn);
    } else if globs.is_some() {
        rule.glob_dialect = GlobDialect::Cursor;
        rule.glob_root = Some(root.to_path_buf());
        rule.activate(Activation::Glob);
    } else if described {
        rule.activate(Activation::ModelDecision);
    } else {
        rule.activate(Activation::Manual);
    }
}
