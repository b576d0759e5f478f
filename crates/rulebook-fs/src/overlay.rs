//! Text laid over files: what an editor holds and has not saved, read in place of what is
//! on disk ([`Overlay`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

/// Unsaved text laid over files, for a language server: while a path has an overlay, every
/// reader of this crate ([`crate::read_rule`], [`crate::RuleReader`], [`crate::read_bytes`],
/// [`crate::read_bytes_inside`], [`crate::read_prefix`]) reads the overlay's bytes in place
/// of the file's, after opening the file and making every check on it as usual (a regular
/// file, the size cap on the overlay's length, the project boundary): an overlay changes
/// what a file says, never which files are read. A file that does not exist on disk stays
/// unread.
///
/// The overlay is the process's: set it only in a process that serves one editor (a
/// language server); a process with no overlay pays one atomic load a read.
///
/// ```
/// use rulebook_fs::{Overlay, ReadOptions, read_rule_file};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("CLAUDE.md");
/// std::fs::write(&path, "saved")?;
/// Overlay::set(&path, b"typed, not saved");
/// assert_eq!(read_rule_file(&path, &ReadOptions::new()).0.as_deref(), Some("typed, not saved"));
/// Overlay::remove(&path);
/// assert_eq!(read_rule_file(&path, &ReadOptions::new()).0.as_deref(), Some("saved"));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Overlay;

/// Whether any overlay is set (readers skip the lock when none is).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The overlays, by the lexical form of the absolute path they were set for.
static TEXTS: RwLock<Option<HashMap<PathBuf, Arc<[u8]>>>> = RwLock::new(None);

impl Overlay {
    /// Reads `bytes` in place of the file at `path` from now on.
    pub fn set(path: &Path, bytes: &[u8]) {
        let mut texts = TEXTS.write().unwrap_or_else(PoisonError::into_inner);
        texts
            .get_or_insert_with(HashMap::new)
            .insert(key(path), Arc::from(bytes));
        ACTIVE.store(true, Ordering::Release);
    }

    /// Reads the file at `path` from disk again.
    pub fn remove(path: &Path) {
        let mut texts = TEXTS.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(map) = texts.as_mut() {
            map.remove(&key(path));
            if map.is_empty() {
                ACTIVE.store(false, Ordering::Release);
            }
        }
    }

    /// The bytes laid over `path`, if any.
    pub fn get(path: &Path) -> Option<Arc<[u8]>> {
        if !ACTIVE.load(Ordering::Acquire) {
            return None;
        }
        let texts = TEXTS.read().unwrap_or_else(PoisonError::into_inner);
        texts.as_ref()?.get(&key(path)).cloned()
    }
}

/// An absolute, lexically normalized path (relative paths are taken from the working
/// directory).
fn key(path: &Path) -> PathBuf {
    if path.is_absolute() {
        crate::normalize_lexically(path)
    } else {
        std::env::current_dir().map_or_else(
            |_| path.to_path_buf(),
            |cwd| crate::normalize_lexically(&cwd.join(path)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ReadOptions, read_bytes, read_prefix, read_rule_file};

    #[test]
    fn an_overlay_changes_the_text_never_the_checks() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        let project = dir.path().join("p");
        std::fs::create_dir(&project)?;
        let file = project.join("a.md");
        std::fs::write(&file, "saved")?;
        Overlay::set(&file, b"0123456789");
        // The size cap applies to the overlay's length.
        let capped = ReadOptions::new().max_size(Some(4));
        let (text, diagnostics) = read_rule_file(&file, &capped);
        assert_eq!(text, None);
        assert_eq!(diagnostics[0].code.as_str(), "too-large");
        assert_eq!(read_prefix(&file, 3)?, b"012");
        assert_eq!(read_bytes(&file, None)?, b"0123456789");
        assert!(read_bytes(&file, Some(4)).is_err());
        // A file that is not there stays unread, overlay or not.
        let missing = project.join("missing.md");
        Overlay::set(&missing, b"typed");
        assert_eq!(read_rule_file(&missing, &ReadOptions::new()).0, None);
        // The boundary is checked on the file opened, as without an overlay.
        #[cfg(unix)]
        {
            std::fs::write(dir.path().join("secret.md"), "S")?;
            let link = project.join("link.md");
            std::os::unix::fs::symlink(dir.path().join("secret.md"), &link)?;
            Overlay::set(&link, b"typed");
            let inside = ReadOptions::new().project_root(Some(std::fs::canonicalize(&project)?));
            assert_eq!(read_rule_file(&link, &inside).0, None);
            Overlay::remove(&link);
        }
        Overlay::remove(&file);
        Overlay::remove(&missing);
        assert_eq!(read_bytes(&file, None)?, b"saved");
        Ok(())
    }
}
