//! The skills Codex CLI 0.171.0 lists at start (behaviour.md §14), from
//! `codex-rs/core-skills/src/loader.rs` (upstream 9e552e9) and runs of the real tool offline:
//! the roots in scan order (the working directory's `.codex/skills`, `~/.codex/skills`,
//! `~/.agents/skills`, then `.agents/skills` in every folder from the project root down to the
//! working directory), each walked breadth first to depth 6 (hidden folders skipped, linked
//! folders followed, a linked `SKILL.md` file ignored); one skill per real `SKILL.md`, shown
//! at the path it was first reached by (a linked folder's path, as 0.171.0 shows it); every
//! name kept (Codex does not override by name); the catalog in Codex's order and budget
//! ([`super::catalog`]).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::{HostOptions, HostSkill, HostView, Scope, SkillStatus, util};

use super::catalog::{self, Entry, Fate};

/// The context window of Codex 0.171.0's default model, in tokens (its bundled model
/// list): with no `[skills] max_context_tokens`, the catalog's budget is 2% of it.
pub const DEFAULT_CONTEXT_WINDOW: usize = 500_000;

/// The skills Codex 0.171.0 writes into `$CODEX_HOME/skills/.system` at start and lists
/// first (those its `agents/openai.yaml` allows to be invoked implicitly), as written there:
/// their lines spend the catalog's budget before the project's and the user's.
pub const BUNDLED: [(&str, &str); 4] = [
    (
        "imagegen",
        "Generate or edit raster images when the task benefits from AI-created bitmap visuals such as photos, illustrations, textures, sprites, mockups, or transparent-background cutouts. Use when Codex should create a brand-new image, transform an existing image, or derive visual variants from references, and the output should be a bitmap asset rather than repo-native code or vector. Do not use when the task is better handled by editing existing SVG/vector/code-native assets, extending an established icon or logo system, or building the visual directly in HTML/CSS/canvas.",
    ),
    (
        "openai-docs",
        "API first-timers, Codex/Work Q&A. If the user already has an OpenAI API integration, skip this skill for API questions and use the developer docs. Read this skill before answering how Codex or ChatGPT Work behaves, where to find a feature, or how to configure or troubleshoot this app or coding agent. This includes conversation history, model and cache behavior, instruction precedence, permissions, and tool availability. Use for API onboarding only when the user is connecting to the OpenAI API for the first time. Skip action requests, such as scheduling an automation, and tasks fully answered by supplied text or data.",
    ),
    (
        "skill-creator",
        "Create or update a Codex skill with appropriately scoped instructions and any needed supporting resources.",
    ),
    (
        "skill-installer",
        "Install Codex skills into $CODEX_HOME/skills from a curated list or a GitHub repo path. Use when a user asks to list installable skills, install a curated skill, or install a skill from another repo (including private repos).",
    ),
];

/// How deep below a root a `SKILL.md` is found (`MAX_SCAN_DEPTH`).
const MAX_DEPTH: usize = 6;
/// The most folders read below one root (`MAX_SKILLS_DIRS_PER_ROOT`).
const MAX_DIRS: usize = 2_000;
/// The longest name (`MAX_NAME_LEN`), in characters.
const MAX_NAME: usize = 64;
/// What `[skills] max_context_tokens` may be at most.
const MAX_CONFIGURED_TOKENS: usize = 10_000;

/// One root: a folder and whether it is the user's.
struct Root {
    dir: PathBuf,
    scope: Scope,
}

/// The roots in Codex's scan order, each once.
fn roots(options: &HostOptions) -> Vec<Root> {
    let (cwd, home) = (options.cwd(), options.home());
    let mut roots = vec![
        Root {
            dir: cwd.join(".codex/skills"),
            scope: Scope::Project,
        },
        Root {
            dir: home.join(".codex/skills"),
            scope: Scope::User,
        },
        Root {
            dir: home.join(".agents/skills"),
            scope: Scope::User,
        },
    ];
    let dirs = match options.git_root() {
        Some(root) => util::chain(root, cwd),
        None => vec![cwd.to_path_buf()],
    };
    roots.extend(dirs.into_iter().map(|d| Root {
        dir: d.join(".agents/skills"),
        scope: Scope::Project,
    }));
    let mut seen = HashSet::new();
    roots.retain(|r| seen.insert(r.dir.clone()));
    roots
}

/// Every `SKILL.md` below `root`, breadth first, entries in byte order: the path as walked
/// (through links, as Codex shows it) and the real path (by which it is read once).
fn scan(root: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut found = Vec::new();
    let mut queue = std::collections::VecDeque::from([(root.to_path_buf(), 0usize)]);
    let mut visited = HashSet::new();
    while let Some((dir, depth)) = queue.pop_front() {
        let Ok(real) = std::fs::canonicalize(&dir) else {
            continue;
        };
        if !visited.insert(real) || visited.len() > MAX_DIRS {
            continue;
        }
        let mut entries = util::entries(&dir);
        entries.sort();
        for path in entries {
            let name = path.file_name().map(|n| n.as_encoded_bytes().to_vec());
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if name.as_deref() == Some(b"SKILL.md".as_slice()) {
                // A `SKILL.md` that is itself a link is not read.
                if meta.is_file() {
                    if let Ok(real) = std::fs::canonicalize(&path) {
                        found.push((path, real));
                    }
                }
                continue;
            }
            let hidden = name.as_deref().is_some_and(|n| n.starts_with(b"."));
            if !hidden && depth < MAX_DEPTH && util::is_dir(&path) {
                queue.push_back((path, depth + 1));
            }
        }
    }
    found
}

/// A skill's name and description as Codex reads them, or `None` when it refuses the file
/// (no frontmatter, no description, a name over 64 characters).
fn read(path: &Path) -> Option<(String, String)> {
    let text = util::read_text(path)?;
    let mut lines = text.lines();
    if lines.next()?.trim() != "---" || !lines.any(|l| l.trim() == "---") {
        return None;
    }
    let (frontmatter, _) = util::frontmatter(&text);
    let one_line = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.split_whitespace().collect::<Vec<_>>().join(" "),
        _ => String::new(),
    };
    let mut name = one_line(frontmatter.get("name"));
    if name.is_empty() {
        name = path
            .parent()
            .and_then(Path::file_name)
            .map_or_else(|| "skill".to_owned(), |n| n.to_string_lossy().into_owned());
    }
    let description = one_line(frontmatter.get("description"));
    (!description.is_empty() && name.chars().count() <= MAX_NAME).then_some((name, description))
}

/// What `~/.codex/config.toml` says of skills, read once: `[skills] max_context_tokens` (at
/// most 10,000), and `[skills.bundled] enabled` (true unless set false: Codex writes and
/// lists its bundled skills).
struct SkillsConfig {
    tokens: Option<usize>,
    bundled: bool,
}

impl SkillsConfig {
    fn read(home: &Path) -> Self {
        let skills = util::read_text(&home.join(".codex/config.toml"))
            .and_then(|text| text.parse::<toml::Table>().ok())
            .and_then(|mut table| table.remove("skills"));
        let skills = skills.as_ref();
        Self {
            tokens: skills
                .and_then(|s| s.get("max_context_tokens"))
                .and_then(toml::Value::as_integer)
                .and_then(|t| usize::try_from(t).ok())
                .map(|t| t.min(MAX_CONFIGURED_TOKENS)),
            bundled: skills
                .and_then(|s| s.get("bundled"))
                .and_then(|b| b.get("enabled"))
                .and_then(toml::Value::as_bool)
                .unwrap_or(true),
        }
    }
}

/// Adds the skills Codex lists in `cwd` with `home` to `view`: the catalog's order (the
/// project's, then the user's; by name, then path), each with what the budget did to it.
pub fn add(view: &mut HostView, options: &HostOptions) {
    let mut seen = HashSet::new();
    let mut skills: Vec<(Scope, String, String, PathBuf)> = Vec::new();
    // Each skill's root, by index, for the roots table: only roots with a skill get an alias.
    let mut root_of: Vec<usize> = Vec::new();
    let roots = roots(options);
    for (r, root) in roots.iter().enumerate() {
        for (path, real) in scan(&root.dir) {
            if !seen.insert(real) {
                continue;
            }
            if let Some((name, description)) = read(&path) {
                skills.push((root.scope, name, description, path));
                root_of.push(r);
            }
        }
    }
    if skills.is_empty() {
        return;
    }
    let rank = |s: Scope| match s {
        Scope::Project => 0,
        Scope::User => 1,
    };
    let mut order: Vec<usize> = (0..skills.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&skills[a], &skills[b]);
        (rank(a.0), &a.1, &a.3).cmp(&(rank(b.0), &b.1, &b.3))
    });
    let mut used: Vec<usize> = root_of.clone();
    used.sort_unstable();
    used.dedup();
    // The bundled skills' folder, when Codex lists them, is the table's first root, `r0`.
    let system = options.home().join(".codex/skills/.system");
    let config = SkillsConfig::read(options.home());
    let with_bundled = config.bundled;
    let shift = usize::from(with_bundled);
    let alias = |r: usize| shift + used.iter().position(|&u| u == r).unwrap_or(0);
    let table: Vec<String> = with_bundled
        .then(|| format!("- `r0` = `{}`", system.to_string_lossy().replace('\\', "/")))
        .into_iter()
        .chain(used.iter().enumerate().map(|(i, &r)| {
            format!(
                "- `r{}` = `{}`",
                i + shift,
                roots[r].dir.to_string_lossy().replace('\\', "/")
            )
        }))
        .collect();
    let skills: Vec<(Scope, String, String, PathBuf, usize)> = order
        .into_iter()
        .map(|i| {
            let (scope, name, description, path) = skills[i].clone();
            (scope, name, description, path, root_of[i])
        })
        .collect();
    let entry = |skill: &(Scope, String, String, PathBuf, usize), aliased: bool| {
        let (_, name, description, path, r) = skill;
        Entry {
            name: name.clone(),
            description: catalog::precut(description),
            path: match path.strip_prefix(&roots[*r].dir) {
                Ok(rel) if aliased => format!(
                    "r{}/{}",
                    alias(*r),
                    rel.to_string_lossy().replace('\\', "/")
                ),
                _ => path.to_string_lossy().replace('\\', "/"),
            },
        }
    };
    let system = &system;
    let listed_bundled: &[(&str, &str)] = if with_bundled { &BUNDLED } else { &[] };
    let bundled = |aliased: bool| {
        listed_bundled.iter().map(move |(name, description)| Entry {
            name: (*name).to_owned(),
            description: catalog::precut(description),
            path: if aliased {
                format!("r0/{name}/SKILL.md")
            } else {
                system
                    .join(name)
                    .join("SKILL.md")
                    .to_string_lossy()
                    .replace('\\', "/")
            },
        })
    };
    let entries: Vec<Entry> = bundled(false)
        .chain(skills.iter().map(|s| entry(s, false)))
        .collect();
    let aliased: Vec<Entry> = bundled(true)
        .chain(skills.iter().map(|s| entry(s, true)))
        .collect();
    let configured = config.tokens;
    let (limit, in_tokens) = match configured {
        Some(tokens) => (tokens, true),
        None => catalog::budget(Some(DEFAULT_CONTEXT_WINDOW)),
    };
    let rendered = catalog::render_best(&entries, &aliased, &table, limit, in_tokens);
    if configured.is_none() && rendered.fates.iter().any(|f| *f != Fate::Whole) {
        view.notes.push(
            "the skills budget is 2% of the model's context window: 10,000 tokens for Codex 0.171.0's default model (500,000), with no `[skills] max_context_tokens` in ~/.codex/config.toml".to_owned(),
        );
    }
    if !listed_bundled.is_empty() {
        view.notes.push(format!(
            "Codex's {} bundled skills ({}) come first in its catalog and spend part of its budget",
            listed_bundled.len(),
            listed_bundled
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let first = listed_bundled.len();
    for ((scope, name, description, path, _), (entry, fate)) in skills.into_iter().zip(
        entries[first..]
            .iter()
            .zip(rendered.fates.into_iter().skip(first)),
    ) {
        let (shown, status) = match fate {
            Fate::Whole if entry.description == description => (description, SkillStatus::Listed),
            Fate::Whole => (
                entry.description.clone(),
                SkillStatus::Shortened {
                    from: description.chars().count(),
                },
            ),
            Fate::Shortened(n) => (
                entry.description.chars().take(n).collect(),
                SkillStatus::Shortened {
                    from: description.chars().count(),
                },
            ),
            Fate::Omitted => (String::new(), SkillStatus::Omitted),
        };
        view.skills.push(HostSkill {
            name,
            description: shown,
            path,
            scope,
            status,
            outside: None,
        });
    }
}
