//! `rulebook match PATH…`: which rules apply to these files. Always-apply rules apply to
//! every file: the text names them once, first; the others by their globs, under each path
//! (Extended E3). The JSON lists each path's rules whole.

use std::fmt::Write;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rulebook::{Rule, RuleBucket, Rulebook};
use serde::Serialize;

use crate::json::{self, JsonDiagnostic};
use crate::printer::{Printer, escape};

#[derive(Serialize)]
struct Hit<'a> {
    /// The rule's index among the book's items.
    #[serde(skip)]
    position: usize,
    name: &'a str,
    /// `always-apply` or `glob`.
    by: &'static str,
    glob: Option<String>,
    bucket: Option<&'static str>,
    provider: &'a str,
    #[serde(serialize_with = "json::path")]
    path: &'a Path,
}

#[derive(Serialize)]
struct PathHits<'a> {
    #[serde(serialize_with = "json::path")]
    path: &'a Path,
    inside_project: bool,
    rules: Vec<Hit<'a>>,
}

#[derive(Serialize)]
struct Matches<'a> {
    profile: &'static str,
    paths: Vec<PathHits<'a>>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

/// The paths `match` was given: `paths` without `-`, then (for `-` or `--stdin`) those of
/// standard input.
pub(crate) fn paths(paths: &[PathBuf], stdin: bool) -> std::io::Result<Vec<PathBuf>> {
    let from_stdin = stdin || paths.iter().any(|p| p.as_os_str() == "-");
    let mut out: Vec<PathBuf> = paths
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .cloned()
        .collect();
    if from_stdin {
        out.extend(read_stdin_paths()?);
    }
    Ok(out)
}

/// The paths of standard input, one per line (empty lines skipped).
fn read_stdin_paths() -> std::io::Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let line = line.trim_end_matches('\r');
        if !line.is_empty() {
            paths.push(PathBuf::from(line));
        }
    }
    Ok(paths)
}

fn hits<'a>(book: &'a Rulebook, rules: &[&'a Rule], path: &Path) -> (bool, Vec<Hit<'a>>) {
    let found = book.rules_for_path(path);
    let hits = found
        .hits
        .into_iter()
        .map(|hit| {
            let rule = rules[hit.position];
            Hit {
                position: hit.position,
                name: &rule.name,
                by: if hit.glob.is_some() {
                    "glob"
                } else {
                    "always-apply"
                },
                glob: hit.glob,
                bucket: book
                    .placement(hit.position)
                    .and_then(|p| p.bucket)
                    .map(RuleBucket::as_str),
                provider: &rule.source.provider,
                path: &rule.path,
            }
        })
        .collect();
    (found.inside_project, hits)
}

/// One rule of the text output: its name, how it applies, its bucket, file and scope.
fn line(out: &mut Printer<'_>, book: &Rulebook, rules: &[&Rule], h: &Hit<'_>) {
    let how = match &h.glob {
        Some(glob) => format!("by {}", escape(glob)),
        None => "always-apply".to_owned(),
    };
    let scope = super::scope(book, rules[h.position])
        .map(|s| format!(", {s}"))
        .unwrap_or_default();
    let detail = out.dim(&format!(
        "({}, {}{scope})",
        h.bucket.unwrap_or("no bucket"),
        out.show(h.path)
    ));
    let _ = writeln!(out.text, "  {}  {how}  {detail}", escape(h.name));
}

pub(crate) fn run(out: &mut Printer<'_>, paths: &[PathBuf]) -> ExitCode {
    let book = out.book;
    let rules: Vec<&Rule> = book.items().collect();
    if out.json {
        let per_path = paths
            .iter()
            .map(|path| {
                let (inside_project, rules) = hits(book, &rules, path);
                PathHits {
                    path,
                    inside_project,
                    rules,
                }
            })
            .collect();
        out.json(&Matches {
            profile: json::profile(book),
            paths: per_path,
            diagnostics: json::diagnostics(book.glob_diagnostics()),
        });
        return ExitCode::SUCCESS;
    }
    if book.profile() == rulebook::Profile::Reference {
        let note = out.dim("note: the reference profile never attaches rules by glob; the glob matches below are what --profile extended would attach");
        let _ = writeln!(out.text, "{note}");
    }
    // The always-apply rules apply to every file: said once, before the paths.
    let mut always_said = false;
    for path in paths {
        let (inside, hits) = hits(book, &rules, path);
        let (always, globbed): (Vec<Hit<'_>>, Vec<Hit<'_>>) =
            hits.into_iter().partition(|h| h.glob.is_none());
        if !always_said && !always.is_empty() {
            always_said = true;
            let _ = writeln!(out.text, "{}", out.bold("every file (always-apply)"));
            for h in &always {
                line(out, book, &rules, h);
            }
        }
        let shown = out.bold(&escape(&path.display().to_string()));
        let note = if !inside {
            Some("outside the project: no glob matches it")
        } else if globbed.is_empty() {
            Some("no rule's globs match")
        } else {
            None
        };
        match note {
            Some(note) => {
                let note = out.dim(note);
                let _ = writeln!(out.text, "{shown}  {note}");
            }
            None => {
                let _ = writeln!(out.text, "{shown}");
            }
        }
        for h in &globbed {
            line(out, book, &rules, h);
        }
    }
    let glob_warnings: Vec<_> = book.glob_diagnostics().iter().collect();
    if !glob_warnings.is_empty() {
        out.warnings(&glob_warnings);
    }
    ExitCode::SUCCESS
}
