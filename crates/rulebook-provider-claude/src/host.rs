//! Claude Code 2.1.332, as observed offline (a loopback recorder captured the memory block
//! of the first request; the `InstructionsLoaded` hook listed the files):
//! - `~/.claude/CLAUDE.md` (its imports after it), then `~/.claude/rules/**/*.md` without
//!   `paths:`;
//! - then every directory from the topmost ancestor of `cwd` (not `/`) down to `cwd`, past
//!   `.git`: `CLAUDE.md`, `.claude/CLAUDE.md` (each followed by its imports),
//!   unconditional `.claude/rules/**/*.md`, `CLAUDE.local.md`, then, only when no
//!   non-empty `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` exists in `cwd` or
//!   an ancestor, `AGENTS.md` and `.claude/AGENTS.md`;
//! - frontmatter removed from every file, block-level HTML comments removed (the whole
//!   lines), the text trimmed, blank files skipped;
//! - `@path` imports (after white space or at the start, outside code), relative to the
//!   importing file, four levels below the root file, each file once, a missing one
//!   silent; a project file's import must resolve under `cwd`;
//! - `paths:` rules and `CLAUDE.md` files below `cwd` load only when a file there is touched.
//!
//! Each file becomes `Contents of <path> (<kind>):\n\n<text>`, joined by blank lines. The
//! sentence Claude Code puts before them is its own prompt text and is not reproduced.
//! `.claude/rules` files come depth first in the order the file system lists each directory
//! (Claude Code does not sort them); the emulation reads them in the same order, so it
//! agrees with the tool on the same machine, and says so when a directory holds several.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rulebook_kit::host::{HostFile, HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

const MAX_IMPORT_DEPTH: usize = 4;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    User,
    Project,
    Local,
}

impl Kind {
    fn suffix(self) -> &'static str {
        match self {
            Kind::User => "user's private global instructions for all projects",
            Kind::Project => "project instructions, checked into the codebase",
            Kind::Local => "user's private project instructions, not checked in",
        }
    }
}

struct Loader<'a> {
    cwd: &'a Path,
    home: &'a Path,
    view: HostView,
    entries: Vec<String>,
    seen: HashSet<PathBuf>,
    /// Trimmed texts of the project files loaded, for AGENTS.md's duplicate check.
    project_texts: Vec<String>,
}

/// What Claude Code loads when started in `options.cwd()` (see the module docs).
pub fn emulate(options: &HostOptions) -> HostView {
    let cwd = options.cwd();
    let home = options.home();
    let mut loader = Loader {
        cwd,
        home,
        view: HostView::new(crate::TOOL),
        entries: Vec::new(),
        seen: HashSet::new(),
        project_texts: Vec::new(),
    };
    let user_dir = home.join(".claude");
    loader.memory(
        &user_dir.join("CLAUDE.md"),
        Kind::User,
        "your global CLAUDE.md",
    );
    loader.rules(&user_dir.join("rules"), Kind::User, home);

    // Directories from the topmost ancestor (not `/`) down to cwd.
    let dirs: Vec<PathBuf> = {
        let mut d: Vec<PathBuf> = cwd
            .ancestors()
            .filter(|a| a.parent().is_some())
            .map(Path::to_path_buf)
            .collect();
        d.reverse();
        d
    };
    let blocking = dirs.iter().rev().find_map(|d| {
        ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"]
            .iter()
            .map(|n| d.join(n))
            .find(|p| util::read_text(p).is_some_and(|t| !t.trim().is_empty()))
    });
    for dir in &dirs {
        loader.memory(
            &dir.join("CLAUDE.md"),
            Kind::Project,
            "a CLAUDE.md on the path from / to the working directory",
        );
        loader.memory(
            &dir.join(".claude/CLAUDE.md"),
            Kind::Project,
            "a .claude/CLAUDE.md on the path to the working directory",
        );
        loader.rules(&dir.join(".claude/rules"), Kind::Project, dir);
        loader.memory(
            &dir.join("CLAUDE.local.md"),
            Kind::Local,
            "a CLAUDE.local.md on the path to the working directory",
        );
        for name in ["AGENTS.md", ".claude/AGENTS.md"] {
            let path = dir.join(name);
            if !util::is_file(&path) {
                continue;
            }
            match &blocking {
                Some(claude) => loader.view.push(
                    path,
                    Scope::Project,
                    Status::NotRead,
                    format!(
                        "Claude Code reads AGENTS.md only when the project has no CLAUDE.md; this project has {}",
                        util::show(cwd, claude)
                    ),
                ),
                None => {
                    let duplicate = util::read_text(&path).is_some_and(|t| {
                        let t = clean(&t);
                        loader.project_texts.contains(&t)
                    });
                    if duplicate {
                        loader.view.push(path, Scope::Project, Status::NotRead, "its text is the same as a file already loaded");
                    } else {
                        loader.memory(&path, Kind::Project, "AGENTS.md is read because the project has no CLAUDE.md");
                    }
                }
            }
        }
    }

    // Below cwd: CLAUDE.md files wait until a file in their directory is touched.
    for name in ["CLAUDE.md", "CLAUDE.local.md"] {
        for dir in util::below(cwd, name) {
            let path = dir.join(name);
            if util::is_file(&path) {
                loader.view.push(
                    path,
                    Scope::Project,
                    Status::under(dir),
                    "below the working directory: Claude Code reads it when it touches a file there",
                );
            }
        }
    }

    let mut view = loader.view;
    view.prompt = loader.entries.join("\n\n");
    crate::listing::add_skills(&mut view, options);
    view
}

impl Loader<'_> {
    /// Loads one memory file and, right after it, its imports.
    fn memory(&mut self, path: &Path, kind: Kind, reason: &str) {
        self.load(path, kind, reason, None, 0);
    }

    fn load(&mut self, path: &Path, kind: Kind, reason: &str, parent: Option<&Path>, depth: usize) {
        if !util::is_file(path) {
            // An import of nothing: Claude Code leaves its `@path` in the text, as written.
            if let Some(by) = parent.filter(|_| !self.view.files.iter().any(|f| f.path == path)) {
                self.view.files.push(HostFile {
                    path: path.to_path_buf(),
                    scope: if kind == Kind::User { Scope::User } else { Scope::Project },
                    status: Status::NotRead,
                    reason: format!(
                        "{reason}, but there is no such file: Claude Code leaves the `@` mention in the text as written"
                    ),
                    imported_by: Some(by.to_path_buf()),
                    outside: None,
                });
            }
            return;
        }
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if !self.seen.insert(key) {
            return;
        }
        let scope = if kind == Kind::User {
            Scope::User
        } else {
            Scope::Project
        };
        let Some(raw) = util::read_text(path) else {
            self.view
                .push(path.to_path_buf(), scope, Status::NotRead, "unreadable");
            return;
        };
        let text = clean(&raw);
        if text.is_empty() {
            self.view.push(
                path.to_path_buf(),
                scope,
                Status::NotRead,
                "blank: Claude Code skips a file with no text",
            );
            return;
        }
        self.view.files.push(HostFile {
            path: path.to_path_buf(),
            scope,
            status: Status::Loaded,
            reason: reason.to_string(),
            imported_by: parent.map(Path::to_path_buf),
            outside: None,
        });
        self.entries.push(format!(
            "Contents of {} ({}):\n\n{text}",
            path.display(),
            kind.suffix()
        ));
        if kind != Kind::User {
            self.project_texts.push(text.clone());
        }
        if depth >= MAX_IMPORT_DEPTH {
            return;
        }
        let base = path.parent().unwrap_or(Path::new("/"));
        for target in imports(&text) {
            let resolved = if let Some(rest) = target.strip_prefix("~/") {
                self.home.join(rest)
            } else if target.starts_with('/') {
                PathBuf::from(&target)
            } else {
                base.join(&target)
            };
            let resolved = rulebook_kit::fs::normalize_lexically(&resolved);
            if kind != Kind::User && !resolved.starts_with(self.cwd) {
                if util::is_file(&resolved) {
                    self.view.files.push(HostFile {
                        path: resolved,
                        scope,
                        status: Status::NotRead,
                        reason: format!("imported by {}, but outside the working directory: Claude Code drops it unless external imports are approved", path.display()),
                        imported_by: Some(path.to_path_buf()),
                        outside: None,
                    });
                }
                continue;
            }
            let why = format!("imported by {}", path.display());
            self.load(&resolved, kind, &why, Some(path), depth + 1);
        }
    }

    /// `.claude/rules/**/*.md`: unconditional ones load, `paths:` ones wait.
    fn rules(&mut self, dir: &Path, kind: Kind, base: &Path) {
        let mut files = Vec::new();
        directory_order(dir, &mut files, &mut util::Visited::default());
        let mut unconditional = 0;
        for path in files {
            let Some(raw) = util::read_text(&path) else {
                continue;
            };
            let (fm, _) = util::frontmatter(&raw);
            match fm.get("paths") {
                Some(rulebook_kit::frontmatter::Value::List(items)) if items.is_empty() => {
                    unconditional += 1;
                    self.memory(&path, kind, "a rule with `paths: []` is unconditional");
                }
                Some(
                    value @ (rulebook_kit::frontmatter::Value::List(_)
                    | rulebook_kit::frontmatter::Value::String(_)),
                ) => {
                    let globs = util::strings(Some(value));
                    let scope = if kind == Kind::User {
                        Scope::User
                    } else {
                        Scope::Project
                    };
                    self.view.push(
                        path,
                        scope,
                        Status::Scoped {
                            base: base.to_path_buf(),
                            globs,
                        },
                        "a rule with `paths:` loads when Claude Code touches a matching file",
                    );
                }
                _ => {
                    unconditional += 1;
                    self.memory(&path, kind, "a rule without `paths:` loads at start");
                }
            }
        }
        if unconditional > 1 {
            self.view.notes.push(format!(
                "{} holds {unconditional} unconditional rules: Claude Code loads them in the order the file system lists them (not sorted; it differs between file systems and machines), and so does this emulation",
                dir.display()
            ));
        }
    }
}

/// `*.md` files under `dir`, depth first, each directory in the order the file system lists
/// it (observed: Claude Code does not sort).
/// A directory reached twice (a link loop) is read once.
fn directory_order(dir: &Path, out: &mut Vec<PathBuf>, seen: &mut util::Visited) {
    if !seen.first_visit(dir) {
        return;
    }
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in read.filter_map(Result::ok) {
        let path = entry.path();
        if util::is_dir(&path) {
            directory_order(&path, out, seen);
        } else if util::has_suffix(&path, ".md") && util::is_file(&path) {
            out.push(path);
        }
    }
}

/// The text Claude Code keeps of a file: frontmatter and block-level HTML comments removed,
/// trimmed.
fn clean(raw: &str) -> String {
    let body = strip_frontmatter(raw);
    strip_block_comments(body).trim().to_string()
}

fn strip_frontmatter(text: &str) -> &str {
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return text;
    };
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return &rest[offset + line.len()..];
        }
        offset += line.len();
    }
    text
}

/// Removes HTML comments that are blocks of their own (a line starting with `<!--`, through
/// the line holding `-->`), outside fenced code; an unclosed one is kept.
fn strip_block_comments(text: &str) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if let Some(open) = fence {
            if trimmed.starts_with(open) {
                fence = None;
            }
            out.push_str(line);
            i += 1;
            continue;
        }
        if indent < 4 && (trimmed.starts_with("```") || trimmed.starts_with("~~~")) {
            fence = Some(&trimmed[..3]);
            out.push_str(line);
            i += 1;
            continue;
        }
        if indent < 4 && trimmed.starts_with("<!--") {
            if let Some(end) = (i..lines.len()).find(|&j| {
                let from = if j == i { indent + 4 } else { 0 };
                lines[j].get(from..).is_some_and(|l| l.contains("-->"))
            }) {
                i = end + 1;
                continue;
            }
        }
        out.push_str(line);
        i += 1;
    }
    out
}

/// The `@path` imports of a text, as Claude Code recognizes them (the kit's one tokenizer).
fn imports(text: &str) -> Vec<String> {
    rulebook_kit::import_tokens(text, rulebook_kit::Dialect::Claude)
        .into_iter()
        .map(|t| t.path.to_string())
        .collect()
}

/// Claude Code as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Claude;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "claude",
    "Claude Code",
    "claude",
    "goldens recorded from Claude Code 2.1.332 run offline (a loopback recorder and the `InstructionsLoaded` hook, `cargo xtask oracle`)",
)
.verified("2.1.332")
.with_other_folders(&[
    (
        ".claude/commands",
        "Claude Code's custom commands (`/NAME`), which Claude Code lists at start with its skills (`--as claude skills` shows them), neither rules nor skills,",
    ),
    (".claude/agents", "Claude Code's subagents, neither rules nor skills,"),
]);

impl Tool for Claude {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }

    /// `paths:` forms earlier Claude Code versions are known to ignore, each with the
    /// report that shows it: Claude Code 2.1.332 reads them all.
    fn lints(&self, rules: &[&rulebook_kit::Rule]) -> Vec<rulebook_kit::Diagnostic> {
        path_lints(rules)
    }
}

/// The findings of [`Claude::lints`]: one a rule of this provider whose `paths:` is written
/// in a form an earlier version skipped, at the line of the key.
fn path_lints(rules: &[&rulebook_kit::Rule]) -> Vec<rulebook_kit::Diagnostic> {
    use rulebook_kit::frontmatter::Value;
    use rulebook_kit::{Diagnostic, DiagnosticCode};
    let mut out = Vec::new();
    for rule in rules {
        if rule.source.provider != "claude" || rule.frontmatter.get("paths").is_none() {
            continue;
        }
        // The first MiB at most, whatever the file has become since discovery.
        let text = rulebook_kit::fs::read_prefix(&rule.path, rulebook_kit::DEFAULT_MAX_FILE_SIZE)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let line = rulebook_kit::coerce::key_line(&text, "paths");
        let written = line
            .and_then(|l| text.lines().nth(l - 1))
            .unwrap_or_default()
            .trim_start_matches("paths:")
            .trim();
        let why = match rule.frontmatter.get("paths") {
            Some(Value::List(_)) => Some(
                "Claude Code before 2.1.84 never matched a `paths:` written as a YAML list, so such a rule never loaded (anthropics/claude-code#16853; \"now accepts a YAML list of globs\" in its 2.1.84 changelog)",
            ),
            Some(Value::String(_)) if written.starts_with(['"', '\'']) => Some(
                "Claude Code 2.1 before 2.1.84 was reported to skip a quoted `paths:` string while it read the same glob unquoted (anthropics/claude-code#17204)",
            ),
            Some(Value::String(_)) => Some(
                "Claude Code 2.0 and early 2.1 were reported to ignore a `paths:` string and read only a YAML list (anthropics/claude-code#16038)",
            ),
            _ => None,
        };
        if let Some(why) = why {
            out.push(
                Diagnostic::new(
                    DiagnosticCode::ToolsDiffer,
                    format!("{why}; Claude Code 2.1.332, which the emulation follows, reads this rule as written"),
                )
                .with_path(&rule.path)
                .at(line, line.map(|_| 1))
                .from_provider(rule.source.provider.clone(), rule.source.provider_name.clone()),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_comments_go_with_their_lines_inline_ones_stay() {
        let text = "a\nkeep<!-- x -->this\n<!--\nblock\n-->\n  <!-- one -->\nb\n```\n<!-- code -->\n```\n<!-- open\nc\n";
        assert_eq!(
            strip_block_comments(text),
            "a\nkeep<!-- x -->this\nb\n```\n<!-- code -->\n```\n<!-- open\nc\n"
        );
    }

    /// A block-level comment is a Markdown HTML block, which may be indented by up to three
    /// spaces; four make the line indented code (the `CommonMark` spec, 4.4 and 4.6), which is
    /// kept, and a fence indented by four is no fence, so a comment after it is still a block.
    #[test]
    fn four_spaces_of_indent_make_code_not_a_comment_or_a_fence() {
        assert_eq!(strip_block_comments("a\n  <!-- -->\nb\n"), "a\nb\n");
        assert_eq!(
            strip_block_comments("a\n    <!-- code -->\nb\n"),
            "a\n    <!-- code -->\nb\n"
        );
        assert_eq!(
            strip_block_comments("    ```\n<!-- gone -->\nb\n"),
            "    ```\nb\n"
        );
    }

    #[test]
    fn frontmatter_is_removed() {
        assert_eq!(clean("---\npaths: x\n---\nbody\n"), "body");
        assert_eq!(clean("no frontmatter\n---\n"), "no frontmatter\n---");
    }
}
