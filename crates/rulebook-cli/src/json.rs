//! The JSON contract of `--json`, as types: the compiler checks its shape. Keys are only
//! ever added within a major version (README, "`list --json`").
//!
//! Paths are written as text: normalized (no `x/../y`), and lossily where they are not
//! UTF-8 (the lossy ones are listed under `lossy_paths`, so a consumer can tell), never a
//! panic.

use std::path::{Component, Path, PathBuf};

use rulebook::{Diagnostic, Rule, RuleBucket, Rulebook, Severity};
use serde::{Serialize, Serializer};

/// Serializes a path as normalized, lossy text.
#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's `serialize_with` passes a reference"
)]
pub(crate) fn path<S: Serializer>(path: &&Path, serializer: S) -> Result<S::Ok, S::Error> {
    // The common case, a clean UTF-8 path, without taking it apart or copying it.
    match path.to_str() {
        Some(text) if is_clean(text) => serializer.serialize_str(text),
        _ => serializer.serialize_str(&normalize(path).to_string_lossy()),
    }
}

/// Whether `text` has no `.` or `..` component (so [`normalize`] would return it as is).
fn is_clean(text: &str) -> bool {
    // A component is `.` or `..` when a `.` starts it and a separator or the end comes
    // within two bytes: look only where a component starts.
    const SEP: u8 = std::path::MAIN_SEPARATOR as u8;
    let bytes = text.as_bytes();
    let dot_component = |at: usize| {
        let rest = bytes.get(at..).unwrap_or_default();
        let ends = |r: &[u8]| r.first().is_none_or(|&c| c == SEP);
        match rest {
            [b'.', b'.', after @ ..] => ends(after) || ends(&rest[1..]),
            [b'.', after @ ..] => ends(after),
            _ => false,
        }
    };
    !(dot_component(0)
        || bytes
            .iter()
            .enumerate()
            .any(|(i, &b)| b == SEP && dot_component(i + 1)))
}

/// A path written as [`path`] writes it; `Option<PathText>` is `null` or the text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PathText<'a>(pub(crate) &'a Path);

impl Serialize for PathText<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        path(&self.0, serializer)
    }
}

/// `.` dropped and `..` resolved lexically.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    if !path
        .components()
        .any(|c| matches!(c, Component::CurDir | Component::ParentDir))
    {
        return path.to_path_buf();
    }
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Every path of the book that is not UTF-8, written lossily: JSON cannot carry it exactly.
pub(crate) fn lossy_paths(book: &Rulebook) -> Vec<String> {
    let mut out: Vec<String> = [book.cwd(), book.home()]
        .into_iter()
        .chain(book.all().iter().map(|e| e.item.path.as_path()))
        .chain(book.diagnostics().iter().filter_map(|d| d.path.as_deref()))
        .filter(|p| p.to_str().is_none())
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The profile's name.
pub(crate) fn profile(book: &Rulebook) -> &'static str {
    match book.profile() {
        rulebook::Profile::Reference => "reference",
        rulebook::Profile::Extended => "extended",
    }
}

/// `user` or `project`.
pub(crate) fn level(rule: &Rule) -> &'static str {
    match rule.source.level {
        rulebook::Level::User => "user",
        rulebook::Level::Project => "project",
    }
}

/// One diagnostic.
#[derive(Serialize)]
pub(crate) struct JsonDiagnostic<'a> {
    pub(crate) severity: Severity,
    pub(crate) code: rulebook::DiagnosticCode,
    pub(crate) provider: Option<&'a str>,
    pub(crate) path: Option<PathText<'a>>,
    pub(crate) line: Option<usize>,
    pub(crate) column: Option<usize>,
    pub(crate) message: &'a str,
}

impl<'a> From<&'a Diagnostic> for JsonDiagnostic<'a> {
    fn from(d: &'a Diagnostic) -> Self {
        Self {
            severity: d.severity,
            code: d.code,
            provider: d.provider.as_deref(),
            path: d.path.as_deref().map(PathText),
            line: d.line,
            column: d.column,
            message: &d.message,
        }
    }
}

/// Diagnostics as JSON.
pub(crate) fn diagnostics<'a>(
    list: impl IntoIterator<Item = &'a Diagnostic>,
) -> Vec<JsonDiagnostic<'a>> {
    list.into_iter().map(JsonDiagnostic::from).collect()
}

/// A rule in a bucket (`list --json`'s `rules`).
#[derive(Serialize)]
pub(crate) struct JsonRule<'a> {
    pub(crate) name: &'a str,
    pub(crate) bucket: &'static str,
    pub(crate) provider: &'a str,
    pub(crate) provider_name: &'a str,
    pub(crate) level: &'static str,
    #[serde(serialize_with = "path")]
    pub(crate) path: &'a Path,
    pub(crate) description: Option<&'a str>,
    pub(crate) globs: Option<&'a [String]>,
    pub(crate) always_apply: Option<bool>,
    pub(crate) condition: &'a [String],
}

impl<'a> JsonRule<'a> {
    pub(crate) fn new(rule: &'a Rule, bucket: RuleBucket) -> Self {
        Self {
            name: &rule.name,
            bucket: bucket.as_str(),
            provider: &rule.source.provider,
            provider_name: &rule.source.provider_name,
            level: level(rule),
            path: &rule.path,
            description: rule.description.as_deref(),
            globs: rule.globs.as_deref(),
            always_apply: rule.always_apply,
            condition: &rule.condition,
        }
    }
}

/// A rule file named by provider and path.
#[derive(Serialize)]
pub(crate) struct JsonSource<'a> {
    pub(crate) provider: &'a str,
    #[serde(serialize_with = "path")]
    pub(crate) path: &'a Path,
}

impl<'a> JsonSource<'a> {
    pub(crate) fn new(rule: &'a Rule) -> Self {
        Self {
            provider: &rule.source.provider,
            path: &rule.path,
        }
    }
}

/// A rule that lost its name, or failed validation, or landed in no bucket.
#[derive(Serialize)]
pub(crate) struct JsonLeftOut<'a> {
    pub(crate) name: &'a str,
    pub(crate) provider: &'a str,
    #[serde(serialize_with = "path")]
    pub(crate) path: &'a Path,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) shadowed_by: Option<JsonSource<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reason: Option<&'a str>,
}

/// A JSON array written from an iterator as it is serialized, never collected first (the
/// rules of `list --json` are tens of thousands).
pub(crate) struct Streamed<'a, T>(std::cell::Cell<Option<Box<dyn Iterator<Item = T> + 'a>>>);

impl<'a, T> Streamed<'a, T> {
    pub(crate) fn new(items: impl Iterator<Item = T> + 'a) -> Self {
        Self(std::cell::Cell::new(Some(Box::new(items))))
    }
}

impl<T: Serialize> Serialize for Streamed<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Serialized once: a second time writes an empty array.
        serializer.collect_seq(self.0.take().into_iter().flatten())
    }
}

/// `list --json`.
#[derive(Serialize)]
pub(crate) struct List<'a> {
    pub(crate) profile: &'static str,
    pub(crate) rules: Streamed<'a, JsonRule<'a>>,
    pub(crate) shadowed: Vec<JsonLeftOut<'a>>,
    pub(crate) invalid: Vec<JsonLeftOut<'a>>,
    pub(crate) unbucketed: Vec<JsonLeftOut<'a>>,
    pub(crate) diagnostics: Vec<JsonDiagnostic<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) lossy_paths: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::is_clean;

    /// The byte scan says what splitting at the separator says.
    #[test]
    fn is_clean_is_no_dot_component() {
        let by_split = |t: &str| {
            !t.split(std::path::MAIN_SEPARATOR)
                .any(|c| c == "." || c == "..")
        };
        let pieces = ["", ".", "..", "...", ".a", "..a", "a.", "a", "/", "//"];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let t = format!("{a}{b}{c}");
                    assert_eq!(is_clean(&t), by_split(&t), "{t:?}");
                }
            }
        }
        assert!(is_clean("/p/.cursor/rules/a.mdc"));
        assert!(!is_clean("/p/./a.mdc"));
        assert!(!is_clean("/p/../a.mdc"));
    }
}
