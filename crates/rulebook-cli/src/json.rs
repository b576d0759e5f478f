//! The JSON contract of `--json`, as types: the compiler checks its shape. Keys are only
//! ever added within a major version (README, "`list --json`").
//!
//! Paths are written as text: normalized (no `x/../y`), and lossily where they are not
//! UTF-8 (the lossy ones are listed under `lossy_paths`, so a consumer can tell), never a
//! panic.

use std::path::Path;

use rulebook::{Rule, RuleBucket};
pub(crate) use rulebook_report::text::{
    JsonDiagnostic, JsonSource, PathText, diagnostics, level, lossy_paths, path, path_text, profile,
};
use serde::{Serialize, Serializer};

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

/// Writes `list` as `serde_json::to_writer_pretty` does, byte for byte, with the rules
/// written by [`write_rules`] a block at a time, on two threads past the first half block
/// (each block written before the next is built, so the document is never whole in
/// memory).
pub(crate) fn write_list(out: &mut dyn std::io::Write, list: &List<'_>) -> std::io::Result<()> {
    let mut head = b"{\n  \"profile\": ".to_vec();
    write_str(&mut head, list.profile);
    head.extend_from_slice(b",\n  \"rules\": ");
    out.write_all(&head)?;
    let first = write_rules(out, list.rules.take(), rule_items, true)?;
    out.write_all(if first { b"[]" } else { b"\n  ]" })?;
    let mut rest = Vec::new();
    for (key, value) in [
        ("shadowed", &list.shadowed),
        ("invalid", &list.invalid),
        ("unbucketed", &list.unbucketed),
    ] {
        rest.clear();
        write_items(&mut rest, value, write_left_out);
        write!(out, ",\n  \"{key}\": ")?;
        out.write_all(&rest)?;
    }
    rest.clear();
    write_items(&mut rest, &list.diagnostics, write_diagnostic);
    out.write_all(b",\n  \"diagnostics\": ")?;
    out.write_all(&rest)?;
    if !list.lossy_paths.is_empty() {
        rest.clear();
        write_strs(&mut rest, 1, &list.lossy_paths);
        out.write_all(b",\n  \"lossy_paths\": ")?;
        out.write_all(&rest)?;
    }
    out.write_all(b"\n}")
}

/// A block of rules as JSON array items (`first`: the block opens the array).
type Items = fn(&[JsonRule<'_>], bool) -> Vec<u8>;

/// Writes `rules` as the items of a JSON array, a block at a time: this thread writes
/// the first half of each block, one helper thread (with `threads`) the second. Returns
/// whether there were none.
fn write_rules<'a>(
    out: &mut dyn std::io::Write,
    mut rules: impl Iterator<Item = JsonRule<'a>>,
    items: Items,
    threads: bool,
) -> std::io::Result<bool> {
    /// Rules per half block: about a hundred kilobytes of JSON each (a larger block
    /// would show in the peak memory; a smaller one would hand over more often).
    const HALF: usize = 256;
    let mut first = true;
    let rules = &mut rules;
    std::thread::scope(|scope| -> std::io::Result<()> {
        // Started at the first second half: a list of one half block needs no thread, and
        // where the system refuses one, this thread writes every block itself.
        let mut helper: Option<Helper<'_, '_>> = None;
        let mut refused = false;
        loop {
            let head: Vec<JsonRule<'_>> = rules.by_ref().take(HALF).collect();
            if head.is_empty() {
                break;
            }
            let mut tail: Vec<JsonRule<'_>> = rules.by_ref().take(HALF).collect();
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
            let head = items(&head, first);
            if first {
                out.write_all(b"[")?;
            }
            out.write_all(&head)?;
            if handed {
                let received = helper.as_ref().map(|helper| helper.written.recv());
                match received {
                    Some(Ok(written)) => out.write_all(&written)?,
                    _ => return Err(helper.take().map_or_else(Helper::stopped, Helper::end)),
                }
            } else if !tail.is_empty() {
                out.write_all(&items(&tail, false))?;
            }
            first = false;
        }
        Ok(())
        // Dropping the helper's sender here ends its loop; the scope joins it.
    })?;
    Ok(first)
}

/// The thread that writes the second half of each block of `list --json`'s rules.
struct Helper<'scope, 'a> {
    /// The blocks to write; dropping it ends the thread.
    blocks: std::sync::mpsc::SyncSender<Vec<JsonRule<'a>>>,
    /// Each block's bytes, in the order the blocks were sent.
    written: std::sync::mpsc::Receiver<Vec<u8>>,
    /// Joined when the thread stops early, so that its panic becomes an error.
    thread: std::thread::ScopedJoinHandle<'scope, ()>,
}

impl<'scope, 'a: 'scope> Helper<'scope, 'a> {
    /// Starts the thread, or `None` where the system refuses one.
    fn start<'env>(scope: &'scope std::thread::Scope<'scope, 'env>, items: Items) -> Option<Self>
    where
        'a: 'env,
    {
        let (blocks, to_write) = std::sync::mpsc::sync_channel::<Vec<JsonRule<'a>>>(1);
        let (to_main, written) = std::sync::mpsc::sync_channel::<Vec<u8>>(1);
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

/// The rules as items of the `rules` array (each on its line, indented two levels).
fn rule_items(rules: &[JsonRule<'_>], first: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(rules.len() * 512);
    push_items(&mut out, rules, first, write_rule);
    out
}

/// `items` as items of an array one level deep, each on its line and written by `item`
/// two levels deep (`first`: they open the array, no comma before the first).
fn push_items<T>(out: &mut Vec<u8>, items: &[T], first: bool, item: impl Fn(&mut Vec<u8>, &T)) {
    for (i, one) in items.iter().enumerate() {
        out.extend_from_slice(if first && i == 0 {
            b"\n    "
        } else {
            b",\n    "
        });
        item(out, one);
    }
}

/// `rule` as `serde_json`'s pretty printer writes it two levels deep (an item of the
/// `rules` array), written directly: the same bytes at a fraction of the work, which at
/// 10,000 rules was a tenth of the process's instructions (most of it `serde_json`'s
/// escaping scan, a byte at a time).
fn write_rule(out: &mut Vec<u8>, rule: &JsonRule<'_>) {
    // Each key with the line break and indentation before it, as one piece.
    out.extend_from_slice(b"{\n      \"name\": ");
    write_str(out, rule.name);
    out.extend_from_slice(b",\n      \"bucket\": ");
    write_str(out, rule.bucket);
    out.extend_from_slice(b",\n      \"provider\": ");
    write_str(out, rule.provider);
    out.extend_from_slice(b",\n      \"provider_name\": ");
    write_str(out, rule.provider_name);
    out.extend_from_slice(b",\n      \"level\": ");
    write_str(out, rule.level);
    out.extend_from_slice(b",\n      \"path\": ");
    write_str(out, &path_text(rule.path));
    out.extend_from_slice(b",\n      \"description\": ");
    match rule.description {
        Some(text) => write_str(out, text),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\n      \"globs\": ");
    match rule.globs {
        Some(globs) => write_strs(out, 3, globs),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\n      \"always_apply\": ");
    out.extend_from_slice(match rule.always_apply {
        Some(true) => b"true",
        Some(false) => b"false",
        None => b"null",
    });
    out.extend_from_slice(b",\n      \"condition\": ");
    write_strs(out, 3, rule.condition);
    out.extend_from_slice(b"\n    }");
}

/// An array of strings as a value `level` levels deep (`[]` when empty).
fn write_strs(out: &mut Vec<u8>, level: usize, items: &[String]) {
    if items.is_empty() {
        out.extend_from_slice(b"[]");
        return;
    }
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
        indent(out, level + 1);
        write_str(out, item);
    }
    out.push(b'\n');
    indent(out, level);
    out.push(b']');
}

/// A rule left out (`shadowed`, `invalid`, `unbucketed`), as [`write_rule`] writes a rule.
fn write_left_out(out: &mut Vec<u8>, left: &JsonLeftOut<'_>) {
    let mut fields = Fields::open(out, 2);
    fields.str("name", left.name);
    fields.str("provider", left.provider);
    fields.str("path", &path_text(left.path));
    if let Some(by) = &left.shadowed_by {
        let mut inner = Fields::open(fields.key("shadowed_by"), 3);
        inner.str("provider", by.provider);
        inner.str("path", &path_text(by.path));
        inner.close();
    }
    if let Some(reason) = left.reason {
        fields.str("reason", reason);
    }
    fields.close();
}

/// A diagnostic, as [`write_rule`] writes a rule.
fn write_diagnostic(out: &mut Vec<u8>, d: &JsonDiagnostic<'_>) {
    let mut fields = Fields::open(out, 2);
    fields.str("severity", rulebook_report::text::severity(d.severity));
    fields.str("code", d.code.as_str());
    fields.opt_str("provider", d.provider);
    match d.path {
        Some(PathText(path)) => fields.str("path", &path_text(path)),
        None => fields.raw("path", b"null"),
    }
    fields.opt_number("line", d.line);
    fields.opt_number("column", d.column);
    fields.str("message", d.message);
    fields.close();
}

/// `items` as an array one level deep (a value of the document's object), each item
/// written by `item` two levels deep, as `serde_json`'s pretty printer writes it.
fn write_items<T>(out: &mut Vec<u8>, items: &[T], item: impl Fn(&mut Vec<u8>, &T)) {
    if items.is_empty() {
        out.extend_from_slice(b"[]");
        return;
    }
    out.push(b'[');
    push_items(out, items, true, item);
    out.extend_from_slice(b"\n  ]");
}

/// The fields of a JSON object `level` levels deep, written as `serde_json`'s pretty
/// printer writes them (two spaces a level).
struct Fields<'o> {
    out: &'o mut Vec<u8>,
    level: usize,
    any: bool,
}

impl<'o> Fields<'o> {
    fn open(out: &'o mut Vec<u8>, level: usize) -> Self {
        out.push(b'{');
        Self {
            out,
            level,
            any: false,
        }
    }

    /// Writes `"key": ` on its line; the value goes to the writer returned. Keys are this
    /// file's field names: plain words, nothing to escape.
    fn key(&mut self, key: &str) -> &mut Vec<u8> {
        self.out
            .extend_from_slice(if self.any { b",\n" } else { b"\n" });
        indent(self.out, self.level + 1);
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\": ");
        self.any = true;
        self.out
    }

    fn raw(&mut self, key: &str, value: &[u8]) {
        self.key(key).extend_from_slice(value);
    }

    fn str(&mut self, key: &str, value: &str) {
        write_str(self.key(key), value);
    }

    fn opt_str(&mut self, key: &str, value: Option<&str>) {
        match value {
            Some(value) => self.str(key, value),
            None => self.raw(key, b"null"),
        }
    }

    fn opt_number(&mut self, key: &str, value: Option<usize>) {
        match value {
            Some(value) => self.raw(key, value.to_string().as_bytes()),
            None => self.raw(key, b"null"),
        }
    }

    fn close(self) {
        if self.any {
            self.out.push(b'\n');
            indent(self.out, self.level);
        }
        self.out.push(b'}');
    }
}

/// Two spaces a level.
fn indent(out: &mut Vec<u8>, level: usize) {
    const SPACES: &[u8] = b"                ";
    match SPACES.get(..2 * level) {
        Some(spaces) => out.extend_from_slice(spaces),
        None => out.extend(std::iter::repeat_n(b' ', 2 * level)),
    }
}

/// `text` as a JSON string, escaped as `serde_json` escapes it: `"` and `\\`, the short
/// escapes `\\b \\t \\n \\f \\r`, every other control character below U+0020 as `\\u00xx`
/// (lowercase), everything else as is. Eight bytes are checked at a time.
pub(crate) fn write_str(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        if let Some(word) = bytes.get(i..i + 8) {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(word);
            if !any_escaped(u64::from_le_bytes(eight)) {
                i += 8;
                continue;
            }
        }
        let byte = bytes[i];
        if let Some(escape) = escape(byte) {
            out.extend_from_slice(&bytes[run..i]);
            match escape {
                b'u' => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    out.extend_from_slice(b"\\u00");
                    out.push(HEX[usize::from(byte >> 4)]);
                    out.push(HEX[usize::from(byte & 0xF)]);
                }
                short => out.extend_from_slice(&[b'\\', short]),
            }
            run = i + 1;
        }
        i += 1;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

/// What follows the backslash for a byte JSON must escape (`u` for `\\u00xx`).
fn escape(byte: u8) -> Option<u8> {
    match byte {
        b'"' => Some(b'"'),
        b'\\' => Some(b'\\'),
        0x08 => Some(b'b'),
        b'\t' => Some(b't'),
        b'\n' => Some(b'n'),
        0x0C => Some(b'f'),
        b'\r' => Some(b'r'),
        0..0x20 => Some(b'u'),
        _ => None,
    }
}

/// Whether any of the eight bytes of `word` is one [`escape`] escapes: below 0x20, `"` or
/// `\\` (the "has a zero byte" and "has a byte less than" tests of bit twiddling, exact as
/// a yes or no).
fn any_escaped(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_in = |v: u64| v.wrapping_sub(ONES) & !v & HIGH != 0;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGH != 0;
    below_space
        || zero_in(word ^ (ONES * u64::from(b'"')))
        || zero_in(word ^ (ONES * u64::from(b'\\')))
}

#[cfg(test)]
mod tests {
    use super::{
        JsonDiagnostic, JsonLeftOut, JsonRule, JsonSource, List, Streamed, rule_items, write_list,
        write_rules, write_str,
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
                    Diagnostic::warning(DiagnosticCode::YamlSyntax, "bad \"yaml\"\u{1}\r\n")
                } else {
                    Diagnostic::info(DiagnosticCode::ReadFailed, "é")
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
        fn panics_on_the_helper(rules: &[JsonRule<'_>], first: bool) -> Vec<u8> {
            assert_ne!(std::thread::current().name(), Some("rulebook-json"));
            rule_items(rules, first)
        }
        let path = Path::new("/p/AGENTS.md");
        for n in [0, 1, 256, 257, 600, 1300] {
            let mut threaded = Vec::new();
            let mut alone = Vec::new();
            let empty = write_rules(
                &mut threaded,
                (0..n).map(|_| plain_rule(path)),
                rule_items,
                true,
            )
            .unwrap();
            assert_eq!(empty, n == 0);
            write_rules(
                &mut alone,
                (0..n).map(|_| plain_rule(path)),
                rule_items,
                false,
            )
            .unwrap();
            assert!(threaded == alone, "{n} rules");
            assert_eq!(alone.windows(6).filter(|w| w == b"\"name\"").count(), n);
        }
        let err = write_rules(
            &mut Vec::new(),
            (0..600).map(|_| plain_rule(path)),
            panics_on_the_helper,
            true,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "the JSON writer thread panicked");
        // A list of one half block never reaches the helper.
        write_rules(
            &mut Vec::new(),
            (0..256).map(|_| plain_rule(path)),
            panics_on_the_helper,
            true,
        )
        .unwrap();
    }
    /// Every character below U+0100, alone and at every offset of a word, escapes as
    /// `serde_json` escapes it.
    #[test]
    fn strings_escape_as_serde_json_escapes_them() {
        for c in (0u32..0x100).filter_map(char::from_u32) {
            for at in 0..17 {
                let text: String = std::iter::repeat_n('a', at)
                    .chain([c])
                    .chain(std::iter::repeat_n('b', 16 - at))
                    .collect();
                let mut ours = Vec::new();
                write_str(&mut ours, &text);
                assert_eq!(
                    String::from_utf8(ours).unwrap(),
                    serde_json::to_string(&text).unwrap(),
                    "{c:?} at {at}"
                );
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_string_escapes_as_serde_json_escapes_it(text in "(?s).{0,64}") {
            let mut ours = Vec::new();
            write_str(&mut ours, &text);
            proptest::prop_assert_eq!(
                String::from_utf8(ours).unwrap(),
                serde_json::to_string(&text).unwrap()
            );
        }
    }
}
