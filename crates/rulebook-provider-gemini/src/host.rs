//! Gemini CLI 0.61.0 (`packages/core` `memoryDiscovery` and `memoryImportProcessor`, read
//! in the installed bundle and observed offline):
//! - the global `~/.gemini/GEMINI.md` first;
//! - then `GEMINI.md` in every directory from `cwd` up to the git root (the nearest
//!   ancestor holding `.git`), or in `cwd` alone without one; the walk stops at
//!   `~/.gemini`; nothing below `cwd` at start;
//! - duplicates by device and inode dropped (the one nearer the root kept), then the paths
//!   sorted as JavaScript sorts strings (UTF-16 code units): `r/Api/GEMINI.md` comes before
//!   `r/GEMINI.md`;
//! - `@path` imports (after white space or at the start, the path starting with `.`, `/` or
//!   a letter, outside backtick spans) inlined between `<!-- Imported from: … -->` markers,
//!   five levels deep, inside the importing root file's git root; a failure leaves an
//!   `<!-- Import failed: … -->` comment in the text;
//! - each file `--- Context from: <path> ---\n<text, trimmed>\n--- End of Context from: <path> ---`,
//!   blank ones dropped, joined by blank lines.
//!
//! In the request the global block sits in the system instruction and the project blocks in
//! the first user message, each in the tool's own wrapping; the emulation's prompt is the
//! blocks, global first, joined by blank lines.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rulebook_kit::host::imports::{Missing, expand_file, push_imported};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

const MAX_IMPORT_DEPTH: usize = 5;

/// What Gemini CLI loads when started in `options.cwd()` (see the module docs).
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = HostView::new(crate::TOOL);
    let cwd = options.cwd();
    let gemini_dir = options.home().join(".gemini");
    let mut blocks = Vec::new();

    let global = gemini_dir.join("GEMINI.md");
    if util::is_file(&global) {
        load(
            &mut view,
            &mut blocks,
            &global,
            Scope::User,
            "your global GEMINI.md",
        );
    }

    let ceiling = options.top();
    let mut found = Vec::new();
    for dir in cwd.ancestors() {
        if dir == gemini_dir {
            break;
        }
        let path = dir.join("GEMINI.md");
        if readable(&path) {
            found.push(path);
        }
        if dir == ceiling {
            break;
        }
    }
    found.reverse();
    let mut identities = HashSet::new();
    let mut project = Vec::new();
    for path in found {
        match identity(&path) {
            Some(id) if !identities.insert(id) => view.push(
                path,
                Scope::Project,
                Status::NotRead,
                "the same file (device and inode) as one nearer the root: Gemini CLI reads it once",
            ),
            _ => project.push(path),
        }
    }
    project.sort_by(|a, b| {
        a.to_string_lossy()
            .encode_utf16()
            .cmp(b.to_string_lossy().encode_utf16())
    });
    for path in &project {
        load(
            &mut view,
            &mut blocks,
            path,
            Scope::Project,
            "on the path from the working directory up to the git root (paths sorted as strings)",
        );
    }

    for dir in util::below(cwd, "GEMINI.md") {
        let path = dir.join("GEMINI.md");
        if util::is_file(&path) {
            view.push(
                path,
                Scope::Project,
                Status::under(dir),
                "below the working directory: Gemini CLI reads it when a tool touches a file there",
            );
        }
    }
    if let Some(root) = options.git_root() {
        if root != cwd {
            view.notes.push(
                "Gemini CLI orders its files by sorting their absolute paths, not from the root down".to_string(),
            );
        }
    }
    view.prompt = blocks.join("\n\n");
    add_skills(&mut view, cwd, options.home());
    view
}

/// `fs.access(R_OK)` on a path that need not be a file (a directory named GEMINI.md passes
/// and then fails to read, silently).
fn readable(path: &Path) -> bool {
    util::exists(path)
}

#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(path: &Path) -> Option<(u64, u64)> {
    let _ = path;
    None
}

fn load(view: &mut HostView, blocks: &mut Vec<String>, path: &Path, scope: Scope, reason: &str) {
    if util::is_dir(path) {
        view.push(
            path.to_path_buf(),
            scope,
            Status::NotRead,
            "a directory named GEMINI.md is skipped",
        );
        return;
    }
    let Some(text) = util::read_text(path) else {
        view.push(path.to_path_buf(), scope, Status::NotRead, "unreadable");
        return;
    };
    let base = path.parent().unwrap_or(Path::new("/"));
    let root = import_root(base);
    let (content, imported) = expand_file(&text, path, &root, MAX_IMPORT_DEPTH, Missing::Comment);
    let trimmed = content.trim();
    if trimmed.is_empty() {
        view.push(
            path.to_path_buf(),
            scope,
            Status::NotRead,
            "blank: Gemini CLI drops a file with no text",
        );
        return;
    }
    view.push(path.to_path_buf(), scope, Status::Loaded, reason);
    // The files its imports brought in (or refused) are listed
    // right after it, as Claude Code's view lists them.
    push_imported(view, imported, scope);
    let shown = path.display();
    blocks.push(format!(
        "--- Context from: {shown} ---\n{trimmed}\n--- End of Context from: {shown} ---"
    ));
}

/// The nearest ancestor of `dir` holding `.git`, else `dir`: imports must stay under it.
fn import_root(dir: &Path) -> PathBuf {
    util::git_root(dir).unwrap_or_else(|| dir.to_path_buf())
}

/// The skills Gemini CLI 0.61.0 lists (`packages/core/src/skills/skillManager.ts`
/// `discoverSkills`, `skillLoader.ts` `loadSkillsFromDir`, at 5411f11; its core run offline
/// by the oracle): `~/.gemini/skills`, `~/.agents/skills`, then, in a trusted folder, the
/// working directory's `.gemini/skills` and `.agents/skills`; in each, `SKILL.md` at the top
/// and one folder down (hidden folders and `node_modules` passed over, links followed and
/// shown at the link's path); `name` and `description` both required (empty allowed), the
/// characters `: \ / < > * ? " |` of a name written `-`; a later skill of a name replaces
/// the earlier one in its place. The built-in skills are not emulated.
fn add_skills(view: &mut HostView, cwd: &Path, home: &Path) {
    let roots = [
        (home.join(".gemini/skills"), Scope::User),
        (home.join(".agents/skills"), Scope::User),
        (cwd.join(".gemini/skills"), Scope::Project),
        (cwd.join(".agents/skills"), Scope::Project),
    ];
    let mut skills: Vec<rulebook_kit::host::HostSkill> = Vec::new();
    let mut several = false;
    for (root, scope) in roots {
        if !util::is_dir(&root) {
            continue;
        }
        let mut files = Vec::new();
        let top = root.join("SKILL.md");
        if util::is_file(&top) {
            files.push(top);
        }
        for entry in util::entries(&root) {
            let hidden = entry
                .file_name()
                .is_some_and(|n| n.as_encoded_bytes().starts_with(b".") || n == "node_modules");
            let file = entry.join("SKILL.md");
            if !hidden && util::is_dir(&entry) && util::is_file(&file) {
                files.push(file);
            }
        }
        files.sort();
        let mut found = 0;
        for file in files {
            let Some((name, description)) = skill_of(&file) else {
                continue;
            };
            found += 1;
            let skill = rulebook_kit::host::HostSkill {
                name,
                description,
                path: file,
                scope,
                status: rulebook_kit::host::SkillStatus::Listed,
                outside: None,
            };
            match skills.iter_mut().find(|s| s.name == skill.name) {
                Some(earlier) => *earlier = skill,
                None => skills.push(skill),
            }
        }
        several |= found > 1;
    }
    if skills.iter().any(|s| s.scope == Scope::Project) {
        view.notes.push(
            "the working directory's skills are read in a trusted folder only (Gemini CLI asks; GEMINI_CLI_TRUST_WORKSPACE=true trusts it)".to_owned(),
        );
    }
    if several {
        view.notes.push(
            "Gemini CLI lists a folder's skills in the order its file search returns them (neither sorted nor the directory's own order, and not the same from run to run): shown by path here; of two skills of one name in one folder, which one it keeps follows that order".to_owned(),
        );
    }
    view.skills = skills;
}

/// A `SKILL.md`'s name and description as Gemini CLI reads them, or `None` when it skips
/// the file (no frontmatter, or `name` or `description` missing).
fn skill_of(path: &Path) -> Option<(String, String)> {
    let text = util::read_text(path)?;
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    if !rest.lines().any(|l| l == "---") {
        return None;
    }
    let (frontmatter, _) = util::frontmatter(&text);
    let string = |key: &str| match frontmatter.get(key) {
        Some(rulebook_kit::frontmatter::Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let name = string("name")?;
    let description = string("description")?;
    let name: String = name
        .chars()
        .map(|c| if ":\\/<>*?\"|".contains(c) { '-' } else { c })
        .collect();
    Some((name, description))
}

/// Gemini CLI as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Gemini;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "gemini",
    "Gemini CLI",
    "gemini",
    "goldens recorded from Gemini CLI 0.61.0's own memory discovery run offline (`cargo xtask oracle`)",
)
.verified("0.61.0")
.lists_found_files_only()
.skills_in_search_order();

impl Tool for Gemini {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
