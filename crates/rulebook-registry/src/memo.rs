//! How one discovery loaded each rule file, kept so that a file whose text alone changed can
//! be loaded again by itself ([`ReadMemo`]): a server serving 100,000 rules answers a save
//! by reading one file, not by discovering again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use rulebook_rule::{Diagnostic, Rule};

/// What loading one rule file gave, in brief: the name it was loaded as, the rule's
/// shape ([`Rule::shape_fingerprint`]) and text, and the findings of its read and parse.
#[derive(Debug, Clone, PartialEq)]
pub struct FileLoad {
    /// The name the rule was loaded as (before its frontmatter could rename it).
    pub name: String,
    /// The rule the file gave, if any: its shape and its text.
    pub rule: Option<(u64, Arc<str>)>,
    /// The findings of reading and parsing it.
    pub diagnostics: Vec<Diagnostic>,
}

impl FileLoad {
    /// What loading a file as `name` gave: `rule`, if any, and `diagnostics`.
    pub fn new(name: String, rule: Option<&Rule>, diagnostics: Vec<Diagnostic>) -> Self {
        Self {
            name,
            rule: rule.map(|r| (r.shape_fingerprint(), Arc::clone(&r.content))),
            diagnostics,
        }
    }
}

/// Loads one file again as the loader of one key loaded it: the path and the name it was
/// loaded as.
pub type Reload = dyn Fn(&Path, &str) -> FileLoad + Send + Sync;

/// A file loaded again: the key of its loader, its last load, and its new one.
#[derive(Debug, Clone)]
pub struct Reloaded {
    /// The key of the loader ([`ReadMemo::record_file`]).
    pub key: u64,
    /// What the last load gave.
    pub old: Arc<FileLoad>,
    /// What loading it now gives.
    pub new: Arc<FileLoad>,
}

/// One file's load, as kept: the name only when it is not the file's stem (most are), no
/// room for findings when there are none. About 170 bytes a file with its path.
struct Record {
    name: Option<Box<str>>,
    rule: Option<(u64, Arc<str>)>,
    diagnostics: Box<[Diagnostic]>,
}

/// A file's name without its extension.
fn stem(path: &Path) -> std::borrow::Cow<'_, str> {
    path.file_stem().unwrap_or_default().to_string_lossy()
}

impl Record {
    fn new(path: &Path, load: FileLoad) -> Self {
        Self {
            name: (load.name != stem(path)).then(|| load.name.into_boxed_str()),
            rule: load.rule,
            diagnostics: load.diagnostics.into_boxed_slice(),
        }
    }

    fn load(&self, path: &Path) -> FileLoad {
        FileLoad {
            name: self
                .name
                .as_deref()
                .map_or_else(|| stem(path).into_owned(), str::to_owned),
            rule: self.rule.clone(),
            diagnostics: self.diagnostics.to_vec(),
        }
    }
}

/// Each rule file's load by its path and the key of its loader (provider, level, field
/// policy: everything but the path and the name that decides what loading gives); every
/// loader's key; and, for the loaders whose provider never looks at a rule's text once
/// loaded, how to load a file again.
#[derive(Default)]
struct Table {
    files: HashMap<(PathBuf, u64), Record>,
    keys: std::collections::BTreeSet<u64>,
    reloads: HashMap<u64, Arc<Reload>>,
    /// The files a loader loaded by name ([`ReadMemo::record_probe`]).
    probes: std::collections::HashSet<PathBuf>,
}

/// How one discovery loaded each rule file: a provider's `FileLoader` records each load
/// (and, when its provider never looks at a rule's text once loaded, how to load a file
/// again), so that a file whose text alone changed can be loaded again by itself and its
/// rule's text replaced in place (`Rulebook::content_update`).
///
/// Cheap to clone (one shared state); two memos are equal when they are the same one.
///
/// ```
/// use std::path::Path;
/// use std::sync::Arc;
/// use rulebook_registry::{FileLoad, ReadMemo};
///
/// let memo = ReadMemo::default();
/// memo.record_file(Path::new("/p/a.md"), 7, FileLoad::new("a".into(), None, Vec::new()));
/// // No way to load it again was recorded for key 7.
/// assert!(memo.reload(Path::new("/p/a.md")).is_none());
/// memo.record_reload(7, || Arc::new(|_: &Path, name: &str| FileLoad::new(name.into(), None, Vec::new())));
/// let again = memo.reload(Path::new("/p/a.md")).unwrap();
/// assert_eq!(again[0].new.name, "a");
/// // A file not loaded is not loaded again.
/// assert!(memo.reload(Path::new("/p/b.md")).is_none());
/// ```
#[derive(Clone, Default)]
pub struct ReadMemo(Arc<Mutex<Table>>);

impl std::fmt::Debug for ReadMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let table = self.table();
        f.debug_struct("ReadMemo")
            .field("files", &table.files.len())
            .field("reloads", &table.reloads.len())
            .finish()
    }
}

impl PartialEq for ReadMemo {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ReadMemo {}

impl ReadMemo {
    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records the load of the file at `path` by the loader of `key` (a later load of
    /// the same file by the same loader replaces it).
    pub fn record_file(&self, path: &Path, key: u64, load: FileLoad) {
        let record = Record::new(path, load);
        let mut table = self.table();
        table.keys.insert(key);
        table.files.insert((path.to_path_buf(), key), record);
    }

    /// Records, once for each key, how its loader loads a file again; only a loader whose
    /// provider never looks at a rule's text once loaded records one (see
    /// [`ReadMemo::reload`]).
    pub fn record_reload(&self, key: u64, reload: impl FnOnce() -> Arc<Reload>) {
        self.table().reloads.entry(key).or_insert_with(reload);
    }

    /// Loads the file at `path` again, as each loader that loaded it did: `None` when the
    /// file was not loaded, or one of its loaders recorded no way to load it again. The
    /// memo is not changed ([`ReadMemo::replace`] takes the new loads).
    pub fn reload(&self, path: &Path) -> Option<Vec<Reloaded>> {
        // Each load of the file with its way to load again.
        let loads: Vec<(u64, Arc<FileLoad>, Arc<Reload>)> = {
            let table = self.table();
            let mut at = (path.to_path_buf(), 0);
            let mut loads = Vec::new();
            for &key in &table.keys {
                at.1 = key;
                if let Some(record) = table.files.get(&at) {
                    loads.push((
                        key,
                        Arc::new(record.load(path)),
                        table.reloads.get(&key).cloned()?,
                    ));
                }
            }
            loads
        };
        if loads.is_empty() {
            return None;
        }
        // Read with the memo unlocked: a load reads the file.
        Some(
            loads
                .into_iter()
                .map(|(key, old, reload)| Reloaded {
                    key,
                    new: Arc::new(reload(path, &old.name)),
                    old,
                })
                .collect(),
        )
    }

    /// Whether the file at `path` was loaded, and only by loaders whose provider never
    /// looks at a rule's text once loaded (each recorded how to load it again).
    pub fn reloadable(&self, path: &Path) -> bool {
        let table = self.table();
        let mut at = (path.to_path_buf(), 0);
        let mut loaded = false;
        for &key in &table.keys {
            at.1 = key;
            if table.files.contains_key(&at) {
                if !table.reloads.contains_key(&key) {
                    return false;
                }
                loaded = true;
            }
        }
        loaded
    }

    /// Records that a loader loading only some files (`LoadContext::only`) loaded the one
    /// at `path` by its name, not as one of the files a walk of a rules directory found:
    /// where it goes among a provider's rules is the provider's to say, not the walk's
    /// order.
    pub fn record_probe(&self, path: &Path) {
        self.table().probes.insert(path.to_path_buf());
    }

    /// Whether a loader loaded the file at `path` by name ([`ReadMemo::record_probe`]).
    pub fn probed(&self, path: &Path) -> bool {
        self.table().probes.contains(path)
    }

    /// Whether a loader loaded the file at `path`.
    pub fn loaded(&self, path: &Path) -> bool {
        let table = self.table();
        let mut at = (path.to_path_buf(), 0);
        table.keys.iter().any(|&key| {
            at.1 = key;
            table.files.contains_key(&at)
        })
    }

    /// Forgets every load of the file at `path` (it is gone).
    pub fn forget(&self, path: &Path) {
        let mut table = self.table();
        let mut at = (path.to_path_buf(), 0);
        let keys: Vec<u64> = table.keys.iter().copied().collect();
        for key in keys {
            at.1 = key;
            table.files.remove(&at);
        }
    }

    /// Takes every load `other` recorded (files loaded again on their own) in place of this
    /// memo's loads of the same files by the same loaders, with their ways to load again.
    pub fn absorb(&self, other: &Self) {
        if self == other {
            return;
        }
        let mut theirs = other.table();
        let mut ours = self.table();
        for ((path, key), record) in theirs.files.drain() {
            ours.keys.insert(key);
            ours.files.insert((path, key), record);
        }
        for (key, reload) in theirs.reloads.drain() {
            ours.reloads.entry(key).or_insert(reload);
        }
    }

    /// Takes `reloaded`'s new load as the load of its file (its rule was updated in place),
    /// unless the load kept is no longer the one it was loaded again from.
    pub fn replace(&self, path: &Path, reloaded: &Reloaded) {
        let mut table = self.table();
        if let Some(record) = table.files.get_mut(&(path.to_path_buf(), reloaded.key)) {
            if record.load(path) == *reloaded.old {
                *record = Record::new(path, (*reloaded.new).clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_loaded_again_by_each_of_its_loaders_and_replaced_by_the_new_load() {
        let memo = ReadMemo::default();
        let path = Path::new("/p/a.md");
        memo.record_file(path, 1, FileLoad::new("a".into(), None, Vec::new()));
        memo.record_file(path, 2, FileLoad::new("b".into(), None, Vec::new()));
        let renamed = |suffix: &'static str| -> Arc<Reload> {
            Arc::new(move |_: &Path, name: &str| {
                FileLoad::new(format!("{name}{suffix}"), None, Vec::new())
            })
        };
        memo.record_reload(1, || renamed("1"));
        // One loader of the two has no way to load again: no reload.
        assert!(memo.reload(path).is_none());
        memo.record_reload(2, || renamed("2"));
        // Recorded once a key: the first stays.
        memo.record_reload(2, || renamed("x"));
        let again = memo.reload(path).unwrap();
        let names: Vec<&str> = again.iter().map(|r| r.new.name.as_str()).collect();
        assert_eq!(names, ["a1", "b2"]);
        assert_eq!(again[0].old.name, "a");
        memo.replace(path, &again[0]);
        let next = memo.reload(path).unwrap();
        assert_eq!(next[0].old.name, "a1");
        assert_eq!(next[1].old.name, "b");
        // A stale reload (its old load replaced since) changes nothing.
        memo.replace(path, &again[0]);
        assert_eq!(memo.reload(path).unwrap()[0].old.name, "a1");
    }
}
