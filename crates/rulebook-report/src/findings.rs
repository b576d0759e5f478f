//! A diagnostic as a report names it: its file as a person names it, its message with the
//! project's paths shortened.

use rulebook::{Diagnostic, Rulebook};
use serde::Serialize;

use crate::text;

/// A warning or finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// `error`, `warning` or `info`.
    pub severity: &'static str,
    /// The code (`yaml-syntax`).
    pub code: &'static str,
    /// The file, as a person names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 1-based line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// The finding of one diagnostic of `book`.
pub fn finding(book: &Rulebook, d: &Diagnostic) -> Finding {
    Finding {
        severity: text::severity(d.severity),
        code: d.code.as_str(),
        path: d.path.as_deref().map(|p| book.display_path(p)),
        line: d.line,
        message: book.display_message(&d.message),
    }
}
