//! The shared shape of a host emulation (behaviour.md §13, E12): the [`Host`]s, what a view
//! of one holds ([`HostView`], [`HostFile`], [`Status`], [`Scope`]), how it is asked
//! ([`HostOptions`]), the reading helpers every emulation uses ([`util`]), and what the views
//! of the tools that cannot be run here share ([`documented`]). A provider
//! crate holds its tool's emulation on these; `rulebook-hosts` dispatches to them and
//! guards what they show.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use rulebook_registry::{Project, SharedReads};

pub mod documented;
pub mod imports;
pub mod util;

/// What one real tool is, as a const value (the way [`ProviderMeta`](crate::ProviderMeta)
/// says what a provider is): its id, its name, the version its view reproduces, the
/// provider whose findings are its own, and where its behaviour comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolInfo {
    id: &'static str,
    name: &'static str,
    version: Option<&'static str>,
    provider: &'static str,
    source: &'static str,
    lists_imported_files: bool,
    skills_unordered: bool,
    other_folders: &'static [(&'static str, &'static str)],
}

impl ToolInfo {
    /// A tool's id on the command line (`codex`: lower case, `-` between words), its name
    /// (`Codex CLI`), the id of the union view's provider that reads its files (its
    /// findings are the ones `check --as` keeps), and the source its view follows; not
    /// verified, no other folders, and its own list of files names what its imports
    /// brought in.
    pub const fn new(
        id: &'static str,
        name: &'static str,
        provider: &'static str,
        source: &'static str,
    ) -> Self {
        Self {
            id,
            name,
            version: None,
            provider,
            source,
            lists_imported_files: true,
            skills_unordered: false,
            other_folders: &[],
        }
    }

    /// Checked against the real tool at this version (goldens recorded by the oracle).
    #[must_use]
    pub const fn verified(mut self, version: &'static str) -> Self {
        self.version = Some(version);
        self
    }

    /// The tool's own list of the files it loaded (what a golden record holds) names only
    /// those it found, not those their imports brought in (Gemini CLI, Qwen Code).
    #[must_use]
    pub const fn lists_found_files_only(mut self) -> Self {
        self.lists_imported_files = false;
        self
    }

    /// The tool lists a folder's skills in the order its file search returns them (the file
    /// system's, and the search's own timing), which no view can reproduce: a golden record
    /// of its skills is compared as a set (Gemini CLI).
    #[must_use]
    pub const fn skills_in_search_order(mut self) -> Self {
        self.skills_unordered = true;
        self
    }

    /// Whether the order of the tool's skills list is its file search's (see
    /// [`ToolInfo::skills_in_search_order`]).
    pub const fn skills_unordered(&self) -> bool {
        self.skills_unordered
    }

    /// Folders of other kinds the tool keeps in a project beside its rules and skills
    /// (commands, subagents, prompt files), each with what it holds, a phrase ending in a
    /// comma (`"Claude Code's subagents, neither rules nor skills,"`): `rulebook check` says
    /// of each that is there that rulebook does not read it.
    #[must_use]
    pub const fn with_other_folders(
        mut self,
        folders: &'static [(&'static str, &'static str)],
    ) -> Self {
        self.other_folders = folders;
        self
    }

    /// The id used on the command line (`--as codex`).
    pub const fn id(&self) -> &'static str {
        self.id
    }

    /// The tool's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The version the view reproduces, or `None` for a view that follows the tool's
    /// documentation or source.
    pub const fn version(&self) -> Option<&'static str> {
        self.version
    }

    /// The id of the provider whose findings are the tool's own.
    pub const fn provider(&self) -> &'static str {
        self.provider
    }

    /// Where the view's behaviour comes from.
    pub const fn source(&self) -> &'static str {
        self.source
    }

    /// Whether the tool's own list of its files names the files imports brought in.
    pub const fn lists_imported_files(&self) -> bool {
        self.lists_imported_files
    }

    /// The folders of other kinds it keeps beside its rules.
    pub const fn other_folders(&self) -> &'static [(&'static str, &'static str)] {
        self.other_folders
    }
}

/// One real tool: what it is ([`ToolInfo`]), its own view of a directory (what it loads,
/// in its order, cut where it cuts), and its lints. A provider crate implements it for its
/// tool and exports the [`Host`] that wraps it; the facade's table of tools lists those,
/// and nothing else names a tool.
///
/// ```
/// use rulebook_kit::host::{Host, HostOptions, HostView, Tool, ToolInfo};
///
/// /// A tool that reads nothing.
/// struct Quiet;
///
/// static QUIET_INFO: ToolInfo = ToolInfo::new("quiet", "Quiet", "quiet", "its documentation");
///
/// impl Tool for Quiet {
///     fn info(&self) -> &ToolInfo {
///         &QUIET_INFO
///     }
///     fn emulate(&self, _options: &HostOptions) -> HostView {
///         HostView::new(QUIET)
///     }
/// }
///
/// const QUIET: Host = Host::new(&Quiet);
/// assert_eq!(QUIET.id(), "quiet");
/// assert_eq!(QUIET.provenance(), "Quiet: documented, not verified");
/// ```
pub trait Tool: Send + Sync {
    /// What the tool is.
    fn info(&self) -> &ToolInfo;

    /// What the tool loads when started in `options.cwd()` by the user of
    /// `options.home()`. The guards against links out of the project are applied by the
    /// caller (`rulebook_hosts::emulate`), not here.
    fn emulate(&self, options: &HostOptions) -> HostView;

    /// Findings about `rules` (the union view's rules) that concern this tool alone: forms
    /// its earlier versions misread, say (`check --as TOOL`). None by default.
    fn lints(&self, rules: &[&rulebook_rule::Rule]) -> Vec<rulebook_rule::Diagnostic> {
        let _ = rules;
        Vec::new()
    }
}

/// One tool, as a value: a handle on its [`Tool`], cheap to copy, compared by id. Tools
/// are registered by their crates (`rulebook_provider_claude::TOOL`) and listed by the
/// facade's table (`rulebook::tools()`).
#[derive(Clone, Copy)]
pub struct Host(&'static dyn Tool);

impl Host {
    /// The handle of `tool`.
    pub const fn new(tool: &'static dyn Tool) -> Self {
        Self(tool)
    }

    /// The tool itself.
    pub fn tool(self) -> &'static dyn Tool {
        self.0
    }

    /// The id used on the command line (`--as codex`).
    pub fn id(self) -> &'static str {
        self.0.info().id()
    }

    /// The tool's name.
    pub fn display_name(self) -> &'static str {
        self.0.info().name()
    }

    /// The version the emulation reproduces: the npm release the oracle ran, or `None` for a
    /// tool that follows its documentation.
    pub fn version(self) -> Option<&'static str> {
        self.0.info().version()
    }

    /// Whether the emulation was checked against the real tool (golden files in
    /// `fixtures/hosts/`); otherwise it follows the tool's documentation.
    pub fn verified(self) -> bool {
        self.version().is_some()
    }

    /// "verified against Codex CLI 0.171.0" or "documented, not verified".
    pub fn provenance(self) -> String {
        match self.version() {
            Some(version) => format!("verified against {} {version}", self.display_name()),
            None => format!("{}: documented, not verified", self.display_name()),
        }
    }

    /// The id of the union view's provider that reads this tool's files ([`ToolInfo::provider`]).
    pub fn provider(self) -> &'static str {
        self.0.info().provider()
    }
}

impl PartialEq for Host {
    fn eq(&self, other: &Self) -> bool {
        self.id() == other.id()
    }
}

impl Eq for Host {}

/// Hosts are ordered by id (the table's own order is the order of `rulebook::tools()`).
impl PartialOrd for Host {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Host {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.id().cmp(other.id())
    }
}

impl std::hash::Hash for Host {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id().hash(state);
    }
}

impl fmt::Debug for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Host").field(&self.id()).finish()
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A host serializes as its id (`"claude"`).
impl Serialize for Host {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// Where an emulation looks: a located [`Project`] (the repository root found once for
/// every view of a run), whether outside text is shown, and the bytes of files read already
/// in this run ([`HostOptions::share_reads`]).
#[derive(Debug, Clone)]
pub struct HostOptions {
    project: Project,
    show_outside: bool,
    shared_reads: Option<std::sync::Arc<SharedReads>>,
    without_prompt: bool,
}

impl HostOptions {
    /// The tool started in `cwd`, for the user whose home is `home`.
    pub fn new(cwd: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Self {
        Self::for_project(Project::new(cwd, home))
    }

    /// The tool started in a project already located (the one discovery read, say).
    pub fn for_project(project: Project) -> Self {
        Self {
            project,
            show_outside: false,
            shared_reads: None,
            without_prompt: false,
        }
    }

    /// Makes the views without their prompts: what each tool loads, and how, without the
    /// text it would show the model (a caller that reads the files' statuses alone, as a
    /// lint does, spares joining every body: 18 MB twice over for a tool that reads
    /// 10,000 rules whole). [`HostView::prompt`] is then empty.
    #[must_use]
    pub fn without_prompt(mut self, yes: bool) -> Self {
        self.without_prompt = yes;
        self
    }

    /// Reads through `reads`: a file kept there (by the discovery of the same run, say:
    /// `Rulebook::shared_reads`) is taken from it instead of read again, and each file a
    /// view reads whole is kept there for the views after it. What a view shows is the same
    /// either way; the files must not have changed since they were kept.
    #[must_use]
    pub fn share_reads(mut self, reads: Option<std::sync::Arc<SharedReads>>) -> Self {
        self.shared_reads = reads;
        self
    }

    /// Runs `read` with this run's shared reads ([`HostOptions::share_reads`]) in force on
    /// this thread: every read of [`util`] in it goes through them. An emulation runs in
    /// it ([`Tool::emulate`] is called so by `rulebook_hosts::emulate`), and so may any
    /// later read of the same files ([`HostView::duplicates`]).
    pub fn reading<R>(&self, read: impl FnOnce() -> R) -> R {
        // The files of one folder, read one after another, are opened in it.
        rulebook_fs::holding_folders(|| {
            util::with_prompt(!self.without_prompt, || match &self.shared_reads {
                Some(shared) => util::with_shared_reads(std::sync::Arc::clone(shared), read),
                None => read(),
            })
        })
    }

    /// Shows the prompt even when a file it holds lies outside the project (a link the tool
    /// follows). Off by default: such a view reports the file and withholds the text.
    #[must_use]
    pub fn show_outside(mut self, yes: bool) -> Self {
        self.show_outside = yes;
        self
    }

    /// Whether outside text is shown (see [`HostOptions::show_outside`]).
    pub fn shows_outside(&self) -> bool {
        self.show_outside
    }

    /// The directory the tool starts in.
    pub fn cwd(&self) -> &Path {
        self.project.cwd()
    }

    /// The user's home directory.
    pub fn home(&self) -> &Path {
        self.project.home()
    }

    /// The project the tool starts in.
    pub fn project(&self) -> &Project {
        &self.project
    }

    /// The nearest ancestor of the working directory (itself included) holding `.git`.
    pub fn git_root(&self) -> Option<&Path> {
        self.project.git_root()
    }

    /// The repository root, else the working directory ([`Project::top`]).
    pub fn top(&self) -> &Path {
        self.project.top()
    }
}

/// Whether a file is the user's or the project's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Under the home directory, read for every project.
    User,
    /// Part of the project (or above it, where the tool walks past its root).
    Project,
}

/// What the tool does with one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Status {
    /// Loaded whole at start.
    Loaded,
    /// Loaded at start, cut at `truncated_at` bytes of the file.
    Cut {
        /// The byte offset of the file where the tool cuts it.
        truncated_at: usize,
    },
    /// Loaded only when the tool touches a file these globs match (relative to `base`).
    Scoped {
        /// The directory the globs are relative to.
        #[serde(serialize_with = "lossy::path")]
        base: PathBuf,
        /// The globs.
        globs: Vec<String>,
    },
    /// Offered to the model by description, or read on request; not in the prompt at start.
    OnRequest,
    /// Not read.
    NotRead,
}

impl Status {
    /// A short word for tables: `loaded`, `cut`, `scoped`, `on-request`, `not read`.
    pub fn label(&self) -> &'static str {
        match self {
            Status::Loaded => "loaded",
            Status::Cut { .. } => "cut",
            Status::Scoped { .. } => "scoped",
            Status::OnRequest => "on-request",
            Status::NotRead => "not read",
        }
    }

    /// Loaded for work anywhere under `dir` (a nested rule file's scope).
    pub fn under(dir: PathBuf) -> Status {
        Status::Scoped {
            base: dir,
            globs: vec!["**".into()],
        }
    }

    /// Loaded at start, whole or cut.
    pub fn is_loaded(&self) -> bool {
        matches!(self, Status::Loaded | Status::Cut { .. })
    }
}

/// Files one tool loads at start whose text is the same ([`HostView::duplicates`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Duplicate {
    /// The files, in the order the tool loads them.
    #[serde(serialize_with = "lossy::paths")]
    pub paths: Vec<PathBuf>,
    /// The bytes of every copy after the first: spent again.
    pub bytes_lost: u64,
}

/// One file the tool loads or could have loaded, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HostFile {
    /// The file, as the tool found it.
    #[serde(serialize_with = "lossy::path")]
    pub path: PathBuf,
    /// User or project.
    pub scope: Scope,
    /// What the tool does with it.
    #[serde(flatten)]
    pub status: Status,
    /// Why, in one sentence.
    pub reason: String,
    /// The file whose import brought this one in.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "lossy::option")]
    pub imported_by: Option<PathBuf>,
    /// The real path of a file the tool reaches through a link out of the project (see
    /// the crate's docs); `None` for a file inside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "lossy::option")]
    pub outside: Option<PathBuf>,
}

/// One skill as a tool lists it at start (behaviour.md §14).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HostSkill {
    /// Its name, as the tool lists it.
    pub name: String,
    /// Its description as listed (shortened where the tool's budget cut it).
    pub description: String,
    /// Its `SKILL.md`, as the tool names it.
    #[serde(serialize_with = "lossy::path")]
    pub path: PathBuf,
    /// Where it comes from.
    pub scope: Scope,
    /// Whether the catalog lists it, and how.
    #[serde(flatten)]
    pub status: SkillStatus,
    /// The real path of a `SKILL.md` the tool reaches through a link out of the project
    /// (its folder or the file itself a link); its name and description are then withheld
    /// unless [`HostOptions::show_outside`] asks for them. `None` for a skill inside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "lossy::option")]
    pub outside: Option<PathBuf>,
}

/// What a tool's catalog does with one skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum SkillStatus {
    /// Listed with its whole description.
    Listed,
    /// Listed, its description cut by the tool's budget.
    Shortened {
        /// The description's length as written, in characters.
        from: usize,
    },
    /// Left out of the catalog: the tool's budget had no room.
    Omitted,
}

/// What one tool loads in one directory.
#[derive(Debug, Clone, Serialize)]
pub struct HostView {
    /// The tool.
    pub host: Host,
    /// Every file the tool loads at start, in its order, then the files it considered and
    /// did not load (each with its reason).
    pub files: Vec<HostFile>,
    /// The text the tool puts in front of the model, in its wrapping, as far as it was
    /// observed (empty when nothing loads).
    pub prompt: String,
    /// Caveats of this emulation for this tree (an order the tool does not fix, ...).
    pub notes: Vec<String>,
    /// The skills the tool lists at start, in its catalog's order, then the ones its budget
    /// left out (behaviour.md §14); empty for a tool whose skills are not emulated yet.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<HostSkill>,
}

impl HostView {
    /// An empty view of `host`: an emulation fills it.
    pub fn new(host: Host) -> Self {
        Self {
            host,
            files: Vec::new(),
            prompt: String::new(),
            notes: Vec::new(),
            skills: Vec::new(),
        }
    }

    /// The files loaded at start, in the tool's order.
    pub fn loaded(&self) -> impl Iterator<Item = &HostFile> + '_ {
        self.files.iter().filter(|f| f.status.is_loaded())
    }

    /// The bytes the tool takes of a loaded file: the whole file, or up to its cut.
    pub fn bytes_taken(file: &HostFile) -> u64 {
        match file.status {
            Status::Cut { truncated_at } => truncated_at as u64,
            _ => util::length(&file.path).unwrap_or(0),
        }
    }

    /// The files loaded at start more than once: the same bytes (a copy, or the same file
    /// reached through a link), each group once, in the order first loaded; blank files
    /// are not duplicates. Files are compared by their length and the bytes a view reads
    /// of them ([`util::MAX_READ`]): at most that much of each is read, and nothing of a
    /// file whose length no other loaded file shares.
    pub fn duplicates(&self) -> Vec<Duplicate> {
        // Numbers, hashed by a fast hash (a view may load thousands of files).
        type Fast = foldhash::fast::RandomState;
        let loaded: Vec<(&HostFile, u64)> = self
            .loaded()
            .filter_map(|f| Some((f, util::length(&f.path)?)))
            .collect();
        let mut lengths: std::collections::HashMap<u64, usize, Fast> =
            std::collections::HashMap::with_capacity_and_hasher(loaded.len(), Fast::default());
        for (_, len) in &loaded {
            *lengths.entry(*len).or_default() += 1;
        }
        // By (length, hash of the bytes read): the first file, the paths of the others, the
        // bytes spent again. A group of one file, the common case, copies no path.
        let mut groups: Vec<(&HostFile, Vec<PathBuf>, u64)> = Vec::new();
        let mut by_key: std::collections::HashMap<(u64, u64), usize, Fast> =
            std::collections::HashMap::with_capacity_and_hasher(loaded.len(), Fast::default());
        for (f, len) in loaded {
            if lengths.get(&len).copied().unwrap_or(0) < 2 {
                continue;
            }
            let Some(hash) = util::content_hash(&f.path) else {
                continue;
            };
            let key = (len, hash);
            match by_key.get(&key) {
                Some(&i) => {
                    let (first, others, lost) = &mut groups[i];
                    if first.path != f.path && !others.contains(&f.path) {
                        others.push(f.path.clone());
                        *lost += Self::bytes_taken(f);
                    }
                }
                None => {
                    by_key.insert(key, groups.len());
                    groups.push((f, Vec::new(), 0));
                }
            }
        }
        groups
            .into_iter()
            .filter(|(_, others, _)| !others.is_empty())
            .map(|(first, others, bytes_lost)| Duplicate {
                paths: std::iter::once(first.path.clone()).chain(others).collect(),
                bytes_lost,
            })
            .collect()
    }

    /// The files the tool would add when it touches `path` (absolute, or relative to the
    /// tool's working directory `cwd`): scoped files whose globs match it.
    pub fn touching(&self, cwd: &Path, path: &Path) -> Vec<&HostFile> {
        let path = if path.is_absolute() {
            path.to_path_buf()
        } else {
            cwd.join(path)
        };
        self.files
            .iter()
            .filter(|f| match &f.status {
                Status::Scoped { base, globs } => util::globs_match(base, globs, &path),
                _ => false,
            })
            .collect()
    }

    /// Adds a file found at `path` (not imported, inside the project).
    pub fn push(&mut self, path: PathBuf, scope: Scope, status: Status, reason: impl Into<String>) {
        self.files.push(HostFile {
            path,
            scope,
            status,
            reason: reason.into(),
            imported_by: None,
            outside: None,
        });
    }

    /// Puts the loaded files first (stable), the others after, in the order found.
    #[must_use]
    pub fn finish(mut self) -> Self {
        let (mut loaded, rest): (Vec<_>, Vec<_>) =
            self.files.into_iter().partition(|f| f.status.is_loaded());
        loaded.extend(rest);
        self.files = loaded;
        self
    }
}

/// Paths written as JSON text, lossily where they are not UTF-8 (serde's own `Path` impl
/// fails on such a name, and a whole view would be lost to one file name).
mod lossy {
    use std::path::{Path, PathBuf};

    use serde::Serializer;

    pub(super) fn path<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&path.to_string_lossy())
    }

    #[allow(
        clippy::ref_option,
        reason = "the signature serde's `serialize_with` calls"
    )]
    pub(super) fn option<S: Serializer>(path: &Option<PathBuf>, s: S) -> Result<S::Ok, S::Error> {
        match path {
            Some(path) => s.serialize_some(&path.to_string_lossy()),
            None => s.serialize_none(),
        }
    }

    pub(super) fn paths<S: Serializer>(paths: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(paths.iter().map(|p| p.to_string_lossy()))
    }
}
