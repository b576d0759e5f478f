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
pub(crate) struct Config {
    #[serde(default)]
    pub(crate) check: CheckConfig,
}

/// The `[check]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckConfig {
    #[serde(default)]
    pub(crate) ignore: Vec<String>,
    #[serde(default)]
    pub(crate) select: Vec<String>,
    #[serde(default)]
    pub(crate) strict: bool,
}

/// The nearest `rulebook.toml` from `cwd` up to the repository root (the nearest ancestor
/// holding `.git`), parsed. `Ok(None)` when there is none; `Err` says what is wrong where.
pub(crate) fn load(cwd: &Path) -> Result<Option<(PathBuf, Config)>, String> {
    for dir in cwd.ancestors() {
        let candidate = dir.join("rulebook.toml");
        match std::fs::read_to_string(&candidate) {
            Ok(text) => {
                return toml::from_str(&text)
                    .map(|config| Some((candidate.clone(), config)))
                    .map_err(|err| format!("{}: {err}", candidate.display()));
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => return Err(format!("cannot read {}: {err}", candidate.display())),
        }
        if std::fs::symlink_metadata(dir.join(".git")).is_ok() {
            break;
        }
    }
    Ok(None)
}
