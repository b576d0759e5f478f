//! The native rules provider: the agent's own rule directories (behaviour.md §5).
//!
//! | level | default directory | extensions |
//! |---|---|---|
//! | project | `<cwd>/.xcsh/rules/` | `*.md`, `*.mdc` |
//! | user | `~/.xcsh/agent/rules/` | `*.md`, `*.mdc` |
//!
//! Project rules are pushed before user rules, so a project rule wins a name clash with a
//! user rule. Fields are coerced with [`FIELD_POLICY`]: a numeric or boolean
//! description becomes its text, and list elements of `globs` are kept as text. Another
//! agent reuses this provider with its own names through [`NativeConfig`].
//!
//! Depends on `rulebook-kit` alone (its file reading, registry and model re-exported).
//!
//! ```
//! use rulebook_provider_native::{NativeConfig, NativeProvider};
//! use rulebook_kit::RuleCapability;
//! use rulebook_provider_native::Provider;
//!
//! let provider = NativeProvider::new(
//!     NativeConfig::default()
//!         .project_dir(".myagent/rules")
//!         .user_dir(".myagent/rules")
//!         .display_name("MyAgent"),
//! );
//! let info = Provider::<RuleCapability>::info(&provider);
//! assert_eq!(info.priority(), 100);
//! assert_eq!(info.display_name(), "MyAgent");
//! assert_eq!(info.nested_names().collect::<Vec<_>>(), [".myagent"]);
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

use std::path::{Path, PathBuf};

use rulebook_kit::skills::Folders;
use rulebook_kit::{Skill, SkillCapability};

use rulebook_kit::FileLoader;
use rulebook_kit::Level;
use rulebook_kit::coerce::{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy,
};
use rulebook_kit::{LoadResult, ProviderError, ProviderMeta, RuleCapability};

/// Where the native provider looks, and what it is called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeConfig {
    id: String,
    display_name: String,
    project_dir: PathBuf,
    user_dir: PathBuf,
    priority: i32,
}

impl Default for NativeConfig {
    /// The seeds' agent: `.xcsh/rules` in the project, `.xcsh/agent/rules` in the home.
    fn default() -> Self {
        Self {
            id: "native".to_owned(),
            display_name: "Native".to_owned(),
            project_dir: PathBuf::from(".xcsh/rules"),
            user_dir: PathBuf::from(".xcsh/agent/rules"),
            priority: 100,
        }
    }
}

impl NativeConfig {
    /// The provider id (default `native`).
    #[must_use]
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = id.into();
        self
    }

    /// The display name, the prefix of warnings (default `Native`).
    #[must_use]
    pub fn display_name(mut self, name: impl Into<String>) -> Self {
        self.display_name = name.into();
        self
    }

    /// The project directory, relative to the working directory (default `.xcsh/rules`).
    #[must_use]
    pub fn project_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.project_dir = dir.into();
        self
    }

    /// The user directory, relative to the home (default `.xcsh/agent/rules`).
    #[must_use]
    pub fn user_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.user_dir = dir.into();
        self
    }

    /// The priority (default 100).
    #[must_use]
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }
}

/// The native provider's field coercion: its row of behaviour.md §5's table.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOrScalarText,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::ScalarElementsAsText,
);

/// The native provider.
#[derive(Debug, Clone)]
pub struct NativeProvider {
    config: NativeConfig,
    info: ProviderMeta,
    skills_info: ProviderMeta,
}

impl Default for NativeProvider {
    fn default() -> Self {
        Self::new(NativeConfig::default())
    }
}

impl NativeProvider {
    /// A provider with the given configuration.
    pub fn new(config: NativeConfig) -> Self {
        let mut info = ProviderMeta::owned(
            config.id.clone(),
            config.display_name.clone(),
            "The agent's own rules: project and user rule directories (*.md, *.mdc)",
            config.priority,
        )
        .with_known_keys(COMMON_KEYS);
        // The walk below the working directory looks for the first component of the
        // project directory (`.xcsh` of `.xcsh/rules`).
        if let Some(first) = config.project_dir.components().next() {
            info = info.with_owned_nested_name(first.as_os_str().to_string_lossy());
        }
        let mut skills_info = ProviderMeta::owned(
            config.id.clone(),
            config.display_name.clone(),
            "The agent's own skills: <dir>/skills/*/SKILL.md beside the rules directory, from the working directory up to the project root, then the user's",
            config.priority,
        );
        if let Some(first) = config.project_dir.components().next() {
            skills_info = skills_info.with_owned_nested_name(first.as_os_str().to_string_lossy());
        }
        Self {
            config,
            info,
            skills_info,
        }
    }

    /// The skills folder beside a rules directory (`.xcsh/rules` → `.xcsh/skills`).
    fn skills_dir(rules: &Path) -> PathBuf {
        rules.parent().unwrap_or(Path::new("")).join("skills")
    }
}

/// The original's native skills (behaviour.md §14): `.xcsh/skills` in the working directory
/// and each ancestor up to the project root, nearest first, then `~/.xcsh/agent/skills`; a
/// skill without a description is passed over.
impl Provider<SkillCapability> for NativeProvider {
    #[allow(
        clippy::misnamed_getters,
        reason = "the skills capability's info is the skills one"
    )]
    fn info(&self) -> &ProviderMeta {
        &self.skills_info
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Skill>, ProviderError> {
        let loader = FileLoader::new(
            ctx,
            &self.config.id,
            &self.config.display_name,
            FIELD_POLICY,
        );
        let mut out = LoadResult::default();
        let project = Self::skills_dir(&self.config.project_dir);
        let user = Self::skills_dir(&self.config.user_dir);
        loader.load_skill_folders(
            ctx,
            &Folders {
                project: &[&project],
                user: &[&user],
                user_first: false,
                require_description: true,
            },
            &mut out,
        );
        Ok(out)
    }
}

const EXTENSIONS: &[&str] = &["md", "mdc"];

impl Provider<RuleCapability> for NativeProvider {
    fn info(&self) -> &ProviderMeta {
        &self.info
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<rulebook_kit::Rule>, ProviderError> {
        // The native rule files are placed by their frontmatter alone.
        let loader = FileLoader::new(
            ctx,
            &self.config.id,
            &self.config.display_name,
            FIELD_POLICY,
        )
        .content_blind(true);
        let mut out = LoadResult::default();
        let nested = loader.load_project_dirs(ctx, &self.config.project_dir, EXTENSIONS, &mut out);
        for (i, rel) in nested {
            rulebook_kit::scope_to_directory(&mut out.items[i], &rel);
        }
        if let Some(user) = ctx.in_home(&self.config.user_dir) {
            loader.load_dir(&user, EXTENSIONS, Level::User, None, &mut out);
        }
        Ok(out)
    }
}
