//! Host emulation (behaviour.md §13, E12): which rule files **one** real tool loads in a
//! directory, in that tool's order, cut where it cuts, and the text it puts in front of the
//! model. The union view of `rulebook` answers "what does an agent built on rulebook see";
//! this crate answers "why does Claude not see my rule, when Cursor does?".
//!
//! Each [`Host`] is pinned to one version. Codex, Claude Code, Gemini CLI, Cline and Continue
//! were run offline on fixture trees (`cargo xtask oracle`), and their emulations are checked
//! against what those runs recorded ([`Host::verified`]); the others (Cursor, Windsurf,
//! Copilot in VS Code, Kiro, Zed) cannot be run here and follow their documentation: their
//! views say "documented, not verified".
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
//! Depends on `rulebook-fs` (reading), `rulebook-frontmatter` (the keys of rule files) and
//! `globset` (the globs of rules that load when a file is touched).
//!
//! ```
//! use rulebook_hosts::{emulate, Host, HostOptions};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let (project, home) = (dir.path().join("p"), dir.path().join("h"));
//! std::fs::create_dir_all(project.join(".git")).unwrap();
//! std::fs::create_dir_all(&home).unwrap();
//! std::fs::write(project.join("AGENTS.md"), "Run the tests.\n").unwrap();
//!
//! let view = emulate(Host::Codex, &HostOptions::new(&project, &home));
//! assert_eq!(view.loaded().count(), 1);
//! assert!(view.prompt.contains("<INSTRUCTIONS>\nRun the tests.\n\n</INSTRUCTIONS>"));
//! ```

mod claude;
mod cline;
mod codex;
mod continue_cli;
mod documented;
mod gemini;
mod util;

pub mod fixture;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// One real tool whose loading of rule files can be emulated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Host {
    /// Codex CLI (`@openai/codex`).
    Codex,
    /// Anthropic Claude Code.
    Claude,
    /// Google Gemini CLI.
    Gemini,
    /// Cline CLI.
    Cline,
    /// Continue CLI (`cn`).
    Continue,
    /// Cursor (documented, not verified).
    Cursor,
    /// Windsurf (documented, not verified).
    Windsurf,
    /// GitHub Copilot in VS Code (documented, not verified).
    Copilot,
    /// Kiro (documented, not verified).
    Kiro,
    /// Zed (documented, not verified).
    Zed,
}

impl Host {
    /// Every host, in the order of the CLI's `--as` values.
    pub const ALL: [Host; 10] = [
        Host::Codex,
        Host::Claude,
        Host::Gemini,
        Host::Cline,
        Host::Continue,
        Host::Cursor,
        Host::Windsurf,
        Host::Copilot,
        Host::Kiro,
        Host::Zed,
    ];

    /// The id used on the command line (`--as codex`).
    pub fn id(self) -> &'static str {
        match self {
            Host::Codex => "codex",
            Host::Claude => "claude",
            Host::Gemini => "gemini",
            Host::Cline => "cline",
            Host::Continue => "continue",
            Host::Cursor => "cursor",
            Host::Windsurf => "windsurf",
            Host::Copilot => "copilot",
            Host::Kiro => "kiro",
            Host::Zed => "zed",
        }
    }

    /// The tool's name.
    pub fn display_name(self) -> &'static str {
        match self {
            Host::Codex => "Codex CLI",
            Host::Claude => "Claude Code",
            Host::Gemini => "Gemini CLI",
            Host::Cline => "Cline CLI",
            Host::Continue => "Continue CLI (cn)",
            Host::Cursor => "Cursor",
            Host::Windsurf => "Windsurf",
            Host::Copilot => "GitHub Copilot (VS Code)",
            Host::Kiro => "Kiro",
            Host::Zed => "Zed",
        }
    }

    /// The version the emulation reproduces: the npm release the oracle ran, or `None` for a
    /// tool that follows its documentation.
    pub fn version(self) -> Option<&'static str> {
        match self {
            Host::Codex => Some("0.171.0"),
            Host::Claude => Some("2.1.332"),
            Host::Gemini => Some("0.61.0"),
            Host::Cline => Some("3.0.65"),
            Host::Continue => Some("1.5.47"),
            _ => None,
        }
    }

    /// Whether the emulation was checked against the real tool (golden files in
    /// `fixtures/hosts/`); otherwise it follows the tool's documentation.
    pub fn verified(self) -> bool {
        self.version().is_some()
    }

    /// "verified against Codex CLI 0.171.0" or "documented, not verified".
    pub fn provenance(self) -> String {
        match self.version() {
            Some(version) => format!("verified against {} {version}", self.display_name()),
            None => format!("{}: documented, not verified", self.display_name()),
        }
    }

    /// The host of an id (`codex`, `claude`, ...).
    pub fn from_id(id: &str) -> Option<Host> {
        Host::ALL.into_iter().find(|h| h.id() == id)
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Where an emulation looks.
#[derive(Debug, Clone)]
pub struct HostOptions {
    cwd: PathBuf,
    home: PathBuf,
    show_outside: bool,
}

impl HostOptions {
    /// The tool started in `cwd`, for the user whose home is `home`.
    pub fn new(cwd: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Self {
        Self {
            cwd: cwd.into(),
            home: home.into(),
            show_outside: false,
        }
    }

    /// Shows the prompt even when a file it holds lies outside the project (a link the tool
    /// follows). Off by default: such a view reports the file and withholds the text.
    #[must_use]
    pub fn show_outside(mut self, yes: bool) -> Self {
        self.show_outside = yes;
        self
    }

    /// Whether outside text is shown (see [`HostOptions::show_outside`]).
    pub fn shows_outside(&self) -> bool {
        self.show_outside
    }

    /// The directory the tool starts in.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The user's home directory.
    pub fn home(&self) -> &Path {
        &self.home
    }
}

/// Whether a file is the user's or the project's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Under the home directory, read for every project.
    User,
    /// Part of the project (or above it, where the tool walks past its root).
    Project,
}

/// What the tool does with one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Status {
    /// Loaded whole at start.
    Loaded,
    /// Loaded at start, cut at `truncated_at` bytes of the file.
    Cut {
        /// The byte offset of the file where the tool cuts it.
        truncated_at: usize,
    },
    /// Loaded only when the tool touches a file these globs match (relative to `base`).
    Scoped {
        /// The directory the globs are relative to.
        base: PathBuf,
        /// The globs.
        globs: Vec<String>,
    },
    /// Offered to the model by description, or read on request; not in the prompt at start.
    OnRequest,
    /// Not read.
    NotRead,
}

impl Status {
    /// A short word for tables: `loaded`, `cut`, `scoped`, `on-request`, `not read`.
    pub fn label(&self) -> &'static str {
        match self {
            Status::Loaded => "loaded",
            Status::Cut { .. } => "cut",
            Status::Scoped { .. } => "scoped",
            Status::OnRequest => "on-request",
            Status::NotRead => "not read",
        }
    }

    /// Loaded for work anywhere under `dir` (a nested rule file's scope).
    pub(crate) fn under(dir: PathBuf) -> Status {
        Status::Scoped {
            base: dir,
            globs: vec!["**".into()],
        }
    }

    /// Loaded at start, whole or cut.
    pub fn is_loaded(&self) -> bool {
        matches!(self, Status::Loaded | Status::Cut { .. })
    }
}

/// One file the tool loads or could have loaded, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HostFile {
    /// The file, as the tool found it.
    pub path: PathBuf,
    /// User or project.
    pub scope: Scope,
    /// What the tool does with it.
    #[serde(flatten)]
    pub status: Status,
    /// Why, in one sentence.
    pub reason: String,
    /// The file whose import brought this one in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imported_by: Option<PathBuf>,
    /// The real path of a file the tool reaches through a link out of the project (see
    /// the crate's docs); `None` for a file inside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<PathBuf>,
}

/// What one tool loads in one directory.
#[derive(Debug, Clone, Serialize)]
pub struct HostView {
    /// The tool.
    pub host: Host,
    /// Every file the tool loads at start, in its order, then the files it considered and
    /// did not load (each with its reason).
    pub files: Vec<HostFile>,
    /// The text the tool puts in front of the model, in its wrapping, as far as it was
    /// observed (empty when nothing loads).
    pub prompt: String,
    /// Caveats of this emulation for this tree (an order the tool does not fix, ...).
    pub notes: Vec<String>,
}

impl HostView {
    fn new(host: Host) -> Self {
        Self {
            host,
            files: Vec::new(),
            prompt: String::new(),
            notes: Vec::new(),
        }
    }

    /// The files loaded at start, in the tool's order.
    pub fn loaded(&self) -> impl Iterator<Item = &HostFile> + '_ {
        self.files.iter().filter(|f| f.status.is_loaded())
    }

    /// The files the tool would add when it touches `path` (absolute, or relative to the
    /// tool's working directory `cwd`): scoped files whose globs match it.
    pub fn touching(&self, cwd: &Path, path: &Path) -> Vec<&HostFile> {
        let path = if path.is_absolute() {
            path.to_path_buf()
        } else {
            cwd.join(path)
        };
        self.files
            .iter()
            .filter(|f| match &f.status {
                Status::Scoped { base, globs } => util::globs_match(base, globs, &path),
                _ => false,
            })
            .collect()
    }

    fn push(&mut self, path: PathBuf, scope: Scope, status: Status, reason: impl Into<String>) {
        self.files.push(HostFile {
            path,
            scope,
            status,
            reason: reason.into(),
            imported_by: None,
            outside: None,
        });
    }

    /// Puts the loaded files first (stable), the others after, in the order found.
    fn finish(mut self) -> Self {
        let (mut loaded, rest): (Vec<_>, Vec<_>) =
            self.files.into_iter().partition(|f| f.status.is_loaded());
        loaded.extend(rest);
        self.files = loaded;
        self
    }
}

/// What `host` loads when started in `options.cwd()` by the user of `options.home()`.
pub fn emulate(host: Host, options: &HostOptions) -> HostView {
    let view = match host {
        Host::Codex => codex::emulate(options),
        Host::Claude => claude::emulate(options),
        Host::Gemini => gemini::emulate(options),
        Host::Cline => cline::emulate(options),
        Host::Continue => continue_cli::emulate(options),
        Host::Cursor => documented::cursor(options),
        Host::Windsurf => documented::windsurf(options),
        Host::Copilot => documented::copilot(options),
        Host::Kiro => documented::kiro(options),
        Host::Zed => documented::zed(options),
    };
    guard(view, options).finish()
}

/// The two guards of the crate's docs: files reached through links out of the project are
/// marked (and the prompt that holds their text withheld), files past the read bound noted.
fn guard(mut view: HostView, options: &HostOptions) -> HostView {
    let root = util::git_root(options.cwd()).unwrap_or_else(|| options.cwd().to_path_buf());
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (real_root, real_home) = (real(&root), real(options.home()));
    let mut outside_loaded = Vec::new();
    for file in &mut view.files {
        if matches!(file.status, Status::NotRead) {
            continue;
        }
        let Ok(real_path) = std::fs::canonicalize(&file.path) else {
            continue;
        };
        let boundary = if file.path.starts_with(&root) {
            real_root.clone()
        } else if file.path.starts_with(options.home()) {
            real_home.clone()
        } else {
            file.path.parent().map_or_else(PathBuf::new, real)
        };
        if let Ok(meta) = std::fs::metadata(&real_path) {
            if meta.len() > util::MAX_READ {
                view.notes.push(format!(
                    "{} is {} bytes: this view read its first {} bytes only; what lies past them is not in it",
                    file.path.display(),
                    meta.len(),
                    util::MAX_READ
                ));
            }
        }
        if real_path.starts_with(&boundary) {
            continue;
        }
        file.reason = format!(
            "{}; it is a link: its real path {} is outside the project",
            file.reason,
            real_path.display()
        );
        if file.status.is_loaded() {
            outside_loaded.push(file.path.clone());
        }
        file.outside = Some(real_path);
    }
    if !outside_loaded.is_empty() && !options.show_outside && !view.prompt.is_empty() {
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Link loops in the rule directories the emulations list themselves end.
    #[test]
    fn link_loops_end() {
        let dir = tempfile::tempdir().unwrap();
        let (r, h) = (dir.path().join("r"), dir.path().join("h"));
        for d in [
            r.join(".git"),
            r.join(".claude/rules"),
            r.join(".continue/rules"),
            h.clone(),
        ] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(r.join(".claude/rules/a.md"), "A\n").unwrap();
        std::fs::write(r.join(".continue/rules/b.md"), "B\n").unwrap();
        for (link, target) in [
            (".claude/rules/x", ".."),
            (".claude/rules/y", "."),
            (".continue/rules/x", ".."),
            (".continue/rules/y", "."),
        ] {
            std::os::unix::fs::symlink(target, r.join(link)).unwrap();
        }
        for host in Host::ALL {
            let view = emulate(host, &HostOptions::new(&r, &h));
            assert!(view.files.len() < 50, "{host}: {} files", view.files.len());
        }
        let claude = emulate(Host::Claude, &HostOptions::new(&r, &h));
        assert_eq!(
            claude.loaded().filter(|f| f.path.ends_with("a.md")).count(),
            1
        );
    }
}
