//! The `AGENTS.md` rules provider (behaviour.md §13, the `agents-md` row), Extended only: the file
//! nearly every agent reads, read as Codex reads it.
//!
//! - User: `$CODEX_HOME` (option `codex_home`, else the environment variable, else
//!   `~/.codex`): the first **non-empty** of `AGENTS.override.md`, `AGENTS.md` →
//!   `~:AGENTS`, always-apply, trimmed.
//! - Project chain: in each directory from the project root down to the working
//!   directory, the first existing regular file of `AGENTS.override.md`, `AGENTS.md`, then
//!   the fallback names (option `fallback_filenames`, comma-separated): one file per
//!   directory, always-apply, root first; named `AGENTS` at the root, `<dir key>:AGENTS`
//!   below it. As in Codex, the choice is made on existence: a whitespace-only
//!   `AGENTS.override.md` is chosen and contributes nothing, and the `AGENTS.md` beside it is
//!   not read (an `info` says so).
//! - Descendants (E11): the same choice in every directory below the working directory,
//!   scoped to it (`<dir>/**`, `Instructions for folder '<dir>'`).
//! - Bodies are raw (no frontmatter is parsed; a leading `---` block is content).
//! - `over-tool-budget` (info): Codex reads the chain root-first within 32 KiB; when the
//!   chain is longer, the info names the file Codex cuts and where (rulebook keeps all).
//! - `agents.md` in lower case is read by Windsurf, not by Codex: an `info` when it stands
//!   alone.
//!
//! [`host`] is the tool's own view (`--as`): what the real tool loads here, in its order and
//! wrapping, checked against the real tool where it could be run (`rulebook-hosts`
//! dispatches to it and guards what it shows).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::ProviderMeta;
//! use rulebook_provider_agents_md::{AgentsMdProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("AGENTS.md"), "root")?;
//! let loaded = AgentsMdProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "AGENTS");
//! assert_eq!(loaded.items[0].always_apply, Some(true));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Codex CLI, for the table of tools: `--as codex` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Codex);

use rulebook_kit::{OptionKind, ProviderMeta, ProviderOption};
use std::path::{Path, PathBuf};

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, FileLoader, Level, LoadResult, Profile, ProviderError,
    Rule, RuleCapability, dir_scoped_name, scope_to_directory,
};

/// AGENTS.md has no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// Codex's budget for the project chain (`project_doc_max_bytes`).
pub const CODEX_BUDGET: usize = 32 * 1024;

const OVERRIDE: &str = "AGENTS.override.md";
const PRIMARY: &str = "AGENTS.md";

/// The `agents-md` provider (id `agents-md`, priority 60).
#[derive(Debug, Clone, Copy, Default)]
pub struct AgentsMdProvider;

/// The candidate names of a directory, in Codex's order.
fn candidates(ctx: &LoadContext) -> Vec<String> {
    let mut names = vec![OVERRIDE.to_owned(), PRIMARY.to_owned()];
    for name in ctx
        .option("agents-md", "fallback_filenames")
        .unwrap_or("")
        .split(',')
        .map(str::trim)
    {
        if !name.is_empty() && !names.iter().any(|n| n == name) {
            names.push(name.to_owned());
        }
    }
    names
}

/// The first existing regular file among `names` in `dir` (a directory named like one is
/// passed over, as Codex does).
fn pick(dir: &Path, names: &[String]) -> Option<PathBuf> {
    names
        .iter()
        .map(|n| dir.join(n))
        .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
}

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "agents-md",
    "AGENTS.md",
    "AGENTS.md: the user's ($CODEX_HOME), one per directory from the project root down, and nested ones (Extended)",
    60,
)
.with_nested_names(&[OVERRIDE, PRIMARY])
.with_profiles(&[Profile::Extended])
.with_options(&[
    ProviderOption::new("fallback_filenames", OptionKind::FileNames),
    ProviderOption::new("codex_home", OptionKind::Directory),
]);

impl Provider<RuleCapability> for AgentsMdProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let loader = FileLoader::new(ctx, "agents-md", "AGENTS.md", FIELD_POLICY).raw(true);
        load_user(ctx, &loader, &mut out);
        let names = candidates(ctx);
        let root = &ctx.project_root;
        // The chain, root first.
        let mut chain: Vec<PathBuf> = ctx
            .cwd
            .ancestors()
            .take_while(|d| d.starts_with(root))
            .map(Path::to_path_buf)
            .collect();
        chain.reverse();
        let mut chain_rules = Vec::new();
        for dir in &chain {
            if let Some(i) = load_dir_file(ctx, &loader, dir, &names, &mut out) {
                chain_rules.push(i);
            }
        }
        let notes = budget(&out, &chain_rules);
        out.diagnostics.extend(notes);
        // Descendants (E11).
        let mut nested: Vec<PathBuf> = names
            .iter()
            .flat_map(|n| ctx.nested_dirs(n).iter().cloned())
            .collect();
        nested.sort();
        nested.dedup();
        for dir in nested {
            let Ok(rel) = dir.strip_prefix(&ctx.cwd) else {
                continue;
            };
            let rel = rel.to_string_lossy().replace('\\', "/");
            if let Some(i) = load_dir_file(ctx, &loader, &dir, &names, &mut out) {
                scope_to_directory(&mut out.items[i], &rel);
            }
        }
        Ok(out)
    }
}

/// `$CODEX_HOME`: the first non-empty of `AGENTS.override.md`, `AGENTS.md`.
fn load_user(ctx: &LoadContext, loader: &FileLoader, out: &mut LoadResult<Rule>) {
    let home = ctx
        .option("agents-md", "codex_home")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("CODEX_HOME").map(PathBuf::from))
        .or_else(|| ctx.in_home(".codex"));
    let Some(home) = home else {
        return;
    };
    for name in [OVERRIDE, PRIMARY] {
        let path = home.join(name);
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let first = out.items.len();
        if loader
            .load_file(&path, "~:AGENTS", Level::User, None, out)
            .is_some()
        {
            let text = out.items[first].content.trim().to_owned();
            if text.is_empty() {
                out.items.truncate(first);
                continue;
            }
            let rule = &mut out.items[first];
            rule.content = text.into();
            always(rule);
            return;
        }
    }
}

fn always(rule: &mut Rule) {
    rule.activate(Activation::AlwaysOn);
}

/// The file Codex picks in `dir`, loaded as an always-apply rule; `None` when there is
/// none, or it is blank (an `info` when a blank override hides an `AGENTS.md`).
fn load_dir_file(
    ctx: &LoadContext,
    loader: &FileLoader,
    dir: &Path,
    names: &[String],
    out: &mut LoadResult<Rule>,
) -> Option<usize> {
    let Some(path) = pick(dir, names) else {
        lower_case_note(dir, out);
        return None;
    };
    let name = dir_scoped_name(dir, "AGENTS", &ctx.project_root, &ctx.home);
    let i = loader.load_file(&path, &name, Level::Project, Some(&ctx.project_root), out)?;
    if out.items[i].content.trim().is_empty() {
        out.items.truncate(i);
        if path.ends_with(OVERRIDE) && dir.join(PRIMARY).is_file() {
            out.diagnostics.push(
                Diagnostic::new(
                    DiagnosticCode::UnsupportedFormat,
                    format!(
                        "empty AGENTS.override.md hides AGENTS.md in {}: Codex picks the override and reads nothing",
                        dir.display()
                    ),
                )
                .with_path(&path),
            );
        }
        return None;
    }
    always(&mut out.items[i]);
    Some(i)
}

/// `agents.md` in lower case, alone: read by Windsurf, not by Codex.
fn lower_case_note(dir: &Path, out: &mut LoadResult<Rule>) {
    let lower = std::fs::read_dir(dir).ok().and_then(|entries| {
        entries
            .flatten()
            .find(|e| e.file_name() == "agents.md")
            .map(|e| e.path())
    });
    if let Some(path) = lower {
        out.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::UnsupportedFormat,
                format!(
                    "{} is read by Windsurf, not by Codex (file names are exact); rename it AGENTS.md",
                    path.display()
                ),
            )
            .with_path(&path),
        );
    }
}

/// Codex reads the chain root-first within [`CODEX_BUDGET`] bytes: the file that crosses
/// it is cut, the ones after it are dropped. Said, never done.
fn budget(out: &LoadResult<Rule>, chain: &[usize]) -> Vec<Diagnostic> {
    let total: usize = chain.iter().map(|&i| out.items[i].content.len()).sum();
    if total <= CODEX_BUDGET {
        return Vec::new();
    }
    let mut used = 0;
    for &i in chain {
        let len = out.items[i].content.len();
        if used + len > CODEX_BUDGET {
            let rule = &out.items[i];
            return vec![
                Diagnostic::new(
                    DiagnosticCode::OverToolBudget,
                    format!(
                        "the AGENTS.md chain is {total} bytes; Codex keeps {CODEX_BUDGET} and cuts {} after {} bytes (the files nearest the working directory are the ones lost); rulebook keeps all",
                        rule.path.display(),
                        CODEX_BUDGET - used
                    ),
                )
                .with_path(&rule.path),
            ];
        }
        used += len;
    }
    Vec::new()
}
