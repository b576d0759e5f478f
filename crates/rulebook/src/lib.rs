//! rulebook: honour the rules people already wrote for their coding tools.
//!
//! [`Rulebook::discover`] runs the whole pipeline for a working directory and a home:
//! the default providers (native `.xcsh`, Cursor, Windsurf, Cline; each a cargo feature)
//! load rule files into one [`Rule`] shape, the [`Registry`] orders them by priority and
//! deduplicates them by name, and the partition stage places every rule in a bucket:
//! TTSR (registered with the [`TtsrManager`]), always-apply, rulebook, or (Extended)
//! manual, or in none, with the reason. Nothing here prints: every problem is a
//! [`Diagnostic`] in [`Rulebook::diagnostics`].
//!
//! ```no_run
//! use rulebook::{Options, Rulebook, RuleBucket};
//!
//! let book = Rulebook::discover("/path/to/project", None, &Options::default());
//! for rule in book.bucket(RuleBucket::Rulebook) {
//!     println!("{}: {}", rule.name, rule.description.as_deref().unwrap_or(""));
//! }
//! for warning in book.diagnostics() {
//!     eprintln!("warning: {warning}");
//! }
//! ```
//!
//! # Profiles
//! [`Profile::Reference`] reproduces the seeds' pipeline exactly, known gaps included;
//! [`Profile::Extended`] (the default) closes them:
//!
//! | | Reference does | Extended does | why |
//! |---|---|---|---|
//! | E1 legacy files | ignores `.cursorrules`, `.windsurfrules` | reads them (names `cursorrules`, `windsurfrules`); whole-file sources (these, a `.clinerules` file, `global_rules.md`) are always-apply unless their frontmatter sets `alwaysApply` | the provider descriptions promise them, and those tools apply such files to every request |
//! | E2 Windsurf `trigger:` | ignored | `always_on` → always-apply; `model_decision` → rulebook; `glob` → auto-attached by globs; `manual` → only through `rule://` | it is how Windsurf says when a rule applies |
//! | E3 globs | listed in the prompt, never matched | glob matching (`rulebook-match`): rules whose globs match given paths, auto-attached in the prompt | behaviour.md S9.2: globs were never enforced |
//! | E4 broken YAML | line parser: every value a string (so `alwaysApply: false` is the string `"false"`, dropped) | quotes only the values YAML misread (`*.ts`, `a: b`, `@x`, `"\."`) and re-parses, keeping other types; a `globs` string is split on commas (outside braces) | Cursor writes `globs: *.ts,*.tsx` unquoted; the other keys should not be lost with it |
//! | E5 `rule://` | rulebook and always-apply rules | also TTSR rules (and manual rules) | behaviour.md S9.3: a TTSR rule's body could not be re-read |
//! | E6 completions | none | names with descriptions for a prefix | |
//! | E8 validation | after dedup: an empty winner removes itself and the rule it shadowed | before dedup: the valid lower-priority rule survives | an empty file should not hide a real rule |
//! | E9 size | any size is read | files over 1 MiB are skipped with a warning | a stray log file must not flood the prompt or memory |
//! | E10 boundary | follows links anywhere | refuses project rule files whose real path leaves the project | a cloned repository must not pull `~/.ssh/id_rsa` into a prompt through a symlink |
//! | read errors | `Failed to read file: <path>` | the same, plus the system's reason | say what to fix |
//!
//! Depends on every stage crate: `rulebook-registry`, the provider crates,
//! `rulebook-partition`, `rulebook-ttsr`, and `dirs` for the default home.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rulebook_match::GlobIndex;
use rulebook_partition::{Partition, Rejection, partition};
use rulebook_registry::{Entry, Loaded, Registry, RuleCapability};
use rulebook_ttsr::{RegisterError, TtsrManager, TtsrRule};

pub use rulebook_match::{Applicable, PathMatch};
pub use rulebook_partition::{Placement, RuleBucket};
pub use rulebook_prompt::{AlwaysApplied, Attached, SectionRenderer};
pub use rulebook_protocol::{Completion, ProtocolError, Resource, RuleUrl};
pub use rulebook_registry::{LoadContext, Provider, ProviderInfo, Status};
pub use rulebook_rule::{
    Activation, Diagnostic, DiagnosticCode, Level, Profile, Rule, Severity, SourceMeta,
};

/// The default providers, for callers that build their own [`Registry`].
pub mod providers {
    #[cfg(feature = "cline")]
    pub use rulebook_provider_cline::ClineProvider;
    #[cfg(feature = "cursor")]
    pub use rulebook_provider_cursor::CursorProvider;
    #[cfg(feature = "native")]
    pub use rulebook_provider_native::{NativeConfig, NativeProvider};
    #[cfg(feature = "windsurf")]
    pub use rulebook_provider_windsurf::WindsurfProvider;
}

/// Stage crates, re-exported for callers that need more than the facade.
pub mod stages {
    pub use rulebook_fs as fs;
    pub use rulebook_kit as kit;
    pub use rulebook_match as matching;
    pub use rulebook_partition as partition;
    pub use rulebook_prompt as prompt;
    pub use rulebook_protocol as protocol;
    pub use rulebook_registry as registry;
    pub use rulebook_rule as rule;
    pub use rulebook_ttsr as ttsr;
}

/// The registry type for rules.
pub type RuleRegistry = Registry<RuleCapability>;

/// How [`Rulebook::discover`] runs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    profile: Profile,
    allow: Option<Vec<String>>,
    deny: Vec<String>,
    #[cfg(feature = "native")]
    native: rulebook_provider_native::NativeConfig,
    sequential: bool,
    max_file_size: Option<u64>,
}

impl Options {
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

    /// Configures the native provider (directory names, id, display name).
    #[cfg(feature = "native")]
    #[must_use]
    pub fn native(mut self, config: rulebook_provider_native::NativeConfig) -> Self {
        self.native = config;
        self
    }

    /// Extended E9: skip rule files larger than `bytes` (default 1 MiB).
    #[must_use]
    pub fn max_file_size(mut self, bytes: u64) -> Self {
        self.max_file_size = Some(bytes);
        self
    }

    /// Loads providers one after the other instead of in parallel.
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
        #[cfg(feature = "native")]
        let _ = registry.register(rulebook_provider_native::NativeProvider::new(
            self.native.clone(),
        ));
        #[cfg(feature = "cursor")]
        let _ = registry.register(rulebook_provider_cursor::CursorProvider);
        #[cfg(feature = "windsurf")]
        let _ = registry.register(rulebook_provider_windsurf::WindsurfProvider);
        #[cfg(feature = "cline")]
        let _ = registry.register(rulebook_provider_cline::ClineProvider);
        if let Some(allow) = &self.allow {
            registry.allow(allow.iter().cloned());
        }
        registry.deny(self.deny.iter().cloned());
        registry.parallel(!self.sequential);
        registry
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
    /// Name → position in `items` of the rule `rule://<name>` resolves to.
    urls: OnceLock<std::collections::HashMap<String, usize>>,
}

impl Rulebook {
    /// Discovers the rules for `cwd`, with `home` (default: the user's home directory).
    /// Never fails: unreadable sources are diagnostics.
    pub fn discover(cwd: impl AsRef<Path>, home: Option<PathBuf>, options: &Options) -> Self {
        let registry = options.registry();
        let (cwd, home, checks) = directories(cwd.as_ref(), home);
        let mut ctx = LoadContext::new(&cwd, &home).profile(options.profile);
        if let Some(bytes) = options.max_file_size {
            ctx = ctx.max_file_size(bytes);
        }
        Self::discover_in(ctx, &registry).with_leading_diagnostics(checks)
    }

    /// Discovers with a registry of your own (extra providers, other capabilities' crates).
    pub fn discover_with(
        cwd: impl AsRef<Path>,
        home: Option<PathBuf>,
        profile: Profile,
        registry: &RuleRegistry,
    ) -> Self {
        let (cwd, home, checks) = directories(cwd.as_ref(), home);
        Self::discover_in(LoadContext::new(&cwd, &home).profile(profile), registry)
            .with_leading_diagnostics(checks)
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
        let loaded = registry.load(&ctx);
        let LoadContext { cwd, home, .. } = ctx;
        let mut ttsr = TtsrManager::new();
        let partition = partition(loaded.items(), profile, |rule| {
            ttsr.register(TtsrRule::from_rule(rule))
                .map(|registration| {
                    registration
                        .dropped
                        .iter()
                        .map(ToString::to_string)
                        .collect()
                })
                .map_err(|e| match e {
                    RegisterError::DuplicateName(_) => Rejection::DuplicateName,
                    other => Rejection::InvalidCondition(other.to_string()),
                })
        });
        let mut diagnostics = loaded.diagnostics.clone();
        diagnostics.extend(partition.diagnostics.iter().cloned());
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
        }
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
        let mut buckets = vec![RuleBucket::Rulebook, RuleBucket::AlwaysApply];
        if self.profile == Profile::Extended {
            buckets.extend([RuleBucket::Ttsr, RuleBucket::Manual]);
        }
        let mut positions: Vec<usize> = buckets
            .into_iter()
            .flat_map(|b| self.partition.indices(b))
            .collect();
        if self.profile == Profile::Extended {
            // An agent told a rule exists (a glob-only rule attached to a path, say) must be
            // able to read it: every loaded rule that is not shadowed or invalid.
            positions.extend(
                self.partition
                    .placements
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.bucket.is_none())
                    .map(|(i, _)| i),
            );
        }
        positions
    }

    /// The active rule at `position` in [`Rulebook::items`].
    fn item(&self, position: usize) -> &Rule {
        &self.loaded.all[self.loaded.active[position]].item
    }

    /// Resolves a `rule://<name>` URL (behaviour.md §9): exact name, first in resolution order
    /// ([`Rulebook::resolvable`]). Constant time after the first call.
    pub fn resolve(&self, url: &str) -> Result<Resource, ProtocolError> {
        let parsed = RuleUrl::parse(url)?;
        let urls = self.urls.get_or_init(|| {
            let mut map = std::collections::HashMap::new();
            for i in self.resolvable_positions() {
                map.entry(self.item(i).name.clone()).or_insert(i);
            }
            map
        });
        match urls.get(&parsed.name) {
            Some(&i) => Ok(Resource::from_rule(self.item(i))),
            None => Err(ProtocolError::unknown(
                parsed.name,
                self.resolvable().into_iter().map(|r| r.name.as_str()),
            )),
        }
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

    /// The system-prompt text (behaviour.md §8): always-apply contents, then the rules section.
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
        let items: Vec<&Rule> = self.items().collect();
        let placements = &self.partition.placements;
        let mut paths = paths.into_iter().peekable();
        // No paths, nothing to attach: do not build the glob index for nothing.
        let attached: Vec<Attached<'_>> =
            if self.profile == Profile::Extended && paths.peek().is_some() {
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
        rulebook_prompt::render(&always, &attached, &rulebook, section)
    }

    /// `path` as a person names it: relative to the working directory when under it, `~/…`
    /// under the home, else whole.
    pub fn display_path(&self, path: &Path) -> String {
        if let Ok(rel) = path.strip_prefix(&self.cwd) {
            if !rel.as_os_str().is_empty() {
                return rel.to_string_lossy().into_owned();
            }
        }
        if self.home.as_os_str().len() > 1 {
            if let Ok(rel) = path.strip_prefix(&self.home) {
                return format!("~/{}", rel.to_string_lossy());
            }
        }
        path.to_string_lossy().into_owned()
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
fn directories(cwd: &Path, home: Option<PathBuf>) -> (PathBuf, PathBuf, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let cwd = real(&absolute(cwd_or_dot(cwd)));
    if !cwd.is_dir() {
        diagnostics.push(
            Diagnostic::warning(
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
        diagnostics.push(Diagnostic::warning(
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
    std::fs::canonicalize(path).unwrap_or_else(|_| {
        let mut out = PathBuf::new();
        for component in path.components() {
            match component {
                std::path::Component::ParentDir => {
                    out.pop();
                }
                std::path::Component::CurDir => {}
                other => out.push(other),
            }
        }
        out
    })
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
