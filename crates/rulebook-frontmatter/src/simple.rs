//! The fast path of the YAML step: the shapes nearly every rule's frontmatter takes, read
//! in one pass over the lines, with no events and no allocation but the values themselves.
//!
//! [`parse`] reads a top-level map at column 0 whose keys are plain words and whose values
//! are a plain scalar, a simple quoted string, a one-line flow list of such scalars, a block
//! list of them below the key, or nothing. On anything else (an indicator it does not
//! handle, a multi-line scalar, a nested map, an anchor, a tag, a doubtful character) it
//! answers `None` and the full parser ([`crate::yaml`]) reads the text: the fast path never
//! decides an error, a warning's position or an unusual value. Plain scalars are resolved by
//! the same function as the full parser's ([`crate::scalar::resolve_plain`]).
//!
//! It is held to the full parser by a differential property test (random documents built
//! from tricky fragments: whatever the fast path answers, the full parser must answer the
//! same), by hand-written cases, and by the corpus when it is present.

use crate::scalar::{MAX_NODES, resolve_plain};
use crate::value::{Map, Value};

/// The value of `text` as a YAML document, when it has one of the simple shapes; `None`
/// when the full parser must decide.
pub(crate) fn parse(text: &str) -> Option<Value> {
    if memchr::memchr(b'\r', text.as_bytes()).is_some() {
        // A line break the line split does not see.
        return None;
    }
    // Sized to its keys (a line starting with a letter or `_` starts one): the map is kept
    // with its rule, and growing it would leave room for up to twice the keys.
    let keys = lines(text)
        .filter(|line| {
            line.bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        })
        .count();
    let mut map = Map::with_capacity(keys);
    let mut nodes = 1usize;
    let mut lines = lines(text).peekable();
    while let Some(line) = lines.next() {
        if is_blank_or_comment(line) {
            continue;
        }
        let (key, rest) = split_key(line)?;
        let value = match rest {
            Some(rest) => inline_value(rest)?,
            None => {
                // Nothing after the colon: a block list below the key, or null.
                let mut items: Option<(usize, Vec<Value>)> = None;
                while let Some(&next) = lines.peek() {
                    if is_blank_or_comment(next) {
                        lines.next();
                        continue;
                    }
                    let indent = next.len() - next.trim_start_matches(' ').len();
                    let Some(item) = next[indent..]
                        .strip_prefix("- ")
                        .map(|i| i.trim_start_matches(' '))
                    else {
                        // The next key's line; or a line the main loop declines (a nested
                        // map, a multi-line scalar, `-` alone), where the full parser reads
                        // the whole text.
                        break;
                    };
                    // Every item at the first item's indentation.
                    let (at, list) = items.get_or_insert_with(|| (indent, Vec::new()));
                    if *at != indent {
                        return None;
                    }
                    list.push(scalar(item, Context::Block)?);
                    lines.next();
                }
                items.map_or(Value::Null, |(_, mut list)| {
                    // Kept with the rule: no room for more.
                    list.shrink_to_fit();
                    Value::List(list)
                })
            }
        };
        // The key's node, the value's, and a list's items (as the full parser counts).
        nodes += 2 + match &value {
            Value::List(items) => items.len(),
            _ => 0,
        };
        if nodes > MAX_NODES {
            return None;
        }
        // A duplicate key keeps its first position and takes the last value, as in the
        // full parser.
        map.insert(key.to_owned(), value);
    }
    if map.is_empty() {
        // An empty document (or only comments): rare, and the full parser's to decide.
        return None;
    }
    Some(Value::Map(Box::new(map)))
}

/// `text.split('\n')`, with memchr's search for the line breaks (a frontmatter's lines
/// are short, where the standard library's search costs most).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', text.as_bytes())
        .chain(std::iter::once(text.len()))
        .map(move |end| {
            let line = &text[start..end];
            start = end + 1;
            line
        })
}

/// A line with nothing but spaces, or a comment line.
fn is_blank_or_comment(line: &str) -> bool {
    let trimmed = line.trim_start_matches(' ');
    trimmed.is_empty() || is_comment(trimmed)
}

/// `#` and printable text.
fn is_comment(text: &str) -> bool {
    text.starts_with('#') && text.chars().all(is_safe)
}

/// `key: rest` or `key:` at column 0, with a key of ASCII letters, digits, `_` and `-`
/// starting with a letter or `_`, that the core schema reads as a string (not `true`,
/// `null`, ...). `rest` is what follows the colon and its spaces, `None` when nothing does.
fn split_key(line: &str) -> Option<(&str, Option<&str>)> {
    let end = line
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))?;
    let key = &line[..end];
    let first = *key.as_bytes().first()?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    if resolve_plain(key).is_some() {
        return None;
    }
    let after = line[end..].strip_prefix(':')?;
    if after.is_empty() {
        return Some((key, None));
    }
    let rest = after.strip_prefix(' ')?.trim_start_matches(' ');
    if rest.is_empty() || is_comment(rest) {
        // `key:   # comment` is a key with no value.
        return Some((key, None));
    }
    Some((key, Some(rest)))
}

/// The value written on the key's line: a flow list, or a scalar.
fn inline_value(rest: &str) -> Option<Value> {
    if let Some(inner) = rest.strip_prefix('[') {
        return flow_list(inner);
    }
    scalar(rest, Context::Block)
}

/// `a, "b", 'c']` (the text after `[`) with nothing but spaces or a comment after `]`.
fn flow_list(inner: &str) -> Option<Value> {
    let close = inner.find(']')?;
    let (body, after) = (&inner[..close], &inner[close + 1..]);
    if !is_end(after) {
        return None;
    }
    if body.trim_matches(' ').is_empty() {
        return Some(Value::List(Vec::new()));
    }
    // Sized to its items: the list is kept with its rule.
    let mut items = Vec::with_capacity(1 + memchr::memchr_iter(b',', body.as_bytes()).count());
    for part in body.split(',') {
        items.push(scalar(part.trim_start_matches(' '), Context::Flow)?);
    }
    Some(Value::List(items))
}

/// Spaces only, or spaces and then a comment.
fn is_end(after: &str) -> bool {
    let trimmed = after.trim_start_matches(' ');
    trimmed.is_empty() || (is_comment(trimmed) && trimmed.len() < after.len())
}

/// What may follow a quoted scalar: spaces, and in block context a comment.
fn end_of(after: &str, context: Context) -> bool {
    match context {
        Context::Block => is_end(after),
        Context::Flow => after.trim_start_matches(' ').is_empty(),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    /// A value after `key: ` or `- `.
    Block,
    /// An item of a one-line flow list (no `,` `[` `]` `{` `}` inside a plain scalar).
    Flow,
}

/// One scalar: a simple double- or single-quoted string, or a plain scalar, with nothing
/// after it but spaces or a comment.
fn scalar(text: &str, context: Context) -> Option<Value> {
    match text.as_bytes().first()? {
        b'"' => {
            let (value, after) = double_quoted(&text[1..])?;
            end_of(after, context).then_some(Value::String(value))
        }
        b'\'' => {
            let close = text[1..].find('\'')?;
            let (value, after) = (&text[1..=close], &text[close + 2..]);
            // `''` (an escaped quote) is the full parser's.
            if after.starts_with('\'') || !end_of(after, context) || !value.chars().all(is_safe) {
                return None;
            }
            Some(Value::String(value.to_owned()))
        }
        _ => plain(text, context),
    }
}

/// A double-quoted string's value and the text after its closing quote, for the escapes
/// `\\`, `\"`, `\/`, `\n`, `\t` and no line break inside.
fn double_quoted(text: &str) -> Option<(String, &str)> {
    // Most have no escape: the text up to the closing quote, copied once.
    if let Some(close) = text.find('"')
        && !text[..close].contains('\\')
        && text[..close].chars().all(is_safe)
    {
        return Some((text[..close].to_owned(), &text[close + 1..]));
    }
    let mut out = String::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &text[i + 1..])),
            '\\' => out.push(match chars.next()?.1 {
                '\\' => '\\',
                '"' => '"',
                '/' => '/',
                'n' => '\n',
                't' => '\t',
                _ => return None,
            }),
            c if is_safe(c) => out.push(c),
            _ => return None,
        }
    }
    None
}

/// A plain scalar: it starts with no indicator, holds no `: ` and no ` #` (a comment ends
/// it), does not end with `:`, and in a flow list holds none of `,[]{}`.
fn plain(text: &str, context: Context) -> Option<Value> {
    let first = text.chars().next()?;
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) || !is_safe(first) {
        return None;
    }
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            // In a flow list, a comment would swallow the rest of the line (`]` included),
            // and `:` may start a pair: both are the full parser's.
            b'#' | b':' | b',' | b'[' | b']' | b'{' | b'}' if context == Context::Flow => {
                return None;
            }
            // In a flow list, yaml-rust2 reads an indicator after a space as the start of a
            // new token (`[a -]` is an error there): the full parser's.
            b'-' | b'?' if context == Context::Flow && bytes[i - 1] == b' ' => return None,
            b'#' if bytes[i - 1] == b' ' => {
                if !is_comment(&text[i..]) {
                    return None;
                }
                end = i;
                break;
            }
            b':' if bytes.get(i + 1).is_none_or(|&b| b == b' ') => return None,
            b' '..=b'~' => {}
            0x80.. => {
                // A non-ASCII character: judged whole, then skipped.
                let c = text[i..].chars().next()?;
                if !is_safe(c) {
                    return None;
                }
                i += c.len_utf8();
                continue;
            }
            _ => return None,
        }
        i += 1;
    }
    let value = text[..end].trim_end_matches(' ');
    if value.is_empty() {
        return None;
    }
    Some(resolve_plain(value).unwrap_or_else(|| Value::String(value.to_owned())))
}

/// A character the fast path takes as itself: printable ASCII, or a non-ASCII character
/// that YAML neither reads as a line break nor refuses (no C1 control, no BOM, no
/// noncharacter).
fn is_safe(c: char) -> bool {
    matches!(c, ' '..='~')
        || !matches!(
            c,
            '\u{0}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
        )
}

#[cfg(test)]
mod tests {
    use super::{lines, parse};

    #[test]
    fn lines_are_split_at_every_line_break() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "\na",
            "a\nb",
            "a\n\nb\n",
            "\u{e9}\n\u{e9}",
        ] {
            let ours: Vec<&str> = lines(text).collect();
            let split: Vec<&str> = text.split('\n').collect();
            assert_eq!(ours, split, "{text:?}");
        }
    }
    use crate::value::Value;
    use crate::yaml::parse_events;
    use proptest::prelude::*;

    /// Whether the fast path answered `text`; when it did, the full parser must answer the
    /// same value (compared through `Debug`, so that `.nan` equals itself).
    fn agrees(text: &str) -> bool {
        let Some(fast) = parse(text) else {
            return false;
        };
        let full = parse_events(text).unwrap_or_else(|e| {
            panic!("fast path: {fast:?} for {text:?}; the full parser: an error {e:?}")
        });
        assert_eq!(format!("{fast:?}"), format!("{full:?}"), "{text:?}");
        true
    }

    #[test]
    fn the_common_shapes_take_the_fast_path_with_the_full_parsers_values() {
        for text in [
            "description: use the API\nalwaysApply: false",
            "description: \"forbidden_1\\\\(\"\nglobs: [\"src/**/*.ts\", 'web/*.tsx', docs]",
            "globs: src/**/*.ts, web/*.tsx\nalwaysApply: true\n",
            "globs:\n  - src/**/*.ts\n  - \"*.md\"\n# a comment\nname: x",
            "globs:\n- a\n- b\nnext: 1",
            "a: 1\nb: 1.5\nc: .inf\nd: 0x1f\ne: ~\nf: null\ng: True\nh: tRUE\ni: 1e3\nj: 0o17",
            "a: b # a comment\nb: \"q\" # comment\nc: [x, y] # comment\nd: # nothing\n",
            "a: http://example.com/x?y=1\nb: see [docs], {and} more\nc: it's b#c",
            "a: é中文 ünïcode\nb: \"quoted é\"\nc: x  y  \n",
            "a: 1\na: 2\nb: 3",
            "empty:\nlist: []\nspaced: [ a ,b ]",
            "k: \"a\\\"b\\/c\\nd\\te\"",
            "_k: underscored\nk-2: hyphened\nttsr_trigger: x",
            "a: x - y ? z",
        ] {
            assert!(agrees(text), "the fast path declined {text:?}");
        }
        let Some(Value::Map(m)) = parse("a: 1\nb:\n  - x\n  - 'y'\na: 2") else {
            panic!()
        };
        assert_eq!(
            m.keys().collect::<Vec<_>>(),
            ["a", "b"],
            "first position kept"
        );
        assert_eq!(m["a"], Value::Int(2), "the last value wins");
        assert_eq!(
            m["b"],
            Value::List(vec![Value::String("x".into()), Value::String("y".into())])
        );
    }

    #[test]
    fn every_other_shape_is_left_to_the_full_parser() {
        for text in [
            // Errors the full parser reports (with their positions).
            "a: *x",
            "a: b: c",
            "a: b:",
            "globs: *.ts",
            "a: \"unterminated",
            "a: [x, y",
            "a: [x # c, y]",
            "a: \"x\"# c",
            "a:b",
            "- a\n- b",
            // Values it does not build.
            "a: |\n  text",
            "a: >\n  text",
            "a: &anchor x\nb: *anchor",
            "a: !!str 3",
            "a:\n  b: 1",
            "a: first\n  continued",
            "a: -1",
            "a: 'it''s'",
            "a: \"\\u0041\"",
            "a: [[x]]",
            "a: {x: 1}",
            "a: [a,]",
            "a: [a:b]",
            "a: [\\, \\- -]",
            "a: [x -]",
            "a: \"x\\ ",
            "a: \"x\\\\y\u{1}\"",
            "<<: *base",
            "true: x",
            "null: x",
            "  a: indented",
            "a:\n  - x\n - y",
            "a:\n  -",
            "a:\n-x",
            "a: x\u{85}y",
            "a: \u{feff}x",
            "a: x\ry",
            "---\na: 1",
            "a: 1\n...\nb: 2",
            "? a\n: b",
            "",
            "# only a comment",
            "%YAML 1.2\n---\na: 1",
        ] {
            assert_eq!(parse(text), None, "the fast path answered {text:?}");
        }
    }

    /// The node bound is the full parser's: at the bound the fast path answers; one node
    /// past it, it declines, and the full parser refuses the document.
    #[test]
    fn the_node_bound_is_the_full_parsers() {
        // The root map, the key, the list and its items.
        let at_bound = crate::scalar::MAX_NODES - 3;
        for (items, answered) in [(at_bound, true), (at_bound + 1, false)] {
            let text = format!("k:\n{}", "- x\n".repeat(items));
            assert_eq!(agrees(&text), answered, "{items} items");
            assert_eq!(parse_events(&text).is_ok(), answered, "{items} items");
        }
    }

    /// Pieces of values: every indicator, quote, escape, number form and character class
    /// the fast path decides on, and their neighbours.
    const PIECES: &[&str] = &[
        "x",
        "a b",
        "*",
        "*.ts",
        "&a",
        "!!str",
        "!",
        "|",
        ">",
        "-",
        "- ",
        "?",
        ":",
        ": ",
        "#",
        " #",
        "# c",
        ",",
        "[",
        "]",
        "{",
        "}",
        "[]",
        "[ ]",
        "'",
        "''",
        "\"",
        "\\",
        "\\\\",
        "\\\"",
        "\\/",
        "\\n",
        "\\t",
        "\\u0041",
        "\\x41",
        "%",
        "@",
        "`",
        "~",
        "null",
        "Null",
        "NULL",
        "true",
        "True",
        "tRUE",
        "false",
        "1",
        "-1",
        "+1",
        "0",
        "007",
        "1.5",
        ".5",
        "1.",
        "1e3",
        "1E+3",
        ".inf",
        "-.inf",
        ".nan",
        "0x1f",
        "0o17",
        "0b1",
        "1_000",
        "é",
        "中",
        "\u{85}",
        "\u{a0}",
        "\u{2028}",
        "\u{feff}",
        "\u{fffe}",
        "\u{1f600}",
        "\u{7f}",
        "\u{1}",
        "\r",
        "http://x",
        "src/**/*.ts",
        "a:b",
        "  ",
        "<<",
    ];

    fn value() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(PIECES), 0..5).prop_map(|v| v.concat())
    }

    fn line() -> impl Strategy<Value = String> {
        let key = prop::sample::select(
            &[
                "a",
                "b",
                "globs",
                "alwaysApply",
                "_k",
                "k-2",
                "true",
                "null",
                "1",
                "-a",
                "a b",
                "é",
                "",
            ][..],
        );
        let indent = prop::sample::select(&["", " ", "  ", "    "][..]);
        let sep = prop::sample::select(&[":", ": ", ":  ", " :", ""][..]);
        prop_oneof![
            (key.clone(), sep, value()).prop_map(|(k, s, v)| format!("{k}{s}{v}")),
            (key.clone(), value(), value()).prop_map(|(k, a, b)| format!("{k}: [{a}, {b}]")),
            (key.clone(), value(), value()).prop_map(|(k, a, b)| format!("{k}: \"{a}\" {b}")),
            (key, value()).prop_map(|(k, a)| format!("{k}: '{a}'")),
            (indent.clone(), value()).prop_map(|(i, v)| format!("{i}- {v}")),
            (indent.clone(), value()).prop_map(|(i, v)| format!("{i}- \"{v}\"")),
            (indent, value()).prop_map(|(i, v)| format!("{i}#{v}")),
            Just(String::new()),
            value(),
        ]
    }

    /// Lines of the shapes the fast path reads, with a tricky piece now and then: most
    /// documents stay on the fast path, and its edges get walked.
    fn mild_line() -> impl Strategy<Value = String> {
        let word = prop::sample::select(
            &[
                "x",
                "use the API",
                "src/**/*.ts",
                "1",
                "1.5",
                "true",
                "null",
                "~",
                "é中",
                "a b",
                "http://x",
                "it's",
                "[docs]",
                "b#c",
                "a:b",
            ][..],
        );
        let piece = prop_oneof![4 => word, 1 => prop::sample::select(PIECES)];
        let value = prop::collection::vec(piece, 1..4).prop_map(|v| v.concat());
        let key = prop::sample::select(&["a", "b", "globs", "alwaysApply", "k-2", "_x"][..]);
        let indent = prop::sample::select(&["", "  ", "    "][..]);
        prop_oneof![
            3 => (key.clone(), value.clone()).prop_map(|(k, v)| format!("{k}: {v}")),
            1 => (key.clone(), value.clone()).prop_map(|(k, v)| format!("{k}: \"{v}\"")),
            1 => (key.clone(), value.clone()).prop_map(|(k, v)| format!("{k}: '{v}'")),
            1 => (key.clone(), value.clone(), value.clone())
                .prop_map(|(k, a, b)| format!("{k}: [{a}, \"{b}\"]")),
            1 => key.prop_map(|k| format!("{k}:")),
            2 => (indent.clone(), value.clone()).prop_map(|(i, v)| format!("{i}- {v}")),
            1 => (indent, value).prop_map(|(i, v)| format!("{i}# {v}")),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Whatever the fast path answers, the full parser answers the same.
        #[test]
        fn the_fast_path_agrees_with_the_full_parser(
            lines in prop::collection::vec(line(), 1..7)
        ) {
            agrees(&lines.join("\n"));
        }

        /// The same, on documents that mostly stay on the fast path.
        #[test]
        fn the_fast_path_agrees_on_near_simple_documents(
            lines in prop::collection::vec(mild_line(), 1..7)
        ) {
            agrees(&lines.join("\n"));
        }
    }

    /// Every frontmatter of the corpus (when `../shared/corpus` is there): where the fast
    /// path answers, it answers as the full parser, and it answers nine in ten of those the
    /// full parser reads without error (the others are errors: `globs: **/*` is an alias).
    #[test]
    fn the_corpus_agrees_where_it_is_present() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("no corpus at {}: skipped", dir.display());
            return;
        };
        let (mut fast, mut slow) = (0usize, 0usize);
        let mut stack: Vec<std::path::PathBuf> = entries.flatten().map(|e| e.path()).collect();
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                stack.extend(
                    std::fs::read_dir(&path)
                        .unwrap()
                        .flatten()
                        .map(|e| e.path()),
                );
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let text = crate::normalize::normalize(&String::from_utf8_lossy(&bytes))
                .text
                .into_owned();
            let Some(rest) = text.strip_prefix("---") else {
                continue;
            };
            let Some(close) = rest.find("\n---") else {
                continue;
            };
            let metadata = rest[..close].trim_start_matches(|c| c != '\n');
            let metadata = metadata
                .strip_prefix('\n')
                .unwrap_or(metadata)
                .replace('\t', "  ");
            if agrees(&metadata) {
                fast += 1;
            } else if parse_events(&metadata).is_ok() {
                slow += 1;
            }
        }
        eprintln!(
            "corpus: of {} valid frontmatters, the fast path answered {fast}",
            fast + slow
        );
        assert!(fast >= 9 * slow, "{fast} fast, {slow} declined");
    }
}
