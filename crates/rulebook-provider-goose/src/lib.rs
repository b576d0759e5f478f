//! The Goose rules provider (behaviour.md §13, the `goose` row), Extended only.
//!
//! Goose reads its hints files (`CONTEXT_FILE_NAMES`, by default `.goosehints` and
//! `AGENTS.md`) in `~/.config/goose/`, then in every directory from the git root down to the
//! working directory (the working directory alone outside a repository), and, during a
//! session, in the directories below it that its tools touch; the text is always on, `@ref`
//! imports expanded 3 levels deep inside the git root (`aaif-goose/goose` d0a2390,
//! `crates/goose/src/hints/load_hints.rs`, `import_files.rs`).
//!
//! This provider reads `.goosehints` (AGENTS.md has its own provider): `~:goosehints`, then
//! `goosehints` in each directory of the chain, always-apply, trimmed; below the working
//! directory scoped to its directory (E11). Imports are expanded with the Gemini CLI's
//! recognition of an `@path` token, 3 levels deep: Goose's own recognizer differs at the
//! edges (a bare capitalised word is a reference to it; a path without `/` or `.` is not),
//! which rulebook does not reproduce.
//!
//! [`host`] is the tool's own view (`--as goose`): documented from its source, not verified.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_goose::{GooseProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join(".goosehints"), "Run just test.\n")?;
//! let loaded = GooseProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "goosehints");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Goose, for the table of tools: `--as goose` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Goose);

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::{Chain, ContextFiles};
use rulebook_kit::{
    Dialect, FileLoader, LoadResult, Profile, ProviderError, ProviderMeta, Rule, RuleCapability,
};

/// Goose reads no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// Goose's import depth.
pub const IMPORT_DEPTH: usize = 3;

/// Where Goose's hints are.
pub const FILES: ContextFiles = ContextFiles::new(&[".goosehints"], Chain::RootToCwd)
    .with_user(&[".config/goose/.goosehints"])
    .with_nested()
    .with_imports(Dialect::Gemini, IMPORT_DEPTH);

/// The Goose provider (id `goose`, priority 19).
#[derive(Debug, Clone, Copy, Default)]
pub struct GooseProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "goose",
    "Goose",
    "Goose: .goosehints in ~/.config/goose and from the project root down, nested ones (Extended)",
    19,
)
.with_nested_names(&[".goosehints"])
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for GooseProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "goose", "Goose", FIELD_POLICY).raw(true);
        let mut out = LoadResult::default();
        FILES.load(&loader, ctx, &mut out);
        Ok(out)
    }
}
