//! The parser (feature `parse`, on by default): [`parse_frontmatter`] and its options,
//! warnings and errors.

use std::borrow::Cow;
use std::path::Path;

use serde::Serialize;

use crate::value::{Map, Value};
use crate::{Outcome, normalize, recover, yaml};

/// What to do when the metadata is not valid YAML.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Recovery {
    /// The seeds' fallback (Reference profile): each line matching `^(\w+):\s*(.*)$` sets
    /// `key` to the trimmed value as a string; other lines are ignored.
    #[default]
    LineParser,
    /// Extended E4: re-parse with unquoted values that begin with `*` or contain `: ` read
    /// as plain strings. We also quote the two other cases real files hit: values that
    /// begin with a reserved indicator (`@`, `` ` ``), and double-quoted values with an
    /// escape YAML does not know (`"console\.log"`, a regex), read with the backslash kept.
    /// When that still fails, the line parser runs.
    QuoteValues,
}

/// Options of [`parse_frontmatter`].
#[derive(Debug, Clone, Copy, Default)]
pub struct ParseOptions<'a> {
    recovery: Recovery,
    source: Option<&'a Path>,
}

impl<'a> ParseOptions<'a> {
    /// The defaults: [`Recovery::LineParser`], no source path.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the recovery used on a YAML error.
    #[must_use]
    pub fn recovery(mut self, recovery: Recovery) -> Self {
        self.recovery = recovery;
        self
    }

    /// Names the file in warnings (`Failed to parse YAML frontmatter (<path>): …`).
    #[must_use]
    pub fn source(mut self, path: &'a Path) -> Self {
        self.source = Some(path);
        self
    }
}

/// What a warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarningKind {
    /// The metadata is not valid YAML; its `key: value` lines were read as text, or nothing.
    YamlSyntax,
    /// The metadata is not valid YAML at a value, which was read as plain text; the rest
    /// is YAML.
    YamlRecovered,
    /// The metadata is YAML but not a mapping.
    NotAMap,
}

/// A problem found while parsing, positioned in the original file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// What the warning is about.
    pub kind: WarningKind,
    /// The full message, naming the file.
    pub message: String,
    /// The 1-based line in the original file, where known.
    pub line: Option<usize>,
    /// The 1-based column (in characters) in the original file, where known.
    pub column: Option<usize>,
}

/// A YAML syntax error, positioned in the original file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at line {line} column {column}")]
pub struct YamlError {
    /// The parser's description of the problem.
    pub message: String,
    /// The 1-based line in the original file.
    pub line: usize,
    /// The 1-based column (in characters) in the original file.
    pub column: usize,
}

/// The result of [`parse_frontmatter`], borrowing its body from the text parsed where it
/// can.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parsed<'a> {
    /// The metadata, in file order; empty when absent or unreadable.
    pub frontmatter: Map,
    /// The text after the frontmatter (trimmed), or the whole normalized text (untrimmed)
    /// when there is no frontmatter: a slice of the text parsed unless normalizing changed
    /// it (line endings, HTML comments), so nearly every body is not copied here.
    pub body: Cow<'a, str>,
    /// How the frontmatter was read.
    pub outcome: Outcome,
    /// Problems found, in order.
    pub warnings: Vec<Warning>,
}

/// Parses `text` as behaviour.md §3 describes. Never fails; see the crate docs for the steps.
pub fn parse_frontmatter<'a>(text: &'a str, options: &ParseOptions<'_>) -> Parsed<'a> {
    /// The closing line's start, searched with memchr's vectorized finder, built once.
    static CLOSE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("\n---"));
    let normalized = normalize::normalize(text);
    let t: &str = &normalized.text;
    let found = t
        .starts_with("---")
        .then(|| CLOSE.find(&t.as_bytes()[3..]))
        .flatten();
    let Some(found) = found else {
        return Parsed {
            frontmatter: Map::new(),
            body: normalized.text,
            outcome: Outcome::Absent,
            warnings: Vec::new(),
        };
    };
    let close = 3 + found;
    // "From index 4": skip the one character after `---`, whatever its width.
    let meta_start = 3 + t[3..].chars().next().map_or(0, char::len_utf8);
    let metadata = if meta_start <= close {
        &t[meta_start..close]
    } else {
        ""
    };
    // JavaScript's `String.prototype.trim`, front then back: where the body starts is how
    // much the front cut.
    let rest = &t[close + 4..];
    let front = rest.trim_start_matches(is_js_space);
    let trimmed = front.trim_end_matches(is_js_space);
    let start = close + 4 + (rest.len() - front.len());
    let body = match &normalized.text {
        Cow::Borrowed(text) => {
            let text: &'a str = text;
            Cow::Borrowed(&text[start..start + trimmed.len()])
        }
        Cow::Owned(_) => Cow::Owned(trimmed.to_owned()),
    };
    let mut parsed = Parsed {
        frontmatter: Map::new(),
        body,
        outcome: Outcome::Parsed,
        warnings: Vec::new(),
    };
    // Named in warnings only: not built for the files that have none.
    let source = || {
        options
            .source
            .map_or_else(|| "<frontmatter>".to_owned(), |p| p.display().to_string())
    };

    let expanded: Cow<'_, str> = if memchr::memchr(b'\t', metadata.as_bytes()).is_some() {
        metadata.replace('\t', "  ").into()
    } else {
        metadata.into()
    };
    let error = match yaml::parse(&expanded) {
        Ok(value) => {
            take_map(value, source, &mut parsed);
            return parsed;
        }
        Err(e) => locate(&e, &normalized, meta_start, metadata),
    };
    let failed = format!("Failed to parse YAML frontmatter ({}): {error}", source());

    if options.recovery == Recovery::QuoteValues {
        let retried = recover::quote_plain_values(&expanded)
            .and_then(|(fixed, keys)| Some((yaml::parse(&fixed).ok()?, keys)));
        if let Some((Value::Map(map), keys)) = retried {
            parsed.frontmatter = *map;
            parsed.outcome = Outcome::Recovered;
            parsed.warnings.push(Warning {
                kind: WarningKind::YamlRecovered,
                message: format!(
                    "{failed}; recovered by reading the value of {} as plain text",
                    describe_keys(&keys)
                ),
                line: Some(error.line),
                column: Some(error.column),
            });
            return parsed;
        }
        parsed.warnings.push(Warning {
            kind: WarningKind::YamlSyntax,
            message: format!(
                "{failed}; recovery failed, so only `key: value` lines were read, as text"
            ),
            line: Some(error.line),
            column: Some(error.column),
        });
    } else {
        parsed.warnings.push(Warning {
            kind: WarningKind::YamlSyntax,
            message: failed,
            line: Some(error.line),
            column: Some(error.column),
        });
    }
    parsed.frontmatter = line_parser(metadata);
    parsed.outcome = Outcome::LineParser;
    parsed
}

fn take_map(value: Value, source: impl FnOnce() -> String, parsed: &mut Parsed) {
    match value {
        Value::Map(map) => parsed.frontmatter = *map,
        Value::Null => {}
        other => {
            parsed.outcome = Outcome::NotAMap;
            parsed.warnings.push(Warning {
                kind: WarningKind::NotAMap,
                message: format!(
                    "YAML frontmatter ({}) is {}, not a map of keys; it is ignored",
                    source(),
                    other.type_name()
                ),
                line: None,
                column: None,
            });
        }
    }
}

fn describe_keys(keys: &[String]) -> String {
    let named: Vec<String> = keys
        .iter()
        .map(|k| {
            if k == "-" {
                "a list item".to_owned()
            } else {
                format!("`{k}`")
            }
        })
        .collect();
    named.join(", ")
}

/// Maps a position in the tab-expanded metadata back to the original file.
fn locate(
    error: &yaml::SyntaxError,
    normalized: &normalize::Normalized,
    meta_start: usize,
    metadata: &str,
) -> YamlError {
    let mut offset = 0;
    let mut line_text = "";
    for (i, line) in metadata.split('\n').enumerate() {
        line_text = line;
        if i + 1 >= error.line {
            break;
        }
        offset += line.len() + 1;
    }
    let offset = offset.min(metadata.len());
    // Each tab became two spaces: walk the original line until the expanded width is reached.
    let mut width = 0;
    let mut column = 1;
    for c in line_text.chars() {
        if width + 1 >= error.column {
            break;
        }
        width += if c == '\t' { 2 } else { 1 };
        column += 1;
    }
    // The parser's column is at most one past the line's end (its newline), which the walk
    // reaches: the expanded width of the line is what the walk counts.
    YamlError {
        message: error.message.clone(),
        line: normalized.original_line(meta_start + offset),
        column,
    }
}

/// What JavaScript's `String.prototype.trim` removes: its white space is Rust's minus U+0085
/// (NEXT LINE) plus U+FEFF (ZERO WIDTH NO-BREAK SPACE), so a body of only U+FEFF is empty, as
/// it is for the original.
fn is_js_space(c: char) -> bool {
    c == '\u{feff}' || (c.is_whitespace() && c != '\u{85}')
}

/// The seeds' fallback: `^(\w+):\s*(.*)$` per line, the value trimmed, always a string.
fn line_parser(metadata: &str) -> Map {
    let mut map = Map::new();
    for line in metadata.split('\n') {
        let key_len = line
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        if key_len == 0 || line.as_bytes().get(key_len) != Some(&b':') {
            continue;
        }
        let value = line[key_len + 1..].trim();
        map.insert(line[..key_len].to_owned(), Value::String(value.to_owned()));
    }
    map
}

/// Step 1 of [`parse_frontmatter`] alone: `\r\n` and lone `\r` become `\n`, and every closed
/// HTML comment is removed (Claude Code hides them from the model; its files have no
/// frontmatter).
pub fn normalize_text(text: &str) -> String {
    crate::normalize::normalize(text).text.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Parsed<'_> {
        parse_frontmatter(text, &ParseOptions::new())
    }

    #[test]
    fn multibyte_after_opener_does_not_panic() {
        let p = parse("---é\n---\nbody");
        assert_eq!(p.body, "body");
        let p = parse("---é");
        assert_eq!(p.outcome, Outcome::Absent);
    }

    #[test]
    fn error_line_counts_from_the_file() {
        let p = parse("---\nname: a\nglobs: *.ts\n---\nbody");
        let w = &p.warnings[0];
        assert_eq!(w.line, Some(3), "{w:?}");
        assert!(
            w.message
                .starts_with("Failed to parse YAML frontmatter (<frontmatter>): ")
        );
    }

    #[test]
    fn line_parser_is_the_seeds_regex() {
        let m = line_parser("a: 1\n b: 2\nc-d: 3\n_e:x\nf:\n");
        let keys: Vec<&str> = m.keys().map(String::as_str).collect();
        assert_eq!(keys, ["a", "_e", "f"]);
        assert_eq!(m["f"], Value::String(String::new()));
    }
}
