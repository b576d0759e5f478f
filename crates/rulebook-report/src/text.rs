//! Paths and names as reports write them: paths as normalized, lossy text (no `x/../y`,
//! never a panic on a path that is not UTF-8; the lossy ones listed by [`lossy_paths`]),
//! levels, profiles and severities by their names, diagnostics and sources as JSON.

use std::path::{Component, Path, PathBuf};

use rulebook::{Diagnostic, Rule, Rulebook, Severity};
use serde::{Serialize, Serializer};

/// Serializes a path as normalized, lossy text.
#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's `serialize_with` passes a reference"
)]
pub fn path<S: Serializer>(path: &&Path, serializer: S) -> Result<S::Ok, S::Error> {
    // The common case, a clean UTF-8 path, without taking it apart or copying it.
    serializer.serialize_str(&path_text(path))
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
    // Only where a `.` stands (found by the standard library's byte search), look back for
    // the start of a component.
    !text
        .match_indices('.')
        .any(|(at, _)| (at == 0 || bytes[at - 1] == SEP) && dot_component(at))
}

/// A path written as [`path`] writes it; `Option<PathText>` is `null` or the text.
#[derive(Debug, Clone, Copy)]
pub struct PathText<'a>(pub &'a Path);

impl Serialize for PathText<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        path(&self.0, serializer)
    }
}

/// `.` dropped and `..` resolved lexically.
pub fn normalize(path: &Path) -> PathBuf {
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
pub fn lossy_paths(book: &Rulebook) -> Vec<String> {
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
pub fn profile(book: &Rulebook) -> &'static str {
    match book.profile() {
        rulebook::Profile::Reference => "reference",
        rulebook::Profile::Extended => "extended",
    }
}

/// `user` or `project`.
pub fn level(rule: &Rule) -> &'static str {
    match rule.source.level {
        rulebook::Level::User => "user",
        rulebook::Level::Project => "project",
    }
}

/// One diagnostic.
#[derive(Debug, Serialize)]
pub struct JsonDiagnostic<'a> {
    /// Its severity.
    pub severity: Severity,
    /// Its code.
    pub code: rulebook::DiagnosticCode,
    /// The display name of the provider that said it.
    pub provider: Option<&'a str>,
    /// The file it is about.
    pub path: Option<PathText<'a>>,
    /// 1-based line.
    pub line: Option<usize>,
    /// 1-based column.
    pub column: Option<usize>,
    /// What it says.
    pub message: &'a str,
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
pub fn diagnostics<'a>(list: impl IntoIterator<Item = &'a Diagnostic>) -> Vec<JsonDiagnostic<'a>> {
    list.into_iter().map(JsonDiagnostic::from).collect()
}

/// A rule file named by provider and path.
#[derive(Debug, Serialize)]
pub struct JsonSource<'a> {
    /// The provider's id.
    pub provider: &'a str,
    /// The file.
    #[serde(serialize_with = "path")]
    pub path: &'a Path,
}

impl<'a> JsonSource<'a> {
    /// The source of `rule`.
    pub fn new(rule: &'a Rule) -> Self {
        Self {
            provider: &rule.source.provider,
            path: &rule.path,
        }
    }
}

/// A path as [`path`] writes it.
pub fn path_text(path: &Path) -> std::borrow::Cow<'_, str> {
    match path.to_str() {
        Some(text) if is_clean(text) => text.into(),
        _ => normalize(path).to_string_lossy().into_owned().into(),
    }
}

/// A severity's name: `error`, `warning` or `info`.
pub fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
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
