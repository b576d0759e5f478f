//! `rulebook skills`: every skill a tool would list (name, provider, level, path,
//! description), then the skills shadowed by another of the same name, the same file
//! reached twice, and the invalid ones (behaviour.md §14).

use std::path::Path;
use std::process::ExitCode;

use rulebook::Status;
use serde::Serialize;

use crate::json::{self, JsonDiagnostic};
use crate::printer::{Printer, escape};

/// One active skill (`skills --json`'s `skills`).
#[derive(Serialize)]
struct JsonSkill<'a> {
    name: &'a str,
    provider: &'a str,
    level: &'static str,
    #[serde(serialize_with = "json::path")]
    path: &'a Path,
    description: Option<&'a str>,
    url: String,
}

/// A skill left out, and why.
#[derive(Serialize)]
struct JsonLeftOutSkill<'a> {
    name: &'a str,
    provider: &'a str,
    #[serde(serialize_with = "json::path")]
    path: &'a Path,
    reason: String,
}

#[derive(Serialize)]
struct SkillList<'a> {
    profile: &'static str,
    skills: Vec<JsonSkill<'a>>,
    left_out: Vec<JsonLeftOutSkill<'a>>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

fn level(level: rulebook::Level) -> &'static str {
    match level {
        rulebook::Level::User => "user",
        rulebook::Level::Project => "project",
    }
}

pub(crate) fn run(out: &mut Printer<'_>) -> ExitCode {
    let book = out.book;
    let all = book.all_skills();
    let left_out: Vec<JsonLeftOutSkill<'_>> = all
        .iter()
        .filter_map(|entry| {
            let reason = match &entry.status {
                Status::Active => return None,
                Status::Shadowed { by }
                    if super::same_content(&entry.item.path, &all[*by].item.path) =>
                {
                    format!(
                        "the same skill as {} ({}): the same content, counted once",
                        all[*by].item.source.provider,
                        out.show(&all[*by].item.path)
                    )
                }
                Status::Shadowed { by } => format!(
                    "shadowed by {} ({})",
                    all[*by].item.source.provider,
                    out.show(&all[*by].item.path)
                ),
                Status::SameFile { by } => format!(
                    "the same file as {} ({})",
                    all[*by].item.source.provider,
                    out.show(&all[*by].item.path)
                ),
                Status::Invalid { reason } => format!("invalid: {reason}"),
            };
            Some(JsonLeftOutSkill {
                name: &entry.item.name,
                provider: &entry.item.source.provider,
                path: &entry.item.path,
                reason,
            })
        })
        .collect();
    let skills: Vec<JsonSkill<'_>> = book
        .skills()
        .into_iter()
        .map(|s| JsonSkill {
            name: &s.name,
            provider: &s.source.provider,
            level: level(s.source.level),
            path: &s.path,
            description: s.description.as_deref(),
            url: format!(
                "skill://{}",
                rulebook::stages::protocol::percent_encode(&s.name)
            ),
        })
        .collect();
    if out.json {
        let diagnostics: Vec<&rulebook::Diagnostic> = book
            .diagnostics()
            .iter()
            .filter(|d| {
                matches!(
                    d.code,
                    rulebook::DiagnosticCode::SkillName
                        | rulebook::DiagnosticCode::SkillDescription
                ) || all
                    .iter()
                    .any(|e| d.path.as_deref() == Some(e.item.path.as_path()))
            })
            .collect();
        out.json(&SkillList {
            profile: json::profile(book),
            skills,
            left_out,
            diagnostics: diagnostics.into_iter().map(JsonDiagnostic::from).collect(),
        });
        return ExitCode::SUCCESS;
    }
    if skills.is_empty() {
        out.text.push_str("No skills.\n");
    } else {
        let rows: Vec<[String; 5]> = skills
            .iter()
            .map(|s| {
                [
                    escape(s.name).into_owned(),
                    escape(s.provider).into_owned(),
                    s.level.to_owned(),
                    out.show(s.path),
                    escape(s.description.unwrap_or("")).into_owned(),
                ]
            })
            .collect();
        super::list::table(
            out,
            &["NAME", "PROVIDER", "LEVEL", "PATH", "DESCRIPTION"],
            &rows,
        );
    }
    if !left_out.is_empty() {
        out.text.push('\n');
        for l in &left_out {
            let line = format!(
                "{} ({}, {}): {}",
                escape(l.name),
                escape(l.provider),
                out.show(l.path),
                escape(&l.reason)
            );
            out.text.push_str(&out.dim(&line));
            out.text.push('\n');
        }
    }
    ExitCode::SUCCESS
}
