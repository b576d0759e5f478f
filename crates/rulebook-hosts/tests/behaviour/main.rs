//! What each emulation tells its user beyond the golden files: the reason given for every
//! file (`explain --as <host>` prints it), its scope, the notes, the globs of the files that
//! wait for a touched file, and the edge cases no recorded run covers. Each test builds a
//! small tree in a scratch directory; what it asserts comes from the emulated tool's source
//! or observed runs, as the module of that host says (`src/<host>.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

mod claude;
mod codex;
mod continue_cli;
mod documented;
mod gemini;
mod host;

use std::path::{Path, PathBuf};

use rulebook_hosts::{Host, HostFile, HostOptions, HostView, emulate};

/// The tool of the facade's table with this id.
pub(crate) fn tool(id: &str) -> Host {
    rulebook::tool(id).unwrap()
}

/// A scratch tree: a project `r` (with `.git`) and a home `home`, files added by path.
pub(crate) struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Tree {
    /// An empty tree with the project `r` (a git root) and the home `home`.
    pub(crate) fn new() -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join("r/.git")).unwrap();
        std::fs::create_dir_all(root.join("home")).unwrap();
        Tree { _dir: dir, root }
    }

    /// Writes `text` to `rel`, creating its directories.
    pub(crate) fn file(&self, rel: &str, text: &str) -> &Tree {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    /// Creates the directory `rel`.
    pub(crate) fn dir(&self, rel: &str) -> &Tree {
        std::fs::create_dir_all(self.path(rel)).unwrap();
        self
    }

    /// The absolute path of `rel`.
    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// What `host` loads started in `cwd` (relative to the tree), home `home`.
    pub(crate) fn view(&self, host: Host, cwd: &str) -> HostView {
        emulate(host, &HostOptions::new(self.path(cwd), self.path("home")))
    }
}

/// The entry of `view` for `rel` (relative to the tree); panics when it is not listed.
pub(crate) fn entry<'a>(view: &'a HostView, tree: &Tree, rel: &str) -> &'a HostFile {
    let path = tree.path(rel);
    view.files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("{rel} is not listed: {:#?}", view.files))
}

/// The paths `view` lists, relative to the tree, in its order.
pub(crate) fn listed(view: &HostView, tree: &Tree) -> Vec<String> {
    view.files.iter().map(|f| relative(tree, &f.path)).collect()
}

/// The paths `view` loads at start, relative to the tree, in its order.
pub(crate) fn loaded(view: &HostView, tree: &Tree) -> Vec<String> {
    view.loaded().map(|f| relative(tree, &f.path)).collect()
}

fn relative(tree: &Tree, path: &Path) -> String {
    rulebook_hosts::fixture::relative(&tree.root, path)
}
