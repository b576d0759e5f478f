//! The JSON contract of `--json`, as types: the compiler checks its shape. Keys are only
//! ever added within a major version (README, "`list --json`").
//!
//! Paths are written as text: normalized (no `x/../y`), and lossily where they are not
//! UTF-8 (the lossy ones are listed under `lossy_paths`, so a consumer can tell), never a
//! panic.

use std::path::Path;

use rulebook::{Rule, RuleBucket};
pub(crate) use rulebook_report::text::{
    JsonDiagnostic, JsonSource, PathText, diagnostics, level, lossy_paths, path, profile,
};
use serde::{Serialize, Serializer};

/// Paths as JSON text, as [`path`] writes each.
pub(crate) fn paths<S: Serializer>(paths: &[&Path], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(paths.iter().map(|p| rulebook_report::text::path_text(p)))
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

/// Writes `list` as `serde_json::to_writer_pretty` does, byte for byte: each value by
/// `serde_json` itself, through [`Nested`], the pretty printer set at the value's depth; the
/// rules by [`write_items`] a block at a time, on two threads past the first half block
/// (each block written before the next is built, so the document is never whole in
/// memory).
pub(crate) fn write_list(out: &mut dyn std::io::Write, list: &List<'_>) -> std::io::Result<()> {
    let mut head = b"{\n  \"profile\": ".to_vec();
    write_nested(&mut head, list.profile, 1)?;
    head.extend_from_slice(b",\n  \"rules\": ");
    out.write_all(&head)?;
    let first = write_items(out, list.rules.take(), items, true)?;
    out.write_all(if first { b"[]" } else { b"\n  ]" })?;
    let mut rest = Vec::new();
    for (key, value) in [
        ("shadowed", &list.shadowed),
        ("invalid", &list.invalid),
        ("unbucketed", &list.unbucketed),
    ] {
        rest.clear();
        write_nested(&mut rest, value, 1)?;
        write!(out, ",\n  \"{key}\": ")?;
        out.write_all(&rest)?;
    }
    rest.clear();
    write_nested(&mut rest, &list.diagnostics, 1)?;
    out.write_all(b",\n  \"diagnostics\": ")?;
    out.write_all(&rest)?;
    if !list.lossy_paths.is_empty() {
        rest.clear();
        write_nested(&mut rest, &list.lossy_paths, 1)?;
        out.write_all(b",\n  \"lossy_paths\": ")?;
        out.write_all(&rest)?;
    }
    out.write_all(b"\n}")
}

/// `serde_json`'s pretty printer (two spaces a level) for a value `depth` levels into a
/// document: what `to_writer_pretty` writes for it there. Generic: any `Serialize` value.
struct Nested {
    depth: usize,
    has_value: bool,
}

impl Nested {
    fn newline(
        &self,
        out: &mut (impl std::io::Write + ?Sized),
        first: bool,
    ) -> std::io::Result<()> {
        out.write_all(if first { b"\n" } else { b",\n" })?;
        indent(out, self.depth)
    }

    fn close(
        &mut self,
        out: &mut (impl std::io::Write + ?Sized),
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            out.write_all(b"\n")?;
            indent(out, self.depth)?;
        }
        out.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for Nested {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.close(out, b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.newline(out, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.close(out, b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.newline(out, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        out: &mut W,
    ) -> std::io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Two spaces a level.
fn indent(out: &mut (impl std::io::Write + ?Sized), depth: usize) -> std::io::Result<()> {
    const SPACES: &[u8] = b"                ";
    match SPACES.get(..2 * depth) {
        Some(spaces) => out.write_all(spaces),
        None => (0..depth).try_for_each(|_| out.write_all(b"  ")),
    }
}

/// `value` as `serde_json::to_writer_pretty` writes it `depth` levels into a document.
fn write_nested<T: Serialize + ?Sized>(
    out: &mut Vec<u8>,
    value: &T,
    depth: usize,
) -> std::io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(
        out,
        Nested {
            depth,
            has_value: false,
        },
    );
    value
        .serialize(&mut serializer)
        .map_err(std::io::Error::from)
}

/// Items of an array one level deep (a value of the document's object), each on its line
/// and written two levels deep (`first`: they open the array, no comma before the first).
fn items<T: Serialize>(items: &[T], first: bool) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(items.len() * 512);
    for (i, item) in items.iter().enumerate() {
        out.extend_from_slice(if first && i == 0 { b"\n" } else { b",\n" });
        indent(&mut out, 2)?;
        write_nested(&mut out, item, 2)?;
    }
    Ok(out)
}

/// A block of items as JSON array items (`first`: the block opens the array).
type Items<T> = fn(&[T], bool) -> std::io::Result<Vec<u8>>;

/// Writes `values` as the items of a JSON array, a block at a time: this thread writes
/// the first half of each block, one helper thread (with `threads`) the second. Returns
/// whether there were none.
fn write_items<T: Send>(
    out: &mut dyn std::io::Write,
    mut values: impl Iterator<Item = T>,
    items: Items<T>,
    threads: bool,
) -> std::io::Result<bool> {
    /// Items per half block: about a hundred kilobytes of JSON each for rules (a larger
    /// block would show in the peak memory; a smaller one would hand over more often).
    const HALF: usize = 256;
    let mut first = true;
    let values = &mut values;
    std::thread::scope(|scope| -> std::io::Result<()> {
        // Started at the first second half: a list of one half block needs no thread, and
        // where the system refuses one, this thread writes every block itself.
        let mut helper: Option<Helper<'_, T>> = None;
        let mut refused = false;
        loop {
            let head: Vec<T> = values.by_ref().take(HALF).collect();
            if head.is_empty() {
                break;
            }
            let mut tail: Vec<T> = values.by_ref().take(HALF).collect();
            if threads && !tail.is_empty() && helper.is_none() && !refused {
                helper = Helper::start(scope, items);
                refused = helper.is_none();
            }
            let handed = match &helper {
                Some(helper) if !tail.is_empty() => match helper.blocks.send(tail) {
                    Ok(()) => {
                        tail = Vec::new();
                        true
                    }
                    // The helper is gone: the block comes back and is written here.
                    Err(std::sync::mpsc::SendError(back)) => {
                        tail = back;
                        false
                    }
                },
                _ => false,
            };
            let head = items(&head, first)?;
            if first {
                out.write_all(b"[")?;
            }
            out.write_all(&head)?;
            if handed {
                let received = helper.as_ref().map(|helper| helper.written.recv());
                match received {
                    Some(Ok(written)) => out.write_all(&written?)?,
                    _ => return Err(helper.take().map_or_else(Helper::<T>::stopped, Helper::end)),
                }
            } else if !tail.is_empty() {
                out.write_all(&items(&tail, false)?)?;
            }
            first = false;
        }
        Ok(())
        // Dropping the helper's sender here ends its loop; the scope joins it.
    })?;
    Ok(first)
}

/// The thread that writes the second half of each block of an array's items.
struct Helper<'scope, T> {
    /// The blocks to write; dropping it ends the thread.
    blocks: std::sync::mpsc::SyncSender<Vec<T>>,
    /// Each block's bytes, in the order the blocks were sent.
    written: std::sync::mpsc::Receiver<std::io::Result<Vec<u8>>>,
    /// Joined when the thread stops early, so that its panic becomes an error.
    thread: std::thread::ScopedJoinHandle<'scope, ()>,
}

impl<'scope, T: Send + 'scope> Helper<'scope, T> {
    /// Starts the thread, or `None` where the system refuses one.
    fn start<'env>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        items: Items<T>,
    ) -> Option<Self> {
        let (blocks, to_write) = std::sync::mpsc::sync_channel::<Vec<T>>(1);
        let (to_main, written) = std::sync::mpsc::sync_channel::<std::io::Result<Vec<u8>>>(1);
        let thread = std::thread::Builder::new()
            .name("rulebook-json".to_owned())
            .spawn_scoped(scope, move || {
                for block in to_write {
                    if to_main.send(items(&block, false)).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Self {
            blocks,
            written,
            thread,
        })
    }

    /// The error for a helper that stopped without writing its block: its panic, if it
    /// panicked.
    fn end(self) -> std::io::Error {
        drop(self.blocks);
        match self.thread.join() {
            Err(_) => std::io::Error::other("the JSON writer thread panicked"),
            Ok(()) => Self::stopped(),
        }
    }

    /// The error for a helper that stopped without writing its block.
    fn stopped() -> std::io::Error {
        std::io::Error::other("the JSON writer thread stopped")
    }
}

#[cfg(test)]
mod tests {
    use super::{
        JsonDiagnostic, JsonLeftOut, JsonRule, JsonSource, List, Streamed, items, write_items,
        write_list,
    };
    use rulebook::{Diagnostic, DiagnosticCode};
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
        let diagnostics: Vec<Diagnostic> = (0..8)
            .map(|i| {
                let mut d = if i % 2 == 0 {
                    Diagnostic::new(DiagnosticCode::YamlSyntax, "bad \"yaml\"\u{1}\r\n")
                } else {
                    Diagnostic::new(DiagnosticCode::ReadFailed, "é")
                };
                if i % 3 == 0 {
                    d = d.with_path(Path::new(&paths[i])).at(Some(i + 1), None);
                }
                if i % 4 == 0 {
                    d = d.with_provider("Cursor").at(Some(3), Some(7));
                }
                if i == 5 {
                    d.severity = rulebook::Severity::Error;
                }
                d
            })
            .collect();
        for n in [
            0, 1, 2, 255, 256, 257, 511, 512, 513, 2047, 2048, 2049, 4999,
        ] {
            let list = || List {
                profile: "reference",
                rules: Streamed::new((0..n).map(rule)),
                shadowed: (0..n.min(3)).map(left).collect(),
                invalid: (0..n.min(2)).map(left).collect(),
                unbucketed: (0..n.min(4)).map(left).collect(),
                diagnostics: diagnostics
                    .iter()
                    .take(n)
                    .map(JsonDiagnostic::from)
                    .collect(),
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

    /// A rule for the writer's threading tests.
    fn plain_rule(path: &Path) -> JsonRule<'_> {
        JsonRule {
            name: "rule",
            bucket: "always-apply",
            provider: "native",
            provider_name: "xcsh",
            level: "project",
            path,
            description: None,
            globs: None,
            always_apply: Some(true),
            condition: &[],
        }
    }

    /// Without the helper thread (refused by the system, say) the same bytes are written;
    /// a helper that panics is an error, not a crash and not a shorter list.
    #[test]
    fn the_rules_are_written_whole_with_or_without_the_helper() {
        fn panics_on_the_helper(rules: &[JsonRule<'_>], first: bool) -> std::io::Result<Vec<u8>> {
            assert_ne!(std::thread::current().name(), Some("rulebook-json"));
            items(rules, first)
        }
        let path = Path::new("/p/AGENTS.md");
        for n in [0, 1, 256, 257, 600, 1300] {
            let mut threaded = Vec::new();
            let mut alone = Vec::new();
            let empty =
                write_items(&mut threaded, (0..n).map(|_| plain_rule(path)), items, true).unwrap();
            assert_eq!(empty, n == 0);
            write_items(&mut alone, (0..n).map(|_| plain_rule(path)), items, false).unwrap();
            assert!(threaded == alone, "{n} rules");
            assert_eq!(alone.windows(6).filter(|w| w == b"\"name\"").count(), n);
        }
        let err = write_items(
            &mut Vec::new(),
            (0..600).map(|_| plain_rule(path)),
            panics_on_the_helper,
            true,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "the JSON writer thread panicked");
        // A list of one half block never reaches the helper.
        write_items(
            &mut Vec::new(),
            (0..256).map(|_| plain_rule(path)),
            panics_on_the_helper,
            true,
        )
        .unwrap();
    }
}
