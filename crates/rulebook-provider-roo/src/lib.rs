//! The Roo Code rules provider (behaviour.md §13, the `roo` row), Extended only. Roo Code was
//! retired in 2026; the provider serves repositories that keep its files.
//!
//! - `.roo/rules/**`: files of any extension but Roo's cache and system files (`*.log`,
//!   `*.bak`, `*.lock`, `*.tmp`), in Roo's order (by file name, case-insensitively, across
//!   subdirectories) → always-apply, raw text (Roo parses no frontmatter), trimmed, named by
//!   file name without its last extension;
//! - `.roo/rules-{mode}/**` → the manual bucket (read through `rule://`), named
//!   `<mode>:<stem>`, described `Roo mode '<mode>' rules`;
//! - `.roorules` (`roorules`, always-apply) only when no `.roo/rules` file loaded;
//! - `AGENT.md` (`AGENT`, always-apply) in the working directory when `AGENTS.md` is
//!   missing or blank: Roo tries `AGENTS.md` then `AGENT.md` and keeps the first that is
//!   not empty (`src/core/prompts/sections/custom-instructions.ts` at cb836567);
//!   `AGENTS.md` itself has its own provider;
//! - project (the working directory) first, then the user's `~/.roo`;
//! - skills ([`SKILLS`]): `.roo/skills/<name>/SKILL.md`, then the user's `~/.roo/skills`; a
//!   skill without a description is passed over, as Roo's `SkillsManager` does
//!   (`src/services/skills/SkillsManager.ts`: name and description required; the
//!   mode-specific `skills-{mode}` folders are not read here).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::ProviderMeta;
//! use rulebook_provider_roo::{LoadContext, Provider, RooProvider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".roo/rules-code"))?;
//! std::fs::write(dir.path().join(".roo/rules-code/x.md"), "Code mode only.")?;
//! let loaded = RooProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "code:x");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

use rulebook_kit::ProviderMeta;

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::modes::{always, load_base};
use rulebook_kit::{
    Activation, FileLoader, Level, LoadResult, Profile, ProviderError, Rule, RuleCapability,
};

/// Roo reads no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The Roo provider (id `roo`, priority 30).
#[derive(Debug, Clone, Copy, Default)]
pub struct RooProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "roo",
    "Roo",
    "Roo Code rules: .roo/rules, .roo/rules-{mode}, .roorules (project, then user; Extended)",
    30,
)
.with_profiles(&[Profile::Extended])
.with_conditional_files(&[rulebook_kit::ConditionalFile {
    name: "AGENT.md",
    tool: "Roo Code",
    when: "only when AGENTS.md is missing or empty",
}]);

/// What the skills provider is: [`Provider::info`] of [`SKILLS`].
pub static SKILLS_INFO: ProviderMeta = ProviderMeta::new(
    "roo",
    "Roo",
    "Roo Code skills: .roo/skills, then the user's ~/.roo/skills (Extended)",
    30,
)
.with_profiles(&[Profile::Extended]);

/// Roo Code's skills folders (behaviour.md §14): `SKILL.md` one level down, a description
/// required.
pub const SKILLS: rulebook_kit::skills::SkillFolders =
    rulebook_kit::skills::SkillFolders::new(&SKILLS_INFO, &[".roo/skills"], &[".roo/skills"])
        .require_description();

impl Provider<RuleCapability> for RooProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let loader = FileLoader::new(ctx, "roo", "Roo", FIELD_POLICY).raw(true);
        let project = ctx.cwd.join(".roo");
        let before = out.items.len();
        load_base(
            &loader,
            &project,
            Level::Project,
            Some(&ctx.cwd),
            "Roo",
            &mut out,
        );
        let project_rules = out.items[before..]
            .iter()
            .any(|r| r.activation != Some(Activation::Manual));
        if !project_rules {
            let legacy = ctx.cwd.join(".roorules");
            if let Some(i) = loader.load_file(
                &legacy,
                "roorules",
                Level::Project,
                Some(&ctx.cwd),
                &mut out,
            ) {
                always(&mut out.items[i]);
            }
        }
        // Whether AGENTS.md says anything: its first MiB tells (a blank file of more is no
        // rule file anyone writes), never the whole of a file of any size.
        let agents = rulebook_kit::fs::read_prefix(
            &ctx.cwd.join("AGENTS.md"),
            rulebook_kit::DEFAULT_MAX_FILE_SIZE,
        )
        .unwrap_or_default();
        if agents.iter().all(u8::is_ascii_whitespace) {
            if let Some(i) = loader.load_file(
                &ctx.cwd.join("AGENT.md"),
                "AGENT",
                Level::Project,
                Some(&ctx.cwd),
                &mut out,
            ) {
                always(&mut out.items[i]);
            }
        }
        if let Some(user) = ctx.in_home(".roo") {
            load_base(&loader, &user, Level::User, None, "Roo", &mut out);
        }
        Ok(out)
    }
}
