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

    /// The items, once: a second call (or serialization) gets none.
    fn take(&self) -> std::iter::Flatten<std::option::IntoIter<Box<dyn Iterator<Item = T> + 'a>>> {
        self.0.take().into_iter().flatten()
    }
}

impl<T: Serialize> Serialize for Streamed<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Serialized once: a second time writes an empty array.
        serializer.collect_seq(self.take())
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

/// Writes `list` as `serde_json::to_writer_pretty` does, byte for byte, with the rules
/// serialized on two threads a block at a time (each block written before the next is
/// built, so the document is never whole in memory). At 10,000 rules the JSON is a fifth of
/// the process's instructions, all of them after discovery, on one thread.
pub(crate) fn write_list(out: &mut dyn std::io::Write, list: &List<'_>) -> std::io::Result<()> {
    /// Rules per block: two halves of about a hundred kilobytes each (a larger block
    /// would show in the peak memory; a smaller one would spawn more threads).
    const BLOCK: usize = 512;
    out.write_all(b"{\n  \"profile\": ")?;
    pretty_at(out, 1, &list.profile)?;
    out.write_all(b",\n  \"rules\": ")?;
    let mut rules = list.rules.take();
    let mut block: Vec<JsonRule<'_>> = Vec::with_capacity(BLOCK);
    let mut first = true;
    loop {
        block.clear();
        block.extend(rules.by_ref().take(BLOCK));
        if block.is_empty() {
            break;
        }
        if first {
            out.write_all(b"[")?;
        }
        let (head, tail) = block.split_at(block.len().div_ceil(2));
        let (head, tail) = std::thread::scope(|scope| {
            let thread = (tail.len() >= 64).then(|| scope.spawn(|| rule_items(tail, false)));
            let head = rule_items(head, first);
            let tail = match thread {
                Some(thread) => thread
                    .join()
                    .unwrap_or_else(|_| Err(std::io::Error::other("a JSON thread panicked"))),
                None => rule_items(tail, false),
            };
            (head, tail)
        });
        out.write_all(&head?)?;
        out.write_all(&tail?)?;
        first = false;
    }
    out.write_all(if first { b"[]" } else { b"\n  ]" })?;
    for (key, value) in [
        ("shadowed", &list.shadowed),
        ("invalid", &list.invalid),
        ("unbucketed", &list.unbucketed),
    ] {
        write!(out, ",\n  \"{key}\": ")?;
        pretty_at(out, 1, value)?;
    }
    out.write_all(b",\n  \"diagnostics\": ")?;
    pretty_at(out, 1, &list.diagnostics)?;
    if !list.lossy_paths.is_empty() {
        out.write_all(b",\n  \"lossy_paths\": ")?;
        pretty_at(out, 1, &list.lossy_paths)?;
    }
    out.write_all(b"\n}")
}

/// The rules as items of the `rules` array (each on its line, indented two levels).
fn rule_items(rules: &[JsonRule<'_>], first: bool) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(rules.len() * 512);
    for (i, rule) in rules.iter().enumerate() {
        out.extend_from_slice(if first && i == 0 {
            b"\n    "
        } else {
            b",\n    "
        });
        pretty_at(&mut out, 2, rule)?;
    }
    Ok(out)
}

/// `value` pretty-printed as it would be `level` levels deep in a document.
fn pretty_at<W: std::io::Write + ?Sized, T: Serialize + ?Sized>(
    out: &mut W,
    level: usize,
    value: &T,
) -> std::io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(
        out,
        PrettyAt {
            level,
            has_value: false,
        },
    );
    value
        .serialize(&mut serializer)
        .map_err(std::io::Error::from)
}

/// `serde_json`'s `PrettyFormatter` (two spaces) started at a depth: the same bytes as the
/// whole document written by `PrettyFormatter`, for a part of it.
struct PrettyAt {
    level: usize,
    has_value: bool,
}

impl PrettyAt {
    fn indent<W: std::io::Write + ?Sized>(&self, out: &mut W) -> std::io::Result<()> {
        for _ in 0..self.level {
            out.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        out.write_all(bracket)
    }

    fn close<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            out.write_all(b"\n")?;
            self.indent(out)?;
        }
        out.write_all(bracket)
    }

    fn item<W: std::io::Write + ?Sized>(&self, out: &mut W, first: bool) -> std::io::Result<()> {
        out.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(out)
    }
}

impl serde_json::ser::Formatter for PrettyAt {
    fn begin_array<W: std::io::Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.open(out, b"[")
    }

    fn end_array<W: std::io::Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.close(out, b"]")
    }

    fn begin_array_value<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(out, first)
    }

    fn end_array_value<W: std::io::Write + ?Sized>(&mut self, _out: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: std::io::Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.open(out, b"{")
    }

    fn end_object<W: std::io::Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.close(out, b"}")
    }

    fn begin_object_key<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(out, first)
    }

    fn begin_object_value<W: std::io::Write + ?Sized>(
        &mut self,
        out: &mut W,
    ) -> std::io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: std::io::Write + ?Sized>(
        &mut self,
        _out: &mut W,
    ) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{JsonLeftOut, JsonRule, JsonSource, List, Streamed, is_clean, write_list};
    use std::path::Path;

    /// The two-thread writer writes what `serde_json`'s pretty printer writes for the whole
    /// document: empty arrays, one rule, blocks of every size, escapes, nulls, nesting.
    #[test]
    fn the_parallel_list_writer_writes_serde_jsons_bytes() {
        let paths: Vec<String> = (0..5000)
            .map(|i| format!("/p/.cursor/rules/r\"{i}\\\té.mdc"))
            .collect();
        let globs = vec!["*.ts".to_owned(), "src/**".to_owned()];
        let condition = vec!["forbidden\\(".to_owned()];
        let rule = |i: usize| JsonRule {
            name: "rule",
            bucket: "scoped",
            provider: "cursor",
            provider_name: "Cursor",
            level: "project",
            path: Path::new(&paths[i]),
            description: (i % 3 != 0).then_some("a \"description\"\n"),
            globs: (i % 2 == 0).then_some(globs.as_slice()),
            always_apply: (i % 5 == 0).then_some(i % 10 == 0),
            condition: if i % 7 == 0 { &condition } else { &[] },
        };
        let left = |i: usize| JsonLeftOut {
            name: "left",
            provider: "windsurf",
            path: Path::new(&paths[i]),
            shadowed_by: (i % 2 == 0).then(|| JsonSource {
                provider: "cursor",
                path: Path::new(&paths[i + 1]),
            }),
            reason: (i % 2 == 1).then_some("no \"reason\""),
        };
        for n in [0, 1, 2, 63, 64, 65, 2047, 2048, 2049, 4999] {
            let list = || List {
                profile: "reference",
                rules: Streamed::new((0..n).map(rule)),
                shadowed: (0..n.min(3)).map(left).collect(),
                invalid: (0..n.min(2)).map(left).collect(),
                unbucketed: Vec::new(),
                diagnostics: Vec::new(),
                lossy_paths: if n % 2 == 1 {
                    vec!["x".to_owned()]
                } else {
                    Vec::new()
                },
            };
            let mut ours = Vec::new();
            write_list(&mut ours, &list()).unwrap();
            let expected = serde_json::to_vec_pretty(&list()).unwrap();
            assert!(
                ours == expected,
                "{n} rules:\n{}",
                String::from_utf8_lossy(&ours)
            );
        }
    }

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
