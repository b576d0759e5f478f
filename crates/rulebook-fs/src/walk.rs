//! Walking a rules directory: [`walk_rules_dir`] and its bounds and order.

use std::fs;
use std::path::{Path, PathBuf};

use rulebook_rule::{Diagnostic, DiagnosticCode};

use crate::read::{not_a_file, not_a_file_where};

/// The files a walk found, and what it could not walk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Walked {
    /// Rule files, in walk order, each under the path it was found at (links not resolved).
    pub files: Vec<PathBuf>,
    /// For each of `files`: whether it is a symbolic link (its real path may lie anywhere;
    /// any other file's real path is under the walk root's).
    pub linked: Vec<bool>,
    /// Broken links, unfollowed directory links, unreadable subdirectories.
    pub diagnostics: Vec<Diagnostic>,
}

/// The deepest a walk goes below its root: deeper entries are skipped with a warning.
pub const MAX_WALK_DEPTH: usize = 256;

/// The most entries one walk visits: a rules directory that is really `/` (a symlink
/// `.clinerules -> /`) must not turn discovery into a scan of the whole disk. Which
/// entries come before the bound is the directory listing's order, not the sorted one.
pub const MAX_WALK_ENTRIES: usize = 200_000;

/// The most entries the one nested walk below the working directory (and the watcher's
/// list of the directories it reads) visits: a monorepo of a million files, its ignored
/// folders left out, is walked whole. Past it the walk is cut at the same entry every run:
/// the first entries in name order.
pub const MAX_NESTED_ENTRIES: usize = 2_000_000;

/// Lists the rule files under `dir` whose extension is one of `extensions` (without dot,
/// case-sensitive; `["*"]`: every file). See the crate docs for the rules of the walk. A walk stops at
/// [`MAX_WALK_DEPTH`] levels and [`MAX_WALK_ENTRIES`] entries, with a warning.
pub fn walk_rules_dir(dir: &Path, extensions: &[&str]) -> Walked {
    walk_bounded(dir, extensions, MAX_WALK_ENTRIES, None)
}

/// The files among `only` that [`walk_rules_dir`] would list under `dir`, found by the same
/// walk (hidden entries, ignore files, `node_modules`, links, depth) led straight to them:
/// each folder on the way to one of `only` is listed, no other is entered. A file created
/// in a rules directory of 80,000 files is known to be one of its rules without walking
/// the 80,000.
///
/// The diagnostics are those of the folders on the way; the entry bound counts only the
/// entries this walk visits (a caller that needs the whole walk's bound walks it whole).
///
/// ```
/// use std::collections::BTreeSet;
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir_all(dir.path().join("a/.hidden"))?;
/// for file in ["a/one.md", "a/.hidden/two.md", "a/three.md"] {
///     std::fs::write(dir.path().join(file), "x")?;
/// }
/// let only: BTreeSet<_> = ["a/one.md", "a/.hidden/two.md"]
///     .iter()
///     .map(|f| dir.path().join(f))
///     .collect();
/// let walked = rulebook_fs::walk_rules_dir_only(dir.path(), &["md"], &only);
/// // The hidden folder is skipped, as the whole walk skips it; `three.md` is not asked for.
/// assert_eq!(walked.files, [dir.path().join("a/one.md")]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn walk_rules_dir_only(
    dir: &Path,
    extensions: &[&str],
    only: &std::collections::BTreeSet<PathBuf>,
) -> Walked {
    walk_bounded(dir, extensions, MAX_WALK_ENTRIES, Some(only))
}

/// [`walk_rules_dir`] with the entry bound as a parameter (tests use a small one), led
/// straight to the files of `only` when given ([`walk_rules_dir_only`]).
fn walk_bounded(
    dir: &Path,
    extensions: &[&str],
    max_entries: usize,
    only: Option<&std::collections::BTreeSet<PathBuf>>,
) -> Walked {
    if let Some(only) = only {
        let under: Vec<&PathBuf> = only.iter().filter(|p| p.starts_with(dir)).collect();
        if under.is_empty() {
            return Walked::default();
        }
        // Each file decided by its path alone when no ignore file can apply: no folder is
        // listed (a rules directory of 20,000 files costs 15 ms to list).
        let decided: Option<Vec<&PathBuf>> = under
            .iter()
            .map(|p| listed_unwalked(dir, p, extensions).map(|listed| listed.then_some(*p)))
            .collect::<Option<Vec<_>>>()
            .map(|listed| listed.into_iter().flatten().collect());
        if let Some(files) = decided {
            return Walked {
                linked: vec![false; files.len()],
                files: files.into_iter().cloned().collect(),
                diagnostics: Vec::new(),
            };
        }
    }
    let mut walked = Walked::default();
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(meta) => {
            walked
                .diagnostics
                .push(not_a_file_where(dir, meta.file_type(), "a directory"));
            return walked;
        }
        // Only "not found" is silent: a missing rules directory is the common case.
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return walked,
        Err(err) => {
            walked.diagnostics.push(
                Diagnostic::new(
                    DiagnosticCode::WalkFailed,
                    format!(
                        "Could not read the rules directory {}: {err}",
                        dir.display()
                    ),
                )
                .with_path(dir),
            );
            return walked;
        }
    }
    let mut visited = 0usize;
    let mut too_deep = 0usize;
    // Owned for the walker's filter, which must be `'static` (a few paths).
    let only: Option<Vec<PathBuf>> = only.map(|only| only.iter().cloned().collect());
    let walker = ignore::WalkBuilder::new(dir)
        .hidden(true)
        .ignore(true)
        .git_ignore(true)
        .git_exclude(true)
        // The machine-wide excludes file would make results differ between machines.
        .git_global(false)
        .require_git(true)
        .parents(true)
        .follow_links(false)
        .filter_entry(move |e| {
            e.file_name() != "node_modules"
                && only
                    .as_ref()
                    .is_none_or(|only| only.iter().any(|p| p.starts_with(e.path())))
        })
        .max_depth(Some(MAX_WALK_DEPTH + 1))
        // No sort in the walker: its comparator takes each entry's file name apart at every
        // comparison (a tenth of discovery at 10,000 rules). The files are sorted once at
        // the end instead, in `Path`'s order (component by component, see `path_order`),
        // which is the depth-first order of names sorted byte-wise.
        .build();
    for entry in walker {
        visited += 1;
        if visited > max_entries {
            walked.diagnostics.push(
                Diagnostic::new(
                    DiagnosticCode::WalkFailed,
                    format!(
                        "Stopped walking {} after {max_entries} entries; rule files beyond them were not read (is it a link to a large tree?)",
                        dir.display()
                    ),
                )
                .with_path(dir),
            );
            break;
        }
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                walked.diagnostics.push(
                    Diagnostic::new(
                        DiagnosticCode::WalkFailed,
                        format!("Could not walk part of {}: {err}", dir.display()),
                    )
                    .with_path(dir),
                );
                continue;
            }
        };
        if entry.depth() == 0 {
            continue;
        }
        if entry.depth() > MAX_WALK_DEPTH {
            too_deep += 1;
            continue;
        }
        let path = entry.path();
        if !has_extension(path, extensions) {
            if entry.path_is_symlink() && path.is_dir() {
                walked.diagnostics.push(
                    Diagnostic::new(
                        DiagnosticCode::WalkFailed,
                        format!(
                            "Not descending into {}: symlinked directories are not followed",
                            path.display()
                        ),
                    )
                    .with_path(path),
                );
            }
            continue;
        }
        let is_file = if entry.path_is_symlink() {
            match fs::metadata(path) {
                Ok(meta) if meta.is_file() => true,
                Ok(meta) => {
                    walked.diagnostics.push(not_a_file(path, meta.file_type()));
                    false
                }
                Err(err) => {
                    walked.diagnostics.push(
                        Diagnostic::new(
                            DiagnosticCode::ReadFailed,
                            format!("Skipped broken symlink {}: {err}", path.display()),
                        )
                        .with_path(path),
                    );
                    false
                }
            }
        } else {
            match entry.file_type() {
                Some(kind) if kind.is_file() => true,
                // A directory named like a rule file (`notes.md/`) is walked into, not read.
                Some(kind) if kind.is_dir() => false,
                Some(kind) => {
                    walked.diagnostics.push(not_a_file(path, kind));
                    false
                }
                None => false,
            }
        };
        if is_file {
            walked.files.push(path.to_path_buf());
            walked.linked.push(entry.path_is_symlink());
        }
    }
    sort_walked(&mut walked, dir);
    if too_deep > 0 {
        walked.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::WalkFailed,
                format!(
                    "Skipped {too_deep} entries more than {MAX_WALK_DEPTH} levels below {}",
                    dir.display()
                ),
            )
            .with_path(dir),
        );
    }
    walked
}

/// Whether the walk of `dir` ([`walk_rules_dir`]) lists `path`, told from the path alone:
/// `None` when that cannot be told so (an ignore file, or a `.git` file, in `dir`, below
/// it on the way to `path`, or above it; a folder on the way is a link, or cannot be
/// opened; `path` is a link or lies too deep, which the walk reports), for the walk
/// itself to tell. The walk honours no ignore file but those, and the entries it skips
/// otherwise (hidden ones, `node_modules`, files of other extensions) are told by their
/// names.
fn listed_unwalked(dir: &Path, path: &Path, extensions: &[&str]) -> Option<bool> {
    let inside = path.strip_prefix(dir).ok()?;
    let depth = inside.components().count();
    if depth == 0 || depth > MAX_WALK_DEPTH {
        return None;
    }
    if !fs::metadata(dir).ok()?.is_dir() {
        return None;
    }
    // Every folder whose ignore files the walk reads for `path`: `dir`'s parents, `dir`,
    // and the folders on the way.
    let mut folders: Vec<&Path> = dir.ancestors().collect();
    folders.reverse();
    let on_the_way: Vec<&Path> = path
        .ancestors()
        .skip(1)
        .take_while(|a| a.starts_with(dir) && *a != dir)
        .collect();
    for folder in on_the_way.iter().rev() {
        let kind = fs::symlink_metadata(folder).ok()?.file_type();
        if !kind.is_dir() || fs::read_dir(folder).is_err() {
            return None;
        }
    }
    folders.extend(on_the_way.iter().rev());
    for folder in folders {
        for name in [".ignore", ".gitignore", ".git/info/exclude"] {
            if fs::symlink_metadata(folder.join(name)).is_ok() {
                return None;
            }
        }
        if fs::symlink_metadata(folder.join(".git")).is_ok_and(|m| !m.is_dir()) {
            return None;
        }
    }
    let kind = match fs::symlink_metadata(path) {
        Ok(meta) => meta.file_type(),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Some(false),
        Err(_) => return None,
    };
    if kind.is_symlink() {
        return None;
    }
    let skipped = inside.components().any(|c| {
        let name = c.as_os_str();
        name == "node_modules" || name.as_encoded_bytes().starts_with(b".")
    });
    Some(kind.is_file() && !skipped && has_extension(path, extensions))
}

/// Puts the files (with their link flags) in depth-first order of byte-wise sorted names,
/// and the diagnostics in the order of their paths, whatever order the directory listing
/// gave. Every file lies below `dir`: the comparisons start after that common prefix.
fn sort_walked(walked: &mut Walked, dir: &Path) {
    let prefix = dir.as_os_str().len();
    let skip = if walked.files.iter().all(|f| {
        f.as_os_str()
            .as_encoded_bytes()
            .starts_with(dir.as_os_str().as_encoded_bytes())
    }) {
        prefix
    } else {
        0
    };
    if !walked
        .files
        .is_sorted_by(|a, b| path_order_after(a, b, skip) != std::cmp::Ordering::Greater)
    {
        let mut pairs: Vec<(PathBuf, bool)> = std::mem::take(&mut walked.files)
            .into_iter()
            .zip(std::mem::take(&mut walked.linked))
            .collect();
        pairs.sort_unstable_by(|a, b| path_order_after(&a.0, &b.0, skip));
        (walked.files, walked.linked) = pairs.into_iter().unzip();
    }
    walked.diagnostics.sort_by(|a, b| match (&a.path, &b.path) {
        (Some(a), Some(b)) => path_order(a, b),
        (a, b) => a.cmp(b),
    });
}

/// `Path`'s order (component by component) for the clean paths a walk yields, computed on
/// the bytes: a separator sorts before any byte a name can hold, so comparing the bytes with
/// `/` read as the lowest is comparing the components, without taking the paths apart
/// (which `Path::cmp` does, at a fifth of discovery's time at 10,000 rules).
fn path_order(a: &Path, b: &Path) -> std::cmp::Ordering {
    path_order_after(a, b, 0)
}

/// [`path_order`] for two paths whose first `skip` bytes are known to be equal.
fn path_order_after(a: &Path, b: &Path, skip: usize) -> std::cmp::Ordering {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let (a, b) = (a.as_os_str().as_bytes(), b.as_os_str().as_bytes());
        let (a, b) = (a.get(skip..).unwrap_or(a), b.get(skip..).unwrap_or(b));
        let common = common_prefix(a, b);
        // No name holds a NUL byte: `/` can take its place as the lowest.
        let key = |byte: Option<&u8>| byte.map(|&c| if c == b'/' { 0 } else { c });
        key(a.get(common)).cmp(&key(b.get(common)))
    }
    #[cfg(not(unix))]
    {
        let _ = skip;
        a.cmp(b)
    }
}

/// How many bytes `a` and `b` share at their start, eight at a time (the walk's sort
/// compares every pair of paths this way).
#[cfg(unix)]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let mut at = 0;
    while let (Some(x), Some(y)) = (a.get(at..at + 8), b.get(at..at + 8)) {
        let word = |bytes: &[u8]| {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(bytes);
            u64::from_le_bytes(eight)
        };
        let differ = word(x) ^ word(y);
        if differ != 0 {
            // Little-endian: the lowest set bit is in the first byte that differs.
            return at + (differ.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at + a[at..len]
        .iter()
        .zip(&b[at..len])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Whether [`walk_rules_dir`] with `extensions` lists the file at `path` when the walk with
/// `["*"]` (every file) lists it: the walk enters the same folders and counts the same
/// entries whatever the extensions, so the files of one extension are those of the walk of
/// every file that bear it, in the same order. A caller that needs a folder's files for
/// several sets of extensions walks it once.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// for file in ["a.mdc", "b.md", "c.txt", ".mdc"] {
///     std::fs::write(dir.path().join(file), "x")?;
/// }
/// let every = rulebook_fs::walk_rules_dir(dir.path(), &["*"]).files;
/// let mdc: Vec<_> = every
///     .into_iter()
///     .filter(|p| rulebook_fs::lists_extension(p, &["mdc", "md"]))
///     .collect();
/// assert_eq!(mdc, rulebook_fs::walk_rules_dir(dir.path(), &["mdc", "md"]).files);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn lists_extension(path: &Path, extensions: &[&str]) -> bool {
    has_extension(path, extensions)
}

fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    if extensions == ["*"] {
        // Any file (Roo reads rules of any extension).
        return path.file_name().is_some();
    }
    let (Some(ext), Some(stem)) = stem_and_extension(path) else {
        return false;
    };
    !stem.is_empty() && extensions.iter().any(|e| ext == e.as_bytes())
}

/// `(path.extension(), path.file_stem())` as bytes, read from the end of a clean path
/// without taking it apart (the walk asks for every entry); other paths (a trailing `/`,
/// a name of `.` or `..`, a Windows path) go through `Path`'s own methods.
fn stem_and_extension(path: &Path) -> (Option<&[u8]>, Option<&[u8]>) {
    let bytes = path.as_os_str().as_encoded_bytes();
    let start = bytes.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    let name = &bytes[start..];
    if cfg!(unix) && !name.is_empty() && name != b"." && name != b".." {
        // The last dot splits, unless it starts the name (`.md` is a stem).
        return match name.iter().rposition(|&b| b == b'.') {
            Some(dot) if dot > 0 => (Some(&name[dot + 1..]), Some(&name[..dot])),
            _ => (None, Some(name)),
        };
    }
    (
        path.extension().map(std::ffi::OsStr::as_encoded_bytes),
        path.file_stem().map(std::ffi::OsStr::as_encoded_bytes),
    )
}

#[cfg(test)]
mod bound_tests {
    use super::*;
    use crate::find::find_bounded;
    use crate::read::{ReadOptions, opened_real_path, read_bytes, read_rule};

    /// A directory with three rule files: the walk visits four entries (itself, three files).
    fn three() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for n in ["a", "b", "c"] {
            fs::write(dir.path().join(format!("{n}.md")), n).unwrap();
        }
        dir
    }

    #[test]
    fn the_walk_stops_after_its_bound_with_a_warning() {
        let dir = three();
        let all = walk_bounded(dir.path(), &["md"], 4, None);
        assert_eq!(all.files.len(), 3);
        assert!(all.diagnostics.is_empty());
        let cut = walk_bounded(dir.path(), &["md"], 3, None);
        assert_eq!(cut.files.len(), 2, "the entry past the bound is not read");
        assert_eq!(cut.diagnostics.len(), 1);
        assert!(cut.diagnostics[0].message.contains("after 3 entries"));
    }

    #[test]
    fn the_nested_search_stops_after_its_bound_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        for d in ["x", "y"] {
            fs::create_dir_all(dir.path().join(d).join(".cursor")).unwrap();
        }
        let names = [".cursor".to_string()];
        let all = find_bounded(dir.path(), &names, 100);
        assert_eq!(all.by_name[".cursor"].len(), 2);
        assert!(all.diagnostics.is_empty());
        // Root, x, y, x/.cursor, y/.cursor: five entries.
        let exact = find_bounded(dir.path(), &names, 5);
        assert!(exact.diagnostics.is_empty(), "{:?}", exact.diagnostics);
        let cut = find_bounded(dir.path(), &names, 1);
        assert!(cut.by_name.is_empty());
        assert_eq!(cut.diagnostics.len(), 1);
    }

    /// A bound never makes the result depend on the threads' timing: a tree cut by it gives
    /// the same directories and the same warning every run, the first in name order.
    #[test]
    fn a_nested_search_cut_by_its_bound_finds_the_same_every_run() {
        let dir = tempfile::tempdir().unwrap();
        for p in 0..40 {
            let package = dir.path().join(format!("p{p:02}"));
            for f in 0..30 {
                let sub = package.join(format!("src/d{}", f % 5));
                fs::create_dir_all(&sub).unwrap();
                fs::write(sub.join(format!("f{f}.ts")), "x").unwrap();
            }
            fs::create_dir_all(package.join(".cursor")).unwrap();
        }
        let names = [".cursor".to_string()];
        let whole = find_bounded(dir.path(), &names, 100_000);
        assert_eq!(whole.by_name[".cursor"].len(), 40);
        assert!(whole.diagnostics.is_empty(), "{:?}", whole.diagnostics);
        let first = find_bounded(dir.path(), &names, 700);
        let found = first.by_name.get(".cursor").map_or(0, Vec::len);
        assert!(0 < found && found < 40, "{found} of 40 found");
        assert_eq!(first.diagnostics.len(), 1, "{:?}", first.diagnostics);
        let said = &first.diagnostics[0].message;
        assert!(said.contains("after 700 entries, at "), "{said}");
        assert!(said.contains("in name order"), "{said}");
        // In name order: the packages before the cut, whole.
        let expected: Vec<_> = (0..found)
            .map(|p| dir.path().join(format!("p{p:02}")))
            .collect();
        assert_eq!(first.by_name[".cursor"], expected);
        for _ in 0..20 {
            assert_eq!(find_bounded(dir.path(), &names, 700), first);
        }
    }

    /// A small tree is walked on one thread, a larger one in parallel: both find every
    /// nested directory, in the same order, with nothing said, on either side of the size
    /// at which the walk changes.
    #[test]
    fn small_and_large_trees_find_the_same_nested_rules() {
        let names = [".cursor".to_string(), "AGENTS.md".to_string()];
        for files in [900, 1_100] {
            let dir = tempfile::tempdir().unwrap();
            for f in 0..files {
                let sub = dir.path().join(format!("p{}", f % 10));
                fs::create_dir_all(&sub).unwrap();
                fs::write(sub.join(format!("f{f}.ts")), "x").unwrap();
            }
            for p in 0..10 {
                fs::create_dir_all(dir.path().join(format!("p{p}/.cursor"))).unwrap();
                fs::write(dir.path().join(format!("p{p}/AGENTS.md")), "a").unwrap();
            }
            let found = find_bounded(dir.path(), &names, 100_000);
            let expected: Vec<_> = (0..10).map(|p| dir.path().join(format!("p{p}"))).collect();
            assert_eq!(found.by_name[".cursor"], expected, "{files} files");
            assert_eq!(found.by_name["AGENTS.md"], expected, "{files} files");
            assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
        }
    }

    #[test]
    fn the_boundary_is_the_resolved_root() {
        let dir = tempfile::tempdir().unwrap();
        let options = ReadOptions::new().project_root(Some(dir.path().to_path_buf()));
        assert_eq!(
            options.boundary(),
            Some(fs::canonicalize(dir.path()).unwrap().as_path())
        );
        assert_eq!(ReadOptions::new().boundary(), None);
    }

    #[cfg(unix)]
    #[test]
    fn real_path_names_the_file_behind_a_link() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("target.md"), "x").unwrap();
        std::os::unix::fs::symlink("target.md", dir.path().join("link.md")).unwrap();
        let (read, _) = read_rule(
            &dir.path().join("link.md"),
            &ReadOptions::new().real_path(true),
        );
        assert_eq!(
            read.unwrap().real_path,
            Some(fs::canonicalize(dir.path().join("target.md")).unwrap())
        );
        let (read, _) = read_rule(&dir.path().join("link.md"), &ReadOptions::new());
        assert_eq!(read.unwrap().real_path, None);
    }

    /// `read_bytes` gives the file's bytes exactly (BOM, invalid UTF-8 and all), refuses
    /// what is not a regular file, and a file over its bound.
    #[test]
    fn read_bytes_is_exact_and_refuses_other_kinds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        let bytes = b"\xEF\xBB\xBFtext \xFF\r\n";
        fs::write(&path, bytes).unwrap();
        assert_eq!(read_bytes(&path, None).unwrap(), bytes);
        let len = bytes.len() as u64;
        assert_eq!(read_bytes(&path, Some(len)).unwrap(), bytes);
        let over = read_bytes(&path, Some(len - 1)).unwrap_err();
        assert_eq!(over.kind(), std::io::ErrorKind::FileTooLarge);
        let not_file = read_bytes(dir.path(), None).unwrap_err();
        assert_eq!(not_file.kind(), std::io::ErrorKind::InvalidInput);
        assert!(not_file.to_string().contains("a directory"), "{not_file}");
        assert!(read_bytes(&dir.path().join("missing"), None).is_err());
    }

    /// A file removed after it was opened has no real path to check: `/proc` names it
    /// "… (deleted)", which is never taken for a path.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_removed_after_opening_has_no_real_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone.md");
        fs::write(&path, "x").unwrap();
        let file = fs::File::open(&path).unwrap();
        let meta = file.metadata().unwrap();
        fs::remove_file(&path).unwrap();
        assert!(opened_real_path(&file, &path, &meta).is_err());
    }
}

#[cfg(test)]
mod order_tests {
    use super::*;

    #[test]
    fn path_order_is_paths_order() {
        let mut paths: Vec<PathBuf> = [
            "/r/a.md",
            "/r/a/x.md",
            "/r/a-b.md",
            "/r/a/a.md",
            "/r/b",
            "/r/a",
            "/r/a b/c.md",
            "/r/A.md",
            "/r/ä.md",
            "/r/a/b/c/d.md",
            "/r/a.md/z",
            "/r",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let mut expected = paths.clone();
        expected.sort();
        paths.sort_by(|a, b| path_order(a, b));
        assert_eq!(paths, expected);
    }

    /// Long names, differing at every position of the eight-byte words and around `/`.
    #[test]
    fn path_order_is_paths_order_for_long_paths() {
        let stem = "/project/.cursor/rules/group-10/a-rather-long-rule-name";
        let mut paths: Vec<PathBuf> = Vec::new();
        for cut in 0..stem.len() {
            for tail in ["", "/x.md", "-", ".md", "a", "\u{e4}"] {
                let path = PathBuf::from(format!("{}{tail}", &stem[..cut]));
                // Only the clean paths a walk yields (no `//`, `/./`, trailing `/`).
                let clean: PathBuf = path.components().collect();
                if clean == path && clean.as_os_str() == path.as_os_str() {
                    paths.push(path);
                }
            }
        }
        let mut expected = paths.clone();
        expected.sort();
        paths.reverse();
        paths.sort_by(|a, b| path_order(a, b));
        assert_eq!(paths, expected);
    }

    /// The byte reading of a name agrees with `Path::extension` and `Path::file_stem`.
    #[test]
    fn stem_and_extension_is_paths_own() {
        let names = [
            "a.md",
            "a.b.md",
            ".md",
            "..md",
            ".a.md",
            "md",
            "a.",
            "a..",
            ".",
            "..",
            "...",
            "a",
            "rule-1.mdc",
            "\u{e4}.md",
            "a.md.",
            ". .md",
            "",
        ];
        for dir in ["", "/", "/r/", "r/", "/r/.cursor/", "/r/a.d/"] {
            for name in names {
                for tail in ["", "/"] {
                    let text = format!("{dir}{name}{tail}");
                    let path = Path::new(&text);
                    let expected = (
                        path.extension().map(std::ffi::OsStr::as_encoded_bytes),
                        path.file_stem().map(std::ffi::OsStr::as_encoded_bytes),
                    );
                    assert_eq!(stem_and_extension(path), expected, "{text:?}");
                }
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn common_prefix_counts_the_bytes_shared() {
        let a: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for at in 0..a.len() {
            let mut b = a.clone();
            b[at] ^= 0x20;
            for (n, m) in [
                (40, 40),
                (40, at),
                (at, 40),
                (at + 1, 40),
                (17, 40),
                (40, 9),
            ] {
                let (x, y) = (&a[..n.min(40)], &b[..m.min(40)]);
                let naive = x.iter().zip(y).take_while(|(p, q)| p == q).count();
                assert_eq!(
                    common_prefix(x, y),
                    naive,
                    "differ at {at}, lengths {n} and {m}"
                );
            }
        }
        assert_eq!(common_prefix(&a, &a), 40);
        assert_eq!(common_prefix(b"", &a), 0);
    }
}
