//! `rulebook read rule://NAME`: the rule's content, exactly.

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
                // Byte for byte what an agent reading the URL gets; nothing added.
                out.raw(resource.content);
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
            eprintln!("{}", escape_lines(&err.to_string()));
            ExitCode::FAILURE
        }
    }
}
