//! The Gemini CLI rules provider (behaviour.md §13, the `gemini` row), Extended only.
//!
//! - Names: option `file_names` (comma-separated; default `GEMINI.md`); a name another
//!   provider owns (`AGENTS.md`, `CLAUDE.md`) is skipped with an `info`, so one file is not
//!   read twice.
//! - User: `~/.gemini/<name>` → `~:<stem>`.
//! - The chain: every name in every directory from the project root down to the working
//!   directory, root first (the documented order; Gemini itself sorts the paths as strings,
//!   so `Api/GEMINI.md` can come before the root's), always-apply.
//! - Descendants (E11): scoped to their directory (Gemini loads them when a tool touches a
//!   file there).
//! - Raw text; `@path` imports as Gemini recognizes them (a token at the start or after white
//!   space, starting with `.`, `/` or a letter; not in code), 5 levels deep, confined to the
//!   project root (without a repository, to the importing file's directory).
//! - `.gemini/styleguide.md` at the project root, which Gemini Code Assist on GitHub (a
//!   pull-request review agent) reads and Gemini CLI does not: the rule `styleguide`,
//!   turned off for the coding agent; option `agent_kind=code-review` applies it always.
//!
//! [`host`] is the tool's own view (`--as`): what the real tool loads here, in its order and
//! wrapping, checked against the real tool where it could be run (`rulebook-hosts`
//! dispatches to it and guards what it shows).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::ProviderMeta;
//! use rulebook_provider_gemini::{GeminiProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("GEMINI.md"), "Be brief.")?;
//! let loaded = GeminiProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "GEMINI");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Gemini CLI, for the table of tools: `--as gemini` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Gemini);

use rulebook_kit::skills::SkillFolders;
use rulebook_kit::{OptionKind, ProviderMeta, ProviderOption};
use std::path::{Path, PathBuf};

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::{
    Diagnostic, DiagnosticCode, FileLoader, ImportOptions, Level, LoadResult, Profile,
    ProviderError, Rule, RuleCapability, dir_scoped_name, scope_to_directory,
};

/// GEMINI.md has no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// Gemini's import depth (`maxDepth: 5`).
pub const IMPORT_DEPTH: usize = 5;

/// Names other providers read: not read again.
const OWNED_ELSEWHERE: &[&str] = &["AGENTS.md", "CLAUDE.md"];

/// The Gemini provider (id `gemini`, priority 45).
#[derive(Debug, Clone, Copy, Default)]
pub struct GeminiProvider;

fn names(ctx: &LoadContext) -> Vec<String> {
    ctx.option("gemini", "file_names")
        .unwrap_or("GEMINI.md")
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
        .collect()
}

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "gemini",
    "Gemini CLI",
    "Gemini CLI: GEMINI.md in ~/.gemini and from the project root down, nested ones, imports (Extended)",
    45,
)
.with_nested_names(&["GEMINI.md"])
.with_profiles(&[Profile::Extended])
.with_options(&[
    ProviderOption::new("file_names", OptionKind::FileNames),
    ProviderOption::new(
        "agent_kind",
        OptionKind::OneOf(rulebook_kit::context_files::AGENT_KINDS),
    ),
]);

/// What the skills provider is: the same id and priority as the rules provider.
pub static SKILLS_INFO: ProviderMeta = ProviderMeta::new(
    "gemini",
    "Gemini CLI",
    "Gemini CLI skills: .gemini/skills up to the project root, then ~/.gemini/skills",
    45,
)
.with_profiles(&[Profile::Extended])
.with_nested_names(&[".gemini"]);

/// The tool's skills folders (behaviour.md §14): `SKILL.md` one level down in each.
pub const SKILLS: SkillFolders =
    SkillFolders::new(&SKILLS_INFO, &[".gemini/skills"], &[".gemini/skills"]);

impl Provider<RuleCapability> for GeminiProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let loader = FileLoader::new(ctx, "gemini", "Gemini CLI", FIELD_POLICY).raw(true);
        let mut wanted = Vec::new();
        for name in names(ctx) {
            if OWNED_ELSEWHERE.contains(&name.as_str()) {
                out.diagnostics.push(Diagnostic::new(
                    DiagnosticCode::Shadowed,
                    format!("Gemini's context file name {name} is read by its own provider; the gemini provider skips it"),
                ));
            } else {
                wanted.push(name);
            }
        }
        let in_repo = ctx.repo_root.is_some();
        let root = ctx.project_root.clone();
        if let Some(home) = ctx.in_home(".gemini") {
            for name in &wanted {
                let stem = rulebook_kit::stem(Path::new(name));
                let options = imports(ctx, &home, true);
                loader.load_memory_file(
                    &home.join(name),
                    &format!("~:{stem}"),
                    Level::User,
                    None,
                    &options,
                    &mut out,
                );
            }
        }
        let mut chain: Vec<PathBuf> = ctx
            .cwd
            .ancestors()
            .take_while(|d| d.starts_with(&root))
            .map(Path::to_path_buf)
            .collect();
        chain.reverse();
        for dir in &chain {
            for name in &wanted {
                let stem = rulebook_kit::stem(Path::new(name));
                let rule_name = dir_scoped_name(dir, &stem, &root, &ctx.home);
                let options = imports(ctx, dir, in_repo);
                loader.load_memory_file(
                    &dir.join(name),
                    &rule_name,
                    Level::Project,
                    Some(&root),
                    &options,
                    &mut out,
                );
            }
        }
        for name in &wanted {
            for dir in ctx.nested_dirs(name) {
                let Ok(rel) = dir.strip_prefix(&ctx.cwd) else {
                    continue;
                };
                let rel = rel.to_string_lossy().replace('\\', "/");
                let stem = rulebook_kit::stem(Path::new(name));
                let rule_name = dir_scoped_name(dir, &stem, &root, &ctx.home);
                let options = imports(ctx, dir, in_repo);
                let first = out.items.len();
                loader.load_memory_file(
                    &dir.join(name),
                    &rule_name,
                    Level::Project,
                    Some(&root),
                    &options,
                    &mut out,
                );
                for rule in &mut out.items[first..] {
                    scope_to_directory(rule, &rel);
                }
            }
        }
        rulebook_kit::context_files::load_review_file(
            &loader,
            ctx,
            ".gemini/styleguide.md",
            "styleguide",
            "Gemini Code Assist on GitHub",
            &mut out,
        );
        Ok(out)
    }
}

/// Imports confined to the project root, or, outside a repository, to the file's directory.
fn imports(ctx: &LoadContext, dir: &Path, in_repo: bool) -> ImportOptions {
    let boundary = if in_repo {
        ctx.project_root.clone()
    } else {
        dir.to_path_buf()
    };
    ImportOptions {
        max_depth: IMPORT_DEPTH,
        boundary: std::fs::canonicalize(&boundary).unwrap_or(boundary),
        allow_outside: false,
        home: ctx.home.clone(),
        dialect: rulebook_kit::Dialect::Gemini,
        max_size: ctx.mechanisms.size_cap,
    }
}
