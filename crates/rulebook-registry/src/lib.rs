//! A registry of providers for one capability (behaviour.md §6).
//!
//! Rules are one [`Capability`]; other tools register others (skills, commands, …) with the
//! same machinery. A [`Registry`] is a value, not global state: build one, register
//! [`Provider`]s, and [`Registry::load`] them for a [`LoadContext`].
//!
//! Loading:
//! 1. Enabled providers are ordered by priority, highest first; ties keep registration
//!    order (cursor before windsurf).
//! 2. Each is loaded (on its own thread when more than one is enabled and
//!    [`Registry::parallel`] is on); a provider that fails becomes the warning
//!    `[<display name>] Failed to load: <error>`, never an abort.
//! 3. Items are merged in provider order, and deduplicated by [`Capability::key`],
//!    first wins: later items with the same key stay in [`Loaded::all`], marked
//!    [`Status::Shadowed`] with the index of the winner.
//! 4. Items are validated with [`Capability::validate`]. [`Profile::Reference`]
//!    validates after dedup, as the TypeScript original does, so an invalid winner takes
//!    its shadowed losers down with it; [`Profile::Extended`] (E8) validates first, so a
//!    valid lower-priority item survives. Each invalid item is the warning
//!    `[<provider>] Invalid item at <path>: <reason>`.
//!
//! Diagnostics of a provider carry its display name in [`Diagnostic::provider`]; their
//! `Display` is `[<display name>] <message>`.
//!
//! Depends on `rulebook-rule` (for [`Diagnostic`] and [`Profile`]), `serde`, `thiserror`.
//!
//! ```
//! use rulebook_registry::{
//!     Capability, LoadContext, LoadResult, Provider, ProviderError, ProviderMeta, Registry,
//! };
//!
//! struct Words;
//! impl Capability for Words {
//!     type Item = String;
//!     const ID: &'static str = "words";
//!     fn key(item: &String) -> &str { item }
//!     type Invalid = &'static str;
//!     fn validate(item: &String) -> Result<(), &'static str> {
//!         if item.is_empty() { Err("empty") } else { Ok(()) }
//!     }
//! }
//!
//! struct Fixed(ProviderMeta, Vec<&'static str>);
//! impl Provider<Words> for Fixed {
//!     fn info(&self) -> &ProviderMeta { &self.0 }
//!     fn load(&self, _: &LoadContext) -> Result<LoadResult<String>, ProviderError> {
//!         Ok(LoadResult::new(self.1.iter().map(|s| s.to_string()).collect()))
//!     }
//! }
//!
//! let fixed = |id, priority, words| Fixed(ProviderMeta::new(id, id, "fixed words", priority), words);
//! let registry = Registry::<Words>::new()
//!     .with(fixed("low", 1, vec!["a", "b"]))
//!     .with(fixed("high", 9, vec!["b", "c"]));
//! let loaded = registry.load(&LoadContext::new("/project", "/home"));
//! let items: Vec<&String> = loaded.items().collect();
//! assert_eq!(items, ["b", "c", "a"]);
//! assert_eq!(loaded.all.len(), 4); // the low-priority "b" is kept, shadowed
//! ```

pub mod cores;
mod memo;
pub mod rules;
mod shared;
pub mod skills;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::error::Error as StdError;
use std::path::{Path, PathBuf};

use rulebook_rule::{DEFAULT_MAX_FILE_SIZE, Diagnostic, DiagnosticCode, Profile};

pub use memo::{FileLoad, ReadMemo, Reload, Reloaded};
pub use rules::RuleCapability;
use serde::Serialize;
pub use shared::{Digest, Links, SharedReads, Walked};
pub use skills::SkillCapability;

/// A kind of item providers can load: rules, and whatever else a tool registers.
pub trait Capability: 'static {
    /// The item a provider loads.
    type Item: Send + 'static;
    /// A stable id for the capability (`rules`).
    const ID: &'static str;
    /// The identity of an item: dedup and precedence are by this key only.
    fn key(item: &Self::Item) -> &str;
    /// Why an item is invalid (its `Display` is the reason shown: `Rule must have content`).
    type Invalid: std::fmt::Display;
    /// Checks an item.
    fn validate(item: &Self::Item) -> Result<(), Self::Invalid>;
    /// Where the item came from, for the `Invalid item at <path>` warning.
    fn location(item: &Self::Item) -> Option<&Path> {
        let _ = item;
        None
    }
    /// The file the item really is (links resolved), when known: with
    /// [`Mechanisms::same_file_dedup`], a later item that is the same file as an earlier one
    /// is marked [`Status::SameFile`].
    fn real_path(item: &Self::Item) -> Option<&Path> {
        let _ = item;
        None
    }
}

/// How loading behaves where the profiles differ, as mechanisms: the registry, the file
/// loader and the providers read these, never the profile itself. The facade decides them
/// once from the profile ([`Mechanisms::for_profile`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent switches, each named for the extension it turns on"
)]
pub struct Mechanisms {
    /// Validate items before deduplication (Extended E8), so a valid lower-priority item
    /// survives an invalid winner; else after, as the original does.
    pub validate_before_dedup: bool,
    /// Skip rule files larger than this (Extended E9); `None` reads any size.
    pub size_cap: Option<u64>,
    /// Refuse project-level files whose real path leaves the project (Extended E10).
    pub project_boundary: bool,
    /// On a YAML error, re-read the misread values as text (Extended E4); else the seeds'
    /// line parser.
    pub recover_misread_values: bool,
    /// Append the operating system's reason to `Failed to read file: <path>`.
    pub detailed_read_errors: bool,
    /// A later item that is the same file as an earlier one (by real path) is shadowed by
    /// it ("same file as …").
    pub same_file_dedup: bool,
    /// E11: project rule directories are read in every directory from the project root
    /// down to the working directory, not in the working directory alone.
    pub project_chain: bool,
    /// A file passed over that the original drops without a word (a skill without the
    /// description its provider requires) is said.
    pub say_skipped: bool,
}

impl Mechanisms {
    /// The original's behaviour (the Reference profile).
    pub const REFERENCE: Self = Self {
        validate_before_dedup: false,
        size_cap: None,
        project_boundary: false,
        recover_misread_values: false,
        detailed_read_errors: false,
        same_file_dedup: false,
        project_chain: false,
        say_skipped: false,
    };

    /// The Extended profile's (the default): E4, E8, E9 (1 MiB), E10, same-file dedup.
    pub const EXTENDED: Self = Self {
        validate_before_dedup: true,
        size_cap: Some(DEFAULT_MAX_FILE_SIZE),
        project_boundary: true,
        recover_misread_values: true,
        detailed_read_errors: true,
        same_file_dedup: true,
        project_chain: true,
        say_skipped: true,
    };

    /// The mechanisms of a profile.
    pub fn for_profile(profile: Profile) -> Self {
        match profile {
            Profile::Reference => Self::REFERENCE,
            Profile::Extended => Self::EXTENDED,
        }
    }
}

impl Default for Mechanisms {
    fn default() -> Self {
        Self::EXTENDED
    }
}

/// Where a run happens: the working directory, the user's home and the repository around
/// them, located once and shared by discovery ([`LoadContext::for_project`]) and every tool's
/// view (`HostOptions::for_project`), so no part of a run walks up for `.git` again.
///
/// ```
/// use rulebook_registry::Project;
///
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::create_dir_all(dir.path().join(".git")).unwrap();
/// std::fs::create_dir_all(dir.path().join("app/src")).unwrap();
/// let project = Project::new(dir.path().join("app/src"), dir.path().join("home"));
/// assert_eq!(project.git_root(), Some(dir.path()));
/// assert_eq!(project.top(), dir.path());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    cwd: PathBuf,
    home: PathBuf,
    git_root: Option<PathBuf>,
}

impl Project {
    /// The run in `cwd` for the user whose home is `home` (empty when unknown); the
    /// repository root is the nearest ancestor of `cwd` (itself included) holding `.git`.
    pub fn new(cwd: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Self {
        let cwd = cwd.into();
        let git_root = find_root(&cwd, &[".git"]);
        Self {
            cwd,
            home: home.into(),
            git_root,
        }
    }

    /// The working directory.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The user's home directory (empty when unknown).
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// The nearest ancestor of the working directory (itself included) holding `.git`.
    pub fn git_root(&self) -> Option<&Path> {
        self.git_root.as_deref()
    }

    /// The repository root, else the working directory: where the tools that stop at the
    /// repository stop their walk up.
    pub fn top(&self) -> &Path {
        self.git_root.as_deref().unwrap_or(&self.cwd)
    }
}

/// What every provider is told about the run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadContext {
    /// The working directory (the project).
    pub cwd: PathBuf,
    /// The user's home; empty when it is unknown (then no user-level source is read: see
    /// [`LoadContext::in_home`]).
    pub home: PathBuf,
    /// The nearest ancestor of `cwd` (itself included) that holds `.git`, if any.
    pub repo_root: Option<PathBuf>,
    /// The project root (E11): the nearest ancestor of `cwd` (itself included) holding one
    /// of the root markers (default `.git`), else `cwd`. Computed once, for every provider.
    pub project_root: PathBuf,
    /// The behaviour profile, for a provider's own choices (E1, E2). Loading mechanisms
    /// are in [`LoadContext::mechanisms`].
    pub profile: Profile,
    /// How loading behaves (see [`Mechanisms`]).
    pub mechanisms: Mechanisms,
    /// Options of individual providers: `(provider id, key) → value`.
    pub provider_options: std::collections::BTreeMap<(String, String), String>,
    /// E11 descendants: for each name providers asked for ([`ProviderMeta::nested_names`]),
    /// the directories below `cwd` holding an entry of that name, found by one walk for
    /// all providers. `None`: descendants are not read. Shared: a discovery run again over
    /// the same directories reuses the walk (see [`LoadContext::nested_shared`]).
    pub nested: Option<std::sync::Arc<std::collections::BTreeMap<String, Vec<PathBuf>>>>,
    /// Where each rule file's load is recorded, so that a file whose text alone changed
    /// can be loaded again by itself ([`ReadMemo`]); `None`: nothing is kept.
    pub memo: Option<ReadMemo>,
    /// Load only these files (a provider run again for the files a save changed): rules
    /// directories are not walked, and every other file is passed over. `None`: every file.
    pub only: Option<std::sync::Arc<std::collections::BTreeSet<PathBuf>>>,
    /// Where the bytes of each rule file read are kept for the readers that come after
    /// discovery (the tools' views of a `check`: [`SharedReads`]); `None`: nothing is kept.
    pub shared_reads: Option<std::sync::Arc<SharedReads>>,
    /// Loads on the calling thread alone: a provider reads a folder of many files on no
    /// helper thread ([`cores`]). A server that keeps every snapshot in one malloc arena
    /// wants this; discovery's own `sequential` option sets it.
    pub one_thread: bool,
}

impl LoadContext {
    /// A context for `cwd` and `home` in the default profile; the repository root and the
    /// project root are found by looking for `.git` upward from `cwd`.
    pub fn new(cwd: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Self {
        Self::for_project(&Project::new(cwd, home))
    }

    /// A context for a located [`Project`] in the default profile: its repository root is
    /// the project root until markers or a root of your own say otherwise.
    pub fn for_project(project: &Project) -> Self {
        Self {
            project_root: project.top().to_path_buf(),
            cwd: project.cwd.clone(),
            home: project.home.clone(),
            repo_root: project.git_root.clone(),
            profile: Profile::default(),
            mechanisms: Mechanisms::default(),
            provider_options: std::collections::BTreeMap::new(),
            nested: None,
            memo: None,
            only: None,
            shared_reads: None,
            one_thread: false,
        }
    }

    /// The located project this context was made for (its repository root as found, or as
    /// set with [`LoadContext::repo_root`]), for the views that run beside discovery.
    pub fn project(&self) -> Project {
        Project {
            cwd: self.cwd.clone(),
            home: self.home.clone(),
            git_root: self.repo_root.clone(),
        }
    }

    /// Sets the size cap of Extended E9 (it applies where the mechanisms have a cap).
    #[must_use]
    pub fn max_file_size(mut self, bytes: u64) -> Self {
        if self.mechanisms.size_cap.is_some() {
            self.mechanisms.size_cap = Some(bytes);
        }
        self
    }

    /// Finds the project root with other markers than `.git` (E11): the nearest ancestor
    /// of `cwd` holding an entry of one of these names, else `cwd`.
    #[must_use]
    pub fn project_root_markers(mut self, markers: &[&str]) -> Self {
        self.project_root = find_root(&self.cwd, markers).unwrap_or_else(|| self.cwd.clone());
        self
    }

    /// Sets the project root (E11) to a directory of your own instead of finding it.
    #[must_use]
    pub fn project_root_at(mut self, root: impl Into<PathBuf>) -> Self {
        self.project_root = root.into();
        self
    }

    /// Sets an option of one provider.
    #[must_use]
    pub fn provider_option(
        mut self,
        provider: impl Into<String>,
        key: impl Into<String>,
        value: impl Into<String>,
    ) -> Self {
        self.provider_options
            .insert((provider.into(), key.into()), value.into());
        self
    }

    /// An option of a provider, if set.
    pub fn option(&self, provider: &str, key: &str) -> Option<&str> {
        self.provider_options
            .get(&(provider.to_owned(), key.to_owned()))
            .map(String::as_str)
    }

    /// Sets the descendants found below `cwd` (see [`LoadContext::nested`]).
    #[must_use]
    pub fn nested(self, nested: std::collections::BTreeMap<String, Vec<PathBuf>>) -> Self {
        self.nested_shared(std::sync::Arc::new(nested))
    }

    /// As [`LoadContext::nested`], with a walk another discovery holds too.
    #[must_use]
    pub fn nested_shared(
        mut self,
        nested: std::sync::Arc<std::collections::BTreeMap<String, Vec<PathBuf>>>,
    ) -> Self {
        self.nested = Some(nested);
        self
    }

    /// Records each rule file's load in `memo` ([`ReadMemo`]).
    #[must_use]
    pub fn memo(mut self, memo: ReadMemo) -> Self {
        self.memo = Some(memo);
        self
    }

    /// Keeps the bytes of each rule file read in `reads` ([`LoadContext::shared_reads`]).
    #[must_use]
    pub fn share_reads(mut self, reads: std::sync::Arc<SharedReads>) -> Self {
        self.shared_reads = Some(reads);
        self
    }

    /// Loads on the calling thread alone ([`LoadContext::one_thread`]).
    #[must_use]
    pub fn one_thread(mut self, yes: bool) -> Self {
        self.one_thread = yes;
        self
    }

    /// Loads only the files `paths` ([`LoadContext::only`]).
    #[must_use]
    pub fn only(mut self, paths: impl IntoIterator<Item = PathBuf>) -> Self {
        self.only = Some(std::sync::Arc::new(paths.into_iter().collect()));
        self
    }

    /// The directories below `cwd` holding an entry named `name`, sorted; empty when
    /// descendants are not read.
    pub fn nested_dirs(&self, name: &str) -> &[PathBuf] {
        self.nested
            .as_ref()
            .and_then(|n| n.get(name))
            .map_or(&[], Vec::as_slice)
    }

    /// Sets the loading mechanisms.
    #[must_use]
    pub fn mechanisms(mut self, mechanisms: Mechanisms) -> Self {
        self.mechanisms = mechanisms;
        self
    }

    /// `rel` under the home, or `None` when the home is unknown. Providers use this for
    /// user-level sources, so an unknown home never turns into the working directory.
    pub fn in_home(&self, rel: impl AsRef<Path>) -> Option<PathBuf> {
        (!self.home.as_os_str().is_empty()).then(|| self.home.join(rel))
    }

    /// The size cap in force (see [`Mechanisms::size_cap`]).
    pub fn size_cap(&self) -> Option<u64> {
        self.mechanisms.size_cap
    }

    /// Sets the profile and its mechanisms ([`Mechanisms::for_profile`]); set other
    /// mechanisms after this, with [`LoadContext::mechanisms`].
    #[must_use]
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self.mechanisms = Mechanisms::for_profile(profile);
        self
    }

    /// Sets (or clears) the repository root.
    #[must_use]
    pub fn repo_root(mut self, root: Option<PathBuf>) -> Self {
        self.repo_root = root;
        self
    }
}

/// The nearest ancestor of `dir` (itself included) holding an entry named one of `markers`
/// (following links, as the tools' own `exists` checks do: a dangling link marks nothing).
pub fn find_root(dir: &Path, markers: &[&str]) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| markers.iter().any(|m| std::fs::metadata(d.join(m)).is_ok()))
        .map(Path::to_path_buf)
}

/// What a provider returns: items and the diagnostics of loading them.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadResult<T> {
    /// The items, in the provider's push order.
    pub items: Vec<T>,
    /// Problems found (unprefixed; the registry adds the provider's name).
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Default for LoadResult<T> {
    fn default() -> Self {
        Self::new(Vec::new())
    }
}

impl<T> LoadResult<T> {
    /// Items with no diagnostics.
    pub fn new(items: Vec<T>) -> Self {
        Self {
            items,
            diagnostics: Vec::new(),
        }
    }
}

/// What loading one provider gave.
type ProviderOutcome<T> = Result<LoadResult<T>, ProviderError>;

/// A provider's failure as a whole (a single bad file is a diagnostic, not this).
pub type ProviderError = Box<dyn StdError + Send + Sync>;

/// A source of items for the capability `C`: one crate per source format.
pub trait Provider<C: Capability>: Send + Sync {
    /// What it is: id, display name, description, priority, known keys, nested names and
    /// the profiles it serves, fixed when it is built (a tool's provider keeps it in a
    /// `static`).
    fn info(&self) -> &ProviderMeta;
    /// Loads the provider's items.
    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<C::Item>, ProviderError>;
}

/// What a provider is, fixed when it is built: [`Provider::info`].
///
/// A provider of a fixed tool keeps one in a `static` (every builder method is `const`); a
/// configurable one ([`ProviderMeta::owned`]) builds its own.
///
/// ```
/// use rulebook_registry::{KnownKey, ProviderMeta};
/// use rulebook_rule::Profile;
///
/// static INFO: ProviderMeta = ProviderMeta::new("acme", "Acme", "Acme rules: .acme/rules/*.md", 60)
///     .with_known_keys(&[KnownKey::new("description", "what the rule is for")])
///     .with_nested_names(&[".acme"])
///     .with_profiles(&[Profile::Extended]);
/// assert_eq!(INFO.id(), "acme");
/// assert_eq!(INFO.nested_names().collect::<Vec<_>>(), [".acme"]);
/// assert!(!INFO.serves(Profile::Reference));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderMeta {
    id: Cow<'static, str>,
    display_name: Cow<'static, str>,
    description: Cow<'static, str>,
    priority: i32,
    known_keys: &'static [KnownKey],
    nested_static: &'static [&'static str],
    nested_owned: Vec<String>,
    profiles: &'static [Profile],
    options: &'static [ProviderOption],
    unquoted_globs: UnquotedGlobs,
    conditional: &'static [ConditionalFile],
}

/// A file a provider's tool reads only under a condition (Zed's `AGENT.md`, read when none
/// of its earlier names is there): `rulebook check` says why such a file is not read when
/// it is there and no provider read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConditionalFile {
    /// Its name in the working directory.
    pub name: &'static str,
    /// The tool that reads it, as people name it (`Roo Code`).
    pub tool: &'static str,
    /// When it reads it, as a clause (`only when AGENTS.md is missing or empty`).
    pub when: &'static str,
}

/// What the tool behind a provider makes of a glob written unquoted (`globs: *.ts`), which
/// YAML reads as an alias: what `rulebook check` says of one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnquotedGlobs {
    /// Not known to be read as written: quoting it is advised.
    #[default]
    Quote,
    /// The tool's own form, read as written (Cursor writes and matches `globs: *.ts`):
    /// nothing to say.
    Native,
    /// Quoting it is advised, with this note on why (the tool's reader is not public, say).
    QuoteBecause(&'static str),
}

impl ProviderMeta {
    /// A provider's id (`cursor`), display name (`Cursor`), one line on what it reads, and
    /// priority (higher loads first and wins name clashes); no known keys, no nested names,
    /// both profiles.
    pub const fn new(
        id: &'static str,
        display_name: &'static str,
        description: &'static str,
        priority: i32,
    ) -> Self {
        Self {
            id: Cow::Borrowed(id),
            display_name: Cow::Borrowed(display_name),
            description: Cow::Borrowed(description),
            priority,
            known_keys: &[],
            nested_static: &[],
            nested_owned: Vec::new(),
            profiles: &[Profile::Reference, Profile::Extended],
            options: &[],
            unquoted_globs: UnquotedGlobs::Quote,
            conditional: &[],
        }
    }

    /// The same, from values known only at run time (a configurable provider).
    pub fn owned(
        id: impl Into<String>,
        display_name: impl Into<String>,
        description: impl Into<Cow<'static, str>>,
        priority: i32,
    ) -> Self {
        Self {
            id: Cow::Owned(id.into()),
            display_name: Cow::Owned(display_name.into()),
            description: description.into(),
            ..Self::new("", "", "", priority)
        }
    }

    /// The keys its files may set, each with a one-line meaning: `rulebook check` reports
    /// any other key as unknown, per provider. None (the default): no key is checked.
    #[must_use]
    pub const fn with_known_keys(mut self, keys: &'static [KnownKey]) -> Self {
        self.known_keys = keys;
        self
    }

    /// The names of directory entries (`.cursor`, `AGENTS.md`) it wants found below the
    /// working directory (E11 descendants): discovery walks once for all providers and
    /// hands the hits over in [`LoadContext::nested`].
    #[must_use]
    pub const fn with_nested_names(mut self, names: &'static [&'static str]) -> Self {
        self.nested_static = names;
        self
    }

    /// Adds a nested name known only at run time (see [`ProviderMeta::with_nested_names`]).
    #[must_use]
    pub fn with_owned_nested_name(mut self, name: impl Into<String>) -> Self {
        self.nested_owned.push(name.into());
        self
    }

    /// The profiles it serves: [`Registry::load`] skips it under any other (its `load` is
    /// not called). Both (the default), or only [`Profile::Extended`] for a format the
    /// original did not read.
    #[must_use]
    pub const fn with_profiles(mut self, profiles: &'static [Profile]) -> Self {
        self.profiles = profiles;
        self
    }

    /// The options it reads from the load context ([`LoadContext::option`]), each with the
    /// values it takes: [`Registry::check_option`] refuses any other key or value.
    #[must_use]
    pub const fn with_options(mut self, options: &'static [ProviderOption]) -> Self {
        self.options = options;
        self
    }

    /// What its tool makes of an unquoted glob ([`UnquotedGlobs::Quote`] by default).
    #[must_use]
    pub const fn with_unquoted_globs(mut self, form: UnquotedGlobs) -> Self {
        self.unquoted_globs = form;
        self
    }

    /// What its tool makes of an unquoted glob.
    pub fn unquoted_globs(&self) -> UnquotedGlobs {
        self.unquoted_globs
    }

    /// The files its tool reads only under a condition ([`ConditionalFile`]).
    #[must_use]
    pub const fn with_conditional_files(mut self, files: &'static [ConditionalFile]) -> Self {
        self.conditional = files;
        self
    }

    /// The files its tool reads only under a condition.
    pub fn conditional_files(&self) -> &'static [ConditionalFile] {
        self.conditional
    }

    /// The options it reads.
    pub fn options(&self) -> &'static [ProviderOption] {
        self.options
    }

    /// Its id, used in allow and deny lists, [`Entry::provider`] and [`Loaded::providers`].
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The name shown to people (`Cursor`), the prefix of its warnings.
    pub fn display_name(&self) -> &str {
        &self.display_name
    }

    /// One line on what it reads.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Its priority: higher loads first and wins name clashes.
    pub fn priority(&self) -> i32 {
        self.priority
    }

    /// The keys its files may set.
    pub fn known_keys(&self) -> &'static [KnownKey] {
        self.known_keys
    }

    /// The directory entry names it wants found below the working directory.
    pub fn nested_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.nested_static
            .iter()
            .copied()
            .chain(self.nested_owned.iter().map(String::as_str))
    }

    /// The profiles it serves.
    pub fn profiles(&self) -> &'static [Profile] {
        self.profiles
    }

    /// Whether it is loaded under `profile`.
    pub fn serves(&self, profile: Profile) -> bool {
        self.profiles.contains(&profile)
    }
}

/// An option a provider reads from the load context (`claude.walk_ceiling`), and the
/// values it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProviderOption {
    /// The key (`walk_ceiling`).
    pub key: &'static str,
    /// The values it takes.
    pub kind: OptionKind,
}

impl ProviderOption {
    /// An option and its values.
    pub const fn new(key: &'static str, kind: OptionKind) -> Self {
        Self { key, kind }
    }
}

/// The values one provider option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionKind {
    /// `true` or `false`.
    Bool,
    /// An existing directory.
    Directory,
    /// A comma-separated list of file names (no `/`, none empty).
    FileNames,
    /// One of these words.
    OneOf(&'static [&'static str]),
}

impl OptionKind {
    /// Whether `value` is one this kind takes.
    pub fn accepts(self, value: &str) -> bool {
        match self {
            Self::Bool => matches!(value, "true" | "false"),
            Self::Directory => Path::new(value).is_dir(),
            Self::FileNames => value
                .split(',')
                .all(|n| !n.trim().is_empty() && !n.contains(['/', '\\'])),
            Self::OneOf(values) => values.contains(&value),
        }
    }
}

/// Why [`Registry::check_option`] refused `provider.key=value`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OptionError {
    /// No registered provider of that id reads options.
    #[error("no provider `{provider}` takes options; these do: {}", known.join(", "))]
    UnknownProvider {
        /// The id given.
        provider: String,
        /// The providers that take options, sorted.
        known: Vec<String>,
    },
    /// The provider reads no option of that key.
    #[error("`{provider}` has no option `{key}`; its options: {}", known.join(", "))]
    UnknownKey {
        /// The provider.
        provider: String,
        /// The key given.
        key: String,
        /// Its options, in its order.
        known: Vec<String>,
    },
    /// The value is not one the option takes.
    #[error("{provider}.{key} {}", expected(*kind, value))]
    BadValue {
        /// The provider.
        provider: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the option takes.
        kind: OptionKind,
    },
}

/// What an option of `kind` takes, said of the `value` refused.
fn expected(kind: OptionKind, value: &str) -> String {
    match kind {
        OptionKind::Bool => "is true or false".to_owned(),
        OptionKind::Directory => format!("names a directory, and {value} is not one"),
        OptionKind::FileNames => {
            "is a comma-separated list of file names (no `/`, none empty)".to_owned()
        }
        OptionKind::OneOf(values) => format!("is one of {}", values.join(", ")),
    }
}

/// A key a provider reads in its files, and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct KnownKey {
    /// The key as written (`alwaysApply`).
    pub key: &'static str,
    /// What it does, in one line.
    pub meaning: &'static str,
}

impl KnownKey {
    /// A key and its meaning.
    pub const fn new(key: &'static str, meaning: &'static str) -> Self {
        Self { key, meaning }
    }
}

/// Errors of configuring a registry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two providers with one id.
    #[error("a provider with id `{0}` is already registered; ids must be unique")]
    DuplicateProvider(String),
}

/// What became of one loaded item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "status")]
pub enum Status {
    /// In [`Loaded::items`].
    Active,
    /// A same-key item earlier in provider order won; `by` is its index in [`Loaded::all`].
    Shadowed {
        /// Index of the winner in [`Loaded::all`].
        by: usize,
    },
    /// Failed validation.
    Invalid {
        /// The capability's reason.
        reason: String,
    },
    /// The same file (by real path) as an earlier active item, which stands for both.
    SameFile {
        /// Index of the earlier item in [`Loaded::all`].
        by: usize,
    },
}

/// One item as loaded, with its provider and fate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry<T> {
    /// The item.
    pub item: T,
    /// The id of the provider that loaded it.
    pub provider: String,
    /// Active, shadowed or invalid.
    #[serde(flatten)]
    pub status: Status,
}

/// The result of [`Registry::load`].
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded<T> {
    /// Every item of every provider, in merge order, with its fate.
    pub all: Vec<Entry<T>>,
    /// Indices into `all` of the active items, in merge order.
    pub active: Vec<usize>,
    /// Every diagnostic, in provider order, prefixed with the provider's display name.
    pub diagnostics: Vec<Diagnostic>,
    /// Ids of the providers that loaded at least one item, in provider order.
    pub providers: Vec<String>,
}

impl<T> Loaded<T> {
    /// The active items: deduplicated and valid, in provider order.
    pub fn items(&self) -> impl ExactSizeIterator<Item = &T> + '_ {
        self.active.iter().map(|&i| &self.all[i].item)
    }

    /// The entries that lost a key clash, with the entry that won; and the entries that
    /// are the same file as an earlier one, with it.
    pub fn shadowed(&self) -> impl Iterator<Item = (&Entry<T>, &Entry<T>)> + '_ {
        self.all.iter().filter_map(|e| match e.status {
            Status::Shadowed { by } | Status::SameFile { by } => Some((e, &self.all[by])),
            _ => None,
        })
    }

    /// The entries that failed validation, with the reason.
    pub fn invalid(&self) -> impl Iterator<Item = (&Entry<T>, &str)> + '_ {
        self.all.iter().filter_map(|e| match &e.status {
            Status::Invalid { reason } => Some((e, reason.as_str())),
            _ => None,
        })
    }
}

/// Facts about a registered provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProviderInfo {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub display_name: String,
    /// What it reads.
    pub description: String,
    /// Its priority.
    pub priority: i32,
    /// Whether [`Registry::load`] will load it.
    pub enabled: bool,
    /// The keys its files may set ([`ProviderMeta::known_keys`]).
    #[serde(skip)]
    pub known_keys: Vec<KnownKey>,
    /// The profiles it serves ([`ProviderMeta::profiles`]).
    #[serde(skip)]
    pub profiles: Vec<Profile>,
    /// The options it reads ([`ProviderMeta::options`]).
    #[serde(skip)]
    pub options: Vec<ProviderOption>,
    /// What its tool makes of an unquoted glob ([`ProviderMeta::unquoted_globs`]).
    #[serde(skip)]
    pub unquoted_globs: UnquotedGlobs,
}

/// Providers of one capability, and how to load them.
pub struct Registry<C: Capability> {
    providers: Vec<Box<dyn Provider<C>>>,
    disabled: HashSet<String>,
    allow: Option<HashSet<String>>,
    deny: HashSet<String>,
    parallel: bool,
}

impl<C: Capability> Default for Registry<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Capability> std::fmt::Debug for Registry<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("capability", &C::ID)
            .field("providers", &self.infos())
            .field("parallel", &self.parallel)
            .finish_non_exhaustive()
    }
}

impl<C: Capability> Registry<C> {
    /// An empty registry that loads in parallel.
    pub fn new() -> Self {
        Self {
            providers: Vec::new(),
            disabled: HashSet::new(),
            allow: None,
            deny: HashSet::new(),
            parallel: true,
        }
    }

    /// Registers a provider.
    pub fn register(&mut self, provider: impl Provider<C> + 'static) -> Result<(), RegistryError> {
        self.register_boxed(Box::new(provider))
    }

    /// Registers a boxed provider.
    pub fn register_boxed(&mut self, provider: Box<dyn Provider<C>>) -> Result<(), RegistryError> {
        let id = provider.info().id();
        if self.providers.iter().any(|p| p.info().id() == id) {
            return Err(RegistryError::DuplicateProvider(id.to_owned()));
        }
        self.providers.push(provider);
        Ok(())
    }

    /// Registers a provider, builder style; a provider whose id is taken replaces nothing
    /// and is dropped (use [`Registry::register`] to see that error).
    #[must_use]
    pub fn with(mut self, provider: impl Provider<C> + 'static) -> Self {
        let _ = self.register(provider);
        self
    }

    /// Disables a provider by id (whatever the allow list says).
    pub fn disable(&mut self, id: impl Into<String>) -> &mut Self {
        self.disabled.insert(id.into());
        self
    }

    /// Re-enables a provider disabled with [`Registry::disable`].
    pub fn enable(&mut self, id: &str) -> &mut Self {
        self.disabled.remove(id);
        self
    }

    /// Loads only these providers (and not those denied or disabled).
    pub fn allow<I: IntoIterator<Item = S>, S: Into<String>>(&mut self, ids: I) -> &mut Self {
        self.allow = Some(ids.into_iter().map(Into::into).collect());
        self
    }

    /// Never loads these providers.
    pub fn deny<I: IntoIterator<Item = S>, S: Into<String>>(&mut self, ids: I) -> &mut Self {
        self.deny.extend(ids.into_iter().map(Into::into));
        self
    }

    /// Loads providers on threads of their own (the default) or one after the other.
    pub fn parallel(&mut self, yes: bool) -> &mut Self {
        self.parallel = yes;
        self
    }

    fn is_enabled(&self, id: &str) -> bool {
        !self.disabled.contains(id)
            && !self.deny.contains(id)
            && self.allow.as_ref().is_none_or(|a| a.contains(id))
    }

    /// The provider of id `id`, when it is registered and enabled (to run it again on some
    /// files alone: [`LoadContext::only`]).
    pub fn provider(&self, id: &str) -> Option<&dyn Provider<C>> {
        self.providers
            .iter()
            .map(AsRef::as_ref)
            .find(|p| p.info().id() == id && self.is_enabled(id))
    }

    /// Providers in load order: priority descending, ties in registration order.
    fn ordered(&self) -> Vec<&dyn Provider<C>> {
        let mut ordered: Vec<&dyn Provider<C>> = self.providers.iter().map(AsRef::as_ref).collect();
        // A stable sort keeps registration order on ties.
        ordered.sort_by_key(|p| std::cmp::Reverse(p.info().priority()));
        ordered
    }

    /// The names every enabled provider wants found below the working directory, sorted,
    /// each once.
    pub fn nested_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .ordered()
            .into_iter()
            .filter(|p| self.is_enabled(p.info().id()))
            .flat_map(|p| p.info().nested_names().map(str::to_owned))
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Every registered provider, in load order, with whether it is enabled.
    pub fn infos(&self) -> Vec<ProviderInfo> {
        self.ordered()
            .into_iter()
            .map(|p| {
                let info = p.info();
                ProviderInfo {
                    id: info.id().to_owned(),
                    display_name: info.display_name().to_owned(),
                    description: info.description().to_owned(),
                    priority: info.priority(),
                    enabled: self.is_enabled(info.id()),
                    known_keys: info.known_keys().to_vec(),
                    profiles: info.profiles().to_vec(),
                    options: info.options().to_vec(),
                    unquoted_globs: info.unquoted_globs(),
                }
            })
            .collect()
    }

    /// Whether `provider.key=value` is an option a registered provider reads, with a value
    /// it takes (enabled or not); else what is wrong, naming the known ones.
    ///
    /// ```
    /// use rulebook_registry::{OptionError, OptionKind, ProviderMeta, ProviderOption};
    /// # use rulebook_registry::{LoadContext, LoadResult, Provider, ProviderError, Registry, RuleCapability};
    /// # struct P;
    /// # impl Provider<RuleCapability> for P {
    /// #     fn info(&self) -> &ProviderMeta { &INFO }
    /// #     fn load(&self, _: &LoadContext) -> Result<LoadResult<rulebook_rule::Rule>, ProviderError> { Ok(LoadResult::default()) }
    /// # }
    /// static INFO: ProviderMeta = ProviderMeta::new("acme", "Acme", "Acme rules", 1)
    ///     .with_options(&[ProviderOption::new("strict", OptionKind::Bool)]);
    /// let registry = Registry::<RuleCapability>::new().with(P);
    /// assert!(registry.check_option("acme", "strict", "true").is_ok());
    /// let err = registry.check_option("acme", "strict", "yes").unwrap_err();
    /// assert_eq!(err.to_string(), "acme.strict is true or false");
    /// assert!(matches!(registry.check_option("acme", "loose", "1"), Err(OptionError::UnknownKey { .. })));
    /// ```
    pub fn check_option(&self, provider: &str, key: &str, value: &str) -> Result<(), OptionError> {
        let Some(info) = self
            .providers
            .iter()
            .map(|p| p.info())
            .find(|i| i.id() == provider && !i.options().is_empty())
        else {
            let mut known: Vec<String> = self
                .providers
                .iter()
                .map(|p| p.info())
                .filter(|i| !i.options().is_empty())
                .map(|i| i.id().to_owned())
                .collect();
            known.sort();
            return Err(OptionError::UnknownProvider {
                provider: provider.to_owned(),
                known,
            });
        };
        let Some(option) = info.options().iter().find(|o| o.key == key) else {
            return Err(OptionError::UnknownKey {
                provider: provider.to_owned(),
                key: key.to_owned(),
                known: info.options().iter().map(|o| o.key.to_owned()).collect(),
            });
        };
        if option.kind.accepts(value) {
            Ok(())
        } else {
            Err(OptionError::BadValue {
                provider: provider.to_owned(),
                key: key.to_owned(),
                value: value.to_owned(),
                kind: option.kind,
            })
        }
    }

    /// Loads, merges, deduplicates and validates (see the crate docs).
    pub fn load(&self, ctx: &LoadContext) -> Loaded<C::Item> {
        let enabled: Vec<&dyn Provider<C>> = self
            .ordered()
            .into_iter()
            .filter(|p| self.is_enabled(p.info().id()) && p.info().serves(ctx.profile))
            .collect();
        let results: Vec<Result<LoadResult<C::Item>, ProviderError>> = if self.parallel
            && enabled.len() > 1
        {
            // A few workers (one per core) take the providers in turn: a dozen providers
            // must not cost a dozen threads on a two-core machine.
            use std::sync::Mutex;
            use std::sync::atomic::{AtomicUsize, Ordering};
            let workers = std::thread::available_parallelism()
                .map_or(2, std::num::NonZeroUsize::get)
                .min(enabled.len());
            let next = AtomicUsize::new(0);
            let slots: Vec<Mutex<Option<ProviderOutcome<C::Item>>>> =
                enabled.iter().map(|_| Mutex::new(None)).collect();
            std::thread::scope(|scope| {
                // Each worker takes the next provider until none is left.
                let work = || {
                    let _busy = cores::Busy::enter();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(provider) = enabled.get(i) else {
                            break;
                        };
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            provider.load(ctx)
                        }))
                        .unwrap_or_else(|panic| {
                            let message = panic
                                .downcast_ref::<&str>()
                                .map(ToString::to_string)
                                .or_else(|| panic.downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "the provider panicked".to_owned());
                            Err(message.into())
                        });
                        if let Ok(mut slot) = slots[i].lock() {
                            *slot = Some(result);
                        }
                    }
                };
                // This thread is one of them: its allocations come from its own malloc
                // arena, which grows in larger steps than a new thread's.
                for _ in 1..workers {
                    scope.spawn(work);
                }
                work();
            });
            slots
                .into_iter()
                .map(|slot| {
                    slot.into_inner()
                        .ok()
                        .flatten()
                        .unwrap_or_else(|| Err("the provider did not finish".into()))
                })
                .collect()
        } else {
            enabled.iter().map(|p| p.load(ctx)).collect()
        };

        // One allocation for every entry: growing the vector provider by provider would
        // hold up to twice the entries at the peak.
        let total: usize = results
            .iter()
            .map(|r| r.as_ref().map_or(0, |r| r.items.len()))
            .sum();
        let mut loaded = Loaded {
            all: Vec::with_capacity(total),
            active: Vec::new(),
            diagnostics: Vec::new(),
            providers: Vec::new(),
        };
        for (provider, result) in enabled.iter().zip(results) {
            let (id, name) = (provider.info().id(), provider.info().display_name());
            match result {
                Ok(result) => {
                    if !result.items.is_empty() {
                        loaded.providers.push(provider.info().id().to_owned());
                    }
                    loaded.diagnostics.extend(
                        result
                            .diagnostics
                            .into_iter()
                            .map(|d| d.from_provider(id, name)),
                    );
                    loaded
                        .all
                        .extend(result.items.into_iter().map(|item| Entry {
                            item,
                            provider: provider.info().id().to_owned(),
                            status: Status::Active,
                        }));
                }
                Err(err) => loaded.diagnostics.push(
                    Diagnostic::new(
                        DiagnosticCode::ProviderFailed,
                        format!("Failed to load: {err}"),
                    )
                    .from_provider(id, name),
                ),
            }
        }
        let names: HashMap<&str, &str> = enabled
            .iter()
            .map(|p| (p.info().id(), p.info().display_name()))
            .collect();
        let mut invalid_diagnostics = Vec::new();
        let mut invalidate = |entry: &mut Entry<C::Item>, reason: String| {
            let location = C::location(&entry.item).map_or_else(
                || C::key(&entry.item).to_owned(),
                |p| p.display().to_string(),
            );
            let mut d = Diagnostic::new(
                DiagnosticCode::InvalidItem,
                format!("Invalid item at {location}: {reason}"),
            )
            .from_provider(
                entry.provider.as_str(),
                names.get(entry.provider.as_str()).copied().unwrap_or(""),
            );
            if let Some(path) = C::location(&entry.item) {
                d = d.with_path(path);
            }
            invalid_diagnostics.push(d);
            entry.status = Status::Invalid { reason };
        };

        if ctx.mechanisms.validate_before_dedup {
            for entry in &mut loaded.all {
                if let Err(reason) = C::validate(&entry.item) {
                    invalidate(entry, reason.to_string());
                }
            }
        }
        // First wins by key, among the items still standing (the keys borrowed, not copied:
        // the statuses are set once the winners are known).
        let mut winners: HashMap<&str, usize, foldhash::fast::RandomState> =
            HashMap::with_capacity_and_hasher(
                loaded.all.len(),
                foldhash::fast::RandomState::default(),
            );
        let mut shadowed = Vec::new();
        for (i, entry) in loaded.all.iter().enumerate() {
            if entry.status != Status::Active {
                continue;
            }
            match winners.entry(C::key(&entry.item)) {
                std::collections::hash_map::Entry::Occupied(winner) => {
                    shadowed.push((i, *winner.get()));
                }
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(i);
                }
            }
        }
        // Validated after the dedupe: the winners, in order (taken now, ending the borrow).
        let mut winner_indices: Vec<usize> = if ctx.mechanisms.validate_before_dedup {
            Vec::new()
        } else {
            winners.into_values().collect()
        };
        for (i, by) in shadowed {
            loaded.all[i].status = Status::Shadowed { by };
        }
        if !ctx.mechanisms.validate_before_dedup {
            winner_indices.sort_unstable();
            for i in winner_indices {
                if let Err(reason) = C::validate(&loaded.all[i].item) {
                    invalidate(&mut loaded.all[i], reason.to_string());
                }
            }
        }
        if ctx.mechanisms.same_file_dedup {
            // The same file under two names (`CLAUDE.md -> AGENTS.md`): the first stands. A
            // real path is resolved (no `.`, `..` or doubled separator), so its bytes name it
            // (hashing a `Path` walks its components). The map is sized once for every
            // entry and each path hashed once: at 100,000 rules a growing map's rehashes and
            // a second hash for the insert were a fifth of what discovery does on one core
            // after its providers.
            let mut files: HashMap<&std::ffi::OsStr, usize, foldhash::fast::RandomState> =
                HashMap::with_capacity_and_hasher(
                    loaded.all.len(),
                    foldhash::fast::RandomState::default(),
                );
            let mut same = Vec::new();
            for (i, entry) in loaded.all.iter().enumerate() {
                if entry.status != Status::Active {
                    continue;
                }
                if let Some(real) = C::real_path(&entry.item).map(Path::as_os_str) {
                    match files.entry(real) {
                        std::collections::hash_map::Entry::Occupied(first) => {
                            same.push((i, *first.get()));
                        }
                        std::collections::hash_map::Entry::Vacant(slot) => {
                            slot.insert(i);
                        }
                    }
                }
            }
            for (i, by) in same {
                loaded.all[i].status = Status::SameFile { by };
            }
        }
        loaded.diagnostics.extend(invalid_diagnostics);
        loaded.active = (0..loaded.all.len())
            .filter(|&i| loaded.all[i].status == Status::Active)
            .collect();
        loaded
    }
}
