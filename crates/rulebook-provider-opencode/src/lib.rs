//! The OpenCode provider (behaviour.md §13, the `opencode` row), Extended only: the user's
//! `~/.config/opencode/AGENTS.md` (`~:opencode:AGENTS`), and `CONTEXT.md`, the name OpenCode
//! alone reads (after `AGENTS.md` and `CLAUDE.md`, which the agents-md and claude providers
//! read), in every directory from the project root down to the working directory; each
//! text whole (no frontmatter), an always-apply rule named by its directory (`CONTEXT`,
//! `pkg:api:CONTEXT`).
//!
//! [`host`] is the tool's own view (`--as opencode`), verified against OpenCode 1.18.33:
//! which of AGENTS.md, CLAUDE.md and CONTEXT.md it reads, up to where, and its skills.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_opencode::{LoadContext, OpencodeProvider, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".git"))?;
//! std::fs::write(dir.path().join("CONTEXT.md"), "Use pnpm.\n")?;
//! let ctx = LoadContext::new(dir.path(), "").profile(rulebook_kit::Profile::Extended);
//! let loaded = OpencodeProvider.load(&ctx)?;
//! assert_eq!(loaded.items[0].name, "CONTEXT");
//! assert_eq!(&*loaded.items[0].content, "Use pnpm.");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::{Chain, ContextFiles, always_whole};
use rulebook_kit::{
    FileLoader, Level, LoadResult, Profile, ProviderError, ProviderMeta, Rule, RuleCapability,
};

pub mod host;

/// OpenCode, for the table of tools: `--as opencode` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Opencode);

/// OpenCode reads no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// Where OpenCode's own file is: `CONTEXT.md` from the project root down to the working
/// directory.
pub const FILES: ContextFiles = ContextFiles::new(&["CONTEXT.md"], Chain::RootToCwd);

/// The user's OpenCode file, relative to the home (`rule://~:opencode:AGENTS`).
pub const USER_FILE: &str = ".config/opencode/AGENTS.md";

/// The OpenCode provider (id `opencode`, priority 27).
#[derive(Debug, Clone, Copy, Default)]
pub struct OpencodeProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "opencode",
    "OpenCode",
    "OpenCode: CONTEXT.md from the project root down to the working directory (Extended)",
    27,
)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for OpencodeProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "opencode", "OpenCode", FIELD_POLICY).raw(true);
        let mut out = LoadResult::default();
        // The user's own file comes first, as OpenCode sends it; `~/.claude/CLAUDE.md`, its
        // stand-in when this one is missing, is the claude provider's.
        let user = ctx.in_home(USER_FILE);
        if let Some(index) = user.and_then(|user| {
            loader.load_file(&user, "~:opencode:AGENTS", Level::User, None, &mut out)
        }) {
            always_whole(&mut out, index);
        }
        FILES.load(&loader, ctx, &mut out);
        Ok(out)
    }
}
