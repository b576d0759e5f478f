//! The Qwen Code rules provider (behaviour.md §13, the `qwen` row), Extended only.
//!
//! Qwen Code (a fork of Gemini CLI; `@qwen-code/qwen-code` 0.24.4, read in its bundle, which
//! agrees with `QwenLM/qwen-code` 1d26e73 `packages/core/src/memory/memoryDiscovery.ts` and
//! `config/rulesDiscovery.ts`) reads:
//! - its context files, by default `QWEN.md` then `AGENTS.md`: `~/.qwen/<name>`, then every
//!   directory from the git root down to the working directory (and one directory above
//!   the git root, which rulebook leaves out: it is outside the project, E10), then
//!   `<root>/.qwen/QWEN.local.md`; `@path` imports 5 levels deep inside the project; no
//!   directory below the working directory;
//! - rules: `~/.qwen/rules/**/*.md`, then `<root>/.qwen/rules/**/*.md`; a rule with
//!   `paths:` (a string or a list of globs relative to the project root) is injected when a
//!   tool touches a matching file; without `paths` it is always on; HTML comments are
//!   removed from a rule's body.
//!
//! This provider reads `QWEN.md` (`AGENTS.md` has its own provider): `~:QWEN`, `QWEN` (and
//! `<dir key>:QWEN`) root first, `QWEN.local`; each always-apply, imports expanded as
//! Gemini CLI recognizes them. Then the rules, named by their path under `rules/` without
//! the extension (`api:style`; the user's `~:api:style`): `paths` → attached to the files
//! they match, anchored at the project root; none → always-apply.
//!
//! [`host`] is the tool's own view (`--as qwen`), checked against Qwen Code 0.24.4 run
//! offline (`cargo xtask oracle`, the golden files of `fixtures/hosts/`).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_qwen::{LoadContext, Provider, QwenProvider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".qwen/rules"))?;
//! std::fs::write(dir.path().join(".qwen/rules/ts.md"), "---\npaths: src/**/*.ts\n---\nStrict.")?;
//! let loaded = QwenProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "ts");
//! assert_eq!(loaded.items[0].globs.as_deref(), Some(&["src/**/*.ts".to_string()][..]));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Qwen Code, for the table of tools: `--as qwen` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Qwen);

use std::path::Path;

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::context_files::{Chain, ContextFiles};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, Dialect, FileLoader, GlobDialect, KnownKey, Level,
    LoadResult, Profile, ProviderError, ProviderMeta, Rule, RuleCapability, Value,
};

/// Qwen's rules: `description` is read; `paths` decides how a rule applies.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The keys Qwen's rules read.
pub const KNOWN_KEYS: &[KnownKey] = &[
    KnownKey::new(
        "paths",
        "globs relative to the project root (a string or a list)",
    ),
    KnownKey::new("description", "what the rule is about"),
];

/// Qwen's import depth.
pub const IMPORT_DEPTH: usize = 5;

/// Where `QWEN.md` is.
pub const FILES: ContextFiles = ContextFiles::new(&["QWEN.md"], Chain::RootToCwd)
    .with_user(&[".qwen/QWEN.md"])
    .with_imports(Dialect::Gemini, IMPORT_DEPTH);

/// `<root>/.qwen/QWEN.local.md`, read last.
pub const LOCAL: ContextFiles = ContextFiles::new(&[".qwen/QWEN.local.md"], Chain::Root)
    .with_imports(Dialect::Gemini, IMPORT_DEPTH);

/// The Qwen Code provider (id `qwen`, priority 44).
#[derive(Debug, Clone, Copy, Default)]
pub struct QwenProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "qwen",
    "Qwen Code",
    "Qwen Code: QWEN.md in ~/.qwen and from the project root down, .qwen/QWEN.local.md, .qwen/rules (Extended)",
    44,
)
.with_known_keys(KNOWN_KEYS)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for QwenProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let raw = FileLoader::new(ctx, "qwen", "Qwen Code", FIELD_POLICY).raw(true);
        FILES.load(&raw, ctx, &mut out);
        if ctx.repo_root.is_some() {
            LOCAL.load(&raw, ctx, &mut out);
        }
        let loader = FileLoader::new(ctx, "qwen", "Qwen Code", FIELD_POLICY);
        let root = &ctx.project_root;
        let mut dirs = Vec::new();
        if let Some(user) = ctx.in_home(".qwen/rules") {
            dirs.push((user, Level::User));
        }
        dirs.push((root.join(".qwen/rules"), Level::Project));
        for (dir, level) in dirs {
            let first = out.items.len();
            let name = |path: &Path| rulebook_kit::path_name(&dir, path, level);
            let boundary = (level == Level::Project).then_some(root.as_path());
            loader.load_dir_named(&dir, &["md"], level, boundary, &mut out, &name);
            let mut notes = Vec::new();
            for rule in &mut out.items[first..] {
                notes.extend(apply_paths(rule, root));
            }
            out.diagnostics.extend(notes);
        }
        Ok(out)
    }
}

/// Qwen's `paths`: globs relative to the project root, or none (always on).
fn apply_paths(rule: &mut Rule, root: &Path) -> Option<Diagnostic> {
    // Qwen removes HTML comments from a rule's body before it sends it.
    rule.content = host::strip_html_comments(&rule.content).trim().into();
    let (globs, note) = match rule.frontmatter.get("paths") {
        None | Some(Value::Null) => (Vec::new(), None),
        Some(Value::String(s)) => (vec![s.clone()], None),
        Some(Value::List(items)) => (
            items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_owned))
                .collect(),
            None,
        ),
        Some(other) => (
            Vec::new(),
            Some(
                Diagnostic::new(
                    DiagnosticCode::WrongType,
                    format!(
                        "`paths` in {} is {}, not a glob or a list of globs; read as always on",
                        rule.path.display(),
                        other.type_name()
                    ),
                )
                .with_path(&rule.path),
            ),
        ),
    };
    if globs.is_empty() {
        rule.activate(Activation::AlwaysOn);
        rule.globs = None;
    } else {
        if rule.description.as_deref().is_none_or(str::is_empty) {
            rule.description = Some(format!("Applies to {}", globs.join(", ")));
        }
        rule.globs = Some(globs);
        rule.glob_dialect = GlobDialect::Anchored;
        rule.glob_root = Some(root.to_path_buf());
        rule.activate(Activation::Glob);
    }
    note
}
