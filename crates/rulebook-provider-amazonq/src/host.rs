//! Amazon Q Developer in the IDE as it loads its rules (`--as amazonq`), from its
//! documentation and the language server's source: it cannot be run here, so the view says
//! "documented, not verified" (behaviour.md §13).

use rulebook_kit::host::documented::{render, rule_files, start};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

use crate::MAX_CHARS;

/// The most context entries Amazon Q takes.
pub const MAX_FILES: usize = 100;

/// Amazon Q: `.amazonq/rules/**/*.md`, then `README.md` and `AmazonQ.md` at the workspace
/// root; each cut at 40,960 characters; at most 100 files.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    let mut bodies = Vec::new();
    let root = options.cwd();
    let mut files: Vec<_> = rule_files(&root.join(".amazonq/rules"), &["md"])
        .into_iter()
        .map(|p| (p, "a rule of .amazonq/rules, in every chat"))
        .collect();
    files.push((
        root.join("README.md"),
        "the workspace's README.md, in every chat",
    ));
    files.push((root.join("AmazonQ.md"), "AmazonQ.md at the workspace root"));
    let mut count = 0;
    for (path, reason) in files {
        let Some(text) = util::read_text(&path) else {
            continue;
        };
        if count == MAX_FILES {
            view.push(
                path,
                Scope::Project,
                Status::NotRead,
                "past Amazon Q's 100 files",
            );
            continue;
        }
        count += 1;
        match text.char_indices().nth(MAX_CHARS) {
            Some((at, _)) => {
                view.push(
                    path,
                    Scope::Project,
                    Status::Cut { truncated_at: at },
                    format!("{reason}; cut at {MAX_CHARS} characters"),
                );
                bodies.push(text[..at].to_owned());
            }
            None => {
                view.push(path, Scope::Project, Status::Loaded, reason);
                bodies.push(text);
            }
        }
    }
    render(&mut view, &bodies);
    view
}

/// Amazon Q Developer as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Amazonq;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "amazonq",
    "Amazon Q Developer",
    "amazonq",
    "Amazon Q Developer's documentation and its language server's source",
);

impl Tool for Amazonq {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
