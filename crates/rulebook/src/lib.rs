//! rulebook: honour the rules people already wrote for their coding tools.
//!
//! [`Rulebook::discover`] runs the whole pipeline for a working directory and a home:
//! the default providers (one crate each, each a cargo feature, listed in the crate's
//! `providers.txt`: the original's native `.xcsh`, Cursor, Windsurf and Cline, and in
//! Extended every other format, from `AGENTS.md` and `CLAUDE.md` to `.kiro/steering`)
//! load rule files into one [`Rule`] shape, the [`Registry`](stages::registry::Registry) orders them by priority and
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
//! let book = Rulebook::discover(project, Some(&project.join("home")), &Options::default());
//! let listed: Vec<&str> = book.bucket(RuleBucket::Rulebook).iter().map(|r| r.name.as_str()).collect();
//! assert_eq!(listed, ["ts"]);
//!
//! // The system-prompt text: always-apply contents, then the rules section.
//! let prompt = book.system_prompt_section();
//! assert!(prompt.contains("Answer in English.") && prompt.contains("<rule name=\"ts\" uri=\"rule://ts\">"));
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
//! | prompt URIs | `Read rule://<name>`, each name raw | each rule and skill carries its `uri`, percent-encoded (`rule://c%23`, `rule://src%3Aapi%3AAGENTS`) | a raw `c#` or nested `src:api:AGENTS` does not resolve as written |
//!
//! A provider of your own needs nothing but this crate:
//!
//! ```
//! use rulebook::stages::kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
//! use rulebook::{
//!     FileLoader, Level, LoadContext, LoadResult, Options, Provider, ProviderError, ProviderMeta,
//!     Rule, RuleCapability, Rulebook,
//! };
//!
//! /// `.acme/rules/*.md`, at priority 60.
//! struct Acme;
//!
//! impl Provider<RuleCapability> for Acme {
//!     fn info(&self) -> &ProviderMeta {
//!         static INFO: ProviderMeta = ProviderMeta::new("acme", "Acme", "Acme rules", 60);
//!         &INFO
//!     }
//!     fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
//!         const POLICY: FieldPolicy = FieldPolicy::new(
//!             DescriptionPolicy::StringOnly,
//!             AlwaysApplyPolicy::OnlyTrue,
//!             GlobsPolicy::StringsOnly,
//!         );
//!         let loader = FileLoader::new(ctx, "acme", "Acme", POLICY);
//!         let mut out = LoadResult::default();
//!         loader.load_dir(&ctx.cwd.join(".acme/rules"), &["md"], Level::Project, Some(&ctx.cwd), &mut out);
//!         Ok(out)
//!     }
//! }
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::create_dir_all(dir.path().join(".acme/rules")).unwrap();
//! std::fs::write(dir.path().join(".acme/rules/style.md"), "Use tabs.\n").unwrap();
//! let book = Rulebook::discover(dir.path(), None, &Options::new().provider(Acme));
//! assert!(book.all().iter().any(|e| e.item.name == "style" && e.provider == "acme"));
//! ```
//!
//! This crate is re-exports and the tables of default providers ([`DefaultProviders`]) and
//! of tools ([`tools`]), generated from `providers.txt` by `cargo xtask new-provider`;
//! discovery itself is the stage crate `rulebook-discover`. Depends on it, on the stage
//! crates it re-exports, and on each provider crate behind its cargo feature.

pub use rulebook_discover::{
    ContentUpdate, Fate, FileFate, FilesUpdate, Located, NoProviders, PathRules, ProviderTable,
    RuleHit, RuleRegistry, Rulebook, SkillError, SkillResource, skill_url_rest,
};
pub use rulebook_hosts::{
    Duplicate as HostDuplicate, Host, HostFile, HostOptions, HostSkill, HostView,
    Scope as HostScope, SkillStatus as HostSkillStatus, Status as HostStatus, Tool, emulate,
    emulate_all,
};
pub use rulebook_kit::FileLoader;
pub use rulebook_match::{Applicable, PathMatch};
pub use rulebook_partition::{Placement, RuleBucket};
pub use rulebook_prompt::{AlwaysApplied, Attached, SectionRenderer};
pub use rulebook_protocol::{Completion, ProtocolError, Resource, RuleUrl, UrlIndex};
pub use rulebook_registry::{
    ConditionalFile, Entry, KnownKey, LoadContext, LoadResult, Mechanisms, OptionError, OptionKind,
    Project, Provider, ProviderError, ProviderInfo, ProviderMeta, ProviderOption, RuleCapability,
    SharedReads, SkillCapability, Status, UnquotedGlobs,
};
pub use rulebook_rule::{
    Activation, Diagnostic, DiagnosticCode, Level, Profile, Rule, Severity, Skill, SourceMeta,
};
pub use rulebook_ttsr::{Fired, RepeatPolicy, TtsrManager, TtsrRule};

/// How [`Rulebook::discover`] runs, with the default providers of this crate's features
/// ([`DefaultProviders`]); `rulebook_discover::Options<NoProviders>` runs only your own.
///
/// A builder; its methods are those of [`rulebook_discover::Options`]:
/// - what is read: [`profile`](rulebook_discover::Options::profile),
///   [`allow_providers`](rulebook_discover::Options::allow_providers),
///   [`deny_providers`](rulebook_discover::Options::deny_providers),
///   [`provider`](rulebook_discover::Options::provider) (one of your own),
///   [`provider_option`](rulebook_discover::Options::provider_option),
///   [`allow_external_imports`](rulebook_discover::Options::allow_external_imports);
/// - where: [`project_root`](rulebook_discover::Options::project_root),
///   [`project_root_markers`](rulebook_discover::Options::project_root_markers),
///   [`descendants`](rulebook_discover::Options::descendants);
/// - bounds and threads: [`max_file_size`](rulebook_discover::Options::max_file_size),
///   [`sequential`](rulebook_discover::Options::sequential);
/// - the table: [`table`](rulebook_discover::Options::table) (the native provider's
///   configuration: [`DefaultProviders`]).
///
/// ```
/// let options = rulebook::Options::new()
///     .profile(rulebook::Profile::Extended)
///     .deny_providers(["cursor"])
///     .provider_option("claude", "allow_external_imports", "true");
/// let dir = tempfile::tempdir().unwrap();
/// let book = rulebook::Rulebook::discover(dir.path(), Some(&dir.path().join("home")), &options);
/// // Each option reached a provider that reads it: none is refused.
/// assert!(book.diagnostics().iter().all(|d| d.severity != rulebook::Severity::Error));
/// ```
pub type Options = rulebook_discover::Options<DefaultProviders>;

mod table;

pub use table::{DefaultProviders, providers};

/// The tools with their own view (`--as TOOL`) that this build holds: each default
/// provider's crate that emulates its tool, behind the crate's cargo feature, in the order
/// `--as` lists them, then the tools of other crates registered with [`register_tools`]. A
/// tool of another crate is a [`Host`] of its [`Tool`]: [`emulate`] runs it as it runs these.
///
/// ```
/// let ids: Vec<&str> = rulebook::tools().iter().map(|t| t.id()).collect();
/// assert_eq!(ids[..3], ["codex", "claude", "gemini"]);
/// ```
pub fn tools() -> &'static [Host] {
    TABLE.get_or_init(|| table::TOOLS)
}

/// The table of tools once read: this build's, with the tools registered before.
static TABLE: std::sync::OnceLock<&'static [Host]> = std::sync::OnceLock::new();

/// Adds tools of crates outside this build's table after its own, for the life of the
/// process: a program built on rulebook with a tool of its own (a binary that calls
/// `rulebook_cli::run`, say) registers it first, and `--as`, its help, completion,
/// `compare`'s columns and `check --as` list it as they list the others.
///
/// ```
/// use rulebook::stages::kit::host::{HostOptions, HostView, Tool, ToolInfo};
/// use rulebook::Host;
///
/// struct Acme;
/// static ACME_INFO: ToolInfo = ToolInfo::new("acme", "Acme", "acme", "Acme's documentation");
/// impl Tool for Acme {
///     fn info(&self) -> &ToolInfo { &ACME_INFO }
///     fn emulate(&self, _: &HostOptions) -> HostView { HostView::new(ACME) }
/// }
/// const ACME: Host = Host::new(&Acme);
///
/// rulebook::register_tools(&[ACME]).unwrap();
/// assert_eq!(rulebook::tool("acme"), Some(ACME));
/// assert_eq!(rulebook::tools().last(), Some(&ACME));
/// // The table is fixed once read.
/// assert!(rulebook::register_tools(&[ACME]).is_err());
/// ```
///
/// # Errors
///
/// When the table was already read (the tools must be registered before any use), or when
/// a tool's id is taken.
pub fn register_tools(extra: &[Host]) -> Result<(), RegisterError> {
    let mut all: Vec<Host> = table::TOOLS.to_vec();
    for &tool in extra {
        if all.iter().any(|t| t.id() == tool.id()) {
            return Err(RegisterError::Taken(tool.id().to_owned()));
        }
        all.push(tool);
    }
    if TABLE.get().is_some() {
        return Err(RegisterError::AlreadyRead);
    }
    // Leaked once per process: the table lives as long as the program, as the static one.
    let all: &'static [Host] = Vec::leak(all);
    TABLE.set(all).map_err(|_| RegisterError::AlreadyRead)
}

/// Why [`register_tools`] refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegisterError {
    /// The table was read before: it no longer changes.
    AlreadyRead,
    /// A tool of the table has this id.
    Taken(String),
}

impl std::fmt::Display for RegisterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::AlreadyRead => f.write_str(
                "the table of tools was read before: register tools before any use of it",
            ),
            Self::Taken(id) => write!(f, "a tool of the table has the id `{id}`"),
        }
    }
}

impl std::error::Error for RegisterError {}

/// The tool of [`tools`] whose id is `id` (`"claude"`).
///
/// ```
/// assert_eq!(rulebook::tool("claude").map(|t| t.display_name()), Some("Claude Code"));
/// assert!(rulebook::tool("Claude").is_none());
/// ```
pub fn tool(id: &str) -> Option<Host> {
    tools().iter().copied().find(|t| t.id() == id)
}

/// Stage crates, re-exported for callers that need more than the facade.
pub mod stages {
    pub use rulebook_discover as discover;
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
