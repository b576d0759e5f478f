//! `rulebook check`: prints the findings of `rulebook-check` and exits 1 when the check
//! fails. The options come from the command line and the project's `rulebook.toml`.

use std::fmt::Write;
use std::process::ExitCode;

use rulebook::Severity;
use rulebook_check::{CheckOptions, parse_codes};
use serde::Serialize;

use crate::json::{self, JsonDiagnostic, PathText};
use crate::printer::Printer;

/// `rulebook check`'s options.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct CheckArgs {
    /// Fail on warnings too (exit 1), not only on errors.
    #[arg(long)]
    strict: bool,
    /// Report only these codes (comma-separated kebab-case names, e.g. yaml-syntax).
    #[arg(long, value_delimiter = ',', value_name = "CODE,...",
          value_parser = crate::shell::Known(crate::shell::codes), hide_possible_values = true)]
    select: Vec<String>,
    /// Never report these codes (comma-separated), e.g. --ignore unknown-key.
    #[arg(long, value_delimiter = ',', value_name = "CODE,...",
          value_parser = crate::shell::Known(crate::shell::codes), hide_possible_values = true)]
    ignore: Vec<String>,
}

#[derive(Serialize)]
struct Check<'a> {
    profile: &'static str,
    files: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    config: Option<PathText<'a>>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

pub(crate) fn run(out: &mut Printer<'_>, args: &CheckArgs) -> ExitCode {
    let book = out.book;
    let config = match rulebook_check::config::load(book.cwd()) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("rulebook: {}", crate::printer::escape(&message.to_string()));
            return ExitCode::from(2);
        }
    };
    let options = (|| {
        let options = CheckOptions::new()
            .select(parse_codes(&args.select)?)
            .ignore(parse_codes(&args.ignore)?)
            .strict(args.strict);
        match &config {
            Some((_, config)) => options.with_config(&config.check),
            None => Ok(options),
        }
    })();
    let options = match options {
        Ok(options) => options,
        Err(err) => {
            eprintln!("rulebook: {err}");
            return ExitCode::from(2);
        }
    };
    let report = rulebook_check::check(book, &options);
    let (errors, warnings, infos) = (
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Info),
    );
    let files = book.all().len();
    if out.json {
        out.json(&Check {
            profile: json::profile(book),
            files,
            errors,
            warnings,
            infos,
            config: config.as_ref().map(|(path, _)| PathText(path)),
            diagnostics: json::diagnostics(&report.findings),
        });
    } else {
        for d in &report.findings {
            let label = format!("{}[{}]", out.severity(d.severity), d.code.as_str());
            let mut at = d.path.as_deref().map(|p| out.show(p)).unwrap_or_default();
            if let Some(line) = d.line {
                let _ = write!(at, ":{line}:{}", d.column.unwrap_or(1));
            }
            let message = out.message(&d.message);
            let line = if at.is_empty() {
                format!("{label}: {message}")
            } else {
                format!("{at}: {label}: {message}")
            };
            let _ = writeln!(out.text, "{line}");
        }
        let mut summary = format!("{errors} error(s), {warnings} warning(s)");
        if infos > 0 {
            let _ = write!(summary, ", {infos} info");
        }
        let _ = write!(summary, " in {files} rule file(s)");
        if report.strict && warnings > 0 && errors == 0 {
            summary.push_str(" (--strict: warnings fail)");
        }
        let summary = if report.failed() {
            out.red(&summary)
        } else {
            out.bold(&summary)
        };
        let _ = writeln!(out.text, "{summary}");
    }
    if report.failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
