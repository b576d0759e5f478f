//! Agent Skills: a folder holding `SKILL.md` (frontmatter `name`, `description`; a body read
//! when the skill is used) and the resources beside it.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::{FrontmatterOutcome, Map, SourceMeta, Value};

/// One skill: a `SKILL.md` and the folder it stands in.
///
/// `#[non_exhaustive]`: build one with [`Skill::new`] and the `with_*` setters.
///
/// ```
/// use rulebook_rule::{Level, Skill, SourceMeta};
///
/// let skill = Skill::new(
///     "pdf",
///     "/p/.claude/skills/pdf/SKILL.md",
///     "Use pdftotext.",
///     SourceMeta::new("claude", "Claude Code", Level::Project, "/p/.claude/skills/pdf/SKILL.md"),
/// )
/// .with_description("Read PDF files");
/// assert_eq!(skill.folder(), std::path::Path::new("/p/.claude/skills/pdf"));
/// assert_eq!(skill.folder_name(), "pdf");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Skill {
    /// The identity: dedup and precedence are by name only. Its frontmatter `name`, or the
    /// folder's name when it has none.
    pub name: String,
    /// The `SKILL.md` file, absolute.
    pub path: PathBuf,
    /// The body, frontmatter stripped (what the tool reads when the skill is used).
    pub content: std::sync::Arc<str>,
    /// What the skill is for: the catalog lists it, and a model chooses by it.
    pub description: Option<String>,
    /// Which provider found it, and where.
    pub source: SourceMeta,
    /// The parsed frontmatter, every key.
    pub frontmatter: Map,
    /// How the frontmatter was read.
    pub frontmatter_outcome: FrontmatterOutcome,
}

impl Skill {
    /// A skill with its name, `SKILL.md`, body and source; no description, no frontmatter.
    pub fn new(
        name: impl Into<String>,
        path: impl Into<PathBuf>,
        content: impl Into<std::sync::Arc<str>>,
        source: SourceMeta,
    ) -> Self {
        Self {
            name: name.into(),
            path: path.into(),
            content: content.into(),
            description: None,
            source,
            frontmatter: Map::default(),
            frontmatter_outcome: FrontmatterOutcome::Absent,
        }
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// `disable-model-invocation: true` (or `disable_model_invocation`): the skill is for a
    /// person to invoke, not for the model to choose, so the tools that read the key (Claude
    /// Code, GitHub Copilot CLI, the OpenHands SDK) leave it out of the model's listing.
    ///
    /// ```
    /// # use rulebook_rule::*;
    /// let mut map = Map::default();
    /// map.insert("disable-model-invocation".to_owned(), Value::Bool(true));
    /// let skill = Skill::new("deploy", "/p/deploy/SKILL.md", "…",
    ///     SourceMeta::new("claude", "Claude Code", Level::Project, "/p/deploy/SKILL.md"))
    ///     .with_frontmatter(map, FrontmatterOutcome::Parsed);
    /// assert!(skill.model_invocation_disabled());
    /// ```
    pub fn model_invocation_disabled(&self) -> bool {
        ["disable-model-invocation", "disable_model_invocation"]
            .iter()
            .any(|k| self.frontmatter.get(*k) == Some(&Value::Bool(true)))
    }

    /// Sets the frontmatter and how it was read.
    #[must_use]
    pub fn with_frontmatter(mut self, frontmatter: Map, outcome: FrontmatterOutcome) -> Self {
        self.frontmatter = frontmatter;
        self.frontmatter_outcome = outcome;
        self
    }

    /// The skill's folder: resources are read relative to it.
    pub fn folder(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new(""))
    }

    /// The folder's name (what the Agent Skills specification wants `name` to be).
    pub fn folder_name(&self) -> String {
        self.folder()
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    }
}

/// Why a skill is invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InvalidSkill {
    /// An empty name (the original's `Missing skill name`).
    MissingName,
    /// No `SKILL.md` path (the original's `Missing skill path`).
    MissingPath,
}

impl std::fmt::Display for InvalidSkill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::MissingName => "Missing skill name",
            Self::MissingPath => "Missing skill path",
        })
    }
}

impl std::error::Error for InvalidSkill {}

/// The original's check: a name and a path (behaviour.md §14).
pub fn validate_skill(skill: &Skill) -> Result<(), InvalidSkill> {
    if skill.name.is_empty() {
        Err(InvalidSkill::MissingName)
    } else if skill.path.as_os_str().is_empty() {
        Err(InvalidSkill::MissingPath)
    } else {
        Ok(())
    }
}
