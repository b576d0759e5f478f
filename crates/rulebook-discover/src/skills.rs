//! `skill://NAME` and `skill://NAME/<path>`: a skill's `SKILL.md`, or a file of its folder
//! (behaviour.md §14), as the original's `skill://` handler reads them.

use std::fmt;
use std::path::{Component, Path, PathBuf};

use rulebook_registry::Mechanisms;
use rulebook_rule::Level;

use crate::Rulebook;

/// What a `skill://` URL read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillResource {
    /// The URL as given.
    pub url: String,
    /// The skill's name.
    pub name: String,
    /// The file read.
    pub path: PathBuf,
    /// `text/markdown` for a `.md` file, else `text/plain`.
    pub mime_type: &'static str,
    /// The file's text, whole (a `SKILL.md` with its frontmatter), invalid UTF-8 replaced.
    pub content: String,
}

/// Why a `skill://` URL was not read; `Display` is the original's message where it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkillError {
    /// Not a `skill://` URL.
    NotSkillUrl(String),
    /// `skill://` with no name.
    NoName,
    /// No active skill has that name.
    Unknown {
        /// The name asked for.
        name: String,
        /// The names there are, in the catalog's order.
        available: Vec<String>,
    },
    /// The resource path is absolute.
    Absolute,
    /// The resource path has a `..` component.
    Traversal,
    /// The resource resolves outside the skill's folder (through a link).
    Outside,
    /// No such file.
    NotFound(PathBuf),
    /// The file could not be read (too large, not a regular file, …).
    Unreadable(PathBuf, String),
}

impl fmt::Display for SkillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotSkillUrl(url) => write!(f, "not a skill:// URL: {url}"),
            Self::NoName => f.write_str("skill:// URL requires a skill name: skill://<name>"),
            Self::Unknown { name, available } => write!(
                f,
                "Unknown skill: {name}\nAvailable: {}",
                if available.is_empty() {
                    "none".to_owned()
                } else {
                    available.join(", ")
                }
            ),
            Self::Absolute => f.write_str("Absolute paths are not allowed in skill:// URLs"),
            Self::Traversal => f.write_str("Path traversal (..) is not allowed in skill:// URLs"),
            Self::Outside => f.write_str("Path traversal is not allowed"),
            Self::NotFound(path) => write!(f, "File not found: {}", path.display()),
            Self::Unreadable(path, why) => write!(f, "Failed to read {}: {why}", path.display()),
        }
    }
}

impl std::error::Error for SkillError {}

/// What follows `skill://` (the scheme in any letter case), or `None` for another URL.
///
/// ```
/// assert_eq!(rulebook_discover::skill_url_rest("SKILL://pdf/a.md"), Some("pdf/a.md"));
/// assert_eq!(rulebook_discover::skill_url_rest("rule://pdf"), None);
/// ```
pub fn skill_url_rest(url: &str) -> Option<&str> {
    url.get(..8)
        .filter(|s| s.eq_ignore_ascii_case("skill://"))
        .map(|_| &url[8..])
}

/// `%XX` escapes decoded (a malformed one kept as written).
fn percent_decode(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = raw
            .get(i + 1..i + 3)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        match (bytes[i], hex) {
            (b'%', Some(hex)) => {
                out.push(u8::from_str_radix(hex, 16).unwrap_or(b'%'));
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Rulebook {
    /// Reads `skill://NAME` (the skill's whole `SKILL.md`, frontmatter included) or
    /// `skill://NAME/<path>` (a file of its folder: no absolute path, no `..`, and its real
    /// path inside the folder's), within the size cap of the profile.
    ///
    /// ```
    /// # use rulebook_discover::{Options, NoProviders, Rulebook, SkillError};
    /// let dir = tempfile::tempdir()?;
    /// let book = Rulebook::discover(dir.path(), Some(dir.path()), &Options::<NoProviders>::new());
    /// assert_eq!(
    ///     book.resolve_skill("skill://pdf").unwrap_err().to_string(),
    ///     "Unknown skill: pdf\nAvailable: none"
    /// );
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn resolve_skill(&self, url: &str) -> Result<SkillResource, SkillError> {
        let rest = skill_url_rest(url).ok_or_else(|| SkillError::NotSkillUrl(url.to_owned()))?;
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        let name = percent_decode(host);
        if name.is_empty() {
            return Err(SkillError::NoName);
        }
        let Some(skill) = self.skill(&name) else {
            return Err(SkillError::Unknown {
                name,
                available: self.skills().iter().map(|s| s.name.clone()).collect(),
            });
        };
        let cap = Mechanisms::for_profile(self.profile()).size_cap;
        // Every check is made on the opened file, never on the path again: a link swapped
        // in after discovery (or between a check and the read) cannot bring in an outside
        // file. A file of the folder must lie in the folder; the `SKILL.md` of a project
        // skill in the project (E10), as discovery required.
        let (file, boundary) = if path.is_empty() {
            let boundary = (skill.source.level == Level::Project)
                .then(|| self.boundary.clone())
                .flatten();
            (skill.path.clone(), boundary)
        } else {
            let rel = percent_decode(path);
            let rel = Path::new(&rel);
            if rel.has_root() {
                return Err(SkillError::Absolute);
            }
            if rel.components().any(|c| c == Component::ParentDir) {
                return Err(SkillError::Traversal);
            }
            let folder = std::fs::canonicalize(skill.folder())
                .unwrap_or_else(|_| skill.folder().to_path_buf());
            (skill.folder().join(rel), Some(folder))
        };
        let read = match &boundary {
            Some(boundary) => rulebook_kit::fs::read_bytes_inside(&file, cap, boundary),
            None => rulebook_kit::fs::read_bytes(&file, cap),
        };
        let bytes = read.map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => SkillError::NotFound(file.clone()),
            // The boundary's refusal (an operating system's refusal carries its code).
            std::io::ErrorKind::PermissionDenied if e.raw_os_error().is_none() => {
                SkillError::Outside
            }
            _ => SkillError::Unreadable(file.clone(), e.to_string()),
        })?;
        let mime_type = if file.extension().is_some_and(|e| e == "md") {
            "text/markdown"
        } else {
            "text/plain"
        };
        Ok(SkillResource {
            url: url.to_owned(),
            name: skill.name.clone(),
            path: file,
            mime_type,
            content: String::from_utf8_lossy(&bytes).into_owned(),
        })
    }
}
