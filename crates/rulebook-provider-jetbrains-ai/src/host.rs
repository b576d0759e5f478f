//! JetBrains AI Assistant as it loads project rules (`--as jetbrains-ai`), from its
//! documentation: it cannot be run here, so the view says "documented, not verified"
//! (behaviour.md §13).

use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::documented::{render, rule_files, start};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// AI Assistant: `.aiassistant/rules/*.md` by their `apply:` type; without one, the type
/// is in the IDE: unknown here.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    let mut bodies = Vec::new();
    let root = options.cwd();
    let dir = root.join(".aiassistant/rules");
    for path in rule_files(&dir, &["md"]) {
        if path.parent() != Some(dir.as_path()) {
            continue;
        }
        let Some(text) = util::read_text(&path) else {
            continue;
        };
        let (fm, body) = util::frontmatter(&text);
        match fm.get("apply").and_then(Value::as_str).map(str::trim) {
            Some("always") => {
                view.push(path, Scope::Project, Status::Loaded, "apply: always");
                bodies.push(body);
            }
            Some("by file patterns") => {
                let globs = fm
                    .get("patterns")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .split(',')
                    .map(|p| p.trim().to_owned())
                    .filter(|p| !p.is_empty())
                    .collect();
                view.push(
                    path,
                    Scope::Project,
                    Status::Scoped {
                        base: root.to_path_buf(),
                        globs,
                    },
                    "apply: by file patterns",
                );
            }
            Some("manually") => {
                view.push(path, Scope::Project, Status::OnRequest, "apply: manually");
            }
            Some("by model decision") => view.push(
                path,
                Scope::Project,
                Status::OnRequest,
                "apply: by model decision",
            ),
            Some("off") => view.push(path, Scope::Project, Status::NotRead, "apply: off"),
            _ => view.push(
                path,
                Scope::Project,
                Status::OnRequest,
                "activation unknown: no apply: line; the type may be kept in the IDE",
            ),
        }
    }
    render(&mut view, &bodies);
    view
}

/// JetBrains AI Assistant as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct JetbrainsAi;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "jetbrains-ai",
    "JetBrains AI Assistant",
    "jetbrains-ai",
    "JetBrains AI Assistant's documentation (project rules)",
);

impl Tool for JetbrainsAi {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
