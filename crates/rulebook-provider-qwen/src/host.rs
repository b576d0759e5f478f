//! Qwen Code as the tool itself loads its context (`--as qwen`), from its source
//! (`@qwen-code/qwen-code` 0.24.4): it was not run here, so the view says "documented, not
//! verified" (behaviour.md §13).

use std::path::{Path, PathBuf};

use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::documented::{rule_files, start};
use rulebook_kit::host::{Host, HostOptions, HostView, Scope, Status, util};

/// Qwen Code's default context file names, in order.
pub const NAMES: [&str; 2] = ["QWEN.md", "AGENTS.md"];

/// Qwen Code: for each name, `~/.qwen/<name>` then the files from one directory above the
/// git root down to the working directory; `<root>/.qwen/QWEN.local.md`; then the rules of
/// `~/.qwen/rules` and `<root>/.qwen/rules` (`paths:` scoped, others at start). Each file
/// wrapped in `--- Context from: … ---` / `--- Rule from: … ---` markers.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(Host::Qwen);
    view.notes.push(
        "a trusted folder is assumed (an untrusted one loads the global files only); @path imports are not expanded in this view's text".to_owned(),
    );
    let cwd = options.cwd();
    let home = options.home();
    let git = util::git_root(cwd);
    let top: PathBuf = match &git {
        Some(root) => root.parent().unwrap_or(root).to_path_buf(),
        None if cwd.starts_with(home) && cwd != home => home.to_path_buf(),
        None => cwd.to_path_buf(),
    };
    let mut parts = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut context = |view: &mut HostView, path: PathBuf, scope: Scope, reason: &str| {
        let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.contains(&real) {
            return;
        }
        let Some(text) = util::read_text(&path) else {
            return;
        };
        seen.push(real);
        let shown = relative(&path, cwd);
        view.push(path, scope, Status::Loaded, reason);
        if !text.trim().is_empty() {
            parts.push(format!(
                "--- Context from: {shown} ---\n{}\n--- End of Context from: {shown} ---",
                text.trim()
            ));
        }
    };
    for name in NAMES {
        context(
            &mut view,
            home.join(".qwen").join(name),
            Scope::User,
            "a global context file (~/.qwen)",
        );
        for dir in util::chain(&top, cwd) {
            if dir == home {
                continue;
            }
            context(
                &mut view,
                dir.join(name),
                Scope::Project,
                "a context file from above the git root down to the working directory",
            );
        }
    }
    if let Some(root) = &git {
        context(
            &mut view,
            root.join(".qwen/QWEN.local.md"),
            Scope::Project,
            "the project's local context file, read last",
        );
    }
    let root = git.clone().unwrap_or_else(|| cwd.to_path_buf());
    for (dir, scope) in [
        (home.join(".qwen/rules"), Scope::User),
        (root.join(".qwen/rules"), Scope::Project),
    ] {
        for path in rule_files(&dir, &["md"]) {
            let Some(text) = util::read_text(&path) else {
                continue;
            };
            let (fm, body) = util::frontmatter(&text);
            let globs = match fm.get("paths") {
                Some(Value::String(s)) => vec![s.clone()],
                Some(v @ Value::List(_)) => util::strings(Some(v)),
                _ => Vec::new(),
            };
            if globs.is_empty() {
                let shown = relative(&path, &root);
                view.push(
                    path,
                    scope,
                    Status::Loaded,
                    "a rule without paths: always on",
                );
                if !body.trim().is_empty() {
                    parts.push(format!(
                        "--- Rule from: {shown} ---\n{}\n--- End of Rule from: {shown} ---",
                        body.trim()
                    ));
                }
            } else {
                view.push(
                    path,
                    scope,
                    Status::Scoped {
                        base: root.clone(),
                        globs,
                    },
                    "a rule with paths: injected when a tool touches a matching file",
                );
            }
        }
    }
    view.prompt = parts.join("\n\n");
    view
}

fn relative(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}
