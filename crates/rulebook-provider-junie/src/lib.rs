//! The Junie rules provider (behaviour.md §13, the `junie` row), Extended only.
//!
//! Junie (the JetBrains IDE plugin) adds one file to every task: `.junie/guidelines.md` at the project root by default, whole, with no frontmatter; another file (`AGENTS.md`) only when the IDE's "Guidelines path" setting names it (JetBrains' Junie documentation, `junie/customize-guidelines`).
//!
//! This provider reads `.junie/guidelines.md` at the project root: one always-apply rule named `guidelines`,
//! its text trimmed (no frontmatter).
//!
//! [`host`] is the tool's own view (`--as junie`): documented, not verified (the tool cannot
//! be run here).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_junie::{JunieProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".junie"))?;
//! std::fs::write(dir.path().join(".junie/guidelines.md"), "Use pnpm.\n")?;
//! let loaded = JunieProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "guidelines");
//! assert_eq!(&*loaded.items[0].content, "Use pnpm.");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Junie, for the table of tools: `--as junie` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Junie);

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::{Chain, ContextFiles};
use rulebook_kit::{
    FileLoader, LoadResult, Profile, ProviderError, ProviderMeta, Rule, RuleCapability,
};

/// Junie reads no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// Where Junie's file is: at the project root.
pub const FILES: ContextFiles = ContextFiles::new(&[".junie/guidelines.md"], Chain::Root);

/// The Junie provider (id `junie`, priority 23).
#[derive(Debug, Clone, Copy, Default)]
pub struct JunieProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "junie",
    "Junie",
    "JetBrains Junie: .junie/guidelines.md at the project root (Extended)",
    23,
)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for JunieProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "junie", "Junie", FIELD_POLICY).raw(true);
        let mut out = LoadResult::default();
        FILES.load(&loader, ctx, &mut out);
        Ok(out)
    }
}
