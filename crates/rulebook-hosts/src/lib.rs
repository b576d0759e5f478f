//! Host emulation (behaviour.md §13, E12): which rule files **one** real tool loads in a
//! directory, in that tool's order, cut where it cuts, and the text it puts in front of the
//! model. The union view of `rulebook` answers "what does an agent built on rulebook see";
//! this crate answers "why does Claude not see my rule, when Cursor does?".
//!
//! Each tool ([`Tool`], held by a [`Host`]) lives in its provider crate and is pinned to one
//! version. The tools that can be run here were run offline on fixture trees (`cargo xtask
//! oracle`), and their views are checked against what those runs recorded
//! ([`Host::verified`]); the others follow their documentation or source, and their views
//! say "documented, not verified".
//!
//! An emulation reads the file system as the tool does, not as rulebook's providers do: no
//! project boundary (E10), no size cap but the tool's own, the tool's own walk. Files are
//! still opened without blocking and only regular files are read, so a FIFO cannot hang it.
//!
//! Two guards stand between the tool's reading and what a view shows:
//! - **Links out of the project.** The real tools follow a link (`AGENTS.override.md ->
//!   /elsewhere/notes.md`) and load the file it names, so the view reports it as the tool
//!   uses it, with [`HostFile::outside`] set to its real path and the reason saying so. But
//!   the text such a file brings in is not shown: while a loaded file lies outside the
//!   project (its real path not under the project root, or for a file above the root or in
//!   the home, not under its own directory), [`HostView::prompt`] is withheld unless
//!   [`HostOptions::show_outside`] asks for it.
//! - **Size.** A file is read up to 1 MiB (rulebook's size cap); the tools read it whole
//!   (Codex only up to its 32 KiB budget), so a view over a larger file says, in a note,
//!   that what lies past the first MiB is not in it.
//!
//! Each tool's emulation lives in its provider crate (`rulebook_provider_claude::TOOL`, ...),
//! written on the kit's shared shape (`rulebook_kit::host`); the facade's table lists them
//! (`rulebook::tools()`). This crate runs one ([`emulate`]) behind the two guards, and holds
//! the golden files' format ([`fixture`]). It names no tool.
//!
//! Depends on `rulebook-kit` alone.
//!
//! ```
//! use rulebook_hosts::{emulate, HostOptions};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let (project, home) = (dir.path().join("p"), dir.path().join("h"));
//! std::fs::create_dir_all(project.join(".git")).unwrap();
//! std::fs::create_dir_all(&home).unwrap();
//! std::fs::write(project.join("AGENTS.md"), "Run the tests.\n").unwrap();
//!
//! let codex = rulebook::tool("codex").unwrap();
//! let view = emulate(codex, &HostOptions::new(&project, &home));
//! assert_eq!(view.loaded().count(), 1);
//! assert!(view.prompt.contains("<INSTRUCTIONS>\nRun the tests.\n\n</INSTRUCTIONS>"));
//! ```

pub mod fixture;

use std::path::{Path, PathBuf};

pub(crate) use rulebook_kit::host::util;
pub use rulebook_kit::host::{
    Duplicate, Host, HostFile, HostOptions, HostSkill, HostView, Scope, SkillStatus, Status, Tool,
};

/// What `host` loads when started in `options.cwd()` by the user of `options.home()`: the
/// tool's own view, behind the two guards of the crate's docs.
pub fn emulate(host: Host, options: &HostOptions) -> HostView {
    options.reading(|| guard(host.tool().emulate(options), options).finish())
}

/// [`emulate`] for each of `hosts`, in their order, on as many threads as the machine has
/// cores (each view reads the tree on its own: on a tree of 10,000 rules the views of the
/// tools that read them take tens of milliseconds each).
pub fn emulate_all(hosts: &[Host], options: &HostOptions) -> Vec<HostView> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(hosts.len());
    if threads <= 1 {
        return hosts.iter().map(|&h| emulate(h, options)).collect();
    }
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, HostView)>> = Mutex::new(Vec::with_capacity(hosts.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&host) = hosts.get(i) else {
                        break;
                    };
                    let view = emulate(host, options);
                    if let Ok(mut done) = done.lock() {
                        done.push((i, view));
                    }
                }
            });
        }
    });
    let mut done = done
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, view)| view).collect()
}

/// Real paths of the files of one view, their directories resolved once: the same as
/// [`std::fs::canonicalize`] of each (a view of thousands of files in a few folders costs
/// a `lstat` a file for the first files of a folder, then one listing of the folder that
/// says which of its entries are links).
#[derive(Default)]
struct RealPaths {
    /// By the folder's path, as bytes (hashing a `Path` walks its components).
    dirs: std::collections::HashMap<std::ffi::OsString, Dir>,
}

/// A folder of a view's files: its real path, whether that lies inside the folder's
/// boundary, and once enough of its files were asked about, its entries, each with whether
/// it is a link.
struct Dir {
    real: Option<PathBuf>,
    inside: bool,
    asked: usize,
    entries: Option<std::sync::Arc<util::Links>>,
}

impl Dir {
    /// After this many files of a folder, the folder is listed once (its listing costs
    /// less than a `lstat` a file from here, and no more than the tool's own walk of it).
    const LIST_AFTER: usize = 32;
}

impl RealPaths {
    /// The real path of `path` when it lies outside `boundary(path)` (a folder's files
    /// share its boundary), or `None`: inside, or not resolved.
    fn outside(&mut self, path: &Path, boundary: &dyn Fn(&Path) -> PathBuf) -> Option<PathBuf> {
        let resolved = |path: &Path| {
            let real = std::fs::canonicalize(path).ok()?;
            (!real.starts_with(boundary(path))).then_some(real)
        };
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return resolved(path);
        };
        if name == "." || name == ".." {
            return resolved(path);
        }
        if !self.dirs.contains_key(parent.as_os_str()) {
            let real = std::fs::canonicalize(parent).ok();
            let inside = real.as_ref().is_some_and(|r| r.starts_with(boundary(path)));
            let dir = Dir {
                real,
                inside,
                asked: 0,
                entries: None,
            };
            self.dirs.insert(parent.as_os_str().to_owned(), dir);
        }
        let dir = self.dirs.get_mut(parent.as_os_str())?;
        dir.asked += 1;
        if dir.entries.is_none() && dir.asked > Dir::LIST_AFTER {
            dir.entries = util::links(parent);
        }
        let listed = dir.entries.as_ref().and_then(|e| e.get(name)).copied();
        let link = match listed {
            Some(link) => link,
            // A name the listing did not see (made since) is asked about on its own.
            None => std::fs::symlink_metadata(path)
                .ok()?
                .file_type()
                .is_symlink(),
        };
        if link {
            return resolved(path);
        }
        // A file that is no link lies where its folder really lies.
        if dir.inside {
            return None;
        }
        Some(dir.real.as_ref()?.join(name))
    }
}

/// The two guards of the crate's docs: files reached through links out of the project are
/// marked (and the prompt that holds their text withheld, with every value of theirs the
/// view would quote: globs, triggers, a skill's name and description), files past the read
/// bound noted.
fn guard(mut view: HostView, options: &HostOptions) -> HostView {
    let root = options.top().to_path_buf();
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (real_root, real_home) = (real(&root), real(options.home()));
    // The real path of a file the tool found at `path`, when it lies outside the project
    // (for a file above the root or in the home: outside its own directory).
    let boundary = |path: &Path| {
        if path.starts_with(&root) {
            real_root.clone()
        } else if path.starts_with(options.home()) {
            real_home.clone()
        } else {
            path.parent().map_or_else(PathBuf::new, real)
        }
    };
    let mut real_paths = RealPaths::default();
    let mut outside = |path: &Path| real_paths.outside(path, &boundary);
    let withhold = !options.shows_outside();
    let mut outside_loaded = Vec::new();
    for file in &mut view.files {
        if matches!(file.status, Status::NotRead) {
            continue;
        }
        if let Some(len) = util::length(&file.path) {
            if len > util::MAX_READ {
                view.notes.push(format!(
                    "{} is {len} bytes: this view read its first {} bytes only; what lies past them is not in it",
                    file.path.display(),
                    util::MAX_READ
                ));
            }
        }
        let Some(real_path) = outside(&file.path) else {
            continue;
        };
        file.reason = if withhold {
            // The reason may quote the file's frontmatter (a trigger, a glob): say where,
            // never what.
            if let Status::Scoped { globs, .. } = &mut file.status {
                globs.clear();
            }
            format!(
                "{}; it is a link: its real path {} is outside the project, so what it says is withheld (--show-outside shows it)",
                file.status.label(),
                real_path.display()
            )
        } else {
            format!(
                "{}; it is a link: its real path {} is outside the project",
                file.reason,
                real_path.display()
            )
        };
        if file.status.is_loaded() {
            outside_loaded.push(file.path.clone());
        }
        file.outside = Some(real_path);
    }
    let mut outside_skills = Vec::new();
    for skill in &mut view.skills {
        let Some(real_path) = outside(&skill.path) else {
            continue;
        };
        if withhold {
            // Its name may come from its frontmatter: the folder's name is where it is.
            skill.name = skill
                .path
                .parent()
                .and_then(Path::file_name)
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            skill.description = String::new();
            outside_skills.push(skill.path.clone());
        }
        skill.outside = Some(real_path);
    }
    if !outside_skills.is_empty() {
        view.notes.push(format!(
            "the name and description of {} skill(s) outside the project are withheld ({}); --show-outside shows them",
            outside_skills.len(),
            outside_skills
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !outside_loaded.is_empty() && withhold && !view.prompt.is_empty() {
        view.prompt = String::new();
        view.notes.push(format!(
            "the prompt is withheld: it holds the text of {} file(s) outside the project ({}); --show-outside shows it",
            outside_loaded.len(),
            outside_loaded
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    view
}
