//! `rulebook complete`: `rule://` completions with descriptions, or (`--names`) the names
//! `explain` takes.

use std::fmt::Write;
use std::process::ExitCode;

use serde::Serialize;

use crate::json;
use crate::printer::{Printer, escape};

#[derive(Serialize)]
struct Complete {
    profile: &'static str,
    completions: Vec<rulebook::Completion>,
}

pub(crate) fn run(out: &mut Printer<'_>, prefix: &str, names: bool) -> ExitCode {
    if names {
        return explain_names(out, prefix);
    }
    let completions = out.book.complete(prefix);
    if out.json {
        out.json(&Complete {
            profile: json::profile(out.book),
            completions,
        });
        return ExitCode::SUCCESS;
    }
    for c in &completions {
        // Tab-separated for shells: a name or description cannot inject a tab, a newline or
        // a terminal escape.
        let _ = writeln!(
            out.text,
            "{}\t{}",
            escape(&c.url),
            escape(c.description.as_deref().unwrap_or(""))
        );
    }
    ExitCode::SUCCESS
}

/// The names `explain` takes that start with `prefix`: every rule file's name, then every
/// skill's, each once, as written (a name holding a control character or a bidirectional
/// override cannot be typed, and is left out rather than printed).
fn explain_names(out: &mut Printer<'_>, prefix: &str) -> ExitCode {
    let book = out.book;
    let mut seen = std::collections::HashSet::new();
    let rules = book.all().iter().map(|e| e.item.name.as_str());
    let skills = book.all_skills().iter().map(|e| e.item.name.as_str());
    let names: Vec<&str> = rules
        .chain(skills)
        .filter(|n| {
            n.starts_with(prefix)
                && !n.is_empty()
                && matches!(escape(n), std::borrow::Cow::Borrowed(_))
        })
        .filter(|n| seen.insert(*n))
        .collect();
    if out.json {
        out.json(&serde_json::json!({ "profile": json::profile(book), "names": names }));
        return ExitCode::SUCCESS;
    }
    for name in names {
        let _ = writeln!(out.text, "{name}");
    }
    ExitCode::SUCCESS
}
