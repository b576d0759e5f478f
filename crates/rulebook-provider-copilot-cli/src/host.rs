//! GitHub Copilot CLI 1.0.102 as it loads its instructions and lists its skills
//! (`--as copilot-cli`), verified against the real tool run offline (`xtask/oracle/copilot-cli`:
//! `copilot -p` in its documented offline mode, a loopback recorder for the model endpoint,
//! and its own `instruction list` and `skill list`). Its loader is native code; what follows
//! is what the recorded runs show.
//!
//! - **Blocks**, each `<custom_instruction>\n<text>\n</custom_instruction>`, in this order:
//!   the user's `~/.copilot/copilot-instructions.md`; the repository root's
//!   `.github/copilot-instructions.md`; the working directory's; the root's `AGENTS.md`,
//!   `CLAUDE.md`, `GEMINI.md` (any case of letters); the working directory's; then each
//!   directory between them, nearest first, its `.github/copilot-instructions.md` and its
//!   three names. Any `.git` marks the root (a worktree's `.git` file too, wherever it
//!   points); out of any repository the working directory is the root. Nothing above the
//!   root or below the working directory is read. A text already sent (a link to a file
//!   sent, a copy) is not sent again.
//! - **Imports**: in `AGENTS.md` and `CLAUDE.md` (not `GEMINI.md`, not
//!   `copilot-instructions.md`), an `@path` that starts a word (outside code fences and
//!   inline code; inside HTML comments too), relative to the importing file, is followed
//!   by `\n\n<imported_custom_instruction source="<path>">\n<text>\n</imported_custom_instruction>`;
//!   trailing `.`, `,`, `;`, `:`, `!`, `?` stay after it. Eight levels deep; each file
//!   once per block (again: `<imported_custom_instruction source="<path>" skipped="already-loaded" />`);
//!   an absolute path, `~/`, a path out of the root and a missing file stay as written.
//! - **Always-on instruction files**, after the blocks, each as written (frontmatter kept)
//!   and followed by a blank line: the user's `~/.copilot/instructions/**/*.instructions.md`,
//!   then the root's `.github/instructions/**/*.instructions.md` and `.claude/rules/**/*.md`,
//!   then the working directory's, each folder in path order. A file is always on when its
//!   `applyTo` (or a Claude rule's `paths`) is missing or one of `**`, `**/*`, `*`;
//!   `excludeAgent: coding-agent` drops it.
//! - **Path-scoped files** are rows of a table the model reads them from
//!   (`| patterns | 'path' | description |`): the user's by absolute path, the project's
//!   relative to the directory they were found in. A frontmatter YAML cannot read is read a
//!   line at a time.
//! - **Skills**: `SKILL.md` below `.github/skills`, then `.agents/skills`, then
//!   `.claude/skills`, each in the working directory, the directories between (nearest
//!   first) and the root; then `~/.copilot/skills` and `~/.agents/skills`. The first of a
//!   name wins; a `SKILL.md` without frontmatter or whose YAML fails is not loaded; the name
//!   is the folder's when missing, the description the body's first line. The list is
//!   sorted by name within each run of skills of one source (the working directory's, the
//!   other project directories', each user folder); `disable-model-invocation: true` keeps
//!   a skill out of it.
//!
//! Not emulated: `COPILOT_CUSTOM_INSTRUCTIONS_DIRS`, the tool's built-in skills.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rulebook_kit::fs::normalize_lexically as normalize;

use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::{
    HostFile, HostOptions, HostSkill, HostView, Scope, SkillStatus, Status, Tool, ToolInfo, util,
};

/// The context files of each directory, in the tool's order (matched in any case).
pub const NAMES: [&str; 3] = ["AGENTS.md", "CLAUDE.md", "GEMINI.md"];

/// How deep imports go.
pub const MAX_IMPORT_DEPTH: usize = 8;

/// The text before the table of path-scoped files, as the tool sends it.
pub const TABLE_HEADER: &str =
    "Here is a list of instruction files that contain rules for modifying or creating new code.
These files are important for ensuring that the code is modified or created correctly.
Please make sure to follow the rules specified in these files when working with the codebase.
If you have not already read the file, use the `view` tool to acquire it.
Make sure to acquire the instructions before making any changes to the code.
| Pattern | File Path | Description |
| ------- | --------- | ----------- |";

/// What GitHub Copilot CLI loads when started in `options.cwd()` (see the module docs).
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = HostView::new(crate::TOOL);
    let (cwd, home) = (options.cwd(), options.home());
    // Any `.git` marks the root, a worktree's `.git` file too, wherever it points.
    let root = options.git_root().unwrap_or(cwd).to_path_buf();
    let between: Vec<PathBuf> = {
        let mut dirs = util::chain(&root, cwd);
        dirs.retain(|d| d != &root && d != cwd);
        dirs.reverse();
        dirs
    };
    let mut blocks: Vec<String> = Vec::new();
    let mut texts: HashSet<String> = HashSet::new();
    let mut block = |view: &mut HostView, path: PathBuf, scope: Scope, reason: &str| {
        if let Some(text) = one_block(view, &mut texts, &path, scope, reason, &root) {
            blocks.push(text);
        }
    };
    let copilot_instructions = |dir: &Path| dir.join(".github/copilot-instructions.md");
    block(
        &mut view,
        home.join(".copilot/copilot-instructions.md"),
        Scope::User,
        "the user's ~/.copilot/copilot-instructions.md, first",
    );
    block(
        &mut view,
        copilot_instructions(&root),
        Scope::Project,
        "the repository root's .github/copilot-instructions.md",
    );
    if cwd != root {
        block(
            &mut view,
            copilot_instructions(cwd),
            Scope::Project,
            "the working directory's .github/copilot-instructions.md, after the root's",
        );
    }
    for path in context_files(&root) {
        block(
            &mut view,
            path,
            Scope::Project,
            "a context file of the repository root, read first",
        );
    }
    if cwd != root {
        for path in context_files(cwd) {
            block(
                &mut view,
                path,
                Scope::Project,
                "a context file of the working directory, after the root's",
            );
        }
    }
    for dir in &between {
        block(
            &mut view,
            copilot_instructions(dir),
            Scope::Project,
            "a directory between the root and the working directory (nearest first), after both",
        );
        for path in context_files(dir) {
            block(
                &mut view,
                path,
                Scope::Project,
                "a context file of a directory between the root and the working directory (nearest first), after both",
            );
        }
    }
    let mut text = blocks.join("\n\n");
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    let mut rows: Vec<String> = Vec::new();
    let mut folders: Vec<(PathBuf, &Path, Scope, Kind)> = vec![(
        home.join(".copilot/instructions"),
        home,
        Scope::User,
        Kind::Instructions,
    )];
    let mut project = vec![root.as_path()];
    if cwd != root {
        project.push(cwd);
    }
    for dir in project {
        folders.push((
            dir.join(".github/instructions"),
            dir,
            Scope::Project,
            Kind::Instructions,
        ));
        folders.push((
            dir.join(".claude/rules"),
            dir,
            Scope::Project,
            Kind::ClaudeRules,
        ));
    }
    for (folder, base, scope, kind) in folders {
        for path in instruction_files(&folder, kind) {
            instruction_file(&mut view, &mut text, &mut rows, path, base, scope, kind);
        }
    }
    if !rows.is_empty() {
        text.push_str(TABLE_HEADER);
        for row in rows {
            text.push('\n');
            text.push_str(&row);
        }
    }
    text.trim_matches('\n').clone_into(&mut view.prompt);
    add_skills(&mut view, options, &root, &between);
    view
}

/// The entries of `dir` named like [`NAMES`] in any case, in the tool's order (names in
/// that order; spellings of one name in byte order).
fn context_files(dir: &Path) -> Vec<PathBuf> {
    let entries = util::entries(dir);
    NAMES
        .iter()
        .flat_map(|name| {
            let mut found: Vec<PathBuf> = entries
                .iter()
                .filter(|p| util::name(p).eq_ignore_ascii_case(name) && util::is_file(p))
                .cloned()
                .collect();
            found.sort();
            found
        })
        .collect()
}

/// One file as a block (its imports expanded where the tool expands them); `None` when
/// it is not there, or when a file of the same text was sent already (the tool sends
/// that text once: a link and its target, or two copies).
fn one_block(
    view: &mut HostView,
    texts: &mut HashSet<String>,
    path: &Path,
    scope: Scope,
    reason: &str,
    root: &Path,
) -> Option<String> {
    if !util::is_file(path) {
        return None;
    }
    let Some(text) = util::read_text(path) else {
        view.push(
            path.to_path_buf(),
            scope,
            Status::NotRead,
            format!("{reason}; not readable as text"),
        );
        return None;
    };
    if !texts.insert(text.clone()) {
        view.push(
            path.to_path_buf(),
            scope,
            Status::NotRead,
            format!("{reason}; its text is that of a file sent before, which the tool sends once"),
        );
        return None;
    }
    let name = util::name(path);
    let imports = ["AGENTS.md", "CLAUDE.md"]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n));
    let body = if imports {
        let mut seen = HashSet::from([normalize(path)]);
        let mut imported = Vec::new();
        let body = expand(&text, path, root, 0, &mut seen, &mut imported);
        let status = status_of(&text);
        view.push(path.to_path_buf(), scope, status, reason);
        for file in imported {
            view.files.push(file);
        }
        body
    } else {
        view.push(path.to_path_buf(), scope, status_of(&text), reason);
        text
    };
    Some(format!(
        "<custom_instruction>\n{body}\n</custom_instruction>"
    ))
}

/// A blank file is sent as an empty block: it is in the prompt, but holds nothing.
fn status_of(text: &str) -> Status {
    if text.trim().is_empty() {
        Status::NotRead
    } else {
        Status::Loaded
    }
}

/// `text` (of `file`, `depth` imports down) with each `@path` import followed by the
/// imported text (see the module docs); the files brought in are pushed to `imported`.
fn expand(
    text: &str,
    file: &Path,
    root: &Path,
    depth: usize,
    seen: &mut HashSet<PathBuf>,
    imported: &mut Vec<HostFile>,
) -> String {
    let dir = file.parent().unwrap_or(Path::new(""));
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => {
                fence = Some(m);
                out.push_str(line);
                continue;
            }
            (Some(open), Some(m)) if open == m => {
                fence = None;
                out.push_str(line);
                continue;
            }
            (Some(_), _) => {
                out.push_str(line);
                continue;
            }
            (None, None) => {}
        }
        let mut in_code = false;
        let mut last = 0;
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'`' => in_code = !in_code,
                b'@' if !in_code && (i == 0 || bytes[i - 1].is_ascii_whitespace()) => {
                    let end = line[i..]
                        .find(|c: char| c.is_whitespace())
                        .map_or(line.len(), |n| i + n);
                    let token = line[i + 1..end].trim_end_matches(['.', ',', ';', ':', '!', '?']);
                    let after = i + 1 + token.len();
                    if let Some(insert) = import(token, dir, root, depth, seen, imported, file) {
                        out.push_str(&line[last..after]);
                        out.push_str(&insert);
                        last = after;
                    }
                    i = end;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        out.push_str(&line[last..]);
    }
    out
}

/// What follows one `@token`, or `None` when the tool leaves it as written.
fn import(
    token: &str,
    dir: &Path,
    root: &Path,
    depth: usize,
    seen: &mut HashSet<PathBuf>,
    imported: &mut Vec<HostFile>,
    importer: &Path,
) -> Option<String> {
    if token.is_empty()
        || token.starts_with('/')
        || token.starts_with('~')
        || depth >= MAX_IMPORT_DEPTH
    {
        return None;
    }
    let path = normalize(&dir.join(token));
    if !path.starts_with(root) || !util::is_file(&path) {
        return None;
    }
    let source = path.display();
    if !seen.insert(path.clone()) {
        return Some(format!(
            "\n\n<imported_custom_instruction source=\"{source}\" skipped=\"already-loaded\" />"
        ));
    }
    let text = util::read_text(&path)?;
    imported.push(HostFile {
        path: path.clone(),
        scope: Scope::Project,
        status: Status::Loaded,
        reason: format!("imported by {}", util::name(importer)),
        imported_by: Some(importer.to_path_buf()),
        outside: None,
    });
    let mut body = expand(&text, &path, root, depth + 1, seen, imported);
    if !body.ends_with('\n') {
        body.push('\n');
    }
    Some(format!(
        "\n\n<imported_custom_instruction source=\"{source}\">\n{body}</imported_custom_instruction>"
    ))
}

/// The two kinds of instruction folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `*.instructions.md`, scoped by `applyTo`.
    Instructions,
    /// `.claude/rules/*.md`, scoped by `paths` (or `applyTo`).
    ClaudeRules,
}

/// The files of an instruction folder, at any depth (hidden folders too), in path order.
fn instruction_files(folder: &Path, kind: Kind) -> Vec<PathBuf> {
    let suffix = match kind {
        Kind::Instructions => ".instructions.md",
        Kind::ClaudeRules => ".md",
    };
    util::find_with_suffix(folder, suffix, true, util::MAX_DIRS)
}

/// One instruction file: sent as written, a row of the table, or dropped.
#[allow(clippy::too_many_arguments, reason = "one file's place, passed whole")]
fn instruction_file(
    view: &mut HostView,
    text: &mut String,
    rows: &mut Vec<String>,
    path: PathBuf,
    base: &Path,
    scope: Scope,
    kind: Kind,
) {
    let Some(content) = util::read_text(&path) else {
        view.push(path, scope, Status::NotRead, "not readable as text");
        return;
    };
    let field = |key: &str| field(&content, key);
    if field("excludeAgent").iter().any(|a| a == "coding-agent") {
        view.push(
            path,
            scope,
            Status::NotRead,
            "excludeAgent: coding-agent, the agent the CLI is",
        );
        return;
    }
    let mut patterns = field("applyTo");
    if patterns.is_empty() && kind == Kind::ClaudeRules {
        patterns = field("paths");
    }
    let always = match patterns.as_slice() {
        [] => true,
        [one] => matches!(one.as_str(), "**" | "**/*" | "*"),
        _ => false,
    };
    let what = match kind {
        Kind::Instructions => "applyTo",
        Kind::ClaudeRules => "paths",
    };
    if always {
        text.push_str(&content);
        text.push_str("\n\n");
        let reason = if patterns.is_empty() {
            format!("no {what}: always on, sent as written after the blocks")
        } else {
            format!(
                "{what}: {} matches every file: always on, sent as written after the blocks",
                patterns.join(", ")
            )
        };
        view.push(path, scope, status_of(&content), reason);
        return;
    }
    // The user's by absolute path; the project's relative to where they were found.
    let shown = match scope {
        Scope::User => path.display().to_string(),
        Scope::Project => path
            .strip_prefix(base)
            .unwrap_or(&path)
            .display()
            .to_string(),
    };
    let description = field("description").join(", ");
    rows.push(format!(
        "| {} | '{shown}' | {description} |",
        patterns.join(", ")
    ));
    view.push(
        path,
        scope,
        Status::Scoped {
            base: base.to_path_buf(),
            globs: patterns,
        },
        "a row of the table of path-scoped files: the model reads it before it works on a matching file",
    );
}

/// A frontmatter field as the tool reads it: a string split at commas, or a list's strings;
/// a frontmatter YAML cannot read is read a line at a time (its values as written).
fn field(text: &str, key: &str) -> Vec<String> {
    use rulebook_kit::frontmatter::{ParseOptions, parse_frontmatter};
    let parsed = parse_frontmatter(text, &ParseOptions::new());
    match parsed.frontmatter.get(key) {
        Some(Value::String(s)) => s
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect(),
        Some(Value::List(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// Where a skill comes from, as the tool groups its list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The working directory's folders.
    Cwd,
    /// The other project directories' (the root and those between).
    Inherited,
    /// `~/.copilot/skills`.
    UserCopilot,
    /// `~/.agents/skills`.
    UserAgents,
}

/// The skills the CLI lists at start (see the module docs).
fn add_skills(view: &mut HostView, options: &HostOptions, root: &Path, between: &[PathBuf]) {
    let (cwd, home) = (options.cwd(), options.home());
    let mut dirs: Vec<(&Path, Source)> = vec![(cwd, Source::Cwd)];
    for dir in between {
        dirs.push((dir, Source::Inherited));
    }
    if root != cwd {
        dirs.push((root, Source::Inherited));
    }
    let mut folders: Vec<(PathBuf, Source, Scope)> = Vec::new();
    for kind in [".github", ".agents", ".claude"] {
        for (dir, source) in &dirs {
            folders.push((dir.join(kind).join("skills"), *source, Scope::Project));
        }
    }
    folders.push((
        home.join(".copilot/skills"),
        Source::UserCopilot,
        Scope::User,
    ));
    folders.push((home.join(".agents/skills"), Source::UserAgents, Scope::User));
    let mut names = HashSet::new();
    let mut found: Vec<(Source, HostSkill)> = Vec::new();
    for (folder, source, scope) in folders {
        for path in util::find_all(&folder, "SKILL.md", true, util::MAX_DIRS) {
            let Some(text) = util::read_text(&path) else {
                continue;
            };
            let folder_name = path.parent().map(util::name).unwrap_or_default();
            let Some((name, description, listed)) = read_skill(&text, &folder_name) else {
                continue;
            };
            if !names.insert(name.clone()) || !listed {
                continue;
            }
            found.push((
                source,
                HostSkill {
                    name,
                    description,
                    path,
                    scope,
                    status: SkillStatus::Listed,
                    outside: None,
                },
            ));
        }
    }
    // Sorted by name within each run of one source.
    let mut skills = Vec::with_capacity(found.len());
    let mut start = 0;
    while start < found.len() {
        let source = found[start].0;
        let end = found[start..]
            .iter()
            .position(|(s, _)| *s != source)
            .map_or(found.len(), |n| start + n);
        let mut run: Vec<HostSkill> = found[start..end].iter().map(|(_, s)| s.clone()).collect();
        run.sort_by(|a, b| a.name.cmp(&b.name));
        skills.extend(run);
        start = end;
    }
    view.skills = skills;
}

/// A skill's name, description and whether the list shows it; `None` when the tool does
/// not load it (no frontmatter, YAML that fails).
fn read_skill(text: &str, folder: &str) -> Option<(String, String, bool)> {
    use rulebook_kit::frontmatter::{Outcome, ParseOptions, parse_frontmatter};
    let parsed = parse_frontmatter(text, &ParseOptions::new());
    if parsed.outcome != Outcome::Parsed {
        return None;
    }
    let map = parsed.frontmatter;
    let name = map
        .get("name")
        .and_then(Value::as_str)
        .map_or_else(|| folder.to_owned(), str::to_owned);
    let description = map.get("description").and_then(Value::as_str).map_or_else(
        || {
            parsed
                .body
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or_default()
                .to_owned()
        },
        str::to_owned,
    );
    let listed = !matches!(map.get("disable-model-invocation"), Some(Value::Bool(true)));
    Some((name, description, listed))
}

/// GitHub Copilot CLI as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct CopilotCli;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "copilot-cli",
    "GitHub Copilot CLI",
    "copilot-cli",
    "goldens recorded from GitHub Copilot CLI 1.0.102 run offline in its documented offline mode against a loopback recorder (`xtask/oracle/copilot-cli`), with its own instruction and skill lists",
)
.verified("1.0.102")
.lists_found_files_only()
.with_other_folders(&[
    (".github/prompts", "GitHub Copilot's prompt files, neither rules nor skills,"),
    (".github/agents", "GitHub Copilot's custom agents, neither rules nor skills,"),
]);

impl Tool for CopilotCli {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
