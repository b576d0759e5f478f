//! rulebook: honour the rules people already wrote for their coding tools.
//!
//! [`Rulebook::discover`] runs the whole pipeline for a working directory and a home:
//! the default providers (native `.xcsh`, Cursor, Windsurf, Cline, and in Extended the
//! original's `agents`, Continue, Roo and Zed; each a cargo feature)
//! load rule files into one [`Rule`] shape, the [`Registry`] orders them by priority and
//! deduplicates them by name, and the partition stage places every rule in a bucket:
//! TTSR (registered with the [`TtsrManager`]), always-apply, rulebook, or (Extended)
//! manual, or in none, with the reason. Nothing here prints: every problem is a
//! [`Diagnostic`] in [`Rulebook::diagnostics`].
//!
//! ```
//! use rulebook::{Options, RuleBucket, Rulebook};
//!
//! # let dir = tempfile::tempdir()?;
//! # let project = dir.path();
//! # let write = |rel: &str, text: &str| -> std::io::Result<()> {
//! #     std::fs::create_dir_all(project.join(rel).parent().unwrap())?;
//! #     std::fs::write(project.join(rel), text)
//! # };
//! write(".cursor/rules/ts.mdc", "---\ndescription: TypeScript style\nglobs: \"*.ts\"\n---\nUse strict mode.")?;
//! write(".cursor/rules/always.mdc", "---\nalwaysApply: true\n---\nAnswer in English.")?;
//! write(".xcsh/rules/no-log.md", "---\ncondition: \"console\\\\.log\"\n---\nUse the logger.")?;
//!
//! // Discover (`None`: the user's home directory; a path of your own here for tests).
//! let book = Rulebook::discover(project, Some(project.join("home")), &Options::default());
//! let listed: Vec<&str> = book.bucket(RuleBucket::Rulebook).iter().map(|r| r.name.as_str()).collect();
//! assert_eq!(listed, ["ts"]);
//!
//! // The system-prompt text: always-apply contents, then the rules section.
//! let prompt = book.system_prompt_section();
//! assert!(prompt.contains("Answer in English.") && prompt.contains("<rule name=\"ts\">"));
//! // With the files in play, rules whose globs match are attached in full (Extended E3).
//! assert!(book.system_prompt_section_for(["src/app.ts"]).contains("Use strict mode."));
//!
//! // `rule://` serves the bodies.
//! assert_eq!(book.resolve("rule://ts")?.content, "Use strict mode.");
//!
//! // TTSR: feed the model's output as it streams; a rule fires once its condition matches.
//! let mut book = book;
//! assert!(book.ttsr_mut().feed("let x = 1; console.").is_empty());
//! let fired = book.ttsr_mut().feed("log(x)");
//! assert_eq!(fired[0].name, "no-log");
//!
//! // Nothing here prints: every problem is a diagnostic.
//! for warning in book.diagnostics() {
//!     eprintln!("warning: {warning}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
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
use rulebook_registry::{Loaded, Registry, RuleCapability};
use rulebook_ttsr::RegisterError;

pub use rulebook_hosts::{
    Host, HostFile, HostOptions, HostView, Scope as HostScope, Status as HostStatus, emulate,
};
pub use rulebook_match::{Applicable, PathMatch};
pub use rulebook_partition::{Placement, RuleBucket};
pub use rulebook_prompt::{AlwaysApplied, Attached, SectionRenderer};
pub use rulebook_protocol::{Completion, ProtocolError, Resource, RuleUrl, UrlIndex};
pub use rulebook_registry::{
    Entry, KnownKey, LoadContext, Mechanisms, Provider, ProviderInfo, Status,
};
pub use rulebook_rule::{
    Activation, Diagnostic, DiagnosticCode, Level, Profile, Rule, Severity, SourceMeta,
};
pub use rulebook_ttsr::{Fired, RepeatPolicy, TtsrManager, TtsrRule};

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
    pub use rulebook_kit as kit;
    pub use rulebook_kit::fs;
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

/// A provider shared by clones of [`Options`].
type SharedProvider = std::sync::Arc<dyn Provider<RuleCapability>>;

/// Forwards to a shared provider, so [`Options`] stays `Clone`.
struct Shared(SharedProvider);

impl Provider<RuleCapability> for Shared {
    fn id(&self) -> &str {
        self.0.id()
    }
    fn display_name(&self) -> &str {
        self.0.display_name()
    }
    fn description(&self) -> &str {
        self.0.description()
    }
    fn priority(&self) -> i32 {
        self.0.priority()
    }
    fn known_keys(&self) -> &[rulebook_registry::KnownKey] {
        self.0.known_keys()
    }
    fn nested_names(&self) -> Vec<String> {
        self.0.nested_names()
    }
    fn profiles(&self) -> &'static [Profile] {
        self.0.profiles()
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
pub struct Options {
    profile: Profile,
    allow: Option<Vec<String>>,
    deny: Vec<String>,
    #[cfg(feature = "native")]
    native: rulebook_provider_native::NativeConfig,
    sequential: bool,
    max_file_size: Option<u64>,
    extra: Vec<SharedProvider>,
    root_markers: Option<Vec<String>>,
    root: Option<PathBuf>,
    no_descendants: bool,
    per_provider: Vec<(String, String, String)>,
    host: Option<Host>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
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
                    .map(|p| p.id().to_owned())
                    .collect::<Vec<_>>(),
            )
            .field("root_markers", &self.root_markers)
            .finish_non_exhaustive()
    }
}

/// The default providers: one line each, each behind its cargo feature. Adding a provider
/// to the defaults is its crate, one line here and a feature (`cargo xtask new-provider`
/// writes all three).
fn default_providers(options: &Options) -> Vec<Box<dyn Provider<RuleCapability>>> {
    let _ = options;
    vec![
        #[cfg(feature = "native")]
        Box::new(rulebook_provider_native::NativeProvider::new(
            options.native.clone(),
        )),
        #[cfg(feature = "cursor")]
        Box::new(rulebook_provider_cursor::CursorProvider),
        #[cfg(feature = "windsurf")]
        Box::new(rulebook_provider_windsurf::WindsurfProvider),
        #[cfg(feature = "cline")]
        Box::new(rulebook_provider_cline::ClineProvider),
        #[cfg(feature = "agents")]
        Box::new(rulebook_provider_agents::AgentsProvider),
        #[cfg(feature = "continue")]
        Box::new(rulebook_provider_continue::ContinueProvider),
        #[cfg(feature = "roo")]
        Box::new(rulebook_provider_roo::RooProvider),
        #[cfg(feature = "zed")]
        Box::new(rulebook_provider_zed::ZedProvider),
        #[cfg(feature = "agents-md")]
        Box::new(rulebook_provider_agents_md::AgentsMdProvider),
        #[cfg(feature = "claude")]
        Box::new(rulebook_provider_claude::ClaudeProvider),
        #[cfg(feature = "copilot")]
        Box::new(rulebook_provider_copilot::CopilotProvider),
        #[cfg(feature = "gemini")]
        Box::new(rulebook_provider_gemini::GeminiProvider),
        #[cfg(feature = "kiro")]
        Box::new(rulebook_provider_kiro::KiroProvider),
    ]
}

impl Options {
    /// Extended profile, every default provider, parallel loading.
    pub fn new() -> Self {
        Self::default()
    }

    /// Also emulate one real tool (behaviour.md §13, E12): [`Rulebook::host_view`] then says
    /// which files that tool loads here, in its order, cut where it cuts. The union view
    /// (every other accessor) is unchanged.
    #[must_use]
    pub fn host(mut self, host: Host) -> Self {
        self.host = Some(host);
        self
    }

    /// The tool set by [`Options::host`].
    pub fn host_choice(&self) -> Option<Host> {
        self.host
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
        for provider in default_providers(self) {
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

    /// The load context for a working directory and home under these options: the profile
    /// decides the mechanisms here, once ([`Mechanisms::for_profile`]).
    pub fn load_context(&self, cwd: &Path, home: &Path) -> LoadContext {
        let mut ctx = LoadContext::new(cwd, home)
            .profile(self.profile)
            .mechanisms(Mechanisms::for_profile(self.profile));
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
    host_view: Option<HostView>,
}

impl Rulebook {
    /// Discovers the rules for `cwd`, with `home` (`None`: the user's home directory),
    /// under `options` (profile, providers, limits). Never fails: an unreadable source, a
    /// working directory or home that does not exist, are diagnostics.
    ///
    /// This is the one entry point; [`Rulebook::discover_in`] is the lower level for a
    /// registry and load context built by hand.
    pub fn discover(
        cwd: impl AsRef<Path>,
        home: Option<impl AsRef<Path>>,
        options: &Options,
    ) -> Self {
        let registry = options.registry();
        let home = home.map(|h| h.as_ref().to_path_buf());
        let (cwd, home, mut checks) = directories(cwd.as_ref(), home, options.profile);
        let mut ctx = options.load_context(&cwd, &home);
        // E11: one walk below the working directory for every provider's nested names.
        // Hardening round 3, item 19: `/` or the home directory, outside any repository, is
        // no project: walking it for nested rules would read the whole disk. Said, skipped.
        let not_a_project = ctx.repo_root.is_none()
            && (cwd.parent().is_none() || (!home.as_os_str().is_empty() && cwd == home));
        if ctx.mechanisms.project_chain && !options.no_descendants && not_a_project {
            checks.push(
                Diagnostic::warning(
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
            let names = registry.nested_names();
            let found = rulebook_kit::fs::find_named(&cwd, &names);
            checks.extend(found.diagnostics);
            ctx = ctx.nested(found.by_name);
        }
        let mut book = Self::discover_in(ctx, &registry).with_leading_diagnostics(checks);
        if let Some(host) = options.host {
            book.host_view = Some(emulate(host, &HostOptions::new(&book.cwd, &book.home)));
        }
        book
    }

    /// What the tool of [`Options::host`] loads here, when one was set.
    pub fn host_view(&self) -> Option<&HostView> {
        self.host_view.as_ref()
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
        let LoadContext { cwd, home, .. } = ctx;
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
            host_view: None,
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
        let cwd = format!("{}/", self.cwd.display());
        let mut text = message.replace(&cwd, "");
        if self.home.as_os_str().len() > 1 {
            text = text.replace(&format!("{}/", self.home.display()), "~/");
        }
        text
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
/// does (hardening round 3, item 18: it reports `project/link/...`).
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
