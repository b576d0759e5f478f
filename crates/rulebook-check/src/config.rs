//! `rulebook.toml`: per-project choices, found in the project directory or one of its
//! parents up to the repository root.
//!
//! ```toml
//! [check]
//! ignore = ["unknown-key"]   # never report these codes
//! select = []                # report only these codes (empty: all)
//! strict = false             # warnings fail the check too
//! ```

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The file's contents.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The `[check]` table.
    #[serde(default)]
    pub check: CheckConfig,
}

/// The `[check]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckConfig {
    /// Codes never reported.
    #[serde(default)]
    pub ignore: Vec<String>,
    /// Codes reported (empty: all).
    #[serde(default)]
    pub select: Vec<String>,
    /// Warnings fail the check too.
    #[serde(default)]
    pub strict: bool,
}

/// The largest `rulebook.toml` read (a config is a few lines; `/dev/zero` is not one).
pub const MAX_CONFIG_SIZE: u64 = 64 * 1024;

/// The nearest `rulebook.toml` from `cwd` up to the repository root (the nearest ancestor
/// holding `.git`), parsed. `Ok(None)` when there is none; `Err` says what is wrong where.
///
/// It is read as rule files are: opened without blocking, a regular file only (a FIFO,
/// a device or a directory is an error), at most [`MAX_CONFIG_SIZE`] bytes, and its real
/// path (of the opened file) under the repository root, or under its own directory
/// outside a repository: a link to a file elsewhere is refused. An error never quotes the
/// file: it names the line and column and what the parser expected.
pub fn load(cwd: &Path) -> Result<Option<(PathBuf, Config)>, ConfigError> {
    for dir in cwd.ancestors() {
        let candidate = dir.join("rulebook.toml");
        match std::fs::symlink_metadata(&candidate) {
            Ok(_) => return read(dir, candidate).map(Some),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => {
                return Err(ConfigError {
                    path: candidate.clone(),
                    message: format!("cannot read it: {err}"),
                });
            }
        }
        if std::fs::symlink_metadata(dir.join(".git")).is_ok() {
            break;
        }
    }
    Ok(None)
}

/// Reads and parses the `rulebook.toml` found in `dir`.
fn read(dir: &Path, path: PathBuf) -> Result<(PathBuf, Config), ConfigError> {
    use rulebook::stages::fs::{ReadOptions, read_rule};
    let boundary = dir
        .ancestors()
        .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
        .unwrap_or(dir);
    let options = ReadOptions::new()
        .max_size(Some(MAX_CONFIG_SIZE))
        .detailed_errors(true)
        .project_root(Some(boundary.to_path_buf()));
    let (text, diagnostics) = read_rule(&path, &options);
    let Some(text) = text else {
        let shown = path.display().to_string();
        let why = diagnostics.first().map_or_else(
            || "it could not be read".to_owned(),
            |d| match d.code {
                rulebook::DiagnosticCode::TooLarge => {
                    format!(
                        "it is larger than {MAX_CONFIG_SIZE} bytes, the limit for rulebook.toml"
                    )
                }
                rulebook::DiagnosticCode::OutsideProject => format!(
                    "it lies outside {} (a link out of the project is never read)",
                    boundary.display()
                ),
                // "Skipped <path>: it is a FIFO, not a regular file".
                rulebook::DiagnosticCode::NotAFile => d
                    .message
                    .split_once(": ")
                    .map_or_else(|| d.message.clone(), |(_, why)| why.to_owned()),
                // "Failed to read file: <path> (<the system's reason>)".
                _ => d
                    .message
                    .strip_prefix(&format!("Failed to read file: {shown} ("))
                    .and_then(|rest| rest.strip_suffix(')'))
                    .map_or_else(|| d.message.clone(), str::to_owned),
            },
        );
        return Err(ConfigError {
            path,
            message: format!("cannot read it: {why}"),
        });
    };
    if let Some(d) = diagnostics.first() {
        if d.code == rulebook::DiagnosticCode::InvalidUtf8 {
            return Err(ConfigError {
                path,
                message: "cannot read it: it is not valid UTF-8".to_owned(),
            });
        }
    }
    match toml::from_str::<Config>(&text.text) {
        Ok(config) => Ok((path, config)),
        Err(err) => Err(ConfigError {
            path,
            message: parse_error(&text.text, &err),
        }),
    }
}

/// A TOML error on one line, where it is and what was expected, never the file's text
/// (the parser's own rendering quotes the line).
fn parse_error(text: &str, err: &toml::de::Error) -> String {
    let what = err.message().trim().replace('\n', " ");
    match err.span() {
        Some(span) => {
            let before = &text.as_bytes()[..span.start.min(text.len())];
            let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let column = 1 + String::from_utf8_lossy(&before[line_start..])
                .chars()
                .count();
            format!("line {line}, column {column}: {what}")
        }
        None => what,
    }
}

/// A `rulebook.toml` that cannot be read or parsed: where, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong, with the line where the parser knows it.
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for ConfigError {}
