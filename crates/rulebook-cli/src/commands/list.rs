//! `rulebook list`: every rule in a bucket.

use std::fmt::Write;
use std::process::ExitCode;

use crate::json::{self, JsonLeftOut, JsonRule, JsonSource};
use crate::printer::{Printer, escape};

pub(crate) fn run(out: &mut Printer<'_>) -> ExitCode {
    let book = out.book;
    if out.json {
        let value = json::List {
            profile: json::profile(book),
            rules: json::Streamed::new(
                book.placements()
                    .filter_map(|(rule, p)| p.bucket.map(|b| JsonRule::new(rule, b))),
            ),
            shadowed: book
                .shadowed()
                .map(|(loser, winner)| JsonLeftOut {
                    name: &loser.name,
                    provider: &loser.source.provider,
                    path: &loser.path,
                    shadowed_by: Some(JsonSource::new(winner)),
                    reason: None,
                })
                .collect(),
            invalid: book
                .invalid()
                .map(|(rule, reason)| JsonLeftOut {
                    name: &rule.name,
                    provider: &rule.source.provider,
                    path: &rule.path,
                    shadowed_by: None,
                    reason: Some(reason),
                })
                .collect(),
            unbucketed: book
                .unbucketed()
                .map(|(rule, reason)| JsonLeftOut {
                    name: &rule.name,
                    provider: &rule.source.provider,
                    path: &rule.path,
                    shadowed_by: None,
                    reason: Some(reason),
                })
                .collect(),
            diagnostics: json::diagnostics(book.diagnostics()),
            lossy_paths: json::lossy_paths(book),
        };
        out.json_by(|w| json::write_list(w, &value));
        return ExitCode::SUCCESS;
    }
    let rows: Vec<[String; 5]> = book
        .placements()
        .filter_map(|(rule, p)| {
            p.bucket.map(|b| {
                [
                    escape(&rule.name).into_owned(),
                    b.as_str().to_owned(),
                    escape(&rule.source.provider).into_owned(),
                    json::level(rule).to_owned(),
                    out.show(&rule.path),
                ]
            })
        })
        .collect();
    if rows.is_empty() {
        out.text
            .push_str("No rules in any bucket. Run `rulebook explain` to see why.\n");
    } else {
        table(out, &["NAME", "BUCKET", "PROVIDER", "LEVEL", "PATH"], &rows);
    }
    let left_out = book.unbucketed().count() + book.shadowed().count() + book.invalid().count();
    // Information is not a warning (the count is `check`'s and `explain`'s).
    let warnings = book
        .diagnostics()
        .iter()
        .filter(|d| d.severity != rulebook::Severity::Info)
        .count();
    if left_out + warnings > 0 {
        let note = out.dim(&format!(
            "{left_out} more file(s) in no bucket, shadowed or invalid; {warnings} warning(s). See `rulebook explain`."
        ));
        let _ = writeln!(out.text, "\n{note}");
    }
    ExitCode::SUCCESS
}

/// A table whose last column is not padded.
pub(crate) fn table<const N: usize>(
    out: &mut Printer<'_>,
    header: &[&str; N],
    rows: &[[String; N]],
) {
    let mut widths = header.map(|h| h.chars().count());
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[&str]| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            s.push_str(cell);
            if i + 1 < N {
                s.push_str(&" ".repeat(w - cell.chars().count() + 2));
            }
        }
        s.trim_end().to_owned()
    };
    let head = out.bold(&line(header));
    let _ = writeln!(out.text, "{head}");
    for row in rows {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        let _ = writeln!(out.text, "{}", line(&cells));
    }
}
