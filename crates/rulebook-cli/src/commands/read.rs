//! `rulebook read rule://NAME`: the rule's content, ending in a newline (`--json`: exactly).

use std::process::ExitCode;

use serde::Serialize;

use crate::printer::{Printer, escape_lines};

#[derive(Serialize)]
struct ReadError<'a> {
    error: String,
    available: Option<&'a [String]>,
}

/// What `read skill://…` writes with `--json`.
#[derive(Serialize)]
struct SkillRead<'a> {
    url: &'a str,
    name: &'a str,
    #[serde(serialize_with = "crate::json::path")]
    path: &'a std::path::Path,
    mime_type: &'a str,
    content: &'a str,
}

/// `read skill://NAME[/PATH]`: the skill's SKILL.md whole, or a file of its folder.
fn skill(out: &mut Printer<'_>, url: &str) -> ExitCode {
    match out.book.resolve_skill(url) {
        Ok(resource) => {
            if out.json {
                out.json(&SkillRead {
                    url: &resource.url,
                    name: &resource.name,
                    path: &resource.path,
                    mime_type: resource.mime_type,
                    content: &resource.content,
                });
            } else {
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
                    rulebook::SkillError::Unknown { available, .. } => Some(available.as_slice()),
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

pub(crate) fn run(out: &mut Printer<'_>, url: &str) -> ExitCode {
    if url
        .get(..8)
        .is_some_and(|s| s.eq_ignore_ascii_case("skill://"))
    {
        return skill(out, url);
    }
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
