//! The Warp rules provider (behaviour.md §13, the `warp` row), Extended only.
//!
//! Warp reads two project rule files, `WARP.md` and `AGENTS.md`, matched without regard to
//! ASCII case, in every directory from the repository root down to the working directory;
//! in one directory `WARP.md` wins and `AGENTS.md` is not used. Files in other directories
//! of the repository are sent to the model as paths only, for it to read when it works
//! there. No frontmatter, no imports: the text is sent raw
//! (`warpdotdev/warp` 19548aec, `crates/repo_metadata/src/standing_queries.rs`,
//! `model.rs` `find_active_or_applicable_rules`, `respected_rule`).
//!
//! This provider reads `WARP.md` (AGENTS.md has its own provider): always-apply, trimmed,
//! named `WARP` (`apps:web:WARP` in a subdirectory); the ones below the working directory
//! apply under their directory (E11). When a directory holds both, an `info` says Warp
//! uses only `WARP.md` there; when it holds several spellings of `WARP.md` (`warp.md`,
//! `Warp.md`), rulebook reads the exact one (else the first in byte order) and an `info` on
//! each other says why it is not read: Warp keeps one per directory, whichever it reads
//! last, in an order it does not fix (`ProjectRules::upsert_rule`).
//!
//! [`host`] is the tool's own view (`--as warp`): documented, not verified (Warp cannot be
//! run here).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_warp::{LoadContext, Provider, WarpProvider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("warp.md"), "Use cargo nextest.\n")?;
//! let loaded = WarpProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "WARP");
//! assert_eq!(&*loaded.items[0].content, "Use cargo nextest.");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Warp, for the table of tools: `--as warp` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Warp);

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::{Chain, ContextFiles};
use rulebook_kit::{
    Diagnostic, DiagnosticCode, FileLoader, LoadResult, Profile, ProviderError, ProviderMeta, Rule,
    RuleCapability,
};

/// Warp reads no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// Where Warp's own file is: `WARP.md` in any case, from the root down, nested ones scoped.
pub const FILES: ContextFiles = ContextFiles::new(&["WARP.md"], Chain::RootToCwd)
    .any_case()
    .with_nested();

/// The Warp provider (id `warp`, priority 22).
#[derive(Debug, Clone, Copy, Default)]
pub struct WarpProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "warp",
    "Warp",
    "Warp: WARP.md from the project root down to the working directory, nested ones (Extended)",
    22,
)
.with_nested_names(&["WARP.md"])
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for WarpProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "warp", "Warp", FIELD_POLICY).raw(true);
        let mut out = LoadResult::default();
        FILES.load(&loader, ctx, &mut out);
        let mut notes = Vec::new();
        for rule in &out.items {
            let Some(dir) = rule.path.parent() else {
                continue;
            };
            for other in FILES.spellings(dir, "WARP.md") {
                if other != rule.path {
                    notes.push(
                        Diagnostic::new(
                            DiagnosticCode::Shadowed,
                            format!(
                                "{} is another spelling of WARP.md in the same directory as {}: Warp keeps one of them per directory (the one it reads last, in an order its code does not fix: `upsert_rule` over a hash set), and rulebook reads {}; keep one",
                                other.display(),
                                rule.path.display(),
                                rule.path.display()
                            ),
                        )
                        .with_path(&other),
                    );
                }
            }
            let agents = ContextFiles::new(&["AGENTS.md"], Chain::Cwd).any_case();
            if let Some(other) = agents.find(dir, "AGENTS.md") {
                notes.push(
                    Diagnostic::new(
                        DiagnosticCode::Shadowed,
                        format!(
                            "Warp uses only {} in this directory, not {} (WARP.md wins over AGENTS.md)",
                            rule.path.display(),
                            other.display()
                        ),
                    )
                    .with_path(&rule.path),
                );
            }
        }
        out.diagnostics.extend(notes);
        Ok(out)
    }
}
