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

/// What an agent reading the URL gets, then the final newline a body read from under
/// frontmatter loses to trimming (spec §3), so the text ends as the file did and a
/// terminal prompt starts on its own line. `--json` has the content exactly.
fn text(out: &mut Printer<'_>, mut content: String) {
    if !content.is_empty() && !content.ends_with('\n') {
        content.push('\n');
    }
    out.raw(content);
}

/// The error on standard error, and with `--json` also as JSON (with the names there are,
/// for an unknown name).
fn failure(out: &mut Printer<'_>, error: &str, available: Option<&[String]>) -> ExitCode {
    if out.json {
        out.json(&ReadError {
            error: error.to_owned(),
            available,
        });
    }
    eprintln!("rulebook: {}", escape_lines(error));
    ExitCode::FAILURE
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
                text(out, resource.content);
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            let available = match &err {
                rulebook::SkillError::Unknown { available, .. } => Some(available.as_slice()),
                _ => None,
            };
            failure(out, &err.to_string(), available)
        }
    }
}

pub(crate) fn run(out: &mut Printer<'_>, url: &str) -> ExitCode {
    if rulebook::skill_url_rest(url).is_some() {
        return skill(out, url);
    }
    match out.book.resolve(url) {
        Ok(resource) => {
            if out.json {
                out.json(&resource);
            } else {
                text(out, resource.content);
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            let available = match &err {
                rulebook::ProtocolError::UnknownRule { available, .. } => {
                    Some(available.as_slice())
                }
                _ => None,
            };
            failure(out, &err.to_string(), available)
        }
    }
}
