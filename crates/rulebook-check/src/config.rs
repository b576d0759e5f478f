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

/// The nearest `rulebook.toml` from `cwd` up to the repository root (the nearest ancestor
/// holding `.git`), parsed. `Ok(None)` when there is none; `Err` says what is wrong where.
pub fn load(cwd: &Path) -> Result<Option<(PathBuf, Config)>, ConfigError> {
    for dir in cwd.ancestors() {
        let candidate = dir.join("rulebook.toml");
        match std::fs::read_to_string(&candidate) {
            Ok(text) => {
                return toml::from_str(&text)
                    .map(|config| Some((candidate.clone(), config)))
                    .map_err(|err| ConfigError {
                        path: candidate.clone(),
                        message: err.to_string(),
                    });
            }
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
