//! The Claude Code rules provider (behaviour.md §13: the `claude` row, E12), Extended only.
//!
//! - User: `~/.claude/CLAUDE.md` → `~:CLAUDE` (always-apply); `~/.claude/rules/**/*.md` at
//!   user level, after the project's (which win a name clash).
//! - The ancestor chain: every directory from the topmost ancestor below `/` down to the
//!   working directory (Claude walks past the repository root; a provider option
//!   `walk_ceiling` stops it, for tests): `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md`,
//!   always-apply, root first, named by directory (`CLAUDE`, `.claude:CLAUDE`,
//!   `CLAUDE.local` at the project root; `pkg:CLAUDE` below it; `..:CLAUDE` above it).
//!   When none of them has text, Claude falls back to `AGENTS.md` and `.claude/AGENTS.md`:
//!   those of the ancestors above the project root are read here (`..:AGENTS`), the
//!   others are the `agents-md` provider's.
//! - Descendants (E11): the same files below the working directory, scoped to their
//!   directory.
//! - `.claude/rules/**/*.md` in every directory of the chain, the working directory's first
//!   (the nearest wins a name clash), `README.md` skipped: `paths` (a list, or one string
//!   split on commas outside braces) attaches the rule to matching files, relative to the
//!   directory holding `.claude`; no `paths` → always-apply; `paths: []` → always-apply with
//!   a warning; `globs:` is not a Claude key (a warning: Claude loads the rule
//!   unconditionally).
//! - Contents: HTML comments removed, no frontmatter (CLAUDE.md files); `@path` imports
//!   expanded in place, relative to the importing file, not in code, 4 hops deep, each
//!   cycle stopped, outside the project refused unless the option
//!   `allow_external_imports` is `true`; [`Rule::includes`] lists the imported files.
//!
//! [`host`] is the tool's own view (`--as`): what the real tool loads here, in its order and
//! wrapping, checked against the real tool where it could be run (`rulebook-hosts`
//! dispatches to it and guards what it shows).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::ProviderMeta;
//! use rulebook_provider_claude::{ClaudeProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("CLAUDE.md"), "See @docs.md")?;
//! std::fs::write(dir.path().join("docs.md"), "the docs")?;
//! let ctx = LoadContext::new(dir.path(), "")
//!     .provider_option("claude", "walk_ceiling", dir.path().to_string_lossy());
//! let loaded = ClaudeProvider.load(&ctx)?;
//! assert_eq!(&*loaded.items[0].content, "See the docs");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;
mod listing;

/// Claude Code, for the table of tools: `--as claude` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Claude);

use rulebook_kit::skills::SkillFolders;
use rulebook_kit::{OptionKind, ProviderMeta, ProviderOption};
use std::path::{Path, PathBuf};

use rulebook_kit::coerce::{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy, split_globs,
};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, FileLoader, GlobDialect, ImportOptions, KnownKey,
    Level, LoadResult, Profile, ProviderError, Rule, RuleCapability, Value, dir_scoped_name,
    scope_to_directory,
};

/// Claude's rules are read with the frontmatter parsed, but only `paths` matters to it.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The keys Claude rules may set.
pub const KNOWN_KEYS: &[KnownKey] = &[
    KnownKey::new(
        "paths",
        "files the rule applies to; without it, the rule always loads",
    ),
    COMMON_KEYS[0],
];

/// Import depth: "a maximum depth of four hops".
pub const IMPORT_DEPTH: usize = 4;

/// The Claude Code provider (id `claude`, priority 65).
#[derive(Debug, Clone, Copy, Default)]
pub struct ClaudeProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "claude",
    "Claude Code",
    "Claude Code: CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md up the directory tree, .claude/rules, the user's ~/.claude (Extended)",
    65,
)
.with_known_keys(KNOWN_KEYS)
.with_nested_names(&["CLAUDE.md", "CLAUDE.local.md", ".claude"])
.with_profiles(&[Profile::Extended])
.with_options(&[
    ProviderOption::new("allow_external_imports", OptionKind::Bool),
    ProviderOption::new("walk_ceiling", OptionKind::Directory),
]);

/// What the skills provider is: the same id and priority as the rules provider.
pub static SKILLS_INFO: ProviderMeta = ProviderMeta::new(
    "claude",
    "Claude Code",
    "Claude Code skills: .claude/skills from the working directory up to the project root, and ~/.claude/skills (personal first)",
    65,
)
.with_profiles(&[Profile::Extended])
.with_nested_names(&[".claude"]);

/// The tool's skills folders (behaviour.md §14): `SKILL.md` one level down in each.
pub const SKILLS: SkillFolders =
    SkillFolders::new(&SKILLS_INFO, &[".claude/skills"], &[".claude/skills"]).user_first();

impl Provider<RuleCapability> for ClaudeProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let memory = FileLoader::new(ctx, "claude", "Claude Code", FIELD_POLICY).raw(true);
        let rules = FileLoader::new(ctx, "claude", "Claude Code", FIELD_POLICY);
        let imports = ImportOptions {
            max_depth: IMPORT_DEPTH,
            boundary: ctx.project_root.clone(),
            allow_outside: ctx.option("claude", "allow_external_imports") == Some("true"),
            home: ctx.home.clone(),
            dialect: rulebook_kit::Dialect::Claude,
            max_size: ctx.mechanisms.size_cap,
        };
        // The user's file.
        if let Some(user) = ctx.in_home(".claude/CLAUDE.md") {
            let user_imports = ImportOptions {
                boundary: ctx.home.clone(),
                ..imports.clone()
            };
            load_memory(
                &memory,
                &user,
                "~:CLAUDE",
                Level::User,
                None,
                &user_imports,
                &mut out,
            );
        }
        // The chain, from the top down.
        let ceiling = ctx.option("claude", "walk_ceiling").map(PathBuf::from);
        let mut chain: Vec<&Path> = Vec::new();
        for dir in ctx.cwd.ancestors() {
            if dir.parent().is_none() {
                break; // up to, not including, `/`
            }
            chain.push(dir);
            if ceiling.as_deref() == Some(dir) {
                break;
            }
        }
        chain.reverse();
        let before = out.items.len();
        for dir in &chain {
            load_dir_memories(ctx, &memory, dir, &imports, &mut out);
        }
        // Claude's AGENTS.md fallback, when no CLAUDE.md of the chain has text: the
        // `AGENTS.md` and `.claude/AGENTS.md` of each ancestor above the project root (the
        // `agents-md` provider reads those from the root down). Found by the
        // provider-vs-golden test (`codex-git-file`, `codex-no-git`).
        if out.items[before..]
            .iter()
            .all(|r| r.content.trim().is_empty())
        {
            for dir in chain.iter().filter(|d| !d.starts_with(&ctx.project_root)) {
                for (file, stem) in [
                    ("AGENTS.md", "AGENTS"),
                    (".claude/AGENTS.md", ".claude:AGENTS"),
                ] {
                    let name = dir_scoped_name(dir, stem, &ctx.project_root, &ctx.home);
                    load_memory(
                        &memory,
                        &dir.join(file),
                        &name,
                        Level::Project,
                        Some(dir),
                        &imports,
                        &mut out,
                    );
                }
            }
        }
        // Descendants (E11).
        let mut nested: Vec<PathBuf> = ["CLAUDE.md", "CLAUDE.local.md", ".claude"]
            .iter()
            .flat_map(|n| ctx.nested_dirs(n).iter().cloned())
            .collect();
        nested.sort();
        nested.dedup();
        for dir in &nested {
            let Ok(rel) = dir.strip_prefix(&ctx.cwd) else {
                continue;
            };
            let rel = rel.to_string_lossy().replace('\\', "/");
            let first = out.items.len();
            load_dir_memories(ctx, &memory, dir, &imports, &mut out);
            for rule in &mut out.items[first..] {
                scope_to_directory(rule, &rel);
            }
        }
        // `.claude/rules`: the working directory's first, then outward; then the user's.
        for dir in chain.iter().rev() {
            load_rules(
                &rules,
                &dir.join(".claude/rules"),
                Level::Project,
                Some(dir),
                &mut out,
            );
        }
        if let Some(user) = ctx.in_home(".claude/rules") {
            load_rules(&rules, &user, Level::User, None, &mut out);
        }
        Ok(out)
    }
}

/// `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md` of one directory.
fn load_dir_memories(
    ctx: &LoadContext,
    loader: &FileLoader,
    dir: &Path,
    imports: &ImportOptions,
    out: &mut LoadResult<Rule>,
) {
    for (file, stem) in [
        ("CLAUDE.md", "CLAUDE"),
        (".claude/CLAUDE.md", ".claude:CLAUDE"),
        ("CLAUDE.local.md", "CLAUDE.local"),
    ] {
        let name = dir_scoped_name(dir, stem, &ctx.project_root, &ctx.home);
        let boundary = memory_boundary(ctx, dir);
        load_memory(
            loader,
            &dir.join(file),
            &name,
            Level::Project,
            Some(boundary),
            imports,
            out,
        );
    }
}

/// The directory a project memory file's real path must lie under (E10), as for every other
/// rule location: the project root for the files in the project, and for the ancestors
/// above it (Claude reads up to `/`), the file's own directory.
fn memory_boundary<'a>(ctx: &'a LoadContext, dir: &'a Path) -> &'a Path {
    if dir.starts_with(&ctx.project_root) {
        &ctx.project_root
    } else {
        dir
    }
}

/// One memory file: raw, HTML comments removed, imports expanded, always-apply (the kit's
/// [`FileLoader::load_memory_file`] in Claude's dialect). `boundary`: where a project file's
/// real path must lie (E10, on the opened handle).
fn load_memory(
    loader: &FileLoader,
    path: &Path,
    name: &str,
    level: Level,
    boundary: Option<&Path>,
    imports: &ImportOptions,
    out: &mut LoadResult<Rule>,
) {
    let Some(memory) = loader.load_memory_file(path, name, level, boundary, imports, out) else {
        return;
    };
    // A file that is one import (`@AGENTS.md`, as Claude's docs advise) is that file: it
    // takes the imported file's real path, so the other provider's rule of the same file
    // is shadowed by it ("same file as …") and the text is injected once.
    if let Some(imported) = memory.one_import {
        out.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::Shadowed,
                format!(
                    "{} is one import of {}: one rule, its text injected once",
                    path.display(),
                    imported.display()
                ),
            )
            .with_path(path)
            .with_related(&imported, "the file it imports, whose text is injected"),
        );
        out.items[memory.index].source.real_path = Some(imported);
    }
}

/// A `.claude/rules` directory: `paths` decides how each rule applies.
fn load_rules(
    loader: &FileLoader,
    dir: &Path,
    level: Level,
    root: Option<&Path>,
    out: &mut LoadResult<Rule>,
) {
    let first = out.items.len();
    let keep = |path: &Path| path.file_name().is_none_or(|n| n != "README.md");
    loader.load_dir_where(dir, &["md"], level, root, out, &rulebook_kit::stem, &keep);
    let holder = root.map(Path::to_path_buf);
    let mut notes = Vec::new();
    for rule in &mut out.items[first..] {
        notes.extend(apply_paths(rule, holder.as_deref()));
    }
    out.diagnostics.extend(notes);
}

/// Claude's `paths`.
fn apply_paths(rule: &mut Rule, holder: Option<&Path>) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    let warn = |rule: &Rule, message: String| {
        Diagnostic::new(DiagnosticCode::WrongType, message).with_path(&rule.path)
    };
    let patterns: Option<Vec<String>> = match rule.frontmatter.get("paths").cloned() {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            let parts = split_globs(&s);
            if parts.len() > 1 {
                notes.push(
                    Diagnostic::new(
                        DiagnosticCode::ToolsOwnForm,
                        format!(
                            "`paths` in {} is one string of several patterns (the early documented form); a YAML list is the current one",
                            rule.path.display()
                        ),
                    )
                    .with_path(&rule.path),
                );
            }
            Some(parts)
        }
        Some(Value::List(items)) => {
            let mut parts = Vec::new();
            for item in items {
                match item.as_str().map(str::trim) {
                    Some(s) if !s.is_empty() => parts.push(s.to_owned()),
                    Some(_) => {}
                    None => notes.push(warn(
                        rule,
                        format!(
                            "a `paths` element in {} is {}, not a pattern; it is dropped",
                            rule.path.display(),
                            item.type_name()
                        ),
                    )),
                }
            }
            if parts.is_empty() {
                notes.push(warn(
                    rule,
                    format!(
                        "`paths` in {} lists no pattern; the rule loads unconditionally",
                        rule.path.display()
                    ),
                ));
                None
            } else {
                Some(parts)
            }
        }
        Some(other) => {
            notes.push(warn(
                rule,
                format!(
                    "`paths` in {} is {}, not a list of patterns; Claude Code loads the rule unconditionally",
                    rule.path.display(),
                    other.type_name()
                ),
            ));
            None
        }
    };
    // Only `paths` scopes a Claude rule.
    let had_globs = rule.frontmatter.contains_key("globs");
    rule.globs = None;
    rule.description = None;
    match patterns {
        Some(globs) => {
            rule.description = Some(format!("Applies to {}", globs.join(", ")));
            rule.globs = Some(globs);
            rule.glob_dialect = GlobDialect::Cursor;
            rule.glob_root = holder.map(Path::to_path_buf);
            rule.activate(Activation::Glob);
        }
        None => {
            if had_globs {
                notes.push(warn(
                    rule,
                    format!(
                        "Claude Code ignores `globs` (in {}): the rule loads unconditionally; scope it with `paths`",
                        rule.path.display()
                    ),
                ));
            }
            rule.activate(Activation::AlwaysOn);
        }
    }
    notes
}
