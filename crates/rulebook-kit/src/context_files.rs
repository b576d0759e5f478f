//! A tool's named context files: one file a directory that the tool puts in front of the
//! model whole, with no frontmatter (`WARP.md`, `QWEN.md`, `CRUSH.md`, `.goosehints`,
//! `.junie/guidelines.md`, `.idx/airules.md`, `AGENT.md`). Each provider of such a tool
//! describes where its files are with a [`ContextFiles`] and loads them with
//! [`ContextFiles::load`]; what differs between the tools (which directories, which
//! names, imports or not) is data.
//!
//! ```
//! use rulebook_kit::context_files::{Chain, ContextFiles};
//! use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
//! use rulebook_kit::{FileLoader, LoadContext, LoadResult};
//!
//! const POLICY: FieldPolicy = FieldPolicy::new(
//!     DescriptionPolicy::StringOnly,
//!     AlwaysApplyPolicy::Boolean,
//!     GlobsPolicy::StringsOnly,
//! );
//! const WARP: ContextFiles = ContextFiles::new(&["WARP.md"], Chain::RootToCwd);
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("WARP.md"), "Use cargo.\n")?;
//! let ctx = LoadContext::new(dir.path(), "");
//! let loader = FileLoader::new(&ctx, "warp", "Warp", POLICY).raw(true);
//! let mut out = LoadResult::default();
//! WARP.load(&loader, &ctx, &mut out);
//! assert_eq!(out.items[0].name, "WARP");
//! assert_eq!(out.items[0].always_apply, Some(true));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

use std::path::{Path, PathBuf};

use crate::{
    Activation, Dialect, FileLoader, ImportOptions, Level, LoadContext, LoadResult, Rule,
    dir_scoped_name, scope_to_directory,
};

/// Which project directories a tool reads its file in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chain {
    /// The working directory alone (Crush).
    Cwd,
    /// The project root alone (Junie, Firebase Studio).
    Root,
    /// Every directory from the project root down to the working directory, root first
    /// (Warp, Qwen Code, Goose).
    RootToCwd,
}

/// Where a tool keeps its context files, as data (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct ContextFiles {
    /// The file names (or paths inside a directory: `.junie/guidelines.md`), in the
    /// tool's order.
    pub names: &'static [&'static str],
    /// The project directories read.
    pub chain: Chain,
    /// Files of the user's, relative to the home (`.config/goose/.goosehints`), read
    /// before the project's.
    pub user: &'static [&'static str],
    /// Whether the files of the directories below the working directory are read, each
    /// scoped to its directory (E11): the provider must declare the names as its nested
    /// names ([`crate::ProviderMeta::with_nested_names`]).
    pub nested: bool,
    /// Whether a name matches without regard to ASCII case (Warp's `eq_ignore_ascii_case`).
    pub any_case: bool,
    /// `@path` imports: the dialect that recognizes them and the tool's depth.
    pub imports: Option<(Dialect, usize)>,
}

impl ContextFiles {
    /// `names` in the directories of `chain`; no user file, nothing nested, exact case,
    /// no imports.
    pub const fn new(names: &'static [&'static str], chain: Chain) -> Self {
        Self {
            names,
            chain,
            user: &[],
            nested: false,
            any_case: false,
            imports: None,
        }
    }

    /// With the user's files (paths relative to the home).
    #[must_use]
    pub const fn with_user(mut self, user: &'static [&'static str]) -> Self {
        self.user = user;
        self
    }

    /// With the files below the working directory, scoped to their directories.
    #[must_use]
    pub const fn with_nested(mut self) -> Self {
        self.nested = true;
        self
    }

    /// With names matched in any ASCII case.
    #[must_use]
    pub const fn any_case(mut self) -> Self {
        self.any_case = true;
        self
    }

    /// With `@path` imports in `dialect`, `depth` levels deep, confined to the project.
    #[must_use]
    pub const fn with_imports(mut self, dialect: Dialect, depth: usize) -> Self {
        self.imports = Some((dialect, depth));
        self
    }

    /// The project directories of [`ContextFiles::chain`], in the tool's order.
    pub fn dirs(&self, ctx: &LoadContext) -> Vec<PathBuf> {
        match self.chain {
            Chain::Cwd => vec![ctx.cwd.clone()],
            Chain::Root => vec![ctx.project_root.clone()],
            Chain::RootToCwd => {
                let mut chain: Vec<PathBuf> = ctx
                    .cwd
                    .ancestors()
                    .take_while(|d| d.starts_with(&ctx.project_root))
                    .map(Path::to_path_buf)
                    .collect();
                chain.reverse();
                chain
            }
        }
    }

    /// The path of `name` in `dir`: `dir/name` when it is there, or, in any case, the
    /// entry of `dir` whose name equals it without regard to ASCII case.
    pub fn find(&self, dir: &Path, name: &str) -> Option<PathBuf> {
        let exact = dir.join(name);
        if std::fs::symlink_metadata(&exact).is_ok() {
            return Some(exact);
        }
        if !self.any_case || name.contains('/') {
            return None;
        }
        self.spellings(dir, name).into_iter().next()
    }

    /// Every entry of `dir` named `name` in any ASCII case (`WARP.md`, `warp.md`,
    /// `Warp.md`): the exact spelling first, then the others in byte order. One listing of
    /// the directory; empty when it cannot be read.
    pub fn spellings(&self, dir: &Path, name: &str) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(name))
                    .map(|e| e.path())
                    .collect()
            })
            .unwrap_or_default();
        found.sort_by_key(|p| (!p.ends_with(name), p.clone()));
        found
    }

    /// Loads the user's files, then the project's (each always-apply, raw text trimmed; a
    /// blank file loads nothing), then, when [`ContextFiles::nested`], the ones below the
    /// working directory scoped to their directories. Names: `~:<stem>` for the user's,
    /// `<dir key>:<stem>` for the project's (`WARP` at the root, `apps:web:WARP`), where
    /// the stem is the file name without its extension and leading dot (`goosehints`).
    pub fn load(&self, loader: &FileLoader, ctx: &LoadContext, out: &mut LoadResult<Rule>) {
        let root = ctx.project_root.clone();
        for rel in self.user {
            if let Some(path) = ctx.in_home(rel) {
                let name = format!("~:{}", stem_of(rel));
                let dir = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
                self.one(loader, ctx, &path, &name, Level::User, &dir, out);
            }
        }
        for dir in self.dirs(ctx) {
            for name in self.names {
                let Some(path) = self.find(&dir, name) else {
                    continue;
                };
                let rule_name = dir_scoped_name(&dir, &stem_of(name), &root, &ctx.home);
                self.one(loader, ctx, &path, &rule_name, Level::Project, &dir, out);
            }
        }
        if !self.nested {
            return;
        }
        for name in self.names {
            for dir in ctx.nested_dirs(name) {
                let Ok(rel) = dir.strip_prefix(&ctx.cwd) else {
                    continue;
                };
                let rel = rel.to_string_lossy().replace('\\', "/");
                let rule_name = dir_scoped_name(dir, &stem_of(name), &root, &ctx.home);
                let first = out.items.len();
                self.one(
                    loader,
                    ctx,
                    &dir.join(name),
                    &rule_name,
                    Level::Project,
                    dir,
                    out,
                );
                for rule in &mut out.items[first..] {
                    scope_to_directory(rule, &rel);
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments, reason = "one file's place, passed whole")]
    fn one(
        &self,
        loader: &FileLoader,
        ctx: &LoadContext,
        path: &Path,
        name: &str,
        level: Level,
        dir: &Path,
        out: &mut LoadResult<Rule>,
    ) {
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return;
        }
        let boundary = (level == Level::Project).then_some(ctx.project_root.as_path());
        let index = match self.imports {
            Some((dialect, max_depth)) => {
                let confine = match level {
                    Level::Project => ctx.project_root.clone(),
                    Level::User => dir.to_path_buf(),
                };
                let options = ImportOptions {
                    max_depth,
                    boundary: std::fs::canonicalize(&confine).unwrap_or(confine),
                    allow_outside: false,
                    home: ctx.home.clone(),
                    dialect,
                    max_size: ctx.mechanisms.size_cap,
                };
                match loader.load_memory_file(path, name, level, boundary, &options, out) {
                    Some(memory) => memory.index,
                    None => return,
                }
            }
            None => match loader.load_file(path, name, level, boundary, out) {
                Some(index) => index,
                None => return,
            },
        };
        always_whole(out, index);
    }
}

/// The rule just loaded at `index` as a context file is read: its whole text trimmed,
/// always-apply; a blank one is dropped (it was the last item).
pub fn always_whole(out: &mut LoadResult<Rule>, index: usize) {
    let rule = &mut out.items[index];
    let trimmed = rule.content.trim();
    if trimmed.is_empty() {
        out.items.truncate(index);
        return;
    }
    if trimmed.len() != rule.content.len() {
        rule.content = trimmed.into();
    }
    rule.activate(Activation::AlwaysOn);
}

/// The kind of agent a provider reads for, by its option `agent_kind`: `coding-agent` (the
/// default) or `code-review`.
pub const AGENT_KINDS: &[&str] = &["coding-agent", "code-review"];

/// Loads a file only a pull-request review agent reads (Cursor's Bugbot reads
/// `.cursor/BUGBOT.md`, Gemini Code Assist on GitHub `.gemini/styleguide.md`), at the
/// project root, as the rule `name`, raw text trimmed: always-apply when the provider's
/// option `agent_kind` is `code-review`, else turned off with a reason that says who reads
/// it and how to see it as they do (as Copilot's `excludeAgent`).
pub fn load_review_file(
    loader: &FileLoader,
    ctx: &LoadContext,
    rel: &str,
    name: &str,
    reviewer: &str,
    out: &mut LoadResult<Rule>,
) {
    let root = &ctx.project_root;
    let Some(index) = loader.load_file(&root.join(rel), name, Level::Project, Some(root), out)
    else {
        return;
    };
    let provider = loader.provider_name().to_owned();
    let rule = &mut out.items[index];
    rule.content = rule.content.trim().into();
    let id = rule.source.provider.clone();
    if ctx.option(&id, "agent_kind") == Some("code-review") {
        rule.activate(Activation::AlwaysOn);
    } else {
        rule.turn_off(format!(
            "{rel} is read by {reviewer}, a pull-request review agent, not by {provider}'s coding agent; `--option {id}.agent_kind=code-review` shows it as the reviewer reads it"
        ));
    }
}

/// `WARP.md` → `WARP`, `.goosehints` → `goosehints`, `.junie/guidelines.md` →
/// `guidelines`.
pub fn stem_of(name: &str) -> String {
    let file = name.rsplit('/').next().unwrap_or(name);
    let file = file.strip_prefix('.').unwrap_or(file);
    match file.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_owned(),
        _ => file.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::stem_of;

    #[test]
    fn stems_drop_the_extension_and_a_leading_dot() {
        assert_eq!(stem_of("WARP.md"), "WARP");
        assert_eq!(stem_of(".goosehints"), "goosehints");
        assert_eq!(stem_of(".junie/guidelines.md"), "guidelines");
        assert_eq!(stem_of("CRUSH.local.md"), "CRUSH.local");
    }
}
