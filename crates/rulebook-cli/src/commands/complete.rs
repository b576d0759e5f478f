//! `rulebook complete`: `rule://` completions with descriptions.

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

pub(crate) fn run(out: &mut Printer<'_>, prefix: &str) -> ExitCode {
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
