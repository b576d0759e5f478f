//! `rulebook read rule://NAME`: the rule's content, ending in a newline (`--json`: exactly).

use std::process::ExitCode;

use serde::Serialize;

use crate::printer::{Printer, escape_lines};

#[derive(Serialize)]
struct ReadError<'a> {
    error: String,
    available: Option<&'a [String]>,
}

pub(crate) fn run(out: &mut Printer<'_>, url: &str) -> ExitCode {
    match out.book.resolve(url) {
        Ok(resource) => {
            if out.json {
                out.json(&resource);
            } else {
                // What an agent reading the URL gets, then the final newline a body read
                // from under frontmatter loses to trimming (spec §3), so the text ends as
                // the file did and a terminal prompt starts on its own line. `--json` has
                // the content exactly.
                let mut content = resource.content;
                if !content.is_empty() && !content.ends_with('\n') {
                    content.push('\n');
                }
                out.raw(content);
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            if out.json {
                let available = match &err {
                    rulebook::ProtocolError::UnknownRule { available, .. } => {
                        Some(available.as_slice())
                    }
                    _ => None,
                };
                out.json(&ReadError {
                    error: err.to_string(),
                    available,
                });
            }
            eprintln!("rulebook: {}", escape_lines(&err.to_string()));
            ExitCode::FAILURE
        }
    }
}
