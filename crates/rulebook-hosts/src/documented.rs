//! The tools that cannot be run here (Cursor, Windsurf, Copilot in VS Code, Kiro, Zed),
//! emulated from their documentation and source as behaviour.md §13 reads them. Each view
//! carries the note "documented, not verified"; none renders a wrapping, because none was
//! observed: the prompt is the loaded texts joined by blank lines.

use std::path::{Path, PathBuf};

use rulebook_frontmatter::Value;

use crate::{Host, HostOptions, HostView, Scope, Status, util};

fn start(host: Host) -> HostView {
    let mut view = HostView::new(host);
    view.notes.push(format!(
        "{}: documented, not verified (the tool cannot be run here); the wrapping of the text is not known, so the prompt is the loaded texts joined by blank lines",
        host.display_name()
    ));
    view
}

/// Joins the bodies of the loaded files.
fn render(view: &mut HostView, bodies: &[String]) {
    view.prompt = bodies
        .iter()
        .filter(|b| !b.trim().is_empty())
        .map(|b| b.trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n\n");
}

/// Rule files of a rules directory with one of `extensions`, recursively, sorted.
fn rule_files(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let walked = rulebook_fs::walk_rules_dir(dir, extensions);
    walked.files
}

/// A file read whole, at start, when it exists.
fn whole(view: &mut HostView, bodies: &mut Vec<String>, path: PathBuf, scope: Scope, reason: &str) {
    if let Some(text) = util::read_text(&path) {
        view.push(path, scope, Status::Loaded, reason);
        bodies.push(text);
    }
}

/// `AGENTS.md` as the editors read it: at the workspace root always, in a subdirectory for
/// work inside it.
fn agents_md(view: &mut HostView, bodies: &mut Vec<String>, root: &Path, nested: bool) {
    whole(
        view,
        bodies,
        root.join("AGENTS.md"),
        Scope::Project,
        "AGENTS.md at the workspace root is always applied",
    );
    for dir in util::below(root, "AGENTS.md") {
        let path = dir.join("AGENTS.md");
        if !util::is_file(&path) {
            continue;
        }
        if nested {
            view.push(
                path,
                Scope::Project,
                Status::under(dir),
                "a nested AGENTS.md applies to work inside its directory",
            );
        } else {
            view.push(
                path,
                Scope::Project,
                Status::NotRead,
                "nested AGENTS.md files are off by default (chat.useNestedAgentsMdFiles)",
            );
        }
    }
}

/// Cursor: `.cursor/rules/**/*.mdc|md` at the workspace root and nested, `.cursorrules`,
/// `AGENTS.md`. Rule types: alwaysApply → always; globs → auto attached; description →
/// agent requested; none → manual.
pub(crate) fn cursor(options: &HostOptions) -> HostView {
    let mut view = start(Host::Cursor);
    let mut bodies = Vec::new();
    let root = options.cwd();
    let mut dirs = vec![root.to_path_buf()];
    dirs.extend(util::below(root, ".cursor"));
    for dir in dirs {
        for path in rule_files(&dir.join(".cursor").join("rules"), &["mdc", "md"]) {
            let Some(text) = util::read_text(&path) else {
                continue;
            };
            let (fm, body) = util::frontmatter(&text);
            let always = fm.get("alwaysApply").and_then(Value::as_bool) == Some(true);
            let globs = split_commas(&util::strings(fm.get("globs")));
            let description = fm
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.trim().is_empty());
            let nested = dir != root;
            if always && !nested {
                view.push(path, Scope::Project, Status::Loaded, "alwaysApply: true");
                bodies.push(body);
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

fn split_commas(globs: &[String]) -> Vec<String> {
    globs
        .iter()
        .flat_map(|g| g.split(','))
        .map(|g| g.trim().to_string())
        .filter(|g| !g.is_empty())
        .collect()
}

/// Windsurf: `.windsurf/rules/*.md` from the git root down to the workspace and below,
/// `.windsurfrules`, the global `~/.codeium/windsurf/memories/global_rules.md`, `AGENTS.md`.
/// `trigger:` `always_on` / `glob` / `model_decision` / `manual`. A rule file is limited to 12,000
/// characters (documented).
pub(crate) fn windsurf(options: &HostOptions) -> HostView {
    const LIMIT: usize = 12_000;
    let mut view = start(Host::Windsurf);
    let mut bodies = Vec::new();
    let cwd = options.cwd();
    whole(
        &mut view,
        &mut bodies,
        options
            .home()
            .join(".codeium/windsurf/memories/global_rules.md"),
        Scope::User,
        "global rules",
    );
    let top = util::git_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
    let mut dirs = util::chain(&top, cwd);
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
                    let globs = split_commas(&util::strings(fm.get("globs")));
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

/// GitHub Copilot in VS Code: `.github/copilot-instructions.md`,
/// `.github/instructions/**/*.instructions.md` by `applyTo`, the root `AGENTS.md`.
pub(crate) fn copilot(options: &HostOptions) -> HostView {
    let mut view = start(Host::Copilot);
    let mut bodies = Vec::new();
    let root = options.cwd();
    whole(
        &mut view,
        &mut bodies,
        root.join(".github/copilot-instructions.md"),
        Scope::Project,
        "repository-wide instructions",
    );
    let dir = root.join(".github/instructions");
    for path in rule_files(&dir, &["md"]) {
        if !util::name(&path).ends_with(".instructions.md") {
            continue;
        }
        let Some(text) = util::read_text(&path) else {
            continue;
        };
        let (fm, body) = util::frontmatter(&text);
        let apply_to = fm
            .get("applyTo")
            .and_then(Value::as_str)
            .map(str::to_string);
        match apply_to {
            Some(a) if matches!(a.trim(), "**" | "**/*" | "*") => {
                view.push(
                    path,
                    Scope::Project,
                    Status::Loaded,
                    format!("applyTo: {a} matches every file"),
                );
                bodies.push(body);
            }
            Some(a) => {
                // VS Code un-anchors a pattern: `src/**` matches at any depth.
                let globs = split_commas(&[a])
                    .into_iter()
                    .map(|g| {
                        if g.starts_with("**") {
                            g
                        } else {
                            format!("**/{g}")
                        }
                    })
                    .collect();
                view.push(
                    path,
                    Scope::Project,
                    Status::Scoped {
                        base: root.to_path_buf(),
                        globs,
                    },
                    "applyTo: attached when a matching file is in the chat",
                );
            }
            None => view.push(
                path,
                Scope::Project,
                Status::OnRequest,
                "no applyTo: offered by description",
            ),
        }
    }
    agents_md(&mut view, &mut bodies, root, false);
    render(&mut view, &bodies);
    view
}

/// Kiro: `.kiro/steering/*.md` in the workspace and `~/.kiro/steering/*.md`; `inclusion:`
/// always (default) / fileMatch / manual / auto; `AGENTS.md` at the workspace root.
pub(crate) fn kiro(options: &HostOptions) -> HostView {
    let mut view = start(Host::Kiro);
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

/// Zed: the first of nine names at the worktree root, one file only.
pub(crate) fn zed(options: &HostOptions) -> HostView {
    const NAMES: [&str; 9] = [
        ".rules",
        ".cursorrules",
        ".windsurfrules",
        ".clinerules",
        ".github/copilot-instructions.md",
        "AGENT.md",
        "AGENTS.md",
        "CLAUDE.md",
        "GEMINI.md",
    ];
    let mut view = start(Host::Zed);
    let mut bodies = Vec::new();
    let mut chosen: Option<&str> = None;
    for name in NAMES {
        let path = options.cwd().join(name);
        if !util::is_file(&path) {
            continue;
        }
        match chosen {
            Some(first) => view.push(
                path,
                Scope::Project,
                Status::NotRead,
                format!("Zed reads only the first of its nine file names: {first} is used"),
            ),
            None => {
                let Some(text) = util::read_text(&path) else {
                    continue;
                };
                chosen = Some(name);
                view.push(
                    path,
                    Scope::Project,
                    Status::Loaded,
                    "the first of Zed's nine rule file names at the worktree root",
                );
                bodies.push(text);
            }
        }
    }
    render(&mut view, &bodies);
    view
}
