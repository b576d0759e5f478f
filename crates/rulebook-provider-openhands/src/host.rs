//! OpenHands as it loads microagents (`--as openhands`), from its source (V0 microagents,
//! `All-Hands-AI/OpenHands` 156d068): it cannot be run here, so the view says "documented,
//! not verified" (behaviour.md §13).

use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::documented::{render, rule_files, start};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// OpenHands: repo microagents (no `triggers`, no `inputs`) at the first message, joined;
/// knowledge microagents when a message holds a trigger; task microagents on `/name`.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    view.notes.push(
        "the root .cursorrules and AGENTS.md OpenHands also looks for are found only when the repository is loaded in place (its runtime copies the microagents folder first); this view leaves them out".to_owned(),
    );
    let mut bodies = Vec::new();
    let root = options.top();
    let legacy = root.join(".openhands_instructions");
    if let Some(text) = util::read_text(&legacy) {
        view.push(
            legacy,
            Scope::Project,
            Status::Loaded,
            "the legacy repo instructions",
        );
        bodies.push(text);
    }
    for (dir, scope) in [
        (root.join(".openhands/microagents"), Scope::Project),
        (options.home().join(".openhands/microagents"), Scope::User),
    ] {
        for path in rule_files(&dir, &["md"]) {
            if path.file_name().is_some_and(|n| n == "README.md") {
                continue;
            }
            let Some(text) = util::read_text(&path) else {
                continue;
            };
            let (fm, body) = util::frontmatter(&text);
            if fm.get("inputs").is_some_and(|v| !matches!(v, Value::Null)) {
                view.push(
                    path,
                    scope,
                    Status::OnRequest,
                    "a task microagent: run on /name",
                );
            } else if !util::strings(fm.get("triggers")).is_empty() {
                let triggers = util::strings(fm.get("triggers")).join(", ");
                view.push(
                    path,
                    scope,
                    Status::OnRequest,
                    format!("a knowledge microagent: added when a message contains {triggers}"),
                );
            } else {
                view.push(path, scope, Status::Loaded, "a repo microagent: always on");
                bodies.push(body);
            }
        }
    }
    render(&mut view, &bodies);
    view
}

/// OpenHands as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Openhands;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "openhands",
    "OpenHands",
    "openhands",
    "OpenHands' source (V0 microagents, `All-Hands-AI/OpenHands` 156d068)",
);

impl Tool for Openhands {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
