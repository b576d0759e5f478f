//! Windsurf as the tool itself loads rule files (`--as windsurf`), from its documentation: it cannot
//! be run here, so the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::coerce::split_globs;
use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::documented::{agents_md, render, rule_files, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// Windsurf: `.windsurf/rules/*.md` from the git root down to the workspace and below,
/// `.windsurfrules`, the global `~/.codeium/windsurf/memories/global_rules.md`, `AGENTS.md`.
/// `trigger:` `always_on` / `glob` / `model_decision` / `manual`. A rule file is limited to 12,000
/// characters (documented).
pub fn emulate(options: &HostOptions) -> HostView {
    const LIMIT: usize = 12_000;
    let mut view = start(crate::TOOL);
    let mut bodies = Vec::new();
    let cwd = options.cwd();
    // The global rules file is a rule file too: the same limit.
    let global = options
        .home()
        .join(".codeium/windsurf/memories/global_rules.md");
    if let Some(text) = util::read_text(&global) {
        match text.char_indices().nth(LIMIT) {
            Some((at, _)) => {
                view.push(
                    global,
                    Scope::User,
                    Status::Cut { truncated_at: at },
                    "global rules, cut at 12,000 characters",
                );
                bodies.push(text[..at].to_owned());
            }
            None => {
                view.push(global, Scope::User, Status::Loaded, "global rules");
                bodies.push(text);
            }
        }
    }
    let mut dirs = util::chain(options.top(), cwd);
    dirs.extend(util::below(cwd, ".windsurf"));
    for dir in dirs {
        for path in rule_files(&dir.join(".windsurf").join("rules"), &["md"]) {
            let Some(text) = util::read_text(&path) else {
                continue;
            };
            let (fm, body) = util::frontmatter(&text);
            let trigger = fm
                .get("trigger")
                .and_then(Value::as_str)
                .unwrap_or("always_on")
                .to_string();
            let below_cwd = !cwd.starts_with(&dir);
            match trigger.as_str() {
                "always_on" if !below_cwd => {
                    let status = match text.char_indices().nth(LIMIT) {
                        Some((at, _)) => Status::Cut { truncated_at: at },
                        None => Status::Loaded,
                    };
                    let cut_body = match &status {
                        Status::Cut { .. } => body.chars().take(LIMIT).collect(),
                        _ => body,
                    };
                    view.push(path, Scope::Project, status, "trigger: always_on");
                    bodies.push(cut_body);
                }
                "always_on" => view.push(
                    path,
                    Scope::Project,
                    Status::under(dir.clone()),
                    "a rule of a subdirectory applies to work inside it",
                ),
                "glob" => {
                    let globs = util::strings(fm.get("globs"))
                        .iter()
                        .flat_map(|g| split_globs(g))
                        .collect::<Vec<_>>();
                    view.push(
                        path,
                        Scope::Project,
                        Status::Scoped {
                            base: dir.clone(),
                            globs,
                        },
                        "trigger: glob",
                    );
                }
                "model_decision" => view.push(
                    path,
                    Scope::Project,
                    Status::OnRequest,
                    "trigger: model_decision: the model sees its description",
                ),
                "manual" => view.push(
                    path,
                    Scope::Project,
                    Status::OnRequest,
                    "trigger: manual: only when @-mentioned",
                ),
                other => view.push(
                    path,
                    Scope::Project,
                    Status::NotRead,
                    format!("unknown trigger `{other}`"),
                ),
            }
        }
    }
    whole(
        &mut view,
        &mut bodies,
        cwd.join(".windsurfrules"),
        Scope::Project,
        ".windsurfrules (legacy)",
    );
    agents_md(&mut view, &mut bodies, cwd, true);
    render(&mut view, &bodies);
    view
}

/// Windsurf as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Windsurf;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "windsurf",
    "Windsurf",
    "windsurf",
    "Windsurf's documentation (Memories & Rules)",
);

impl Tool for Windsurf {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
