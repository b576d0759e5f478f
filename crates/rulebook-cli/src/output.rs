//! Text and JSON output of the commands.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rulebook::{Diagnostic, DiagnosticCode, Rule, RuleBucket, Rulebook, Status};
use serde_json::{Value, json};

/// The output being built, and what it needs to know.
pub(crate) struct Out<'a> {
    pub(crate) book: &'a Rulebook,
    color: bool,
    /// Standard output is a terminal.
    terminal: bool,
    pub(crate) text: String,
}

const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

impl<'a> Out<'a> {
    pub(crate) fn new(book: &'a Rulebook, color: bool, terminal: bool) -> Self {
        Self {
            book,
            color,
            terminal,
            text: String::new(),
        }
    }

    pub(crate) fn finish(self) -> String {
        self.text
    }

    pub(crate) fn paint(&self, style: &str, text: &str) -> String {
        if self.color {
            format!("{style}{text}{RESET}")
        } else {
            text.to_owned()
        }
    }

    pub(crate) fn bold(&self, text: &str) -> String {
        self.paint(BOLD, text)
    }

    pub(crate) fn dim(&self, text: &str) -> String {
        self.paint(DIM, text)
    }

    pub(crate) fn red(&self, text: &str) -> String {
        self.paint(RED, text)
    }

    pub(crate) fn yellow(&self, text: &str) -> String {
        self.paint(YELLOW, text)
    }

    fn green(&self, text: &str) -> String {
        self.paint(GREEN, text)
    }

    /// A path relative to the project (`.cursor/rules/x.mdc`) or the home (`~/…`) when under
    /// one of them, else absolute.
    pub(crate) fn show(&self, path: &Path) -> String {
        shorten(self.book.cwd(), self.book.home(), path)
    }

    pub(crate) fn json(&mut self, value: &Value) {
        let text = serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".to_owned());
        self.text.push_str(&text);
        self.text.push('\n');
    }

    fn profile(&self) -> &'static str {
        match self.book.profile() {
            rulebook::Profile::Reference => "reference",
            rulebook::Profile::Extended => "extended",
        }
    }

    fn bucket_of_entry(&self, index: usize) -> Option<RuleBucket> {
        self.book.entry_placement(index).and_then(|p| p.bucket)
    }

    // ---- list ----

    pub(crate) fn list(&mut self, json: bool) -> ExitCode {
        let book = self.book;
        if json {
            let rules: Vec<Value> = book
                .placements()
                .filter_map(|(rule, p)| p.bucket.map(|b| rule_json(rule, b)))
                .collect();
            let shadowed: Vec<Value> = book
                .shadowed()
                .map(|(loser, winner)| {
                    json!({
                        "name": loser.name,
                        "provider": loser.source.provider,
                        "path": loser.path,
                        "shadowed_by": {"provider": winner.source.provider, "path": winner.path},
                    })
                })
                .collect();
            let invalid: Vec<Value> = book
                .invalid()
                .map(|(rule, reason)| {
                    json!({"name": rule.name, "provider": rule.source.provider, "path": rule.path, "reason": reason})
                })
                .collect();
            let unbucketed: Vec<Value> = book
                .unbucketed()
                .map(|(rule, reason)| {
                    json!({"name": rule.name, "provider": rule.source.provider, "path": rule.path, "reason": reason})
                })
                .collect();
            let diagnostics: Vec<Value> = book.diagnostics().iter().map(diagnostic_json).collect();
            let value = json!({
                "profile": self.profile(),
                "rules": rules,
                "shadowed": shadowed,
                "invalid": invalid,
                "unbucketed": unbucketed,
                "diagnostics": diagnostics,
            });
            self.json(&value);
            return ExitCode::SUCCESS;
        }
        let rows: Vec<[String; 5]> = book
            .placements()
            .filter_map(|(rule, p)| {
                p.bucket.map(|b| {
                    [
                        rule.name.clone(),
                        b.as_str().to_owned(),
                        rule.source.provider.clone(),
                        level(rule).to_owned(),
                        self.show(&rule.path),
                    ]
                })
            })
            .collect();
        if rows.is_empty() {
            self.text
                .push_str("No rules in any bucket. Run `rulebook explain` to see why.\n");
        } else {
            self.table(&["NAME", "BUCKET", "PROVIDER", "LEVEL", "PATH"], &rows);
        }
        let left_out = book.unbucketed().count() + book.shadowed().count() + book.invalid().count();
        let warnings = book.diagnostics().len();
        if left_out + warnings > 0 {
            let _ = writeln!(
                self.text,
                "\n{}",
                self.dim(&format!(
                    "{left_out} more file(s) in no bucket, shadowed or invalid; {warnings} warning(s). See `rulebook explain`."
                ))
            );
        }
        ExitCode::SUCCESS
    }

    fn table(&mut self, header: &[&str; 5], rows: &[[String; 5]]) {
        let mut widths = header.map(str::len);
        for row in rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let line = |cells: [&str; 5]| {
            let mut s = String::new();
            for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
                if i == 4 {
                    s.push_str(cell);
                } else {
                    let pad = w - cell.chars().count();
                    s.push_str(cell);
                    s.push_str(&" ".repeat(pad + 2));
                }
            }
            s.trim_end().to_owned()
        };
        let head = line(*header);
        let _ = writeln!(self.text, "{}", self.bold(&head));
        for row in rows {
            let cells = [
                row[0].as_str(),
                row[1].as_str(),
                row[2].as_str(),
                row[3].as_str(),
                row[4].as_str(),
            ];
            let _ = writeln!(self.text, "{}", line(cells));
        }
    }

    // ---- explain ----

    /// What became of one loaded file, in words.
    fn fate(&self, index: usize) -> (String, Value) {
        let book = self.book;
        let entry = &book.all()[index];
        match &entry.status {
            Status::Shadowed { by } => {
                let winner = &book.all()[*by].item;
                (
                    format!(
                        "shadowed by {} ({})",
                        self.show(&winner.path),
                        winner.source.provider
                    ),
                    json!({"status": "shadowed", "shadowed_by": {"provider": winner.source.provider, "path": winner.path}}),
                )
            }
            Status::Invalid { reason } => (
                format!("invalid: {reason}"),
                json!({"status": "invalid", "reason": reason}),
            ),
            Status::Active => match book.entry_placement(index) {
                Some(p) => match p.bucket {
                    Some(bucket) => (
                        bucket.as_str().to_owned(),
                        json!({"status": "bucketed", "bucket": bucket.as_str(), "ttsr_rejected": p.ttsr_rejected}),
                    ),
                    None => {
                        let reason = p.reason.clone().unwrap_or_default();
                        (
                            format!("in no bucket: {reason}"),
                            json!({"status": "unbucketed", "reason": reason}),
                        )
                    }
                },
                None => ("active".to_owned(), json!({"status": "active"})),
            },
        }
    }

    fn file_json(&self, index: usize) -> Value {
        let entry = &self.book.all()[index];
        let rule = &entry.item;
        let (_, fate) = self.fate(index);
        let mut value = json!({
            "name": rule.name,
            "provider": rule.source.provider,
            "provider_name": rule.source.provider_name,
            "level": level(rule),
            "path": rule.path,
            "frontmatter_outcome": rule.frontmatter_outcome,
        });
        if let (Some(map), Value::Object(fate)) = (value.as_object_mut(), fate) {
            map.extend(fate);
        }
        value
    }

    pub(crate) fn explain(&mut self, name: Option<&str>, json: bool) -> ExitCode {
        match name {
            Some(name) => self.explain_one(name, json),
            None => self.explain_all(json),
        }
    }

    fn explain_all(&mut self, json: bool) -> ExitCode {
        let book = self.book;
        if json {
            let files: Vec<Value> = (0..book.all().len()).map(|i| self.file_json(i)).collect();
            let diagnostics: Vec<Value> = book.diagnostics().iter().map(diagnostic_json).collect();
            let not_loaded: Vec<Value> = not_loaded(book).map(diagnostic_json).collect();
            let value = json!({
                "profile": self.profile(),
                "cwd": book.cwd(),
                "home": book.home(),
                "providers": book.providers(),
                "files": files,
                "not_loaded": not_loaded,
                "diagnostics": diagnostics,
            });
            self.json(&value);
            return ExitCode::SUCCESS;
        }
        let _ = writeln!(
            self.text,
            "{} rule file(s) for {} (home {}, profile {})",
            book.all().len(),
            book.cwd().display(),
            book.home().display(),
            self.profile()
        );
        let path_width = book
            .all()
            .iter()
            .map(|e| self.show(&e.item.path).chars().count())
            .max()
            .unwrap_or(0);
        let name_width = book
            .all()
            .iter()
            .map(|e| e.item.name.chars().count())
            .max()
            .unwrap_or(0);
        for provider in book.providers() {
            let indices: Vec<usize> = (0..book.all().len())
                .filter(|&i| book.all()[i].provider == provider.id)
                .collect();
            let state = if provider.enabled { "" } else { ", disabled" };
            let refused = not_loaded(book)
                .filter(|d| d.provider.as_deref() == Some(&provider.display_name))
                .count();
            let refused = if refused > 0 {
                format!(", {refused} not loaded")
            } else {
                String::new()
            };
            let _ = writeln!(
                self.text,
                "\n{} {}",
                self.bold(&format!("{} ({})", provider.display_name, provider.id)),
                self.dim(&format!(
                    "priority {}{state}: {} file(s){refused}",
                    provider.priority,
                    indices.len()
                ))
            );
            for d in
                not_loaded(book).filter(|d| d.provider.as_deref() == Some(&provider.display_name))
            {
                let path = d.path.as_deref().map(|p| self.show(p)).unwrap_or_default();
                let pad = " ".repeat(path_width.saturating_sub(path.chars().count()));
                let _ = writeln!(
                    self.text,
                    "  {path}{pad}  {}  {} {}",
                    " ".repeat(name_width),
                    self.dim("→"),
                    self.red(&format!(
                        "not loaded: {}",
                        self.relative_message(&d.message)
                    ))
                );
            }
            for i in indices {
                let rule = &book.all()[i].item;
                let (fate, _) = self.fate(i);
                let fate = match &book.all()[i].status {
                    Status::Active if self.bucket_of_entry(i).is_some() => self.green(&fate),
                    Status::Active => self.yellow(&fate),
                    Status::Shadowed { .. } => self.dim(&fate),
                    Status::Invalid { .. } => self.red(&fate),
                };
                let path = self.show(&rule.path);
                let path_pad = " ".repeat(path_width - path.chars().count());
                let name_pad = " ".repeat(name_width - rule.name.chars().count());
                let _ = writeln!(
                    self.text,
                    "  {path}{path_pad}  {}{name_pad}  {} {fate}",
                    self.bold(&rule.name),
                    self.dim("→"),
                );
            }
        }
        self.warnings(book.diagnostics());
        ExitCode::SUCCESS
    }

    pub(crate) fn warnings(&mut self, diagnostics: &[Diagnostic]) {
        if diagnostics.is_empty() {
            let _ = writeln!(self.text, "\nNo warnings.");
            return;
        }
        let _ = writeln!(
            self.text,
            "\n{} ({}):",
            self.bold("Warnings"),
            diagnostics.len()
        );
        for d in diagnostics {
            let line = format!("  {}", self.diagnostic_line(d));
            let _ = writeln!(self.text, "{line}");
        }
    }

    pub(crate) fn diagnostic_line(&self, d: &Diagnostic) -> String {
        let mut at = d.path.as_deref().map(|p| self.show(p)).unwrap_or_default();
        if let Some(line) = d.line {
            let _ = write!(at, ":{line}");
            if let Some(column) = d.column {
                let _ = write!(at, ":{column}");
            }
        }
        let provider = d
            .provider
            .as_deref()
            .map(|p| format!("[{p}] "))
            .unwrap_or_default();
        let message = self.relative_message(&d.message);
        if at.is_empty() {
            format!("{provider}{message}")
        } else {
            format!("{provider}{at}: {message}")
        }
    }

    /// Messages name files by absolute path; in text output show them as `show` does.
    pub(crate) fn relative_message(&self, message: &str) -> String {
        let cwd = format!("{}/", self.book.cwd().display());
        let home = format!("{}/", self.book.home().display());
        let text = message.replace(&cwd, "");
        if self.book.home().as_os_str().len() > 1 {
            text.replace(&home, "~/")
        } else {
            text
        }
    }

    fn explain_one(&mut self, name: &str, json: bool) -> ExitCode {
        let book = self.book;
        let indices: Vec<usize> = (0..book.all().len())
            .filter(|&i| book.all()[i].item.name == name)
            .collect();
        if indices.is_empty() {
            let mut known: Vec<&str> = book.all().iter().map(|e| e.item.name.as_str()).collect();
            known.sort_unstable();
            known.dedup();
            let message = format!(
                "no rule file is named `{name}`; known names: {}",
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            );
            if json {
                self.json(&json!({"error": message}));
            }
            eprintln!("rulebook: {message}");
            return ExitCode::FAILURE;
        }
        let paths: Vec<&Path> = indices
            .iter()
            .map(|&i| book.all()[i].item.path.as_path())
            .collect();
        let diagnostics: Vec<&Diagnostic> = book
            .diagnostics()
            .iter()
            .filter(|d| d.path.as_deref().is_some_and(|p| paths.contains(&p)))
            .collect();
        if json {
            let files: Vec<Value> = indices
                .iter()
                .map(|&i| {
                    let rule = &book.all()[i].item;
                    let mut v = self.file_json(i);
                    if let Some(map) = v.as_object_mut() {
                        map.insert("description".into(), json!(rule.description));
                        map.insert("globs".into(), json!(rule.globs));
                        map.insert("always_apply".into(), json!(rule.always_apply));
                        map.insert("condition".into(), json!(rule.condition));
                        map.insert("activation".into(), json!(rule.activation));
                        map.insert("frontmatter".into(), json!(rule.frontmatter));
                        map.insert(
                            "frontmatter_outcome".into(),
                            json!(rule.frontmatter_outcome),
                        );
                        map.insert("content_bytes".into(), json!(rule.content.len()));
                    }
                    v
                })
                .collect();
            let value = json!({
                "profile": self.profile(),
                "name": name,
                "files": files,
                "diagnostics": diagnostics.iter().map(|d| diagnostic_json(d)).collect::<Vec<_>>(),
            });
            self.json(&value);
            return ExitCode::SUCCESS;
        }
        let _ = writeln!(
            self.text,
            "{} file(s) named {}, in precedence order:",
            indices.len(),
            self.bold(&format!("`{name}`"))
        );
        for &i in &indices {
            let entry = &book.all()[i];
            let rule = &entry.item;
            let (fate, _) = self.fate(i);
            let _ = writeln!(
                self.text,
                "\n  {} ({}, {})\n    → {fate}",
                self.bold(&self.show(&rule.path)),
                rule.source.provider_name,
                level(rule)
            );
            let _ = writeln!(
                self.text,
                "    frontmatter: {}",
                match rule.frontmatter_outcome {
                    rulebook::stages::rule::FrontmatterOutcome::Absent => "none",
                    rulebook::stages::rule::FrontmatterOutcome::Parsed => "valid YAML",
                    rulebook::stages::rule::FrontmatterOutcome::NotAMap =>
                        "YAML, but not a map (ignored)",
                    rulebook::stages::rule::FrontmatterOutcome::Recovered =>
                        "invalid YAML, recovered",
                    rulebook::stages::rule::FrontmatterOutcome::LineParser =>
                        "invalid YAML, read line by line",
                }
            );
            for (key, value) in &rule.frontmatter {
                let _ = writeln!(self.text, "      {key}: {value}");
            }
            let _ = writeln!(
                self.text,
                "    description: {}",
                rule.description
                    .as_deref()
                    .map_or("(none)".to_owned(), |d| format!("{d:?}"))
            );
            let _ = writeln!(
                self.text,
                "    alwaysApply: {}",
                rule.always_apply
                    .map_or("(unset)".to_owned(), |b| b.to_string())
            );
            let _ = writeln!(
                self.text,
                "    globs: {}",
                rule.globs
                    .as_ref()
                    .map_or("(none)".to_owned(), |g| format!("{g:?}"))
            );
            if !rule.condition.is_empty() {
                let _ = writeln!(self.text, "    condition: {:?}", rule.condition);
            }
            if let Some(activation) = rule.activation {
                let _ = writeln!(self.text, "    trigger: {activation:?}");
            }
            let first = rule.content.lines().next().unwrap_or("");
            let _ = writeln!(
                self.text,
                "    content: {} byte(s){}",
                rule.content.len(),
                if first.is_empty() {
                    String::new()
                } else {
                    format!(", starting {first:?}")
                }
            );
        }
        let owned: Vec<Diagnostic> = diagnostics.into_iter().cloned().collect();
        self.warnings(&owned);
        ExitCode::SUCCESS
    }

    // ---- prompt ----

    pub(crate) fn prompt(&mut self, paths: &[PathBuf], json: bool) -> ExitCode {
        let book = self.book;
        let text = book.system_prompt_section_for(paths);
        if json {
            let attached: Vec<Value> = if book.profile() == rulebook::Profile::Extended {
                book.applicable(paths)
                    .into_iter()
                    .filter(|a| {
                        book.placement(a.rule)
                            .is_some_and(|p| matches!(p.bucket, None | Some(RuleBucket::Rulebook)))
                    })
                    .map(|a| json!({"name": a.name, "glob": a.glob, "path": a.path}))
                    .collect()
            } else {
                Vec::new()
            };
            let names = |bucket| {
                book.bucket(bucket)
                    .iter()
                    .map(|r| r.name.clone())
                    .collect::<Vec<_>>()
            };
            let value = json!({
                "profile": self.profile(),
                "always_apply": names(RuleBucket::AlwaysApply),
                "attached": attached,
                "rulebook": names(RuleBucket::Rulebook),
                "text": text,
            });
            self.json(&value);
        } else {
            self.text.push_str(&text);
            if !text.is_empty() {
                self.text.push('\n');
            }
        }
        ExitCode::SUCCESS
    }

    // ---- read ----

    pub(crate) fn read(&mut self, url: &str, json: bool) -> ExitCode {
        match self.book.resolve(url) {
            Ok(resource) => {
                if json {
                    self.json(&json!(resource));
                } else {
                    self.text.push_str(&resource.content);
                    // Exact bytes for pipes; a terminal gets its prompt on a line of its own.
                    if self.terminal && !resource.content.ends_with('\n') {
                        self.text.push('\n');
                    }
                }
                ExitCode::SUCCESS
            }
            Err(err) => {
                if json {
                    let available = match &err {
                        rulebook::ProtocolError::UnknownRule { available, .. } => json!(available),
                        _ => Value::Null,
                    };
                    self.json(&json!({"error": err.to_string(), "available": available}));
                }
                eprintln!("{err}");
                ExitCode::FAILURE
            }
        }
    }

    // ---- complete ----

    pub(crate) fn complete(&mut self, prefix: &str, json: bool) -> ExitCode {
        let completions = self.book.complete(prefix);
        if json {
            self.json(&json!({"profile": self.profile(), "completions": completions}));
        } else {
            for c in &completions {
                let _ = writeln!(
                    self.text,
                    "{}\t{}",
                    c.url,
                    c.description.as_deref().unwrap_or("")
                );
            }
        }
        ExitCode::SUCCESS
    }

    // ---- match ----

    pub(crate) fn matches(&mut self, paths: &[PathBuf], json: bool) -> ExitCode {
        let book = self.book;
        let rules: Vec<&Rule> = book.items().collect();
        let bucket = |rule: usize| {
            book.placement(rule)
                .and_then(|p| p.bucket)
                .map(RuleBucket::as_str)
        };
        if json {
            let per_path: Vec<Value> = paths
                .iter()
                .map(|path| {
                    let hits: Vec<Value> = book
                        .matches(path)
                        .into_iter()
                        .map(|m| {
                            let rule = rules[m.rule];
                            json!({
                                "name": m.name,
                                "glob": m.glob,
                                "bucket": bucket(m.rule),
                                "provider": rule.source.provider,
                                "path": rule.path,
                            })
                        })
                        .collect();
                    json!({"path": path, "rules": hits})
                })
                .collect();
            let diagnostics: Vec<Value> = book
                .glob_diagnostics()
                .iter()
                .map(diagnostic_json)
                .collect();
            self.json(
                &json!({"profile": self.profile(), "paths": per_path, "diagnostics": diagnostics}),
            );
            return ExitCode::SUCCESS;
        }
        if book.profile() == rulebook::Profile::Reference {
            let _ = writeln!(
                self.text,
                "{}",
                self.dim("note: the reference profile never attaches rules by glob; this shows what --profile extended would attach")
            );
        }
        for path in paths {
            let hits = book.matches(path);
            let shown = path.display().to_string();
            if hits.is_empty() {
                let why = if rulebook::stages::matching::GlobIndex::relative(book.cwd(), path)
                    .is_none()
                {
                    "outside the project: never matches"
                } else {
                    "no rule's globs match"
                };
                let _ = writeln!(self.text, "{}  {}", self.bold(&shown), self.dim(why));
                continue;
            }
            let _ = writeln!(self.text, "{}", self.bold(&shown));
            for m in hits {
                let rule = rules[m.rule];
                let _ = writeln!(
                    self.text,
                    "  {}  by {}  {}",
                    m.name,
                    m.glob,
                    self.dim(&format!(
                        "({}, {})",
                        bucket(m.rule).unwrap_or("no bucket"),
                        self.show(&rule.path)
                    ))
                );
            }
        }
        let glob_warnings = book.glob_diagnostics().to_vec();
        if !glob_warnings.is_empty() {
            self.warnings(&glob_warnings);
        }
        ExitCode::SUCCESS
    }
}

/// The diagnostics of files that were found but never became a rule: unreadable, too
/// large (E9), or outside the project (E10).
fn not_loaded(book: &Rulebook) -> impl Iterator<Item = &Diagnostic> + '_ {
    book.diagnostics().iter().filter(|d| {
        matches!(
            d.code,
            DiagnosticCode::ReadFailed | DiagnosticCode::TooLarge | DiagnosticCode::OutsideProject
        )
    })
}

fn level(rule: &Rule) -> &'static str {
    match rule.source.level {
        rulebook::Level::User => "user",
        rulebook::Level::Project => "project",
    }
}

pub(crate) fn shorten(cwd: &Path, home: &Path, path: &Path) -> String {
    if let Ok(rel) = path.strip_prefix(cwd) {
        if !rel.as_os_str().is_empty() {
            return rel.display().to_string();
        }
    }
    if home.as_os_str().len() > 1 {
        if let Ok(rel) = path.strip_prefix(home) {
            return format!("~/{}", rel.display());
        }
    }
    path.display().to_string()
}

pub(crate) fn rule_json(rule: &Rule, bucket: RuleBucket) -> Value {
    json!({
        "name": rule.name,
        "bucket": bucket.as_str(),
        "provider": rule.source.provider,
        "provider_name": rule.source.provider_name,
        "level": level(rule),
        "path": rule.path,
        "description": rule.description,
        "globs": rule.globs,
        "always_apply": rule.always_apply,
        "condition": rule.condition,
    })
}

pub(crate) fn diagnostic_json(d: &Diagnostic) -> Value {
    json!({
        "severity": d.severity,
        "code": d.code,
        "provider": d.provider,
        "path": d.path,
        "line": d.line,
        "column": d.column,
        "message": d.message,
    })
}
