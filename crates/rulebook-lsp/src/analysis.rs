//! The answers: what the server says of one buffer, from a [`Snapshot`] of the project (the
//! rules as discovered with the open buffers' text, `check`'s findings, the tools' views)
//! and the buffer's text. No protocol I/O here: each answer is a function of its inputs.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use lsp_types::{
    CodeAction, CodeActionKind, CodeDescription, CompletionItem, CompletionItemKind,
    DiagnosticRelatedInformation, DiagnosticSeverity, Documentation, Hover, HoverContents,
    Location, MarkupContent, MarkupKind, NumberOrString, Position, Range, TextEdit, Url,
    WorkspaceEdit,
};
use rulebook::stages::fs::normalize_lexically;
use rulebook::stages::kit::{Dialect, import_tokens};
use rulebook::{
    Diagnostic as Finding, DiagnosticCode, Fate, Host, HostFile, HostOptions, HostStatus, HostView,
    Rule, Rulebook, Severity,
};
use rulebook_check::{CheckOptions, Report};

use crate::text::{Lines, frontmatter_lines};

/// Where each code is documented: its variant of `DiagnosticCode` on docs.rs.
const CODE_DOCS: &str =
    "https://docs.rs/rulebook-rule/latest/rulebook_rule/enum.DiagnosticCode.html";

/// The most project files a glob's hover counts (a hover must answer at once).
pub const MAX_COUNTED_FILES: usize = 200_000;

/// Bytes a token, as `rulebook budget` estimates it.
const BYTES_PER_TOKEN: u64 = 4;

/// The frontmatter keys whose values are globs, in the formats the tools read.
const GLOB_KEYS: &[&str] = &["globs", "paths", "applyTo", "fileMatchPattern", "glob"];

/// The codes whose findings on a file its own text decides (its YAML, keys, globs,
/// conditions, body, a skill's name and description), so that a change to a buffer can be
/// checked apart from the project; every other code involves other files (shadowing,
/// imports, what the tools load, the project's directories) and is kept from the last
/// discovery of the whole project.
pub const OWN_CODES: &[DiagnosticCode] = &[
    DiagnosticCode::InvalidUtf8,
    DiagnosticCode::TooLarge,
    DiagnosticCode::YamlSyntax,
    DiagnosticCode::YamlRecovered,
    DiagnosticCode::NotAMap,
    DiagnosticCode::WrongType,
    DiagnosticCode::InvalidGlob,
    DiagnosticCode::UnknownKey,
    DiagnosticCode::InvalidItem,
    DiagnosticCode::InvalidTrigger,
    DiagnosticCode::NoBucket,
    DiagnosticCode::IneffectiveKey,
    DiagnosticCode::SkillName,
    DiagnosticCode::SkillDescription,
    DiagnosticCode::GlobMatchesNothing,
    DiagnosticCode::ToolsOwnForm,
    DiagnosticCode::TurnedOff,
];

/// The lexical forms `path` is known by: as given, and its real path.
fn same_keys(path: &Path) -> Vec<PathBuf> {
    let mut keys = vec![normalize_lexically(path)];
    if let Ok(real) = std::fs::canonicalize(path) {
        if real != keys[0] {
            keys.push(real);
        }
    }
    keys
}

/// A path's real path, or its lexical form when it has none (a file not on disk).
fn real_or_lexical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| normalize_lexically(path))
}

/// The project as the server sees it at one moment.
pub struct Snapshot {
    book: Rulebook,
    findings: Vec<Finding>,
    /// Finding indices by the lexical form of their path.
    by_path: HashMap<PathBuf, Vec<usize>>,
    views: OnceLock<Vec<HostView>>,
    /// Each file the views name, by its real path: (view, file) positions.
    view_files: OnceLock<HashMap<PathBuf, Vec<(usize, usize)>>>,
}

impl Snapshot {
    /// Discovers the rules for `root` and checks them with `check`.
    pub fn take(
        root: &Path,
        home: Option<&Path>,
        options: &rulebook::Options,
        check: &CheckOptions,
    ) -> Self {
        let book = Rulebook::discover(root, home, options);
        let report = rulebook_check::check(&book, check);
        Self::new(book, report)
    }

    /// A snapshot of a discovered book and its check.
    pub fn new(book: Rulebook, report: Report) -> Self {
        let mut by_path: HashMap<PathBuf, Vec<usize>> = HashMap::new();
        for (i, finding) in report.findings.iter().enumerate() {
            if let Some(path) = &finding.path {
                by_path
                    .entry(normalize_lexically(path))
                    .or_default()
                    .push(i);
            }
        }
        Self {
            book,
            findings: report.findings,
            by_path,
            views: OnceLock::new(),
            view_files: OnceLock::new(),
        }
    }

    /// The rules discovered.
    pub fn book(&self) -> &Rulebook {
        &self.book
    }

    /// Every finding of the check.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// Replaces the findings of `code` with `kept` (a slower finding computed at another
    /// moment, kept while buffers change).
    pub(crate) fn replace_code(&mut self, code: DiagnosticCode, kept: &[Finding]) {
        self.findings.retain(|f| f.code != code);
        self.findings.extend(kept.iter().cloned());
        self.reindex();
    }

    /// Indexes the findings by path again.
    fn reindex(&mut self) {
        self.by_path.clear();
        for (i, finding) in self.findings.iter().enumerate() {
            if let Some(path) = &finding.path {
                self.by_path
                    .entry(normalize_lexically(path))
                    .or_default()
                    .push(i);
            }
        }
    }

    /// Replaces the findings on `path` that its own text decides ([`OWN_CODES`]) with
    /// `own`; the findings that involve other files stay as they were.
    pub(crate) fn replace_own(&mut self, path: &Path, own: Vec<Finding>) {
        let keys = same_keys(path);
        self.findings.retain(|f| {
            !(OWN_CODES.contains(&f.code)
                && f.path
                    .as_deref()
                    .is_some_and(|p| keys.contains(&normalize_lexically(p))))
        });
        self.findings.extend(own);
        self.reindex();
    }

    /// Whether a rule or a skill of this snapshot is the file at `path`.
    pub(crate) fn knows(&self, path: &Path) -> bool {
        let keys = same_keys(path);
        !self.rules_at(path).is_empty()
            || self
                .book
                .all_skills()
                .iter()
                .any(|s| keys.contains(&normalize_lexically(&s.item.path)))
    }

    /// The findings on the file at `path` that its own text `text` decides, computed
    /// apart from the project: the file alone at the same place of an otherwise empty copy
    /// of the project (and of the home directory), discovered and checked as the project
    /// is. `None` when the file is not under the project or the home directory, or when
    /// its copy is not read as the file is (the whole project must be discovered again).
    pub(crate) fn own_findings(
        &self,
        options: &rulebook::Options,
        check: &CheckOptions,
        path: &Path,
        text: &str,
    ) -> Option<Vec<Finding>> {
        let project = self.book.project();
        let top = project.top();
        let home = project.home();
        let mirror = tempfile::tempdir().ok()?;
        let (mirror_top, mirror_home) = (mirror.path().join("p"), mirror.path().join("h"));
        let path = normalize_lexically(path);
        let (real_base, copy_base) = if let Ok(rel) = path.strip_prefix(top) {
            (top.to_path_buf(), mirror_top.join(rel))
        } else if !home.as_os_str().is_empty() && path.starts_with(home) {
            (
                home.to_path_buf(),
                mirror_home.join(path.strip_prefix(home).ok()?),
            )
        } else {
            return None;
        };
        let copy = copy_base;
        let cwd = mirror_top.join(project.cwd().strip_prefix(top).ok()?);
        std::fs::create_dir_all(&cwd).ok()?;
        std::fs::create_dir_all(&mirror_home).ok()?;
        if project.git_root().is_some() {
            std::fs::create_dir_all(mirror_top.join(".git")).ok()?;
        }
        std::fs::create_dir_all(copy.parent()?).ok()?;
        std::fs::write(&copy, text).ok()?;
        let book = Rulebook::discover(&cwd, Some(&mirror_home), options);
        let read = book.all().iter().any(|e| e.item.path == copy)
            || book.all_skills().iter().any(|s| s.item.path == copy);
        if !read {
            return None;
        }
        let report = rulebook_check::check(&book, check);
        let copy_base = if real_base == top {
            &mirror_top
        } else {
            &mirror_home
        };
        let back = |p: &Path| -> PathBuf {
            p.strip_prefix(copy_base)
                .map_or_else(|_| p.to_path_buf(), |rel| real_base.join(rel))
        };
        let message_back = |m: &str| -> String {
            m.replace(
                &copy_base.display().to_string(),
                &real_base.display().to_string(),
            )
        };
        Some(
            report
                .findings
                .into_iter()
                .filter(|f| {
                    OWN_CODES.contains(&f.code) && f.path.as_deref() == Some(copy.as_path())
                })
                .map(|mut f| {
                    f.path = Some(path.clone());
                    f.message = message_back(&f.message);
                    for related in &mut f.related {
                        related.path = back(&related.path);
                    }
                    f
                })
                .collect(),
        )
    }

    /// What every tool loads here (computed once, on first use).
    pub fn views(&self) -> &[HostView] {
        self.views.get_or_init(|| {
            let options = HostOptions::for_project(self.book.project().clone());
            rulebook::emulate_all(rulebook::tools(), &options)
        })
    }

    /// The findings about `path` (by its lexical form, then its real path).
    pub fn findings_for(&self, path: &Path) -> Vec<&Finding> {
        let mut found: Vec<usize> = Vec::new();
        for key in &same_keys(path) {
            for &i in self.by_path.get(key).into_iter().flatten() {
                if !found.contains(&i) {
                    found.push(i);
                }
            }
        }
        found.into_iter().map(|i| &self.findings[i]).collect()
    }

    /// The rule files of the book at `path`, in precedence order.
    fn rules_at(&self, path: &Path) -> Vec<&Rule> {
        let keys = same_keys(path);
        self.book
            .all()
            .iter()
            .map(|e| &e.item)
            .filter(|r| keys.contains(&normalize_lexically(&r.path)))
            .collect()
    }

    /// The publishable diagnostics of the buffer at `path` holding `text`.
    pub fn diagnostics(&self, path: &Path, text: &str) -> Vec<lsp_types::Diagnostic> {
        let lines = Lines::new(text);
        self.findings_for(path)
            .into_iter()
            .map(|f| to_lsp(f, &lines))
            .collect()
    }

    /// The hover at `position` of the buffer at `path`: an import's resolution, a glob's
    /// count of project files, or (in the frontmatter or on the first line) which tools
    /// load the file and how.
    pub fn hover(&self, path: &Path, text: &str, position: Position) -> Option<Hover> {
        let lines = Lines::new(text);
        let offset = lines.offset(position);
        if let Some((token, target)) = self.import_at(path, text, offset) {
            let markdown = self.import_hover(path, token, &target);
            return Some(markdown_hover(
                markdown,
                Some(lines.range(token.0, token.1)),
            ));
        }
        if let Some((glob, range)) = glob_at(&lines, position) {
            let markdown = self.glob_hover(path, &glob);
            return Some(markdown_hover(markdown, Some(range)));
        }
        let head = frontmatter_lines(&lines).map_or(0, |f| f.end);
        if position.line as usize <= head {
            return Some(markdown_hover(self.file_hover(path), None));
        }
        None
    }

    /// Where the `@import`, `rule://NAME` or `skill://NAME` at `position` leads.
    pub fn definition(&self, path: &Path, text: &str, position: Position) -> Option<Location> {
        let lines = Lines::new(text);
        let offset = lines.offset(position);
        if let Some((_, target)) = self.import_at(path, text, offset) {
            return std::fs::metadata(&target)
                .ok()
                .filter(std::fs::Metadata::is_file)
                .and_then(|_| Url::from_file_path(&target).ok())
                .map(|uri| Location::new(uri, Range::default()));
        }
        let link = link_at(text, offset)?;
        let target = if let Some(name) = link.strip_prefix("skill://") {
            let name = name.split('/').next().unwrap_or(name);
            self.book
                .all_skills()
                .iter()
                .find(|s| s.item.name == name)
                .map(|s| s.item.path.clone())?
        } else {
            self.book.resolve(&link).ok()?.source_path
        };
        Url::from_file_path(target)
            .ok()
            .map(|uri| Location::new(uri, Range::default()))
    }

    /// The frontmatter keys (at a key's place) or values (after `key:`) the tools that
    /// read this file know, at `position`.
    pub fn completion(&self, path: &Path, text: &str, position: Position) -> Vec<CompletionItem> {
        let lines = Lines::new(text);
        let Some(head) = frontmatter_lines(&lines) else {
            return Vec::new();
        };
        let line = position.line as usize;
        if !head.contains(&line) {
            return Vec::new();
        }
        let written = lines.line(line);
        let cursor = lines.offset(position) - lines.start(line);
        let before = &written[..cursor.min(written.len())];
        if let Some((key, _)) = before.split_once(':') {
            let key = key.trim().trim_matches(['"', '\'']);
            return values_of(key)
                .iter()
                .map(|value| CompletionItem {
                    label: (*value).to_owned(),
                    kind: Some(CompletionItemKind::VALUE),
                    ..CompletionItem::default()
                })
                .collect();
        }
        if before.starts_with([' ', '\t', '-']) {
            return Vec::new();
        }
        let present: Vec<&str> = head
            .clone()
            .filter(|&i| i != line)
            .filter_map(|i| lines.line(i).split_once(':').map(|(k, _)| k.trim()))
            .collect();
        let mut items: Vec<CompletionItem> = Vec::new();
        for provider in self.providers_of(path) {
            for known in &provider.known_keys {
                if present.contains(&known.key) || items.iter().any(|i| i.label == known.key) {
                    continue;
                }
                items.push(CompletionItem {
                    label: known.key.to_owned(),
                    kind: Some(CompletionItemKind::PROPERTY),
                    detail: Some(provider.display_name.clone()),
                    documentation: Some(Documentation::String(known.meaning.to_owned())),
                    insert_text: Some(format!("{}: ", known.key)),
                    ..CompletionItem::default()
                });
            }
        }
        items
    }

    /// The providers whose rules are this file.
    fn providers_of(&self, path: &Path) -> Vec<&rulebook::ProviderInfo> {
        let ids: Vec<&str> = self
            .rules_at(path)
            .iter()
            .map(|r| r.source.provider.as_str())
            .collect();
        self.book
            .providers()
            .iter()
            .filter(|p| ids.contains(&p.id.as_str()))
            .collect()
    }

    /// Safe rewrites for the findings on `range` of the buffer at `path`: quote a glob YAML
    /// cannot read, write a one-string `paths` as a list, name a skill after its folder.
    pub fn code_actions(
        &self,
        uri: &Url,
        path: &Path,
        text: &str,
        range: Range,
    ) -> Vec<CodeAction> {
        let lines = Lines::new(text);
        let mut actions = Vec::new();
        for finding in self.findings_for(path) {
            let diagnostic = to_lsp(finding, &lines);
            if diagnostic.range.end.line < range.start.line
                || diagnostic.range.start.line > range.end.line
            {
                continue;
            }
            let Some((title, edits)) = fix(finding, path, &lines) else {
                continue;
            };
            actions.push(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(true),
                ..CodeAction::default()
            });
        }
        actions
    }

    /// Which tools load the file at `path` and how, from each tool's own view: one line per
    /// tool that reads it (or considered it), then the tools that never look at it.
    pub fn tool_lines(&self, path: &Path) -> Vec<(Host, Vec<&HostFile>)> {
        let views = self.views();
        let index = self.view_files.get_or_init(|| {
            let mut index: HashMap<PathBuf, Vec<(usize, usize)>> = HashMap::new();
            for (v, view) in views.iter().enumerate() {
                for (f, file) in view.files.iter().enumerate() {
                    index
                        .entry(real_or_lexical(&file.path))
                        .or_default()
                        .push((v, f));
                }
            }
            index
        });
        let here = index.get(&real_or_lexical(path));
        views
            .iter()
            .enumerate()
            .map(|(v, view)| {
                let files = here
                    .into_iter()
                    .flatten()
                    .filter(|&&(w, _)| w == v)
                    .map(|&(_, f)| &view.files[f])
                    .collect();
                (view.host, files)
            })
            .collect()
    }

    fn file_hover(&self, path: &Path) -> String {
        let mut out = String::new();
        let rules = self.rules_at(path);
        for file in self.book.files() {
            if !rules.iter().any(|r| std::ptr::eq(*r, file.rule)) {
                continue;
            }
            let fate = match file.fate {
                Fate::Active { placement, .. } => match (placement.bucket, &placement.reason) {
                    (Some(bucket), _) => format!("lands in `{}`", bucket.as_str()),
                    (None, Some(reason)) => format!("in no bucket: {reason}"),
                    (None, None) => "in no bucket".to_owned(),
                },
                Fate::Shadowed { by } | Fate::SameFile { by } => format!(
                    "shadowed by `{}`",
                    self.show(&self.book.all()[by].item.path)
                ),
                Fate::Invalid { reason } => format!("invalid: {reason}"),
            };
            let _ = writeln!(
                out,
                "**rulebook**: {} rule `{}` ({}), {fate}\n",
                file.rule.source.provider_name,
                file.rule.name,
                if file.rule.source.level == rulebook::Level::User {
                    "user"
                } else {
                    "project"
                },
            );
        }
        if rules.is_empty() {
            out.push_str("**rulebook**: no provider reads this file as a rule here.\n\n");
        }
        let mut never = Vec::new();
        for (host, files) in self.tool_lines(path) {
            if files.is_empty() {
                never.push(host.display_name());
                continue;
            }
            for file in files {
                let how = self.how(&file.status);
                let cost = if file.status.is_loaded() {
                    let bytes = HostView::bytes_taken(file);
                    format!(
                        " ({bytes} bytes as saved, ~{} tokens at start)",
                        bytes.div_ceil(BYTES_PER_TOKEN)
                    )
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "- **{}** ({}) {}: {how}{cost} — {}",
                    host.display_name(),
                    if host.verified() {
                        "verified"
                    } else {
                        "documented"
                    },
                    file.status.label(),
                    file.reason
                );
            }
        }
        if !never.is_empty() {
            let _ = writeln!(out, "\nNot read by: {}.", never.join(", "));
        }
        out
    }

    /// `path` as a person reads it: relative to the project, `~/…` under the home
    /// directory, or whole.
    fn show(&self, path: &Path) -> String {
        if let Ok(inside) = path.strip_prefix(self.book.cwd()) {
            let shown = inside.display().to_string();
            return if shown.is_empty() {
                ".".to_owned()
            } else {
                shown
            };
        }
        if let Ok(home) = path.strip_prefix(self.book.home()) {
            return format!("~/{}", home.display());
        }
        path.display().to_string()
    }

    fn how(&self, status: &HostStatus) -> String {
        how_with(status, |p| self.show(p))
    }

    /// The import token (byte range) at `offset` and the file it names.
    fn import_at(
        &self,
        path: &Path,
        text: &str,
        offset: usize,
    ) -> Option<((usize, usize), PathBuf)> {
        let dialect = if is_gemini_memory(path) {
            Dialect::Gemini
        } else {
            Dialect::Claude
        };
        let token = import_tokens(text, dialect)
            .into_iter()
            .find(|t| t.range.start <= offset && offset <= t.range.end)?;
        let written = token.path;
        let home = self.book.home();
        let target = if let Some(rest) = written.strip_prefix("~/") {
            home.join(rest)
        } else if Path::new(written).is_absolute() {
            PathBuf::from(written)
        } else {
            path.parent().unwrap_or(Path::new("")).join(written)
        };
        Some((
            (token.range.start, token.range.end),
            normalize_lexically(&target),
        ))
    }

    fn import_hover(&self, path: &Path, token: (usize, usize), target: &Path) -> String {
        let _ = token;
        let mut out = format!("**@import** → `{}`\n\n", self.show(target));
        match std::fs::metadata(target) {
            Ok(meta) if meta.is_file() => {}
            Ok(_) => out.push_str("It is not a regular file: no tool imports it.\n\n"),
            Err(_) => out.push_str("No such file: every tool skips this import.\n\n"),
        }
        let from = normalize_lexically(path);
        let mut any = false;
        for view in self.views() {
            for file in &view.files {
                let by_this = file
                    .imported_by
                    .as_deref()
                    .is_some_and(|b| normalize_lexically(b) == from);
                if by_this && normalize_lexically(&file.path) == target {
                    any = true;
                    let _ = writeln!(
                        out,
                        "- **{}**: {} — {}",
                        view.host.display_name(),
                        self.how(&file.status),
                        file.reason
                    );
                }
            }
        }
        if !any {
            out.push_str("No tool that loads this file here imports it.\n");
        }
        out
    }

    fn glob_hover(&self, path: &Path, glob: &str) -> String {
        let root = self.book.cwd().to_path_buf();
        let rule = self.rules_at(path).first().map_or_else(
            || {
                Rule::new(
                    "glob",
                    path,
                    "",
                    rulebook::SourceMeta::new("glob", "glob", rulebook::Level::Project, path),
                )
            },
            |r| (*r).clone(),
        );
        let base = rule.glob_root.clone().unwrap_or_else(|| root.clone());
        let rule = rule.with_globs([glob]);
        let (index, warnings) = rulebook::stages::matching::GlobIndex::new([&rule]);
        if let Some(warning) = warnings.first() {
            return format!("**glob** `{glob}`: {}", warning.message);
        }
        let (count, cut) =
            count_files(&base, |relative| !index.matches(&base, relative).is_empty());
        format!(
            "**glob** `{glob}` matches {}{count} file(s) of the project now (under `{}`, ignored files left out).",
            if cut { "at least " } else { "" },
            self.show(&base)
        )
    }
}

/// Files under `base` (as `.gitignore` and `.ignore` leave them, hidden ones included,
/// `.git` left out) that `wanted` accepts by
/// their path relative to `base`, at most [`MAX_COUNTED_FILES`] looked at; whether the
/// count stopped there.
fn count_files(base: &Path, wanted: impl Fn(&str) -> bool) -> (usize, bool) {
    let mut count = 0;
    let mut seen = 0;
    // Hidden folders hold files rules are about (`.github/**/*.yml`): only `.git` is left.
    let walk = ignore::WalkBuilder::new(base)
        .hidden(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for entry in walk.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        seen += 1;
        if seen > MAX_COUNTED_FILES {
            return (count, true);
        }
        let Ok(relative) = entry.path().strip_prefix(base) else {
            continue;
        };
        if wanted(&relative.to_string_lossy()) {
            count += 1;
        }
    }
    (count, false)
}

/// What a tool does with a file, in words.
fn how_with(status: &HostStatus, show: impl Fn(&Path) -> String) -> String {
    match status {
        HostStatus::Loaded => "always, loaded whole at start".to_owned(),
        HostStatus::Cut { truncated_at } => {
            format!("always, loaded at start and cut at byte {truncated_at}")
        }
        HostStatus::Scoped { base, globs } => {
            let base = show(base);
            format!(
                "when editing paths matching {}{}",
                globs
                    .iter()
                    .map(|g| format!("`{g}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if base == "." {
                    String::new()
                } else {
                    format!(" (under `{base}`)")
                }
            )
        }
        HostStatus::OnRequest => "on request (offered by its description)".to_owned(),
        HostStatus::NotRead => "never".to_owned(),
    }
}

/// Whether Gemini CLI's or Qwen Code's import dialect reads this file.
fn is_gemini_memory(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.eq_ignore_ascii_case("GEMINI.md")
        || name.eq_ignore_ascii_case("QWEN.md")
        || path
            .components()
            .any(|c| matches!(c.as_os_str().to_str(), Some(".gemini" | ".qwen")))
}

fn markdown_hover(value: String, range: Option<Range>) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range,
    }
}

/// The `rule://…` or `skill://…` link written around `offset`.
fn link_at(text: &str, offset: usize) -> Option<String> {
    let is_link_byte = |b: u8| b.is_ascii_alphanumeric() || b"-_./:%~".contains(&b);
    let bytes = text.as_bytes();
    let offset = offset.min(bytes.len());
    let start = bytes[..offset]
        .iter()
        .rposition(|&b| !is_link_byte(b))
        .map_or(0, |i| i + 1);
    let end = bytes[offset..]
        .iter()
        .position(|&b| !is_link_byte(b))
        .map_or(bytes.len(), |i| offset + i);
    let word = text.get(start..end)?;
    let found = ["rule://", "skill://"]
        .iter()
        .filter_map(|scheme| word.find(scheme))
        .min()?;
    Some(word[found..].trim_end_matches(['.', ':']).to_owned())
}

/// The glob under `position` when it stands in the value of a glob key of the frontmatter
/// (`globs: a, b`, or a list item under it), and its range.
fn glob_at(lines: &Lines<'_>, position: Position) -> Option<(String, Range)> {
    let head = frontmatter_lines(lines)?;
    let line = position.line as usize;
    if !head.contains(&line) {
        return None;
    }
    let text = lines.line(line);
    let value = if text.trim_start().starts_with('-') {
        // A list item: its key is the nearest line above at column 0.
        let item = text.trim_start().strip_prefix('-')?;
        let key_line = (head.start..line)
            .rev()
            .find(|&i| !lines.line(i).starts_with([' ', '\t', '-']))?;
        let key = lines.line(key_line).split_once(':')?.0.trim();
        if !GLOB_KEYS.contains(&key) {
            return None;
        }
        item
    } else {
        let (key, value) = text.split_once(':')?;
        let key = key.trim().trim_matches(['"', '\'']);
        if !GLOB_KEYS.contains(&key) {
            return None;
        }
        value
    };
    let column = lines.offset(position) - lines.start(line);
    let value_offset = text.len() - value.len();
    // Split the value at commas (outside braces) and find the piece under the cursor.
    let mut depth = 0usize;
    let mut piece_start = value_offset;
    let mut pieces = Vec::new();
    for (i, c) in value.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push((piece_start, value_offset + i));
                piece_start = value_offset + i + 1;
            }
            _ => {}
        }
    }
    pieces.push((piece_start, text.len()));
    let (start, end) = pieces
        .into_iter()
        .find(|&(s, e)| s <= column && column <= e)?;
    let raw = &text[start..end];
    let trimmed = raw
        .trim()
        .trim_matches(['[', ']'])
        .trim()
        .trim_matches(['"', '\'']);
    if trimmed.is_empty() {
        return None;
    }
    let at = start + raw.find(trimmed).unwrap_or(0);
    let line_start = lines.start(line);
    Some((
        trimmed.to_owned(),
        lines.range(line_start + at, line_start + at + trimmed.len()),
    ))
}

/// The values a frontmatter key takes where they are a closed set.
fn values_of(key: &str) -> &'static [&'static str] {
    match key {
        // Booleans of Cursor, Claude Code's skills, Kiro and the others.
        "alwaysApply" | "disable-model-invocation" | "user-invocable" | "enabled" => {
            &["true", "false"]
        }
        // Windsurf's `trigger` (its rules documentation).
        "trigger" => &["always_on", "manual", "model_decision", "glob"],
        // Kiro's steering `inclusion` (its steering documentation).
        "inclusion" => &["always", "fileMatch", "manual"],
        _ => &[],
    }
}

/// A finding as the protocol's diagnostic, placed on the line (and key or glob) it is about.
pub(crate) fn to_lsp(finding: &Finding, lines: &Lines<'_>) -> lsp_types::Diagnostic {
    let severity = match finding.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    };
    let message = match &finding.provider {
        Some(provider) => format!("[{provider}] {}", finding.message),
        None => finding.message.clone(),
    };
    let related: Vec<DiagnosticRelatedInformation> = finding
        .related
        .iter()
        .filter_map(|related| {
            Some(DiagnosticRelatedInformation {
                location: Location::new(Url::from_file_path(&related.path).ok()?, Range::default()),
                message: related.what.clone(),
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range: place(finding, lines),
        severity: Some(severity),
        code: Some(NumberOrString::String(finding.code.as_str().to_owned())),
        code_description: Url::parse(&format!("{CODE_DOCS}#variant.{:?}", finding.code))
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("rulebook".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// Where a finding is: its line (narrowed to the key or glob its message names), or the
/// frontmatter line of a key or glob its message names, or the first line.
fn place(finding: &Finding, lines: &Lines<'_>) -> Range {
    let named: Vec<&str> = finding.message.split('`').skip(1).step_by(2).collect();
    let head = frontmatter_lines(lines);
    if let Some(line) = finding.line {
        let line = line.saturating_sub(1).min(lines.count().saturating_sub(1));
        let text = lines.line(line);
        let start = lines.start(line);
        if let Some(column) = finding.column.filter(|&c| c > 1) {
            // A 1-based column in characters, as the parsers count it.
            let at = text
                .char_indices()
                .nth(column - 1)
                .map_or(text.len(), |(i, _)| i);
            return lines.range(start + at, start + text.trim_end().len());
        }
        for name in &named {
            if !name.is_empty() {
                if let Some(at) = text.find(name) {
                    return lines.range(start + at, start + at + name.len());
                }
            }
        }
        return lines.line_range(line);
    }
    if let Some(head) = head {
        for name in &named {
            if name.is_empty() || name.contains('\n') {
                continue;
            }
            for line in head.clone() {
                let text = lines.line(line);
                let key = text
                    .split_once(':')
                    .map(|(k, _)| k.trim().trim_matches(['"', '\'']));
                if key == Some(*name) {
                    let at = text.find(name).unwrap_or(0);
                    let start = lines.start(line);
                    return lines.range(start + at, start + at + name.len());
                }
            }
            for line in head.clone() {
                let text = lines.line(line);
                if let Some(at) = text.find(name) {
                    let start = lines.start(line);
                    return lines.range(start + at, start + at + name.len());
                }
            }
        }
    }
    lines.line_range(0)
}

/// The safe rewrite of a finding, where there is one.
fn fix(finding: &Finding, path: &Path, lines: &Lines<'_>) -> Option<(String, Vec<TextEdit>)> {
    let head = frontmatter_lines(lines)?;
    let line_of = |key: &str| {
        head.clone().find(|&i| {
            lines
                .line(i)
                .split_once(':')
                .is_some_and(|(k, _)| k.trim() == key)
        })
    };
    match finding.code {
        DiagnosticCode::YamlSyntax | DiagnosticCode::YamlRecovered => {
            // `globs: *.ts` (YAML reads `*` as an alias): quote the value.
            let line = finding
                .line
                .map(|l| l.saturating_sub(1))
                .filter(|l| head.contains(l))
                .or_else(|| {
                    head.clone().find(|&i| {
                        lines
                            .line(i)
                            .split_once(':')
                            .is_some_and(|(_, v)| v.trim_start().starts_with('*'))
                    })
                })?;
            let text = lines.line(line);
            let (key, value) = text.split_once(':')?;
            let value = value.trim();
            if !value.starts_with('*') {
                return None;
            }
            let start = lines.start(line) + key.len() + 1;
            let edit = TextEdit::new(
                lines.range(start, lines.start(line) + text.len()),
                format!(" \"{}\"", value.replace('\\', "\\\\").replace('"', "\\\"")),
            );
            Some((format!("Quote the glob: \"{value}\""), vec![edit]))
        }
        DiagnosticCode::ToolsOwnForm if finding.message.contains("`paths`") => {
            let line = line_of("paths")?;
            let text = lines.line(line);
            let (_, value) = text.split_once(':')?;
            let value = value.trim().trim_matches(['"', '\'']);
            let parts = rulebook::stages::kit::coerce::split_globs(value);
            if parts.is_empty() {
                return None;
            }
            let mut list = "paths:".to_owned();
            for part in &parts {
                let _ = write!(
                    list,
                    "\n  - \"{}\"",
                    part.replace('\\', "\\\\").replace('"', "\\\"")
                );
            }
            let start = lines.start(line);
            let edit = TextEdit::new(lines.range(start, start + text.len()), list);
            Some(("Write `paths` as a YAML list".to_owned(), vec![edit]))
        }
        DiagnosticCode::SkillName if finding.message.contains("stands in the folder") => {
            let folder = path.parent()?.file_name()?.to_str()?;
            let line = line_of("name")?;
            let text = lines.line(line);
            let (key, _) = text.split_once(':')?;
            let start = lines.start(line) + key.len() + 1;
            let edit = TextEdit::new(
                lines.range(start, lines.start(line) + text.len()),
                format!(" {folder}"),
            );
            Some((
                format!("Name the skill `{folder}`, after its folder"),
                vec![edit],
            ))
        }
        _ => None,
    }
}
