//! The Zed rules provider (behaviour.md §13, the `zed` row), Extended only:
//! `<project root>/.rules`, one always-apply rule named `rules`, its text trimmed (Zed parses
//! no frontmatter).
//!
//! Zed reads one file per worktree, the first of `.rules`, `.cursorrules`,
//! `.windsurfrules`, `.clinerules`, `.github/copilot-instructions.md`, `AGENT.md`,
//! `AGENTS.md`, `CLAUDE.md`, `GEMINI.md` that exists. The other names belong to their own
//! providers, so rulebook reads them all; when `.rules` is there with one of them, an
//! `info` says Zed would use only `.rules`. `AGENT.md`, which no other tool's provider
//! reads, is read here when Zed would use it: when none of the names before it exists (the
//! order of Zed's documentation at 001118731f; some versions of its source list `CLAUDE.md`
//! before `AGENT.md`), as the always-apply rule `AGENT`.
//!
//! [`host`] is the tool's own view (`--as`): what the tool loads here, in its order, as
//! its documentation tells (it cannot be run here: "documented, not verified");
//! `rulebook-hosts` dispatches to it and guards what it shows.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::ProviderMeta;
//! use rulebook_provider_zed::{LoadContext, Provider, ZedProvider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join(".rules"), "  Keep it short.\n")?;
//! let loaded = ZedProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(&*loaded.items[0].content, "Keep it short.");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Zed, for the table of tools: `--as zed` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Zed);

use rulebook_kit::ProviderMeta;
use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, FileLoader, Level, LoadResult, Profile, ProviderError,
    Rule, RuleCapability,
};

/// Zed reads no frontmatter; the policy only matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The names Zed reads at a worktree root, in its order: the first that exists is its one
/// rules file (`.rules` first).
pub const NAMES: [&str; 9] = [
    ".rules",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
    ".github/copilot-instructions.md",
    "AGENT.md",
    "AGENTS.md",
    "CLAUDE.md",
    "GEMINI.md",
];

/// The names Zed would prefer or pass over for `.rules`, in its order.
const OTHER_NAMES: &[&str] = NAMES.split_at(1).1;

/// The Zed provider (id `zed`, priority 20).
#[derive(Debug, Clone, Copy, Default)]
pub struct ZedProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "zed",
    "Zed",
    "Zed rules: .rules at the project root (Extended)",
    20,
)
.with_profiles(&[Profile::Extended])
.with_conditional_files(&[rulebook_kit::ConditionalFile {
    name: "AGENT.md",
    tool: "Zed",
    when: "only when none of its earlier rule files (.rules, .cursorrules, .windsurfrules, .clinerules, .github/copilot-instructions.md) is here",
}]);

impl Provider<RuleCapability> for ZedProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let loader = FileLoader::new(ctx, "zed", "Zed", FIELD_POLICY).raw(true);
        let root = &ctx.project_root;
        let path = root.join(".rules");
        let agent = NAMES
            .iter()
            .position(|n| *n == "AGENT.md")
            .unwrap_or(NAMES.len());
        let before = NAMES[..agent]
            .iter()
            .any(|name| std::fs::symlink_metadata(root.join(name)).is_ok());
        if !before {
            if let Some(i) = loader.load_file(
                &root.join("AGENT.md"),
                "AGENT",
                Level::Project,
                Some(root),
                &mut out,
            ) {
                let rule = &mut out.items[i];
                rule.content = rule.content.trim().into();
                rule.activate(Activation::AlwaysOn);
            }
        }
        if let Some(i) = loader.load_file(&path, "rules", Level::Project, Some(root), &mut out) {
            let rule = &mut out.items[i];
            rule.content = rule.content.trim().into();
            rule.activate(Activation::AlwaysOn);
            let others: Vec<&str> = OTHER_NAMES
                .iter()
                .copied()
                .filter(|name| std::fs::symlink_metadata(root.join(name)).is_ok())
                .collect();
            if !others.is_empty() {
                out.diagnostics.push(
                    Diagnostic::new(
                        DiagnosticCode::UnsupportedFormat,
                        format!(
                            "Zed would use only .rules here, not {} (it reads the first of its rule files that exists)",
                            others.join(", ")
                        ),
                    )
                    .with_path(&path),
                );
            }
        }
        Ok(out)
    }
}
