//! Augment's CLI (`auggie` 0.36.0) as it loads rules, guidelines and skills
//! (`--as augment`), verified against the real CLI run offline (`xtask/oracle/augment`:
//! `auggie --print` against a loopback stand-in for Augment's backend, which records the
//! chat request) and read from its bundle (`augment.mjs`; `docs/research/auggie.md`).
//! Augment's server assembles the prompt from the request, so the view's text is what the
//! request carries, in a fixed form: `<<< PATH (always|agent-requested[: DESCRIPTION])`
//! and each text, the guidelines first.
//!
//! - **Workspace**: the nearest directory above with a `.git` *file* (a worktree), else with
//!   a `.git` directory (a link is neither); the working directory when there is none or
//!   when the home is that directory or below it. Nothing between is read.
//! - **Rules, in order**: the root's `AGENTS.md`, then `CLAUDE.md` (regular files; their
//!   type from `.augment/rules/settings.json`'s `sharedRules`, always by default); then
//!   `.augment/rules/**/*.md|.mdc` depth first, each folder's names sorted, dot names and
//!   links skipped, each by its `type` (`always_apply`, `manual`, `agent_requested`), else
//!   `alwaysApply: true` → always, else a description → agent-requested, else always; then
//!   `~/.augment/rules/**` (links followed), always whatever their type. A manual rule is
//!   not sent; an agent-requested one is sent whole with its description, and the server
//!   decides. Each text with its frontmatter block removed (`/^---\s*\n[\s\S]*?\n---\s*\n/`),
//!   nothing else changed; YAML that fails leaves no keys.
//! - **`.augment-guidelines`** at the root: its own field of the request.
//! - **Skills**: `SKILL.md` below `~/.augment/skills`, `.augment/skills`, `~/.claude/skills`,
//!   `.claude/skills`, `~/.agents/skills`, `.agents/skills`, in that order (dot names
//!   skipped, links followed); a folder path seen before is skipped, then a name; `name` and
//!   `description` required (the name lower-case letters, digits and single `-`, 64 at
//!   most; the description 1,024 at most); `hidden: true` left out.
//!
//! Not emulated: the nested `AGENTS.md`/`CLAUDE.md` the CLI adds to tool results behind a
//! server flag (said of each such file), plugins, `--rules`, the skill modes of
//! `~/.augment/disabled-skills.json`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use rulebook_kit::frontmatter::{Map, Outcome, ParseOptions, Value, parse_frontmatter};
use rulebook_kit::host::{
    HostOptions, HostSkill, HostView, Scope, SkillStatus, Status, Tool, ToolInfo, util,
};

/// The frontmatter block the CLI removes (its `frontmatterRegex`).
static FRONTMATTER: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"\A---\s*\n([\s\S]*?)\n---\s*\n").unwrap_or_else(|_| unreachable!())
});

/// A rule's type as the CLI numbers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Always,
    Manual,
    AgentRequested,
}

/// One rule file as the CLI reads it.
struct Parsed {
    kind: Kind,
    content: String,
    description: Option<String>,
}

/// What Augment's CLI sends when started in `options.cwd()` (see the module docs).
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = HostView::new(crate::TOOL);
    let (cwd, home) = (options.cwd(), options.home());
    let root = workspace_root(cwd, home);
    let mut parts: Vec<String> = Vec::new();
    let guidelines = root.join(".augment-guidelines");
    if is_regular_file(&guidelines) {
        let text = util::read_text(&guidelines).unwrap_or_default();
        let content = strip_frontmatter(&text);
        if content.is_empty() {
            view.push(
                guidelines,
                Scope::Project,
                Status::NotRead,
                "the workspace guidelines, empty: nothing is sent",
            );
        } else {
            parts.push(format!(
                "<<< .augment-guidelines (workspace_guidelines)\n{content}"
            ));
            view.push(
                guidelines,
                Scope::Project,
                Status::Loaded,
                "the workspace guidelines, sent in their own field of the request",
            );
        }
    }
    let shared = shared_rule_types(&root);
    for name in ["AGENTS.md", "CLAUDE.md"] {
        let path = root.join(name);
        if !is_regular_file(&path) {
            if util::exists(&path) {
                view.push(
                    path,
                    Scope::Project,
                    Status::NotRead,
                    "a link (or not a file): the CLI reads only a regular file here",
                );
            }
            continue;
        }
        let Some(text) = util::read_text(&path) else {
            continue;
        };
        let mut parsed = parse_rule(&text);
        parsed.kind = shared
            .iter()
            .find(|(p, _)| p == name)
            .map_or(Kind::Always, |(_, k)| *k);
        send(
            &mut view,
            &mut parts,
            path,
            Scope::Project,
            &parsed,
            "a shared rule file at the workspace root (its type from .augment/rules/settings.json, always by default)",
        );
    }
    let rules = root.join(".augment/rules");
    if std::fs::symlink_metadata(&rules).is_ok_and(|m| m.is_dir()) {
        for path in workspace_rules(&rules) {
            let Some(text) = util::read_text(&path) else {
                continue;
            };
            let parsed = parse_rule(&text);
            send(
                &mut view,
                &mut parts,
                path,
                Scope::Project,
                &parsed,
                "a workspace rule (.augment/rules)",
            );
        }
    }
    for path in user_rules(&home.join(".augment/rules")) {
        let Some(text) = util::read_text(&path) else {
            continue;
        };
        let mut parsed = parse_rule(&text);
        parsed.kind = Kind::Always;
        send(
            &mut view,
            &mut parts,
            path,
            Scope::User,
            &parsed,
            "a user rule (~/.augment/rules): always sent, whatever its type",
        );
    }
    for dir in util::chain(&root, cwd)
        .into_iter()
        .filter(|d| d != &root)
        .rev()
    {
        for name in ["AGENTS.md", "CLAUDE.md"] {
            let path = dir.join(name);
            if is_regular_file(&path) {
                view.push(
                    path,
                    Scope::Project,
                    Status::NotRead,
                    "not the workspace root: the CLI reads this file only behind a server flag, when a tool touches this folder",
                );
            }
        }
    }
    view.prompt = parts.join("\n");
    view.skills = skills(&root, home);
    view
}

/// Sends one rule (see the module docs).
fn send(
    view: &mut HostView,
    parts: &mut Vec<String>,
    path: PathBuf,
    scope: Scope,
    parsed: &Parsed,
    reason: &str,
) {
    let described = |kind: &str| match &parsed.description {
        Some(d) => format!("{kind}: {d}"),
        None => kind.to_owned(),
    };
    match parsed.kind {
        Kind::Manual => view.push(
            path,
            scope,
            Status::NotRead,
            format!("{reason}; type manual: not sent until attached"),
        ),
        Kind::Always => {
            parts.push(format!(
                "<<< {} ({})\n{}",
                path.display(),
                described("always"),
                parsed.content
            ));
            view.push(path, scope, Status::Loaded, reason);
        }
        Kind::AgentRequested => {
            parts.push(format!(
                "<<< {} ({})\n{}",
                path.display(),
                described("agent-requested"),
                parsed.content
            ));
            view.push(
                path,
                scope,
                Status::OnRequest,
                format!(
                    "{reason}; agent-requested: sent whole with its description, and Augment's server decides"
                ),
            );
        }
    }
}

/// The workspace root (see the module docs).
fn workspace_root(cwd: &Path, home: &Path) -> PathBuf {
    let find = |want_file: bool| {
        cwd.ancestors().find(|dir| {
            std::fs::symlink_metadata(dir.join(".git")).is_ok_and(|m| {
                if want_file {
                    m.file_type().is_file()
                } else {
                    m.file_type().is_dir()
                }
            })
        })
    };
    match find(true).or_else(|| find(false)) {
        Some(root) if home.as_os_str().is_empty() || !home.starts_with(root) => root.to_path_buf(),
        _ => cwd.to_path_buf(),
    }
}

/// Whether `path` is a regular file (not a link), as the CLI's `lstat` asks.
fn is_regular_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

/// `text` without its frontmatter block.
fn strip_frontmatter(text: &str) -> String {
    FRONTMATTER.replace(text, "").into_owned()
}

/// The keys of the frontmatter block; none when there is none or its YAML fails.
fn keys(text: &str) -> Map {
    let Some(block) = FRONTMATTER.captures(text).and_then(|c| c.get(1)) else {
        return Map::new();
    };
    let wrapped = format!("---\n{}\n---\n", block.as_str());
    let parsed = parse_frontmatter(&wrapped, &ParseOptions::new());
    match parsed.outcome {
        Outcome::Parsed => parsed.frontmatter,
        _ => Map::new(),
    }
}

/// A key as the CLI's `parseString` reads it: a string trimmed, another value as
/// JavaScript writes it; `None` when absent, null or empty.
fn string_key(map: &Map, key: &str) -> Option<String> {
    let text = match map.get(key)? {
        Value::Null => return None,
        Value::String(s) => s.clone(),
        Value::List(_) | Value::Map(_) => serde_json::to_string(map.get(key)?).ok()?,
        other => other.scalar_text()?,
    };
    let text = text.trim().to_owned();
    (!text.is_empty()).then_some(text)
}

/// One rule file's type, text and description (the CLI's `parseRuleFile`).
fn parse_rule(text: &str) -> Parsed {
    let map = keys(text);
    let description = string_key(&map, "description");
    let kind = match string_key(&map, "type")
        .map(|t| t.to_ascii_lowercase())
        .as_deref()
    {
        Some("always_apply") => Kind::Always,
        Some("manual") => Kind::Manual,
        Some("agent_requested") => Kind::AgentRequested,
        _ if map.get("alwaysApply") == Some(&Value::Bool(true)) => Kind::Always,
        _ if description.is_some() => Kind::AgentRequested,
        _ => Kind::Always,
    };
    Parsed {
        kind,
        content: strip_frontmatter(text),
        description,
    }
}

/// The types `.augment/rules/settings.json` gives `AGENTS.md` and `CLAUDE.md`.
fn shared_rule_types(root: &Path) -> Vec<(String, Kind)> {
    let Some(text) = util::read_text(&root.join(".augment/rules/settings.json")) else {
        return Vec::new();
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    json.get("sharedRules")
        .and_then(serde_json::Value::as_array)
        .map(|rules| {
            rules
                .iter()
                .filter_map(|r| {
                    let path = r.get("path")?.as_str()?.to_owned();
                    let kind = match r.get("type")?.as_str()?.to_ascii_lowercase().as_str() {
                        "manual" => Kind::Manual,
                        "agent_requested" => Kind::AgentRequested,
                        _ => Kind::Always,
                    };
                    Some((path, kind))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The names of `dir` the CLI lists: sorted, dot names left out.
fn listing(dir: &Path) -> Vec<PathBuf> {
    util::entries(dir)
        .into_iter()
        .filter(|p| !util::name(p).starts_with('.'))
        .collect()
}

fn rule_extension(path: &Path) -> bool {
    util::has_suffix(path, ".md") || util::has_suffix(path, ".mdc")
}

/// `.augment/rules/**` depth first (see the module docs): links skipped.
fn workspace_rules(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut visited = util::Visited::default();
    walk(dir, false, &mut visited, &mut out);
    out
}

/// `~/.augment/rules/**` depth first, links followed, one file per name without its
/// extension (`a.md` over `a.mdc`).
fn user_rules(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut visited = util::Visited::default();
    walk(dir, true, &mut visited, &mut out);
    let mut names = HashSet::new();
    out.retain(|p| names.insert(p.with_extension("")));
    out
}

fn walk(dir: &Path, follow: bool, visited: &mut util::Visited, out: &mut Vec<PathBuf>) {
    if !visited.first_visit(dir) {
        return;
    }
    for path in listing(dir) {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let (is_dir, is_file) = if meta.file_type().is_symlink() {
            if !follow {
                continue;
            }
            (util::is_dir(&path), util::is_file(&path))
        } else {
            (meta.is_dir(), meta.is_file())
        };
        if is_dir {
            walk(&path, follow, visited, out);
        } else if is_file && rule_extension(&path) {
            out.push(path);
        }
    }
}

/// The skills the CLI sends (see the module docs).
fn skills(root: &Path, home: &Path) -> Vec<HostSkill> {
    let mut folders_seen: HashSet<String> = HashSet::new();
    let mut names: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for kind in [".augment", ".claude", ".agents"] {
        for (base, scope) in [(home, Scope::User), (root, Scope::Project)] {
            let dir = base.join(kind).join("skills");
            let mut files = Vec::new();
            let mut visited = util::Visited::default();
            walk_markdown(&dir, &mut visited, &mut files);
            for path in files {
                let Ok(rel) = path.strip_prefix(&dir) else {
                    continue;
                };
                let key = rel.with_extension("").to_string_lossy().replace('/', ":");
                if !folders_seen.insert(key) || util::name(&path) != "SKILL.md" {
                    continue;
                }
                let Some(text) = util::read_text(&path) else {
                    continue;
                };
                let map = keys(&text);
                let (Some(name), Some(description)) =
                    (string_key(&map, "name"), string_key(&map, "description"))
                else {
                    continue;
                };
                let valid_name = name.len() <= 64
                    && name.split('-').all(|w| {
                        !w.is_empty()
                            && w.bytes()
                                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                    });
                if !valid_name || description.encode_utf16().count() > 1024 {
                    continue;
                }
                if map.get("hidden") == Some(&Value::Bool(true)) || !names.insert(name.clone()) {
                    continue;
                }
                out.push(HostSkill {
                    name,
                    description,
                    path,
                    scope,
                    status: SkillStatus::Listed,
                    outside: None,
                });
            }
        }
    }
    out
}

/// Every `*.md` below `dir`, depth first, each folder sorted, dot names skipped, links
/// followed (the CLI's walk of its skills folders).
fn walk_markdown(dir: &Path, visited: &mut util::Visited, out: &mut Vec<PathBuf>) {
    if !visited.first_visit(dir) {
        return;
    }
    for path in listing(dir) {
        if util::is_dir(&path) {
            walk_markdown(&path, visited, out);
        } else if util::is_file(&path) && util::has_suffix(&path, ".md") {
            out.push(path);
        }
    }
}

/// Augment's CLI as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Augment;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "augment",
    "Augment CLI",
    "augment",
    "goldens recorded from Augment's CLI (auggie 0.36.0) run offline against a loopback stand-in for its backend (`xtask/oracle/augment`), and its bundle",
)
.verified("0.36.0");

impl Tool for Augment {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}

#[cfg(test)]
mod tests {
    use super::{Kind, parse_rule, strip_frontmatter};

    #[test]
    fn the_frontmatter_block_goes_as_the_cli_removes_it() {
        // The blank lines after the closing fence go with it; the body is kept as written.
        assert_eq!(
            strip_frontmatter("---\na: 1\n---\n\n\n  Body\n"),
            "  Body\n"
        );
        // A closing fence without a line break after it: no frontmatter.
        assert_eq!(strip_frontmatter("---\na: 1\n---"), "---\na: 1\n---");
        // An empty block is no block.
        assert_eq!(strip_frontmatter("---\n---\nBody"), "---\n---\nBody");
    }

    #[test]
    fn a_rule_s_type_comes_from_type_then_always_apply_then_a_description() {
        assert_eq!(parse_rule("---\ntype: Manual\n---\nx").kind, Kind::Manual);
        assert_eq!(
            parse_rule("---\ndescription: d\nalwaysApply: true\n---\nx").kind,
            Kind::Always
        );
        assert_eq!(
            parse_rule("---\ndescription: d\n---\nx").kind,
            Kind::AgentRequested
        );
        // YAML that fails: no keys, always; the block still goes.
        let broken = parse_rule("---\ndescription: [x\n---\nBody");
        assert_eq!(
            (broken.kind, broken.content.as_str()),
            (Kind::Always, "Body")
        );
    }
}
