//! One way to show a path to a person ([`show_path`]): every text output, message and
//! report of the workspace names files with it.

use std::path::{Component, Path, PathBuf};

/// `path` as a person at `cwd` names it: relative to the working directory when under it
/// (`.cursor/rules/a.mdc`), `~/…` under the home, relative with `..` when it shares more
/// than the file system's root with the working directory (`../../CLAUDE.md`), else whole.
/// Lossy where the path is not UTF-8. No file is touched: the paths are compared as given.
///
/// ```
/// use std::path::Path;
/// use rulebook_rule::show_path;
///
/// let (cwd, home) = (Path::new("/repo/apps/web"), Path::new("/home/me"));
/// assert_eq!(show_path(Path::new("/repo/apps/web/AGENTS.md"), cwd, home), "AGENTS.md");
/// assert_eq!(show_path(Path::new("/repo/CLAUDE.md"), cwd, home), "../../CLAUDE.md");
/// assert_eq!(show_path(Path::new("/home/me/.claude/CLAUDE.md"), cwd, home), "~/.claude/CLAUDE.md");
/// assert_eq!(show_path(Path::new("/etc/rules.md"), cwd, home), "/etc/rules.md");
/// ```
pub fn show_path(path: &Path, cwd: &Path, home: &Path) -> String {
    if let Ok(rel) = path.strip_prefix(cwd) {
        if !rel.as_os_str().is_empty() {
            return rel.to_string_lossy().into_owned();
        }
    }
    if home.as_os_str().len() > 1 {
        if let Ok(rel) = path.strip_prefix(home) {
            if !rel.as_os_str().is_empty() {
                return format!("~/{}", rel.to_string_lossy());
            }
        }
    }
    above(cwd, path).map_or_else(
        || path.to_string_lossy().into_owned(),
        |p| p.to_string_lossy().into_owned(),
    )
}

/// `message` with every path in it written as [`show_path`] shows one: the working
/// directory's prefix dropped, the home as `~/`, a directory above the working directory as
/// `../` for each level (up to, not including, the file system's root).
///
/// ```
/// use std::path::Path;
/// use rulebook_rule::show_paths_in;
///
/// let (cwd, home) = (Path::new("/srv/repo/app"), Path::new("/home/me"));
/// assert_eq!(
///     show_paths_in("/srv/repo/app/CLAUDE.md imports /srv/repo/AGENTS.md and /home/me/notes.md", cwd, home),
///     "CLAUDE.md imports ../AGENTS.md and ~/notes.md"
/// );
/// ```
pub fn show_paths_in(message: &str, cwd: &Path, home: &Path) -> String {
    let mut text = message.replace(&format!("{}/", cwd.display()), "");
    if home.as_os_str().len() > 1 {
        text = text.replace(&format!("{}/", home.display()), "~/");
    }
    let mut up = String::new();
    for ancestor in cwd.ancestors().skip(1) {
        if ancestor.parent().is_none() {
            break;
        }
        up.push_str("../");
        text = text.replace(&format!("{}/", ancestor.display()), &up);
    }
    text
}

/// `to` relative to `from` with `..`, when both are absolute and share more than the root.
fn above(from: &Path, to: &Path) -> Option<PathBuf> {
    if !from.is_absolute() || !to.is_absolute() {
        return None;
    }
    let from: Vec<Component<'_>> = from.components().collect();
    let to: Vec<Component<'_>> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common <= 1 || common == to.len() {
        return None;
    }
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for part in &to[common..] {
        out.push(part.as_os_str());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_place_is_shown_as_a_person_names_it() {
        let (cwd, home) = (Path::new("/r/a/b"), Path::new("/h"));
        let show = |p: &str| show_path(Path::new(p), cwd, home);
        assert_eq!(show("/r/a/b/x.md"), "x.md");
        assert_eq!(show("/r/a/b/.cursor/rules/y.mdc"), ".cursor/rules/y.mdc");
        assert_eq!(show("/r/a/CLAUDE.md"), "../CLAUDE.md");
        assert_eq!(show("/r/c/d.md"), "../../c/d.md");
        assert_eq!(show("/h/.codex/AGENTS.md"), "~/.codex/AGENTS.md");
        // Only the root in common: whole.
        assert_eq!(show("/etc/x.md"), "/etc/x.md");
        // The working directory itself, and an ancestor of it, whole.
        assert_eq!(show("/r/a/b"), "/r/a/b");
        assert_eq!(show("/r"), "/r");
        // No home (empty, or `/`): nothing is under it.
        assert_eq!(
            show_path(Path::new("/x/y"), Path::new("/q"), Path::new("/")),
            "/x/y"
        );
        // A relative path is shown as given.
        assert_eq!(show_path(Path::new("rel/x.md"), cwd, home), "rel/x.md");
    }
}
