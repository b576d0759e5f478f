//! Live rules: the `notify` crate watches the directories discovery reads (one by one, no
//! link followed) and the directories of rule files outside the project; after the rule
//! files have been quiet for the debounce time (or at most [`MAX_SETTLE`] after the first
//! change, however busy they are), discovery runs again on a blocking thread, the new
//! snapshot is swapped in, the watched set follows the new tree, and the client is told
//! (`notifications/resources/list_changed`, and `…/updated` for subscribed rules). A burst
//! that only wrote rule files already read names them, and the server updates their texts
//! in place when nothing else of them changed (see `RulebookServer::refresh_contents`).
//! Requests are answered from the old snapshot meanwhile: a save never blocks one, and
//! setting the watches up never delays the handshake.

use std::collections::{BTreeSet, HashSet};
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::server::RulebookServer;

/// The longest a burst of changes delays a refresh past the debounce time: a file saved
/// every few milliseconds forever still lets a rule change through within
/// `debounce + MAX_SETTLE`.
pub(crate) const MAX_SETTLE: Duration = Duration::from_secs(1);

/// Which changed paths can change the rules: a file of the current snapshot, anything in
/// a watched directory outside the project (a user-level rules directory), and, in the
/// project, any path through a name a provider reads (`.cursor`, `AGENTS.md`, …), an
/// ignore file, or a directory (a new one must be watched). Nothing inside `.git` or
/// `node_modules`. A build writing `target/out.o` every 50 ms is not a change.
#[derive(Debug, Default)]
struct Scope {
    cwd: PathBuf,
    names: HashSet<OsString>,
    /// The snapshot's files, by a hash of their paths ([`file_key`]): at 100,000 rules a
    /// set of the paths themselves held 13 MiB more.
    files: HashSet<u64>,
    outside: HashSet<PathBuf>,
    watched: BTreeSet<PathBuf>,
}

impl Scope {
    /// The scope of `server`'s current snapshot, and the directories to watch.
    fn of(server: &RulebookServer) -> Self {
        let snapshot = server.snapshot();
        let cwd = snapshot.book.cwd().to_path_buf();
        let mut names = server.serve_options().options.registry().nested_names();
        // The skills folders' first names (`.agents`, `.claude`, …): a new skill there is
        // a change too.
        names.extend(
            server
                .serve_options()
                .options
                .skill_registry()
                .nested_names(),
        );
        names.sort();
        names.dedup();
        let mut scope = Self {
            names: names.iter().map(OsString::from).collect(),
            ..Self::default()
        };
        for entry in snapshot.book.all() {
            let path = &entry.item.path;
            scope.files.insert(file_key(path));
            if !path.starts_with(&cwd) {
                if let Some(parent) = path.parent() {
                    scope.outside.insert(parent.to_path_buf());
                }
            }
        }
        if cwd.is_dir() {
            let (dirs, cut) = rulebook::stages::fs::find_dirs(&cwd, &names);
            if cut {
                eprintln!(
                    "rulebook mcp: {} holds more than {} entries; only the first directories are watched",
                    cwd.display(),
                    rulebook::stages::fs::MAX_WALK_ENTRIES
                );
            }
            scope.watched.extend(dirs);
        }
        for entry in snapshot.book.all_skills() {
            let path = &entry.item.path;
            scope.files.insert(file_key(path));
            if !path.starts_with(&cwd) {
                // The skill's folder, and the skills folder above it (a new skill there).
                let folder = entry.item.folder();
                scope.outside.insert(folder.to_path_buf());
                if let Some(root) = folder.parent() {
                    scope.outside.insert(root.to_path_buf());
                }
            }
        }
        scope.watched.extend(scope.outside.iter().cloned());
        scope.cwd = cwd;
        scope
    }

    /// Whether the event at `path` changed only the content of a file already read (no
    /// file or directory came, went or was renamed): the rules can then be read again
    /// without walking the tree.
    fn content_only(&self, path: &Path, kind: EventKind) -> bool {
        use notify::event::ModifyKind;
        self.files.contains(&file_key(path))
            && matches!(
                kind,
                EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Metadata(_))
            )
    }

    /// What a relevant event changed: the contents of files already read, files that came
    /// and went, or the tree.
    fn kind(&self, event: notify::Event) -> Kind {
        let contents =
            !event.paths.is_empty() && event.paths.iter().all(|p| self.content_only(p, event.kind));
        if contents {
            Kind::Contents(event.paths.into_iter().collect())
        } else {
            self.files(&event).unwrap_or(Kind::Tree)
        }
    }

    /// The event as files that came, went or were renamed ([`Kind::Files`]), when it is
    /// one about files (no folder, no kind left unknown).
    fn files(&self, event: &notify::Event) -> Option<Kind> {
        use notify::event::{CreateKind, ModifyKind, RemoveKind, RenameMode};
        // The paths the event made (created, or renamed to).
        let made: Vec<&PathBuf> = match event.kind {
            EventKind::Create(CreateKind::File)
            | EventKind::Modify(ModifyKind::Name(RenameMode::To)) => event.paths.iter().collect(),
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => {
                event.paths.get(1).into_iter().collect()
            }
            EventKind::Remove(RemoveKind::File)
            | EventKind::Modify(
                ModifyKind::Name(RenameMode::From) | ModifyKind::Data(_) | ModifyKind::Metadata(_),
            ) => Vec::new(),
            _ => return None,
        };
        let (mut known, mut others) = (BTreeSet::new(), BTreeSet::new());
        for path in &event.paths {
            if self.watched.contains(path) {
                return None;
            }
            if self.files.contains(&file_key(path)) {
                known.insert(path.clone());
            } else {
                others.insert(path.clone());
            }
        }
        let made = made
            .into_iter()
            .filter(|p| others.contains(*p))
            .cloned()
            .collect();
        Some(Kind::Files {
            known,
            others,
            made,
        })
    }

    fn relevant(&self, path: &Path, kind: EventKind) -> bool {
        if path.components().any(
            |c| matches!(c, Component::Normal(name) if name == ".git" || name == "node_modules"),
        ) {
            return false;
        }
        if self.files.contains(&file_key(path))
            || self.watched.contains(path)
            || path.parent().is_some_and(|p| self.outside.contains(p))
        {
            return true;
        }
        let Ok(inside) = path.strip_prefix(&self.cwd) else {
            return false;
        };
        let named = inside.components().any(|c| match c {
            Component::Normal(name) => {
                self.names.contains(name)
                    || name == ".gitignore"
                    || name == ".ignore"
                    || name == "rulebook.toml"
            }
            _ => false,
        });
        named
            || matches!(
                kind,
                EventKind::Create(notify::event::CreateKind::Folder)
                    | EventKind::Remove(notify::event::RemoveKind::Folder)
            )
            || path.is_dir()
    }
}

/// The key of a file of the snapshot in [`Scope::files`]: a hash of its path's bytes (two
/// paths of one key, one chance in 2^64, would take a new file for a known one).
fn file_key(path: &Path) -> u64 {
    use std::hash::BuildHasher;
    std::hash::BuildHasherDefault::<std::hash::DefaultHasher>::default()
        .hash_one(path.as_os_str().as_encoded_bytes())
}

/// What a burst of changes touched.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// Only the content of these files, already read: they are read again, every other
    /// rule is kept, the tree is not walked.
    Contents(BTreeSet<PathBuf>),
    /// Files (no folder) were created, removed, renamed or written, some of them not read
    /// before: `known` the files the snapshot read, `others` the other paths, `made` those
    /// of them created or renamed to in the burst. Once the burst is over
    /// ([`Kind::settled`]), when every known file is a file again and every other path was
    /// made in the burst and is gone (an editor's save through a temporary file renamed
    /// over the rule, or a backup renamed away), only the known files' contents changed.
    Files {
        known: BTreeSet<PathBuf>,
        others: BTreeSet<PathBuf>,
        made: BTreeSet<PathBuf>,
    },
    /// Once a burst of [`Kind::Files`] is over: files that are new (`made`: created, or
    /// written without having been read) and files read that are gone, and no other
    /// change. They are put in place when each is a rule file beside others of its
    /// provider (see `RulebookServer::refresh_files`); else the tree is walked again.
    Changed {
        made: BTreeSet<PathBuf>,
        gone: BTreeSet<PathBuf>,
    },
    /// Anything else (a directory came, went or was renamed, an ignore file changed): the
    /// tree is walked again.
    Tree,
}

impl Kind {
    /// Both `self` and `other` happened.
    fn and(self, other: Self) -> Self {
        match (self, other) {
            (Self::Contents(mut a), Self::Contents(b)) => {
                a.extend(b);
                Self::Contents(a)
            }
            (
                Self::Contents(a),
                Self::Files {
                    mut known,
                    others,
                    made,
                },
            )
            | (
                Self::Files {
                    mut known,
                    others,
                    made,
                },
                Self::Contents(a),
            ) => {
                known.extend(a);
                Self::Files {
                    known,
                    others,
                    made,
                }
            }
            (
                Self::Files {
                    mut known,
                    mut others,
                    mut made,
                },
                Self::Files {
                    known: k,
                    others: o,
                    made: m,
                },
            ) => {
                known.extend(k);
                others.extend(o);
                made.extend(m);
                Self::Files {
                    known,
                    others,
                    made,
                }
            }
            _ => Self::Tree,
        }
    }

    /// What the burst changed, now that it is over: files that came and went are a change
    /// of the known files' contents when the tree is as it was ([`Kind::Files`]); files
    /// that are new or gone, and no file read written, are [`Kind::Changed`]; anything else
    /// is a change of the tree. `None` when no file read was touched (a file made and gone
    /// again).
    fn settled(self) -> Option<Self> {
        let Self::Files {
            known,
            others,
            made,
        } = self
        else {
            return Some(self);
        };
        let is_file = |p: &PathBuf| std::fs::metadata(p).is_ok_and(|m| m.is_file());
        let gone = |p: &PathBuf| {
            std::fs::symlink_metadata(p).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
        };
        if known.iter().all(is_file) && others.iter().all(|p| made.contains(p) && gone(p)) {
            return (!known.is_empty()).then_some(Self::Contents(known));
        }
        // Files that came (and stayed), and files read that went: nothing else.
        let (went, stayed): (BTreeSet<PathBuf>, BTreeSet<PathBuf>) =
            known.into_iter().partition(|p| gone(p));
        let mut came = BTreeSet::new();
        for path in others {
            if is_file(&path) {
                came.insert(path);
            } else if !gone(&path) {
                return Some(Self::Tree);
            }
        }
        if !stayed.is_empty() || came.is_empty() && went.is_empty() {
            return Some(Self::Tree);
        }
        Some(Self::Changed {
            made: came,
            gone: went,
        })
    }
}

/// The live updates of one session: dropping it stops them (the watcher thread and the
/// settling task end; nothing waits for them).
pub(crate) struct Live {
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Live {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Watches `watcher` the paths of `next` that are not in `current` and stops watching those
/// that went; the set now watched.
fn rewatch(
    watcher: &mut notify::RecommendedWatcher,
    current: &BTreeSet<PathBuf>,
    next: &BTreeSet<PathBuf>,
) -> BTreeSet<PathBuf> {
    for gone in current.difference(next) {
        // A directory that went is unwatched by the kernel already.
        let _ = watcher.unwatch(gone);
    }
    let mut watched: BTreeSet<PathBuf> = current.intersection(next).cloned().collect();
    let mut refused = 0usize;
    for path in next.difference(current) {
        match watcher.watch(path, RecursiveMode::NonRecursive) {
            Ok(()) => {
                watched.insert(path.clone());
            }
            Err(err) => {
                refused += 1;
                if refused == 1 {
                    eprintln!(
                        "rulebook mcp: cannot watch {}: {err}; changes there are not seen",
                        path.display()
                    );
                }
            }
        }
    }
    if refused > 1 {
        eprintln!(
            "rulebook mcp: {} more directories could not be watched",
            refused - 1
        );
    }
    watched
}

/// Starts the live updates: the watches are set up on a blocking thread, then one refresh
/// catches what changed since the first discovery. `None` (said on standard error) when the
/// platform refuses a watcher: the server goes on without live updates.
pub(crate) fn start(server: &RulebookServer) -> Option<Live> {
    // Each relevant event, and whether it changed only the content of files already read.
    let (tx, mut rx) = mpsc::unbounded_channel::<Kind>();
    let scope: Arc<RwLock<Scope>> = Arc::new(RwLock::new(Scope::default()));
    let in_handler = Arc::clone(&scope);
    let handler = move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        let scope = in_handler.read().unwrap_or_else(PoisonError::into_inner);
        if event.paths.is_empty() || event.paths.iter().any(|p| scope.relevant(p, event.kind)) {
            let _ = tx.send(scope.kind(event));
        }
    };
    let config = notify::Config::default().with_follow_symlinks(false);
    let watcher = match notify::RecommendedWatcher::new(handler, config) {
        Ok(w) => Arc::new(Mutex::new(w)),
        Err(err) => {
            eprintln!("rulebook mcp: live updates are off: {err}");
            return None;
        }
    };
    let server = server.clone();
    let quiet = server.serve_options().debounce;
    let Some(worker) = Worker::get() else {
        eprintln!("rulebook mcp: live updates are off: no thread for them");
        return None;
    };
    let task = tokio::spawn(async move {
        let mut watched = BTreeSet::new();
        // The first refresh catches what changed between the first discovery and the
        // watches: anything may have.
        let mut first = Some(Kind::Tree);
        let mut rewatch_now = true;
        loop {
            // Set the watches for the current snapshot (the first time, and after each
            // refresh that walked the tree: new directories are watched, gone ones dropped).
            if rewatch_now {
                let (for_scope, for_watcher, was) = (
                    server.clone(),
                    Arc::clone(&watcher),
                    std::mem::take(&mut watched),
                );
                let Some((next_scope, now_watched)) = worker
                    .run(move || {
                        let next = Scope::of(&for_scope);
                        let mut watcher =
                            for_watcher.lock().unwrap_or_else(PoisonError::into_inner);
                        let now = rewatch(&mut watcher, &was, &next.watched);
                        (next, now)
                    })
                    .await
                else {
                    return;
                };
                watched = now_watched;
                *scope.write().unwrap_or_else(PoisonError::into_inner) = next_scope;
            }
            let mut seen = match first.take() {
                Some(kind) => kind,
                None => match rx.recv().await {
                    Some(kind) => kind,
                    None => return,
                },
            };
            // Settle: until no change came for `quiet`, or `quiet + MAX_SETTLE` passed.
            let deadline = Instant::now() + quiet + MAX_SETTLE;
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                match tokio::time::timeout(quiet.min(left), rx.recv()).await {
                    Ok(Some(next)) => seen = seen.and(next),
                    Ok(None) => return,
                    Err(_) => break,
                }
            }
            let refreshing = server.clone();
            let Some((changes, walked, files)) = worker
                .run(move || {
                    let seen = seen.settled();
                    let mut walked = seen == Some(Kind::Tree);
                    let mut files = None;
                    let changes = match seen {
                        // Nothing read changed: nothing to tell.
                        None => return (None, false, None),
                        Some(Kind::Contents(files)) => refreshing.refresh_contents(files),
                        Some(Kind::Changed { made, gone }) => {
                            let made: Vec<PathBuf> = made.into_iter().collect();
                            let gone: Vec<PathBuf> = gone.into_iter().collect();
                            if let Some((changes, read)) = refreshing.files_in_place(&made, &gone) {
                                // The new files that are rules are files read now.
                                let read: Vec<u64> = read.iter().map(|p| file_key(p)).collect();
                                let gone: Vec<u64> = gone.iter().map(|p| file_key(p)).collect();
                                files = Some((read, gone));
                                changes
                            } else {
                                walked = true;
                                refreshing.refresh()
                            }
                        }
                        Some(_) => refreshing.refresh(),
                    };
                    if let Some(hook) = refreshing.serve_options().after_refresh {
                        hook();
                    }
                    (Some(changes), walked, files)
                })
                .await
            else {
                return;
            };
            if let Some((read, gone)) = files {
                let mut scope = scope.write().unwrap_or_else(PoisonError::into_inner);
                for key in gone {
                    scope.files.remove(&key);
                }
                scope.files.extend(read);
            }
            if let Some(changes) = changes {
                server.notify(&changes).await;
            }
            rewatch_now = walked;
        }
    });
    Some(Live { task })
}

/// One thread that runs every discovery of the server (the first and each refresh), for
/// the life of the process. Discovery run on whichever thread of a pool is free allocates
/// from that thread's malloc arena, and each arena keeps the peak of the discoveries it
/// ran: the resident memory grew with every new thread a refresh landed on (124 to 222 MiB
/// over 40 changes at 10,000 rules) before it levelled off. On one thread, one arena holds
/// the peak of one refresh, the same after the first change as after the hundredth.
pub(crate) struct Worker {
    jobs: Mutex<std::sync::mpsc::Sender<Box<dyn FnOnce() + Send>>>,
}

impl Worker {
    /// The process's worker, started on first use; `None` when the system gives no thread
    /// (the caller then runs the job itself).
    pub(crate) fn get() -> Option<&'static Self> {
        static WORKER: std::sync::OnceLock<Option<Worker>> = std::sync::OnceLock::new();
        WORKER
            .get_or_init(|| {
                let (jobs, queue) = std::sync::mpsc::channel::<Box<dyn FnOnce() + Send>>();
                std::thread::Builder::new()
                    .name("rulebook-discovery".to_owned())
                    .spawn(move || {
                        for job in queue {
                            job();
                        }
                    })
                    .ok()?;
                Some(Worker {
                    jobs: Mutex::new(jobs),
                })
            })
            .as_ref()
    }

    /// Queues `job` on the worker and returns; `false` when the worker is gone.
    pub(crate) fn start(&self, job: impl FnOnce() + Send + 'static) -> bool {
        self.send(Box::new(job))
    }

    fn send(&self, job: Box<dyn FnOnce() + Send>) -> bool {
        self.jobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(job)
            .is_ok()
    }

    /// Runs `job` on the worker and waits for its result; `None` when the worker is gone
    /// (a job panicked).
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (done, result) = tokio::sync::oneshot::channel();
        if !self.send(Box::new(move || {
            let _ = done.send(job());
        })) {
            return None;
        }
        result.await.ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_that_can_change_the_rules_are_changes() {
        let scope = Scope {
            cwd: PathBuf::from("/p"),
            names: [".cursor", "AGENTS.md"]
                .into_iter()
                .map(OsString::from)
                .collect(),
            files: [file_key(Path::new("/home/u/.xcsh/agent/rules/u.md"))].into(),
            outside: [PathBuf::from("/home/u/.xcsh/agent/rules")].into(),
            watched: [PathBuf::from("/p"), PathBuf::from("/p/src")].into(),
        };
        let file = EventKind::Modify(notify::event::ModifyKind::Any);
        for (path, relevant) in [
            ("/p/.cursor/rules/a.mdc", true),
            ("/p/web/AGENTS.md", true),
            ("/p/.gitignore", true),
            ("/p/src", true),
            ("/home/u/.xcsh/agent/rules/new.md", true),
            ("/home/u/.xcsh/agent/rules/u.md", true),
            ("/p/src/main.rs", false),
            ("/p/target/out.o", false),
            ("/p/.git/index", false),
            ("/p/web/node_modules/x/.cursor/rules/a.mdc", false),
            ("/elsewhere/AGENTS.md", false),
        ] {
            assert_eq!(scope.relevant(Path::new(path), file), relevant, "{path}");
        }
        assert!(scope.relevant(
            Path::new("/p/new-dir"),
            EventKind::Create(notify::event::CreateKind::Folder)
        ));
    }

    #[test]
    fn only_writes_to_files_already_read_skip_the_walk() {
        use notify::event::{CreateKind, DataChange, MetadataKind, ModifyKind, RenameMode};
        let scope = Scope {
            cwd: PathBuf::from("/p"),
            names: [OsString::from(".cursor")].into(),
            files: [file_key(Path::new("/p/.cursor/rules/a.mdc"))].into(),
            ..Scope::default()
        };
        let (known, new) = (
            Path::new("/p/.cursor/rules/a.mdc"),
            Path::new("/p/.cursor/rules/b.mdc"),
        );
        let data = EventKind::Modify(ModifyKind::Data(DataChange::Content));
        assert!(scope.content_only(known, data));
        assert!(scope.content_only(
            known,
            EventKind::Modify(ModifyKind::Metadata(MetadataKind::Permissions))
        ));
        // A file not read yet, a rename, a creation, or a change of an unknown kind walks again.
        assert!(!scope.content_only(new, data));
        assert!(!scope.content_only(known, EventKind::Modify(ModifyKind::Name(RenameMode::To))));
        assert!(!scope.content_only(known, EventKind::Create(CreateKind::File)));
        assert!(!scope.content_only(known, EventKind::Modify(ModifyKind::Any)));
        let contents = |paths: &[&str]| Kind::Contents(paths.iter().map(PathBuf::from).collect());
        assert_eq!(
            contents(&["/a"]).and(contents(&["/b", "/a"])),
            contents(&["/a", "/b"])
        );
        assert_eq!(contents(&["/a"]).and(Kind::Tree), Kind::Tree);
        assert_eq!(Kind::Tree.and(contents(&["/a"])), Kind::Tree);
    }

    /// Editors that save through a temporary file renamed over the rule (and those that
    /// rename the rule to a backup first) leave the tree as it was: the burst is a change of
    /// the rule's contents. A file that came and stayed, a rule that went (or both: a
    /// rename) are files made and gone, put in place when they can be; with a rule written
    /// in the same burst, a path gone that the burst did not make and nothing read, or a
    /// folder, the tree is walked again.
    #[test]
    fn a_burst_is_a_save_files_made_or_gone_or_a_change_of_the_tree() {
        use notify::event::{CreateKind, DataChange, ModifyKind, RemoveKind, RenameMode};
        let dir = tempfile::tempdir().unwrap();
        let rules = dir.path().join(".cursor/rules");
        std::fs::create_dir_all(&rules).unwrap();
        let rule = rules.join("a.mdc");
        std::fs::write(&rule, "---\nalwaysApply: true\n---\nA\n").unwrap();
        let scope = Scope {
            cwd: dir.path().to_path_buf(),
            names: [OsString::from(".cursor")].into(),
            files: [file_key(&rule)].into(),
            watched: [rules.clone()].into(),
            ..Scope::default()
        };
        let event = |kind: EventKind, paths: &[&Path]| {
            scope.kind(
                paths
                    .iter()
                    .fold(notify::Event::new(kind), |e, p| e.add_path(p.to_path_buf())),
            )
        };
        let burst = |kinds: Vec<Kind>| kinds.into_iter().reduce(Kind::and).unwrap().settled();
        let only_the_rule = Some(Kind::Contents([rule.clone()].into()));
        let create = EventKind::Create(CreateKind::File);
        let data = EventKind::Modify(ModifyKind::Data(DataChange::Content));
        let both = EventKind::Modify(ModifyKind::Name(RenameMode::Both));
        let remove = EventKind::Remove(RemoveKind::File);

        // Written to a temporary file, renamed over the rule.
        let tmp = rules.join(".a.mdc.swp");
        std::fs::write(&tmp, "B").unwrap();
        std::fs::rename(&tmp, &rule).unwrap();
        let saved = vec![
            event(create, &[&tmp]),
            event(data, &[&tmp]),
            event(both, &[&tmp, &rule]),
        ];
        assert_eq!(burst(saved), only_the_rule);

        // The rule renamed to a backup, the new text renamed in, the backup removed.
        let (tmp, old) = (
            rules.join("a.mdc___jb_tmp___"),
            rules.join("a.mdc___jb_old___"),
        );
        std::fs::write(&tmp, "C").unwrap();
        std::fs::rename(&rule, &old).unwrap();
        std::fs::rename(&tmp, &rule).unwrap();
        std::fs::remove_file(&old).unwrap();
        let saved = vec![
            event(create, &[&tmp]),
            event(both, &[&rule, &old]),
            event(both, &[&tmp, &rule]),
            event(remove, &[&old]),
        ];
        assert_eq!(burst(saved), only_the_rule);

        // A file made and gone again changed nothing read.
        let scratch = rules.join("4913");
        assert_eq!(
            burst(vec![event(create, &[&scratch]), event(remove, &[&scratch])]),
            None
        );

        // A new rule file that stays: a file made.
        let new = rules.join("b.mdc");
        std::fs::write(&new, "B").unwrap();
        let changed = |made: &[&PathBuf], gone: &[&PathBuf]| {
            Some(Kind::Changed {
                made: made.iter().map(|p| (*p).clone()).collect(),
                gone: gone.iter().map(|p| (*p).clone()).collect(),
            })
        };
        assert_eq!(burst(vec![event(create, &[&new])]), changed(&[&new], &[]));
        // With the rule written too: the tree.
        assert_eq!(
            burst(vec![event(create, &[&new]), event(data, &[&rule])]),
            Some(Kind::Tree)
        );
        std::fs::remove_file(&new).unwrap();
        // A path gone that the burst did not make (a file renamed away).
        let away = EventKind::Modify(ModifyKind::Name(RenameMode::From));
        assert_eq!(burst(vec![event(away, &[&new])]), Some(Kind::Tree));
        // The rule itself renamed: one file gone, one made.
        std::fs::rename(&rule, &old).unwrap();
        assert_eq!(
            burst(vec![event(both, &[&rule, &old])]),
            changed(&[&old], &[&rule])
        );
        // Deleted.
        assert_eq!(burst(vec![event(remove, &[&rule])]), changed(&[], &[&rule]));
        std::fs::rename(&old, &rule).unwrap();
        // A folder, or a watched directory renamed.
        let folder = EventKind::Create(CreateKind::Folder);
        assert_eq!(
            burst(vec![event(folder, &[&rules.join("sub")])]),
            Some(Kind::Tree)
        );
        assert_eq!(burst(vec![event(away, &[&rules])]), Some(Kind::Tree));
        // Contents and files together: both read again.
        let with_data = vec![
            event(data, &[&rule]),
            event(create, &[&scratch]),
            event(remove, &[&scratch]),
        ];
        assert_eq!(burst(with_data), only_the_rule);
    }
}
