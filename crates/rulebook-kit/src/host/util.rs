//! What the emulations share: reading as a tool reads, the project root, directory chains,
//! directory listings and glob tests.

use std::borrow::Cow;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use rulebook_registry::Links;
use rulebook_registry::SharedReads;

use globset::{GlobBuilder, GlobSetBuilder};

/// The most directories one rules-directory listing reads (a bound against link farms).
pub const MAX_DIRS: usize = 10_000;

/// The directories one rules-directory listing has read, by real path: a directory reached
/// twice (a link loop) is read once, and no more than [`MAX_DIRS`] are read.
#[derive(Default)]
pub struct Visited(HashSet<PathBuf>);

impl Visited {
    /// Whether `dir` is to be read: not read yet, and the bound not reached. Records it.
    pub fn first_visit(&mut self, dir: &Path) -> bool {
        self.0.len() < MAX_DIRS
            && self
                .0
                .insert(std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()))
    }
}

/// The most bytes of one file an emulation reads: rulebook's rule size cap (1 MiB). The tools read a
/// file whole; a larger one is read up to here and the view says so (see
/// `rulebook_hosts::emulate`), so a 3 GiB AGENTS.md cannot take 3 GiB.
pub const MAX_READ: u64 = 1024 * 1024;

thread_local! {
    /// The shared reads in force on this thread ([`with_shared_reads`]).
    static SHARED: std::cell::RefCell<Option<Arc<SharedReads>>> =
        const { std::cell::RefCell::new(None) };
    /// Whether the views made on this thread want their prompts ([`with_prompt`]).
    static PROMPT: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Runs `f` with the views' prompts wanted or not (`HostOptions::without_prompt`): without,
/// the views keep no text for them ([`prompt_wanted`]). What was in force before is in
/// force again after, `f` panicking or not.
pub fn with_prompt<R>(wanted: bool, f: impl FnOnce() -> R) -> R {
    /// Puts back what was in force before, when dropped.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            PROMPT.with(|p| p.set(self.0));
        }
    }
    let _restore = Restore(PROMPT.with(|p| p.replace(wanted)));
    f()
}

/// Whether the views made now want their prompts ([`with_prompt`]): a view made without
/// keeps no body and renders no text.
pub fn prompt_wanted() -> bool {
    PROMPT.with(std::cell::Cell::get)
}

/// Whether the file at `path` reads as [`read_text`] reads it (a regular file, readable),
/// without making its text: a file the shared reads in force say was read is.
pub fn readable(path: &Path) -> bool {
    if shared().is_some_and(|s| s.digest(path).is_some()) {
        return true;
    }
    read_with(path, |_| ()).is_some()
}

/// Runs `f` with `shared` in force on this thread: the reads of this module in it take a
/// file kept there instead of reading it, and keep each file they read whole. The reads in
/// force before are in force again after, `f` panicking or not.
pub fn with_shared_reads<R>(shared: Arc<SharedReads>, f: impl FnOnce() -> R) -> R {
    /// Puts back the reads in force before, when dropped.
    struct Restore(Option<Arc<SharedReads>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            SHARED.with(|s| *s.borrow_mut() = before);
        }
    }
    let _restore = Restore(SHARED.with(|s| s.borrow_mut().replace(shared)));
    f()
}

/// The shared reads in force on this thread, if any.
fn shared() -> Option<Arc<SharedReads>> {
    SHARED.with(|s| s.borrow().clone())
}

/// `f` of the bytes of a regular file (at most [`MAX_READ`] of them), or `None` (missing,
/// not a regular file, unreadable), as [`read`] reads them: without copying a file the
/// shared reads in force hold.
pub fn read_with<R>(path: &Path, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
    let Some(shared) = shared() else {
        return crate::ReadPolicy::Tool.read_bytes(path).map(|b| f(&b));
    };
    if let Some(bytes) = shared.get(path) {
        return Some(f(&bytes));
    }
    // Read into this thread's buffer (taken out while in use: `f` may read another file),
    // in one `read`; copied only into the store, when it keeps the file.
    let mut bytes = BUFFER.with(std::cell::Cell::take);
    if rulebook_fs::read_prefix_into(path, MAX_READ, &mut bytes).is_err() {
        BUFFER.with(|b| b.set(bytes));
        return None;
    }
    // Fewer bytes than the bound: the whole file.
    let whole = (bytes.len() as u64) < MAX_READ;
    if !(whole && shared.keep(path, &bytes)) {
        // Not kept: what the readers after ask of it.
        let digest = rulebook_registry::Digest {
            len: whole.then_some(bytes.len() as u64),
            hash: text_hash(&bytes),
        };
        shared.keep_digest(path, digest);
    }
    let answer = f(&bytes);
    // A buffer grown for a large file is let go; one for the small files is kept.
    if bytes.capacity() <= KEPT_BUFFER {
        BUFFER.with(|b| b.set(bytes));
    }
    Some(answer)
}

/// The largest buffer [`read_with`] keeps for the next file on its thread (64 KiB, many
/// times a rule file).
const KEPT_BUFFER: usize = 64 * 1024;

thread_local! {
    /// The buffer [`read_with`] reads into on this thread, between two files.
    static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The hash of the bytes a view reads of a file ([`read_with`]), by which
/// [`HostView::duplicates`](super::HostView::duplicates) tells copies apart, or `None` when
/// they are blank (blank files are no duplicates) or the file cannot be read. From the
/// shared reads in force when they hold the file or its digest.
pub fn content_hash(path: &Path) -> Option<u64> {
    if let Some(digest) = shared().and_then(|s| s.digest(path)) {
        return digest.hash;
    }
    read_with(path, text_hash).flatten()
}

/// The hash [`content_hash`] gives of `bytes`.
fn text_hash(bytes: &[u8]) -> Option<u64> {
    use std::hash::BuildHasher;
    (!bytes.iter().all(u8::is_ascii_whitespace))
        .then(|| foldhash::quality::FixedState::with_seed(0).hash_one(bytes))
}

/// The rule files of the rules folder `dir` with one of `extensions`, as
/// [`walk_rules_dir`](crate::fs::walk_rules_dir) lists them. With shared reads in force
/// ([`with_shared_reads`]), the views of one run walk a folder once, for every file, and
/// each takes those of its extensions ([`lists_extension`](crate::fs::lists_extension)).
pub fn rule_files(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let Some(shared) = shared() else {
        return crate::fs::walk_rules_dir(dir, extensions).files;
    };
    shared
        .folder_files(dir, || crate::fs::walk_rules_dir(dir, &["*"]).files)
        .iter()
        .filter(|path| crate::fs::lists_extension(path, extensions))
        .cloned()
        .collect()
}

/// The entries of the folder `dir`, each with whether it is a link, or `None` when it
/// cannot be listed; with shared reads in force ([`with_shared_reads`]), the views of one
/// run list a folder once.
pub fn links(dir: &Path) -> Option<Arc<Links>> {
    let list = || {
        std::fs::read_dir(dir).ok().map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| Some((e.file_name(), e.file_type().ok()?.is_symlink())))
                .collect()
        })
    };
    match shared() {
        Some(shared) => shared.links(dir, list),
        None => list().map(Arc::new),
    }
}

/// The bytes of a regular file (at most [`MAX_READ`] of them), or `None` (missing, not a
/// regular file, unreadable): [`ReadPolicy::Tool`](crate::ReadPolicy::Tool), how every
/// emulation reads (through the shared reads in force: [`with_shared_reads`]).
pub fn read(path: &Path) -> Option<Vec<u8>> {
    if shared().is_none() {
        return crate::ReadPolicy::Tool.read_bytes(path);
    }
    read_with(path, <[u8]>::to_vec)
}

/// `bytes` as text, invalid UTF-8 replaced by U+FFFD (`String::from_utf8_lossy`), borrowed
/// when they are UTF-8: told by `std::str::from_utf8`, which checks text a word at a time
/// where `from_utf8_lossy` goes a byte at a time.
pub fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// The text of a regular file, invalid UTF-8 replaced by U+FFFD (as `String::from_utf8_lossy`
/// and Node's `readFile(..., "utf-8")` both do).
pub fn read_text(path: &Path) -> Option<String> {
    if shared().is_none() {
        // The bytes become the text, not copied, when they are UTF-8.
        return crate::ReadPolicy::Tool.read_bytes(path).map(|b| {
            String::from_utf8(b)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        });
    }
    read_with(path, |b| match std::str::from_utf8(b) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(b).into_owned(),
    })
}

/// The length of the file at `path` (following links), as `stat().size`: from the shared
/// reads in force when they hold it.
pub fn length(path: &Path) -> Option<u64> {
    if let Some(shared) = shared() {
        if let Some(bytes) = shared.get(path) {
            return Some(bytes.len() as u64);
        }
        if let Some(len) = shared.digest(path).and_then(|d| d.len) {
            return Some(len);
        }
    }
    std::fs::metadata(path).ok().map(|m| m.len())
}

/// Whether `path` names a regular file (following links), as `stat().isFile()`.
pub fn is_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Whether `path` names a directory (following links).
pub fn is_dir(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_dir())
}

/// Whether an entry of this name exists (any kind, a dangling link excluded).
pub fn exists(path: &Path) -> bool {
    std::fs::metadata(path).is_ok()
}

/// The nearest ancestor of `dir` (inclusive) holding an entry named `.git`, for a directory
/// other than the run's (whose root the view has: [`super::HostOptions::git_root`]).
pub fn git_root(dir: &Path) -> Option<PathBuf> {
    rulebook_registry::find_root(dir, &[".git"])
}

/// Directories strictly below `root` holding an entry named `name` (one walk, as rulebook's
/// providers find nested rule files).
///
/// With shared reads in force ([`with_shared_reads`]), the views of one run walk `root`
/// once for every name of [`BELOW_NAMES`] and each takes its name from that walk, when it
/// finds what a walk for each name alone finds: a walk for several names does not enter a
/// folder of a wanted name, so no folder may bear one of them (`AGENTS.md/`), and the
/// walk must not have been cut short. Else, each walks for its own name.
pub fn below(root: &Path, name: &str) -> Vec<PathBuf> {
    if BELOW_NAMES.contains(&name) {
        if let Some(walked) = shared().and_then(|s| s.walk(root, || walk_all_names(root))) {
            return walked.get(name).cloned().unwrap_or_default();
        }
    }
    crate::fs::find_named(root, &[name.to_string()])
        .by_name
        .remove(name)
        .unwrap_or_default()
}

/// The names the tools' views look for below a root ([`below`]): one walk finds them all.
pub const BELOW_NAMES: [&str; 8] = [
    ".cursor",
    ".goosehints",
    ".windsurf",
    "AGENTS.md",
    "CLAUDE.local.md",
    "CLAUDE.md",
    "GEMINI.md",
    "WARP.md",
];

/// One walk below `root` for every name of [`BELOW_NAMES`]; `None` when it does not find
/// for each name what a walk for that name alone finds (see [`below`]).
fn walk_all_names(root: &Path) -> Option<rulebook_registry::Walked> {
    let names: Vec<String> = BELOW_NAMES.iter().map(|n| (*n).to_owned()).collect();
    let found = crate::fs::find_named(root, &names);
    // Unreadable folders, the depth or the entry bound: the walks for one name could see
    // other entries.
    if !found.diagnostics.is_empty() {
        return None;
    }
    // A hidden folder is skipped by a walk for any other name too; any other wanted
    // folder would be entered by the walk for another name alone.
    let folder_named = found.by_name.iter().any(|(name, dirs)| {
        !name.starts_with('.')
            && dirs
                .iter()
                .any(|d| std::fs::symlink_metadata(d.join(name)).is_ok_and(|m| m.is_dir()))
    });
    (!folder_named).then_some(found.by_name)
}

/// The directories from `top` down to `bottom` inclusive (`bottom` must be under `top`).
pub fn chain(top: &Path, bottom: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = bottom
        .ancestors()
        .take_while(|d| d.starts_with(top))
        .map(Path::to_path_buf)
        .collect();
    dirs.reverse();
    dirs
}

/// The entries of a directory (names), sorted by their bytes; empty when it cannot be read.
pub fn entries(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = read.filter_map(Result::ok).map(|e| e.path()).collect();
    out.sort();
    out
}

/// Whether the file name of `path` ends with `suffix`, case-sensitively, as the tools compare.
#[allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "the tools compare names case-sensitively (`name.endsWith('.md')`)"
)]
pub fn has_suffix(path: &Path, suffix: &str) -> bool {
    name(path).ends_with(suffix)
}

/// `path` as a person at `cwd` names it ([`rulebook_rule::show_path`], no home).
pub fn show(cwd: &Path, path: &Path) -> String {
    rulebook_rule::show_path(path, cwd, Path::new(""))
}

/// The file name of `path` as text (lossy).
pub fn name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Whether `path`, relative to `base`, matches one of `globs` (a glob without `/` matches
/// the file name at any depth). `false` for a path outside `base`.
pub fn globs_match(base: &Path, globs: &[String], path: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(base) else {
        return false;
    };
    let mut set = GlobSetBuilder::new();
    for glob in globs {
        let pattern = if glob.contains('/') {
            glob.trim_start_matches("./").to_string()
        } else {
            format!("**/{glob}")
        };
        if let Ok(g) = GlobBuilder::new(&pattern).literal_separator(true).build() {
            set.add(g);
        }
    }
    set.build().is_ok_and(|s| s.is_match(rel))
}

/// The frontmatter map and body of a rule file, as rulebook's parser reads them.
pub fn frontmatter(text: &str) -> (rulebook_frontmatter::Map, String) {
    let (frontmatter, body) = frontmatter_borrowed(text);
    (frontmatter, body.into_owned())
}

/// As [`frontmatter`], the body borrowed from `text` where it can be: for a view that
/// keeps the body of few files.
pub fn frontmatter_borrowed(text: &str) -> (rulebook_frontmatter::Map, Cow<'_, str>) {
    let parsed = rulebook_frontmatter::parse_frontmatter(
        text,
        &rulebook_frontmatter::ParseOptions::new()
            .recovery(rulebook_frontmatter::Recovery::QuoteValues),
    );
    (parsed.frontmatter, parsed.body)
}

/// A list of strings from a string or a list of strings.
pub fn strings(value: Option<&rulebook_frontmatter::Value>) -> Vec<String> {
    match value {
        Some(rulebook_frontmatter::Value::String(s)) => vec![s.clone()],
        Some(rulebook_frontmatter::Value::List(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// The repository root as git itself finds it, for the tools that ask git (OpenCode and
/// its forks run `git rev-parse`): the nearest `.git` above the working directory, where a
/// `.git` file must name a git directory that is there (`gitdir: …`), or the folder is in
/// no repository.
pub fn repository(options: &super::HostOptions) -> Option<&Path> {
    let root = options.git_root()?;
    let dot_git = root.join(".git");
    if !is_file(&dot_git) {
        return Some(root);
    }
    let text = read_text(&dot_git)?;
    let target = text.strip_prefix("gitdir:")?.trim();
    is_dir(&root.join(target)).then_some(root)
}

/// Every file named `name` below `root` (itself included), as a glob `**/name` finds them:
/// links followed (a loop ends), hidden folders too when `hidden`; at most `max_dirs`
/// directories visited; in path order.
pub fn find_all(root: &Path, name: &str, hidden: bool, max_dirs: usize) -> Vec<PathBuf> {
    find_where(root, hidden, max_dirs, |entry| entry == name)
}

/// Every file below `root` whose name ends with `suffix` (case-sensitively, as the tools
/// compare), walked as [`find_all`] walks.
pub fn find_with_suffix(root: &Path, suffix: &str, hidden: bool, max_dirs: usize) -> Vec<PathBuf> {
    find_where(root, hidden, max_dirs, |entry| entry.ends_with(suffix))
}

/// Every file below `root` whose name `wanted` accepts, walked as [`find_all`] walks.
fn find_where(
    root: &Path,
    hidden: bool,
    max_dirs: usize,
    wanted: impl Fn(&str) -> bool,
) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    let mut visited = std::collections::HashSet::new();
    while let Some(dir) = stack.pop() {
        let Ok(real) = std::fs::canonicalize(&dir) else {
            continue;
        };
        if !visited.insert(real) || visited.len() > max_dirs {
            continue;
        }
        for path in entries(&dir) {
            let entry = self::name(&path);
            if wanted(&entry) && is_file(&path) {
                found.push(path);
            } else if (hidden || !entry.starts_with('.')) && is_dir(&path) {
                stack.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Names in the order of JavaScript's `a.localeCompare(b)` (the root collation), as far as
/// names of files and skills need: letters without regard to case, before them digits, and
/// before those the other characters; then lower case before upper case.
///
/// ```
/// let mut names = ["cl-cwd", "Bad Name!", "ag-user", "_x", "9lives", "b"];
/// names.sort_by(|a, b| rulebook_kit::host::util::locale_compare(a, b));
/// assert_eq!(names, ["_x", "9lives", "ag-user", "b", "Bad Name!", "cl-cwd"]);
/// ```
pub fn locale_compare(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |s: &str| -> Vec<(u8, char)> {
        s.chars()
            .map(|c| {
                let class = if c.is_alphabetic() {
                    2
                } else {
                    u8::from(c.is_numeric())
                };
                (class, c.to_lowercase().next().unwrap_or(c))
            })
            .collect()
    };
    let case = |s: &str| -> Vec<bool> { s.chars().map(char::is_uppercase).collect() };
    key(a)
        .cmp(&key(b))
        .then_with(|| case(a).cmp(&case(b)))
        .then_with(|| a.cmp(b))
}

/// The directories from the working directory up to the repository root as git finds it
/// ([`repository`]), nearest first; up to `/` out of any repository (OpenCode's walk up).
pub fn up_to_repository(options: &super::HostOptions) -> Vec<PathBuf> {
    let cwd = options.cwd();
    match repository(options) {
        Some(root) => {
            let mut dirs = chain(root, cwd);
            dirs.reverse();
            dirs
        }
        None => cwd.ancestors().map(Path::to_path_buf).collect(),
    }
}

/// The first of `names` that is in any of `dirs` (a directory counts, as Node's `exists`
/// says), with every file of that name there, in the order of `dirs`: the name OpenCode
/// and its forks read, and the files they load.
pub fn first_name_found<'n>(
    dirs: &[PathBuf],
    names: &[&'n str],
) -> Option<(&'n str, Vec<PathBuf>)> {
    names.iter().find_map(|&name| {
        let found: Vec<PathBuf> = dirs
            .iter()
            .map(|d| d.join(name))
            .filter(|p| exists(p))
            .collect();
        (!found.is_empty()).then_some((name, found))
    })
}

/// The user's when under the home, else the project's.
pub fn scope_of(path: &Path, home: &Path) -> super::Scope {
    if !home.as_os_str().is_empty() && path.starts_with(home) {
        super::Scope::User
    } else {
        super::Scope::Project
    }
}

/// A skill's name and its description, if any, as gray-matter over js-yaml reads them: the
/// frontmatter's YAML must be valid, as written or once rewritten by `retry` (the tool's own
/// second reading); the name must be a string, the description absent or a string. `None`:
/// the skill is not loaded.
pub fn strict_name_and_description(
    text: &str,
    retry: impl Fn(&str) -> String,
) -> Option<(String, Option<String>)> {
    use rulebook_frontmatter::{Outcome, ParseOptions, Value, parse_frontmatter};
    let strict = |text: &str| {
        let parsed = parse_frontmatter(text, &ParseOptions::new());
        matches!(
            parsed.outcome,
            Outcome::Absent | Outcome::Parsed | Outcome::NotAMap
        )
        .then_some(parsed.frontmatter)
    };
    let map = strict(text).or_else(|| strict(&retry(text)))?;
    let name = match map.get("name") {
        Some(Value::String(name)) => name.clone(),
        _ => return None,
    };
    let description = match map.get("description") {
        None => None,
        Some(Value::String(d)) => Some(d.clone()),
        Some(_) => return None,
    };
    Some((name, description))
}

/// A skills catalog as OpenCode builds it (and its forks): every `SKILL.md` below each root
/// in turn (`(folder, scope, hidden folders searched too)`, [`find_all`]), each path once,
/// read by `read` (`None`: not loaded); a later one wins a name; listed only with a
/// description; sorted by [`locale_compare`].
pub fn skills_catalog(
    roots: &[(PathBuf, super::Scope, bool)],
    read: impl Fn(&str) -> Option<(String, Option<String>)>,
) -> Vec<super::HostSkill> {
    let mut seen = HashSet::new();
    // Every skill read, in order (`None`: no description), and the last of each name: the
    // one that stands, where it stands (a later skill of a name takes its place at the end,
    // and one without a description leaves the name out). Found by a hash, not by removing
    // the earlier one from the list each time: a catalog of many skills stays linear.
    let mut read_in_order: Vec<(String, Option<super::HostSkill>)> = Vec::new();
    let mut last: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (root, scope, hidden) in roots {
        for path in find_all(root, "SKILL.md", *hidden, MAX_DIRS) {
            if !seen.insert(path.clone()) {
                continue;
            }
            let Some((name, description)) = read_text(&path).and_then(|text| read(&text)) else {
                continue;
            };
            last.insert(name.clone(), read_in_order.len());
            let skill = description.map(|description| super::HostSkill {
                name: name.clone(),
                description,
                path,
                scope: *scope,
                status: super::SkillStatus::Listed,
                outside: None,
            });
            read_in_order.push((name, skill));
        }
    }
    let mut skills: Vec<super::HostSkill> = read_in_order
        .into_iter()
        .enumerate()
        .filter(|(i, (name, _))| last.get(name) == Some(i))
        .filter_map(|(_, (_, skill))| skill)
        .collect();
    skills.sort_by(|a, b| locale_compare(&a.name, &b.name));
    skills
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A skills catalog keeps, of each name, the last skill read (a later one takes the
    /// earlier one's place; one without a description leaves the name out until another
    /// comes), sorted by name: against the rule read literally (remove every earlier skill
    /// of the name, then add this one when it has a description) over 300 skills of seven
    /// names in two roots.
    #[test]
    fn a_skills_catalog_keeps_the_last_skill_of_each_name() {
        let dir = tempfile::tempdir().unwrap();
        let roots: Vec<(PathBuf, super::super::Scope, bool)> = ["first", "second"]
            .iter()
            .map(|r| (dir.path().join(r), super::super::Scope::Project, false))
            .collect();
        let names = ["b", "A", "c", "a", "_x", "9lives", "Bad Name!"];
        let mut order = Vec::new();
        for i in 0..300_usize {
            let root = &roots[i / 150].0;
            let folder = root.join(format!("s{i:03}"));
            std::fs::create_dir_all(&folder).unwrap();
            let name = names[(i * 7 + i / 11) % names.len()];
            let described = (i * 13) % 5 != 0;
            let text = if described {
                format!("{name}\nskill {i}")
            } else {
                name.to_owned()
            };
            std::fs::write(folder.join("SKILL.md"), text).unwrap();
            order.push((name.to_owned(), described.then(|| format!("skill {i}"))));
        }
        let read = |text: &str| {
            let mut lines = text.lines();
            let name = lines.next()?.to_owned();
            Some((name, lines.next().map(str::to_owned)))
        };
        let mut expected: Vec<(String, String)> = Vec::new();
        for (name, description) in order {
            expected.retain(|(n, _)| *n != name);
            if let Some(description) = description {
                expected.push((name, description));
            }
        }
        expected.sort_by(|a, b| locale_compare(&a.0, &b.0));
        let catalog: Vec<(String, String)> = skills_catalog(&roots, read)
            .into_iter()
            .map(|s| (s.name, s.description))
            .collect();
        assert_eq!(catalog, expected);
        assert!(catalog.len() > 3, "most names stand: {catalog:?}");
    }

    /// A rules listing reads at most 10,000 directories (the crate doc: an emulation ends on
    /// any tree, a link farm included), and each real directory once: a link to one already
    /// read, or the same path again, is not read twice.
    #[test]
    fn a_listing_reads_each_directory_once_and_at_most_max_dirs() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("rules");
        std::fs::create_dir(&real).unwrap();
        let mut seen = Visited::default();
        assert!(seen.first_visit(&real));
        assert!(!seen.first_visit(&real));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
            assert!(!seen.first_visit(&dir.path().join("link")));
        }
        // Directories that do not exist are told apart by their paths; 10,000 in all.
        for i in 1..MAX_DIRS {
            assert!(seen.first_visit(&dir.path().join(format!("d{i}"))), "{i}");
        }
        assert!(!seen.first_visit(&dir.path().join("one-more")));
    }

    /// A store that keeps no bytes (`SharedReads::new(0)`) keeps what the readers after ask
    /// of a file read through it: that it reads, its length and the hash of its bytes, the
    /// same as a reader without a store finds; they do not read it again for those (a file
    /// changed on disk since answers as it was read), while a read of its text reads the
    /// disk. A file past the read bound says its length from the disk, and its hash is that
    /// of the bytes read.
    #[test]
    fn a_store_without_bytes_answers_from_what_was_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = |name: &str| dir.path().join(name);
        std::fs::write(path("a.md"), "same text\n").unwrap();
        std::fs::write(path("b.md"), "same text\n").unwrap();
        std::fs::write(path("blank.md"), " \n\t\n").unwrap();
        let mut big = vec![b'x'; usize::try_from(MAX_READ).unwrap()];
        big.push(b'y');
        std::fs::write(path("big.md"), &big).unwrap();
        let names = ["a.md", "b.md", "blank.md", "big.md", "missing.md"];
        let answers = || {
            names
                .map(|n| (length(&path(n)), content_hash(&path(n)), readable(&path(n))))
                .to_vec()
        };
        let own = answers();
        assert_eq!(own[0], own[1]);
        assert_eq!(own[2].1, None, "a blank file has no hash");
        assert_eq!(own[3].0, Some(MAX_READ + 1));
        assert_eq!(own[4], (None, None, false));
        let shared = Arc::new(SharedReads::new(0));
        with_shared_reads(Arc::clone(&shared), || {
            for name in names {
                read_with(&path(name), |_| ());
            }
            assert_eq!(shared.bytes(), 0, "no bytes kept");
            assert_eq!(answers(), own);
            std::fs::write(path("a.md"), "other, longer text\n").unwrap();
            assert_eq!(answers(), own, "answered from the digest");
            assert_eq!(read_text(&path("a.md")).unwrap(), "other, longer text\n");
        });
        assert_eq!(shared.digest(&path("a.md")).unwrap().len, Some(10));
        assert_eq!(shared.digest(&path("big.md")).unwrap().len, None);
        assert_eq!(shared.digest(&path("missing.md")), None);
    }

    /// With shared reads in force, a rules folder is walked once for every extension and
    /// listed once for its links: each reader gets what a walk and a listing of its own
    /// give, whatever the entries (other extensions, a hidden file, an ignored one, a
    /// folder named like a rule, a nested folder, links to a file, to a folder and to
    /// nothing), and the second reader walks and lists nothing.
    #[test]
    fn readers_sharing_a_folders_walk_and_listing_get_what_their_own_give() {
        let dir = tempfile::tempdir().unwrap();
        let rules = dir.path().join(".cursor/rules");
        std::fs::create_dir_all(rules.join("nested/deeper")).unwrap();
        std::fs::create_dir_all(rules.join("folder.mdc")).unwrap();
        for file in [
            "a.mdc",
            "b.md",
            "c.txt",
            ".hidden.mdc",
            "ignored.mdc",
            ".mdc",
            "nested/d.mdc",
            "nested/deeper/e.md",
            "folder.mdc/f.mdc",
        ] {
            std::fs::write(rules.join(file), "x").unwrap();
        }
        std::fs::write(rules.join(".ignore"), "ignored.mdc\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink(rules.join("a.mdc"), rules.join("link.mdc")).unwrap();
            symlink(rules.join("nested"), rules.join("linked-folder.mdc")).unwrap();
            symlink(rules.join("missing.mdc"), rules.join("dangling.mdc")).unwrap();
        }
        let sets: [&[&str]; 4] = [&["mdc", "md"], &["*"], &["md"], &["txt"]];
        let own: Vec<Vec<PathBuf>> = sets.iter().map(|e| rule_files(&rules, e)).collect();
        assert!(own[0].contains(&rules.join("nested/d.mdc")), "{:?}", own[0]);
        assert!(!own[0].contains(&rules.join("ignored.mdc")), "{:?}", own[0]);
        let own_links = links(&rules).unwrap();
        let shared = Arc::new(SharedReads::default());
        with_shared_reads(Arc::clone(&shared), || {
            for (extensions, want) in sets.iter().zip(&own) {
                assert_eq!(&rule_files(&rules, extensions), want, "{extensions:?}");
            }
            assert_eq!(*links(&rules).unwrap(), *own_links);
            assert_eq!(links(&rules.join("no-such-folder")), None);
        });
        // Kept: the second reader neither walks nor lists.
        assert_eq!(
            shared.folder_files(&rules, || unreachable!()).len(),
            own[1].len()
        );
        assert!(shared.links(&rules, || unreachable!()).is_some());
        assert!(
            shared
                .links(&rules.join("no-such-folder"), || unreachable!())
                .is_none()
        );
        #[cfg(unix)]
        assert_eq!(own_links.get(std::ffi::OsStr::new("link.mdc")), Some(&true));
    }
}
