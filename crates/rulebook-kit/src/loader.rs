//! The glue every provider shares: walk, read, build.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::PoisonError;

use rulebook_fs::{ReadOptions, RuleReader, walk_rules_dir};
use rulebook_registry::{FileLoad, LoadContext, LoadResult, Mechanisms, ReadMemo};
use rulebook_rule::{Activation, Diagnostic, DiagnosticCode, Level, Rule, SourceMeta};

use crate::coerce::FieldPolicy;
use crate::{Dialect, FileText, ImportOptions, Owned, build, expand_imports};

/// Loads rule files for one provider.
#[derive(Debug, Clone)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "a builder's switches, each independent of the others"
)]
pub struct FileLoader {
    provider: String,
    provider_name: String,
    policy: FieldPolicy,
    mechanisms: Mechanisms,
    raw: bool,
    fold_kebab_keys: bool,
    content_blind: bool,
    memo: Option<ReadMemo>,
    only: Option<std::sync::Arc<std::collections::BTreeSet<PathBuf>>>,
    shared_reads: Option<std::sync::Arc<rulebook_registry::SharedReads>>,
    one_thread: bool,
}

/// A hash of `parts`: the key a load is remembered by ([`ReadMemo`]).
fn fingerprint(parts: impl std::hash::Hash) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(parts)
}

impl FileLoader {
    /// A loader for the provider `provider` (its id) shown as `provider_name`, coercing
    /// fields with `policy`, for the run `ctx` describes: its mechanisms decide the recovery
    /// of broken YAML (E4), the size cap (E9), the project boundary (E10) and whether real
    /// paths are resolved, so no provider can forget them.
    pub fn new(
        ctx: &LoadContext,
        provider: impl Into<String>,
        provider_name: impl Into<String>,
        policy: FieldPolicy,
    ) -> Self {
        Self {
            provider: provider.into(),
            provider_name: provider_name.into(),
            policy,
            mechanisms: ctx.mechanisms,
            raw: false,
            fold_kebab_keys: false,
            content_blind: false,
            memo: ctx.memo.clone(),
            only: ctx.only.clone(),
            shared_reads: ctx.shared_reads.clone(),
            one_thread: ctx.one_thread,
        }
    }

    /// Says that the provider never looks at the text of a rule this loader loaded once it
    /// is loaded: it neither drops, cuts, rewrites nor places a rule by what its text or
    /// another file's says. A file whose text alone then changed (its frontmatter and
    /// findings the same) gives the same rule with the new text, and a server updates that
    /// rule in place ([`ReadMemo::reload`]) instead of discovering again. Off by default.
    #[must_use]
    pub fn content_blind(mut self, yes: bool) -> Self {
        self.content_blind = yes;
        self
    }

    /// With a memo and a content-blind provider, records how this loader loads a file of
    /// `level` under `project_root` again (once for its key).
    fn record_reload(&self, key: u64, level: Level, project_root: Option<&Path>) {
        let Some(memo) = self.memo.as_ref().filter(|_| self.content_blind) else {
            return;
        };
        memo.record_reload(key, || {
            let loader = Self {
                memo: None,
                shared_reads: None,
                ..self.clone()
            };
            let options = self.read_options(level, project_root);
            std::sync::Arc::new(move |path: &Path, name: &str| {
                let mut out = LoadResult::default();
                loader.read_one(
                    &mut RuleReader::new(),
                    path.to_path_buf(),
                    name.to_owned(),
                    level,
                    &options,
                    &mut out,
                );
                FileLoad::new(name.to_owned(), out.items.last(), out.diagnostics)
            })
        });
    }

    /// With a memo, the key loads of files at `level` under `project_root` are recorded by
    /// ([`FileLoader::load_key`]), their way to load again recorded too; else 0 (no cost).
    pub(crate) fn memo_key(&self, level: Level, project_root: Option<&Path>) -> u64 {
        if self.memo.is_none() {
            return 0;
        }
        let key = self.load_key(level, project_root);
        self.record_reload(key, level, project_root);
        key
    }

    /// The key of a load of a file at `level` under `project_root`: everything but the
    /// file's path, name and content that decides what loading it gives.
    fn load_key(&self, level: Level, project_root: Option<&Path>) -> u64 {
        fingerprint((
            &self.provider,
            &self.provider_name,
            format!("{:?} {:?}", self.policy, self.mechanisms),
            self.raw,
            self.fold_kebab_keys,
            self.content_blind,
            level,
            project_root,
        ))
    }

    /// Folds kebab-case keys to camelCase before the fields are read (`always-apply` →
    /// `alwaysApply`, `ttsr-trigger` → `ttsrTrigger`), as the original's `agents` provider
    /// does; a key written both ways keeps the camelCase one.
    #[must_use]
    pub fn fold_kebab_keys(mut self, yes: bool) -> Self {
        self.fold_kebab_keys = yes;
        self
    }

    /// Reads files as raw bodies: no frontmatter is parsed, the whole text is the content
    /// (AGENTS.md, CLAUDE.md, GEMINI.md, `.rules`: a leading `---` block is content for
    /// the tools that read them).
    #[must_use]
    pub fn raw(mut self, yes: bool) -> Self {
        self.raw = yes;
        self
    }

    /// Overrides the size cap (Extended E9); `None` reads files of any size.
    #[must_use]
    pub fn max_size(mut self, bytes: Option<u64>) -> Self {
        self.mechanisms.size_cap = bytes;
        self
    }

    /// The display name of the provider it loads for.
    pub fn provider_name(&self) -> &str {
        &self.provider_name
    }

    /// The mechanisms rules are loaded with.
    pub fn mechanisms(&self) -> &Mechanisms {
        &self.mechanisms
    }

    pub(crate) fn read_options(&self, level: Level, project_root: Option<&Path>) -> ReadOptions {
        ReadPolicy::Union(self.mechanisms).options(level, project_root)
    }

    /// Loads every rule file under `dir` with one of `extensions`; the name of each rule is
    /// its file name without the extension. `project_root` is the boundary of Extended E10
    /// for project-level sources.
    pub fn load_dir(
        &self,
        dir: &Path,
        extensions: &[&str],
        level: Level,
        project_root: Option<&Path>,
        out: &mut LoadResult<Rule>,
    ) {
        self.load_dir_named(dir, extensions, level, project_root, out, &stem);
    }

    /// As [`FileLoader::load_dir`], with the provider naming each rule: `name` gets the
    /// file's path (a provider of per-directory files names them `<dir key>:<stem>`, see
    /// [`crate::dir_key`], so `frontend/style.md` and `backend/style.md` do not shadow
    /// each other).
    pub fn load_dir_named(
        &self,
        dir: &Path,
        extensions: &[&str],
        level: Level,
        project_root: Option<&Path>,
        out: &mut LoadResult<Rule>,
        name: &dyn Fn(&Path) -> String,
    ) {
        self.load_dir_where(dir, extensions, level, project_root, out, name, &|_| true);
    }

    /// As [`FileLoader::load_dir_named`], reading only the files `keep` accepts (Cline
    /// leaves `workflows/`, `hooks/` and `skills/` out of its rules).
    #[allow(
        clippy::too_many_arguments,
        reason = "the loader's arguments plus two hooks"
    )]
    pub fn load_dir_where(
        &self,
        dir: &Path,
        extensions: &[&str],
        level: Level,
        project_root: Option<&Path>,
        out: &mut LoadResult<Rule>,
        name: &dyn Fn(&Path) -> String,
        keep: &dyn Fn(&Path) -> bool,
    ) {
        let checked = self.read_options(level, project_root);
        // A root that is itself outside (`.clinerules -> /`) is refused before it is walked;
        // each file is checked again when it is opened (see `read_rule_file`), since a walk
        // result can be stale by the time a file is read.
        if let Some(boundary) = checked.boundary() {
            if let Ok(real) = std::fs::canonicalize(dir) {
                if !real.starts_with(boundary) {
                    out.diagnostics.push(
                        Diagnostic::new(
                            DiagnosticCode::OutsideProject,
                            format!(
                                "Refused the rules directory {}: its real path {} is outside the project directory {}",
                                dir.display(),
                                real.display(),
                                boundary.display()
                            ),
                        )
                        .with_path(dir),
                    );
                    return;
                }
            }
        }
        let walked = match &self.only {
            // Loading only some files: those of them the walk of `dir` would list, found
            // by the same walk led straight to them.
            Some(only) => rulebook_fs::walk_rules_dir_only(dir, extensions, only),
            None => walk_rules_dir(dir, extensions),
        };
        out.diagnostics.extend(walked.diagnostics);
        out.items.reserve(walked.files.len());
        let key = self.memo_key(level, project_root);
        // Each path moved into its rule, not copied.
        let files: Vec<(PathBuf, String)> = walked
            .files
            .into_iter()
            .filter(|p| keep(p))
            .map(|p| {
                let name = name(&p);
                (p, name)
            })
            .collect();
        self.load_files(files, level, &checked, key, out);
    }

    /// The fewest files of one folder read on more than one thread: below, a thread costs
    /// more than it saves.
    const PARALLEL_FROM: usize = 512;

    /// The files of one batch of a folder read on several threads.
    const BATCH: usize = 64;

    /// Loads `files` (each with its name) in their order. A folder of many files is read a
    /// batch at a time, and while one of the machine's cores is idle
    /// ([`rulebook_registry::cores::idle`]: the other providers are loaded already) a
    /// helper thread takes batches too, up to one a core; each batch's rules and findings
    /// are put back in the files' order as soon as the batches before it are, so the result
    /// is the same as one thread's, and no more is held. A context of one thread
    /// ([`LoadContext::one_thread`]) takes no helper. Says how many helpers it took.
    fn load_files(
        &self,
        files: Vec<(PathBuf, String)>,
        level: Level,
        options: &ReadOptions,
        key: u64,
        out: &mut LoadResult<Rule>,
    ) -> usize {
        use std::sync::Mutex;
        use std::sync::atomic::{AtomicUsize, Ordering};
        if self.one_thread || files.len() < Self::PARALLEL_FROM {
            let mut reader = RuleReader::new();
            for (path, name) in files {
                self.load_one(&mut reader, path, name, level, options, key, out);
            }
            return 0;
        }
        let mut batches: Vec<Mutex<Vec<(PathBuf, String)>>> = Vec::new();
        let mut files = files.into_iter();
        loop {
            let batch: Vec<_> = files.by_ref().take(Self::BATCH).collect();
            if batch.is_empty() {
                break;
            }
            batches.push(Mutex::new(batch));
        }
        let done: Vec<Mutex<Option<LoadResult<Rule>>>> =
            batches.iter().map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        // Loads the next batch; false when none is left.
        let load_batch = |reader: &mut RuleReader| {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(batch) = batches.get(i) else {
                return false;
            };
            let batch = std::mem::take(&mut *batch.lock().unwrap_or_else(PoisonError::into_inner));
            let mut part = LoadResult::default();
            part.items.reserve(batch.len());
            for (path, name) in batch {
                self.load_one(reader, path, name, level, options, key, &mut part);
            }
            *done[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(part);
            true
        };
        // Moves the batches loaded, in order, into `out`: a batch waits only for the ones
        // before it (the rules are never held twice over).
        let mut appended = 0;
        let mut append_done = |out: &mut LoadResult<Rule>| {
            while let Some(slot) = done.get(appended) {
                let Some(part) = slot.lock().unwrap_or_else(PoisonError::into_inner).take() else {
                    break;
                };
                out.items.extend(part.items);
                out.diagnostics.extend(part.diagnostics);
                appended += 1;
            }
        };
        let most_helpers = std::thread::available_parallelism().map_or(0, |n| n.get() - 1);
        let mut helpers = 0;
        std::thread::scope(|scope| {
            let mut reader = RuleReader::new();
            loop {
                if helpers < most_helpers && rulebook_registry::cores::idle() {
                    helpers += 1;
                    scope.spawn(|| {
                        let _busy = rulebook_registry::cores::Busy::enter();
                        let mut reader = RuleReader::new();
                        while load_batch(&mut reader) {}
                    });
                }
                if !load_batch(&mut reader) {
                    break;
                }
                append_done(out);
            }
        });
        append_done(out);
        helpers
    }

    /// Loads the rule files directly in `dir` (not in its subdirectories), named by file
    /// name without the extension (Kiro's steering, Trae's and JetBrains AI Assistant's
    /// rules are flat folders).
    pub fn load_top_level(
        &self,
        dir: &Path,
        extensions: &[&str],
        level: Level,
        project_root: Option<&Path>,
        out: &mut LoadResult<Rule>,
    ) {
        let top = |path: &Path| path.parent() == Some(dir);
        self.load_dir_where(dir, extensions, level, project_root, out, &stem, &top);
    }

    /// Loads the project rules of `rel_dir` (`.cursor/rules`) in every project directory
    /// ([`crate::project_dirs`], E11), nearest first: the working directory, its ancestors
    /// up to the project root (their rules' globs relative to them), the directories below
    /// it (their rules named `<dir key>:<stem>`). Returns the descendants' rules (index in
    /// `out.items`, directory relative to the working directory), for the provider to scope
    /// with [`crate::scope_to_directory`] once it has read them fully.
    pub fn load_project_dirs(
        &self,
        ctx: &LoadContext,
        rel_dir: &Path,
        extensions: &[&str],
        out: &mut LoadResult<Rule>,
    ) -> Vec<(usize, String)> {
        let marker = rel_dir
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .unwrap_or_default();
        let boundary = if ctx.mechanisms.project_chain {
            ctx.project_root.clone()
        } else {
            ctx.cwd.clone()
        };
        let mut descendants = Vec::new();
        for project in crate::project_dirs(ctx, &marker) {
            let dir = project.dir.join(rel_dir);
            let first = out.items.len();
            match &project.place {
                crate::Place::Cwd | crate::Place::Ancestor => {
                    self.load_dir(&dir, extensions, Level::Project, Some(&boundary), out);
                }
                crate::Place::Descendant(_) => {
                    let namer = |path: &Path| {
                        crate::dir_scoped_name(
                            &project.dir,
                            &stem(path),
                            &ctx.project_root,
                            &ctx.home,
                        )
                    };
                    self.load_dir_named(
                        &dir,
                        extensions,
                        Level::Project,
                        Some(&boundary),
                        out,
                        &namer,
                    );
                }
            }
            for i in first..out.items.len() {
                match &project.place {
                    crate::Place::Cwd => {}
                    crate::Place::Ancestor => out.items[i].glob_root = Some(project.dir.clone()),
                    crate::Place::Descendant(rel) => descendants.push((i, rel.clone())),
                }
            }
        }
        descendants
    }

    /// Loads one file as the rule `name` (a missing file is not an error: nothing loads).
    pub fn load_file(
        &self,
        path: &Path,
        name: &str,
        level: Level,
        project_root: Option<&Path>,
        out: &mut LoadResult<Rule>,
    ) -> Option<usize> {
        if let Some(only) = &self.only {
            if !only.contains(path) {
                return None;
            }
            // Loaded by name, not found by a walk: said to whoever asked for it.
            if let Some(memo) = &self.memo {
                memo.record_probe(path);
            }
        }
        match std::fs::symlink_metadata(path) {
            Ok(_) => {}
            // Only "not found" is silent; a permission or I/O error is not an absence.
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return None,
            Err(err) => {
                out.diagnostics.push(
                    Diagnostic::new(
                        DiagnosticCode::ReadFailed,
                        format!("Failed to read file: {} ({err})", path.display()),
                    )
                    .with_path(path),
                );
                return None;
            }
        }
        let options = self.read_options(level, project_root);
        let key = self.memo_key(level, project_root);
        self.load_one(
            &mut RuleReader::new(),
            path.to_path_buf(),
            name.to_owned(),
            level,
            &options,
            key,
            out,
        )
    }

    /// Loads one memory file (`CLAUDE.md`, `GEMINI.md`): always-apply, its `@imports`
    /// expanded in `imports.dialect` (Claude Code's reading first hides closed HTML comments
    /// and folds line ends, [`normalize_text`](rulebook_frontmatter::normalize_text)), the
    /// imports' failures as diagnostics. A directory of the same name is passed over
    /// silently, as both tools do; a link out of the project is refused by the read (E10).
    /// A file whose text is empty once expanded loads nothing.
    pub fn load_memory_file(
        &self,
        path: &Path,
        name: &str,
        level: Level,
        project_root: Option<&Path>,
        imports: &ImportOptions,
        out: &mut LoadResult<Rule>,
    ) -> Option<MemoryFile> {
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return None;
        }
        let index = self.load_file(path, name, level, project_root, out)?;
        let content = &out.items[index].content;
        let text = match imports.dialect {
            Dialect::Claude => Cow::Owned(rulebook_frontmatter::normalize_text(content)),
            Dialect::Gemini => Cow::Borrowed(&**content),
        };
        let expanded = expand_imports(&text, path, imports);
        // The whole file is one `@import` that resolved (`@AGENTS.md`).
        let whole = text.trim();
        let one_import = (whole.starts_with('@')
            && !whole.contains(char::is_whitespace)
            && expanded.includes.len() == 1)
            .then(|| expanded.includes[0].clone());
        out.diagnostics.extend(expanded.diagnostics);
        let rule = &mut out.items[index];
        rule.content = expanded.text.into();
        rule.includes = expanded.includes;
        rule.activate(Activation::AlwaysOn);
        if rule.content.trim().is_empty() {
            out.items.truncate(index);
            return None;
        }
        Some(MemoryFile { index, one_import })
    }

    /// Loads the file at `path` as the rule `name`; with a memo, records the load (`key`:
    /// [`FileLoader::load_key`]).
    #[allow(
        clippy::too_many_arguments,
        reason = "one file's load, and the key it is remembered by"
    )]
    pub(crate) fn load_one(
        &self,
        reader: &mut RuleReader,
        path: PathBuf,
        name: String,
        level: Level,
        options: &ReadOptions,
        key: u64,
        out: &mut LoadResult<Rule>,
    ) -> Option<usize> {
        let Some(memo) = &self.memo else {
            return self.read_one(reader, path, name, level, options, out);
        };
        let (items, diagnostics) = (out.items.len(), out.diagnostics.len());
        let index = self.read_one(reader, path.clone(), name.clone(), level, options, out);
        memo.record_file(
            &path,
            key,
            FileLoad::new(
                name,
                out.items.get(items),
                out.diagnostics[diagnostics..].to_vec(),
            ),
        );
        index
    }

    fn read_one(
        &self,
        reader: &mut RuleReader,
        path: PathBuf,
        name: String,
        level: Level,
        options: &ReadOptions,
        out: &mut LoadResult<Rule>,
    ) -> Option<usize> {
        let (read, diagnostics) = reader.read(&path, options);
        out.diagnostics.extend(diagnostics);
        let read = read?;
        if let Some(shared) = &self.shared_reads {
            shared.keep(&path, read.bytes);
        }
        let mut source = SourceMeta::new(
            self.provider.clone(),
            self.provider_name.clone(),
            level,
            path.clone(),
        );
        source.real_path = read.real_path;
        if self.raw {
            // Not a frontmatter file: the text is the content, as its tool sends it.
            out.items.push(Rule::new(name, path, read.text, source));
            return Some(out.items.len() - 1);
        }
        let file = FileText {
            text: &read.text,
            policy: self.policy,
            fold_kebab_keys: self.fold_kebab_keys,
        };
        let (rule, diagnostics) = build(&file, Owned { name, path, source }, &self.mechanisms);
        out.diagnostics.extend(diagnostics);
        out.items.push(rule);
        Some(out.items.len() - 1)
    }
}

/// How a view reads a file: what tells rulebook's union view (the rules agents get) from a
/// tool's own view (`--as`, the host emulations). The two views read the same files; they
/// differ in what they refuse at read time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadPolicy {
    /// The union view ([`FileLoader`]): rulebook's guards at read time, as the profile's
    /// mechanisms set them: a file over the size cap is refused (E9), a project file whose
    /// real path leaves the project is refused on the opened handle (E10), the real path is
    /// resolved for same-file dedup, and a read error says the system's reason.
    Union(Mechanisms),
    /// A tool's own view ([`crate::host`]): the file as the tool reads it, whole, refused
    /// for nothing; only a bound against a huge file ([`crate::host::util::MAX_READ`]
    /// bytes are read). The guards of `rulebook_hosts::emulate` then report, in the view,
    /// the files reached through links out of the project and those over the bound.
    Tool,
}

impl ReadPolicy {
    /// The options a file at `level` is read with (`project_root`: the boundary of a
    /// project file under [`ReadPolicy::Union`]).
    ///
    /// ```
    /// use rulebook_kit::{Level, Mechanisms, Profile, ReadPolicy};
    ///
    /// let union = ReadPolicy::Union(Mechanisms::for_profile(Profile::Extended));
    /// let options = union.options(Level::Project, Some(std::path::Path::new("/p")));
    /// assert_eq!(options.boundary(), Some(std::path::Path::new("/p")));
    /// assert_eq!(ReadPolicy::Tool.options(Level::Project, Some(std::path::Path::new("/p"))).boundary(), None);
    /// ```
    pub fn options(&self, level: Level, project_root: Option<&Path>) -> ReadOptions {
        match self {
            Self::Union(m) => ReadOptions::new()
                .max_size(m.size_cap)
                .detailed_errors(m.detailed_read_errors)
                .real_path(m.same_file_dedup)
                .project_root(
                    (m.project_boundary && level == Level::Project)
                        .then(|| project_root.map(Path::to_path_buf))
                        .flatten(),
                ),
            Self::Tool => ReadOptions::new().detailed_errors(true),
        }
    }

    /// The bytes of a regular file as this view reads them: under [`ReadPolicy::Tool`],
    /// whole up to [`crate::host::util::MAX_READ`] (a larger file is cut there, and the view
    /// says so); under [`ReadPolicy::Union`], whole within the size cap (a larger file is
    /// an error). `None`: missing, not a regular file, unreadable or refused.
    pub fn read_bytes(&self, path: &Path) -> Option<Vec<u8>> {
        match self {
            Self::Tool => rulebook_fs::read_prefix(path, crate::host::util::MAX_READ).ok(),
            Self::Union(m) => rulebook_fs::read_bytes(path, m.size_cap).ok(),
        }
    }
}

/// A memory file [`FileLoader::load_memory_file`] loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemoryFile {
    /// The rule's index in the [`LoadResult`]'s items.
    pub index: usize,
    /// The file imported, when the whole file is one `@import` of it.
    pub one_import: Option<PathBuf>,
}

/// A file's name without its extension: the default rule name (behaviour.md §4).
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A context of one thread reads a folder of many files on no helper (a server keeps
    /// its snapshots in one malloc arena so), and gives what the helpers give.
    #[test]
    fn a_context_of_one_thread_reads_on_no_helper() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let files: Vec<(PathBuf, String)> = (0..FileLoader::PARALLEL_FROM + 100)
            .map(|i| {
                let path = root.join(format!("r{i:04}.md"));
                std::fs::write(&path, format!("---\ndescription: R{i}\n---\nBody {i}\n")).unwrap();
                (path, format!("r{i:04}"))
            })
            .collect();
        let load = |ctx: &LoadContext| {
            use crate::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
            let policy = FieldPolicy::new(
                DescriptionPolicy::StringOnly,
                AlwaysApplyPolicy::OnlyTrue,
                GlobsPolicy::StringsOnly,
            );
            let loader = FileLoader::new(ctx, "p", "P", policy);
            let options = loader.read_options(Level::Project, Some(&root));
            let mut out = LoadResult::default();
            let helpers = loader.load_files(files.clone(), Level::Project, &options, 0, &mut out);
            (helpers, out)
        };
        let ctx = LoadContext::new(&root, root.join("home"));
        let (alone, one) = load(&ctx.clone().one_thread(true));
        assert_eq!(alone, 0);
        let (helpers, many) = load(&ctx);
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        assert!(helpers < cores, "{helpers} helpers on {cores} cores");
        assert_eq!(many.items, one.items);
        assert_eq!(one.items.len(), files.len());
    }
}
