//! Qwen Code as the tool itself loads its context (`--as qwen`): checked against Qwen Code
//! 0.24.4 (`@qwen-code/qwen-code`), its own memory discovery run offline by the oracle
//! (`xtask/oracle/qwen`; behaviour.md §13).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::imports::{Missing, expand_file, push_imported, real};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// Qwen Code's default context file names, in order.
pub const NAMES: [&str; 2] = ["QWEN.md", "AGENTS.md"];

/// Qwen's import depth.
const MAX_IMPORT_DEPTH: usize = 5;

/// Qwen Code (`memoryDiscovery.ts`, `rulesDiscovery.ts`): for each name, `~/.qwen/<name>`,
/// then the name in every directory from the top of its upward walk down to the working
/// directory (the walk stops after the git root's parent, or without a repository after the
/// home's parent, never at `/`, and at `~/.qwen`); then `<git root>/.qwen/QWEN.local.md`;
/// each file once by its real path, imports expanded, blank ones dropped, each wrapped in
/// `--- Context from: <path from the working directory> ---`. Then the rules of
/// `~/.qwen/rules` and `<project root>/.qwen/rules` (every file, sorted by path): without
/// `paths:` in the text (`--- Rule from: <path from the project root> ---`), with it scoped.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = HostView::new(crate::TOOL);
    view.notes.push(
        "a trusted folder is assumed (an untrusted one loads the global files only)".to_owned(),
    );
    let cwd = options.cwd();
    let home = options.home();
    let git = options.git_root();
    let dirs = upward(cwd, home, git);
    let mut blocks = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let global = home.join(".qwen");
    for name in NAMES {
        let mut paths = vec![(global.join(name), Scope::User)];
        paths.extend(dirs.iter().map(|d| (d.join(name), Scope::Project)));
        for (path, scope) in paths {
            context(&mut view, &mut blocks, &mut seen, &path, scope, cwd, git);
        }
    }
    if let Some(root) = git {
        context(
            &mut view,
            &mut blocks,
            &mut seen,
            &root.join(".qwen/QWEN.local.md"),
            Scope::Project,
            cwd,
            git,
        );
    }
    let root = options.top();
    let mut rule_dirs = vec![(global.join("rules"), Scope::User)];
    let project_rules = root.join(".qwen/rules");
    if real(&project_rules) != real(&global.join("rules")) {
        rule_dirs.push((project_rules, Scope::Project));
    }
    for (dir, scope) in rule_dirs {
        for path in rule_files(&dir) {
            let Some(text) = util::read_text(&path) else {
                continue;
            };
            let (fm, body) = util::frontmatter(text.trim_start_matches('\u{feff}'));
            let body = strip_html_comments(&body);
            let body = body.trim();
            if body.is_empty() {
                continue;
            }
            let globs = match fm.get("paths") {
                Some(Value::String(s)) => vec![s.clone()],
                Some(v @ Value::List(_)) => util::strings(Some(v)),
                _ => Vec::new(),
            };
            if globs.is_empty() {
                let shown = relative(&path, root);
                view.push(
                    path,
                    scope,
                    Status::Loaded,
                    "a rule without paths: always on",
                );
                blocks.push(format!(
                    "--- Rule from: {shown} ---\n{body}\n--- End of Rule from: {shown} ---"
                ));
            } else {
                view.push(
                    path,
                    scope,
                    Status::Scoped {
                        base: root.to_path_buf(),
                        globs,
                    },
                    "a rule with paths: injected when a tool touches a matching file",
                );
            }
        }
    }
    view.prompt = blocks.join("\n\n");
    view
}

/// The directories of the upward walk, top first.
fn upward(cwd: &Path, home: &Path, git: Option<&Path>) -> Vec<PathBuf> {
    let stop = match git {
        Some(root) => root.parent().map(Path::to_path_buf),
        None => home.parent().map(Path::to_path_buf),
    };
    let global = home.join(".qwen");
    let mut dirs = Vec::new();
    let mut dir = Some(cwd);
    while let Some(d) = dir {
        if d.parent().is_none() || d == global {
            break;
        }
        dirs.push(d.to_path_buf());
        if stop.as_deref() == Some(d) {
            break;
        }
        dir = d.parent();
    }
    dirs.reverse();
    dirs
}

/// One context file: read, imports expanded, trimmed, wrapped; once by its real path.
fn context(
    view: &mut HostView,
    blocks: &mut Vec<String>,
    seen: &mut HashSet<PathBuf>,
    path: &Path,
    scope: Scope,
    cwd: &Path,
    git: Option<&Path>,
) {
    if !util::is_file(path) || !seen.insert(real(path)) {
        return;
    }
    let Some(text) = util::read_text(path) else {
        return;
    };
    let base = path.parent().unwrap_or(Path::new("/"));
    let root = git.map_or_else(|| base.to_path_buf(), Path::to_path_buf);
    let (content, imported) = expand_file(&text, path, &root, MAX_IMPORT_DEPTH, Missing::Literal);
    let trimmed = content.trim();
    if trimmed.is_empty() {
        return;
    }
    view.push(
        path.to_path_buf(),
        scope,
        Status::Loaded,
        match scope {
            Scope::User => "a global context file (~/.qwen)",
            Scope::Project => "a context file of the upward walk from the working directory",
        },
    );
    push_imported(view, imported, scope);
    let shown = relative(path, cwd);
    blocks.push(format!(
        "--- Context from: {shown} ---\n{trimmed}\n--- End of Context from: {shown} ---"
    ));
}

/// Every file under `dir` (dotfiles too, links skipped), sorted by path as a string.
fn rule_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in util::entries(&d) {
            let Ok(meta) = std::fs::symlink_metadata(&entry) else {
                continue;
            };
            if meta.is_dir() {
                stack.push(entry);
            } else if meta.is_file() && entry.extension().is_some_and(|e| e == "md") {
                out.push(entry);
            }
        }
    }
    out.sort_by(|a, b| a.to_string_lossy().cmp(&b.to_string_lossy()));
    out
}

/// The text without its HTML comments (`<!-- … -->`; an unclosed one stays), as Qwen Code
/// strips a rule's body.
pub fn strip_html_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        match rest[start..].find("-->") {
            Some(end) => rest = &rest[start + end + 3..],
            None => {
                // An unclosed comment stays (`/<!--[\s\S]*?-->/g` does not match it).
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// `path` from `base`, with `..` steps as needed (`../QWEN.md`).
fn relative(path: &Path, base: &Path) -> String {
    let p: Vec<_> = path.components().collect();
    let b: Vec<_> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_owned(); b.len() - common];
    parts.extend(
        p[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Qwen Code as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Qwen;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "qwen",
    "Qwen Code",
    "qwen",
    "goldens recorded from Qwen Code 0.24.4's own memory discovery run offline (`xtask/oracle/qwen`)",
)
.verified("0.24.4")
.lists_found_files_only();

impl Tool for Qwen {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{relative, strip_html_comments};

    #[test]
    fn comments_go_and_an_unclosed_one_stays() {
        assert_eq!(strip_html_comments("a <!-- b --> c"), "a  c");
        assert_eq!(strip_html_comments("a <!-- b"), "a <!-- b");
        assert_eq!(strip_html_comments("<!--x--><!--y-->z"), "z");
    }

    #[test]
    fn paths_are_written_from_the_base_with_dot_dot_steps() {
        let from = |p: &str, b: &str| relative(Path::new(p), Path::new(b));
        assert_eq!(from("/t/r/QWEN.md", "/t/r/sub"), "../QWEN.md");
        assert_eq!(
            from("/t/home/.qwen/QWEN.md", "/t/r/sub"),
            "../../home/.qwen/QWEN.md"
        );
        assert_eq!(from("/t/r/sub/QWEN.md", "/t/r/sub"), "QWEN.md");
    }
}
