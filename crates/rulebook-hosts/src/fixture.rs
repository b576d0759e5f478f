//! Host-emulation fixture trees (`fixtures/hosts/<case>/`) and their golden files: what a
//! real tool loaded, normalized so that no path of the machine that recorded it remains.
//!
//! A case is a folder holding `case.json` and `tree/`. `tree/` is copied to a scratch
//! directory, then `case.json` adds what a repository cannot hold: `.git` directories and
//! files, symbolic links, large generated files. Golden files live in
//! `golden/<host>/<cwd>.json` (`/` of the cwd written `+`).

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Host, HostView, Status};

/// `case.json`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// What the case shows.
    pub about: String,
    /// Directories (relative to the tree) that get a `.git` directory.
    #[serde(default)]
    pub git: Vec<String>,
    /// Directories that get a `.git` file (a worktree or submodule).
    #[serde(default)]
    pub git_files: Vec<String>,
    /// The working directories to run the tools in.
    pub cwds: Vec<String>,
    /// The home directory, relative to the tree.
    pub home: String,
    /// Symbolic links to create: `[link, target]`, the target as written in the link.
    #[serde(default)]
    pub symlinks: Vec<[String; 2]>,
    /// Files to generate: a line naming the file, then lines of `marker` up to `bytes`.
    #[serde(default)]
    pub generate: Vec<Generated>,
    /// The ids of the tools this case is run through (default: every verified tool).
    #[serde(default)]
    pub hosts: Vec<String>,
    /// Known differences between the emulation and the real tool: `"<host>@<cwd>"` → cause.
    #[serde(default)]
    pub differs: BTreeMap<String, String>,
}

/// One generated file of `case.json`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generated {
    /// Where, relative to the tree.
    pub path: String,
    /// Its exact size.
    pub bytes: usize,
    /// The word its lines repeat.
    pub marker: String,
}

impl Case {
    /// Reads `dir/case.json`.
    pub fn load(dir: &Path) -> io::Result<Case> {
        let text = std::fs::read_to_string(dir.join("case.json"))?;
        serde_json::from_str(&text).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {e}", dir.join("case.json").display()),
            )
        })
    }

    /// The tools of `table` to run: those named, else every verified one; an id the
    /// table does not hold is an error.
    pub fn hosts(&self, table: &[Host]) -> Result<Vec<Host>, String> {
        if self.hosts.is_empty() {
            return Ok(table.iter().copied().filter(|h| h.verified()).collect());
        }
        self.hosts
            .iter()
            .map(|id| {
                table
                    .iter()
                    .copied()
                    .find(|h| h.id() == id)
                    .ok_or_else(|| format!("unknown tool `{id}` in case.json"))
            })
            .collect()
    }

    /// Copies `dir/tree` into `into` (which must exist) and adds the case's markers, links
    /// and generated files.
    pub fn materialize(&self, dir: &Path, into: &Path) -> io::Result<()> {
        copy_tree(&dir.join("tree"), into)?;
        std::fs::create_dir_all(into.join(&self.home))?;
        for g in &self.git {
            std::fs::create_dir_all(into.join(g).join(".git"))?;
        }
        for g in &self.git_files {
            let d = into.join(g);
            std::fs::create_dir_all(&d)?;
            std::fs::write(d.join(".git"), "gitdir: ../.git/worktrees/w\n")?;
        }
        for g in &self.generate {
            let path = into.join(&g.path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, generated(&g.path, &g.marker, g.bytes))?;
        }
        for [link, target] in &self.symlinks {
            let path = into.join(link);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            #[cfg(unix)]
            std::os::unix::fs::symlink(target, &path)?;
            #[cfg(not(unix))]
            let _ = (target, path);
        }
        Ok(())
    }
}

/// The text of a generated file: `# <path>\n`, then `<marker> <n>\n` lines, cut to `bytes`.
pub fn generated(path: &str, marker: &str, bytes: usize) -> String {
    let mut text = format!("# {path}\n");
    let mut n = 0;
    while text.len() < bytes {
        n += 1;
        text.push_str(&format!("{marker} line {n:05} of the generated file\n"));
    }
    text.truncate(bytes);
    text
}

fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// One loaded file of a golden record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoldenFile {
    /// Relative to the tree.
    pub path: String,
    /// Where the tool cut it, in bytes of the file.
    pub truncated_at: Option<usize>,
}

/// What a tool loaded in one case and cwd: the files in its order, cut where it cut them,
/// and their text in its wrapping (the tree's absolute path written `$TREE`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Golden {
    /// The tool.
    pub host: String,
    /// Its version.
    pub version: String,
    /// The working directory, relative to the tree.
    pub cwd: String,
    /// The files loaded at start, in order.
    pub files: Vec<GoldenFile>,
    /// The text, in the tool's wrapping.
    pub text: String,
    /// The skills its catalog lists at start, in its order, with the description as listed
    /// (behaviour.md §14); none for a tool whose skills are not recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<GoldenSkill>,
}

/// One skill a tool's catalog lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoldenSkill {
    /// Its name.
    pub name: String,
    /// Its description, as listed (cut where the tool's budget cut it).
    pub description: String,
    /// Its `SKILL.md`, relative to the tree.
    pub path: String,
}

/// Where the golden file of `host` at `cwd` lives in a case folder.
pub fn golden_path(case_dir: &Path, host: Host, cwd: &str) -> PathBuf {
    case_dir.join("golden").join(host.id()).join(format!(
        "{}.json",
        if cwd.is_empty() { "." } else { cwd }.replace('/', "+")
    ))
}

/// Makes `path` relative to `root` (`$TREE` when it is the root), lossily.
pub fn relative(root: &Path, path: &Path) -> String {
    match path.strip_prefix(root) {
        Ok(rel) => rel.to_string_lossy().into_owned(),
        Err(_) => path.to_string_lossy().into_owned(),
    }
}

/// Replaces the tree's absolute path in `text` by `$TREE`.
pub fn redact(root: &Path, text: &str) -> String {
    text.replace(&*root.to_string_lossy(), "$TREE")
}

/// The golden record of an emulation (what `--as` computes), to compare with a real tool's.
pub fn golden_of(view: &HostView, root: &Path, cwd: &str) -> Golden {
    Golden {
        host: view.host.id().to_string(),
        version: view.host.version().unwrap_or("documented").to_string(),
        cwd: cwd.to_string(),
        files: view
            .loaded()
            // Gemini CLI's own list of its files (what a golden record holds) names the
            // files it found, not those their imports brought in: those are in the text.
            .filter(|f| view.host.tool().info().lists_imported_files() || f.imported_by.is_none())
            .map(|f| GoldenFile {
                path: relative(root, &f.path),
                truncated_at: match f.status {
                    Status::Cut { truncated_at } => Some(truncated_at),
                    _ => None,
                },
            })
            .collect(),
        text: redact(root, &view.prompt),
        skills: view
            .skills
            .iter()
            .filter(|s| s.status != crate::SkillStatus::Omitted)
            .map(|s| GoldenSkill {
                name: s.name.clone(),
                // A description may name its file (the OpenHands SDK's cut does).
                description: redact(root, &s.description),
                path: relative(root, &s.path),
            })
            .collect(),
    }
}
