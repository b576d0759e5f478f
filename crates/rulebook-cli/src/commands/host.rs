//! `--as TOOL` on `list`, `explain`, `prompt` and `match`, and `rulebook compare`: what one
//! real tool (or each of them) loads here, from `rulebook-hosts`.
//!
//! `list --json --as X` is a stable contract: `{host, tool, version, verified, cwd, files:
//! [{path, scope, truncated_at}], notes}`, the files exactly those X loads at start, in X's
//! order, `truncated_at` the byte offset of the file where X cuts it (else `null`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rulebook::{Host, HostFile, HostOptions, HostScope, HostStatus, HostView, emulate};
use serde::Serialize;

use crate::printer::escape;

/// Where the tools run.
pub(crate) struct Place<'a> {
    /// The working directory and home, located once for every view.
    pub(crate) project: &'a rulebook::Project,
    /// `--show-outside`: the prompt even when it holds outside text.
    pub(crate) show_outside: bool,
}

impl Place<'_> {
    /// The working directory.
    pub(crate) fn cwd(&self) -> &Path {
        self.project.cwd()
    }

    /// The user's home directory.
    pub(crate) fn home(&self) -> &Path {
        self.project.home()
    }

    fn options(&self) -> HostOptions {
        HostOptions::for_project(self.project.clone()).show_outside(self.show_outside)
    }

    fn view(&self, host: Host) -> HostView {
        emulate(host, &self.options())
    }

    /// The views of `hosts`, in their order, computed side by side.
    fn views(&self, hosts: &[Host]) -> Vec<HostView> {
        rulebook::emulate_all(hosts, &self.options())
    }

    /// A path as a person reads it: relative to the working directory, `~/…` under the
    /// home, else relative with `..` (or absolute when nothing is shared).
    fn show(&self, path: &Path) -> String {
        rulebook::stages::rule::show_path(path, self.cwd(), self.home())
    }

    /// A view's reason or note, with the paths in it as [`Place::show`] writes them.
    fn said(&self, text: &str) -> String {
        rulebook::stages::rule::show_paths_in(text, self.cwd(), self.home())
    }

    /// Every file `host` considered, then the rule files other tools read here that it
    /// does not, each with the reason.
    fn all_files(&self, host: Host) -> (HostView, Vec<HostFile>) {
        let view = self.view(host);
        let other_hosts: Vec<Host> = rulebook::tools()
            .iter()
            .copied()
            .filter(|&other| other != host)
            .collect();
        let mut others: BTreeMap<PathBuf, Vec<Host>> = BTreeMap::new();
        for other in self.views(&other_hosts) {
            for f in other.files {
                if !matches!(f.status, HostStatus::NotRead) {
                    others.entry(f.path).or_default().push(other.host);
                }
            }
        }
        // The files the view has, by a hash: a search of its list for each file of the
        // others would make a tree of many rule files quadratic.
        let own: std::collections::HashSet<&Path> =
            view.files.iter().map(|f| f.path.as_path()).collect();
        let extra = others
            .into_iter()
            .filter(|(path, _)| !own.contains(path.as_path()))
            .map(|(path, readers)| HostFile {
                scope: if path.starts_with(self.home()) && !self.cwd().starts_with(self.home()) {
                    HostScope::User
                } else {
                    HostScope::Project
                },
                path,
                status: HostStatus::NotRead,
                reason: format!(
                    "{} does not read this file here (read by {})",
                    host.display_name(),
                    readers
                        .iter()
                        .map(|h| h.id())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                imported_by: None,
                outside: None,
            })
            .collect();
        (view, extra)
    }
}

fn heading(host: Host) -> String {
    match host.version() {
        Some(version) => format!(
            "{} {version} (verified against the real tool)",
            host.display_name()
        ),
        None => format!("{} (documented, not verified)", host.display_name()),
    }
}

fn cell(status: &HostStatus) -> String {
    match status {
        HostStatus::Cut { truncated_at } => format!("cut at byte {truncated_at}"),
        HostStatus::Scoped { globs, .. } => format!("scoped to {}", globs.join(", ")),
        other => other.label().to_string(),
    }
}

#[derive(Serialize)]
struct JsonFile<'a> {
    #[serde(serialize_with = "crate::json::path")]
    path: &'a Path,
    scope: HostScope,
    truncated_at: Option<usize>,
}

#[derive(Serialize)]
struct JsonHead<'a> {
    host: Host,
    tool: &'static str,
    version: Option<&'static str>,
    verified: bool,
    #[serde(serialize_with = "crate::json::path")]
    cwd: &'a Path,
}

impl<'a> JsonHead<'a> {
    fn new(host: Host, cwd: &'a Path) -> Self {
        Self {
            host,
            tool: host.display_name(),
            version: host.version(),
            verified: host.verified(),
            cwd,
        }
    }
}

/// A JSON document and its final newline. Every path in these documents is written as
/// text (lossily where it is not UTF-8), so serializing cannot fail; were it ever to, the
/// answer is still one valid JSON document that says why.
fn to_json<T: Serialize>(value: &T) -> String {
    match serde_json::to_string_pretty(value) {
        Ok(text) => text + "\n",
        Err(err) => format!(
            "{}\n",
            serde_json::json!({ "error": format!("cannot write JSON: {err}") })
        ),
    }
}

/// `list --as X`.
pub(crate) fn list(place: &Place<'_>, host: Host, json: bool) -> String {
    let view = place.view(host);
    if json {
        #[derive(Serialize)]
        struct List<'a> {
            #[serde(flatten)]
            head: JsonHead<'a>,
            files: Vec<JsonFile<'a>>,
            #[serde(skip_serializing_if = "<[_]>::is_empty")]
            skills: &'a [rulebook::HostSkill],
            notes: &'a [String],
        }
        let files = view
            .loaded()
            .map(|f| JsonFile {
                path: &f.path,
                scope: f.scope,
                truncated_at: match f.status {
                    HostStatus::Cut { truncated_at } => Some(truncated_at),
                    _ => None,
                },
            })
            .collect();
        return to_json(&List {
            head: JsonHead::new(host, place.cwd()),
            files,
            skills: &view.skills,
            notes: &view.notes,
        });
    }
    let mut out = String::new();
    let loaded: Vec<&HostFile> = view.loaded().collect();
    if loaded.is_empty() {
        out.push_str(&format!("{} loads no rule file here.\n", heading(host)));
    } else {
        out.push_str(&format!("{} loads, in this order:\n", heading(host)));
        let width = loaded
            .iter()
            .map(|f| escape(&place.show(&f.path)).chars().count())
            .max()
            .unwrap_or(0);
        for (i, f) in loaded.iter().enumerate() {
            let shown = escape(&place.show(&f.path)).into_owned();
            let scope = match f.scope {
                HostScope::User => "user",
                HostScope::Project => "project",
            };
            let cut = match f.status {
                HostStatus::Cut { truncated_at } => format!("  cut at byte {truncated_at}"),
                _ => String::new(),
            };
            out.push_str(&format!("{:>3}. {shown:<width$}  {scope}{cut}\n", i + 1));
        }
    }
    let later = view
        .files
        .iter()
        .filter(|f| matches!(f.status, HostStatus::Scoped { .. }))
        .count();
    if later > 0 {
        out.push_str(&format!(
            "{later} more when it touches files they cover (explain --as {host}).\n"
        ));
    }
    if !view.skills.is_empty() {
        out.push_str(&format!("{} lists these skills at start:\n", heading(host)));
        for skill in &view.skills {
            let how = match skill.status {
                rulebook::HostSkillStatus::Listed => String::new(),
                rulebook::HostSkillStatus::Shortened { from } => format!(
                    "  (description cut to {} of {from} characters by its budget)",
                    skill.description.chars().count()
                ),
                rulebook::HostSkillStatus::Omitted => {
                    "  (left out: its budget has no room)".to_owned()
                }
            };
            let outside = skill.outside.as_ref().map_or_else(String::new, |real| {
                format!(
                    "  (a link: its real path {} is outside the project)",
                    escape(&place.show(real))
                )
            });
            out.push_str(&format!(
                "  {}  {}{how}{outside}\n",
                escape(&skill.name),
                escape(&place.show(&skill.path))
            ));
        }
    }
    for note in &view.notes {
        out.push_str(&format!("note: {}\n", escape(note)));
    }
    out
}

/// `explain --as X`.
pub(crate) fn explain(place: &Place<'_>, host: Host, json: bool) -> String {
    let (view, extra) = place.all_files(host);
    let files: Vec<&HostFile> = view.files.iter().chain(&extra).collect();
    if json {
        #[derive(Serialize)]
        struct Explain<'a> {
            #[serde(flatten)]
            head: JsonHead<'a>,
            files: Vec<&'a HostFile>,
            notes: &'a [String],
        }
        return to_json(&Explain {
            head: JsonHead::new(host, place.cwd()),
            files,
            notes: &view.notes,
        });
    }
    let mut out = format!("{}\n", heading(host));
    if files.is_empty() {
        out.push_str("No rule file here is read by it (nor by any other tool rulebook knows).\n");
    }
    for f in files {
        out.push_str(&format!(
            "{:<16} {}\n                 {}\n",
            cell(&f.status),
            escape(&place.show(&f.path)),
            escape(&place.said(&f.reason))
        ));
    }
    for note in &view.notes {
        out.push_str(&format!("note: {}\n", escape(&place.said(note))));
    }
    out
}

/// `prompt --as X`.
pub(crate) fn prompt(place: &Place<'_>, host: Host, json: bool) -> String {
    let view = place.view(host);
    if json {
        #[derive(Serialize)]
        struct Prompt<'a> {
            #[serde(flatten)]
            head: JsonHead<'a>,
            text: &'a str,
            notes: &'a [String],
        }
        return to_json(&Prompt {
            head: JsonHead::new(host, place.cwd()),
            text: &view.prompt,
            notes: &view.notes,
        });
    }
    if view.prompt.is_empty() {
        String::new()
    } else {
        format!("{}\n", view.prompt)
    }
}

/// `match --as X PATH…`: the files X has in front of the model when it works on each path.
pub(crate) fn matches(place: &Place<'_>, host: Host, paths: &[PathBuf], json: bool) -> String {
    let view = place.view(host);
    let at_start: Vec<&HostFile> = view.loaded().collect();
    let per_path: Vec<(&PathBuf, Vec<&HostFile>)> = paths
        .iter()
        .map(|p| (p, view.touching(place.cwd(), p)))
        .collect();
    if json {
        #[derive(Serialize)]
        struct PathFiles<'a> {
            #[serde(serialize_with = "crate::json::path")]
            path: &'a Path,
            #[serde(serialize_with = "crate::json::paths")]
            touched: Vec<&'a Path>,
        }
        #[derive(Serialize)]
        struct Match<'a> {
            #[serde(flatten)]
            head: JsonHead<'a>,
            #[serde(serialize_with = "crate::json::paths")]
            at_start: Vec<&'a Path>,
            paths: Vec<PathFiles<'a>>,
        }
        return to_json(&Match {
            head: JsonHead::new(host, place.cwd()),
            at_start: at_start.iter().map(|f| f.path.as_path()).collect(),
            paths: per_path
                .iter()
                .map(|(p, files)| PathFiles {
                    path: p,
                    touched: files.iter().map(|f| f.path.as_path()).collect(),
                })
                .collect(),
        });
    }
    let mut out = format!("{}\n", heading(host));
    let start: Vec<String> = at_start
        .iter()
        .map(|f| escape(&place.show(&f.path)).into_owned())
        .collect();
    out.push_str(&format!(
        "at start: {}\n",
        if start.is_empty() {
            "nothing".to_string()
        } else {
            start.join(", ")
        }
    ));
    for (path, files) in per_path {
        let shown: Vec<String> = files
            .iter()
            .map(|f| escape(&place.show(&f.path)).into_owned())
            .collect();
        out.push_str(&format!(
            "{}: {}\n",
            escape(&path.display().to_string()),
            if shown.is_empty() {
                "nothing more".to_string()
            } else {
                format!("adds {}", shown.join(", "))
            }
        ));
    }
    out
}

/// `rulebook compare [FILE…]`: rows = rule files, columns = tools.
pub(crate) fn compare(
    place: &Place<'_>,
    hosts: &[Host],
    only: &[PathBuf],
    reasons: bool,
    json: bool,
    width: Option<usize>,
) -> String {
    // Without `--hosts`, the tools that look at a file or a skill here: the others are named
    // in one line, not given a column of dashes each.
    let chosen = !hosts.is_empty();
    let mut views: Vec<HostView> = if chosen {
        place.views(hosts)
    } else {
        place.views(rulebook::tools())
    };
    let mut nothing_here: Vec<Host> = Vec::new();
    if !chosen {
        views.retain(|v| {
            let here = !v.files.is_empty() || !v.skills.is_empty();
            if !here {
                nothing_here.push(v.host);
            }
            here
        });
    }
    let hosts: Vec<Host> = views.iter().map(|v| v.host).collect();
    // Each view's files by path (the first of a path, as a lookup in order finds it): one
    // pass per view, so a table of n files is built in linear time.
    let index: Vec<std::collections::HashMap<&Path, &rulebook::HostFile>> = views
        .iter()
        .map(|v| {
            v.files
                .iter()
                .rev()
                .map(|f| (f.path.as_path(), f))
                .collect()
        })
        .collect();
    let mut rows: Vec<PathBuf> = Vec::new();
    let mut seen: std::collections::HashSet<&Path> = std::collections::HashSet::new();
    for view in &views {
        for f in &view.files {
            if seen.insert(&f.path) {
                rows.push(f.path.clone());
            }
        }
    }
    if !only.is_empty() {
        let wanted: Vec<PathBuf> = only
            .iter()
            .map(|p| {
                if p.is_absolute() {
                    p.clone()
                } else {
                    place.cwd().join(p)
                }
            })
            .collect();
        rows.retain(|r| wanted.iter().any(|w| w == r));
    }
    rows.sort_by_cached_key(|p| place.show(p));
    let find = |view: usize, path: &Path| index[view].get(path).map(|f| (*f).clone());
    if json {
        #[derive(Serialize)]
        struct Cell {
            host: Host,
            #[serde(flatten)]
            status: HostStatus,
            reason: String,
        }
        #[derive(Serialize)]
        struct Row<'a> {
            #[serde(serialize_with = "crate::json::path")]
            path: &'a Path,
            tools: Vec<Cell>,
        }
        #[derive(Serialize)]
        struct SkillRow<'a> {
            #[serde(serialize_with = "crate::json::path")]
            path: &'a Path,
            name: &'a str,
            tools: Vec<SkillCell<'a>>,
        }
        #[derive(Serialize)]
        struct SkillCell<'a> {
            host: Host,
            #[serde(flatten)]
            status: Option<&'a rulebook::HostSkillStatus>,
        }
        #[derive(Serialize)]
        struct Budget {
            host: Host,
            total_bytes: usize,
            tokens: usize,
        }
        #[derive(Serialize)]
        struct Compare<'a> {
            #[serde(serialize_with = "crate::json::path")]
            cwd: &'a Path,
            hosts: Vec<Host>,
            verified: Vec<Host>,
            /// The tools that read nothing here (without `--hosts`): no column.
            #[serde(skip_serializing_if = "Vec::is_empty")]
            nothing_here: Vec<Host>,
            /// What each tool spends at start, as `rulebook budget` counts it.
            budget: Vec<Budget>,
            rows: Vec<Row<'a>>,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            skills: Vec<SkillRow<'a>>,
        }
        let rows = rows
            .iter()
            .map(|path| Row {
                path,
                tools: views
                    .iter()
                    .enumerate()
                    .map(|(i, v)| match find(i, path) {
                        Some(f) => Cell {
                            host: v.host,
                            status: f.status,
                            reason: f.reason,
                        },
                        None => Cell {
                            host: v.host,
                            status: HostStatus::NotRead,
                            reason: format!(
                                "{} does not read this file here",
                                v.host.display_name()
                            ),
                        },
                    })
                    .collect(),
            })
            .collect();
        let statuses = skill_statuses(&views);
        let skills = skill_rows(&views)
            .into_iter()
            .map(|(path, name)| SkillRow {
                path,
                name,
                tools: views
                    .iter()
                    .zip(&statuses)
                    .filter(|(v, _)| !v.skills.is_empty())
                    .map(|(v, statuses)| SkillCell {
                        host: v.host,
                        status: statuses.get(path).copied(),
                    })
                    .collect(),
            })
            .collect();
        let budget = views
            .iter()
            .map(|v| {
                let (rules, skills) = spent(v);
                Budget {
                    host: v.host,
                    total_bytes: rules + skills,
                    tokens: (rules + skills).div_ceil(4),
                }
            })
            .collect();
        return to_json(&Compare {
            cwd: place.cwd(),
            verified: hosts.iter().copied().filter(|h| h.verified()).collect(),
            nothing_here,
            budget,
            hosts,
            rows,
            skills,
        });
    }
    let skills = skills_table(place, &views);
    let quiet = if nothing_here.is_empty() {
        String::new()
    } else {
        let ids: Vec<&str> = nothing_here.iter().map(|h| h.id()).collect();
        format!(
            "Not shown, nothing of theirs here: {} (--hosts to choose the columns).\n",
            ids.join(", ")
        )
    };
    if rows.is_empty() {
        return format!("No tool reads a rule file here.\n{quiet}{skills}");
    }
    let short = |s: &HostStatus| match s {
        HostStatus::Loaded => "loaded",
        HostStatus::Cut { .. } => "cut",
        HostStatus::Scoped { .. } => "scoped",
        HostStatus::OnRequest => "on-request",
        HostStatus::NotRead => "-",
    };
    let names: Vec<String> = rows
        .iter()
        .map(|p| escape(&place.show(p)).into_owned())
        .collect();
    let first = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    // A column is as wide as its tool's id and mark, at least 10.
    let widths: Vec<usize> = hosts.iter().map(|h| (h.id().len() + 1).max(10)).collect();
    // Wider than the terminal: the tools in groups, a table each, every group as wide as
    // fits (one tool at least).
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    let mut used = first;
    for (i, w) in widths.iter().enumerate() {
        if i > start && width.is_some_and(|max| used + 2 + w > max) {
            groups.push(start..i);
            start = i;
            used = first;
        }
        used += 2 + w;
    }
    groups.push(start..widths.len());
    let mut why = String::new();
    if reasons {
        for (path, name) in rows.iter().zip(&names) {
            for (i, view) in views.iter().enumerate() {
                if let Some(f) = find(i, path) {
                    why.push_str(&format!(
                        "{name} [{}]: {}: {}\n",
                        view.host,
                        cell(&f.status),
                        escape(&place.said(&f.reason))
                    ));
                }
            }
        }
    }
    let mut out = String::new();
    for (g, group) in groups.iter().enumerate() {
        if g > 0 {
            out.push('\n');
        }
        out.push_str(&format!("{:<first$}", "file"));
        for (h, w) in hosts[group.clone()].iter().zip(&widths[group.clone()]) {
            let mark = if h.verified() { "" } else { "*" };
            let id = format!("{}{mark}", h.id());
            out.push_str(&format!("  {id:<w$}"));
        }
        out.push('\n');
        for (path, name) in rows.iter().zip(&names) {
            out.push_str(&format!("{name:<first$}"));
            for i in group.clone() {
                let w = widths[i];
                let label = find(i, path).map_or("-", |f| short(&f.status));
                out.push_str(&format!("  {label:<w$}"));
            }
            out.push('\n');
        }
        // What each tool spends at start (`rulebook budget`), under its column.
        out.push_str(&format!("{:<first$}", "~tokens at start"));
        for i in group.clone() {
            let (rules, skills) = spent(&views[i]);
            let w = widths[i];
            out.push_str(&format!("  {:<w$}", (rules + skills).div_ceil(4)));
        }
        out.push('\n');
    }
    // No padding at the ends of lines.
    let mut out: String = out.lines().fold(String::new(), |mut acc, l| {
        acc.push_str(l.trim_end());
        acc.push('\n');
        acc
    });
    if hosts.iter().any(|h| !h.verified()) {
        out.push_str("* documented, not verified (the tool cannot be run here); the others were checked against the real tool.\n");
    }
    out.push_str("loaded: at start; cut: at start, cut by the tool's budget; scoped: when a matching file is touched; on-request: by description or mention; -: not read.\n");
    out.push_str("~tokens at start: the rule text and skills catalog each tool loads at start, at 4 bytes a token (`rulebook budget` for the bytes).\n");
    out.push_str(&quiet);
    if reasons {
        out.push('\n');
        out.push_str(&why);
    } else {
        out.push_str("Why: add --reasons, or run `rulebook explain --as TOOL`.\n");
    }
    out.push_str(&skills);
    out
}

/// Every skill any view lists (its `SKILL.md` and name), each once, in the first view's
/// order.
/// Each view's skills' statuses by path (a path listed twice: its first), so that a table
/// of many skills looks each cell up by a hash, not by a search of the view's list.
fn skill_statuses(views: &[HostView]) -> Vec<SkillStatuses<'_>> {
    views
        .iter()
        .map(|v| {
            let mut statuses = SkillStatuses::with_capacity(v.skills.len());
            for skill in &v.skills {
                statuses
                    .entry(skill.path.as_path())
                    .or_insert(&skill.status);
            }
            statuses
        })
        .collect()
}

/// One view's skills' statuses by path ([`skill_statuses`]).
type SkillStatuses<'a> = std::collections::HashMap<&'a Path, &'a rulebook::HostSkillStatus>;

fn skill_rows(views: &[HostView]) -> Vec<(&Path, &str)> {
    let mut rows: Vec<(&Path, &str)> = Vec::new();
    let mut seen: std::collections::HashSet<&Path> = std::collections::HashSet::new();
    for view in views {
        for skill in &view.skills {
            if seen.insert(&skill.path) {
                rows.push((&skill.path, &skill.name));
            }
        }
    }
    rows
}

/// The skills table of `compare`: rows = skills, columns = the tools whose
/// skills are emulated, cell = listed / cut (its description shortened by the tool's
/// budget) / omitted (no room) / - (not listed). Empty when no tool lists a skill.
fn skills_table(place: &Place<'_>, views: &[HostView]) -> String {
    let rows = skill_rows(views);
    if rows.is_empty() {
        return String::new();
    }
    let statuses = skill_statuses(views);
    let tools: Vec<(&HostView, &SkillStatuses<'_>)> = views
        .iter()
        .zip(&statuses)
        .filter(|(v, _)| !v.skills.is_empty())
        .collect();
    let names: Vec<String> = rows
        .iter()
        .map(|(p, n)| format!("{} ({})", escape(n), escape(&place.show(p))))
        .collect();
    let first = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = format!("\n{:<first$}", "skill");
    for (v, _) in &tools {
        out.push_str(&format!("  {:<10}", v.host.id()));
    }
    trim_end(&mut out);
    out.push('\n');
    for ((path, _), name) in rows.iter().zip(&names) {
        out.push_str(&format!("{name:<first$}"));
        for (_, statuses) in &tools {
            let label = match statuses.get(path).copied() {
                Some(rulebook::HostSkillStatus::Listed) => "listed",
                Some(rulebook::HostSkillStatus::Shortened { .. }) => "cut",
                Some(rulebook::HostSkillStatus::Omitted) => "omitted",
                None => "-",
            };
            out.push_str(&format!("  {label:<10}"));
        }
        trim_end(&mut out);
        out.push('\n');
    }
    out.push_str("Skills of the tools whose skills are emulated; listed: in its catalog at start; cut: its description shortened by the tool's budget; omitted: no room left.\n");
    out
}

/// `text` without its trailing whitespace, cut in place: the table grows a row at a time,
/// and a trimmed copy of all of it for each row would make a table of many rows quadratic.
fn trim_end(text: &mut String) {
    let len = text.trim_end().len();
    text.truncate(len);
}

/// One tool's start, in bytes (`rulebook budget`).
#[derive(Serialize)]
struct Spend<'a> {
    host: Host,
    verified: bool,
    /// The rule text the tool puts in front of the model, in its wrapping.
    rules_bytes: usize,
    /// Its skills catalog: a `- NAME: DESCRIPTION` line a listed skill.
    skills_bytes: usize,
    total_bytes: usize,
    /// `total_bytes` at four bytes a token (Codex's own estimate), rounded up.
    tokens: usize,
    /// The files loaded at start, biggest first, with the bytes the tool takes of each.
    files: Vec<SpentFile<'a>>,
    /// Files loaded more than once (the same file through a link, or a copy): each group,
    /// and the bytes spent again on it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    duplicates: Vec<rulebook::HostDuplicate>,
}

/// A file loaded at start and the bytes a tool takes of it.
#[derive(Serialize)]
struct SpentFile<'a> {
    #[serde(serialize_with = "crate::json::path")]
    path: &'a Path,
    bytes: u64,
}

/// The bytes `view`'s tool spends at start: its rule text (in its wrapping) and its skills
/// catalog (a `- NAME: DESCRIPTION` line a listed skill).
fn spent(view: &HostView) -> (usize, usize) {
    let skills = view
        .skills
        .iter()
        .filter(|s| s.status != rulebook::HostSkillStatus::Omitted)
        .map(|s| format!("- {}: {}\n", s.name, s.description).len())
        .sum::<usize>();
    (view.prompt.len(), skills)
}

/// `rulebook budget`: what each tool spends at start.
pub(crate) fn budget(place: &Place<'_>, hosts: &[Host], json: bool) -> String {
    let hosts: Vec<Host> = if hosts.is_empty() {
        rulebook::tools().to_vec()
    } else {
        hosts.to_vec()
    };
    let views: Vec<HostView> = place.views(&hosts);
    let spends: Vec<Spend<'_>> = views
        .iter()
        .map(|view| {
            let (rules_bytes, skills_bytes) = spent(view);
            let mut files: Vec<SpentFile<'_>> = view
                .loaded()
                .map(|f| SpentFile {
                    path: f.path.as_path(),
                    bytes: HostView::bytes_taken(f),
                })
                .collect();
            let duplicates = view.duplicates();
            files.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.path.cmp(b.path)));
            let total_bytes = rules_bytes + skills_bytes;
            Spend {
                host: view.host,
                verified: view.host.verified(),
                rules_bytes,
                skills_bytes,
                total_bytes,
                tokens: total_bytes.div_ceil(4),
                files,
                duplicates,
            }
        })
        .collect();
    if json {
        return to_json(&spends);
    }
    // The widest tool id, with its mark.
    let w = spends
        .iter()
        .map(|s| s.host.id().len() + 1)
        .max()
        .unwrap_or(4)
        .max(10);
    let mut out = format!(
        "{:<w$}  {:>11}  {:>12}  {:>11}  {:>8}\n",
        "tool", "rules bytes", "skills bytes", "total bytes", "~tokens"
    );
    for s in &spends {
        let mark = if s.verified { "" } else { "*" };
        out.push_str(&format!(
            "{:<w$}  {:>11}  {:>12}  {:>11}  {:>8}\n",
            format!("{}{mark}", s.host.id()),
            s.rules_bytes,
            s.skills_bytes,
            s.total_bytes,
            s.tokens
        ));
    }
    let biggest: Vec<&Spend<'_>> = spends.iter().filter(|s| !s.files.is_empty()).collect();
    if !biggest.is_empty() {
        out.push_str("\nBiggest files at start:\n");
        for s in biggest {
            let top: Vec<String> = s
                .files
                .iter()
                .take(3)
                .map(|f| format!("{} ({} B)", escape(&place.show(f.path)), f.bytes))
                .collect();
            out.push_str(&format!("  {}: {}\n", s.host.id(), top.join(", ")));
        }
    }
    let twice: Vec<&Spend<'_>> = spends.iter().filter(|s| !s.duplicates.is_empty()).collect();
    if !twice.is_empty() {
        out.push_str("\nLoaded twice (the same text):\n");
        for s in twice {
            for d in &s.duplicates {
                let paths: Vec<String> = d
                    .paths
                    .iter()
                    .map(|p| escape(&place.show(p)).into_owned())
                    .collect();
                out.push_str(&format!(
                    "  {}: {} ({} B spent again)\n",
                    s.host.id(),
                    paths.join(" = "),
                    d.bytes_lost
                ));
            }
        }
    }
    if hosts.iter().any(|h| !h.verified()) {
        out.push_str("* documented, not verified (the tool cannot be run here).\n");
    }
    out.push_str("Tokens are estimated at 4 bytes a token (Codex's own estimate); the rule text is the tool's, in its wrapping; skills count a `- NAME: DESCRIPTION` line each (0 where the tool's skills are not emulated).\n");
    out
}
