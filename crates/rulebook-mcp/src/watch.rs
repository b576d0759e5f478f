//! Live rules: the `notify` crate watches the project (recursively) and the directories of
//! rule files outside it; after the files have been quiet for the debounce time, discovery
//! runs again on a blocking thread and the new snapshot is swapped in, then the client is
//! told (`notifications/resources/list_changed`, and `…/updated` for subscribed rules).
//! Requests are answered from the old snapshot meanwhile: a save never blocks one.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use notify::{EventKind, RecursiveMode, Watcher};
use tokio::sync::mpsc;

use crate::server::RulebookServer;

/// Whether an event at `path` can change the rules: not inside `.git` or `node_modules`
/// (never walked).
fn relevant(path: &Path) -> bool {
    !path
        .components()
        .any(|c| matches!(c, Component::Normal(name) if name == ".git" || name == "node_modules"))
}

/// What to watch: the project recursively, and the directory of every rule file outside
/// it (user-level rules), once.
fn targets(server: &RulebookServer) -> Vec<(PathBuf, RecursiveMode)> {
    let snapshot = server.snapshot();
    let cwd = snapshot.book.cwd().to_path_buf();
    let mut outside: BTreeSet<PathBuf> = BTreeSet::new();
    for entry in snapshot.book.all() {
        let path = &entry.item.path;
        if !path.starts_with(&cwd) {
            if let Some(parent) = path.parent() {
                outside.insert(parent.to_path_buf());
            }
        }
    }
    std::iter::once((cwd, RecursiveMode::Recursive))
        .chain(
            outside
                .into_iter()
                .map(|dir| (dir, RecursiveMode::NonRecursive)),
        )
        .collect()
}

/// Starts watching; the returned watcher must be kept alive. `None` (said on standard
/// error) when the platform refuses: the server goes on without live updates.
pub(crate) fn start(server: &RulebookServer) -> Option<notify::RecommendedWatcher> {
    let (tx, mut rx) = mpsc::unbounded_channel::<()>();
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        if event.paths.is_empty() || event.paths.iter().any(|p| relevant(p)) {
            let _ = tx.send(());
        }
    });
    let mut watcher = match watcher {
        Ok(w) => w,
        Err(err) => {
            eprintln!("rulebook mcp: live updates are off: {err}");
            return None;
        }
    };
    for (path, mode) in targets(server) {
        if let Err(err) = watcher.watch(&path, mode) {
            eprintln!(
                "rulebook mcp: cannot watch {}: {err}; changes there are not seen",
                path.display()
            );
        }
    }
    let server = server.clone();
    let quiet = server.serve_options().debounce;
    tokio::spawn(async move {
        while rx.recv().await.is_some() {
            // Settle: wait until no event came for `quiet`.
            while let Ok(Some(())) = tokio::time::timeout(quiet, rx.recv()).await {}
            let refreshing = server.clone();
            let Ok(changes) = tokio::task::spawn_blocking(move || refreshing.refresh()).await
            else {
                continue;
            };
            server.notify(&changes).await;
        }
    });
    Some(watcher)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_and_node_modules_are_not_watched_for() {
        assert!(relevant(Path::new("/p/.cursor/rules/a.mdc")));
        assert!(!relevant(Path::new("/p/.git/index")));
        assert!(!relevant(Path::new(
            "/p/web/node_modules/x/.cursor/rules/a.mdc"
        )));
    }
}
