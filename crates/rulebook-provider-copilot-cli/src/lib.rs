//! The GitHub Copilot CLI provider (behaviour.md §13, the `copilot-cli` row), Extended only:
//! what the CLI reads and no other provider does, the `AGENTS.md`, `CLAUDE.md` and
//! `GEMINI.md` of any other case of letters (`agents.md`, `Claude.md`, `gemini.md`), in
//! every directory from the project root down to the working directory; each text whole,
//! an always-apply rule named by its directory and its stem as written (`agents`,
//! `pkg:api:Claude`). The names in capitals are the `agents-md`, `claude` and `gemini`
//! providers'; `.github/copilot-instructions.md` and `.github/instructions` the `copilot`
//! provider's; `.claude/rules` the `claude` provider's.
//!
//! [`host`] is the tool's own view (`--as copilot-cli`), verified against GitHub Copilot CLI
//! 1.0.102: its blocks and their order, its `@` imports, the always-on instruction files
//! it sends as written, the table of path-scoped files, and its skills.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_copilot_cli::{CopilotCliProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("agents.md"), "Use pnpm.\n")?;
//! let ctx = LoadContext::new(dir.path(), "").profile(rulebook_kit::Profile::Extended);
//! let loaded = CopilotCliProvider.load(&ctx)?;
//! assert_eq!(loaded.items[0].name, "agents");
//! assert_eq!(&*loaded.items[0].content, "Use pnpm.");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::{Chain, ContextFiles, always_whole, stem_of};
use rulebook_kit::{
    FileLoader, Level, LoadResult, Profile, ProviderError, ProviderMeta, Rule, RuleCapability,
    dir_scoped_name,
};

pub mod host;

/// GitHub Copilot CLI, for the table of tools: `--as copilot-cli` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::CopilotCli);

/// The CLI sends these files as written; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The names the CLI reads in any case of letters, from the project root down to the
/// working directory.
pub const FILES: ContextFiles =
    ContextFiles::new(&["AGENTS.md", "CLAUDE.md", "GEMINI.md"], Chain::RootToCwd).any_case();

/// The GitHub Copilot CLI provider (id `copilot-cli`, priority 32).
#[derive(Debug, Clone, Copy, Default)]
pub struct CopilotCliProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "copilot-cli",
    "GitHub Copilot CLI",
    "GitHub Copilot CLI: AGENTS.md, CLAUDE.md, GEMINI.md in other cases of letters (Extended)",
    32,
)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for CopilotCliProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader =
            FileLoader::new(ctx, "copilot-cli", "GitHub Copilot CLI", FIELD_POLICY).raw(true);
        let mut out = LoadResult::default();
        for dir in FILES.dirs(ctx) {
            for name in FILES.names {
                // The exact spelling is another provider's; every other one is ours.
                for path in FILES.spellings(&dir, name) {
                    if path.ends_with(name) {
                        continue;
                    }
                    let written = path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    let rule_name =
                        dir_scoped_name(&dir, &stem_of(&written), &ctx.project_root, &ctx.home);
                    let boundary = Some(ctx.project_root.as_path());
                    if let Some(index) =
                        loader.load_file(&path, &rule_name, Level::Project, boundary, &mut out)
                    {
                        always_whole(&mut out, index);
                    }
                }
            }
        }
        Ok(out)
    }
}
