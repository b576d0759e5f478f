//! The Firebase Studio rules provider (behaviour.md §13, the `firebase` row), Extended only.
//!
//! Firebase Studio (formerly Project IDX) gives Gemini in its chat the workspace's `.idx/airules.md`, whole, with no frontmatter (Firebase Studio documentation, `studio/set-up-gemini`). An order between `airules.md`, `GEMINI.md` and `AGENTS.md` is reported second-hand only and is not reproduced.
//!
//! This provider reads `.idx/airules.md` at the project root: one always-apply rule named `airules`,
//! its text trimmed (no frontmatter).
//!
//! [`host`] is the tool's own view (`--as firebase`): documented, not verified (the tool cannot
//! be run here).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_firebase::{FirebaseProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".idx"))?;
//! std::fs::write(dir.path().join(".idx/airules.md"), "Use pnpm.\n")?;
//! let loaded = FirebaseProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "airules");
//! assert_eq!(&*loaded.items[0].content, "Use pnpm.");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Firebase Studio, for the table of tools: `--as firebase` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Firebase);

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::{Chain, ContextFiles};
use rulebook_kit::{
    FileLoader, LoadResult, Profile, ProviderError, ProviderMeta, Rule, RuleCapability,
};

/// Firebase Studio reads no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// Where Firebase Studio's file is: at the project root.
pub const FILES: ContextFiles = ContextFiles::new(&[".idx/airules.md"], Chain::Root);

/// The Firebase Studio provider (id `firebase`, priority 17).
#[derive(Debug, Clone, Copy, Default)]
pub struct FirebaseProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "firebase",
    "Firebase Studio",
    "Firebase Studio: .idx/airules.md at the project root (Extended)",
    17,
)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for FirebaseProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "firebase", "Firebase Studio", FIELD_POLICY).raw(true);
        let mut out = LoadResult::default();
        FILES.load(&loader, ctx, &mut out);
        Ok(out)
    }
}
