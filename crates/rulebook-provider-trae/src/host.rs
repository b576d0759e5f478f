//! Trae as it loads its rules (`--as trae`), from its documentation: it cannot be run here,
//! so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::documented::{render, rule_files, start};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// Trae: `.trae/rules/*.md` by mode (always, specific files, intelligently, manually).
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    view.notes.push(
        "Trae reads the root AGENTS.md, CLAUDE.md and CLAUDE.local.md only when their import toggles are on in its settings, which this view cannot see; they are left out".to_owned(),
    );
    let mut bodies = Vec::new();
    let root = options.cwd();
    let dir = root.join(".trae/rules");
    for path in rule_files(&dir, &["md"]) {
        if path.parent() != Some(dir.as_path()) {
            continue;
        }
        let Some(text) = util::read_text(&path) else {
            continue;
        };
        let (fm, body) = util::frontmatter(&text);
        let globs = util::strings(fm.get("globs"));
        let described = fm
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| !d.is_empty());
        if fm.is_empty() || fm.get("alwaysApply") == Some(&Value::Bool(true)) {
            view.push(path, Scope::Project, Status::Loaded, "always");
            bodies.push(body);
        } else if !globs.is_empty() {
            view.push(
                path,
                Scope::Project,
                Status::Scoped {
                    base: root.to_path_buf(),
                    globs,
                },
                "specific files",
            );
        } else if described {
            view.push(
                path,
                Scope::Project,
                Status::OnRequest,
                "intelligently: the model chooses it by description",
            );
        } else {
            view.push(
                path,
                Scope::Project,
                Status::OnRequest,
                "manually: when referenced with #Rule",
            );
        }
    }
    render(&mut view, &bodies);
    view
}

/// Trae as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Trae;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo =
    ToolInfo::new("trae", "Trae", "trae", "Trae's documentation (Rules)");

impl Tool for Trae {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
