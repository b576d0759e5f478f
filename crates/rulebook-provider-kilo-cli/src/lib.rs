//! The Kilo Code CLI provider (behaviour.md §13, the `kilo-cli` row), Extended only: what
//! only the CLI reads, each text whole (frontmatter kept), always: `.kilo/rules/*.md` of the
//! working directory and the user's `~/.kilo/rules/*.md` (named `kilo:<stem>`,
//! `~:kilo:<stem>`), the user's `~/.config/kilo/AGENTS.md` (`~:kilo:AGENTS`), and what the
//! CLI loads for every agent where the editor extension does not: `.kilocoderules`
//! (`kilo:kilocoderules`), each mode's `.kilo/rules-<mode>/*.md` (`kilo:<mode>:<stem>`) and
//! `.kilocoderules-<mode>`. The `.kilocode` folders it shares with the extension are the
//! `kilocode` provider's (the same file read by both is one rule); `AGENTS.md` and
//! `CLAUDE.md` the `agents-md` and `claude` providers'.
//!
//! [`host`] is the tool's own view (`--as kilo-cli`), verified against Kilo Code CLI 7.7.7:
//! OpenCode's loader, with the files outside the project dropped, the rule folders of every
//! mode, and its skills.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_kilo_cli::{KiloCliProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".kilo/rules"))?;
//! std::fs::write(dir.path().join(".kilo/rules/style.md"), "Use tabs.\n")?;
//! let ctx = LoadContext::new(dir.path(), "").profile(rulebook_kit::Profile::Extended);
//! let loaded = KiloCliProvider.load(&ctx)?;
//! assert_eq!(loaded.items[0].name, "kilo:style");
//! assert_eq!(&*loaded.items[0].content, "Use tabs.");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::always_whole;
use rulebook_kit::{
    FileLoader, Level, LoadResult, Profile, ProviderError, ProviderMeta, Rule, RuleCapability,
};

pub mod host;

/// Kilo Code CLI, for the table of tools: `--as kilo-cli` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::KiloCli);

/// Kilo Code CLI sends its files as written; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The user's Kilo file, relative to the home (`rule://~:kilo:AGENTS`).
pub const USER_FILE: &str = ".config/kilo/AGENTS.md";

/// The Kilo Code CLI provider (id `kilo-cli`, priority 29).
#[derive(Debug, Clone, Copy, Default)]
pub struct KiloCliProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "kilo-cli",
    "Kilo Code CLI",
    "Kilo Code CLI: .kilo/rules and ~/.kilo/rules, ~/.config/kilo/AGENTS.md (Extended)",
    29,
)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for KiloCliProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "kilo-cli", "Kilo Code CLI", FIELD_POLICY).raw(true);
        let mut out = LoadResult::default();
        let mut files: Vec<(std::path::PathBuf, String, Level)> = Vec::new();
        if let Some(user) = ctx.in_home(USER_FILE) {
            files.push((user, "~:kilo:AGENTS".to_owned(), Level::User));
        }
        let folders = [
            (Some(ctx.cwd.join(".kilo/rules")), "kilo:", Level::Project),
            (ctx.in_home(".kilo/rules"), "~:kilo:", Level::User),
        ];
        for (dir, prefix, level) in folders {
            let Some(dir) = dir else { continue };
            for path in md_files(&dir) {
                let stem = rulebook_kit::stem(&path);
                files.push((path, format!("{prefix}{stem}"), level));
            }
        }
        // What the CLI loads for every agent and the extension reads otherwise or not at
        // all: `.kilocoderules` beside a rules folder, each mode's `.kilo/rules-<mode>`
        // and `.kilocoderules-<mode>`.
        let legacy = ctx.cwd.join(".kilocoderules");
        if legacy.is_file() {
            files.push((legacy, "kilo:kilocoderules".to_owned(), Level::Project));
        }
        for mode in host::MODES {
            for path in md_files(&ctx.cwd.join(format!(".kilo/rules-{mode}"))) {
                let stem = rulebook_kit::stem(&path);
                files.push((path, format!("kilo:{mode}:{stem}"), Level::Project));
            }
            let legacy = ctx.cwd.join(format!(".kilocoderules-{mode}"));
            if legacy.is_file() {
                files.push((legacy, format!("kilo:kilocoderules-{mode}"), Level::Project));
            }
        }
        for (path, name, level) in files {
            let boundary = (level == Level::Project).then_some(ctx.project_root.as_path());
            let Some(index) = loader.load_file(&path, &name, level, boundary, &mut out) else {
                continue;
            };
            always_whole(&mut out, index);
        }
        Ok(out)
    }
}

/// The `*.md` files of `dir` as Kilo lists a rules folder (regular files: no link, no
/// subfolder), sorted by name.
pub(crate) fn md_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<std::path::PathBuf> = rulebook_kit::host::util::entries(dir)
        .into_iter()
        .filter(|p| {
            std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file())
                && p.extension().is_some_and(|e| e == "md")
        })
        .collect();
    files.sort();
    files
}
