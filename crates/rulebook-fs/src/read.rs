//! Reading one rule file: [`read_rule_file`], [`RuleReader`], the byte readers and the
//! checks on the opened handle (regular file, size cap, project boundary, real path).

use std::borrow::Cow;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use rulebook_rule::{Diagnostic, DiagnosticCode};

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
    let (read, mut diagnostics) = read_rule_bytes(path, options, &mut bytes, None);
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
    /// The file's bytes as read, a byte order mark included (an overlay's, where one is
    /// laid over the file).
    pub bytes: &'a [u8],
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
    folder: Folder,
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
        // A buffer grown for one large file is not kept for the small ones after it (one
        // byte past a file's size is room to see its end: `read_sized`).
        if self.buffer.capacity() > KEPT_BUFFER + 1 {
            self.buffer = Vec::new();
        }
        let (read, mut diagnostics) =
            read_rule_bytes(path, options, &mut self.buffer, Some(&mut self.folder));
        let Some((start, real_path)) = read else {
            return (None, diagnostics);
        };
        let bytes = &self.buffer[start..];
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(err) => Cow::Owned(lossy(path, bytes, err, &mut diagnostics)),
        };
        let read = ReadText {
            text,
            real_path,
            bytes: &self.buffer,
        };
        (Some(read), diagnostics)
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
        Diagnostic::new(
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
    folder: Option<&mut Folder>,
) -> (Option<(usize, Option<PathBuf>)>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut real_path = None;
    let read_failed = |err: &std::io::Error| {
        let message = if options.detailed_errors {
            format!("Failed to read file: {} ({err})", path.display())
        } else {
            format!("Failed to read file: {}", path.display())
        };
        Diagnostic::new(DiagnosticCode::ReadFailed, message).with_path(path)
    };
    let wants_real = options.project_root.is_some() || options.real_path;
    let opened = match folder {
        Some(folder) => folder.open(path, wants_real),
        None => open_nonblocking(path).map(|file| (file, None)),
    };
    let (mut file, known_real) = match opened {
        Ok(opened) => opened,
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
    let real_of_file = |known: Option<PathBuf>| match known {
        Some(real) => Ok(real),
        None => opened_real_path(&file, path, &meta),
    };
    if let Some(root) = &options.project_root {
        let refusal = match real_of_file(known_real) {
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
                .push(Diagnostic::new(DiagnosticCode::OutsideProject, message).with_path(path));
            return (None, diagnostics);
        }
    } else if options.real_path {
        real_path = real_of_file(known_real).ok();
    }
    // The size cap and one byte: a file that reaches it is past the cap.
    let limit = options
        .max_size
        .map_or(u64::MAX, |max| max.saturating_add(1));
    bytes.clear();
    let result = match crate::Overlay::get(path) {
        Some(laid) => {
            let kept = laid.len().min(usize::try_from(limit).unwrap_or(usize::MAX));
            bytes.extend_from_slice(&laid[..kept]);
            Ok(kept)
        }
        None => read_sized(&mut file, bytes, meta.len(), limit),
    };
    if let Err(err) = result {
        diagnostics.push(read_failed(&err));
        return (None, diagnostics);
    }
    if let Some(max) = options.max_size {
        if bytes.len() as u64 > max {
            diagnostics.push(
                Diagnostic::new(
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
            Diagnostic::new(
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
    let (file, _) = open_regular(path)?;
    read_open(file, path, max)
}

/// The bytes of an opened regular file (or of its [`crate::Overlay`]), at most `max` of
/// them (more is an error).
fn read_open(mut file: fs::File, path: &Path, max: Option<u64>) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if let Some(laid) = crate::Overlay::get(path) {
        if let Some(max) = max.filter(|&max| laid.len() as u64 > max) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!("{} is larger than {max} bytes", path.display()),
            ));
        }
        return Ok(laid.to_vec());
    }
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

/// As [`read_bytes`], for a file that must lie under `boundary` (itself a real path): the
/// real path of the *opened handle* is checked before a byte is read, so a link swapped in
/// between a caller's check and the read cannot bring in an outside file. A file whose real
/// path is outside, or cannot be resolved, is an [`std::io::ErrorKind::PermissionDenied`]
/// error that names both paths, and carries no operating system code (a file the system
/// refuses to open carries one).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let inside = dir.path().join("in");
/// std::fs::create_dir(&inside)?;
/// std::fs::write(inside.join("a.md"), "A")?;
/// std::fs::write(dir.path().join("secret"), "S")?;
/// let boundary = std::fs::canonicalize(&inside)?;
/// assert_eq!(rulebook_fs::read_bytes_inside(&inside.join("a.md"), None, &boundary)?, b"A");
/// # #[cfg(unix)] {
/// std::os::unix::fs::symlink(dir.path().join("secret"), inside.join("link.md"))?;
/// let err = rulebook_fs::read_bytes_inside(&inside.join("link.md"), None, &boundary).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::PermissionDenied);
/// # }
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_bytes_inside(
    path: &Path,
    max: Option<u64>,
    boundary: &Path,
) -> std::io::Result<Vec<u8>> {
    let (file, meta) = open_regular(path)?;
    match opened_real_path(&file, path, &meta) {
        Ok(real) if real.starts_with(boundary) => {}
        Ok(real) => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "{}: its real path {} is outside {}",
                    path.display(),
                    real.display(),
                    boundary.display()
                ),
            ));
        }
        Err(err) => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "{}: its real path could not be resolved ({err}), so it cannot be shown to lie inside {}",
                    path.display(),
                    boundary.display()
                ),
            ));
        }
    }
    read_open(file, path, max)
}

/// The first `max` bytes of a regular file (all of it when it is shorter), for callers that
/// emulate a tool which reads a file whole but must not hold an arbitrarily large one:
/// opened without blocking, and anything but a regular file is an
/// [`std::io::ErrorKind::InvalidInput`] error, as in [`read_bytes`].
pub fn read_prefix(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    read_prefix_into(path, max, &mut bytes)?;
    Ok(bytes)
}

/// As [`read_prefix`], into `bytes` (cleared first; its memory reused): for a reader of
/// many files that keeps none of them whole, no allocation a file. One `read` a file when
/// it still has the size its metadata gave (the buffer has a byte to spare past it, so a
/// read that comes back short there is the end); a file that grew or shrank since is read
/// as it is, never past `max`. On an error `bytes` holds what was read before it.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let (a, b) = (dir.path().join("a.md"), dir.path().join("b.md"));
/// std::fs::write(&a, "0123456789")?;
/// std::fs::write(&b, "ab")?;
/// let mut bytes = Vec::new();
/// rulebook_fs::read_prefix_into(&a, 4, &mut bytes)?;
/// assert_eq!(bytes, b"0123");
/// rulebook_fs::read_prefix_into(&b, 100, &mut bytes)?;
/// assert_eq!(bytes, b"ab");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_prefix_into(path: &Path, max: u64, bytes: &mut Vec<u8>) -> std::io::Result<()> {
    bytes.clear();
    let (mut file, meta) = open_regular(path)?;
    if let Some(laid) = crate::Overlay::get(path) {
        bytes
            .extend_from_slice(&laid[..laid.len().min(usize::try_from(max).unwrap_or(usize::MAX))]);
        return Ok(());
    }
    read_sized(&mut file, bytes, meta.len(), max).map(|_| ())
}

/// As [`read_prefix`], into one shared buffer the size of the file (or of `max`): a reader
/// that keeps what it read for others ([`std::sync::Arc`]) keeps it without a copy. The
/// file's size is asked, its bytes read, then one more read sees its end (none past `max`);
/// a file that grew or shrank since its size was asked is read as it is. A reader that
/// keeps few of its files makes one read a file with [`read_prefix_into`].
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("a.md");
/// std::fs::write(&path, "0123456789")?;
/// assert_eq!(&rulebook_fs::read_prefix_shared(&path, 100)?[..], b"0123456789");
/// assert_eq!(&rulebook_fs::read_prefix_shared(&path, 4)?[..], b"0123");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_prefix_shared(path: &Path, max: u64) -> std::io::Result<std::sync::Arc<[u8]>> {
    use std::sync::Arc;
    let (mut file, meta) = open_regular(path)?;
    if let Some(laid) = crate::Overlay::get(path) {
        return Ok(Arc::from(
            &laid[..laid.len().min(usize::try_from(max).unwrap_or(usize::MAX))],
        ));
    }
    let len = meta.len().min(max);
    let mut shared: Arc<[u8]> = std::iter::repeat_n(0, usize::try_from(len).unwrap_or(0)).collect();
    let Some(buffer) = Arc::get_mut(&mut shared) else {
        // Never: the buffer was made here and shared with no one.
        return read_prefix(path, max).map(Arc::from);
    };
    let filled = read_full(&mut file, buffer)?;
    if filled < buffer.len() {
        // Shrunk since its size was asked.
        return Ok(Arc::from(&buffer[..filled]));
    }
    if len == max {
        return Ok(shared);
    }
    let mut probe = [0; 1];
    if read_full(&mut file, &mut probe)? == 0 {
        return Ok(shared);
    }
    // Grown since: the rest, up to `max`.
    let mut bytes = Vec::with_capacity(buffer.len() + 1);
    bytes.extend_from_slice(buffer);
    bytes.push(probe[0]);
    file.take(max - len - 1).read_to_end(&mut bytes)?;
    Ok(Arc::from(bytes))
}

/// Whether two regular files hold the same bytes, compared a block at a time (the memory
/// taken does not grow with the files; files of different lengths are not read at all).
/// Anything but two readable regular files is an error.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let (a, b, c) = (dir.path().join("a"), dir.path().join("b"), dir.path().join("c"));
/// std::fs::write(&a, "same")?;
/// std::fs::write(&b, "same")?;
/// std::fs::write(&c, "diff")?;
/// assert!(rulebook_fs::same_bytes(&a, &b)?);
/// assert!(!rulebook_fs::same_bytes(&a, &c)?);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn same_bytes(a: &Path, b: &Path) -> std::io::Result<bool> {
    let (mut a, meta_a) = open_regular(a)?;
    let (mut b, meta_b) = open_regular(b)?;
    if meta_a.len() != meta_b.len() {
        return Ok(false);
    }
    let (mut left, mut right) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let n = read_full(&mut a, &mut left)?;
        let m = read_full(&mut b, &mut right)?;
        if n != m || left[..n] != right[..m] {
            return Ok(false);
        }
        if n == 0 {
            return Ok(true);
        }
    }
}

/// Reads `file`, whose metadata gave it `size` bytes, into `bytes` (empty), at most `limit`
/// bytes: one `read` when the file still has that size. The buffer is sized once, to one
/// byte past `size` (or to `limit`), so a read that comes back short at exactly `size`
/// bytes is the file's end and no second read is made to see it (`read_to_end` makes one);
/// a file that grew since fills the buffer and is read on to its end (or to `limit`), one
/// that shrank is read until a read gives nothing.
fn read_sized(
    file: &mut fs::File,
    bytes: &mut Vec<u8>,
    size: u64,
    limit: u64,
) -> std::io::Result<usize> {
    let want = size.saturating_add(1).min(limit);
    // Exact: a reused buffer grown by doubling could pass the size a reader keeps.
    let want = usize::try_from(want).unwrap_or(usize::MAX);
    bytes.reserve_exact(want);
    bytes.resize(want, 0);
    let mut filled = 0;
    let result = loop {
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break Ok(()),
            Ok(n) => {
                filled += n;
                if filled == bytes.len() || filled as u64 == size {
                    break Ok(());
                }
            }
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => break Err(err),
        }
    };
    bytes.truncate(filled);
    result?;
    if filled as u64 == want as u64 && (want as u64) < limit {
        // Grown past the size its metadata gave: the rest, up to the limit.
        (&mut *file).take(limit - want as u64).read_to_end(bytes)?;
    }
    Ok(bytes.len())
}

/// Fills `buffer` from `file` as far as the file goes: the bytes read (less only at its end).
fn read_full(file: &mut fs::File, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(filled)
}

/// `path` opened without blocking, and its metadata, when it is a regular file; anything
/// else is an [`std::io::ErrorKind::InvalidInput`] error naming what it is.
fn open_regular(path: &Path) -> std::io::Result<(fs::File, fs::Metadata)> {
    let file = HELD.with(|held| match held.borrow_mut().as_mut() {
        Some(folder) => folder.open(path, false).map(|(file, _)| file),
        None => open_nonblocking(path),
    })?;
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

thread_local! {
    /// The folder [`holding_folders`] holds on this thread, while it runs.
    static HELD: std::cell::RefCell<Option<Folder>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with the byte readers of this crate ([`read_bytes`], [`read_bytes_inside`],
/// [`read_prefix`], [`read_prefix_shared`], [`same_bytes`]) opening each file, on this
/// thread, by its name in the folder of the last file they opened, held open as a
/// [`RuleReader`] holds its folder: for a caller that reads many files of a few folders
/// (a tool's view of a rules folder). The checks are made on the opened file as ever. The
/// folder is let go when `f` returns (or panics); a call inside another keeps the outer
/// one's.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.md"), "A")?;
/// std::fs::write(dir.path().join("b.md"), "B")?;
/// let read = rulebook_fs::holding_folders(|| {
///     ["a.md", "b.md"].map(|n| rulebook_fs::read_prefix(&dir.path().join(n), 10))
/// });
/// assert_eq!(read.map(Result::unwrap), [b"A".to_vec(), b"B".to_vec()]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn holding_folders<R>(f: impl FnOnce() -> R) -> R {
    /// Lets the folder go, when dropped, if this call took it.
    struct Release(bool);
    impl Drop for Release {
        fn drop(&mut self) {
            if self.0 {
                HELD.with(|held| held.borrow_mut().take());
            }
        }
    }
    let took = HELD.with(|held| {
        let mut held = held.borrow_mut();
        let took = held.is_none();
        if took {
            *held = Some(Folder::default());
        }
        took
    });
    let _release = Release(took);
    f()
}

/// The folder of the last file a [`RuleReader`] opened, held open (`O_PATH`): the next
/// file of the same folder is opened by its name in it, so the kernel looks up one name
/// instead of every component of the path again.
///
/// What is opened is what `open(path)` would open at that moment, unless the folder itself
/// was moved or replaced since the last file of it: the file is then taken from the folder
/// held, which was at `path`'s folder when it was opened.
///
/// The real path (Linux): the held folder's is read once from `/proc/self/fd/N`; a file
/// opened in it without following a link (`O_NOFOLLOW`) is that folder's entry of its name,
/// so its real path is the folder's joined with the name, with no `readlink` of its own. A
/// name that is a link is opened following it, and its real path read from its handle as
/// [`opened_real_path`] reads any other. A folder swapped for a link after it was opened
/// changes nothing here: the folder held is the one whose real path was read. A folder
/// moved while held keeps the real path it had when opened: its files were inside the
/// project then (a link can bring nothing in; a move is made by someone who can write in
/// both places).
#[derive(Debug, Default)]
struct Folder {
    #[cfg(unix)]
    open: Option<HeldFolder>,
}

/// A folder a [`Folder`] holds open.
#[cfg(unix)]
#[derive(Debug)]
struct HeldFolder {
    /// The folder's path as the files name it.
    path: PathBuf,
    /// The folder, opened `O_PATH` (no right to read it, only to open in it).
    fd: std::os::fd::OwnedFd,
    /// Its real path, once asked (`None`: not found).
    real: std::cell::OnceCell<Option<PathBuf>>,
}

impl Folder {
    /// Opens `path` as [`open_nonblocking`] does, by its name in its folder, and with
    /// `real`, the real path of the file opened when the folder's gives it (else the caller
    /// reads it from the handle).
    #[cfg(unix)]
    fn open(&mut self, path: &Path, real: bool) -> std::io::Result<(fs::File, Option<PathBuf>)> {
        use rustix::fs::{Mode, OFlags};
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return Ok((open_nonblocking(path)?, None));
        };
        if parent.as_os_str().is_empty() {
            return Ok((open_nonblocking(path)?, None));
        }
        let held = self
            .open
            .as_ref()
            .is_some_and(|h| h.path.as_os_str() == parent.as_os_str());
        if !held {
            self.open = None;
            let fd = rustix::fs::open(
                parent,
                OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            self.open = Some(HeldFolder {
                path: parent.to_path_buf(),
                fd,
                real: std::cell::OnceCell::new(),
            });
        }
        let Some(folder) = &mut self.open else {
            return Ok((open_nonblocking(path)?, None));
        };
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
        if real && cfg!(target_os = "linux") {
            let folder_real = folder.real.get_or_init(|| fd_real_path(&folder.fd)).clone();
            if let Some(folder_real) = folder_real {
                match rustix::fs::openat(&folder.fd, name, flags | OFlags::NOFOLLOW, Mode::empty())
                {
                    Ok(fd) => return Ok((fs::File::from(fd), Some(folder_real.join(name)))),
                    // A link: opened below as it leads, its real path read from the handle.
                    Err(rustix::io::Errno::LOOP) => {}
                    Err(err) => return Err(err.into()),
                }
            }
        }
        let fd = rustix::fs::openat(&folder.fd, name, flags, Mode::empty())?;
        Ok((fs::File::from(fd), None))
    }

    #[cfg(not(unix))]
    fn open(&mut self, path: &Path, _real: bool) -> std::io::Result<(fs::File, Option<PathBuf>)> {
        Ok((open_nonblocking(path)?, None))
    }
}

/// The real path of an open handle (a file, a folder), from `/proc/self/fd/N` (Linux; else
/// `None`).
#[cfg(unix)]
fn fd_real_path(fd: impl std::os::fd::AsFd) -> Option<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let real = fs::read_link(format!("/proc/self/fd/{}", fd.as_fd().as_raw_fd())).ok()?;
        // The kernel marks a file removed since it was opened; such a path names nothing
        // that can be checked.
        (real.is_absolute() && !real.to_string_lossy().ends_with(" (deleted)")).then_some(real)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = fd;
        None
    }
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

pub(crate) fn not_a_file_where(path: &Path, kind: fs::FileType, expected: &str) -> Diagnostic {
    Diagnostic::new(
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
pub(crate) fn opened_real_path(
    file: &fs::File,
    path: &Path,
    meta: &fs::Metadata,
) -> std::io::Result<PathBuf> {
    #[cfg(target_os = "linux")]
    if let Some(real) = fd_real_path(file) {
        return Ok(real);
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
        // One byte past the size: room to see the file's end in the same read.
        assert_eq!(reader.buffer.capacity(), KEPT_BUFFER + 1);
        let (text, _) = reader.read(&small, &options);
        assert_eq!(text.unwrap().text.len(), 4000);
        assert_eq!(
            reader.buffer.capacity(),
            KEPT_BUFFER + 1,
            "kept at the bound"
        );
        // A buffer grows to the next file's size, not to twice its own.
        let (medium, larger) = (dir.path().join("medium.md"), dir.path().join("larger.md"));
        fs::write(&medium, "m".repeat(600_000)).unwrap();
        fs::write(&larger, "l".repeat(700_000)).unwrap();
        let mut reader = RuleReader::new();
        reader.read(&medium, &options);
        let (text, _) = reader.read(&larger, &options);
        assert_eq!(text.unwrap().text.len(), 700_000);
        assert_eq!(
            reader.buffer.capacity(),
            700_001,
            "grown exactly, and a byte to see the end"
        );
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

    /// A file is read whole when it has the size its metadata gave (in one read: the
    /// buffer has a byte to spare), when it grew or shrank since, and up to the limit.
    #[test]
    fn a_file_is_read_whole_whatever_size_its_metadata_gave() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        fs::write(&path, "0123456789").unwrap();
        let cases: [(u64, u64, usize); 8] = [
            (10, u64::MAX, 10), // the size its metadata gave
            (4, u64::MAX, 10),  // grown since
            (0, u64::MAX, 10),  // was empty
            (25, u64::MAX, 10), // shrunk since
            (10, 6, 6),         // past the limit
            (4, 6, 6),          // grown past the limit
            (10, 11, 10),       // at the limit less one
            (3, 5, 5),          // grown to the limit
        ];
        for (size, limit, read) in cases {
            let mut file = fs::File::open(&path).unwrap();
            let mut bytes = Vec::new();
            let n = read_sized(&mut file, &mut bytes, size, limit).unwrap();
            assert_eq!(n, read, "size {size}, limit {limit}");
            assert_eq!(bytes, &b"0123456789"[..read], "size {size}, limit {limit}");
        }
        let empty = dir.path().join("empty.md");
        fs::write(&empty, "").unwrap();
        let mut bytes = vec![1, 2, 3];
        bytes.clear();
        let n = read_sized(
            &mut fs::File::open(&empty).unwrap(),
            &mut bytes,
            0,
            u64::MAX,
        );
        assert_eq!((n.unwrap(), bytes.len()), (0, 0));
    }

    /// A project with a rules folder (`a.md`, `b.md`, `out.md` a link to a file outside,
    /// `in.md` a link to `a.md`), a folder link out (`linked`) and one in (`alias`): the
    /// temporary folder, and the project, its rules folder and the outside folder (real
    /// paths).
    #[cfg(unix)]
    fn linked_project() -> (tempfile::TempDir, PathBuf, PathBuf, PathBuf) {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let (project, outside) = (root.join("project"), root.join("outside"));
        let rules = project.join("rules");
        fs::create_dir_all(&rules).unwrap();
        fs::create_dir_all(&outside).unwrap();
        fs::write(rules.join("a.md"), "A").unwrap();
        fs::write(rules.join("b.md"), "B").unwrap();
        fs::write(outside.join("secret.md"), "S").unwrap();
        symlink(outside.join("secret.md"), rules.join("out.md")).unwrap();
        symlink(rules.join("a.md"), rules.join("in.md")).unwrap();
        symlink(&outside, project.join("linked")).unwrap();
        symlink(&rules, project.join("alias")).unwrap();
        (dir, project, rules, outside)
    }

    /// A reader opens each file by its name in the folder it holds: the texts, real paths
    /// and refusals it gives are those of `read_rule`, file after file of one folder, links
    /// among them (to a file outside, to one inside), through a folder link out and one in,
    /// with the project boundary and with the real path alone.
    #[cfg(unix)]
    #[test]
    fn a_reader_holding_a_folder_reads_and_refuses_what_read_rule_does() {
        use std::os::unix::fs::symlink;
        let (_dir, project, rules, outside) = linked_project();
        let paths = [
            rules.join("a.md"),
            rules.join("out.md"),
            rules.join("in.md"),
            rules.join("b.md"),
            project.join("linked").join("secret.md"),
            project.join("alias").join("b.md"),
            project.join("alias").join("out.md"),
            rules.join("missing.md"),
            rules.join("a.md"),
        ];
        let bounded = ReadOptions::new().project_root(Some(project.clone()));
        for options in [&bounded, &ReadOptions::new().real_path(true)] {
            let mut reader = RuleReader::new();
            for path in &paths {
                let (read, diagnostics) = reader.read(path, options);
                let (expected, expected_diagnostics) = read_rule(path, options);
                let read = read.map(|r| (r.text.into_owned(), r.real_path));
                let expected = expected.map(|r| (r.text, r.real_path));
                assert_eq!(read, expected, "{}", path.display());
                assert_eq!(diagnostics, expected_diagnostics, "{}", path.display());
            }
        }
        // What the boundary refuses, the reader refuses: the two ways out.
        let mut reader = RuleReader::new();
        let refused = paths
            .iter()
            .filter(|p| {
                let (_, diagnostics) = reader.read(p, &bounded);
                diagnostics
                    .iter()
                    .any(|d| d.code == DiagnosticCode::OutsideProject)
            })
            .count();
        assert_eq!(refused, 3);
        let (read, _) = reader.read(&rules.join("b.md"), &bounded);
        assert_eq!(read.unwrap().real_path, Some(rules.join("b.md")));
        // The folder swapped for a link out while the reader holds it: nothing outside is
        // read through it.
        let mut reader = RuleReader::new();
        let (read, _) = reader.read(&rules.join("a.md"), &bounded);
        assert_eq!(read.unwrap().text, "A");
        fs::rename(&rules, project.join("moved")).unwrap();
        symlink(&outside, &rules).unwrap();
        let (read, _) = reader.read(&rules.join("secret.md"), &bounded);
        assert!(read.is_none(), "the outside file is not read");
    }

    /// A shared read gives what `read_prefix` gives: a file at its size, a prefix at the
    /// bound, and files whose size says nothing of their length (`/proc` gives 0 for text
    /// that follows, `sysfs` a page for less), read as they are.
    #[test]
    fn a_shared_read_gives_what_read_prefix_gives() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        fs::write(&path, "0123456789").unwrap();
        let mut paths = vec![path];
        paths.extend(
            ["/proc/self/cmdline", "/sys/devices/system/cpu/online"]
                .into_iter()
                .map(PathBuf::from)
                .filter(|p| p.is_file()),
        );
        // One buffer for every read, as a reader of many files keeps it: what the last
        // file left in it is never part of the next.
        let mut reused = b"left from a longer file before".to_vec();
        for path in &paths {
            for max in [0, 1, 4, 10, 11, 1 << 20] {
                let shared = read_prefix_shared(path, max).unwrap();
                assert_eq!(
                    shared[..],
                    read_prefix(path, max).unwrap()[..],
                    "{} up to {max}",
                    path.display()
                );
                read_prefix_into(path, max, &mut reused).unwrap();
                assert_eq!(reused[..], shared[..], "{} up to {max}", path.display());
            }
        }
        assert!(read_prefix_into(dir.path(), 10, &mut reused).is_err());
        assert!(
            reused.is_empty(),
            "a refused read leaves nothing of the file before"
        );
        #[cfg(target_os = "linux")]
        assert!(paths.len() > 1, "/proc is mounted");
    }

    /// Inside `holding_folders` the byte readers give what they give outside it (a link out
    /// refused by `read_bytes_inside` as ever, a missing file, a folder link in), and the
    /// folder is let go after; a call inside another keeps the outer one's.
    #[cfg(unix)]
    #[test]
    fn the_byte_readers_holding_folders_read_and_refuse_what_they_do_without() {
        let (_dir, project, rules, _) = linked_project();
        let paths = [
            rules.join("a.md"),
            rules.join("out.md"),
            rules.join("missing.md"),
            project.join("linked").join("secret.md"),
            project.join("alias").join("a.md"),
            rules.join("a.md"),
        ];
        let read = |p: &PathBuf| {
            (
                read_prefix(p, 100).map_err(|e| e.kind()),
                read_prefix_shared(p, 100)
                    .map(|b| b.to_vec())
                    .map_err(|e| e.kind()),
                read_bytes_inside(p, None, &project).map_err(|e| e.kind()),
            )
        };
        let without: Vec<_> = paths.iter().map(read).collect();
        let with = holding_folders(|| paths.iter().map(read).collect::<Vec<_>>());
        assert_eq!(with, without);
        let refused = with
            .iter()
            .filter(|(_, _, inside)| *inside == Err(std::io::ErrorKind::PermissionDenied))
            .count();
        assert_eq!(refused, 2);
        assert!(HELD.with(|held| held.borrow().is_none()), "let go");
        holding_folders(|| {
            holding_folders(|| read_prefix(&paths[0], 10).unwrap());
            assert!(
                HELD.with(|held| held.borrow().is_some()),
                "the outer one's kept"
            );
        });
        assert!(HELD.with(|held| held.borrow().is_none()));
    }
}
