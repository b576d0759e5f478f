//! `rulebook check`: lints every rule file, for a team's CI.
//!
//! Conditions are checked with the TTSR manager's own validation, so `check` and
//! discovery never disagree on what compiles.
//!
//! Errors (exit 1): YAML errors (with line:col), unquoted globs, keys of the wrong type,
//! empty bodies, conditions that do not compile, globs that do not compile, files that
//! cannot be read or were refused. Warnings: unknown keys, names shadowed across providers,
//! directories not walked.

use std::collections::HashSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rulebook::stages::rule::coerce::{KNOWN_KEYS, key_line};
use rulebook::stages::ttsr::validate_condition;
use rulebook::{Diagnostic, DiagnosticCode, Severity};
use serde_json::json;

use crate::output::{Out, diagnostic_json};

fn severity(code: DiagnosticCode) -> Severity {
    match code {
        DiagnosticCode::UnknownKey | DiagnosticCode::Shadowed | DiagnosticCode::WalkFailed => {
            Severity::Warning
        }
        _ => Severity::Error,
    }
}

fn code_name(code: DiagnosticCode) -> String {
    serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn finding(code: DiagnosticCode, path: &Path, line: Option<usize>, message: String) -> Diagnostic {
    let mut d = Diagnostic::warning(code, message)
        .with_path(path)
        .at(line, line.map(|_| 1));
    d.severity = severity(code);
    d
}

/// The lines of `text`'s frontmatter that write an unquoted glob: `globs: *.ts` or
/// `  - *.ts` under `globs:`.
fn unquoted_globs(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut lines = text.lines().enumerate();
    if !lines
        .next()
        .is_some_and(|(_, l)| l.trim_start_matches('\u{feff}').starts_with("---"))
    {
        return found;
    }
    let mut in_globs = false;
    for (i, line) in lines {
        if line.starts_with("---") {
            break;
        }
        if let Some(value) = line.strip_prefix("globs:") {
            in_globs = true;
            let value = value.trim();
            if value.starts_with('*') {
                found.push((i + 1, value.to_owned()));
            }
            continue;
        }
        if in_globs {
            let trimmed = line.trim_start();
            if let Some(item) = trimmed.strip_prefix("- ") {
                if item.trim_start().starts_with('*') {
                    found.push((i + 1, item.trim().to_owned()));
                }
                continue;
            }
            if !line.starts_with([' ', '\t']) {
                in_globs = false;
            }
        }
    }
    found
}

fn with_provider(rule: &rulebook::Rule, d: Diagnostic) -> Diagnostic {
    d.with_provider(rule.source.provider_name.clone())
}

pub(crate) fn run(out: &mut Out<'_>, json: bool) -> ExitCode {
    let book = out.book;
    let mut findings: Vec<Diagnostic> = Vec::new();
    let mut glob_lines: HashSet<(PathBuf, usize)> = HashSet::new();

    for entry in book.all() {
        let rule = &entry.item;
        let path = rule.path.as_path();
        let provider = rule.source.provider_name.as_str();
        let finding = |code, path: &Path, line, message| {
            finding(code, path, line, message).with_provider(provider)
        };
        if rule.content.is_empty() {
            findings.push(finding(
                DiagnosticCode::InvalidItem,
                path,
                None,
                format!("`{}` has an empty body: no agent will load it", rule.name),
            ));
        }
        let text = std::fs::read(path)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        for condition in &rule.condition {
            if let Err(why) = validate_condition(condition) {
                let line = ["condition", "ttsr_trigger", "ttsrTrigger"]
                    .iter()
                    .find_map(|k| key_line(&text, k));
                findings.push(finding(
                    DiagnosticCode::InvalidTrigger,
                    path,
                    line,
                    format!("condition {condition:?} does not compile as a regex: {why}"),
                ));
            }
        }
        for (line, glob) in unquoted_globs(&text) {
            glob_lines.insert((path.to_path_buf(), line));
            findings.push(finding(
                DiagnosticCode::YamlSyntax,
                path,
                Some(line),
                format!(
                    "unquoted glob `{glob}`: YAML reads a leading `*` as an alias; write it quoted, \"{glob}\""
                ),
            ));
        }
        let windsurf = rule.source.provider == "windsurf";
        for key in rule.frontmatter.keys() {
            let known = KNOWN_KEYS.contains(&key.as_str()) || (windsurf && key == "trigger");
            if !known {
                findings.push(finding(
                    DiagnosticCode::UnknownKey,
                    path,
                    key_line(&text, key),
                    format!(
                        "unknown key `{key}`: no provider reads it (known: {}{})",
                        KNOWN_KEYS.join(", "),
                        if windsurf { ", trigger" } else { "" }
                    ),
                ));
            }
        }
    }
    for d in book.diagnostics() {
        if matches!(
            d.code,
            DiagnosticCode::InvalidItem
                | DiagnosticCode::InvalidTrigger
                | DiagnosticCode::DuplicateTrigger
        ) {
            continue; // recomputed for every file above
        }
        if d.code == DiagnosticCode::YamlSyntax
            && d.path
                .as_ref()
                .zip(d.line)
                .is_some_and(|(p, l)| glob_lines.contains(&(p.clone(), l)))
        {
            continue; // the unquoted-glob finding says the same, and how to fix it
        }
        let mut d = d.clone();
        d.severity = severity(d.code);
        findings.push(d);
    }
    for (loser, winner) in book.shadowed() {
        if loser.source.provider != winner.source.provider {
            findings.push(with_provider(
                loser,
                finding(
                    DiagnosticCode::Shadowed,
                    &loser.path,
                    None,
                    format!(
                        "`{}` ({}) is shadowed by {} ({}), which has the same name",
                        loser.name,
                        loser.source.provider_name,
                        winner.path.display(),
                        winner.source.provider_name
                    ),
                ),
            ));
        }
    }
    for d in book.glob_diagnostics() {
        let mut d = d.clone();
        d.severity = Severity::Error;
        findings.push(d);
    }
    // Stable: by file, then line; findings without a file last.
    findings.sort_by(|a, b| {
        (a.path.is_none(), &a.path, a.line).cmp(&(b.path.is_none(), &b.path, b.line))
    });

    let errors = findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = findings.len() - errors;
    let files = book.all().len();
    if json {
        let value = json!({
            "profile": match book.profile() {
                rulebook::Profile::Reference => "reference",
                rulebook::Profile::Extended => "extended",
            },
            "files": files,
            "errors": errors,
            "warnings": warnings,
            "diagnostics": findings.iter().map(diagnostic_json).collect::<Vec<_>>(),
        });
        out.json(&value);
    } else {
        for d in &findings {
            let label = match d.severity {
                Severity::Error => out.red(&format!("error[{}]", code_name(d.code))),
                Severity::Warning => out.yellow(&format!("warning[{}]", code_name(d.code))),
            };
            let mut at = d.path.as_deref().map(|p| out.show(p)).unwrap_or_default();
            if let Some(line) = d.line {
                let _ = write!(at, ":{line}:{}", d.column.unwrap_or(1));
            }
            let message = out.relative_message(&d.message);
            let line = if at.is_empty() {
                format!("{label}: {message}")
            } else {
                format!("{at}: {label}: {message}")
            };
            let _ = writeln!(out.text, "{line}");
        }
        let summary = format!("{errors} error(s), {warnings} warning(s) in {files} rule file(s)");
        let summary = if errors > 0 {
            out.red(&summary)
        } else {
            out.bold(&summary)
        };
        let _ = writeln!(out.text, "{summary}");
    }
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
