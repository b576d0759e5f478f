//! Codex CLI 0.171.0 (`codex-rs/core/src/agents_md.rs`, observed with
//! `codex debug prompt-input`): one file per directory from the project root down to `cwd`,
//! a byte budget spent root first, the user file outside the budget.

pub mod catalog;
pub mod skills;

use std::path::PathBuf;

use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// `project_doc_max_bytes`' default.
pub(crate) const BUDGET: usize = 32 * 1024;
const CANDIDATES: [&str; 2] = ["AGENTS.override.md", "AGENTS.md"];
const SEPARATOR: &str = "\n\n--- project-doc ---\n\n";

/// What Codex loads when started in `options.cwd()` (see the module docs).
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = HostView::new(crate::TOOL);
    let cwd = options.cwd();
    let mut parts: Vec<String> = Vec::new();

    // The user file: `$CODEX_HOME` (`~/.codex`), the override if it has text, else AGENTS.md.
    let codex_home = options.home().join(".codex");
    let mut user_text = None;
    for (i, name) in CANDIDATES.iter().enumerate() {
        let path = codex_home.join(name);
        let Some(bytes) = util::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if user_text.is_some() {
            view.push(path, Scope::User, Status::NotRead, "Codex reads ~/.codex/AGENTS.md only when ~/.codex/AGENTS.override.md is missing or blank");
        } else if text.trim().is_empty() {
            let why = if i == 0 {
                "a blank user override is skipped: Codex falls back to ~/.codex/AGENTS.md"
            } else {
                "blank: Codex skips a user file with no text"
            };
            view.push(path, Scope::User, Status::NotRead, why);
        } else {
            view.push(
                path,
                Scope::User,
                Status::Loaded,
                "the user's Codex instructions (outside the project budget)",
            );
            user_text = Some(text.trim().to_string());
        }
    }
    if let Some(text) = user_text {
        parts.push(text);
    }

    // The project: root (first ancestor holding `.git`) down to cwd, else cwd alone.
    let dirs: Vec<PathBuf> = match options.git_root() {
        Some(root) => util::chain(root, cwd),
        None => vec![cwd.to_path_buf()],
    };
    let mut remaining = BUDGET;
    let mut project_parts: Vec<String> = Vec::new();
    for dir in dirs {
        let mut chosen = false;
        for name in CANDIDATES {
            let path = dir.join(name);
            if !util::is_file(&path) {
                continue;
            }
            if chosen {
                view.push(
                    path,
                    Scope::Project,
                    Status::NotRead,
                    "Codex reads one file per directory: AGENTS.override.md takes this directory",
                );
                continue;
            }
            chosen = true;
            if remaining == 0 {
                view.push(path, Scope::Project, Status::NotRead, format!("dropped: the {BUDGET}-byte project budget (project_doc_max_bytes) was spent on the files above it"));
                continue;
            }
            let Some(mut bytes) = util::read(&path) else {
                view.push(path, Scope::Project, Status::NotRead, "unreadable");
                continue;
            };
            let size = bytes.len();
            let status = if size > remaining {
                bytes.truncate(remaining);
                Status::Cut {
                    truncated_at: remaining,
                }
            } else {
                Status::Loaded
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            if text.trim().is_empty() {
                let why = if name == CANDIDATES[0] {
                    "blank: a whitespace-only AGENTS.override.md still takes its directory (the AGENTS.md beside it is not read) and adds nothing"
                } else {
                    "blank: Codex skips a file with no text"
                };
                view.push(path, Scope::Project, Status::NotRead, why);
                continue;
            }
            let reason = match &status {
                Status::Cut { truncated_at } => format!(
                    "cut at byte {truncated_at} of {size}: the {BUDGET}-byte project budget is spent root first"
                ),
                _ => "on the path from the project root to the working directory".to_string(),
            };
            remaining -= bytes.len();
            view.push(path, Scope::Project, status, reason);
            project_parts.push(text);
        }
    }
    if !project_parts.is_empty() {
        let joined = project_parts.join("\n\n");
        if parts.is_empty() {
            parts.push(joined);
        } else {
            parts.push(format!("{SEPARATOR}{joined}"));
        }
    }
    if !parts.is_empty() {
        let body = parts.concat();
        view.prompt = format!(
            "# AGENTS.md instructions for {}\n\n<INSTRUCTIONS>\n{body}\n</INSTRUCTIONS>",
            cwd.display()
        );
    }
    skills::add(&mut view, options);
    view
}

/// Codex CLI as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Codex;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "codex",
    "Codex CLI",
    "agents-md",
    "goldens recorded from Codex CLI 0.171.0 run offline (`codex debug prompt-input`, `cargo xtask oracle`)",
)
.verified("0.171.0");

impl Tool for Codex {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
