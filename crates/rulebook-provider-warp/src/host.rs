//! Warp as the tool itself loads rule files (`--as warp`), from its source
//! (`warpdotdev/warp` 19548aec): it cannot be run here, so the view says "documented, not
//! verified" (behaviour.md §13).

use std::path::{Path, PathBuf};

use rulebook_kit::context_files::{Chain, ContextFiles};
use rulebook_kit::host::documented::{render, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// Warp: `~/.agents/AGENTS.md`; then, in a git repository, one file per directory from the
/// root down to the working directory (`WARP.md` › `AGENTS.md`, any case); the repository's
/// other rule files are sent as paths only.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    let mut bodies = Vec::new();
    whole(
        &mut view,
        &mut bodies,
        options.home().join(".agents/AGENTS.md"),
        Scope::User,
        "~/.agents/AGENTS.md is Warp's global rule file",
    );
    let Some(root) = options.git_root() else {
        view.notes
            .push("not in a git repository: Warp indexes no project rules here".to_owned());
        render(&mut view, &bodies);
        return view;
    };
    let any = ContextFiles::new(&[], Chain::Cwd).any_case();
    let mut seen: Vec<PathBuf> = Vec::new();
    for dir in util::chain(root, options.cwd()) {
        let warp = any.find(&dir, "WARP.md").filter(|p| util::is_file(p));
        let agents = any.find(&dir, "AGENTS.md").filter(|p| util::is_file(p));
        if let Some(path) = &warp {
            whole(
                &mut view,
                &mut bodies,
                path.clone(),
                Scope::Project,
                "WARP.md of a directory from the repository root to the working directory",
            );
        }
        for name in ["WARP.md", "AGENTS.md"] {
            let spellings = any.spellings(&dir, name);
            if spellings.len() < 2 {
                continue;
            }
            for other in spellings.iter().skip(1).filter(|p| util::is_file(p)) {
                view.push(
                    other.clone(),
                    Scope::Project,
                    Status::NotRead,
                    format!(
                        "another spelling of {name} in this directory: Warp keeps one per directory, the one it reads last, in an order it does not fix; this view reads {}",
                        spellings[0]
                            .file_name()
                            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                    ),
                );
                seen.push(other.clone());
            }
            view.notes.push(format!(
                "{} spellings of {name} in {}: Warp keeps one of them, which one is not fixed by its code (`upsert_rule` over a hash set); keep one",
                spellings.len(),
                dir.display()
            ));
        }
        if let Some(path) = &agents {
            if warp.is_some() {
                view.push(
                    path.clone(),
                    Scope::Project,
                    Status::NotRead,
                    "WARP.md wins over AGENTS.md in the same directory",
                );
            } else {
                whole(
                    &mut view,
                    &mut bodies,
                    path.clone(),
                    Scope::Project,
                    "AGENTS.md of a directory from the repository root to the working directory",
                );
            }
        }
        seen.extend(warp.into_iter().chain(agents));
    }
    for name in ["WARP.md", "AGENTS.md"] {
        for dir in util::below(root, name) {
            let path = dir.join(name);
            if seen.contains(&path) || !util::is_file(&path) || is_chain(&dir, options.cwd()) {
                continue;
            }
            view.push(
                path,
                Scope::Project,
                Status::OnRequest,
                "a rule file elsewhere in the repository: Warp sends its path only, for the model to read when it works there",
            );
        }
    }
    render(&mut view, &bodies);
    view
}

/// Whether `dir` is the working directory or one of its ancestors.
fn is_chain(dir: &Path, cwd: &Path) -> bool {
    cwd.starts_with(dir)
}

/// Warp as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Warp;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "warp",
    "Warp",
    "warp",
    "Warp's source (`warpdotdev/warp` 19548aec)",
);

impl Tool for Warp {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
