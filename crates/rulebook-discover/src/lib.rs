//! The discovery stage: [`Rulebook::discover`] runs the pipeline for a working directory
//! and a home, and [`Rulebook`] answers every question about the result.
//!
//! It joins the stages: the registry loads every provider (E11: one walk below the working
//! directory for all their nested names), the partition places each active rule in a
//! bucket (TTSR rules registered with the [`TtsrManager`]), and the book then serves the
//! four index spaces over one list of files: every loaded file ([`Rulebook::all`], with
//! its fate through [`Rulebook::files`]), the active rules ([`Rulebook::items`]), the
//! rules `rule://` resolves (E5, [`Rulebook::resolvable`]) and the glob index (E3,
//! [`Rulebook::applicable`]), plus attachment in the prompt. Nothing here prints: every
//! problem is a [`Diagnostic`] in [`Rulebook::diagnostics`].
//!
//! Which providers run by default is not decided here: [`Options`] takes a
//! [`ProviderTable`] (the `rulebook` facade's `DefaultProviders`, one line per provider
//! crate behind its cargo feature), and [`NoProviders`] by default, so this crate depends
//! on no provider.
//!
//! ```
//! use rulebook_discover::{NoProviders, Options, Rulebook, Fate};
//! use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
//! use rulebook_kit::{FileLoader, LoadContext, LoadResult, ProviderError, RuleCapability};
//! use rulebook_registry::{Provider, ProviderMeta};
//! use rulebook_rule::{Level, Rule};
//!
//! /// Reads `.acme/rules/*.md`.
//! struct Acme;
//! impl Provider<RuleCapability> for Acme {
//!     fn info(&self) -> &ProviderMeta {
//!         static INFO: ProviderMeta = ProviderMeta::new("acme", "Acme", "Acme rules", 60);
//!         &INFO
//!     }
//!     fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
//!         let policy = FieldPolicy::new(
//!             DescriptionPolicy::StringOnly,
//!             AlwaysApplyPolicy::OnlyTrue,
//!             GlobsPolicy::StringsOnly,
//!         );
//!         let mut out = LoadResult::default();
//!         FileLoader::new(ctx, "acme", "Acme", policy).load_dir(
//!             &ctx.cwd.join(".acme/rules"), &["md"], Level::Project, Some(&ctx.cwd), &mut out,
//!         );
//!         Ok(out)
//!     }
//! }
//!
//! # let dir = tempfile::tempdir()?;
//! # std::fs::create_dir_all(dir.path().join(".acme/rules"))?;
//! std::fs::write(dir.path().join(".acme/rules/style.md"), "---\ndescription: house style\n---\nBe brief.")?;
//! std::fs::write(dir.path().join(".acme/rules/empty.md"), "")?;
//! let options: Options<NoProviders> = Options::new().provider(Acme);
//! let book = Rulebook::discover(dir.path(), Some(&dir.path().join("home")), &options);
//! assert_eq!(book.resolve("rule://style")?.content, "Be brief.");
//! // Every file, with what became of it.
//! let fates: Vec<(&str, bool)> = book
//!     .files()
//!     .map(|f| (f.rule.name.as_str(), matches!(f.fate, Fate::Active { .. })))
//!     .collect();
//! assert_eq!(fates, [("empty", false), ("style", true)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Depends on the stage crates (`rulebook-registry`, `rulebook-kit`, `rulebook-partition`,
//! `rulebook-ttsr`, `rulebook-match`, `rulebook-prompt`, `rulebook-protocol`) and `dirs`
//! for the default home.

mod files;
mod skills;

pub use files::FilesUpdate;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use skills::{SkillError, SkillResource, skill_url_rest};

use rulebook_match::{Applicable, GlobIndex, PathMatch};
use rulebook_partition::{Partition, Placement, Rejection, RuleBucket, partition};
use rulebook_prompt::{AlwaysApplied, Attached, SectionRenderer};
use rulebook_protocol::{Completion, ProtocolError, Resource, UrlIndex};
use rulebook_registry::{
    Entry, LoadContext, Loaded, Mechanisms, OptionError, Project, Provider, ProviderInfo,
    ProviderMeta, ReadMemo, Registry, RuleCapability, SharedReads, SkillCapability, Status,
};
use rulebook_rule::{Diagnostic, DiagnosticCode, Profile, Rule, Skill};
use rulebook_ttsr::{RegisterError, TtsrManager, TtsrRule};

/// The registry type for rules.
pub type RuleRegistry = Registry<RuleCapability>;

/// The providers [`Options::registry`] registers before those of [`Options::provider`]:
/// the facade's table of default providers.
pub trait ProviderTable: Clone + Default + Send + Sync + 'static {
    /// A fresh instance of each default provider.
    fn providers(&self) -> Vec<Box<dyn Provider<RuleCapability>>>;

    /// A fresh instance of each default skills provider (none by default).
    fn skill_providers(&self) -> Vec<Box<dyn Provider<SkillCapability>>> {
        Vec::new()
    }

    /// The ids of every provider of this table in its fullest build, held here or left out
    /// by a cargo feature: an option for one of them is no one's in a build without it and
    /// passes, where an option for any other id is a mistake ([`Options::provider_option`]).
    fn known_ids(&self) -> &'static [&'static str] {
        &[]
    }
}

/// No default providers: only those of [`Options::provider`] run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoProviders;

impl ProviderTable for NoProviders {
    fn providers(&self) -> Vec<Box<dyn Provider<RuleCapability>>> {
        Vec::new()
    }
}

/// What became of one loaded file (an entry of [`Rulebook::all`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate<'a> {
    /// It won its name (or had it alone) and was placed.
    Active {
        /// Its position among [`Rulebook::items`].
        position: usize,
        /// Its bucket, or the reason it is in none.
        placement: &'a Placement,
    },
    /// A rule of higher priority has its name.
    Shadowed {
        /// The entry of [`Rulebook::all`] that won.
        by: usize,
    },
    /// The same file was loaded by a provider of higher priority.
    SameFile {
        /// The entry of [`Rulebook::all`] that read it first.
        by: usize,
    },
    /// It failed validation.
    Invalid {
        /// Why.
        reason: &'a str,
    },
}

/// One loaded file and its fate: [`Rulebook::files`].
#[derive(Debug, Clone, Copy)]
pub struct FileFate<'a> {
    /// Its index in [`Rulebook::all`].
    pub index: usize,
    /// The rule it holds.
    pub rule: &'a Rule,
    /// What became of it.
    pub fate: Fate<'a>,
}

/// A provider shared by clones of [`Options`].
type SharedProvider = std::sync::Arc<dyn Provider<RuleCapability>>;

/// Forwards to a shared provider, so [`Options`] stays `Clone`.
struct Shared(SharedProvider);

impl Provider<RuleCapability> for Shared {
    fn info(&self) -> &ProviderMeta {
        self.0.info()
    }
    fn load(
        &self,
        ctx: &LoadContext,
    ) -> Result<rulebook_registry::LoadResult<Rule>, rulebook_registry::ProviderError> {
        self.0.load(ctx)
    }
}

/// How [`Rulebook::discover`] runs.
#[derive(Clone, Default)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "a builder's switches, each independent of the others"
)]
pub struct Options<T = NoProviders> {
    table: T,
    profile: Profile,
    allow: Option<Vec<String>>,
    deny: Vec<String>,
    sequential: bool,
    max_file_size: Option<u64>,
    extra: Vec<SharedProvider>,
    root_markers: Option<Vec<String>>,
    root: Option<PathBuf>,
    no_descendants: bool,
    per_provider: Vec<(String, String, String)>,
    keep_reads: bool,
    share_reads: bool,
}

impl<T: std::fmt::Debug> std::fmt::Debug for Options<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("table", &self.table)
            .field("profile", &self.profile)
            .field("allow", &self.allow)
            .field("deny", &self.deny)
            .field("sequential", &self.sequential)
            .field("max_file_size", &self.max_file_size)
            .field(
                "extra",
                &self
                    .extra
                    .iter()
                    .map(|p| p.info().id().to_owned())
                    .collect::<Vec<_>>(),
            )
            .field("root_markers", &self.root_markers)
            .field("keep_reads", &self.keep_reads)
            .field("share_reads", &self.share_reads)
            .finish_non_exhaustive()
    }
}

impl<T: ProviderTable> Options<T> {
    /// Extended profile, every default provider, parallel loading.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the profile.
    #[must_use]
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Loads only these providers (by id).
    #[must_use]
    pub fn allow_providers<I: IntoIterator<Item = S>, S: Into<String>>(mut self, ids: I) -> Self {
        self.allow = Some(ids.into_iter().map(Into::into).collect());
        self
    }

    /// Never loads these providers (by id).
    #[must_use]
    pub fn deny_providers<I: IntoIterator<Item = S>, S: Into<String>>(mut self, ids: I) -> Self {
        self.deny.extend(ids.into_iter().map(Into::into));
        self
    }

    /// Sets the table of default providers (the facade's `DefaultProviders` carries the
    /// native provider's configuration).
    #[must_use]
    pub fn table(mut self, table: T) -> Self {
        self.table = table;
        self
    }

    /// The table of default providers.
    pub fn providers_table(&self) -> &T {
        &self.table
    }

    /// Extended E9: skip rule files larger than `bytes` (default 1 MiB).
    #[must_use]
    pub fn max_file_size(mut self, bytes: u64) -> Self {
        self.max_file_size = Some(bytes);
        self
    }

    /// Adds a provider of your own to the defaults (it takes its place by priority).
    #[must_use]
    pub fn provider(mut self, provider: impl Provider<RuleCapability> + 'static) -> Self {
        self.extra.push(std::sync::Arc::new(provider));
        self
    }

    /// E11: the names that mark the project root (default `.git`): the nearest ancestor of
    /// the working directory holding one of them, else the working directory.
    #[must_use]
    pub fn project_root_markers<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        markers: I,
    ) -> Self {
        self.root_markers = Some(markers.into_iter().map(Into::into).collect());
        self
    }

    /// Sets an option of one provider (`claude`, `walk_ceiling`, a directory), handed to it
    /// in the load context.
    #[must_use]
    pub fn provider_option(
        mut self,
        provider: impl Into<String>,
        key: impl Into<String>,
        value: impl Into<String>,
    ) -> Self {
        self.per_provider
            .push((provider.into(), key.into(), value.into()));
        self
    }

    /// Lets `@path` imports (Claude Code) reach files outside the project; refused (a
    /// warning, the token kept) by default.
    #[must_use]
    pub fn allow_external_imports(self, yes: bool) -> Self {
        self.provider_option(
            "claude",
            "allow_external_imports",
            if yes { "true" } else { "false" },
        )
    }

    /// E11: the project root, given instead of found by its markers.
    #[must_use]
    pub fn project_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.root = Some(root.into());
        self
    }

    /// E11: read nested rule directories below the working directory (the default, in
    /// Extended), or only the chain from the project root down to it (`false`).
    #[must_use]
    pub fn descendants(mut self, yes: bool) -> Self {
        self.no_descendants = !yes;
        self
    }

    /// Keeps in the book how each rule file was loaded, so that a file whose text alone
    /// changed can be loaded again by itself and its rule updated in place
    /// ([`Rulebook::content_update`]: a server refreshing after a save). Off by default:
    /// it costs about 300 bytes a rule file (the text is shared, not copied).
    #[must_use]
    pub fn keep_reads(mut self, yes: bool) -> Self {
        self.keep_reads = yes;
        self
    }

    /// Keeps the bytes of the rule files this discovery reads, for the tools' views that
    /// run after it on the same tree ([`Rulebook::shared_reads`]: `check` runs every tool's
    /// view, and a file discovery read is not read again by them). Off by default: it holds
    /// up to [`SharedReads::DEFAULT_BOUND`] bytes while the book lives; what a view reads
    /// is the same either way.
    #[must_use]
    pub fn share_reads(mut self, yes: bool) -> Self {
        self.share_reads = yes;
        self
    }

    /// Loads providers one after the other instead of in parallel, and every file on the
    /// calling thread ([`LoadContext::one_thread`]): a provider reads a folder of many
    /// files on no helper thread either.
    #[must_use]
    pub fn sequential(mut self, yes: bool) -> Self {
        self.sequential = yes;
        self
    }

    /// The registry these options describe, with the default providers registered.
    /// (A native configuration whose id collides with another provider's is not
    /// registered; build the registry yourself to see that error.)
    pub fn registry(&self) -> RuleRegistry {
        let mut registry = RuleRegistry::new();
        for provider in self.table.providers() {
            let _ = registry.register_boxed(provider);
        }
        for provider in &self.extra {
            let _ = registry.register(Shared(provider.clone()));
        }
        if let Some(allow) = &self.allow {
            registry.allow(allow.iter().cloned());
        }
        registry.deny(self.deny.iter().cloned());
        registry.parallel(!self.sequential);
        registry
    }

    /// The skills registry these options describe: the table's skills providers, with the
    /// same allow and deny lists as the rules.
    pub fn skill_registry(&self) -> Registry<SkillCapability> {
        let mut registry = Registry::<SkillCapability>::new();
        for provider in self.table.skill_providers() {
            let _ = registry.register_boxed(provider);
        }
        if let Some(allow) = &self.allow {
            registry.allow(allow.iter().cloned());
        }
        registry.deny(self.deny.iter().cloned());
        registry.parallel(!self.sequential);
        registry
    }

    /// The load context for a working directory and home under these options: the profile
    /// decides the mechanisms here, once ([`Mechanisms::for_profile`]).
    pub fn load_context(&self, cwd: &Path, home: &Path) -> LoadContext {
        self.load_context_for(&Project::new(cwd, home))
    }

    /// The load context for a project already located ([`Located::project`]).
    pub fn load_context_for(&self, project: &Project) -> LoadContext {
        let mut ctx = LoadContext::for_project(project)
            .profile(self.profile)
            .mechanisms(Mechanisms::for_profile(self.profile))
            .one_thread(self.sequential);
        if let Some(bytes) = self.max_file_size {
            ctx = ctx.max_file_size(bytes);
        }
        if let Some(markers) = &self.root_markers {
            let markers: Vec<&str> = markers.iter().map(String::as_str).collect();
            ctx = ctx.project_root_markers(&markers);
        }
        if let Some(root) = &self.root {
            ctx = ctx.project_root_at(real(&absolute(root)));
        }
        for (provider, key, value) in &self.per_provider {
            ctx = ctx.provider_option(provider, key, value);
        }
        ctx
    }
}

impl<T: ProviderTable> Options<T> {
    /// An error for each provider option that a registered provider does not read, or reads
    /// with other values ([`ProviderMeta::with_options`]), and for each option of a provider
    /// no one knows (a misspelt id); an option of a provider of the table that this build
    /// leaves out ([`ProviderTable::known_ids`]) is no one's here, and passes.
    fn option_errors(&self, registry: &RuleRegistry) -> Vec<Diagnostic> {
        let infos = registry.infos();
        let mut errors = Vec::new();
        for (provider, key, value) in &self.per_provider {
            let Some(info) = infos.iter().find(|i| &i.id == provider) else {
                if self.table.known_ids().contains(&provider.as_str()) {
                    continue;
                }
                let mut known: Vec<&str> = infos.iter().map(|i| i.id.as_str()).collect();
                known.sort_unstable();
                let near = known
                    .iter()
                    .find(|id| near_miss(id, provider))
                    .map_or_else(String::new, |id| format!(" (did you mean `{id}`?)"));
                let d = Diagnostic::new(
                    DiagnosticCode::InvalidOption,
                    format!(
                        "provider option {provider}.{key}={value} is not used: there is no provider `{provider}`{near}; {}",
                        if known.is_empty() {
                            "no provider is registered".to_owned()
                        } else {
                            format!("the providers: {}", known.join(", "))
                        }
                    ),
                );
                errors.push(d);
                continue;
            };
            let why = match registry.check_option(provider, key, value) {
                Ok(()) => continue,
                Err(OptionError::UnknownProvider { .. }) => {
                    format!("`{provider}` takes no options")
                }
                Err(err) => err.to_string(),
            };
            let d = Diagnostic::new(
                DiagnosticCode::InvalidOption,
                format!("provider option {provider}.{key}={value} is not used: {why}"),
            )
            .from_provider(&info.id, &info.display_name);
            errors.push(d);
        }
        errors
    }
}

/// Whether `given` is `known` with at most two letters changed, added or dropped (a typo:
/// `cursr` for `cursor`); ids longer than 64 characters are never near.
fn near_miss(known: &str, given: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (known.chars().collect(), given.chars().collect());
    if a.len() > 64 || b.len() > 64 || a.len().abs_diff(b.len()) > 2 {
        return false;
    }
    // Levenshtein distance, one row at a time.
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()] <= 2
}

/// The rules that apply to one file: [`Rulebook::rules_for_path`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathRules {
    /// Whether the file is under the working directory (only such files match globs).
    pub inside_project: bool,
    /// The rules, in precedence order.
    pub hits: Vec<RuleHit>,
}

/// One rule that applies to a file, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleHit {
    /// The rule's position in [`Rulebook::items`].
    pub position: usize,
    /// The glob that matched; `None` for an always-apply rule, which applies to every file.
    pub glob: Option<String>,
}

/// Where a discovery, or a tool's own view, starts: the working directory and the user's
/// home as discovery takes them (absolute; under Extended their real paths, under Reference
/// `.` and `..` resolved lexically; the home, when none is given, the user's), and what
/// is wrong with them. A caller that needs only these (a tool's view, `compare`) locates
/// the project without discovering its rules.
///
/// ```
/// use rulebook_discover::Located;
/// use rulebook_rule::Profile;
///
/// let dir = tempfile::tempdir().unwrap();
/// let here = Located::new(dir.path().join("."), Some(dir.path()), Profile::Extended);
/// assert_eq!(here.cwd, std::fs::canonicalize(dir.path()).unwrap());
/// assert_eq!(here.cwd, here.home);
/// assert!(here.diagnostics.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Located {
    /// The working directory.
    pub cwd: PathBuf,
    /// The user's home directory (empty when there is none).
    pub home: PathBuf,
    /// A working directory or a named home that is not a directory.
    pub diagnostics: Vec<Diagnostic>,
    /// The two, with the repository around them, located once for every view.
    pub project: Project,
}

impl Located {
    /// `cwd` and `home` (the user's when `None`) as [`Rulebook::discover`] takes them under
    /// `profile`.
    pub fn new(cwd: impl AsRef<Path>, home: Option<impl AsRef<Path>>, profile: Profile) -> Self {
        let (cwd, home, diagnostics) = directories(
            cwd.as_ref(),
            home.map(|h| h.as_ref().to_path_buf()),
            profile,
        );
        Self {
            project: Project::new(&cwd, &home),
            cwd,
            home,
            diagnostics,
        }
    }
}

/// The result of discovery: every rule, its fate, the TTSR manager, and the warnings.
#[derive(Debug)]
pub struct Rulebook {
    profile: Profile,
    cwd: PathBuf,
    home: PathBuf,
    loaded: Loaded<Rule>,
    partition: Partition,
    ttsr: TtsrManager,
    diagnostics: Vec<Diagnostic>,
    providers: Vec<ProviderInfo>,
    globs: OnceLock<(GlobIndex, Vec<Diagnostic>)>,
    /// The resolvable positions in `items`, and the `rule://` index over them.
    urls: OnceLock<(Vec<usize>, UrlIndex)>,
    /// Whether every path of every rule and finding is plain ([`files::plain`]): their
    /// bytes then compare as their components do.
    plain_paths: OnceLock<bool>,
    /// Every skill loaded, with its fate (behaviour.md §14).
    skills: Loaded<Skill>,
    /// The registered skills providers in load order.
    skill_providers: Vec<ProviderInfo>,
    /// The real project root that project files must lie under (Extended E10), for the
    /// files read after discovery (a skill's `SKILL.md`).
    boundary: Option<PathBuf>,
    /// The directories discovery was given, as given (for [`Rulebook::rediscover`]).
    given: Given,
    /// The project discovery read, located once (for the views run beside it).
    project: Project,
    /// The walk below the working directory, when one was made.
    walk: Option<Walk>,
    /// How each rule file was loaded, when the options kept it ([`Options::keep_reads`]).
    memo: Option<ReadMemo>,
    /// The bytes of the files discovery read, when the options kept them
    /// ([`Options::share_reads`]).
    shared_reads: Option<std::sync::Arc<SharedReads>>,
}

/// New texts and frontmatters for rules of one book, read from the files that changed
/// ([`Rulebook::content_update`], [`Rulebook::file_update`]).
#[derive(Debug)]
pub struct ContentUpdate {
    memo: ReadMemo,
    /// Each rule's position in the book, its text, and its new text.
    rules: Vec<(usize, std::sync::Arc<str>, std::sync::Arc<str>)>,
    /// Each file loaded again, and its loads.
    loads: Vec<(PathBuf, rulebook_registry::Reloaded)>,
    /// Rules whose frontmatter changed: the rule's position in the book and among the
    /// active rules, its text, the new rule and its placement.
    reshaped: Vec<(usize, usize, std::sync::Arc<str>, Rule, Placement)>,
    /// The loads of the files loaded again to reshape rules, for the book's memo.
    reshaped_loads: Option<ReadMemo>,
    /// Whether a reshaped rule goes to another bucket (the order `rule://` resolves in
    /// changes).
    moves: bool,
}

impl ContentUpdate {
    /// Each text replaced, and the text that replaces it (one pair a rule of the book).
    pub fn replaced(
        &self,
    ) -> impl Iterator<Item = (&std::sync::Arc<str>, &std::sync::Arc<str>)> + '_ {
        self.rules.iter().map(|(_, old, new)| (old, new))
    }

    /// Each rule whose frontmatter changed, by the text it had, and the rule it becomes.
    pub fn reshaped(&self) -> impl Iterator<Item = (&std::sync::Arc<str>, &Rule)> + '_ {
        self.reshaped.iter().map(|(_, _, old, rule, _)| (old, rule))
    }

    /// Whether a rule goes to another bucket: the rules `rule://` resolves, and their
    /// order, change (a rule made always-apply, say).
    pub fn moves(&self) -> bool {
        self.moves
    }

    /// Whether no rule changes (the files were saved as they were).
    pub fn is_empty(&self) -> bool {
        self.rules.iter().all(|(_, old, new)| old == new) && self.reshaped.is_empty()
    }
}

/// The directories [`Rulebook::discover`] was given.
#[derive(Debug, Clone, Default)]
struct Given {
    cwd: PathBuf,
    home: Option<PathBuf>,
}

/// One walk below the working directory (E11) and what it said, kept for
/// [`Rulebook::rediscover`].
#[derive(Debug, Clone)]
struct Walk {
    by_name: std::sync::Arc<std::collections::BTreeMap<String, Vec<PathBuf>>>,
    diagnostics: Vec<Diagnostic>,
}

impl Rulebook {
    /// Discovers the rules for `cwd`, with `home` (`None`: the user's home directory),
    /// under `options` (profile, providers, limits). Never fails: an unreadable source, a
    /// working directory or home that does not exist, are diagnostics.
    ///
    /// This is the one entry point; [`Rulebook::discover_in`] is the lower level for a
    /// registry and load context built by hand.
    ///
    /// ```
    /// use rulebook_discover::{NoProviders, Options, Rulebook};
    ///
    /// let dir = tempfile::tempdir().unwrap();
    /// // The user's own home:
    /// let book = Rulebook::discover(dir.path(), None, &Options::<NoProviders>::default());
    /// assert!(book.all().is_empty());
    /// // A home of the caller's choosing:
    /// let home = dir.path().join("home");
    /// let book = Rulebook::discover(dir.path(), Some(&home), &Options::<NoProviders>::default());
    /// assert_eq!(book.home(), home.as_path());
    /// ```
    pub fn discover<T: ProviderTable>(
        cwd: impl AsRef<Path>,
        home: Option<&Path>,
        options: &Options<T>,
    ) -> Self {
        let given = Given {
            cwd: cwd.as_ref().to_path_buf(),
            home: home.map(Path::to_path_buf),
        };
        Self::discover_given(given, options, None)
    }

    /// Discovers again, for the directories this book was discovered for, under `options`,
    /// reusing this book's walk of the directories below the working directory (E11)
    /// instead of walking them again.
    ///
    /// The result is [`Rulebook::discover`]'s when files changed their content and no file
    /// or directory came, went or was renamed since this book (what a watcher that saw
    /// only writes to files already read knows): the rules are read again, the tree is
    /// not. After any other change, discover anew.
    #[must_use]
    pub fn rediscover<T: ProviderTable>(&self, options: &Options<T>) -> Self {
        Self::discover_given(self.given.clone(), options, self.walk.as_ref())
    }

    /// The rules of this book after the files `changed` changed their text alone, to be
    /// put in place with [`Rulebook::apply_content_update`]: each file is loaded again as
    /// the book loaded it, and the update is made only when every one of them gives the
    /// same rule with a new text (frontmatter, fields and findings the same:
    /// [`Rule::shape_fingerprint`]), its provider never looks at a rule's text once loaded
    /// ([`FileLoader::content_blind`]), and the rule is not a TTSR trigger (the trigger
    /// registry holds its text). `None` otherwise,
    /// or when the book kept no reads ([`Options::keep_reads`]), or a file of `changed`
    /// was not loaded (it may be new): discover again then ([`Rulebook::rediscover`] after
    /// writes to files already read, [`Rulebook::discover`] after any other change).
    ///
    /// This reads only the changed files and changes no rule's place: a server serving
    /// 100,000 rules answers a save in the time of one file's read, not of a discovery.
    ///
    /// [`FileLoader::content_blind`]: rulebook_kit::FileLoader::content_blind
    pub fn content_update(&self, changed: &[PathBuf]) -> Option<ContentUpdate> {
        use std::sync::Arc;
        let memo = self.memo.as_ref()?;
        let mut update = ContentUpdate {
            memo: memo.clone(),
            rules: Vec::new(),
            loads: Vec::new(),
            reshaped: Vec::new(),
            reshaped_loads: None,
            moves: false,
        };
        let mut seen = std::collections::HashSet::new();
        for path in changed.iter().filter(|p| seen.insert(p.as_path())) {
            for reloaded in memo.reload(path)? {
                if reloaded.old.diagnostics != reloaded.new.diagnostics {
                    return None;
                }
                match (&reloaded.old.rule, &reloaded.new.rule) {
                    (None, None) => {}
                    (Some((old_shape, old)), Some((new_shape, new))) if old_shape == new_shape => {
                        // The book's rules of this load hold its text itself: a provider
                        // that rewrote it (or dropped the rule) is not updated in place,
                        // nor is a TTSR trigger (the trigger registry holds its text).
                        let at: Vec<usize> = self
                            .loaded
                            .all
                            .iter()
                            .enumerate()
                            .filter(|(_, e)| Arc::ptr_eq(&e.item.content, old))
                            .map(|(i, _)| i)
                            .collect();
                        let ttsr = at.iter().any(|&i| {
                            let rule = &self.loaded.all[i].item;
                            !rule.condition.is_empty() || rule.ttsr_trigger.is_some()
                        });
                        if at.is_empty() || ttsr {
                            return None;
                        }
                        update.rules.extend(
                            at.into_iter()
                                .map(|i| (i, Arc::clone(old), Arc::clone(new))),
                        );
                    }
                    _ => return None,
                }
                update.loads.push((path.clone(), reloaded));
            }
        }
        Some(update)
    }

    /// Puts `update` ([`Rulebook::content_update`]) in place: the rules' texts are
    /// replaced, and the reads kept follow. `false` (nothing changed) when the update was
    /// made for another book.
    pub fn apply_content_update(&mut self, update: ContentUpdate) -> bool {
        if self.memo.as_ref() != Some(&update.memo) {
            return false;
        }
        for (i, _, text) in update.rules {
            if let Some(entry) = self.loaded.all.get_mut(i) {
                entry.item.content = text;
            }
        }
        for (path, reloaded) in &update.loads {
            update.memo.replace(path, reloaded);
        }
        if !update.reshaped.is_empty() {
            for (i, active, _, rule, placement) in update.reshaped {
                if let (Some(entry), Some(place)) = (
                    self.loaded.all.get_mut(i),
                    self.partition.placements.get_mut(active),
                ) {
                    entry.item = rule;
                    *place = placement;
                }
            }
            // The globs' index, and after a move the `rule://` index, are built again
            // when asked for.
            self.globs = OnceLock::new();
            if update.moves {
                self.urls = OnceLock::new();
            }
        }
        if let Some(loads) = &update.reshaped_loads {
            update.memo.absorb(loads);
        }
        true
    }

    /// As [`Rulebook::content_update`], for files whose rule changed more than its text:
    /// each file's providers are run again on that file alone ([`LoadContext::only`]), and
    /// the update is made when every rule keeps its name and its file, is valid, is no TTSR
    /// trigger before or after, and its findings are the same (a description or globs
    /// edited, `alwaysApply` set: [`ContentUpdate::moves`] says whether one changed
    /// bucket). The providers must be content-blind ([`FileLoader::content_blind`]): what
    /// they make of one file does not depend on another. A text alone changed is updated as
    /// [`Rulebook::content_update`] does. `options` are the ones the book was discovered
    /// with (`None` for another profile). `None` otherwise: discover again then.
    ///
    /// [`FileLoader::content_blind`]: rulebook_kit::FileLoader::content_blind
    pub fn file_update<T: ProviderTable>(
        &self,
        options: &Options<T>,
        changed: &[PathBuf],
    ) -> Option<ContentUpdate> {
        use rulebook_registry::Capability;
        use std::sync::Arc;
        if let Some(update) = self.content_update(changed) {
            return Some(update);
        }
        if options.profile != self.profile {
            return None;
        }
        let memo = self.memo.as_ref()?;
        let mut paths: Vec<&PathBuf> = changed.iter().collect();
        paths.sort();
        paths.dedup();
        // Each file: its one rule in the book, active, of a content-blind provider.
        let mut targets = Vec::with_capacity(paths.len());
        for &path in &paths {
            if !memo.reloadable(path) {
                return None;
            }
            let mut at = self
                .loaded
                .all
                .iter()
                .enumerate()
                .filter(|(_, e)| e.item.path == *path);
            let (i, entry) = at.next()?;
            if at.next().is_some() || entry.status != Status::Active {
                return None;
            }
            let active = self.loaded.active.binary_search(&i).ok()?;
            targets.push((path, i, active, entry));
        }
        let fresh = ReadMemo::default();
        let mut ctx = options
            .load_context(&self.cwd, &self.home)
            .memo(fresh.clone())
            .only(paths.iter().map(|p| (*p).clone()));
        if let Some(walk) = &self.walk {
            ctx = ctx.nested_shared(Arc::clone(&walk.by_name));
        }
        let registry = options.registry();
        let mut providers: Vec<&str> = targets.iter().map(|t| t.3.provider.as_str()).collect();
        providers.sort_unstable();
        providers.dedup();
        let mut loads = Vec::new();
        for id in providers {
            let provider = registry.provider(id)?;
            let name = provider.info().display_name();
            let result = provider.load(&ctx).ok()?;
            let diagnostics: Vec<Diagnostic> = result
                .diagnostics
                .into_iter()
                .map(|d| d.from_provider(id, name))
                .collect();
            loads.push((id, result.items, diagnostics));
        }
        let mut update = ContentUpdate {
            memo: memo.clone(),
            rules: Vec::new(),
            loads: Vec::new(),
            reshaped: Vec::new(),
            reshaped_loads: Some(fresh),
            moves: false,
        };
        for (path, i, active, entry) in targets {
            let (_, items, diagnostics) = loads.iter().find(|(id, _, _)| *id == entry.provider)?;
            let mut made = items.iter().filter(|r| r.path == *path);
            let rule = made.next()?;
            let old = &entry.item;
            let trigger = |r: &Rule| !r.condition.is_empty() || r.ttsr_trigger.is_some();
            if made.next().is_some()
                || rule.name != old.name
                || rule.source != old.source
                || trigger(rule)
                || trigger(old)
                || RuleCapability::validate(rule).is_err()
            {
                return None;
            }
            let said = |d: &&Diagnostic| {
                d.path.as_deref() == Some(path.as_path())
                    && d.provider_id.as_deref() == Some(entry.provider.as_str())
            };
            let before: Vec<&Diagnostic> = self.diagnostics.iter().filter(said).collect();
            let now: Vec<&Diagnostic> = diagnostics.iter().filter(said).collect();
            if before != now {
                return None;
            }
            let placement = partition(std::iter::once(rule), self.profile, |_| {
                Err(Rejection::DuplicateName)
            })
            .placements
            .pop()?;
            update.moves |= placement.bucket != self.partition.placements.get(active)?.bucket;
            update
                .reshaped
                .push((i, active, Arc::clone(&old.content), rule.clone(), placement));
        }
        Some(update)
    }

    fn discover_given<T: ProviderTable>(
        given: Given,
        options: &Options<T>,
        walked: Option<&Walk>,
    ) -> Self {
        let memo = options.keep_reads.then(ReadMemo::default);
        let registry = options.registry();
        let (cwd, home, mut checks) = directories(&given.cwd, given.home.clone(), options.profile);
        let mut walk = None;
        let mut ctx = options.load_context(&cwd, &home);
        // E11: one walk below the working directory for every provider's nested names.
        // `/` or the home directory, outside any repository, is
        // no project: walking it for nested rules would read the whole disk. Said, skipped.
        let not_a_project = ctx.repo_root.is_none()
            && (cwd.parent().is_none() || (!home.as_os_str().is_empty() && cwd == home));
        if ctx.mechanisms.project_chain && !options.no_descendants && not_a_project {
            checks.push(
                Diagnostic::new(
                    DiagnosticCode::WalkFailed,
                    format!(
                        "{} is {} and in no repository, not a project: the directories below it are not searched for nested rules (run rulebook in a project, or give one with -C)",
                        cwd.display(),
                        if cwd.parent().is_none() {
                            "the file system root"
                        } else {
                            "the home directory"
                        }
                    ),
                )
                .with_path(&cwd),
            );
        } else if ctx.mechanisms.project_chain && !options.no_descendants && cwd.is_dir() {
            let done = walked.cloned().unwrap_or_else(|| {
                let found = rulebook_kit::fs::find_named(&cwd, &registry.nested_names());
                Walk {
                    by_name: std::sync::Arc::new(found.by_name),
                    diagnostics: found.diagnostics,
                }
            });
            checks.extend(done.diagnostics.iter().cloned());
            ctx = ctx.nested_shared(std::sync::Arc::clone(&done.by_name));
            walk = Some(done);
        }
        checks.extend(options.option_errors(&registry));
        if let Some(memo) = &memo {
            ctx = ctx.memo(memo.clone());
        }
        // A store of this run's own: bytes kept by another run may be stale.
        let shared_reads = options
            .share_reads
            .then(|| std::sync::Arc::new(SharedReads::default()));
        if let Some(shared) = &shared_reads {
            ctx = ctx.share_reads(std::sync::Arc::clone(shared));
        }
        let skill_registry = options.skill_registry();
        let skills = skill_registry.load(&ctx);
        let mut book = Self::discover_in(ctx, &registry)
            .with_skills(skills, skill_registry.infos())
            .with_leading_diagnostics(checks);
        book.given = given;
        book.walk = walk;
        book.memo = memo;
        book.shared_reads = shared_reads;
        if book.memo.is_some() {
            // A book that keeps its reads is one a caller updates in place: whether its
            // paths are plain is asked at its first update, and is known now.
            let _ = book.plain_paths();
        }
        book
    }

    /// Adds the skills loaded for the same run; their diagnostics follow the rules'.
    fn with_skills(mut self, mut skills: Loaded<Skill>, providers: Vec<ProviderInfo>) -> Self {
        self.diagnostics.append(&mut skills.diagnostics);
        self.skills = skills;
        self.skill_providers = providers;
        self
    }

    /// Puts `diagnostics` (about the directories discovery was given) before the others.
    fn with_leading_diagnostics(mut self, mut diagnostics: Vec<Diagnostic>) -> Self {
        if !diagnostics.is_empty() {
            diagnostics.append(&mut self.diagnostics);
            self.diagnostics = diagnostics;
        }
        self
    }

    /// Discovers with a registry and a load context of your own.
    pub fn discover_in(ctx: LoadContext, registry: &RuleRegistry) -> Self {
        let profile = ctx.profile;
        let mut loaded = registry.load(&ctx);
        let project = ctx.project();
        let LoadContext {
            cwd,
            home,
            project_root,
            mechanisms,
            ..
        } = ctx;
        let (cwd_given, home_given) = (cwd.clone(), home.clone());
        // Where a project skill's files must really lie when they are read later (E10).
        let boundary = mechanisms
            .project_boundary
            .then(|| std::fs::canonicalize(&project_root).unwrap_or(project_root));
        let mut ttsr = TtsrManager::new();
        let mut partition = partition(loaded.items(), profile, |rule| {
            ttsr.register(TtsrRule::from_rule(rule))
                .map(|registration| {
                    registration
                        .dropped
                        .into_iter()
                        .map(|e| Box::new(e) as rulebook_partition::TriggerError)
                        .collect()
                })
                .map_err(|e| match e {
                    RegisterError::DuplicateName(_) => Rejection::DuplicateName,
                    other => Rejection::InvalidCondition(Box::new(other)),
                })
        });
        // Moved, not copied: the book keeps one list of every diagnostic.
        let mut diagnostics = std::mem::take(&mut loaded.diagnostics);
        diagnostics.append(&mut partition.diagnostics);
        Self {
            profile,
            cwd,
            home,
            loaded,
            partition,
            ttsr,
            diagnostics,
            providers: registry.infos(),
            globs: OnceLock::new(),
            urls: OnceLock::new(),
            plain_paths: OnceLock::new(),
            skills: Loaded {
                all: Vec::new(),
                active: Vec::new(),
                diagnostics: Vec::new(),
                providers: Vec::new(),
            },
            skill_providers: Vec::new(),
            boundary,
            given: Given {
                cwd: cwd_given,
                home: Some(home_given),
            },
            project,
            walk: None,
            memo: None,
            shared_reads: None,
        }
    }

    /// The skills a tool would list, in the original's order: by name in lower case, then
    /// as written, then by path (behaviour.md §14).
    pub fn skills(&self) -> Vec<&Skill> {
        let mut skills: Vec<&Skill> = self.skills.items().collect();
        skills.sort_by(|a, b| {
            a.name
                .to_lowercase()
                .cmp(&b.name.to_lowercase())
                .then_with(|| a.name.cmp(&b.name))
                .then_with(|| a.path.cmp(&b.path))
        });
        skills
    }

    /// Every skill loaded, in provider order, with its fate (active, shadowed by a skill of
    /// the same name, the same file as another, invalid).
    pub fn all_skills(&self) -> &[Entry<Skill>] {
        &self.skills.all
    }

    /// The active skill named `name`.
    pub fn skill(&self, name: &str) -> Option<&Skill> {
        self.skills.items().find(|s| s.name == name)
    }

    /// The registered skills providers in load order.
    pub fn skill_providers(&self) -> &[ProviderInfo] {
        &self.skill_providers
    }

    /// The profile discovery ran under.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The working directory (absolute).
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The home directory (absolute).
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// The project discovery read, located once: the views of the tools run beside this
    /// book take it (`HostOptions::for_project`) instead of looking for its root again.
    pub fn project(&self) -> &Project {
        &self.project
    }

    /// The bytes of the rule files this discovery read, when its options kept them
    /// ([`Options::share_reads`]), for the views that read the same tree after it.
    pub fn shared_reads(&self) -> Option<&std::sync::Arc<SharedReads>> {
        self.shared_reads.as_ref()
    }

    /// The registered providers in load order.
    pub fn providers(&self) -> &[ProviderInfo] {
        &self.providers
    }

    /// The ids of providers that loaded at least one rule.
    pub fn contributing_providers(&self) -> &[String] {
        &self.loaded.providers
    }

    /// The active rules (deduplicated, valid), in precedence order.
    pub fn items(&self) -> impl ExactSizeIterator<Item = &Rule> + '_ {
        self.loaded.items()
    }

    /// Every rule file that loaded, with what became of it in the registry.
    pub fn all(&self) -> &[Entry<Rule>] {
        &self.loaded.all
    }

    /// The rules that lost a name clash, each with the rule that won.
    pub fn shadowed(&self) -> impl Iterator<Item = (&Rule, &Rule)> + '_ {
        self.loaded.shadowed().map(|(l, w)| (&l.item, &w.item))
    }

    /// The rules that failed validation, with the reason.
    pub fn invalid(&self) -> impl Iterator<Item = (&Rule, &str)> + '_ {
        self.loaded.invalid().map(|(e, r)| (&e.item, r))
    }

    /// The active rules with their placement, in precedence order.
    pub fn placements(&self) -> impl Iterator<Item = (&Rule, &Placement)> + '_ {
        self.loaded.items().zip(&self.partition.placements)
    }

    /// The rules of one bucket, in precedence order.
    pub fn bucket(&self, bucket: RuleBucket) -> Vec<&Rule> {
        self.placements()
            .filter(|(_, p)| p.bucket == Some(bucket))
            .map(|(r, _)| r)
            .collect()
    }

    /// The placement of the entry `index` of [`Rulebook::all`]; `None` for a shadowed or
    /// invalid entry.
    pub fn entry_placement(&self, index: usize) -> Option<&Placement> {
        let position = self.loaded.active.binary_search(&index).ok()?;
        self.partition.placements.get(position)
    }

    /// Every loaded file, in [`Rulebook::all`]'s order, with what became of it: the one
    /// join of the registry's statuses and the partition's placements (`explain`, the MCP
    /// server and `check` all read fates from here).
    pub fn files(&self) -> impl ExactSizeIterator<Item = FileFate<'_>> + '_ {
        // The registry's active entries are exactly those of status `Active`, in `all`'s
        // order, and the partition placed each of them: the n-th active entry of this walk
        // is position n.
        let mut position = 0;
        self.loaded
            .all
            .iter()
            .enumerate()
            .map(move |(index, entry)| {
                let fate = match &entry.status {
                    Status::Shadowed { by } => Fate::Shadowed { by: *by },
                    Status::SameFile { by } => Fate::SameFile { by: *by },
                    Status::Invalid { reason } => Fate::Invalid { reason },
                    Status::Active => {
                        position += 1;
                        Fate::Active {
                            position: position - 1,
                            placement: &self.partition.placements[position - 1],
                        }
                    }
                };
                FileFate {
                    index,
                    rule: &entry.item,
                    fate,
                }
            })
    }

    /// The placement of an active rule's position among [`Rulebook::items`].
    pub fn placement(&self, position: usize) -> Option<&Placement> {
        self.partition.placements.get(position)
    }

    /// The active rules in no bucket, with the reason.
    pub fn unbucketed(&self) -> impl Iterator<Item = (&Rule, &str)> + '_ {
        self.placements()
            .filter_map(|(r, p)| p.reason.as_deref().map(|reason| (r, reason)))
    }

    /// Every warning: the providers' (prefixed with their display names), the registry's,
    /// and refused TTSR registrations. Never swallowed (behaviour.md S9.4).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The rules `rule://` resolves, in resolution order: rulebook, then always-apply, then
    /// (Extended E5) TTSR and manual rules.
    pub fn resolvable(&self) -> Vec<&Rule> {
        self.resolvable_positions()
            .into_iter()
            .map(|i| self.item(i))
            .collect()
    }

    fn resolvable_positions(&self) -> Vec<usize> {
        self.partition.resolvable(self.profile == Profile::Extended)
    }

    /// The active rule at `position` in [`Rulebook::items`].
    fn item(&self, position: usize) -> &Rule {
        &self.loaded.all[self.loaded.active[position]].item
    }

    /// Resolves a `rule://<name>` URL (behaviour.md §9): exact name, first in resolution order
    /// ([`Rulebook::resolvable`]). Constant time after the first call.
    pub fn resolve(&self, url: &str) -> Result<Resource, ProtocolError> {
        let positions = self.urls.get_or_init(|| {
            let positions = self.resolvable_positions();
            let index = UrlIndex::new(positions.iter().map(|&i| self.item(i)));
            (positions, index)
        });
        let (positions, index) = positions;
        index
            .position(url)
            .map(|i| Resource::from_rule(self.item(positions[i])))
    }

    /// Extended E6: completions for a name prefix (with or without `rule://`) among the
    /// rules `rule://` resolves.
    pub fn complete(&self, prefix: &str) -> Vec<Completion> {
        rulebook_protocol::complete(prefix, self.resolvable())
    }

    fn glob_index(&self) -> &(GlobIndex, Vec<Diagnostic>) {
        self.globs.get_or_init(|| GlobIndex::new(self.items()))
    }

    /// Extended E3: the active rules whose globs match any of `paths` (relative to the
    /// working directory, or absolute under it), in precedence order, each with the glob
    /// that matched. Paths outside the working directory never match.
    pub fn applicable<I, P>(&self, paths: I) -> Vec<Applicable>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        self.glob_index().0.applicable(&self.cwd, paths)
    }

    /// Extended E3: the active rules whose globs match one path, in precedence order, each
    /// with the first of its globs that matched.
    pub fn matches(&self, path: impl AsRef<Path>) -> Vec<PathMatch> {
        self.glob_index().0.matches(&self.cwd, path)
    }

    /// Warnings about globs that do not compile (computed on first use of globs).
    pub fn glob_diagnostics(&self) -> &[Diagnostic] {
        &self.glob_index().1
    }

    /// The system-prompt text (behaviour.md §8): the skills block (§14), always-apply
    /// contents, then the rules section.
    pub fn system_prompt_section(&self) -> String {
        self.system_prompt_section_for::<[&Path; 0], &Path>([])
    }

    /// The system-prompt text with, in Extended (E3), the rules whose globs match `paths`
    /// attached in full after the always-apply contents. TTSR, always-apply and manual
    /// rules are never attached. In Reference, `paths` are ignored.
    pub fn system_prompt_section_for<I, P>(&self, paths: I) -> String
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        self.render_with(paths, rulebook_prompt::section_for(self.profile))
    }

    /// As [`Rulebook::system_prompt_section_for`], with your own section wording.
    pub fn render_with<I, P>(&self, paths: I, section: &dyn SectionRenderer) -> String
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let always: Vec<AlwaysApplied<'_>> = self
            .bucket(RuleBucket::AlwaysApply)
            .into_iter()
            .map(|rule| AlwaysApplied {
                rule,
                source: self.display_path(&rule.path),
            })
            .collect();
        let rulebook = self.bucket(RuleBucket::Rulebook);
        let placements = &self.partition.placements;
        let mut paths = paths.into_iter().peekable();
        // No paths, nothing to attach: do not build the glob index (nor the list of the
        // rules) for nothing.
        let attached: Vec<Attached<'_>> =
            if self.profile == Profile::Extended && paths.peek().is_some() {
                let items: Vec<&Rule> = self.items().collect();
                self.applicable(paths)
                    .into_iter()
                    .filter(|a| rulebook_partition::attachable(items[a.rule], &placements[a.rule]))
                    .map(|a| {
                        let rule = items[a.rule];
                        let glob = rule
                            .globs
                            .as_deref()
                            .and_then(|g| g.iter().find(|g| **g == a.glob))
                            .map_or("", String::as_str);
                        Attached { rule, glob }
                    })
                    .collect()
            } else {
                Vec::new()
            };
        // Extended: a skill for a person to invoke is not offered to the model, as the
        // tools that read `disable-model-invocation` do; it is still served by `skill://`.
        let mut skills = self.skills();
        if self.profile == Profile::Extended {
            skills.retain(|s| !s.model_invocation_disabled());
        }
        rulebook_prompt::render_with_skills(&skills, &always, &attached, &rulebook, section)
    }

    /// `path` as a person names it ([`rulebook_rule::show_path`]): relative to the working
    /// directory when under it, `~/…` under the home, `../…` above the working directory,
    /// else whole.
    pub fn display_path(&self, path: &Path) -> String {
        rulebook_rule::show_path(path, &self.cwd, &self.home)
    }

    /// The rules that apply to one file (Extended E3, as `rulebook match` and the MCP tool
    /// `rules_for_paths` report them): every always-apply rule, then the rules whose globs
    /// match it, in precedence order. An absolute `path` is resolved to its real path where
    /// it exists, so a symlinked or `..`-spelled path inside the project is inside it; a
    /// relative path is relative to the working directory.
    pub fn rules_for_path(&self, path: impl AsRef<Path>) -> PathRules {
        let path = path.as_ref();
        let path = if path.is_absolute() {
            real(path)
        } else {
            path.to_path_buf()
        };
        let always = |position: usize| {
            self.placement(position)
                .is_some_and(|p| p.bucket == Some(RuleBucket::AlwaysApply))
        };
        let mut hits: Vec<RuleHit> = (0..self.items().len())
            .filter(|&position| always(position))
            .map(|position| RuleHit {
                position,
                glob: None,
            })
            .collect();
        for m in self.matches(&path) {
            if !always(m.rule) {
                hits.push(RuleHit {
                    position: m.rule,
                    glob: Some(m.glob),
                });
            }
        }
        hits.sort_by_key(|h| h.position);
        PathRules {
            inside_project: GlobIndex::relative(&self.cwd, &path).is_some(),
            hits,
        }
    }

    /// Where `rule` applies, when not everywhere in the project (E11), in words: a rule of
    /// a nested rule directory "applies under apps/api/"; a rule of an ancestor directory
    /// has "globs relative to ../". `None` for the working directory's own rules.
    pub fn scope(&self, rule: &Rule) -> Option<String> {
        if let Some(root) = &rule.glob_root {
            if root != &self.cwd {
                let shown = if self.cwd.starts_with(root) {
                    let up = self
                        .cwd
                        .strip_prefix(root)
                        .map_or(0, |r| r.components().count());
                    vec![".."; up].join("/")
                } else {
                    self.display_path(root)
                };
                return Some(format!("globs relative to {shown}/"));
            }
        }
        // A rule file below the working directory in a directory of its own (`apps/api/`
        // of `apps/api/.cursor/rules/x.mdc` or of `apps/api/AGENTS.md`): the directories
        // before the first hidden one, the file name left out.
        let rel = rule.path.strip_prefix(&self.cwd).ok()?;
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let mut dirs: Vec<&str> = parts
            .iter()
            .map(String::as_str)
            .take_while(|c| !c.starts_with('.'))
            .collect();
        if dirs.len() == parts.len() {
            dirs.pop();
        }
        if dirs.is_empty() {
            return None;
        }
        Some(format!("applies under {}/", dirs.join("/")))
    }

    /// A diagnostic's message as a person reads it: the files it names (absolutely) shown
    /// as [`Rulebook::display_path`] shows them.
    pub fn display_message(&self, message: &str) -> String {
        rulebook_rule::show_paths_in(message, &self.cwd, &self.home)
    }

    /// The TTSR manager, with every TTSR rule registered.
    pub fn ttsr(&self) -> &TtsrManager {
        &self.ttsr
    }

    /// The TTSR manager, to feed the stream.
    pub fn ttsr_mut(&mut self) -> &mut TtsrManager {
        &mut self.ttsr
    }
}

/// The working directory and home discovery runs with: absolute, and resolved to their real
/// paths where they exist (so `x/../y` and a symlinked working directory name the same
/// files the walk finds, and paths compare as the files they are), with a warning for a
/// working directory, or a home the caller named, that is not a directory.
/// The working and home directories discovery runs in, absolute. Extended resolves links
/// (a project reached through a link is the same project, its paths real); Reference keeps
/// the working directory as given, `.` and `..` resolved, as the original's `path.join`
/// does (it reports `project/link/...`).
fn directories(
    cwd: &Path,
    home: Option<PathBuf>,
    profile: Profile,
) -> (PathBuf, PathBuf, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let given = absolute(cwd_or_dot(cwd));
    let cwd = match profile {
        Profile::Extended => real(&given),
        Profile::Reference => rulebook_kit::fs::normalize_lexically(&given),
    };
    if !cwd.is_dir() {
        diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::MissingDirectory,
                format!(
                    "The working directory {} is not a directory; no project rules are read",
                    cwd.display()
                ),
            )
            .with_path(&cwd),
        );
    }
    let named = home.is_some();
    let home = real(&absolute(&home.or_else(dirs::home_dir).unwrap_or_default()));
    if named && !home.is_dir() {
        diagnostics.push(Diagnostic::new(
            DiagnosticCode::MissingDirectory,
            format!(
                "The home directory {} is not a directory; no user-level rules are read",
                home.display()
            ),
        ));
    }
    (cwd, home, diagnostics)
}

/// The real path of `path` where it exists, else `path` with `.` and `..` resolved lexically.
fn real(path: &Path) -> PathBuf {
    if path.as_os_str().is_empty() {
        return PathBuf::new();
    }
    std::fs::canonicalize(path).unwrap_or_else(|_| rulebook_kit::fs::normalize_lexically(path))
}

/// `path` made absolute against the process's directory (links are not resolved); an
/// empty path stays empty (an unknown home) — callers turn an empty cwd into `.` first.
fn absolute(path: &Path) -> PathBuf {
    if path.as_os_str().is_empty() {
        return PathBuf::new();
    }
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn cwd_or_dot(path: &Path) -> &Path {
    if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    }
}
