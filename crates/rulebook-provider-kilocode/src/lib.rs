//! The Kilo Code rules provider (behaviour.md §13, the `kilocode` row), Extended only.
//!
//! Kilo Code's VS Code extension is a fork of Roo Code and reads rules as Roo does
//! (`Kilo-Org/kilocode`, `src/core/prompts/sections/custom-instructions.ts`):
//! `~/.kilocode/rules/` then `.kilocode/rules/` in the workspace, recursively, files of any
//! extension but cache and system files, sorted by file name; `.kilocode/rules-{mode}/` in
//! that mode only; `.kilocoderules` when the rules directory has no file. (Kilo 7, built on
//! OpenCode, reads only the top-level `.md` files of `.kilocode/rules` as its legacy rules.)
//!
//! This provider: `.kilocode/rules/**` → always-apply, raw text trimmed, named by file
//! name without its last extension; `.kilocode/rules-{mode}/**` → the manual bucket,
//! `<mode>:<stem>`; `.kilocoderules` (`kilocoderules`) only when no `.kilocode/rules`
//! file loaded; the project (the working directory) first, then `~/.kilocode` (the
//! project wins a name clash). `AGENTS.md` has its own provider.
//!
//! [`host`] is the tool's own view (`--as kilocode`): documented, not verified.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_kilocode::{KilocodeProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".kilocode/rules/db"))?;
//! std::fs::write(dir.path().join(".kilocode/rules/db/sql.txt"), "Use migrations.\n")?;
//! let loaded = KilocodeProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "sql");
//! assert_eq!(loaded.items[0].always_apply, Some(true));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Kilo Code, for the table of tools: `--as kilocode` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Kilocode);

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::modes::{always, load_base};
use rulebook_kit::{
    Activation, FileLoader, Level, LoadResult, Profile, ProviderError, ProviderMeta, Rule,
    RuleCapability,
};

/// Kilo Code reads no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The Kilo Code provider (id `kilocode`, priority 28).
#[derive(Debug, Clone, Copy, Default)]
pub struct KilocodeProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "kilocode",
    "Kilo Code",
    "Kilo Code rules: .kilocode/rules, .kilocode/rules-{mode}, .kilocoderules (project, then user; Extended)",
    28,
)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for KilocodeProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let loader = FileLoader::new(ctx, "kilocode", "Kilo Code", FIELD_POLICY).raw(true);
        let tool = "Kilo Code";
        load_base(
            &loader,
            &ctx.cwd.join(".kilocode"),
            Level::Project,
            Some(&ctx.cwd),
            tool,
            &mut out,
        );
        let project_rules = out
            .items
            .iter()
            .any(|r| r.activation != Some(Activation::Manual));
        if !project_rules {
            let legacy = ctx.cwd.join(".kilocoderules");
            if let Some(i) = loader.load_file(
                &legacy,
                "kilocoderules",
                Level::Project,
                Some(&ctx.cwd),
                &mut out,
            ) {
                always(&mut out.items[i]);
            }
        }
        if let Some(user) = ctx.in_home(".kilocode") {
            load_base(&loader, &user, Level::User, None, tool, &mut out);
        }
        Ok(out)
    }
}
