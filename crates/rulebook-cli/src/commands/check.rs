//! `rulebook check`: prints the findings of `rulebook-check` and exits 1 when the check
//! fails. The options come from the command line and the project's `rulebook.toml`.

use std::fmt::Write;
use std::process::ExitCode;

use rulebook::Severity;
use rulebook_check::{CheckOptions, ToolViews, parse_codes};
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
    /// How to print the findings: full (the default), json (as --json), github (workflow
    /// annotations, `::warning file=…`), or sarif (SARIF 2.1.0, for code scanning).
    #[arg(long, value_enum, default_value_t = OutputFormat::Full, value_name = "FORMAT")]
    output_format: OutputFormat,
}

impl CheckArgs {
    /// Whether the check runs every tool's view: it reports `duplicate-load`, as far as the
    /// command line says (`rulebook.toml` may still leave it out).
    pub(crate) fn runs_views(&self) -> bool {
        let named = |codes: &[String]| codes.iter().any(|c| c == "duplicate-load");
        !named(&self.ignore) && (self.select.is_empty() || named(&self.select))
    }
}

/// `check --output-format`: ruff's and clippy's names for the same formats.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum OutputFormat {
    /// One line a finding, then the counts.
    #[default]
    Full,
    /// The JSON of `--json`.
    Json,
    /// GitHub Actions workflow commands: one annotation a finding.
    Github,
    /// SARIF 2.1.0 (GitHub code scanning, and other SARIF readers).
    Sarif,
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

pub(crate) fn run(
    out: &mut Printer<'_>,
    args: &CheckArgs,
    host: Option<rulebook::Host>,
    views: Option<std::thread::ScopedJoinHandle<'_, ToolViews>>,
) -> ExitCode {
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
            .strict(args.strict)
            .host(host);
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
    // The views, once joined, are kept here: the process ends after the report, and the OS
    // takes back their memory at once (as the book's).
    let joined = std::cell::OnceCell::new();
    let report = match views {
        Some(views) => rulebook_check::check_with_views(book, &options, || {
            joined.get_or_init(|| {
                views
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
        }),
        None => rulebook_check::check(book, &options),
    };
    std::mem::forget(joined);
    let (errors, warnings, infos) = (
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Info),
    );
    let files = report.files;
    match args.output_format {
        OutputFormat::Github => {
            github(out, &report.findings);
            return exit(&report);
        }
        OutputFormat::Sarif => {
            sarif(out, &report.findings);
            return exit(&report);
        }
        OutputFormat::Json | OutputFormat::Full => {}
    }
    if out.json || args.output_format == OutputFormat::Json {
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
    exit(&report)
}

/// 1 when the check fails (an error, or with --strict a warning), else 0.
fn exit(report: &rulebook_check::Report) -> ExitCode {
    if report.failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A finding's file as the formats for CI name it: relative to the working directory
/// (the repository, in a workflow), `/` separators; else whole.
fn relative(out: &Printer<'_>, path: &std::path::Path) -> String {
    path.strip_prefix(out.book.cwd())
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// GitHub Actions workflow commands (`::error file=F,line=L,col=C,title=T::MESSAGE`), the
/// data escaped as the runner wants it (`%`, CR, LF; and `:` and `,` in properties), and
/// every other control character written as a visible escape first, as the full format
/// does (a file name or glob holding ESC or BEL cannot drive the log's terminal).
fn github(out: &mut Printer<'_>, findings: &[rulebook::Diagnostic]) {
    let data = |s: &str| {
        crate::printer::escape_lines(s)
            .replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let property = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
    for d in findings {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = Vec::new();
        if let Some(path) = &d.path {
            props.push(format!("file={}", property(&relative(out, path))));
            if let Some(line) = d.line {
                props.push(format!("line={line}"));
                props.push(format!("col={}", d.column.unwrap_or(1)));
            }
        }
        props.push(format!(
            "title={}",
            property(&format!("rulebook ({})", d.code))
        ));
        let _ = writeln!(
            out.text,
            "::{level} {}::{}",
            props.join(","),
            data(&out.book.display_message(&d.message))
        );
    }
}

/// SARIF 2.1.0: one run of the tool `rulebook`, a rule per code that was found, a result
/// per finding (level error, warning or note; the file relative to the working directory,
/// with its line and column where known).
fn sarif(out: &mut Printer<'_>, findings: &[rulebook::Diagnostic]) {
    let mut codes: Vec<&'static str> = findings.iter().map(|d| d.code.as_str()).collect();
    codes.sort_unstable();
    codes.dedup();
    let results: Vec<serde_json::Value> = findings
        .iter()
        .map(|d| {
            let level = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "note",
            };
            let mut result = serde_json::json!({
                "ruleId": d.code.as_str(),
                "level": level,
                // The files a message names, as the file of the finding is named: relative
                // to the working directory (the repository, in a workflow).
                "message": {"text": out.book.display_message(&d.message)},
            });
            if let Some(path) = &d.path {
                // A file under the working directory by its relative path; another as a
                // `file://` URI (SARIF wants URIs): percent-encoded either way (RFC 3986).
                let uri = match path.strip_prefix(out.book.cwd()) {
                    Ok(relative) => uri_path(relative),
                    Err(_) => format!("file://{}", uri_path(path)),
                };
                let mut location = serde_json::json!({
                    "physicalLocation": {"artifactLocation": {"uri": uri}}
                });
                if let Some(line) = d.line {
                    location["physicalLocation"]["region"] = serde_json::json!({
                        "startLine": line,
                        "startColumn": d.column.unwrap_or(1),
                    });
                }
                result["locations"] = serde_json::json!([location]);
            }
            result
        })
        .collect();
    // Each code once: what it means, and how to see only its findings.
    let rules: Vec<serde_json::Value> = codes
        .iter()
        .map(|c| {
            let summary = rulebook::DiagnosticCode::from_name(c)
                .map_or("", rulebook::DiagnosticCode::summary);
            serde_json::json!({
                "id": c,
                "name": c,
                "shortDescription": {"text": summary},
                "help": {"text": format!(
                    "{summary} `rulebook check --select {c}` reports only these; docs/behaviour.md says what rulebook follows."
                )},
            })
        })
        .collect();
    out.json(&serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "rulebook",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    }));
}

/// A path as the path of a URI (RFC 3986): `/` separators, and every byte but the
/// unreserved ones and `/` percent-encoded (a name that is not UTF-8 by its own bytes), so
/// `x#y.mdc` is no fragment, `100%41.mdc` stays itself, and a space or `?` does not end it.
fn uri_path(path: &std::path::Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    if cfg!(windows) {
        let slashed: Vec<u8> = bytes
            .iter()
            .map(|&b| if b == b'\\' { b'/' } else { b })
            .collect();
        return rulebook::stages::rule::percent_encode_bytes(&slashed, b"/");
    }
    rulebook::stages::rule::percent_encode_bytes(bytes, b"/")
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::uri_path;

    /// What a URI parser reads back is the path that was written.
    #[test]
    fn uri_paths_are_percent_encoded() {
        let uri = |p: &str| uri_path(Path::new(p));
        assert_eq!(uri("a/b.mdc"), "a/b.mdc");
        assert_eq!(uri("x#y.mdc"), "x%23y.mdc");
        assert_eq!(uri("100%41.mdc"), "100%2541.mdc");
        assert_eq!(uri("a b?.md"), "a%20b%3F.md");
        assert_eq!(uri("caf\u{e9}.md"), "caf%C3%A9.md");
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let latin1 = Path::new(std::ffi::OsStr::from_bytes(b"caf\xe9.md"));
            assert_eq!(uri_path(latin1), "caf%E9.md");
        }
    }
}
