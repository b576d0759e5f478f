//! The bytes of the files one discovery read, kept for the tools' views that run after it
//! ([`SharedReads`]): a `check` reads each rule file once, not once for discovery and once
//! more for each tool that reads it.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

/// The whole bytes of files read by one run, by the path they were read at, up to a bound
/// on the bytes held ([`SharedReads::new`]). A reader that finds a file here takes its
/// bytes instead of reading it again; one that does not reads it as it would have, and may
/// keep it. Whether a file is here changes how long a reader takes, never what it reads:
/// only a file read whole, at most [`SharedReads::MAX_FILE`] bytes, is kept, and a file
/// past the bound is not.
///
/// The bytes are those of the file when it was kept: share them between readers of one
/// run (a discovery and the views beside it), not across runs.
///
/// ```
/// use rulebook_registry::SharedReads;
/// use std::path::Path;
///
/// let reads = SharedReads::new(8);
/// assert!(reads.keep(Path::new("/p/a.md"), b"12345"));
/// assert!(!reads.keep(Path::new("/p/b.md"), b"6789")); // past the bound of 8 bytes
/// assert_eq!(reads.get(Path::new("/p/a.md")).as_deref(), Some(&b"12345"[..]));
/// assert_eq!(reads.get(Path::new("/p/b.md")), None);
/// assert_eq!((reads.len(), reads.bytes()), (1, 5));
/// ```
#[derive(Debug)]
pub struct SharedReads {
    /// By the path's bytes (hashing a `Path` walks its components), hashed by a fast hash
    /// seeded for each process (a view looks a file up several times).
    files: RwLock<HashMap<OsString, Arc<[u8]>, foldhash::fast::RandomState>>,
    held: AtomicUsize,
    bound: usize,
    /// Walks below a root, by the root ([`SharedReads::walk`]).
    walks: std::sync::Mutex<HashMap<OsString, Option<Arc<Walked>>>>,
    /// The files of a rules folder, by the folder ([`SharedReads::folder_files`]).
    folders: std::sync::Mutex<HashMap<OsString, Arc<[std::path::PathBuf]>>>,
    /// A folder's entries, each with whether it is a link, by the folder
    /// ([`SharedReads::links`]).
    listings: std::sync::Mutex<HashMap<OsString, Option<Arc<Links>>>>,
    /// What readers kept of files whose bytes are not kept ([`SharedReads::keep_digest`]).
    digests: RwLock<HashMap<OsString, Digest, foldhash::fast::RandomState>>,
}

/// What a reader kept of a file it read, when not its bytes ([`SharedReads::keep_digest`]):
/// enough to say that it was read, how long it is, and which files hold the same bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Digest {
    /// Its length, when it was read whole.
    pub len: Option<u64>,
    /// A hash of the bytes read, made by the reader (the same function for every file of a
    /// store); `None` when the reader made none (a blank file).
    pub hash: Option<u64>,
}

/// A folder's entries by name, each with whether it is a link ([`SharedReads::links`]),
/// looked up by a fast hash seeded for each process (a view asks it of every file).
pub type Links = HashMap<OsString, bool, foldhash::fast::RandomState>;

/// What one walk below a root found: for each name looked for, the folders holding an
/// entry of that name.
pub type Walked = std::collections::BTreeMap<String, Vec<std::path::PathBuf>>;

impl SharedReads {
    /// The largest file kept: the most bytes of a file a tool's view reads (1 MiB), so
    /// that a file kept is one such a view would have read whole.
    pub const MAX_FILE: usize = 1024 * 1024;

    /// The bound a run keeps by default: 64 MiB of file bytes (every file of a tree of
    /// 30,000 rules of 2 KiB).
    pub const DEFAULT_BOUND: usize = 64 * 1024 * 1024;

    /// An empty store that holds at most `bound` bytes of files.
    pub fn new(bound: usize) -> Self {
        Self {
            files: RwLock::new(HashMap::default()),
            held: AtomicUsize::new(0),
            bound,
            walks: std::sync::Mutex::new(HashMap::new()),
            folders: std::sync::Mutex::new(HashMap::new()),
            listings: std::sync::Mutex::new(HashMap::new()),
            digests: RwLock::new(HashMap::default()),
        }
    }

    /// The most digests kept ([`SharedReads::keep_digest`]): a million files.
    pub const MAX_DIGESTS: usize = 1 << 20;

    /// Keeps `digest` of the file read at `path`, for the readers after: a store whose
    /// bound keeps no bytes (`SharedReads::new(0)`) still tells them the file was read, its
    /// length and the hash of its bytes, so they need not read it again for those. A path
    /// kept already keeps its first digest; past [`SharedReads::MAX_DIGESTS`], none is kept.
    ///
    /// ```
    /// use rulebook_registry::{Digest, SharedReads};
    /// use std::path::Path;
    ///
    /// let reads = SharedReads::new(0);
    /// assert!(!reads.keep(Path::new("/p/a.md"), b"12345")); // no bytes are kept
    /// let digest = Digest { len: Some(5), hash: Some(42) };
    /// reads.keep_digest(Path::new("/p/a.md"), digest);
    /// assert_eq!(reads.digest(Path::new("/p/a.md")), Some(digest));
    /// assert_eq!(reads.digest(Path::new("/p/b.md")), None);
    /// ```
    pub fn keep_digest(&self, path: &Path, digest: Digest) {
        let mut digests = self.digests.write().unwrap_or_else(PoisonError::into_inner);
        if digests.len() < Self::MAX_DIGESTS {
            digests.entry(path.as_os_str().to_owned()).or_insert(digest);
        }
    }

    /// The digest kept for `path` (exactly as given), if any.
    pub fn digest(&self, path: &Path) -> Option<Digest> {
        self.digests
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(path.as_os_str())
            .copied()
    }

    /// The most folders whose files ([`SharedReads::folder_files`]) or entries
    /// ([`SharedReads::links`]) are kept.
    const MAX_FOLDERS: usize = 64;

    /// The files the walk of the rules folder `dir` found for every extension, kept, or
    /// `walk`'s (kept for the readers after, while fewer than 64 folders are kept): the
    /// views of one run that read the same folder (Cursor's and Crush's `.cursor/rules`)
    /// walk it once, each taking the files of its extensions.
    ///
    /// ```
    /// use rulebook_registry::SharedReads;
    /// use std::path::{Path, PathBuf};
    ///
    /// let reads = SharedReads::default();
    /// let first = reads.folder_files(Path::new("/p/.cursor/rules"), || vec![PathBuf::from("/p/.cursor/rules/a.mdc")]);
    /// let second = reads.folder_files(Path::new("/p/.cursor/rules"), || unreachable!());
    /// assert_eq!(first, second);
    /// ```
    pub fn folder_files(
        &self,
        dir: &Path,
        walk: impl FnOnce() -> Vec<std::path::PathBuf>,
    ) -> Arc<[std::path::PathBuf]> {
        kept_or(&self.folders, dir, Self::MAX_FOLDERS, || walk().into())
    }

    /// The entries of the folder `dir`, each with whether it is a link, kept, or `list`'s
    /// (kept for the readers after, while fewer than 64 folders are kept; `None`, a folder
    /// that cannot be listed, is kept too): the views of one run that check the same
    /// folder's files for links list it once.
    ///
    /// ```
    /// use rulebook_registry::SharedReads;
    /// use std::path::Path;
    ///
    /// let reads = SharedReads::default();
    /// let first = reads.links(Path::new("/p"), || Some([("a.md".into(), false)].into_iter().collect()));
    /// let second = reads.links(Path::new("/p"), || unreachable!());
    /// assert_eq!(first, second);
    /// ```
    pub fn links(&self, dir: &Path, list: impl FnOnce() -> Option<Links>) -> Option<Arc<Links>> {
        kept_or(&self.listings, dir, Self::MAX_FOLDERS, || {
            list().map(Arc::new)
        })
    }

    /// The most roots whose walk is kept.
    const MAX_WALKS: usize = 16;

    /// The walk below `root` kept, or `walk`'s (kept for the readers after, when fewer than
    /// 16 roots are kept). `walk` says `None` when its walk cannot stand for the walks of
    /// the readers; that is kept too.
    ///
    /// ```
    /// use rulebook_registry::SharedReads;
    /// use std::path::Path;
    ///
    /// let reads = SharedReads::default();
    /// let first = reads.walk(Path::new("/p"), || Some([("AGENTS.md".to_owned(), vec![])].into()));
    /// // The second reader takes the first one's walk.
    /// let second = reads.walk(Path::new("/p"), || unreachable!());
    /// assert_eq!(first, second);
    /// ```
    pub fn walk(&self, root: &Path, walk: impl FnOnce() -> Option<Walked>) -> Option<Arc<Walked>> {
        kept_or(&self.walks, root, Self::MAX_WALKS, || walk().map(Arc::new))
    }

    /// Keeps `bytes`, the whole of the file read at `path`, when they are at most
    /// [`SharedReads::MAX_FILE`] long and fit in the bound; says whether they were kept.
    /// A path kept already keeps its first bytes.
    pub fn keep(&self, path: &Path, bytes: &[u8]) -> bool {
        let len = bytes.len();
        if len > Self::MAX_FILE {
            return false;
        }
        let fits = self
            .held
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
                held.checked_add(len).filter(|&h| h <= self.bound)
            })
            .is_ok();
        if !fits {
            return false;
        }
        let mut files = self.files.write().unwrap_or_else(PoisonError::into_inner);
        match files.entry(path.as_os_str().to_owned()) {
            std::collections::hash_map::Entry::Occupied(_) => {
                drop(files);
                self.held.fetch_sub(len, Ordering::Relaxed);
                false
            }
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(Arc::from(bytes));
                true
            }
        }
    }

    /// The bytes kept for `path` (exactly as given: no path is resolved), if any.
    pub fn get(&self, path: &Path) -> Option<Arc<[u8]>> {
        self.files
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(path.as_os_str())
            .cloned()
    }

    /// How many files are kept.
    pub fn len(&self) -> usize {
        self.files
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether no file is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many bytes of files are kept.
    pub fn bytes(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }
}

/// The value `kept` holds for `path`, or `make`'s, kept for the readers after while fewer
/// than `most` paths are kept. `make` runs with the map unlocked (a walk or a listing takes
/// long): another reader may make the same meanwhile, and the first one kept stays.
fn kept_or<V: Clone>(
    kept: &std::sync::Mutex<HashMap<OsString, V>>,
    path: &Path,
    most: usize,
    make: impl FnOnce() -> V,
) -> V {
    if let Some(value) = kept
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(path.as_os_str())
    {
        return value.clone();
    }
    let made = make();
    let mut kept = kept.lock().unwrap_or_else(PoisonError::into_inner);
    if kept.len() < most {
        kept.entry(path.as_os_str().to_owned())
            .or_insert_with(|| made.clone());
    }
    made
}

/// One store is equal to itself alone (a context that shares its reads with another
/// store is another context).
impl PartialEq for SharedReads {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for SharedReads {}

impl Default for SharedReads {
    /// A store with [`SharedReads::DEFAULT_BOUND`].
    fn default() -> Self {
        Self::new(Self::DEFAULT_BOUND)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_too_large_or_past_the_bound_is_not_kept_and_the_first_bytes_stay() {
        let reads = SharedReads::new(SharedReads::MAX_FILE + 10);
        let big = vec![b'x'; SharedReads::MAX_FILE + 1];
        assert!(!reads.keep(Path::new("big"), &big));
        assert!(reads.keep(Path::new("a"), b"first"));
        assert!(!reads.keep(Path::new("a"), b"second"));
        assert_eq!(reads.get(Path::new("a")).as_deref(), Some(&b"first"[..]));
        assert_eq!(reads.bytes(), 5);
        // The bound counts what is held: one file of 1 MiB still fits, the next does not.
        assert!(reads.keep(Path::new("b"), &big[..SharedReads::MAX_FILE]));
        assert!(!reads.keep(Path::new("c"), b"123456"));
        assert_eq!(reads.len(), 2);
        assert_eq!(reads.bytes(), SharedReads::MAX_FILE + 5);
    }
}
