//! Kiro as the tool itself loads rule files (`--as kiro`), from its documentation: it cannot
//! be run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::documented::{render, rule_files, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// Kiro: `.kiro/steering/*.md` in the workspace and `~/.kiro/steering/*.md`; `inclusion:`
/// always (default) / fileMatch / manual / auto; `AGENTS.md` at the workspace root.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    let mut bodies = Vec::new();
    let root = options.cwd();
    for (dir, scope) in [
        (options.home().join(".kiro/steering"), Scope::User),
        (root.join(".kiro/steering"), Scope::Project),
    ] {
        for path in rule_files(&dir, &["md"]) {
            let Some(text) = util::read_text(&path) else {
                continue;
            };
            let (fm, body) = util::frontmatter(&text);
            match fm
                .get("inclusion")
                .and_then(Value::as_str)
                .unwrap_or("always")
            {
                "always" => {
                    view.push(path, scope, Status::Loaded, "inclusion: always");
                    bodies.push(body);
                }
                "fileMatch" => {
                    let globs = util::strings(fm.get("fileMatchPattern"))
                        .into_iter()
                        .map(|g| if g.contains('/') { g } else { format!("./{g}") })
                        .collect();
                    view.push(
                        path,
                        scope,
                        Status::Scoped {
                            base: root.to_path_buf(),
                            globs,
                        },
                        "inclusion: fileMatch (anchored at the workspace root)",
                    );
                }
                "manual" => view.push(
                    path,
                    scope,
                    Status::OnRequest,
                    "inclusion: manual: only when #-referenced",
                ),
                "auto" => view.push(
                    path,
                    scope,
                    Status::OnRequest,
                    "inclusion: auto: the model sees its description",
                ),
                other => view.push(
                    path,
                    scope,
                    Status::NotRead,
                    format!("unknown inclusion `{other}`"),
                ),
            }
        }
    }
    whole(
        &mut view,
        &mut bodies,
        root.join("AGENTS.md"),
        Scope::Project,
        "AGENTS.md at the workspace root is always included",
    );
    render(&mut view, &bodies);
    view
}

/// Kiro as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Kiro;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo =
    ToolInfo::new("kiro", "Kiro", "kiro", "Kiro's documentation (Steering)");

impl Tool for Kiro {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
