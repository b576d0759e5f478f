//! OpenCode 1.18.33 as it loads its instructions and lists its skills (`--as opencode`),
//! verified against the real tool run offline (`xtask/oracle/opencode`: `opencode run` with
//! a loopback recorder for the model endpoint) and read from its loader
//! (`Instruction.systemPaths`, `Skill.discovery` in the bundled source):
//!
//! - The user's file: the first that exists of `~/.config/opencode/AGENTS.md` and
//!   `~/.claude/CLAUDE.md`; one only.
//! - The project's files: the first of the names `AGENTS.md`, `CLAUDE.md`, `CONTEXT.md` that
//!   exists anywhere from the working directory up to the repository root (up to `/` out of
//!   any repository) is the only name read, and every file of that name on the way loads,
//!   nearest first. An empty file still claims its name and is left out of the prompt.
//! - Each file is one block, `Instructions from: <path>` and its text as written (no import,
//!   no cut), the blocks joined by a line break.
//! - Skills: `skills/**/SKILL.md` of `~/.claude` and `~/.agents`, then of `.claude` and
//!   `.agents` in each directory from the working directory up to the root (nearest first),
//!   then `skill(s)/**/SKILL.md` of `~/.config/opencode` and of each `.opencode` on the same
//!   way up; a `SKILL.md` whose frontmatter has no string `name` (or a description that is
//!   not a string) is not loaded, one without a description is loaded but not listed; the
//!   list is sorted by name as JavaScript's `localeCompare` sorts, whole (no budget).
//!
//! Not emulated: the `instructions` of `opencode.json` (said in a note where one is there),
//! the files a read adds below the working directory, and the tool's built-in skill.

use std::collections::HashSet;
use std::path::PathBuf;

use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// The names of the project's files, in the order the first found wins.
pub const NAMES: [&str; 3] = ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"];

/// What OpenCode loads when started in `options.cwd()` (see the module docs).
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = HostView::new(crate::TOOL);
    let (cwd, home) = (options.cwd(), options.home());
    let mut blocks: Vec<String> = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let user = [
        (
            home.join(".config/opencode/AGENTS.md"),
            "the user's OpenCode AGENTS.md (~/.config/opencode)",
        ),
        (
            home.join(".claude/CLAUDE.md"),
            "the user's ~/.claude/CLAUDE.md, read when ~/.config/opencode/AGENTS.md is missing",
        ),
    ];
    if let Some((path, reason)) = user.into_iter().find(|(p, _)| util::exists(p)) {
        load(&mut view, &mut blocks, &mut seen, path, Scope::User, reason);
    }
    let ways_up = util::up_to_repository(options);
    if let Some((name, found)) = util::first_name_found(&ways_up, &NAMES) {
        for path in found {
            let reason = format!(
                "{name}, the first of AGENTS.md, CLAUDE.md, CONTEXT.md found from the working directory up; every {name} on the way loads, nearest first"
            );
            load(
                &mut view,
                &mut blocks,
                &mut seen,
                path,
                Scope::Project,
                &reason,
            );
        }
    }
    view.prompt = blocks.join("\n");
    if util::repository(options).is_none() {
        view.notes.push(
            "out of any repository, OpenCode looks for its files in every directory up to /"
                .to_owned(),
        );
    }
    let configs = ways_up
        .iter()
        .flat_map(|d| [d.join("opencode.json"), d.join("opencode.jsonc")])
        .chain([
            home.join(".config/opencode/opencode.json"),
            home.join(".config/opencode/opencode.jsonc"),
        ]);
    for config in configs {
        if util::read_text(&config).is_some_and(|t| t.contains("\"instructions\"")) {
            view.notes.push(format!(
                "{} lists `instructions`, which OpenCode loads after these files; this view does not read them",
                util::show(cwd, &config)
            ));
        }
    }
    add_skills(&mut view, options, &ways_up);
    view
}

/// One file as a block of the prompt; an empty one (or one that cannot be read) is left out.
fn load(
    view: &mut HostView,
    blocks: &mut Vec<String>,
    seen: &mut HashSet<PathBuf>,
    path: PathBuf,
    scope: Scope,
    reason: &str,
) {
    if !seen.insert(path.clone()) {
        return;
    }
    match util::read_text(&path) {
        Some(text) if !text.is_empty() => {
            blocks.push(format!("Instructions from: {}\n{text}", path.display()));
            view.push(path, scope, Status::Loaded, reason);
        }
        _ => view.push(
            path,
            scope,
            Status::NotRead,
            format!("{reason}; empty (or not a file), so OpenCode leaves it out"),
        ),
    }
}

/// The skills OpenCode lists at start (see the module docs).
fn add_skills(view: &mut HostView, options: &HostOptions, ways_up: &[PathBuf]) {
    let home = options.home();
    let mut roots: Vec<(PathBuf, Scope, bool)> = Vec::new();
    for dir in [".claude", ".agents"] {
        roots.push((home.join(dir).join("skills"), Scope::User, true));
    }
    for up in ways_up {
        for dir in [".claude", ".agents"] {
            roots.push((up.join(dir).join("skills"), util::scope_of(up, home), true));
        }
    }
    let config = home.join(".config/opencode");
    let opencode_dirs = std::iter::once(config).chain(ways_up.iter().map(|d| d.join(".opencode")));
    for dir in opencode_dirs {
        let scope = util::scope_of(&dir, home);
        for name in ["skill", "skills"] {
            roots.push((dir.join(name), scope, false));
        }
    }
    // The same name again: OpenCode keeps the last one parsed, which depends on timing;
    // this view keeps the last one found.
    view.skills = util::skills_catalog(&roots, name_and_description);
}

/// A skill's name and description as OpenCode reads them (gray-matter over js-yaml, retried
/// once with its rewrite of `key: value: with colons` lines): `None` when the file is not
/// loaded (no string `name`, a description that is not a string, YAML that fails twice).
fn name_and_description(text: &str) -> Option<(String, Option<String>)> {
    util::strict_name_and_description(text, sanitized)
}

/// OpenCode's second reading of a frontmatter that failed: each top-level `key: value` line
/// whose value holds a `:` (and is not quoted, empty or a block marker) becomes a block
/// scalar (`key: |-` and the value indented).
fn sanitized(text: &str) -> String {
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return text.to_owned();
    };
    let Some(end) = rest.find("\n---") else {
        return text.to_owned();
    };
    let (front, after) = rest.split_at(end);
    let mut lines = Vec::new();
    for line in front.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim();
        let key_value = line.split_once(':').filter(|(key, _)| {
            let mut chars = key.trim_end().chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        match key_value {
            Some((key, value))
                if !trimmed.starts_with('#') && !line.starts_with(char::is_whitespace) && {
                    let value = value.trim();
                    !value.is_empty()
                        && value != ">"
                        && value != "|"
                        && !value.starts_with('"')
                        && !value.starts_with('\'')
                        && value.contains(':')
                } =>
            {
                lines.push(format!("{}: |-", key.trim_end()));
                lines.push(format!("  {}", value.trim()));
            }
            _ => lines.push(line.to_owned()),
        }
    }
    format!("---\n{}{after}", lines.join("\n"))
}

/// OpenCode as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Opencode;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "opencode",
    "OpenCode",
    "opencode",
    "goldens recorded from OpenCode 1.18.33 run offline against a loopback recorder (`xtask/oracle/opencode`), and its loader (`Instruction.systemPaths`, `Skill.discovery`)",
)
.verified("1.18.33");

impl Tool for Opencode {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}

#[cfg(test)]
mod tests {
    use super::{name_and_description, sanitized};

    #[test]
    fn a_value_with_a_colon_is_read_the_second_time() {
        let text = "---\nname: colon\ndescription: has: colon inside\n---\nBody\n";
        assert_eq!(
            sanitized(text),
            "---\nname: colon\ndescription: |-\n  has: colon inside\n---\nBody\n"
        );
        assert_eq!(
            name_and_description(text),
            Some(("colon".to_owned(), Some("has: colon inside".to_owned())))
        );
        assert_eq!(name_and_description("---\nname: [unclosed\n---\n"), None);
        assert_eq!(name_and_description("---\ndescription: d\n---\n"), None);
    }
}
