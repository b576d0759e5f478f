//! Finding and reading rule files, shared by every provider (behaviour.md §2 and §4).
//!
//! - [`walk_rules_dir`]: every file with one of the given extensions (case-sensitive) at any
//!   depth under a directory, in a deterministic depth-first order with siblings sorted
//!   byte-wise (`a/a.md`, `a/x.md`, `a-b.md`, `a.md`). Hidden entries below the root,
//!   `node_modules` and `.git` are skipped; `.gitignore` is respected inside a git
//!   repository and `.ignore` everywhere (the `ignore` crate's walker). Symlinked files are
//!   followed and reported under the link's path; symlinked directories are not descended;
//!   broken links are skipped with a warning. A missing or unreadable root yields nothing.
//! - [`read_rule_file`]: the text of one file: one leading BOM stripped, invalid UTF-8
//!   decoded lossily with a warning, a read error as the warning
//!   `Failed to read file: <path>`, the size cap (Extended E9) and the project boundary
//!   (Extended E10) enforced. [`RuleReader`] reads a run of files the same way into one
//!   reused buffer, for a caller that keeps only part of each text.
//!
//! The provider kit (`rulebook-kit`) builds rules on these.
//!
//! Depends on `ignore` (the walker) and `rulebook-rule` (diagnostics and rule building).
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join("a"))?;
//! for file in ["a.md", "a-b.md", "a/x.md", "a/a.md", "skip.txt"] {
//!     std::fs::write(dir.path().join(file), "body")?;
//! }
//! let walked = rulebook_fs::walk_rules_dir(dir.path(), &["md"]);
//! let names: Vec<_> = walked
//!     .files
//!     .iter()
//!     .map(|p| p.strip_prefix(dir.path()).unwrap().to_str().unwrap().replace('\\', "/"))
//!     .collect();
//! assert_eq!(names, ["a/a.md", "a/x.md", "a-b.md", "a.md"]);
//! # Ok(())
//! # }
//! ```

use std::borrow::Cow;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use rulebook_rule::{Diagnostic, DiagnosticCode};

pub use rulebook_rule::DEFAULT_MAX_FILE_SIZE;

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

/// Lists the rule files under `dir` whose extension is one of `extensions` (without dot,
/// case-sensitive; `["*"]`: every file). See the crate docs for the rules of the walk. A walk stops at
/// [`MAX_WALK_DEPTH`] levels and [`MAX_WALK_ENTRIES`] entries, with a warning.
pub fn walk_rules_dir(dir: &Path, extensions: &[&str]) -> Walked {
    walk_bounded(dir, extensions, MAX_WALK_ENTRIES)
}

/// [`walk_rules_dir`] with the entry bound as a parameter (tests use a small one).
fn walk_bounded(dir: &Path, extensions: &[&str], max_entries: usize) -> Walked {
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
                Diagnostic::warning(
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
        .filter_entry(|e| e.file_name() != "node_modules")
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
                Diagnostic::warning(
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
                    Diagnostic::warning(
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
                    Diagnostic::warning(
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
                        Diagnostic::warning(
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
            Diagnostic::warning(
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

#[cfg(test)]
mod reader_tests {
    use super::*;

    /// The buffer is kept from file to file, but not once a large file has grown it.
    #[test]
    fn the_reader_keeps_its_buffer_unless_a_large_file_grew_it() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small.md");
        let large = dir.path().join("large.md");
        fs::write(&small, "x".repeat(4000)).unwrap();
        fs::write(&large, "y".repeat(KEPT_BUFFER + 1)).unwrap();
        let options = ReadOptions::new();
        let mut reader = RuleReader::new();
        let (text, _) = reader.read(&small, &options);
        assert_eq!(text.unwrap().text.len(), 4000);
        let kept = reader.buffer.capacity();
        assert!(kept >= 4000);
        let (text, _) = reader.read(&small, &options);
        assert_eq!(text.unwrap().text.len(), 4000);
        assert_eq!(reader.buffer.capacity(), kept, "the buffer is reused");
        let (text, _) = reader.read(&large, &options);
        assert_eq!(text.unwrap().text.len(), KEPT_BUFFER + 1);
        assert!(reader.buffer.capacity() > KEPT_BUFFER);
        let (text, _) = reader.read(&small, &options);
        assert_eq!(text.unwrap().text.len(), 4000);
        assert!(
            reader.buffer.capacity() < KEPT_BUFFER,
            "the large buffer is let go"
        );
        // A buffer of exactly the kept size is kept.
        let edge = dir.path().join("edge.md");
        fs::write(&edge, "z".repeat(KEPT_BUFFER)).unwrap();
        let mut reader = RuleReader::new();
        let (text, _) = reader.read(&edge, &options);
        assert_eq!(text.unwrap().text.len(), KEPT_BUFFER);
        assert_eq!(reader.buffer.capacity(), KEPT_BUFFER);
        let (text, _) = reader.read(&small, &options);
        assert_eq!(text.unwrap().text.len(), 4000);
        assert_eq!(reader.buffer.capacity(), KEPT_BUFFER, "kept at the bound");
        // A buffer grows to the next file's size, not to twice its own.
        let (medium, larger) = (dir.path().join("medium.md"), dir.path().join("larger.md"));
        fs::write(&medium, "m".repeat(600_000)).unwrap();
        fs::write(&larger, "l".repeat(700_000)).unwrap();
        let mut reader = RuleReader::new();
        reader.read(&medium, &options);
        let (text, _) = reader.read(&larger, &options);
        assert_eq!(text.unwrap().text.len(), 700_000);
        assert_eq!(reader.buffer.capacity(), 700_000, "grown exactly");
    }

    /// A reader reads what `read_rule` reads: the BOM stripped, invalid UTF-8 replaced and
    /// reported, a missing file reported.
    #[test]
    fn the_reader_reads_what_read_rule_reads() {
        let dir = tempfile::tempdir().unwrap();
        let cases: [(&str, &[u8]); 3] = [
            ("bom.md", b"\xEF\xBB\xBFtext"),
            ("bad.md", b"ok\n\xFF\xFEend"),
            ("plain.md", b"plain"),
        ];
        let mut reader = RuleReader::new();
        let options = ReadOptions::new().detailed_errors(true);
        for (name, bytes) in cases {
            let path = dir.path().join(name);
            fs::write(&path, bytes).unwrap();
            let (owned, owned_diagnostics) = read_rule(&path, &options);
            let (read, diagnostics) = reader.read(&path, &options);
            assert_eq!(read.map(|r| r.text.into_owned()), owned.map(|r| r.text));
            assert_eq!(diagnostics, owned_diagnostics);
        }
        let missing = dir.path().join("missing.md");
        let (read, diagnostics) = reader.read(&missing, &options);
        assert!(read.is_none());
        assert_eq!(diagnostics, read_rule(&missing, &options).1);
        assert_eq!(diagnostics.len(), 1);
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;

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
        let all = walk_bounded(dir.path(), &["md"], 4);
        assert_eq!(all.files.len(), 3);
        assert!(all.diagnostics.is_empty());
        let cut = walk_bounded(dir.path(), &["md"], 3);
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

/// How to read one rule file.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    max_size: Option<u64>,
    project_root: Option<PathBuf>,
    detailed_errors: bool,
    real_path: bool,
}

impl ReadOptions {
    /// No size cap, no project boundary, the seeds' bare read-error message.
    pub fn new() -> Self {
        Self::default()
    }

    /// Extended E9: skip files larger than `bytes`, with a warning.
    #[must_use]
    pub fn max_size(mut self, bytes: Option<u64>) -> Self {
        self.max_size = bytes;
        self
    }

    /// Extended E10: refuse files whose real path is not under `root` (itself resolved).
    #[must_use]
    pub fn project_root(mut self, root: Option<PathBuf>) -> Self {
        self.project_root = root.map(|r| fs::canonicalize(&r).unwrap_or(r));
        self
    }

    /// The resolved project root of E10, if one is set.
    pub fn boundary(&self) -> Option<&Path> {
        self.project_root.as_deref()
    }

    /// Resolve the real path of every file read (see [`ReadRule::real_path`]).
    #[must_use]
    pub fn real_path(mut self, yes: bool) -> Self {
        self.real_path = yes;
        self
    }

    /// Append the operating system's reason to `Failed to read file: <path>`.
    #[must_use]
    pub fn detailed_errors(mut self, yes: bool) -> Self {
        self.detailed_errors = yes;
        self
    }
}

/// Reads a rule file as behaviour.md §2 says. `None` when the file was skipped; the diagnostics say
/// why (and warn about lossy decoding when the text is returned).
///
/// The file is opened first and every check is made on what was opened, never on the path
/// again, so a file swapped for a link between a check and the read cannot slip through:
/// - it is opened without blocking (`O_NONBLOCK`), so a FIFO cannot hang the open, and only
///   a regular file is read (a FIFO, device, socket or directory is a
///   [`DiagnosticCode::NotAFile`] warning);
/// - with a project boundary (Extended E10), the real path of the *open handle* must lie
///   under the boundary: on Linux it is read from `/proc/self/fd/N`; elsewhere the path is
///   resolved and the file found there must be the opened one (same device and inode).
///   When the real path cannot be found (a chain longer than `PATH_MAX`, a `/proc` that is
///   not mounted and a path that no longer resolves), the file is refused: E10 never fails
///   open. A hard link cannot be told from the file it links to, so a hard link inside the
///   project to a file outside it is read; a user who cannot write the outside file cannot
///   create one to it on most systems (`fs.protected_hardlinks`).
pub fn read_rule_file(path: &Path, options: &ReadOptions) -> (Option<String>, Vec<Diagnostic>) {
    let (read, diagnostics) = read_rule(path, options);
    (read.map(|r| r.text), diagnostics)
}

/// A rule file's text, and where it really is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRule {
    /// The text (BOM stripped, UTF-8).
    pub text: String,
    /// The real path of the file that was read (from the open handle), when the options
    /// asked for it ([`ReadOptions::real_path`]) or a boundary needed it.
    pub real_path: Option<PathBuf>,
}

/// As [`read_rule_file`], with the real path of the file read.
pub fn read_rule(path: &Path, options: &ReadOptions) -> (Option<ReadRule>, Vec<Diagnostic>) {
    let mut bytes = Vec::new();
    let (read, mut diagnostics) = read_rule_bytes(path, options, &mut bytes);
    let Some((start, real_path)) = read else {
        return (None, diagnostics);
    };
    bytes.drain(..start);
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => lossy(path, err.as_bytes(), err.utf8_error(), &mut diagnostics),
    };
    (Some(ReadRule { text, real_path }), diagnostics)
}

/// A rule file read by a [`RuleReader`]: its text borrows the reader's buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadText<'a> {
    /// The text (BOM stripped, UTF-8; owned only when invalid bytes were replaced).
    pub text: Cow<'a, str>,
    /// As [`ReadRule::real_path`].
    pub real_path: Option<PathBuf>,
}

/// Reads rule files one after another into one buffer, as [`read_rule`] reads each (same
/// checks, same diagnostics), for a caller that keeps only part of each text (a body
/// without its frontmatter): no allocation per file, and the bytes land in memory the
/// last file already warmed.
///
/// ```
/// use rulebook_fs::{ReadOptions, RuleReader};
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.md"), "\u{feff}first")?;
/// std::fs::write(dir.path().join("b.md"), "second")?;
/// let mut reader = RuleReader::new();
/// let (a, _) = reader.read(&dir.path().join("a.md"), &ReadOptions::new());
/// assert_eq!(a.map(|r| r.text.into_owned()).as_deref(), Some("first"));
/// let (b, _) = reader.read(&dir.path().join("b.md"), &ReadOptions::new());
/// assert_eq!(b.map(|r| r.text.into_owned()).as_deref(), Some("second"));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct RuleReader {
    buffer: Vec<u8>,
}

impl RuleReader {
    /// A reader with an empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads `path` as [`read_rule`] does, into this reader's buffer.
    pub fn read(
        &mut self,
        path: &Path,
        options: &ReadOptions,
    ) -> (Option<ReadText<'_>>, Vec<Diagnostic>) {
        // A buffer grown for one large file is not kept for the small ones after it.
        if self.buffer.capacity() > KEPT_BUFFER {
            self.buffer = Vec::new();
        }
        let (read, mut diagnostics) = read_rule_bytes(path, options, &mut self.buffer);
        let Some((start, real_path)) = read else {
            return (None, diagnostics);
        };
        let bytes = &self.buffer[start..];
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(err) => Cow::Owned(lossy(path, bytes, err, &mut diagnostics)),
        };
        (Some(ReadText { text, real_path }), diagnostics)
    }
}

/// The largest buffer a [`RuleReader`] keeps between files.
const KEPT_BUFFER: usize = 1 << 20;

/// Text with invalid UTF-8 replaced by U+FFFD, and the warning that says where.
fn lossy(
    path: &Path,
    bytes: &[u8],
    error: std::str::Utf8Error,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    let valid = &bytes[..error.valid_up_to()];
    let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
    diagnostics.push(
        Diagnostic::warning(
            DiagnosticCode::InvalidUtf8,
            format!(
                "{} is not valid UTF-8 (first bad byte at line {line}); invalid bytes were replaced with U+FFFD",
                path.display()
            ),
        )
        .with_path(path)
        .at(Some(line), None),
    );
    // Invalid bytes are there (`error` says where), so this is always a new string.
    String::from_utf8_lossy(bytes).into_owned()
}

/// Reads `path` into `bytes` (cleared first) with the checks of [`read_rule`]: where the text
/// starts in `bytes` (past a byte order mark) and the real path, or nothing and why.
fn read_rule_bytes(
    path: &Path,
    options: &ReadOptions,
    bytes: &mut Vec<u8>,
) -> (Option<(usize, Option<PathBuf>)>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut real_path = None;
    let read_failed = |err: &std::io::Error| {
        let message = if options.detailed_errors {
            format!("Failed to read file: {} ({err})", path.display())
        } else {
            format!("Failed to read file: {}", path.display())
        };
        Diagnostic::warning(DiagnosticCode::ReadFailed, message).with_path(path)
    };
    let mut file = match open_nonblocking(path) {
        Ok(file) => file,
        Err(err) => {
            diagnostics.push(read_failed(&err));
            return (None, diagnostics);
        }
    };
    let meta = match file.metadata() {
        Ok(meta) => meta,
        Err(err) => {
            diagnostics.push(read_failed(&err));
            return (None, diagnostics);
        }
    };
    if meta.is_dir() {
        // What reading a directory gives the original: its read error.
        diagnostics.push(read_failed(&std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "is a directory",
        )));
        return (None, diagnostics);
    }
    if !meta.is_file() {
        diagnostics.push(not_a_file(path, meta.file_type()));
        return (None, diagnostics);
    }
    if let Some(root) = &options.project_root {
        let refusal = match opened_real_path(&file, path, &meta) {
            Ok(real) if real.starts_with(root) => {
                real_path = Some(real);
                None
            }
            Ok(real) => Some(format!(
                "Refused {}: its real path {} is outside the project directory {}",
                path.display(),
                real.display(),
                root.display()
            )),
            Err(err) => Some(format!(
                "Refused {}: its real path could not be resolved ({err}), so it cannot be shown to lie inside the project directory {}",
                path.display(),
                root.display()
            )),
        };
        if let Some(message) = refusal {
            diagnostics
                .push(Diagnostic::warning(DiagnosticCode::OutsideProject, message).with_path(path));
            return (None, diagnostics);
        }
    } else if options.real_path {
        real_path = opened_real_path(&file, path, &meta).ok();
    }
    // One allocation of the right size (the length is only a hint: the file may change).
    let hint = meta.len();
    let hint = options
        .max_size
        .map_or(hint, |max| hint.min(max.saturating_add(1)));
    bytes.clear();
    // Exact: a reused buffer grown by doubling could pass the size a reader keeps.
    bytes.reserve_exact(usize::try_from(hint).unwrap_or(0));
    // Through `Take` even without a limit: `File::read_to_end` would ask the size again
    // (a `statx` and an `lseek` per file) when the metadata above already gave it.
    let limit = options
        .max_size
        .map_or(u64::MAX, |max| max.saturating_add(1));
    let result = (&mut file).take(limit).read_to_end(bytes);
    if let Err(err) = result {
        diagnostics.push(read_failed(&err));
        return (None, diagnostics);
    }
    if let Some(max) = options.max_size {
        if bytes.len() as u64 > max {
            diagnostics.push(
                Diagnostic::warning(
                    DiagnosticCode::TooLarge,
                    format!(
                        "Skipped {}: larger than the {max}-byte limit for a rule file",
                        path.display()
                    ),
                )
                .with_path(path),
            );
            return (None, diagnostics);
        }
    }
    let start = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    if looks_like_utf16(bytes) {
        diagnostics.push(
            Diagnostic::warning(
                DiagnosticCode::InvalidUtf8,
                format!(
                    "{} looks like UTF-16 (a NUL byte beside each character) without a byte order mark; it was read as UTF-8, so its text is garbled: save it as UTF-8",
                    path.display()
                ),
            )
            .with_path(path),
        );
    }
    (Some((start, real_path)), diagnostics)
}

/// Whether `bytes` look like UTF-16 without a byte order mark: in its first 64 bytes, every
/// other byte NUL on one side (ASCII text in UTF-16LE or BE). A stray NUL in UTF-8 text is
/// not that.
fn looks_like_utf16(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64)];
    if head.len() < 4 || !head.contains(&0) {
        return false;
    }
    let pairs = head.len() / 2;
    let nul_at = |odd: usize| {
        head.chunks_exact(2)
            .filter(|p| p[odd] == 0 && p[1 - odd] != 0)
            .count()
    };
    nul_at(0).max(nul_at(1)) * 4 >= pairs * 3
}

/// `a/./b/../c` → `a/c`: `.` and `..` resolved without touching the file system (a `..`
/// at the root stays at the root).
pub fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The bytes of a regular file, exactly (no BOM stripped, no decoding), for callers that
/// must reproduce what another tool reads (host emulation). Opened without blocking, so a
/// FIFO cannot hang; anything but a regular file is an [`std::io::ErrorKind::InvalidInput`]
/// error. With `max`, a file larger than `max` bytes is an error too, never read whole.
pub fn read_bytes(path: &Path, max: Option<u64>) -> std::io::Result<Vec<u8>> {
    let (mut file, _) = open_regular(path)?;
    let mut bytes = Vec::new();
    match max {
        Some(max) => {
            (&mut file)
                .take(max.saturating_add(1))
                .read_to_end(&mut bytes)?;
            if bytes.len() as u64 > max {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::FileTooLarge,
                    format!("{} is larger than {max} bytes", path.display()),
                ));
            }
        }
        None => {
            file.read_to_end(&mut bytes)?;
        }
    }
    Ok(bytes)
}

/// The first `max` bytes of a regular file (all of it when it is shorter), for callers that
/// emulate a tool which reads a file whole but must not hold an arbitrarily large one:
/// opened without blocking, and anything but a regular file is an
/// [`std::io::ErrorKind::InvalidInput`] error, as in [`read_bytes`].
pub fn read_prefix(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let (mut file, meta) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len().min(max)).unwrap_or(0));
    (&mut file).take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `path` opened without blocking, and its metadata, when it is a regular file; anything
/// else is an [`std::io::ErrorKind::InvalidInput`] error naming what it is.
fn open_regular(path: &Path) -> std::io::Result<(fs::File, fs::Metadata)> {
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{} is {}, not a regular file",
                path.display(),
                describe_file_type(meta.file_type())
            ),
        ));
    }
    Ok((file, meta))
}

/// Opens `path` for reading without blocking on a FIFO (the flag does nothing to a regular
/// file, the only kind that is then read).
fn open_nonblocking(path: &Path) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// A warning for a source that is not a regular file.
pub(crate) fn not_a_file(path: &Path, kind: fs::FileType) -> Diagnostic {
    not_a_file_where(path, kind, "a regular file")
}

fn not_a_file_where(path: &Path, kind: fs::FileType, expected: &str) -> Diagnostic {
    Diagnostic::warning(
        DiagnosticCode::NotAFile,
        format!(
            "Skipped {}: it is {}, not {expected}",
            path.display(),
            describe_file_type(kind)
        ),
    )
    .with_path(path)
}

fn describe_file_type(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_file() {
        "a file"
    } else {
        "a special file"
    }
}

/// The real path of the file behind an open handle.
fn opened_real_path(file: &fs::File, path: &Path, meta: &fs::Metadata) -> std::io::Result<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let link = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
        if let Ok(real) = fs::read_link(&link) {
            // The kernel marks a file removed since it was opened; such a path names
            // nothing that can be checked.
            if real.is_absolute() && !real.to_string_lossy().ends_with(" (deleted)") {
                return Ok(real);
            }
        }
    }
    let _ = file;
    // Resolve the path, then make sure the file found there is the one that was opened.
    let real = fs::canonicalize(path)?;
    let found = fs::metadata(&real)?;
    if same_file(&found, meta) {
        Ok(real)
    } else {
        Err(std::io::Error::other(
            "the file changed between opening and resolving it",
        ))
    }
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}

/// The nearest `name` in `start` or one of its ancestors, as Cline looks for `.clinerules`.
pub fn find_upward(start: &Path, name: &str) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join(name))
        .find(|candidate| {
            // `symlink_metadata` so a broken link is still "found" (and reported when read).
            fs::symlink_metadata(candidate).is_ok()
        })
}

/// Whether `path` is owned by another user than the one running (Unix; elsewhere `false`).
/// A rule file planted by someone else (in a shared, sticky `/tmp`, say) deserves a word.
pub fn owned_by_another_user(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::symlink_metadata(path)
            .is_ok_and(|meta| meta.uid() != rustix::process::geteuid().as_raw())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// What [`find_named`] found below a root.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// For each wanted name, the directories (below the root, the root excluded) that hold
    /// an entry of that name, sorted byte-wise.
    pub by_name: std::collections::BTreeMap<String, Vec<PathBuf>>,
    /// What could not be walked, and bounds reached.
    pub diagnostics: Vec<Diagnostic>,
}

/// One walk of `root` for every provider at once (E11): the directories below `root` that
/// hold an entry named one of `names` (`.cursor`, `AGENTS.md`, …). The `ignore` crate's
/// parallel walker, with the skip rules of [`walk_rules_dir`]: hidden entries (except the
/// wanted names), `node_modules` and `.git` are skipped, `.gitignore` is respected in a
/// repository and `.ignore` everywhere, links are not followed; a wanted directory is
/// recorded and not descended. Bounded by [`MAX_WALK_DEPTH`] and [`MAX_WALK_ENTRIES`].
/// A project with no nested rules costs this one traversal and no file reads.
pub fn find_named(root: &Path, names: &[String]) -> Found {
    find_bounded(root, names, MAX_WALK_ENTRIES)
}

/// The walker of [`find_named`]: its skip rules, links not followed, [`MAX_WALK_DEPTH`].
fn nested_walker(
    root: &Path,
    wanted: std::sync::Arc<std::collections::HashSet<String>>,
) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .hidden(false)
        .ignore(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(true)
        .parents(true)
        .follow_links(false)
        .max_depth(Some(MAX_WALK_DEPTH))
        .filter_entry(move |e| {
            let name = e.file_name().to_string_lossy();
            name != "node_modules"
                && name != ".git"
                && (!name.starts_with('.') || e.depth() == 0 || wanted.contains(name.as_ref()))
        });
    builder
}

/// The directories discovery reads below `root` (the root included): those the walk of
/// [`find_named`] passes through, and the wanted directories (`.cursor`, …) with every
/// directory in them under the same skip rules. This is what a watcher of the rules needs
/// to watch, and no more: links are not followed, `node_modules`, `.git`, hidden and
/// ignored directories are left out. Sorted; at most [`MAX_WALK_ENTRIES`] entries are
/// visited, and `true` says the bound cut the list.
pub fn find_dirs(root: &Path, names: &[String]) -> (Vec<PathBuf>, bool) {
    let wanted = std::sync::Arc::new(names.iter().cloned().collect());
    let mut dirs = Vec::new();
    let mut visited = 0usize;
    for entry in nested_walker(root, wanted).build() {
        visited += 1;
        if visited > MAX_WALK_ENTRIES {
            dirs.sort();
            return (dirs, true);
        }
        if let Ok(entry) = entry {
            if entry.file_type().is_some_and(|t| t.is_dir()) {
                dirs.push(entry.into_path());
            }
        }
    }
    dirs.sort();
    (dirs, false)
}

/// [`find_named`] with the entry bound as a parameter (tests use a small one).
fn find_bounded(root: &Path, names: &[String], max_entries: usize) -> Found {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let mut found = Found::default();
    if names.is_empty() {
        return found;
    }
    let hits: Mutex<Vec<(String, PathBuf)>> = Mutex::new(Vec::new());
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let visited = AtomicUsize::new(0);
    let too_deep: Mutex<Option<PathBuf>> = Mutex::new(None);
    // `filter_entry` needs an owned, shareable set.
    let wanted: std::sync::Arc<std::collections::HashSet<String>> =
        std::sync::Arc::new(names.iter().cloned().collect());
    let walker = nested_walker(root, wanted.clone()).build_parallel();
    walker.run(|| {
        Box::new(|entry| {
            use ignore::WalkState;
            if visited.fetch_add(1, Ordering::Relaxed) >= max_entries {
                return WalkState::Quit;
            }
            let entry = match entry {
                Ok(entry) => entry,
                Err(err) => {
                    if let Ok(mut errors) = errors.lock() {
                        errors.push(err.to_string());
                    }
                    return WalkState::Continue;
                }
            };
            if entry.depth() == 0 {
                return WalkState::Continue;
            }
            let name = entry.file_name().to_string_lossy();
            if entry.depth() == MAX_WALK_DEPTH
                && entry.file_type().is_some_and(|t| t.is_dir())
                && !wanted.contains(name.as_ref())
            {
                // Not descended into: said once, below.
                if let Ok(mut deep) = too_deep.lock() {
                    deep.get_or_insert_with(|| entry.path().to_path_buf());
                }
            }
            if wanted.contains(name.as_ref()) {
                if let (Some(parent), Ok(mut hits)) = (entry.path().parent(), hits.lock()) {
                    hits.push((name.into_owned(), parent.to_path_buf()));
                }
                // A rules directory is read by its provider, not walked here.
                return WalkState::Skip;
            }
            WalkState::Continue
        })
    });
    let mut hits = hits.into_inner().unwrap_or_default();
    hits.sort();
    for (name, dir) in hits {
        if dir != root {
            found.by_name.entry(name).or_default().push(dir);
        }
    }
    for error in errors.into_inner().unwrap_or_default() {
        found.diagnostics.push(
            Diagnostic::warning(
                DiagnosticCode::WalkFailed,
                format!("Could not walk part of {}: {error}", root.display()),
            )
            .with_path(root),
        );
    }
    if let Some(deep) = too_deep.into_inner().unwrap_or_default() {
        found.diagnostics.push(
            Diagnostic::warning(
                DiagnosticCode::WalkFailed,
                format!(
                    "Stopped looking for nested rules {MAX_WALK_DEPTH} directories below {} (at {}, not looked into); rules deeper in it, if any, were not found",
                    root.display(),
                    deep.display()
                ),
            )
            .with_path(root),
        );
    }
    if visited.load(Ordering::Relaxed) > max_entries {
        found.diagnostics.push(
            Diagnostic::warning(
                DiagnosticCode::WalkFailed,
                format!(
                    "Stopped looking for nested rules in {} after {max_entries} entries; rules deeper in it were not found",
                    root.display()
                ),
            )
            .with_path(root),
        );
    }
    found
}
