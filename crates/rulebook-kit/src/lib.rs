//! The provider kit: everything a rule provider crate needs, in one dependency.
//!
//! A provider is a type implementing [`Provider<RuleCapability>`](Provider): a list of paths,
//! a push order and a field policy. This crate gives it:
//! - the [`Provider`] trait, the [`LoadContext`] it is loaded with (working directory,
//!   home, profile, size cap) and [`LoadResult`], re-exported from `rulebook-registry`;
//! - [`FileLoader`]: walk a rules directory or read one file, parse its frontmatter, coerce
//!   its fields, and push the [`Rule`] and its diagnostics into a [`LoadResult`]; built from
//!   the load context, so the size cap (E9), the project boundary (E10) and the recovery of
//!   broken YAML (E4) follow the profile without the provider doing anything;
//! - [`coerce`]: the field coercions of behaviour.md §5 as reusable policies (a new provider
//!   defines its own row with [`coerce::FieldPolicy::new`]), the keys every provider reads
//!   ([`coerce::COMMON_KEYS`]), and the helpers they are made of (`split_globs`,
//!   `key_line`);
//! - [`build_rule`]: the text of one rule file → [`Rule`] plus diagnostics;
//! - the model ([`Rule`], [`SourceMeta`], [`Diagnostic`], …) and the file helpers of
//!   `rulebook-fs` (walker, reader), re-exported.
//!
//! Depends on `rulebook-frontmatter` (the parser), `rulebook-rule` (the model),
//! `rulebook-fs` (walking and reading) and `rulebook-registry` (the provider trait).
//!
//! ```
//! use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
//! use rulebook_kit::{FileLoader, Level, LoadContext, LoadResult, Provider, ProviderError};
//! use rulebook_kit::{ProviderMeta, Rule, RuleCapability};
//!
//! const POLICY: FieldPolicy = FieldPolicy::new(
//!     DescriptionPolicy::StringOnly,
//!     AlwaysApplyPolicy::Boolean,
//!     GlobsPolicy::StringsOnly,
//! );
//!
//! /// Reads `.acme/rules/*.md` in the project.
//! struct Acme;
//!
//! static INFO: ProviderMeta = ProviderMeta::new("acme", "Acme", "Acme rules: .acme/rules/*.md", 10);
//!
//! impl Provider<RuleCapability> for Acme {
//!     fn info(&self) -> &ProviderMeta { &INFO }
//!     fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
//!         let loader = FileLoader::new(ctx, "acme", "Acme", POLICY);
//!         let mut out = LoadResult::default();
//!         loader.load_dir(&ctx.cwd.join(".acme/rules"), &["md"], Level::Project, Some(&ctx.cwd), &mut out);
//!         Ok(out)
//!     }
//! }
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".acme/rules"))?;
//! std::fs::write(dir.path().join(".acme/rules/style.md"), "---\ndescription: Style\n---\nBe brief.")?;
//! let loaded = Acme.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "style");
//! assert_eq!(loaded.items[0].description.as_deref(), Some("Style"));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

pub mod coerce;
pub mod context_files;
pub mod declare;
pub mod host;
mod imports;
mod loader;
pub mod modes;
pub mod skills;

use std::path::{Path, PathBuf};

use rulebook_frontmatter::{ParseOptions, Recovery, WarningKind, parse_frontmatter};

pub use imports::{Dialect, Expanded, ImportOptions, ImportToken, expand_imports, import_tokens};
pub use loader::{FileLoader, MemoryFile, ReadPolicy, stem};
pub use rulebook_frontmatter as frontmatter;
pub use rulebook_fs as fs;
pub use rulebook_fs::{
    DEFAULT_MAX_FILE_SIZE, MAX_NESTED_ENTRIES, MAX_WALK_DEPTH, MAX_WALK_ENTRIES, ReadOptions,
    Walked, find_upward, owned_by_another_user, read_rule_file, walk_rules_dir,
};
pub use rulebook_registry::{
    ConditionalFile, KnownKey, LoadContext, LoadResult, Mechanisms, OptionError, OptionKind,
    Project, Provider, ProviderError, ProviderMeta, ProviderOption, RuleCapability,
    SkillCapability, UnquotedGlobs,
};
pub use rulebook_rule::{
    Activation, Diagnostic, DiagnosticCode, FrontmatterOutcome, GlobDialect, Level, Map, Profile,
    Rule, Severity, Skill, SourceMeta, Value, validate_rule,
};

use coerce::{FieldPolicy, coerce_fields};

/// The frontmatter recovery the mechanisms ask for on a YAML error: Extended E4's quoting
/// of misread values, or the seeds' line parser.
pub fn recovery(mechanisms: &Mechanisms) -> Recovery {
    if mechanisms.recover_misread_values {
        Recovery::QuoteValues
    } else {
        Recovery::LineParser
    }
}

/// The key of a directory in rule names (behaviour.md §13, E11): its path relative to the
/// project root with `/` as `:` (`packages/api` → `packages:api`); `..` for each step above
/// the root; `~` under the home; empty for the root itself. A per-directory file is named
/// `<key>:<stem>` (or `<stem>` at the root), so names never contain `/` and round-trip
/// through `rule://`.
pub fn dir_key(dir: &Path, project_root: &Path, home: &Path) -> String {
    if let Ok(rel) = dir.strip_prefix(project_root) {
        return rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(":");
    }
    if !home.as_os_str().is_empty() {
        if let Ok(rel) = dir.strip_prefix(home) {
            let rest: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            return std::iter::once("~".to_owned())
                .chain(rest)
                .collect::<Vec<_>>()
                .join(":");
        }
    }
    // Above the root: one `..` per step up to the common ancestor, then down.
    let mut up = 0;
    let mut base = project_root;
    while !dir.starts_with(base) {
        match base.parent() {
            Some(parent) => {
                base = parent;
                up += 1;
            }
            None => break,
        }
    }
    let down = dir
        .strip_prefix(base)
        .map(|rel| {
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    std::iter::repeat_n("..".to_owned(), up)
        .chain(down)
        .collect::<Vec<_>>()
        .join(":")
}

/// A rule named by its path under `dir` without its extension, the folders joined by `:`
/// as directory keys are (`api:style` for `dir/api/style.md`; a `/` would end the name in
/// a `rule://` URL), prefixed `~:` for the user's: the tools that read a rules folder
/// recursively keep `api/style.md` and `web/style.md` apart.
///
/// ```
/// use std::path::Path;
/// use rulebook_kit::{Level, path_name};
///
/// let dir = Path::new("/p/.amazonq/rules");
/// assert_eq!(path_name(dir, Path::new("/p/.amazonq/rules/api/style.md"), Level::Project), "api:style");
/// assert_eq!(path_name(dir, Path::new("/p/.amazonq/rules/a.md"), Level::User), "~:a");
/// ```
pub fn path_name(dir: &Path, path: &Path, level: Level) -> String {
    let rel = path.strip_prefix(dir).unwrap_or(path).with_extension("");
    let rel = rel.to_string_lossy().replace(['\\', '/'], ":");
    match level {
        Level::User => format!("~:{rel}"),
        Level::Project => rel,
    }
}

/// The name of a per-directory file: `<dir key>:<stem>`, or `<stem>` at the project root.
pub fn dir_scoped_name(dir: &Path, stem: &str, project_root: &Path, home: &Path) -> String {
    let key = dir_key(dir, project_root, home);
    if key.is_empty() {
        stem.to_owned()
    } else {
        format!("{key}:{stem}")
    }
}

/// One rule file as a provider found it.
#[derive(Debug, Clone, Copy)]
pub struct RuleFile<'a> {
    /// The rule's name (usually the file name without its extension).
    pub name: &'a str,
    /// The file, absolute.
    pub path: &'a Path,
    /// Its text (BOM stripped, UTF-8).
    pub text: &'a str,
    /// The provider's field coercion.
    pub policy: FieldPolicy,
    /// Provider and level.
    pub source: &'a SourceMeta,
    /// Fold kebab-case keys to camelCase first (see [`FileLoader::fold_kebab_keys`]).
    pub fold_kebab_keys: bool,
}

/// Parses and coerces one rule file. Never fails: a file with broken frontmatter is still a
/// rule (its body is the content), and what was wrong is in the diagnostics.
pub fn build_rule(file: &RuleFile<'_>, mechanisms: &Mechanisms) -> (Rule, Vec<Diagnostic>) {
    let text = FileText {
        text: file.text,
        policy: file.policy,
        fold_kebab_keys: file.fold_kebab_keys,
    };
    let owned = Owned {
        name: file.name.to_owned(),
        path: file.path.to_path_buf(),
        source: file.source.clone(),
    };
    build(&text, owned, mechanisms)
}

/// A [`RuleFile`]'s text and how to read it; [`build`] takes the rest by value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FileText<'a> {
    pub(crate) text: &'a str,
    pub(crate) policy: FieldPolicy,
    pub(crate) fold_kebab_keys: bool,
}

/// What a rule keeps of its file: its name, its path and its source, moved into it.
#[derive(Debug)]
pub(crate) struct Owned {
    pub(crate) name: String,
    pub(crate) path: PathBuf,
    pub(crate) source: SourceMeta,
}

/// [`build_rule`] with the rule's name, path and source moved in (the loader's), not
/// copied: five allocations a rule fewer.
pub(crate) fn build(
    file: &FileText<'_>,
    owned: Owned,
    mechanisms: &Mechanisms,
) -> (Rule, Vec<Diagnostic>) {
    let path = owned.path.as_path();
    let parsed = parse_frontmatter(
        file.text,
        &ParseOptions::new()
            .source(path)
            .recovery(recovery(mechanisms)),
    );
    let mut diagnostics: Vec<Diagnostic> = parsed
        .warnings
        .iter()
        .map(|w| {
            let code = match w.kind {
                WarningKind::NotAMap => DiagnosticCode::NotAMap,
                WarningKind::YamlSyntax => DiagnosticCode::YamlSyntax,
                WarningKind::YamlRecovered => DiagnosticCode::YamlRecovered,
            };
            Diagnostic::new(code, w.message.clone())
                .with_path(path)
                .at(w.line, w.column)
        })
        .collect();
    let mut parsed = parsed;
    if file.fold_kebab_keys {
        parsed.frontmatter = fold_kebab_keys(parsed.frontmatter);
    }
    let (fields, coerce_diagnostics) = coerce_fields(
        &parsed.frontmatter,
        file.policy,
        mechanisms.recover_misread_values,
        path,
        Some(file.text),
    );
    diagnostics.extend(coerce_diagnostics);
    let Owned { name, path, source } = owned;
    let mut rule = Rule::new(name, path, parsed.body, source)
        .with_frontmatter(parsed.frontmatter, parsed.outcome);
    rule.globs = fields.globs;
    rule.always_apply = fields.always_apply;
    rule.description = fields.description;
    rule.ttsr_trigger = fields.ttsr_trigger;
    rule.condition = fields.condition;
    (rule, diagnostics)
}

/// `always-apply` → `alwaysApply`: every kebab-case key as camelCase; where both spellings
/// are written, the camelCase one stands.
fn fold_kebab_keys(map: Map) -> Map {
    let mut out = Map::new();
    let mut folded = Vec::new();
    for (key, value) in map {
        if key.contains('-') {
            let mut camel = String::new();
            let mut upper = false;
            for c in key.chars() {
                if c == '-' {
                    upper = true;
                } else if upper {
                    camel.extend(c.to_uppercase());
                    upper = false;
                } else {
                    camel.push(c);
                }
            }
            folded.push((camel, value));
        } else {
            out.insert(key, value);
        }
    }
    for (key, value) in folded {
        out.entry(key).or_insert(value);
    }
    out
}

/// Extended E1: a whole-file source (`.cursorrules`, `.windsurfrules`, a `.clinerules`
/// file, `global_rules.md`) is always-apply, as its tool applies it, unless its frontmatter
/// sets `alwaysApply` to a boolean itself.
pub fn apply_whole_file_default(rule: &mut Rule) {
    if !matches!(rule.frontmatter.get("alwaysApply"), Some(Value::Bool(_))) {
        rule.always_apply = Some(true);
    }
}

/// Where a project rule directory sits relative to the working directory (E11).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The working directory itself.
    Cwd,
    /// An ancestor of the working directory, up to the project root: its rules' globs are
    /// relative to it ([`Rule::glob_root`]).
    Ancestor,
    /// A directory below the working directory; its path relative to the working directory,
    /// `/`-separated. Its rules apply under it ([`scope_to_directory`]).
    Descendant(String),
}

/// A directory that may hold a provider's project rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectDir {
    /// The directory (the rules are in `dir/<provider's directory>`).
    pub dir: std::path::PathBuf,
    /// Where it sits.
    pub place: Place,
}

/// The directories whose project rules a provider reads, in push order (nearest first, so
/// the rule nearest the working directory wins a name clash): the working directory; then,
/// with [`Mechanisms::project_chain`], its ancestors up to the project root; then the
/// directories below it that hold an entry named `marker` (`.cursor`), from the one walk
/// of the run ([`LoadContext::nested`]).
pub fn project_dirs(ctx: &LoadContext, marker: &str) -> Vec<ProjectDir> {
    let mut dirs = vec![ProjectDir {
        dir: ctx.cwd.clone(),
        place: Place::Cwd,
    }];
    if ctx.mechanisms.project_chain && ctx.cwd.starts_with(&ctx.project_root) {
        for ancestor in ctx.cwd.ancestors().skip(1) {
            if !ancestor.starts_with(&ctx.project_root) {
                break;
            }
            dirs.push(ProjectDir {
                dir: ancestor.to_path_buf(),
                place: Place::Ancestor,
            });
        }
    }
    for dir in ctx.nested_dirs(marker) {
        let Ok(rel) = dir.strip_prefix(&ctx.cwd) else {
            continue;
        };
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if rel.is_empty() {
            continue;
        }
        dirs.push(ProjectDir {
            dir: dir.clone(),
            place: Place::Descendant(rel.join("/")),
        });
    }
    dirs
}

/// Makes a rule of a nested rule directory apply under its directory `rel` (relative to the
/// working directory, E11): its globs are rebased onto the directory (`*.tsx` →
/// `rel/**/*.tsx`, `src/*.ts` → `rel/src/*.ts`); a rule that would apply always, or that
/// has no globs, gets `rel/**` instead; a rule with no description gets "Instructions for
/// folder 'rel'", so it is listed and readable through `rule://` too.
pub fn scope_to_directory(rule: &mut Rule, rel: &str) {
    let rebased: Vec<String> = match rule.globs.as_deref() {
        Some(globs) if !globs.is_empty() => globs
            .iter()
            .map(|g| {
                let g = g.trim();
                let g = g
                    .strip_prefix("./")
                    .or_else(|| g.strip_prefix('/'))
                    .unwrap_or(g);
                if g.contains('/') {
                    format!("{rel}/{g}")
                } else {
                    format!("{rel}/**/{g}")
                }
            })
            .collect(),
        _ => vec![format!("{rel}/**")],
    };
    rule.globs = Some(rebased);
    rule.glob_dialect = GlobDialect::Cursor;
    rule.glob_root = None;
    if rule.always_apply == Some(true) || rule.activation == Some(Activation::AlwaysOn) {
        rule.activate(Activation::Glob);
    }
    if rule.description.as_deref().is_none_or(str::is_empty) {
        rule.description = Some(format!("Instructions for folder '{rel}'"));
    }
}
