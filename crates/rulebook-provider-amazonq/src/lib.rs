//! The Amazon Q Developer rules provider (behaviour.md §13, the `amazonq` row), Extended
//! only.
//!
//! Amazon Q Developer in the IDE adds to every chat every `*.md` file under
//! `.amazonq/rules/` of the workspace, recursively, then `README.md` and `AmazonQ.md` at
//! the workspace root; no frontmatter; each file cut at 40,960 characters, at most 100 of
//! them (`aws/language-servers`, the workspace context of the Q chat server). The Q
//! Developer CLI (`aws/amazon-q-developer-cli` 15cc8f3c, its default agent's resources)
//! reads `AmazonQ.md`, `AGENTS.md`, `README.md` and `.amazonq/rules/**/*.md` relative to the
//! working directory.
//!
//! This provider reads `.amazonq/rules/**/*.md` at the project root, always-apply, raw text
//! trimmed, named by its path under `rules/` without the extension (`api:style`), then
//! `AmazonQ.md` (`AmazonQ`). `README.md` is a project's readme, not a rule file: it is not
//! read (the tool's own view, `--as amazonq`, shows it loaded). A file longer than the
//! IDE's cut gets an `info`.
//!
//! [`host`] is the tool's own view (`--as amazonq`): documented, not verified.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_amazonq::{AmazonqProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".amazonq/rules/api"))?;
//! std::fs::write(dir.path().join(".amazonq/rules/api/style.md"), "Use REST.\n")?;
//! let loaded = AmazonqProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "api:style");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Amazon Q Developer, for the table of tools: `--as amazonq` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Amazonq);

use std::path::Path;

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::{Chain, ContextFiles};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, FileLoader, Level, LoadResult, Profile, ProviderError,
    ProviderMeta, Rule, RuleCapability,
};

/// Amazon Q reads no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The IDE's cut of one rule file, in characters.
pub const MAX_CHARS: usize = 40_960;

/// `AmazonQ.md` at the project root.
pub const FILES: ContextFiles = ContextFiles::new(&["AmazonQ.md"], Chain::Root);

/// The Amazon Q provider (id `amazonq`, priority 26).
#[derive(Debug, Clone, Copy, Default)]
pub struct AmazonqProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "amazonq",
    "Amazon Q",
    "Amazon Q Developer: .amazonq/rules/**/*.md and AmazonQ.md at the project root (Extended)",
    26,
)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for AmazonqProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "amazonq", "Amazon Q", FIELD_POLICY).raw(true);
        let mut out = LoadResult::default();
        let root = &ctx.project_root;
        let dir = root.join(".amazonq/rules");
        let name = |path: &Path| rulebook_kit::path_name(&dir, path, Level::Project);
        loader.load_dir_named(&dir, &["md"], Level::Project, Some(root), &mut out, &name);
        for rule in &mut out.items {
            rule.content = rule.content.trim().into();
            rule.activate(Activation::AlwaysOn);
        }
        FILES.load(&loader, ctx, &mut out);
        let notes: Vec<Diagnostic> = out
            .items
            .iter()
            .filter(|r| r.content.chars().count() > MAX_CHARS)
            .map(|r| {
                Diagnostic::new(
                    DiagnosticCode::OverToolBudget,
                    format!(
                        "{} is longer than {MAX_CHARS} characters: Amazon Q in the IDE reads only its first {MAX_CHARS}",
                        r.path.display()
                    ),
                )
                .with_path(&r.path)
            })
            .collect();
        out.diagnostics.extend(notes);
        Ok(out)
    }
}
