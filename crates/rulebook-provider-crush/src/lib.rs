//! The Crush rules provider (behaviour.md §13, the `crush` row), Extended only.
//!
//! Crush reads a list of context paths (`internal/config/config.go`, `charmbracelet/crush`
//! 37f36e93) in the working directory only, no walk: `.github/copilot-instructions.md`,
//! `.cursorrules`, `.cursor/rules/`, `CLAUDE.md`, `CLAUDE.local.md`, `GEMINI.md`,
//! `CRUSH.md`, `CRUSH.local.md`, `AGENTS.md` and other spellings of them; and
//! `~/.config/crush/CRUSH.md`, `~/.config/AGENTS.md` for the user. Every file whole, raw,
//! always-on; no frontmatter, no imports, no size limit.
//!
//! This provider reads Crush's own names (the others have their providers):
//! `~/.config/crush/CRUSH.md` (`~:CRUSH`), then `CRUSH.md` and `CRUSH.local.md` in the
//! working directory, always-apply, trimmed. Crush skips a path whose lower-cased form it
//! has already taken, even when that file was missing, and sorts its list first: so on a
//! case-sensitive file system a lone `crush.md` or `Crush.md` is never loaded (read in its
//! source, `internal/agent/prompt/prompt.go`, not run): an `info` says so.
//!
//! [`host`] is the tool's own view (`--as crush`): documented from its source, not verified.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_crush::{CrushProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("CRUSH.md"), "Build with make.\n")?;
//! let loaded = CrushProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "CRUSH");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Crush, for the table of tools: `--as crush` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Crush);

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::{Chain, ContextFiles};
use rulebook_kit::{
    Diagnostic, DiagnosticCode, FileLoader, LoadResult, Profile, ProviderError, ProviderMeta, Rule,
    RuleCapability,
};

/// Crush reads no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// Crush's own files: the user's, then the working directory's.
pub const FILES: ContextFiles = ContextFiles::new(&["CRUSH.md", "CRUSH.local.md"], Chain::Cwd)
    .with_user(&[".config/crush/CRUSH.md"]);

/// Spellings Crush lists but never loads on a case-sensitive file system, each with the
/// spelling that takes its lower-cased name first.
const NEVER: &[(&str, &str)] = &[
    ("Crush.md", "CRUSH.md"),
    ("Crush.local.md", "CRUSH.local.md"),
    ("crush.md", "CRUSH.md"),
    ("crush.local.md", "CRUSH.local.md"),
];

/// The Crush provider (id `crush`, priority 21).
#[derive(Debug, Clone, Copy, Default)]
pub struct CrushProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "crush",
    "Crush",
    "Crush: ~/.config/crush/CRUSH.md, then CRUSH.md and CRUSH.local.md in the working directory (Extended)",
    21,
)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for CrushProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "crush", "Crush", FIELD_POLICY).raw(true);
        let mut out = LoadResult::default();
        FILES.load(&loader, ctx, &mut out);
        // One listing of the working directory: which of the spellings are there.
        let names: Vec<String> = std::fs::read_dir(&ctx.cwd)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        for (name, taken_by) in NEVER {
            if names.iter().any(|n| n == name) {
                out.diagnostics.push(
                    Diagnostic::new(
                        DiagnosticCode::UnsupportedFormat,
                        format!(
                            "Crush does not load {name} on a case-sensitive file system: it takes its lower-cased name for {taken_by} first, even when that file is missing (read in Crush's source, not run); name it {taken_by}"
                        ),
                    )
                    .with_path(ctx.cwd.join(name)),
                );
            }
        }
        Ok(out)
    }
}
