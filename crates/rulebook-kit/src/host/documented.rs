//! What the emulations of the tools that cannot be run here (Cursor, Windsurf, Copilot in
//! VS Code, Kiro, Zed) share: the note that a view is "documented, not verified", the
//! prompt as the loaded texts joined by blank lines (no wrapping was observed), reading a
//! file whole, and `AGENTS.md` as the editors read it.

use std::path::{Path, PathBuf};

use super::{Host, HostView, Scope, Status, util};

/// A view of `host` with the note every documented view carries.
pub fn start(host: Host) -> HostView {
    let mut view = HostView::new(host);
    view.notes.push(format!(
        "{}: documented, not verified (the tool cannot be run here); the wrapping of the text is not known, so the prompt is the loaded texts joined by blank lines",
        host.display_name()
    ));
    view
}

/// Sets the prompt: the bodies of the loaded files, trimmed at the end, blank ones dropped,
/// joined by blank lines.
pub fn render(view: &mut HostView, bodies: &[String]) {
    if !util::prompt_wanted() {
        view.prompt.clear();
        return;
    }
    view.prompt = bodies
        .iter()
        .filter(|b| !b.trim().is_empty())
        .map(|b| b.trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n\n");
}

/// Rule files of a rules directory with one of `extensions`, recursively, sorted.
pub fn rule_files(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    util::rule_files(dir, extensions)
}

/// A file read whole, at start, when it exists: pushed as loaded and its text kept.
pub fn whole(
    view: &mut HostView,
    bodies: &mut Vec<String>,
    path: PathBuf,
    scope: Scope,
    reason: &str,
) {
    if !util::prompt_wanted() {
        if util::readable(&path) {
            view.push(path, scope, Status::Loaded, reason);
        }
        return;
    }
    if let Some(text) = util::read_text(&path) {
        view.push(path, scope, Status::Loaded, reason);
        bodies.push(text);
    }
}

/// `AGENTS.md` as the editors read it: at the workspace root always; in a subdirectory for
/// work inside it when `nested`, else not read (VS Code's `chat.useNestedAgentsMdFiles`).
pub fn agents_md(view: &mut HostView, bodies: &mut Vec<String>, root: &Path, nested: bool) {
    whole(
        view,
        bodies,
        root.join("AGENTS.md"),
        Scope::Project,
        "AGENTS.md at the workspace root is always applied",
    );
    for dir in util::below(root, "AGENTS.md") {
        let path = dir.join("AGENTS.md");
        if !util::is_file(&path) {
            continue;
        }
        if nested {
            view.push(
                path,
                Scope::Project,
                Status::under(dir),
                "a nested AGENTS.md applies to work inside its directory",
            );
        } else {
            view.push(
                path,
                Scope::Project,
                Status::NotRead,
                "nested AGENTS.md files are off by default (chat.useNestedAgentsMdFiles)",
            );
        }
    }
}

/// Every `name` strictly below `root`, each loaded for work under its directory (a
/// subdirectory's rule file that a tool adds once work touches a path there).
pub fn scoped_below(view: &mut HostView, root: &Path, names: &[&str], reason: &str) {
    for name in names {
        for dir in util::below(root, name) {
            let path = dir.join(name);
            if util::is_file(&path) {
                view.push(path, Scope::Project, Status::under(dir), reason);
            }
        }
    }
}
