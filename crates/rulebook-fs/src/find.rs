//! Finding named entries: [`find_upward`] and the one nested walk ([`find_named`]).

use std::fs;
use std::path::{Path, PathBuf};

use rulebook_rule::{Diagnostic, DiagnosticCode};

use crate::walk::{MAX_NESTED_ENTRIES, MAX_WALK_DEPTH, MAX_WALK_ENTRIES};

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
/// parallel walker, with the skip rules of [`walk_rules_dir`](crate::walk_rules_dir): hidden entries (except the
/// wanted names), `node_modules` and `.git` are skipped, `.gitignore` is respected in a
/// repository and `.ignore` everywhere, links are not followed; a wanted directory is
/// recorded and not descended. Bounded by [`MAX_WALK_DEPTH`] and [`MAX_NESTED_ENTRIES`]:
/// a tree past the bound is walked again in name order, one thread, and cut at the same
/// entry every run, so the bound never makes the result depend on the threads' timing.
/// A project with no nested rules costs this one traversal and no file reads.
pub fn find_named(root: &Path, names: &[String]) -> Found {
    find_bounded(root, names, MAX_NESTED_ENTRIES)
}

/// The walker of [`find_named`]: its skip rules, links not followed, [`MAX_WALK_DEPTH`].
/// With `not_inside_wanted`, nothing inside a wanted directory below the root is listed
/// (what the parallel walk skips by its answer to the visit).
fn nested_walker(
    root: &Path,
    wanted: std::sync::Arc<std::collections::HashSet<String>>,
    not_inside_wanted: bool,
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
            let inside_wanted = not_inside_wanted
                && e.depth() >= 2
                && e.path()
                    .parent()
                    .and_then(Path::file_name)
                    .is_some_and(|p| wanted.contains(p.to_string_lossy().as_ref()));
            name != "node_modules"
                && name != ".git"
                && !inside_wanted
                && (!name.starts_with('.') || e.depth() == 0 || wanted.contains(name.as_ref()))
        });
    builder
}

/// The directories discovery reads below `root` (the root included): those the walk of
/// [`find_named`] passes through, and the wanted directories (`.cursor`, …) with every
/// directory in them under the same skip rules. This is what a watcher of the rules needs
/// to watch, and no more: links are not followed, `node_modules`, `.git`, hidden and
/// ignored directories are left out. Sorted; at most [`MAX_WALK_ENTRIES`] entries are
/// visited, in name order (the same every run; a watch a directory is dearer than a
/// visit), and `true` says the bound cut the list.
pub fn find_dirs(root: &Path, names: &[String]) -> (Vec<PathBuf>, bool) {
    let wanted = std::sync::Arc::new(names.iter().cloned().collect());
    let mut dirs = Vec::new();
    let mut visited = 0usize;
    for entry in nested_walker(root, wanted, false)
        .sort_by_file_name(std::cmp::Ord::cmp)
        .build()
    {
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
pub(crate) fn find_bounded(root: &Path, names: &[String], max_entries: usize) -> Found {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    if names.is_empty() {
        return Found::default();
    }
    let hits: Mutex<Vec<(String, PathBuf)>> = Mutex::new(Vec::new());
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let visited = AtomicUsize::new(0);
    let too_deep: Mutex<Option<PathBuf>> = Mutex::new(None);
    // `filter_entry` needs an owned, shareable set.
    let wanted: std::sync::Arc<std::collections::HashSet<String>> =
        std::sync::Arc::new(names.iter().cloned().collect());
    // A small tree (most projects, an empty one) is walked on this thread: the parallel
    // walker's idle threads wait a millisecond at a time for work that never comes, which
    // is most of the start of a run in such a tree. Past that many entries, the walk
    // starts again in parallel (the entries walked so far are a few milliseconds).
    if let Some(small) = find_small(root, &wanted, SMALL_TREE.min(max_entries)) {
        return found_from(
            root,
            max_entries,
            small.hits,
            small.errors,
            small.too_deep,
            false,
            None,
        );
    }
    let walker = nested_walker(root, wanted.clone(), false).build_parallel();
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
                // The first in name order, whichever thread saw it first.
                if let Ok(mut deep) = too_deep.lock() {
                    if deep.as_deref().is_none_or(|d| entry.path() < d) {
                        *deep = Some(entry.path().to_path_buf());
                    }
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
    let cut = visited.load(Ordering::Relaxed) > max_entries;
    let mut hits = hits.into_inner().unwrap_or_default();
    let mut errors = errors.into_inner().unwrap_or_default();
    let mut too_deep = too_deep.into_inner().unwrap_or_default();
    // Past the bound, which entries the threads had reached is a matter of timing: walk
    // again in name order on one thread, and cut at the same entry every run.
    let stopped_at = if cut {
        let sequential = find_in_order(root, &wanted, max_entries);
        hits = sequential.hits;
        errors = sequential.errors;
        too_deep = sequential.too_deep;
        sequential.stopped_at
    } else {
        None
    };
    found_from(root, max_entries, hits, errors, too_deep, cut, stopped_at)
}

/// Entries a tree may have for [`find_named`] to walk it on one thread.
const SMALL_TREE: usize = 1_000;

/// The walk of [`find_bounded`] on this thread, in the order the directories list their
/// entries, when the tree has at most `limit` entries (`None` past that). A wanted entry is
/// recorded by the filter and never descended into, as the parallel walk skips it.
fn find_small(
    root: &Path,
    wanted: &std::sync::Arc<std::collections::HashSet<String>>,
    limit: usize,
) -> Option<InOrder> {
    use std::sync::{Arc, Mutex, PoisonError};
    let hits: Arc<Mutex<Vec<(String, PathBuf)>>> = Arc::default();
    let (recorded, names) = (Arc::clone(&hits), Arc::clone(wanted));
    let mut builder = nested_walker(root, Arc::clone(wanted), false);
    builder.filter_entry(move |e| {
        let name = e.file_name().to_string_lossy();
        let keep = name != "node_modules"
            && name != ".git"
            && (!name.starts_with('.') || e.depth() == 0 || names.contains(name.as_ref()));
        if keep && e.depth() > 0 && names.contains(name.as_ref()) {
            if let Some(parent) = e.path().parent() {
                recorded
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push((name.into_owned(), parent.to_path_buf()));
            }
            // Read by its provider, not walked here.
            return false;
        }
        keep
    });
    let mut out = InOrder {
        hits: Vec::new(),
        errors: Vec::new(),
        too_deep: None,
        stopped_at: None,
    };
    for (visited, entry) in builder.build().enumerate() {
        if visited >= limit {
            return None;
        }
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                out.errors.push(err.to_string());
                continue;
            }
        };
        if entry.depth() == MAX_WALK_DEPTH && entry.file_type().is_some_and(|t| t.is_dir()) {
            // The first in name order, as the parallel walk says it.
            if out.too_deep.as_deref().is_none_or(|d| entry.path() < d) {
                out.too_deep = Some(entry.path().to_path_buf());
            }
        }
    }
    out.hits = std::mem::take(&mut *hits.lock().unwrap_or_else(PoisonError::into_inner));
    Some(out)
}

/// [`Found`] from a walk's hits, errors, first too-deep directory, whether the bound cut
/// it, and the entry it stopped at.
fn found_from(
    root: &Path,
    max_entries: usize,
    mut hits: Vec<(String, PathBuf)>,
    mut errors: Vec<String>,
    too_deep: Option<PathBuf>,
    cut: bool,
    stopped_at: Option<PathBuf>,
) -> Found {
    let mut found = Found::default();
    hits.sort();
    errors.sort();
    for (name, dir) in hits {
        if dir != root {
            found.by_name.entry(name).or_default().push(dir);
        }
    }
    for error in errors {
        found.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::WalkFailed,
                format!("Could not walk part of {}: {error}", root.display()),
            )
            .with_path(root),
        );
    }
    if let Some(deep) = too_deep {
        found.diagnostics.push(
            Diagnostic::new(
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
    if cut {
        let at = stopped_at.map_or_else(String::new, |p| format!(", at {}", p.display()));
        found.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::WalkFailed,
                format!(
                    "Stopped looking for nested rules in {} after {max_entries} entries{at}, in name order; rules in what comes after it were not found",
                    root.display()
                ),
            )
            .with_path(root),
        );
    }
    found
}

/// What [`find_in_order`] found: the hits, errors and first too-deep directory of a walk in
/// name order, and the entry it stopped at.
struct InOrder {
    hits: Vec<(String, PathBuf)>,
    errors: Vec<String>,
    too_deep: Option<PathBuf>,
    stopped_at: Option<PathBuf>,
}

/// The walk of [`find_bounded`] on one thread, each directory's entries in name order, cut
/// after `max_entries`: the same entries every run.
fn find_in_order(
    root: &Path,
    wanted: &std::sync::Arc<std::collections::HashSet<String>>,
    max_entries: usize,
) -> InOrder {
    let mut out = InOrder {
        hits: Vec::new(),
        errors: Vec::new(),
        too_deep: None,
        stopped_at: None,
    };
    let walk = nested_walker(root, wanted.clone(), true)
        .sort_by_file_name(std::cmp::Ord::cmp)
        .build();
    let mut visited = 0usize;
    for entry in walk {
        visited += 1;
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                out.errors.push(err.to_string());
                continue;
            }
        };
        if visited > max_entries {
            out.stopped_at = Some(entry.into_path());
            break;
        }
        if entry.depth() == 0 {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        if entry.depth() == MAX_WALK_DEPTH && is_dir && !wanted.contains(name.as_ref()) {
            out.too_deep
                .get_or_insert_with(|| entry.path().to_path_buf());
        }
        if wanted.contains(name.as_ref()) {
            if let Some(parent) = entry.path().parent() {
                out.hits.push((name.into_owned(), parent.to_path_buf()));
            }
        }
    }
    out
}
