//! `rulebook explain [NAME]`: every discovered file and what became of it, then the
//! warnings; or the story of one name.

use std::fmt::Write;
use std::path::Path;
use std::process::ExitCode;

use rulebook::stages::rule::FrontmatterOutcome;
use rulebook::{Diagnostic, Fate, FileFate, ProviderInfo};
use rulebook_report::{FileReport, Summary};
use serde::Serialize;

use super::{Landed, not_loaded, parse_bucket};
use crate::json::{self, JsonDiagnostic};
use crate::printer::{Printer, escape};

#[derive(Serialize)]
struct ExplainAll<'a> {
    profile: &'static str,
    #[serde(serialize_with = "json::path")]
    cwd: &'a Path,
    #[serde(serialize_with = "json::path")]
    home: &'a Path,
    providers: &'a [ProviderInfo],
    summary: Summary,
    files: Vec<FileReport<'a>>,
    not_loaded: Vec<JsonDiagnostic<'a>>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    lossy_paths: Vec<String>,
}

#[derive(Serialize)]
struct ExplainOne<'a> {
    profile: &'static str,
    name: &'a str,
    files: Vec<FileReport<'a>>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct Failure {
    error: String,
}

/// Where a file landed, for `--bucket`; `None` for a shadowed or invalid one.
fn bucket_of(fate: &Fate<'_>) -> Option<Landed> {
    match fate {
        Fate::Active { placement, .. } => Some(placement.bucket.into()),
        _ => None,
    }
}

/// A file's fate in words, coloured.
fn fate_text(out: &Printer<'_>, fate: &Fate<'_>) -> String {
    let book = out.book;
    match *fate {
        Fate::Shadowed { by } => {
            let winner = &book.all()[by].item;
            out.dim(&format!(
                "shadowed by {} ({})",
                out.show(&winner.path),
                escape(&winner.source.provider)
            ))
        }
        Fate::SameFile { by } => {
            let first = &book.all()[by].item;
            out.dim(&format!(
                "same file as {} ({}): its text is injected once",
                out.show(&first.path),
                escape(&first.source.provider)
            ))
        }
        Fate::Invalid { reason } => out.red(&format!("invalid: {}", out.message(reason))),
        Fate::Active { placement, .. } => match placement.bucket {
            Some(bucket) => out.green(bucket.as_str()),
            None => out.yellow(&format!(
                "in no bucket: {}",
                out.message(placement.reason.as_deref().unwrap_or_default())
            )),
        },
    }
}

pub(crate) fn run(
    out: &mut Printer<'_>,
    name: Option<&str>,
    bucket: Option<&str>,
    provider: Option<&str>,
) -> ExitCode {
    let bucket = match bucket.map(parse_bucket).transpose() {
        Ok(bucket) => bucket,
        Err(message) => {
            eprintln!("rulebook: {message}");
            return ExitCode::from(2);
        }
    };
    if let Some(id) = provider {
        if !out.book.providers().iter().any(|p| p.id == id) {
            let known: Vec<&str> = out.book.providers().iter().map(|p| p.id.as_str()).collect();
            eprintln!(
                "rulebook: unknown provider `{}`: use one of {}",
                escape(id),
                known.join(", ")
            );
            return ExitCode::from(2);
        }
    }
    match name {
        Some(name) => one(out, name),
        None => all(out, bucket, provider),
    }
}

fn all(out: &mut Printer<'_>, bucket: Option<Landed>, provider: Option<&str>) -> ExitCode {
    let book = out.book;
    let files: Vec<FileFate<'_>> = book.files().collect();
    let keep = |index: usize| {
        let entry = &book.all()[index];
        provider.is_none_or(|p| entry.provider == p)
            && bucket.is_none_or(|b| bucket_of(&files[index].fate) == Some(b))
    };
    if out.json {
        out.json(&ExplainAll {
            profile: json::profile(book),
            cwd: book.cwd(),
            home: book.home(),
            providers: book.providers(),
            summary: Summary::new(book),
            files: files
                .iter()
                .filter(|f| keep(f.index))
                .map(|f| FileReport::new(book, f, false))
                .collect(),
            not_loaded: json::diagnostics(not_loaded(book)),
            diagnostics: json::diagnostics(book.diagnostics()),
            lossy_paths: json::lossy_paths(book),
        });
        return ExitCode::SUCCESS;
    }
    let s = Summary::new(book);
    let _ = writeln!(
        out.text,
        "{} rule file(s) for {} (home {}, profile {})",
        book.all().len(),
        escape(&book.cwd().display().to_string()),
        escape(&book.home().display().to_string()),
        json::profile(book)
    );
    let counts = [
        ("ttsr", s.ttsr),
        ("always-apply", s.always_apply),
        ("rulebook", s.rulebook),
        ("manual", s.manual),
        ("no bucket", s.no_bucket),
        ("shadowed", s.shadowed),
        ("invalid", s.invalid),
        ("not loaded", s.not_loaded),
    ];
    let line: Vec<String> = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(what, n)| format!("{n} {what}"))
        .collect();
    if !line.is_empty() {
        let _ = writeln!(out.text, "{}", out.bold(&line.join(", ")));
    }
    let shown_width = |p: &Path| out.show(p).chars().count();
    let path_width = book
        .all()
        .iter()
        .map(|e| shown_width(&e.item.path))
        .max()
        .unwrap_or(0);
    let name_width = book
        .all()
        .iter()
        .map(|e| escape(&e.item.name).chars().count())
        .max()
        .unwrap_or(0);
    let mut quiet: Vec<String> = Vec::new();
    for info in book.providers() {
        if provider.is_some_and(|p| p != info.id) {
            continue;
        }
        let indices: Vec<usize> = (0..book.all().len())
            .filter(|&i| book.all()[i].provider == info.id && keep(i))
            .collect();
        let refused: Vec<&Diagnostic> = if bucket.is_none() {
            not_loaded(book)
                .filter(|d| d.provider.as_deref() == Some(&info.display_name))
                .collect()
        } else {
            Vec::new()
        };
        if indices.is_empty() && refused.is_empty() {
            // Said once, after the others: a list of providers with nothing to show.
            if bucket.is_none() {
                quiet.push(format!(
                    "{} ({})",
                    escape(&info.display_name),
                    escape(&info.id)
                ));
            }
            continue;
        }
        let state = if info.enabled { "" } else { ", disabled" };
        let refused_note = if refused.is_empty() {
            String::new()
        } else {
            format!(", {} not loaded", refused.len())
        };
        let heading = out.bold(&format!(
            "{} ({})",
            escape(&info.display_name),
            escape(&info.id)
        ));
        let detail = out.dim(&format!(
            "priority {}{state}: {} file(s){refused_note}",
            info.priority,
            indices.len()
        ));
        let _ = writeln!(out.text, "\n{heading} {detail}");
        for d in refused {
            let path = d.path.as_deref().map(|p| out.show(p)).unwrap_or_default();
            let pad = " ".repeat(path_width.saturating_sub(path.chars().count()));
            let arrow = out.dim("→");
            let why = out.red(&format!("not loaded: {}", out.message(&d.message)));
            let _ = writeln!(
                out.text,
                "  {path}{pad}  {}  {arrow} {why}",
                " ".repeat(name_width)
            );
        }
        for i in indices {
            let rule = &book.all()[i].item;
            let path = out.show(&rule.path);
            let name = escape(&rule.name);
            let path_pad = " ".repeat(path_width.saturating_sub(path.chars().count()));
            let name_pad = " ".repeat(name_width.saturating_sub(name.chars().count()));
            let _ = writeln!(
                out.text,
                "  {path}{path_pad}  {}{name_pad}  {} {}{}",
                out.bold(&name),
                out.dim("→"),
                fate_text(out, &files[i].fate),
                super::scope(book, rule)
                    .map(|s| out.dim(&format!(", {s}")))
                    .unwrap_or_default()
            );
        }
    }
    if !quiet.is_empty() {
        let line = out.dim(&format!("No rule files for: {}", quiet.join(", ")));
        let _ = writeln!(out.text, "\n{line}");
    }
    let diagnostics: Vec<&Diagnostic> = book
        .diagnostics()
        .iter()
        .filter(|d| {
            provider.is_none_or(|p| {
                let name = book
                    .providers()
                    .iter()
                    .find(|i| i.id == p)
                    .map(|i| i.display_name.as_str());
                d.provider.as_deref() == name
            })
        })
        .collect();
    out.warnings(&diagnostics);
    ExitCode::SUCCESS
}

/// One `SKILL.md` of a name, and what became of it (`explain NAME` for a skill).
#[derive(serde::Serialize)]
struct SkillFate {
    provider: String,
    path: String,
    level: &'static str,
    fate: String,
}

/// `explain NAME` for a skill (no rule has the name): every `SKILL.md` of that name, in
/// provider order, with what became of it and why (behaviour.md §14).
fn skill(out: &mut Printer<'_>, name: &str) -> Option<ExitCode> {
    let book = out.book;
    let all = book.all_skills();
    let entries: Vec<&rulebook::Entry<rulebook::Skill>> =
        all.iter().filter(|e| e.item.name == name).collect();
    if entries.is_empty() {
        return None;
    }
    let fates: Vec<SkillFate> = entries
        .iter()
        .map(|e| {
            let fate = match &e.status {
                rulebook::Status::Active => format!(
                    "listed in the prompt's skills block; read it with skill://{}",
                    rulebook::stages::protocol::percent_encode(name)
                ),
                rulebook::Status::Shadowed { by }
                    if super::same_content(&e.item.path, &all[*by].item.path) =>
                {
                    format!(
                        "the same skill as {} ({}): the same content, counted once",
                        all[*by].provider,
                        out.show(&all[*by].item.path)
                    )
                }
                rulebook::Status::Shadowed { by } => format!(
                    "shadowed: {} ({}) has the name first (provider priority, then nearer folders first)",
                    all[*by].provider,
                    out.show(&all[*by].item.path)
                ),
                rulebook::Status::SameFile { by } => format!(
                    "the same file as {} ({}), reached through a link",
                    all[*by].provider,
                    out.show(&all[*by].item.path)
                ),
                rulebook::Status::Invalid { reason } => format!("invalid: {reason}"),
            };
            SkillFate {
                provider: e.provider.clone(),
                path: out.show(&e.item.path),
                level: match e.item.source.level {
                    rulebook::Level::User => "user",
                    rulebook::Level::Project => "project",
                },
                fate,
            }
        })
        .collect();
    if out.json {
        out.json(&serde_json::json!({"skill": name, "files": fates}));
    } else {
        let _ = writeln!(out.text, "skill {}:", escape(name));
        for f in &fates {
            let _ = writeln!(
                out.text,
                "  {} ({}, {}): {}",
                escape(&f.path),
                escape(&f.provider),
                f.level,
                escape(&f.fate)
            );
        }
    }
    Some(ExitCode::SUCCESS)
}

fn one(out: &mut Printer<'_>, name: &str) -> ExitCode {
    let book = out.book;
    let files: Vec<FileFate<'_>> = book.files().filter(|f| f.rule.name == name).collect();
    if files.is_empty() {
        if let Some(code) = skill(out, name) {
            return code;
        }
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
        if out.json {
            out.json(&Failure {
                error: message.clone(),
            });
        }
        eprintln!("rulebook: {}", escape(&message));
        return ExitCode::FAILURE;
    }
    let paths: Vec<&Path> = files.iter().map(|f| f.rule.path.as_path()).collect();
    let diagnostics: Vec<&Diagnostic> = book
        .diagnostics()
        .iter()
        .filter(|d| d.path.as_deref().is_some_and(|p| paths.contains(&p)))
        .collect();
    if out.json {
        out.json(&ExplainOne {
            profile: json::profile(book),
            name,
            files: files
                .iter()
                .map(|f| FileReport::new(book, f, true))
                .collect(),
            diagnostics: json::diagnostics(diagnostics.iter().copied()),
        });
        return ExitCode::SUCCESS;
    }
    let _ = writeln!(
        out.text,
        "{} file(s) named {}, in precedence order:",
        files.len(),
        out.bold(&format!("`{}`", escape(name)))
    );
    for file in &files {
        let rule = file.rule;
        let _ = writeln!(
            out.text,
            "\n  {} ({}, {})\n    → {}",
            out.bold(&out.show(&rule.path)),
            escape(&rule.source.provider_name),
            json::level(rule),
            fate_text(out, &file.fate)
        );
        let outcome = match rule.frontmatter_outcome {
            FrontmatterOutcome::Absent => "none",
            FrontmatterOutcome::Parsed => "valid YAML",
            FrontmatterOutcome::NotAMap => "YAML, but not a map (ignored)",
            FrontmatterOutcome::Recovered => "invalid YAML, recovered",
            FrontmatterOutcome::LineParser => "invalid YAML, read line by line",
        };
        let _ = writeln!(out.text, "    frontmatter: {outcome}");
        for (key, value) in &rule.frontmatter {
            let _ = writeln!(
                out.text,
                "      {}: {}",
                escape(key),
                escape(&crate::printer::cut_long(&value.to_string()))
            );
        }
        let show = |value: Option<String>, none: &str| {
            value.map_or_else(|| none.to_owned(), |v| escape(&v).into_owned())
        };
        let _ = writeln!(
            out.text,
            "    description: {}",
            show(
                rule.description.as_ref().map(|d| format!("{d:?}")),
                "(none)"
            )
        );
        let _ = writeln!(
            out.text,
            "    alwaysApply: {}",
            show(rule.always_apply.map(|b| b.to_string()), "(unset)")
        );
        let _ = writeln!(
            out.text,
            "    globs: {}",
            show(rule.globs.as_ref().map(|g| format!("{g:?}")), "(none)")
        );
        if !rule.condition.is_empty() {
            let _ = writeln!(
                out.text,
                "    condition: {}",
                escape(&format!("{:?}", rule.condition))
            );
        }
        if let Some(activation) = rule.activation {
            let _ = writeln!(out.text, "    trigger: {activation:?}");
        }
        if !rule.includes.is_empty() {
            let shown: Vec<String> = rule.includes.iter().map(|p| out.show(p)).collect();
            let _ = writeln!(out.text, "    imports: {}", shown.join(", "));
        }
        let first = rule.content.lines().next().unwrap_or("");
        let _ = writeln!(
            out.text,
            "    content: {} byte(s){}",
            rule.content.len(),
            if first.is_empty() {
                String::new()
            } else {
                escape(&format!(", starting {first:?}")).into_owned()
            }
        );
    }
    out.warnings(&diagnostics);
    ExitCode::SUCCESS
}
