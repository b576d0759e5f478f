//! The Cline rules provider (behaviour.md §5 and §13).
//!
//! Reference (the original's reading): the nearest `.clinerules` from the working directory
//! upward: a directory → every `*.md` in it (at any depth), named by file name; a file → one
//! rule named `clinerules`. A `.clinerules` found above the project root, or owned by
//! another user (anyone can plant one in a shared, sticky `/tmp`), is a warning naming
//! where it is; a `.clinerules` that is a symbolic link to a directory is not followed (the
//! original warns `Failed to read .clinerules at <path>` and loads nothing from it).
//!
//! Extended (as Cline reads it, its `UI/cline-rules.ts` and `UI/rule-conditionals.ts`):
//! - `.clinerules` at the workspace root (the working directory) only, never upward;
//! - a directory: `*.md` and `*.txt` at any depth, but not `workflows/`, `hooks/` or
//!   `skills/`; a file: one always-apply rule `clinerules`;
//! - no `paths` → always-apply; `paths` a non-empty list of patterns → attached to matching
//!   files, anchored at the workspace root (a description `Applies to …` is synthesized when
//!   there is none); `paths: []` → never applies; any other `paths` → a warning, and the
//!   rule applies everywhere (Cline fails open);
//! - user rules from `~/Documents/Cline/Rules`, `~/Cline/Rules` and `~/.cline/rules`, after
//!   the workspace's (which win a name clash);
//! - and what Cline CLI (`@cline/core`) reads besides, so the union holds both: extensions
//!   `*.md`, `*.markdown`, `*.txt` in any case, the workspace's `.cline/rules/`, the managed
//!   packages `.cline/<dir>/rules.md` (`<dir>` holds `managed.json`, named
//!   `cline:<dir>:rules`), and `~/.agents/AGENTS.md` (`~:agents:AGENTS`, always-apply).
//!
//! Fields follow [`FIELD_POLICY`]. The project boundary of Extended E10 is the workspace.
//!
//! [`host`] is the tool's own view (`--as`): what the real tool loads here, in its order and
//! wrapping, checked against the real tool where it could be run (`rulebook-hosts`
//! dispatches to it and guards what it shows).
//!
//! Depends on `rulebook-kit`.
/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Cline CLI, for the table of tools: `--as cline` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Cline);

use std::path::Path;

use rulebook_kit::coerce::{
    AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy, common_keys_and,
};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, GlobDialect, Level, Profile, Rule, Value,
    apply_whole_file_default,
};
use rulebook_kit::{FileLoader, owned_by_another_user};
use rulebook_kit::{LoadResult, ProviderError, ProviderMeta, RuleCapability};

/// Cline's field coercion: its row of behaviour.md §5's table.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The keys Cline rules may set: the common ones (read by the original) and `paths`.
const KNOWN_KEYS: &[rulebook_kit::KnownKey] =
    &common_keys_and::<7>(&[rulebook_kit::KnownKey::new(
        "paths",
        "files the rule applies to, anchored at the workspace root (Extended)",
    )]);

/// The Cline provider (id `cline`, priority 40).
#[derive(Debug, Clone, Copy, Default)]
pub struct ClineProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "cline",
    "Cline",
    "Cline rules: .clinerules (a file, or a directory of *.md and *.txt) and the user's Cline/Rules (Extended); the nearest .clinerules upward (Reference)",
    40,
)
.with_known_keys(KNOWN_KEYS);

impl Provider<RuleCapability> for ClineProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        // Cline's rule files are placed by their frontmatter (`paths`) alone.
        let loader = FileLoader::new(ctx, "cline", "Cline", FIELD_POLICY).content_blind(true);
        let mut out = LoadResult::default();
        if ctx.profile == Profile::Extended {
            load_as_cline(ctx, &loader, &mut out);
        } else {
            load_as_original(ctx, &loader, &mut out);
        }
        Ok(out)
    }
}

/// Reference: the nearest `.clinerules` from the working directory upward, as the original
/// reads it.
fn load_as_original(ctx: &LoadContext, loader: &FileLoader, out: &mut LoadResult<Rule>) {
    let found = ctx.cwd.ancestors().find_map(|dir| {
        let candidate = dir.join(".clinerules");
        let meta = std::fs::symlink_metadata(&candidate).ok()?;
        Some((candidate, meta))
    });
    let Some((source, meta)) = found else {
        return;
    };
    let root = source.parent();
    warn_if_untrusted(&source, root, &ctx.project_root, out);
    let is_dir = std::fs::metadata(&source).is_ok_and(|m| m.is_dir());
    if is_dir && meta.file_type().is_symlink() {
        out.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::ReadFailed,
                format!("Failed to read .clinerules at {}", source.display()),
            )
            .with_path(&source),
        );
    } else if is_dir {
        loader.load_dir(&source, &["md"], Level::Project, root, out);
    } else {
        loader.load_file(&source, "clinerules", Level::Project, root, out);
    }
}

/// The user rule directories Cline reads (behaviour.md §13, the `cline` row), in order.
const USER_DIRS: &[&str] = &["Documents/Cline/Rules", "Cline/Rules", ".cline/rules"];

/// The directories of `.clinerules/` that hold no rules for Cline.
const NOT_RULES: &[&str] = &["workflows", "hooks", "skills"];

/// Extended: as Cline reads its rules. `.clinerules` at the workspace root (the working
/// directory) only, never searched upward; in a directory, `*.md` and `*.txt` at any depth
/// but `workflows/`, `hooks/` and `skills/`; then the user's rule directories. A rule
/// without `paths` is always active; `paths` (a non-empty list of patterns) attaches it
/// to matching files, anchored at the workspace root; `paths: []` turns it off; any other
/// `paths` is a warning and the rule stays active (Cline fails open).
fn load_as_cline(ctx: &LoadContext, loader: &FileLoader, out: &mut LoadResult<Rule>) {
    let source = ctx.cwd.join(".clinerules");
    let first = out.items.len();
    // The item of a whole `.clinerules` file, if it loaded: its `paths` are not read.
    let mut whole_file = None;
    if let Ok(meta) = std::fs::metadata(&source) {
        warn_if_untrusted(&source, Some(&ctx.cwd), &ctx.cwd, out);
        if meta.is_dir() {
            load_rules_dir(loader, &source, Level::Project, Some(&ctx.cwd), out);
        } else if let Some(i) =
            loader.load_file(&source, "clinerules", Level::Project, Some(&ctx.cwd), out)
        {
            apply_whole_file_default(&mut out.items[i]);
            whole_file = Some(i);
        }
    }
    // What Cline CLI reads besides (`@cline/core`; the `cline-dedup`, `cline-names` and
    // `cline-global` goldens): the workspace's `.cline/rules/`, the managed packages
    // `.cline/<dir>/rules.md` whose directory holds `managed.json`, and the global
    // `~/.agents/AGENTS.md`.
    load_rules_dir(
        loader,
        &ctx.cwd.join(".cline/rules"),
        Level::Project,
        Some(&ctx.cwd),
        out,
    );
    for dir in managed_packages(&ctx.cwd.join(".cline")) {
        let name = format!(
            "cline:{}:rules",
            dir.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        );
        loader.load_file(
            &dir.join("rules.md"),
            &name,
            Level::Project,
            Some(&ctx.cwd),
            out,
        );
    }
    for rel in USER_DIRS {
        if let Some(dir) = ctx.in_home(rel) {
            load_rules_dir(loader, &dir, Level::User, None, out);
        }
    }
    if let Some(global) = ctx.in_home(".agents/AGENTS.md") {
        if let Some(i) = loader.load_file(&global, "~:agents:AGENTS", Level::User, None, out) {
            apply_whole_file_default(&mut out.items[i]);
        }
    }
    for i in (first..out.items.len()).filter(|&i| whole_file != Some(i)) {
        if let Some(d) = apply_paths(&mut out.items[i]) {
            out.diagnostics.push(d);
        }
    }
}

/// The directories of `.cline/` that hold a `managed.json` (Cline CLI's installed rule
/// packages), sorted.
fn managed_packages(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("managed.json").is_file() && p.file_name().is_some_and(|n| n != "rules"))
        .collect();
    out.sort();
    out
}

/// The extensions of a rule file in a Cline rules directory, in any case: the VS Code
/// extension reads `*.md` and `*.txt`, Cline CLI also `*.markdown`, any case (`U.MD`).
fn is_rule_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| {
        ["md", "markdown", "txt"]
            .iter()
            .any(|x| e.eq_ignore_ascii_case(x))
    }) && path.file_stem().is_some_and(|s| !s.is_empty())
}

fn load_rules_dir(
    loader: &FileLoader,
    dir: &Path,
    level: Level,
    root: Option<&Path>,
    out: &mut LoadResult<Rule>,
) {
    let keep = |path: &Path| {
        is_rule_file(path)
            && path.strip_prefix(dir).is_ok_and(|rel| {
                rel.components()
                    .next()
                    .is_none_or(|c| !NOT_RULES.iter().any(|n| c.as_os_str() == *n))
                    || rel.components().count() == 1
            })
    };
    loader.load_dir_where(dir, &["*"], level, root, out, &rulebook_kit::stem, &keep);
}

/// Cline's `paths` (its `UI/rule-conditionals.ts`): decides how the rule applies.
fn apply_paths(rule: &mut Rule) -> Option<Diagnostic> {
    let paths = rule.frontmatter.get("paths").cloned();
    match paths {
        None | Some(Value::Null) => {
            rule.activate(Activation::AlwaysOn);
            None
        }
        Some(Value::List(items)) if items.is_empty() => {
            rule.turn_off("Cline `paths: []`: it applies to no path");
            None
        }
        Some(Value::List(items))
            if items
                .iter()
                .all(|i| i.as_str().is_some_and(|s| !s.trim().is_empty())) =>
        {
            let globs: Vec<String> = items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_owned))
                .collect();
            if rule.description.as_deref().is_none_or(str::is_empty) {
                rule.description = Some(format!("Applies to {}", globs.join(", ")));
            }
            rule.globs = Some(globs);
            rule.glob_dialect = GlobDialect::Anchored;
            rule.activate(Activation::Glob);
            None
        }
        Some(other) => {
            rule.activate(Activation::AlwaysOn);
            Some(
                Diagnostic::new(
                    DiagnosticCode::WrongType,
                    format!(
                        "`paths` in {} is {}, not a non-empty list of patterns; Cline ignores it and applies the rule everywhere",
                        rule.path.display(),
                        other.type_name()
                    ),
                )
                .with_path(&rule.path),
            )
        }
    }
}

/// A `.clinerules` above the project root, or owned by another user, is read (Reference) but
/// never silently.
fn warn_if_untrusted(
    source: &Path,
    dir: Option<&Path>,
    project_root: &Path,
    out: &mut LoadResult<Rule>,
) {
    if dir.is_some_and(|d| !d.starts_with(project_root)) {
        out.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::OutsideProject,
                format!(
                    "Read {} from above the project root {}: the original searches every parent directory; Cline itself reads .clinerules at the workspace root only",
                    source.display(),
                    project_root.display()
                ),
            )
            .with_path(source),
        );
    }
    if owned_by_another_user(source) {
        out.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::ForeignOwner,
                format!(
                    "{} is owned by another user than the one running rulebook; its rules are read, check that you trust it",
                    source.display()
                ),
            )
            .with_path(source),
        );
    }
}
