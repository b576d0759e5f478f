//! Cline CLI 3.0.65, observed offline: the workspace is `cwd` (no upward search); it reads
//! `AGENTS.md`, `.clinerules` (a file, or a directory's top-level `.md`/`.txt` files),
//! `.cline/rules/`, and the global `~/.agents/AGENTS.md`, `~/.cline/rules/`,
//! `~/Cline/Rules/`, `~/Documents/Cline/Rules/`. `paths:` is ignored, `disabled: true`
//! honoured, `name:` is the title (else the file stem), empty files skipped; entries are
//! sorted by title without regard to case and deduplicated by title, `.cline/rules` first.

use std::path::{Path, PathBuf};

use rulebook_frontmatter::Value;

use crate::{Host, HostOptions, HostView, Scope, Status, util};

struct Entry {
    title: String,
    path: PathBuf,
    scope: Scope,
    body: String,
}

pub(crate) fn emulate(options: &HostOptions) -> HostView {
    let mut view = HostView::new(Host::Cline);
    let cwd = options.cwd();
    let home = options.home();
    let mut entries: Vec<Entry> = Vec::new();

    let sources: [(PathBuf, Scope); 7] = [
        (cwd.join(".cline/rules"), Scope::Project),
        (cwd.join(".clinerules"), Scope::Project),
        (cwd.join("AGENTS.md"), Scope::Project),
        (home.join(".cline/rules"), Scope::User),
        (home.join("Cline/Rules"), Scope::User),
        (home.join("Documents/Cline/Rules"), Scope::User),
        (home.join(".agents/AGENTS.md"), Scope::User),
    ];
    for (source, scope) in sources {
        let files = if util::is_dir(&source) {
            util::entries(&source)
        } else if util::is_file(&source) {
            vec![source.clone()]
        } else {
            continue;
        };
        for path in files {
            if util::is_dir(&path) {
                continue;
            }
            let is_single = path == source;
            if !(is_single || util::has_suffix(&path, ".md") || util::has_suffix(&path, ".txt")) {
                view.push(
                    path,
                    scope,
                    Status::NotRead,
                    "Cline reads .md and .txt files only",
                );
                continue;
            }
            let Some(raw) = util::read_text(&path) else {
                continue;
            };
            let (fm, body) = util::frontmatter(&raw);
            if fm.get("disabled").and_then(Value::as_bool) == Some(true) {
                view.push(path, scope, Status::NotRead, "disabled: true");
                continue;
            }
            if body.trim().is_empty() {
                view.push(path, scope, Status::NotRead, "empty");
                continue;
            }
            let title = fm
                .get("name")
                .and_then(Value::as_str)
                .map_or_else(|| stem(&path), str::to_string);
            if let Some(first) = entries
                .iter()
                .find(|e| e.title.eq_ignore_ascii_case(&title))
            {
                let why = format!("the title `{title}` is taken by {}", first.path.display());
                view.push(path, scope, Status::NotRead, why);
                continue;
            }
            entries.push(Entry {
                title,
                path,
                scope,
                body,
            });
        }
    }
    entries.sort_by_key(|e| e.title.to_lowercase());
    let mut sections = Vec::new();
    for e in entries {
        view.push(
            e.path.clone(),
            e.scope,
            Status::Loaded,
            "a Cline rule (paths: is ignored by the CLI)",
        );
        sections.push(format!("## {}\n\n{}", e.title, e.body.trim()));
    }
    view.prompt = sections.join("\n\n");
    view
}

fn stem(path: &Path) -> String {
    let name = util::name(path);
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => name,
    }
}
