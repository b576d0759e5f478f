//! `rulebook prompt`: the system-prompt text.

use std::path::PathBuf;
use std::process::ExitCode;

use rulebook::RuleBucket;
use serde::Serialize;

use crate::json;
use crate::printer::Printer;

#[derive(Serialize)]
struct AttachedRule<'a> {
    name: &'a str,
    glob: &'a str,
    path: &'a str,
}

#[derive(Serialize)]
struct Prompt<'a> {
    profile: &'static str,
    always_apply: Vec<&'a str>,
    attached: Vec<AttachedRule<'a>>,
    rulebook: Vec<&'a str>,
    text: &'a str,
}

pub(crate) fn run(out: &mut Printer<'_>, paths: &[PathBuf]) -> ExitCode {
    let book = out.book;
    let text = book.system_prompt_section_for(paths);
    if !out.json {
        let mut text = text;
        if !text.is_empty() {
            text.push('\n');
        }
        out.raw(text);
        return ExitCode::SUCCESS;
    }
    let applicable = if book.profile() == rulebook::Profile::Extended && !paths.is_empty() {
        book.applicable(paths)
    } else {
        Vec::new()
    };
    let attached = applicable
        .iter()
        .filter(|a| {
            let rule = book.items().nth(a.rule);
            rule.zip(book.placement(a.rule))
                .is_some_and(|(rule, p)| rulebook::stages::partition::attachable(rule, p))
        })
        .map(|a| AttachedRule {
            name: &a.name,
            glob: &a.glob,
            path: &a.path,
        })
        .collect();
    let names = |bucket| {
        book.bucket(bucket)
            .into_iter()
            .map(|r| r.name.as_str())
            .collect::<Vec<_>>()
    };
    out.json(&Prompt {
        profile: json::profile(book),
        always_apply: names(RuleBucket::AlwaysApply),
        attached,
        rulebook: names(RuleBucket::Rulebook),
        text: &text,
    });
    ExitCode::SUCCESS
}
