//! Kilo Code CLI 7.7.7 as it loads its instructions and lists its skills (`--as kilo-cli`),
//! verified against the real tool run offline (`xtask/oracle/kilo-cli`: `kilo run` with a
//! loopback recorder for the model endpoint) and read from its bundled loader (built on
//! OpenCode's: `Instruction.systemSources`, `RulesMigrator.migrate`, `Skill.discovery`;
//! `docs/research/opencode-kilo.md`):
//!
//! - The user's file: the first that exists of `~/.config/kilo/AGENTS.md` and
//!   `~/.claude/CLAUDE.md`.
//! - The project's files as OpenCode reads them (the first of `AGENTS.md`, `CLAUDE.md`,
//!   `CONTEXT.md` found from the working directory up; every file of that name on the way,
//!   nearest first), but each must really lie inside the repository root (the working
//!   directory out of any repository): a file past it, or a link out of it, still claims the
//!   name and is dropped. A project file that holds `{env:…}` is dropped too.
//! - Then its rules, as instructions: `~/.kilo/rules/*.md` then `~/.kilocode/rules/*.md`
//!   (one of each file name), the working directory's `.kilo/rules/*.md` then
//!   `.kilocode/rules/*.md` (one of each file name), `.kilocoderules`, and for each mode
//!   (`code`, `architect`, `ask`, `debug`, `orchestrator`) its `rules-<mode>` folders and
//!   `.kilocoderules-<mode>`: every mode's, whatever the agent; files only (no link, no
//!   subfolder), text as written (frontmatter kept).
//! - Each file is one block, `Instructions from: <path>` and its text, joined by a line
//!   break.
//! - Skills: `skills/**/SKILL.md` of `~/.claude` and `~/.agents`, then of `.claude` and
//!   `.agents` from the working directory up to the repository root (the working directory
//!   alone out of any repository), then `skill(s)/**/SKILL.md` of `~/.config/kilo`, of each
//!   `.kilocode` and `.kilo` on the way up, and of `~/.kilocode`, `~/.kilo`; a later source
//!   wins a name; listed as OpenCode lists them.
//!
//! Not emulated: `kilo.json`'s `instructions`, `{file:…}` placeholders (a note says where
//! one is), the order of several rule files in one folder (the file system's: the view
//! sorts them, and says so).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// The names of the project's files, in the order the first found wins.
pub const NAMES: [&str; 3] = ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"];

/// The modes whose rules Kilo Code CLI 7.7.7 loads for every agent, in its order.
pub const MODES: [&str; 5] = ["code", "architect", "ask", "debug", "orchestrator"];

/// What Kilo Code CLI loads when started in `options.cwd()` (see the module docs).
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = HostView::new(crate::TOOL);
    let (cwd, home) = (options.cwd(), options.home());
    let repository = util::repository(options);
    // Where the project's files must really lie.
    let scope = repository.unwrap_or(cwd).to_path_buf();
    let real_scope = std::fs::canonicalize(&scope).unwrap_or_else(|_| scope.clone());
    let mut loader = Loader {
        view: &mut view,
        blocks: Vec::new(),
        seen: HashSet::new(),
    };
    let user = [
        (
            home.join(".config/kilo/AGENTS.md"),
            "the user's Kilo AGENTS.md (~/.config/kilo)",
        ),
        (
            home.join(".claude/CLAUDE.md"),
            "the user's ~/.claude/CLAUDE.md, read when ~/.config/kilo/AGENTS.md is missing",
        ),
    ];
    if let Some((path, reason)) = user.into_iter().find(|(p, _)| util::exists(p)) {
        loader.load(path, Scope::User, reason, None);
    }
    let ways_up = util::up_to_repository(options);
    if let Some((name, found)) = util::first_name_found(&ways_up, &NAMES) {
        for path in found {
            let reason = format!(
                "{name}, the first of AGENTS.md, CLAUDE.md, CONTEXT.md found from the working directory up; every {name} on the way loads, nearest first, if it lies inside {}",
                scope.display()
            );
            loader.load(path, Scope::Project, &reason, Some(&real_scope));
        }
    }
    // The rules, as instructions: the user's, then the working directory's.
    let mut notes = Vec::new();
    for (dirs, scope_of, trusted) in [
        (
            vec![home.join(".kilo/rules"), home.join(".kilocode/rules")],
            Scope::User,
            true,
        ),
        (
            vec![cwd.join(".kilo/rules"), cwd.join(".kilocode/rules")],
            Scope::Project,
            false,
        ),
    ] {
        for path in rule_files(&dirs, &mut notes) {
            let boundary = (!trusted).then_some(real_scope.as_path());
            loader.load(
                path,
                scope_of,
                "a rule of Kilo's rules folders, always",
                boundary,
            );
        }
    }
    let legacy = cwd.join(".kilocoderules");
    if util::is_file(&legacy) {
        loader.load(
            legacy,
            Scope::Project,
            "the legacy .kilocoderules, always",
            Some(&real_scope),
        );
    }
    for mode in MODES {
        let dirs = [
            cwd.join(format!(".kilo/rules-{mode}")),
            cwd.join(format!(".kilocode/rules-{mode}")),
        ];
        for path in rule_files(&dirs, &mut notes) {
            let reason = format!(
                "a rule of the {mode} mode: Kilo Code CLI 7.7.7 loads every mode's rules for every agent"
            );
            loader.load(path, Scope::Project, &reason, Some(&real_scope));
        }
        let legacy = cwd.join(format!(".kilocoderules-{mode}"));
        if util::is_file(&legacy) {
            let reason = format!("the legacy rules of the {mode} mode, loaded for every agent");
            loader.load(legacy, Scope::Project, &reason, Some(&real_scope));
        }
    }
    let blocks = std::mem::take(&mut loader.blocks);
    view.prompt = blocks.join("\n");
    view.notes.extend(notes);
    if repository.is_none() {
        view.notes.push(
            "out of any repository, Kilo finds files up to / but drops those outside the working directory".to_owned(),
        );
    }
    add_skills(&mut view, options, repository, &ways_up);
    view
}

/// The files of a tool's view and the blocks of its prompt, each file once.
struct Loader<'a> {
    view: &'a mut HostView,
    blocks: Vec<String>,
    seen: HashSet<PathBuf>,
}

impl Loader<'_> {
    /// One file as a block; `boundary`: where a project file must really lie.
    fn load(&mut self, path: PathBuf, scope: Scope, reason: &str, boundary: Option<&Path>) {
        if !self.seen.insert(path.clone()) {
            return;
        }
        if let Some(boundary) = boundary {
            let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
            if !real.starts_with(boundary) {
                self.view.push(
                    path,
                    scope,
                    Status::NotRead,
                    format!(
                        "{reason}; it really lies outside {}, so Kilo drops it",
                        boundary.display()
                    ),
                );
                return;
            }
        }
        let Some(text) = util::read_text(&path) else {
            self.view.push(
                path,
                scope,
                Status::NotRead,
                format!("{reason}; not a file"),
            );
            return;
        };
        if boundary.is_some() && has_env_placeholder(&text) {
            self.view.push(
                path,
                scope,
                Status::NotRead,
                format!("{reason}; it holds an {{env:…}} placeholder, which Kilo refuses in a project file, so it drops the file"),
            );
            return;
        }
        if text.is_empty() {
            self.view.push(
                path,
                scope,
                Status::NotRead,
                format!("{reason}; empty, so Kilo leaves it out"),
            );
            return;
        }
        if text.contains("{file:") {
            self.view.notes.push(format!(
                "{} holds a {{file:…}} placeholder, which Kilo replaces by that file's text; this view shows it as written",
                path.display()
            ));
        }
        self.blocks
            .push(format!("Instructions from: {}\n{text}", path.display()));
        self.view.push(path, scope, Status::Loaded, reason);
    }
}

/// Whether `text` holds an `{env:NAME}` placeholder Kilo substitutes: not after a `$`, not
/// on a line that starts with `//`.
fn has_env_placeholder(text: &str) -> bool {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .any(|line| {
            line.match_indices("{env:")
                .any(|(i, _)| !line[..i].ends_with('$') && line[i..].contains('}'))
        })
}

/// The `*.md` files (regular files, no links, no subfolders) of each folder in turn, one of
/// each file name (the first folder's wins), each folder sorted by name; a note where more
/// than one of a folder is read (Kilo reads them in the order the file system lists them).
fn rule_files(dirs: &[PathBuf], notes: &mut Vec<String>) -> Vec<PathBuf> {
    let mut names = HashSet::new();
    let mut out = Vec::new();
    for dir in dirs {
        let before = out.len();
        for file in crate::md_files(dir) {
            if names.insert(util::name(&file)) {
                out.push(file);
            }
        }
        if out.len() - before > 1 {
            notes.push(format!(
                "Kilo reads the files of {} in the order the file system lists them, which this view does not know: it lists them by name",
                dir.display()
            ));
        }
    }
    out
}

/// The skills Kilo Code CLI lists at start (see the module docs).
fn add_skills(
    view: &mut HostView,
    options: &HostOptions,
    repository: Option<&Path>,
    ways_up: &[PathBuf],
) {
    let home = options.home();
    let mut roots: Vec<(PathBuf, Scope, bool)> = Vec::new();
    for dir in [".claude", ".agents"] {
        roots.push((home.join(dir).join("skills"), Scope::User, true));
    }
    // The project's `.claude` and `.agents`: up to the repository root, else the working
    // directory alone.
    let external: Vec<&PathBuf> = match repository {
        Some(_) => ways_up.iter().collect(),
        None => ways_up.iter().take(1).collect(),
    };
    for up in external {
        for dir in [".claude", ".agents"] {
            roots.push((up.join(dir).join("skills"), Scope::Project, true));
        }
    }
    let mut config = vec![(home.join(".config/kilo"), Scope::User)];
    for up in ways_up {
        for dir in [".kilocode", ".kilo"] {
            config.push((up.join(dir), util::scope_of(up, home)));
        }
    }
    for dir in [".kilocode", ".kilo"] {
        config.push((home.join(dir), Scope::User));
    }
    let mut unique = HashSet::new();
    for (dir, scope) in config {
        if !unique.insert(dir.clone()) {
            continue;
        }
        for name in ["skill", "skills"] {
            roots.push((dir.join(name), scope, false));
        }
    }
    // A later source wins the name.
    view.skills = util::skills_catalog(&roots, name_and_description);
}

/// A skill's name and description as Kilo reads them (gray-matter over js-yaml, retried once
/// with the values that hold a `:` quoted): `None` when the file is not loaded.
fn name_and_description(text: &str) -> Option<(String, Option<String>)> {
    util::strict_name_and_description(text, quoted)
}

/// Kilo's second reading of a frontmatter that failed: each top-level `key: value` line
/// whose value holds a `:` (and is not quoted, empty or a block marker) is quoted.
fn quoted(text: &str) -> String {
    let Some(rest) = text.strip_prefix("---\n") else {
        return text.to_owned();
    };
    let Some(end) = rest.find("\n---") else {
        return text.to_owned();
    };
    let (front, after) = rest.split_at(end);
    let lines: Vec<String> = front
        .split('\n')
        .map(|line| {
            let Some((key, value)) = line.split_once(':') else {
                return line.to_owned();
            };
            let value = value.trim();
            let plain_key = !line.starts_with(char::is_whitespace)
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if plain_key
                && value.contains(':')
                && !value.starts_with('"')
                && !value.starts_with('\'')
                && !matches!(value, "" | ">" | "|")
            {
                format!(
                    "{key}: \"{}\"",
                    value.replace('\\', "\\\\").replace('"', "\\\"")
                )
            } else {
                line.to_owned()
            }
        })
        .collect();
    format!("---\n{}{after}", lines.join("\n"))
}

/// Kilo Code CLI as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct KiloCli;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "kilo-cli",
    "Kilo Code CLI",
    "kilo-cli",
    "goldens recorded from Kilo Code CLI 7.7.7 run offline against a loopback recorder (`xtask/oracle/kilo-cli`), and its loader (built on OpenCode's)",
)
.verified("7.7.7");

impl Tool for KiloCli {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}

#[cfg(test)]
mod tests {
    use super::{has_env_placeholder, name_and_description};

    #[test]
    fn env_placeholders_as_kilo_finds_them() {
        assert!(has_env_placeholder("home is {env:HOME}\n"));
        assert!(!has_env_placeholder("a shell ${env:HOME}\n"));
        assert!(!has_env_placeholder("// {env:HOME}\n"));
        assert!(!has_env_placeholder("no placeholder\n"));
    }

    #[test]
    fn a_value_with_a_colon_is_quoted_the_second_time() {
        assert_eq!(
            name_and_description("---\nname: colon\ndescription: has: colon inside\n---\nBody\n"),
            Some(("colon".to_owned(), Some("has: colon inside".to_owned())))
        );
        assert_eq!(name_and_description("---\nname: [unclosed\n---\n"), None);
    }
}
