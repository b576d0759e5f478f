//! Continue CLI (`cn`) 1.5.47 (`src/systemMessage.ts` of the package, observed offline with
//! a loopback model):
//! - the agent file: the first of `AGENTS.md`, `AGENT.md`, `CLAUDE.md`, `CODEX.md` that
//!   exists in `cwd` (nothing upward); its raw text;
//! - then `<cwd>/.continue/rules`, then `~/.continue/rules`: `*.md` files, each directory's
//!   files before its subdirectories', by name; a rule loads at start when it has no
//!   frontmatter, or its frontmatter has `alwaysApply: true`, or has neither
//!   `alwaysApply`, `globs` nor `regex`; `invokable: true` never loads; an empty body is
//!   dropped;
//! - frontmatter is whatever lies between the first two lines that are `---`; a rule with
//!   frontmatter contributes its body trimmed, one without its text with CRLF made LF;
//! - `<context name="userRules">\n` + the parts joined by blank lines + `\n</context>`.

use std::path::{Path, PathBuf};

use rulebook_kit::frontmatter::Value;

use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

const AGENT_FILES: [&str; 4] = ["AGENTS.md", "AGENT.md", "CLAUDE.md", "CODEX.md"];

/// What Continue's `cn` loads when started in `options.cwd()` (see the module docs).
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = HostView::new(crate::TOOL);
    let cwd = options.cwd();
    let mut parts = Vec::new();

    let mut chosen: Option<PathBuf> = None;
    for name in AGENT_FILES {
        let path = cwd.join(name);
        if !util::exists(&path) {
            continue;
        }
        if let Some(first) = &chosen {
            view.push(
                path,
                Scope::Project,
                Status::NotRead,
                format!("cn reads one agent file, the first of AGENTS.md, AGENT.md, CLAUDE.md, CODEX.md: {} is used", util::name(first)),
            );
            continue;
        }
        chosen = Some(path.clone());
        match util::read_text(&path) {
            Some(text) if !text.is_empty() => {
                view.push(
                    path,
                    Scope::Project,
                    Status::Loaded,
                    "the agent file of the working directory",
                );
                parts.push(text);
            }
            Some(_) => view.push(
                path,
                Scope::Project,
                Status::NotRead,
                "empty: it still takes the place of the other agent files",
            ),
            None => view.push(
                path,
                Scope::Project,
                Status::NotRead,
                "unreadable: it still takes the place of the other agent files",
            ),
        }
    }
    for dir in cwd.ancestors().skip(1) {
        for name in AGENT_FILES {
            let path = dir.join(name);
            if util::is_file(&path) {
                view.push(
                    path,
                    Scope::Project,
                    Status::NotRead,
                    "cn reads the agent file of the working directory only",
                );
            }
        }
        if util::exists(&dir.join(".git")) {
            break;
        }
    }

    rules(
        &mut view,
        &mut parts,
        &cwd.join(".continue/rules"),
        Scope::Project,
    );
    rules(
        &mut view,
        &mut parts,
        &options.home().join(".continue/rules"),
        Scope::User,
    );

    if !parts.is_empty() {
        view.prompt = format!(
            "<context name=\"userRules\">\n{}\n</context>",
            parts.join("\n\n")
        );
    }
    view
}

/// `*.md` files of `dir`: its own files by name, then each subdirectory's, breadth first.
fn rule_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut queue = vec![dir.to_path_buf()];
    let mut seen = util::Visited::default();
    while !queue.is_empty() {
        let mut next = Vec::new();
        for d in queue {
            // A directory reached twice (a link loop) is read once.
            if !seen.first_visit(&d) {
                continue;
            }
            for entry in util::entries(&d) {
                if util::is_dir(&entry) {
                    next.push(entry);
                } else if util::has_suffix(&entry, ".md") && util::is_file(&entry) {
                    out.push(entry);
                }
            }
        }
        queue = next;
    }
    out
}

fn rules(view: &mut HostView, parts: &mut Vec<String>, dir: &Path, scope: Scope) {
    for path in rule_files(dir) {
        let Some(raw) = util::read_text(&path) else {
            continue;
        };
        let (frontmatter, body) = split(&raw);
        let Some(meta) = frontmatter else {
            let body = raw.replace("\r\n", "\n");
            if body.trim().is_empty() {
                view.push(path, scope, Status::NotRead, "empty");
            } else {
                view.push(
                    path,
                    scope,
                    Status::Loaded,
                    "a rule without frontmatter loads at start",
                );
                parts.push(body);
            }
            continue;
        };
        let (fm, _) = util::frontmatter(&format!("---\n{meta}\n---\n"));
        let always = fm.get("alwaysApply");
        let has_globs = fm.get("globs").is_some_and(|v| !matches!(v, Value::Null));
        let has_regex = fm.get("regex").is_some_and(|v| !matches!(v, Value::Null));
        let invokable = fm.get("invokable").and_then(Value::as_bool) == Some(true);
        let (loads, why) = if invokable {
            (false, "`invokable: true` makes it a prompt, not a rule")
        } else {
            match always {
                Some(Value::Bool(true)) => (true, "alwaysApply: true"),
                Some(Value::Bool(false)) => {
                    (false, "alwaysApply: false: cn does not load it at start")
                }
                Some(_) => (
                    false,
                    "alwaysApply is not a boolean: cn does not load it at start",
                ),
                None if has_globs => (
                    false,
                    "globs without alwaysApply: cn attaches it only to matching files, not at start",
                ),
                None if has_regex => (false, "regex without alwaysApply: not loaded at start"),
                None => (true, "no alwaysApply, globs nor regex: loads at start"),
            }
        };
        let body = body.trim().to_string();
        if loads && body.is_empty() {
            view.push(path, scope, Status::NotRead, "empty body");
        } else if loads {
            view.push(path, scope, Status::Loaded, why);
            parts.push(body);
        } else if has_globs && !invokable {
            let globs = util::strings(fm.get("globs"));
            let base = dir
                .parent()
                .and_then(Path::parent)
                .unwrap_or(dir)
                .to_path_buf();
            view.push(path, scope, Status::Scoped { base, globs }, why);
        } else {
            view.push(path, scope, Status::NotRead, why);
        }
    }
}

/// The frontmatter (between the first two `---` lines) and the rest, or `None` and the text.
fn split(text: &str) -> (Option<String>, String) {
    let text = text.replace("\r\n", "\n");
    let mut fences = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end_matches('\n').trim_end() == "---" {
            fences.push((offset, offset + line.len()));
            if fences.len() == 2 {
                break;
            }
        }
        offset += line.len();
    }
    match fences.as_slice() {
        [(_, a_end), (b_start, b_end)] => (
            Some(text[*a_end..*b_start].trim_end_matches('\n').to_string()),
            text[*b_end..].to_string(),
        ),
        _ => (None, text),
    }
}

/// Continue CLI (cn) as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Continue;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "continue",
    "Continue CLI (cn)",
    "continue",
    "goldens recorded from Continue CLI 1.5.47 run offline with a loopback model (`cargo xtask oracle`)",
)
.verified("1.5.47");

impl Tool for Continue {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_is_between_the_first_two_rules() {
        assert_eq!(split("A\n---\nB\n---\nC"), (Some("B".into()), "C".into()));
        assert_eq!(split("plain\n"), (None, "plain\n".into()));
    }
}
