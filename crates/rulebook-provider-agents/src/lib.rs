//! The `agents` rules provider: the fifth provider the original added after the seeds were written
//! (behaviour.md §13, the `agents` row), Extended only (behaviour.md §11: not in the seeds).
//!
//! - Project: `.agent/rules` then `.agents/rules` in each directory from the working
//!   directory up to the repository root (outside a repository: up to the home when the
//!   working directory is under it; else up to `/`), nearest first, so the nearest rule wins
//!   a name clash.
//! - User: `~/.agent/rules`, then `~/.agents/rules`. When the working directory is the home,
//!   the same directories load as project and as user rules; the user copies are shadowed.
//! - `*.md` and `*.mdc` at any depth, named by file name; kebab-case keys are folded to
//!   camelCase (`always-apply` → `alwaysApply`, `ttsr-trigger` → `ttsrTrigger`), as the
//!   original does for this provider.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::ProviderMeta;
//! use rulebook_provider_agents::{AgentsProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".agents/rules"))?;
//! std::fs::write(dir.path().join(".agents/rules/k.md"), "---\nalways-apply: true\n---\nBody.")?;
//! let loaded = AgentsProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].always_apply, Some(true));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

use rulebook_kit::ProviderMeta;
use rulebook_kit::skills::SkillFolders;
use std::path::PathBuf;

use rulebook_kit::coerce::{
    AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy, common_keys_and,
};
use rulebook_kit::{
    FileLoader, KnownKey, Level, LoadResult, Profile, ProviderError, Rule, RuleCapability,
};

/// The original reads these files with the native provider's coercion.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOrScalarText,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::ScalarElementsAsText,
);

/// The keys `agents` rules may set: the common ones, and their kebab-case spellings.
pub const KNOWN_KEYS: &[KnownKey] = &common_keys_and::<9>(&[
    KnownKey::new("always-apply", "alwaysApply, in kebab case"),
    KnownKey::new("ttsr-trigger", "ttsrTrigger, in kebab case"),
    KnownKey::new(
        "interrupt-mode",
        "how a TTSR rule interrupts (read by the original)",
    ),
]);

const EXTENSIONS: &[&str] = &["md", "mdc"];
const DIRS: &[&str] = &[".agent/rules", ".agents/rules"];

/// The `agents` provider (id `agents`, priority 70).
#[derive(Debug, Clone, Copy, Default)]
pub struct AgentsProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "agents",
    "Agents",
    "Agents standard rules: .agent/rules and .agents/rules from the working directory up to the repository root, then the user's (Extended)",
    70,
)
.with_known_keys(KNOWN_KEYS)
.with_profiles(&[Profile::Extended]);

/// What the skills provider is: the same id and priority as the rules provider.
pub static SKILLS_INFO: ProviderMeta = ProviderMeta::new(
    "agents",
    "Agents",
    "Agents standard skills: .agent/skills and .agents/skills up to the project root, then the user's",
    70,
)
.with_nested_names(&[".agent", ".agents"]);

/// The tool's skills folders (behaviour.md §14): `SKILL.md` one level down in each.
pub const SKILLS: SkillFolders = SkillFolders::new(
    &SKILLS_INFO,
    &[".agent/skills", ".agents/skills"],
    &[".agent/skills", ".agents/skills"],
);

impl Provider<RuleCapability> for AgentsProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let loader = FileLoader::new(ctx, "agents", "Agents", FIELD_POLICY).fold_kebab_keys(true);
        // Up to the repository root (the project root found from it); outside one, up to
        // the home when under it; else `/`.
        let stop: Option<PathBuf> = ctx
            .repo_root
            .as_ref()
            .map(|_| ctx.project_root.clone())
            .or_else(|| {
                (!ctx.home.as_os_str().is_empty() && ctx.cwd.starts_with(&ctx.home))
                    .then(|| ctx.home.clone())
            });
        for dir in ctx.cwd.ancestors() {
            for sub in DIRS {
                loader.load_dir(
                    &dir.join(sub),
                    EXTENSIONS,
                    Level::Project,
                    Some(dir),
                    &mut out,
                );
            }
            if stop.as_deref() == Some(dir) {
                break;
            }
        }
        for sub in DIRS {
            if let Some(user) = ctx.in_home(sub) {
                loader.load_dir(&user, EXTENSIONS, Level::User, None, &mut out);
            }
        }
        Ok(out)
    }
}
