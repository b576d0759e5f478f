//! Reading skills folders (`.claude/skills`, `.agents/skills`, …) as the original reads
//! them (behaviour.md §14): one level deep, a `SKILL.md` in each folder.

use std::path::{Path, PathBuf};

use rulebook_registry::{
    LoadContext, LoadResult, Provider, ProviderError, ProviderMeta, SkillCapability,
};
use rulebook_rule::{Diagnostic, DiagnosticCode, Level, Rule, Skill, Value};

use crate::FileLoader;

/// The longest description the Agent Skills specification allows.
pub const MAX_DESCRIPTION: usize = 1024;

/// The longest name the Agent Skills specification allows.
pub const MAX_NAME: usize = 64;

/// Whether `name` is one the Agent Skills specification allows: 1 to 64 of `a-z`, `0-9`
/// and `-`, no `-` at either end, never two in a row.
///
/// ```
/// use rulebook_kit::skills::is_spec_name;
/// assert!(is_spec_name("pdf-tools"));
/// assert!(!is_spec_name("PDF") && !is_spec_name("-a") && !is_spec_name("a--b") && !is_spec_name(""));
/// ```
pub fn is_spec_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

impl FileLoader {
    /// Loads the skills of one skills folder: each entry one level down that is a folder
    /// (or a link to one) and whose name does not start with `.`, holding a `SKILL.md`,
    /// in byte order of the folder names. The name is the frontmatter's `name` (trimmed),
    /// else the folder's; an empty `SKILL.md` and one with `enabled: false` are passed
    /// over, and with `require_description` one without a description too (the native
    /// provider's rule; said as information in Extended). A missing folder loads nothing; a
    /// folder that cannot be listed is a warning. The file is read as every rule file is
    /// (size cap, project boundary under `project_root`, real path).
    pub fn load_skills_dir(
        &self,
        dir: &Path,
        level: Level,
        project_root: Option<&Path>,
        require_description: bool,
        out: &mut LoadResult<Skill>,
    ) {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return,
            Err(err) => {
                if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
                    return;
                }
                out.diagnostics.push(
                    Diagnostic::new(
                        DiagnosticCode::ReadFailed,
                        format!("Failed to read skills directory: {} ({err})", dir.display()),
                    )
                    .with_path(dir),
                );
                return;
            }
        };
        let mut folders: Vec<_> = entries
            .flatten()
            .filter(|e| !e.file_name().as_encoded_bytes().starts_with(b"."))
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        folders.sort();
        let mut rules = LoadResult::<Rule>::default();
        // One reader and one set of options for the folder: its buffer is reused.
        let mut reader = rulebook_fs::RuleReader::new();
        let options = self.read_options(level, project_root);
        let key = self.memo_key(level, project_root);
        for folder in folders {
            let path = folder.join("SKILL.md");
            let folder_name = folder
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            match std::fs::symlink_metadata(&path) {
                Ok(_) => {}
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                Err(err) => {
                    out.diagnostics.push(
                        Diagnostic::new(
                            DiagnosticCode::ReadFailed,
                            format!("Failed to read file: {} ({err})", path.display()),
                        )
                        .with_path(&path),
                    );
                    continue;
                }
            }
            let Some(i) = self.load_one(
                &mut reader,
                path.clone(),
                folder_name.clone(),
                level,
                &options,
                key,
                &mut rules,
            ) else {
                out.diagnostics.append(&mut rules.diagnostics);
                continue;
            };
            let rule = rules.items.swap_remove(i);
            out.diagnostics.append(&mut rules.diagnostics);
            let say = self.mechanisms().say_skipped;
            if rule.content.trim().is_empty() && rule.frontmatter.is_empty() {
                if say {
                    out.diagnostics.push(
                        Diagnostic::new(
                            DiagnosticCode::InvalidItem,
                            format!(
                                "skill `{folder_name}` ({}) is empty: rulebook leaves it out (Claude Code lists such a skill by its folder's name, described `Skill`)",
                                path.display()
                            ),
                        )
                        .with_path(&path),
                    );
                }
                continue;
            }
            if rule.frontmatter.get("enabled") == Some(&Value::Bool(false)) {
                if say {
                    out.diagnostics.push(
                        Diagnostic::new(
                            DiagnosticCode::TurnedOff,
                            format!(
                                "skill `{folder_name}` ({}) is turned off (`enabled: false`): rulebook leaves it out",
                                path.display()
                            ),
                        )
                        .with_path(&path),
                    );
                }
                continue;
            }
            let name = match rule.frontmatter.get("name") {
                Some(Value::String(name)) if !name.trim().is_empty() => name.trim().to_owned(),
                _ => folder_name.clone(),
            };
            let description = rule.description.clone().filter(|d| !d.trim().is_empty());
            if require_description && description.is_none() {
                if say {
                    out.diagnostics.push(
                        Diagnostic::new(
                            DiagnosticCode::SkillDescription,
                            format!(
                                "skill `{name}` ({}) has no description: {} lists only skills with one",
                                path.display(),
                                self.provider_name()
                            ),
                        )
                        .with_path(&path),
                    );
                }
                continue;
            }
            let mut skill = Skill::new(name, rule.path, rule.content, rule.source)
                .with_frontmatter(rule.frontmatter, rule.frontmatter_outcome);
            skill.description = description;
            out.items.push(skill);
        }
    }
}

/// The folders a working directory's project skills are read from, nearest first: the
/// working directory and each ancestor up to the project root (as the original's native
/// provider walks, stopping at the repository root).
pub fn skill_roots(ctx: &LoadContext) -> Vec<PathBuf> {
    if !ctx.cwd.starts_with(&ctx.project_root) {
        return vec![ctx.cwd.clone()];
    }
    ctx.cwd
        .ancestors()
        .take_while(|d| d.starts_with(&ctx.project_root))
        .map(Path::to_path_buf)
        .collect()
}

/// A tool's skills folders as data, and the provider that reads them: a tool's crate
/// declares one (`.claude/skills` in the project and the home), the kit reads them.
///
/// ```
/// use rulebook_kit::skills::SkillFolders;
/// use rulebook_kit::{LoadContext, Provider, ProviderMeta, SkillCapability};
///
/// static INFO: ProviderMeta = ProviderMeta::new("acme", "Acme", "Acme skills", 10);
/// static SKILLS: SkillFolders = SkillFolders::new(&INFO, &[".acme/skills"], &[".acme/skills"]);
///
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir_all(dir.path().join(".acme/skills/pdf"))?;
/// std::fs::write(dir.path().join(".acme/skills/pdf/SKILL.md"), "---\nname: pdf\ndescription: PDFs\n---\nUse pdftotext.")?;
/// let loaded = Provider::<SkillCapability>::load(&SKILLS, &LoadContext::new(dir.path(), "/nonexistent"))?;
/// assert_eq!(loaded.items[0].name, "pdf");
/// assert_eq!(loaded.items[0].description.as_deref(), Some("PDFs"));
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SkillFolders {
    info: &'static ProviderMeta,
    project: &'static [&'static str],
    user: &'static [&'static str],
    user_first: bool,
    require_description: bool,
}

impl SkillFolders {
    /// The provider `info` reading `project` folders (relative to the working directory
    /// and each ancestor up to the project root, nearest first) and `user` folders
    /// (relative to the home); project skills first, so they win a name clash.
    pub const fn new(
        info: &'static ProviderMeta,
        project: &'static [&'static str],
        user: &'static [&'static str],
    ) -> Self {
        Self {
            info,
            project,
            user,
            user_first: false,
            require_description: false,
        }
    }

    /// The user's skills first, so they win a name clash (Claude Code: personal over
    /// project).
    #[must_use]
    pub const fn user_first(mut self) -> Self {
        self.user_first = true;
        self
    }

    /// A skill without a description is passed over (the original's native provider).
    #[must_use]
    pub const fn require_description(mut self) -> Self {
        self.require_description = true;
        self
    }

    /// The project folders it reads, relative to each root.
    pub fn project_folders(&self) -> &'static [&'static str] {
        self.project
    }

    /// The user folders it reads, relative to the home.
    pub fn user_folders(&self) -> &'static [&'static str] {
        self.user
    }
}

impl Provider<SkillCapability> for SkillFolders {
    fn info(&self) -> &ProviderMeta {
        self.info
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Skill>, ProviderError> {
        let loader = FileLoader::new(
            ctx,
            self.info.id(),
            self.info.display_name(),
            crate::coerce::FieldPolicy::new(
                crate::coerce::DescriptionPolicy::StringOnly,
                crate::coerce::AlwaysApplyPolicy::OnlyTrue,
                crate::coerce::GlobsPolicy::StringsOnly,
            ),
        );
        let mut out = LoadResult::default();
        let project: Vec<&Path> = self.project.iter().map(Path::new).collect();
        let user: Vec<&Path> = self.user.iter().map(Path::new).collect();
        loader.load_skill_folders(
            ctx,
            &Folders {
                project: &project,
                user: &user,
                user_first: self.user_first,
                require_description: self.require_description,
            },
            &mut out,
        );
        Ok(out)
    }
}

/// Skills folders, relative to each project root ([`skill_roots`]) and to the home, and how
/// they are read: [`FileLoader::load_skill_folders`].
#[derive(Debug, Clone, Copy)]
pub struct Folders<'a> {
    /// Relative to the working directory and each ancestor up to the project root.
    pub project: &'a [&'a Path],
    /// Relative to the home.
    pub user: &'a [&'a Path],
    /// The user's skills first (they win a name clash), else the project's.
    pub user_first: bool,
    /// A skill without a description is passed over.
    pub require_description: bool,
}

impl FileLoader {
    /// Loads `folders`: the project folders of every root from the working directory up to
    /// the project root, nearest first (the project boundary applies), and the user
    /// folders; in the order [`Folders::user_first`] says.
    pub fn load_skill_folders(
        &self,
        ctx: &LoadContext,
        folders: &Folders<'_>,
        out: &mut LoadResult<Skill>,
    ) {
        let user = |out: &mut LoadResult<Skill>| {
            for rel in folders.user {
                if let Some(dir) = ctx.in_home(rel) {
                    self.load_skills_dir(&dir, Level::User, None, folders.require_description, out);
                }
            }
        };
        if folders.user_first {
            user(out);
        }
        for root in skill_roots(ctx) {
            for rel in folders.project {
                self.load_skills_dir(
                    &root.join(rel),
                    Level::Project,
                    Some(&ctx.project_root),
                    folders.require_description,
                    out,
                );
            }
        }
        if !folders.user_first {
            user(out);
        }
    }
}
