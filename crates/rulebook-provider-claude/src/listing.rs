//! The skill listing Claude Code 2.1.332 sends to the model at start (observed offline: the
//! oracle records the request; `fixtures/hosts/claude-skills`, `claude-skills-shapes`,
//! `claude-skills-links`, `claude-skills-budget`, `claude-commands`), as its code builds it:
//!
//! - **Which.** The user's `~/.claude/skills` first, then `.claude/skills` in the working
//!   directory and each ancestor up to the git root (up to `/` outside a repository), each
//!   folder's skills in the order of their folder names (letter case aside); then the
//!   custom commands (`.claude/commands/**/*.md` of the user, the working directory and the
//!   same ancestors), sorted by name (`sub:name` for one in a subfolder). One entry per real
//!   path of its file, the first read (a linked folder, a linked `SKILL.md`); then one per
//!   name, the first (so personal over project, a skill over a command).
//!   `disable-model-invocation: true` keeps a skill out of the listing.
//! - **How.** `- NAME: DESCRIPTION`: a skill is its folder's name, shown `FOLDER (NAME)`
//!   when its `name` differs and that name leads to this skill (no entry has it as its own
//!   name and no earlier one as its `name`); the description (with ` - ` and `when_to_use`
//!   after it), else the body's first paragraph, else `Skill` (`Custom command` for a
//!   command), capped at 1,536 UTF-16 units (1,535 and `…`).
//! - **Budget.** 1% of the model's context window in characters at its bytes a token
//!   (30,000 display columns for the default model, `claude-opus-5-5`: 1,000,000 tokens at
//!   3), `skillListingBudgetFraction` in `~/.claude/settings.json` changing the 1%. A line
//!   costs its display columns (two for a wide character, none for a control or combining
//!   one) and the newline between lines one. When the whole listing is over, every name
//!   stays: Claude Code's bundled skills keep their descriptions, and the others' are
//!   tried most used first (`skillUsage` in `~/.claude.json`: a use count, halved each
//!   week since the last use, never below a tenth), then in listing order; each keeps its
//!   description if it still fits, else is listed as `- NAME`, and the next is tried.
//!   Claude Code's own skills (listed after these) are not shown by the view, but their
//!   lines are counted.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use rulebook_kit::frontmatter::{Map, Value};
use rulebook_kit::host::{HostOptions, HostSkill, HostView, Scope, SkillStatus, util};

/// The default model's context window, in tokens (`claude-opus-5-5`, as the oracle's runs
/// show: its budget of 30,000 columns is this at 3 characters a token and 1%).
pub(crate) const CONTEXT_WINDOW: f64 = 1_000_000.0;

/// Characters a token for the default model (Claude Code counts 4 for older models).
pub(crate) const CHARS_PER_TOKEN: f64 = 3.0;

/// The share of the context window the listing may take when no setting says otherwise.
pub(crate) const DEFAULT_FRACTION: f64 = 0.01;

/// A description longer than this (in UTF-16 units) is cut to one less and `…`.
pub(crate) const MAX_DESCRIPTION: usize = 1_536;

/// The display columns of the full lines of Claude Code's bundled skills, which always keep
/// their descriptions (eleven lines, measured in the oracle's recorded listings).
const BUNDLED_COLUMNS: usize = 6_039;

/// How many lines the bundled skills take.
const BUNDLED_LINES: usize = 11;

/// Claude Code's two built-in commands listed after everything, whose descriptions can be
/// dropped: their full and name-only lines' columns (`init`, `security-review`).
const BUILT_IN_COMMANDS: [(usize, usize); 2] = [(67, 6), (90, 17)];

/// One skill or command as the listing sees it.
struct Candidate {
    /// Its name: the folder's, or the command's path with `:`.
    name: String,
    /// The `name` of its frontmatter, when it has one.
    label: Option<String>,
    description: String,
    path: PathBuf,
    scope: Scope,
    hidden: bool,
}

/// Adds Claude Code's skill listing to `view` (see the module docs).
pub(crate) fn add_skills(view: &mut HostView, options: &HostOptions) {
    let (cwd, home) = (options.cwd(), options.home());
    let dirs: Vec<PathBuf> = match options.git_root() {
        Some(root) => util::chain(root, cwd).into_iter().rev().collect(),
        None => cwd.ancestors().map(Path::to_path_buf).collect(),
    };
    let mut all = skills(home, &dirs);
    all.extend(commands(home, &dirs));
    // One entry per real path of its file, the first read; then one per name.
    let mut real: HashSet<PathBuf> = HashSet::new();
    let mut names: HashSet<String> = HashSet::new();
    all.retain(|c| {
        std::fs::canonicalize(&c.path).map_or(true, |key| real.insert(key))
            && names.insert(c.name.clone())
    });
    let shown: Vec<String> = all.iter().map(|c| display(c, &all)).collect();
    let usage = usage(home);
    let mut entries: Vec<(HostSkill, Line)> = Vec::new();
    for (c, name) in all.iter().zip(shown) {
        if c.hidden {
            continue;
        }
        let description = cap(&c.description);
        let line = Line {
            full: columns(&format!("- {name}: {description}")),
            bare: columns(&format!("- {name}")),
            priority: usage.get(&c.name).copied().unwrap_or(0.0),
        };
        entries.push((
            HostSkill {
                name,
                description,
                path: c.path.clone(),
                scope: c.scope,
                status: SkillStatus::Listed,
                outside: None,
            },
            line,
        ));
    }
    let lines: Vec<Line> = entries.iter().map(|(_, l)| *l).collect();
    let kept = fit(&lines, budget(home));
    for ((skill, _), keep) in entries.iter_mut().zip(kept) {
        if !keep {
            skill.status = SkillStatus::Shortened {
                from: skill.description.chars().count(),
            };
            skill.description = String::new();
        }
    }
    view.skills.extend(entries.into_iter().map(|(s, _)| s));
}

/// The skills of `~/.claude/skills` and of `.claude/skills` in `dirs`, in reading order.
fn skills(home: &Path, dirs: &[PathBuf]) -> Vec<Candidate> {
    let mut roots = vec![(home.join(".claude/skills"), Scope::User)];
    roots.extend(
        dirs.iter()
            .map(|d| (d.join(".claude/skills"), Scope::Project)),
    );
    let mut out = Vec::new();
    for (root, scope) in roots {
        let mut folders: Vec<PathBuf> = util::entries(&root)
            .into_iter()
            .filter(|p| util::is_file(&p.join("SKILL.md")))
            .collect();
        folders.sort_by_key(|p| {
            let name = util::name(p);
            (name.to_lowercase(), name)
        });
        for folder in folders {
            let path = folder.join("SKILL.md");
            let Some(text) = util::read_text(&path) else {
                continue;
            };
            let (frontmatter, body) = util::frontmatter(&text);
            out.push(Candidate {
                name: util::name(&folder),
                label: string(&frontmatter, "name"),
                description: described(&frontmatter, &body, "Skill"),
                path,
                scope,
                hidden: frontmatter.get("disable-model-invocation") == Some(&Value::Bool(true)),
            });
        }
    }
    out
}

/// The custom commands of `~/.claude/commands` and of `.claude/commands` in `dirs`, sorted
/// by name.
fn commands(home: &Path, dirs: &[PathBuf]) -> Vec<Candidate> {
    let mut roots = vec![(home.join(".claude/commands"), Scope::User)];
    roots.extend(
        dirs.iter()
            .map(|d| (d.join(".claude/commands"), Scope::Project)),
    );
    let mut out: Vec<Candidate> = Vec::new();
    for (root, scope) in roots {
        for path in util::find_with_suffix(&root, ".md", true, util::MAX_DIRS) {
            let Ok(rel) = path.strip_prefix(&root) else {
                continue;
            };
            let name = rel
                .with_extension("")
                .to_string_lossy()
                .replace(std::path::MAIN_SEPARATOR, ":");
            let Some(text) = util::read_text(&path) else {
                continue;
            };
            let (frontmatter, body) = util::frontmatter(&text);
            out.push(Candidate {
                name,
                label: None,
                description: described(&frontmatter, &body, "Custom command"),
                path,
                scope,
                hidden: false,
            });
        }
    }
    // Stable: of one name, the first read stays first.
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// A non-blank string value of `key`, trimmed.
fn string(frontmatter: &Map, key: &str) -> Option<String> {
    match frontmatter.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        _ => None,
    }
}

/// The description, with ` - ` and `when_to_use` after it; else the body's first
/// paragraph; else `fallback`.
fn described(frontmatter: &Map, body: &str, fallback: &str) -> String {
    let mut description = string(frontmatter, "description")
        .or_else(|| first_paragraph(body))
        .unwrap_or_else(|| fallback.to_owned());
    if let Some(when) = string(frontmatter, "when_to_use") {
        description.push_str(" - ");
        description.push_str(&when);
    }
    description
}

/// A body's first paragraph, trimmed; `None` for a blank body.
fn first_paragraph(body: &str) -> Option<String> {
    let first = body.trim().split("\n\n").next().unwrap_or("").trim();
    (!first.is_empty()).then(|| first.to_owned())
}

/// `FOLDER (NAME)` when the skill's `name` differs from its folder's, is a name as Claude
/// Code writes them, and leads to this skill (no entry is named so, and no earlier one has
/// it as its `name`); else the folder's name.
fn display(c: &Candidate, all: &[Candidate]) -> String {
    let Some(label) = c.label.as_deref() else {
        return c.name.clone();
    };
    let plain = label == c.name
        || c.name.ends_with(&format!(":{label}"))
        || !label
            .chars()
            .all(|ch| ch.is_alphanumeric() || matches!(ch, '_' | ':' | '.' | '-'));
    let leads_here = || {
        let found = all
            .iter()
            .find(|o| o.name == label)
            .or_else(|| all.iter().find(|o| o.label.as_deref() == Some(label)));
        found.is_some_and(|o| std::ptr::eq(o, c))
    };
    if plain || !leads_here() {
        c.name.clone()
    } else {
        format!("{} ({label})", c.name)
    }
}

/// `description` capped at [`MAX_DESCRIPTION`] UTF-16 units: the first 1,535 and `…`.
fn cap(description: &str) -> String {
    if description.encode_utf16().count() <= MAX_DESCRIPTION {
        return description.to_owned();
    }
    let mut units = 0;
    let mut out = String::new();
    for ch in description.chars() {
        units += ch.len_utf16();
        if units > MAX_DESCRIPTION - 1 {
            break;
        }
        out.push(ch);
    }
    out.push('…');
    out
}

/// The display columns of `text`: two for a wide character, none for a control or
/// combining one.
fn columns(text: &str) -> usize {
    use unicode_width::UnicodeWidthChar;
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// One line of the listing: its columns with and without its description, and its rank.
#[derive(Debug, Clone, Copy)]
struct Line {
    full: usize,
    bare: usize,
    priority: f64,
}

/// The listing's budget in columns: the context window at its characters a token and
/// `skillListingBudgetFraction` of `~/.claude/settings.json` (else 1%).
fn budget(home: &Path) -> usize {
    let fraction = util::read_text(&home.join(".claude/settings.json"))
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|v| v.get("skillListingBudgetFraction")?.as_f64())
        .filter(|f| f.is_finite() && *f >= 0.0)
        .unwrap_or(DEFAULT_FRACTION);
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a finite, non-negative budget of columns"
    )]
    let columns = (CONTEXT_WINDOW * CHARS_PER_TOKEN * fraction).floor() as usize;
    columns.max(1)
}

/// Each skill's rank from `~/.claude.json`'s `skillUsage`: its use count, halved each week
/// since its last use, never below a tenth of it.
fn usage(home: &Path) -> HashMap<String, f64> {
    let Some(value) = util::read_text(&home.join(".claude.json"))
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
    else {
        return HashMap::new();
    };
    let Some(map) = value.get("skillUsage").and_then(|v| v.as_object()) else {
        return HashMap::new();
    };
    #[allow(
        clippy::cast_precision_loss,
        reason = "milliseconds since 1970 fit an f64's integers"
    )]
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64);
    map.iter()
        .filter_map(|(name, entry)| {
            let count = entry.get("usageCount")?.as_f64()?;
            let last = entry
                .get("lastUsedAt")
                .and_then(serde_json::Value::as_f64)?;
            let days = (now - last) / 86_400_000.0;
            Some((name.clone(), count * 0.5f64.powf(days / 7.0).max(0.1)))
        })
        .collect()
}

/// Which of `lines` keep their descriptions within `budget` columns, Claude Code's own
/// lines counted after them (see the module docs).
fn fit(lines: &[Line], budget: usize) -> Vec<bool> {
    let own: Vec<Line> = BUILT_IN_COMMANDS
        .iter()
        .map(|&(full, bare)| Line {
            full,
            bare,
            priority: 0.0,
        })
        .collect();
    let every: Vec<Line> = lines.iter().chain(&own).copied().collect();
    let joins = every.len() + BUNDLED_LINES - 1;
    let whole = BUNDLED_COLUMNS + every.iter().map(|l| l.full).sum::<usize>() + joins;
    if whole <= budget {
        return vec![true; lines.len()];
    }
    let least = BUNDLED_COLUMNS + every.iter().map(|l| l.bare).sum::<usize>() + joins;
    let mut left = budget.saturating_sub(least);
    let mut order: Vec<usize> = (0..every.len()).collect();
    // Stable: of one rank, the listing's order.
    order.sort_by(|&a, &b| every[b].priority.total_cmp(&every[a].priority));
    let mut keep = vec![false; every.len()];
    for i in order {
        let extra = every[i].full - every[i].bare;
        if extra <= left {
            keep[i] = true;
            left -= extra;
        }
    }
    keep.truncate(lines.len());
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(full: usize, bare: usize) -> Line {
        Line {
            full,
            bare,
            priority: 0.0,
        }
    }

    /// Over the budget, descriptions are tried in order and one that does not fit is
    /// skipped, not the end of the listing: a later, shorter one still keeps its own.
    #[test]
    fn a_description_that_does_not_fit_is_skipped_and_the_next_tried() {
        let lines = [line(100, 10), line(500, 10), line(50, 10)];
        let least = BUNDLED_COLUMNS + 30 + 6 + 23 + (3 + 2 + BUNDLED_LINES - 1);
        let kept = fit(&lines, least + 90 + 40 + 5);
        assert_eq!(kept, [true, false, true]);
        assert_eq!(fit(&lines, 1_000_000), [true, true, true]);
    }

    #[test]
    fn a_long_description_is_capped_with_an_ellipsis() {
        let long = "x".repeat(2_000);
        let capped = cap(&long);
        assert_eq!(capped.chars().count(), MAX_DESCRIPTION);
        assert!(capped.ends_with('…'));
        assert_eq!(cap("short"), "short");
    }

    #[test]
    fn wide_characters_take_two_columns_and_newlines_none() {
        assert_eq!(columns("- a: 漢字"), 9);
        assert_eq!(columns("a\nb"), 2);
    }
}
