//! Cursor as the tool itself loads rule files (`--as cursor`), from its documentation: it cannot
//! be run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::coerce::split_globs;
use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::documented::{agents_md, render, rule_files, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// Cursor: `.cursor/rules/**/*.mdc|md` at the workspace root and nested, `.cursorrules`,
/// `AGENTS.md`. Rule types: alwaysApply → always; globs → auto attached; description →
/// agent requested; none → manual.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    let mut bodies = Vec::new();
    let root = options.cwd();
    let mut dirs = vec![root.to_path_buf()];
    dirs.extend(util::below(root, ".cursor"));
    for dir in dirs {
        let nested = dir != root;
        for path in rule_files(&dir.join(".cursor").join("rules"), &["mdc", "md"]) {
            // The text as the bytes read (kept for the other views), the body copied only
            // for a prompt that shows it.
            let read = util::read_with(&path, |bytes| {
                let text = util::lossy(bytes);
                let (fm, body) = util::frontmatter_borrowed(&text);
                let always = fm.get("alwaysApply").and_then(Value::as_bool) == Some(true);
                let globs = util::strings(fm.get("globs"))
                    .iter()
                    .flat_map(|g| split_globs(g))
                    .collect::<Vec<_>>();
                let description = fm
                    .get("description")
                    .and_then(Value::as_str)
                    .is_some_and(|d| !d.trim().is_empty());
                let body = (always && !nested && util::prompt_wanted()).then(|| body.into_owned());
                (always, globs, description, body)
            });
            let Some((always, globs, description, body)) = read else {
                continue;
            };
            if always && !nested {
                view.push(path, Scope::Project, Status::Loaded, "alwaysApply: true");
                bodies.extend(body);
            } else if always || !globs.is_empty() {
                let globs = if globs.is_empty() {
                    vec!["**".to_string()]
                } else {
                    globs
                };
                view.push(
                    path,
                    Scope::Project,
                    Status::Scoped {
                        base: dir.clone(),
                        globs,
                    },
                    if nested {
                        "a nested rule applies to files under its directory"
                    } else {
                        "auto attached: globs"
                    },
                );
            } else if description {
                view.push(
                    path,
                    Scope::Project,
                    Status::OnRequest,
                    "agent requested: the model sees its description and may read it",
                );
            } else {
                view.push(
                    path,
                    Scope::Project,
                    Status::OnRequest,
                    "manual: only when @-mentioned",
                );
            }
        }
    }
    whole(
        &mut view,
        &mut bodies,
        root.join(".cursorrules"),
        Scope::Project,
        ".cursorrules (legacy) is still applied",
    );
    agents_md(&mut view, &mut bodies, root, true);
    render(&mut view, &bodies);
    view
}

/// Cursor as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Cursor;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "cursor",
    "Cursor",
    "cursor",
    "Cursor's documentation (Rules)",
);

impl Tool for Cursor {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
