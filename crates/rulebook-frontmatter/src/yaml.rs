//! YAML 1.2 through yaml-rust2's event parser, built into our own [`Value`] model.
//!
//! We build from events rather than use `YamlLoader` because the loader forgets whether a
//! scalar was quoted (`"True"` must stay a string, `True` must be a boolean), does not keep
//! duplicate keys as "last wins", does not honour merge keys (`<<: *base`), and expands
//! aliases without a bound (a billion-laughs document would exhaust memory).
//!
//! We also pull the events ourselves, in one flat loop, rather than call
//! `Parser::load`: `load` recurses once per nesting level (a 12 KB file of `- - - …` overflows
//! the stack of a provider thread) and stops after the first document, so text after the
//! first root node would be dropped without a word. Here nesting is bounded by
//! [`MAX_DEPTH`] before any value is built, and a second document is a syntax error, as it
//! is for the original's YAML loader.

use std::collections::HashMap;

use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use crate::value::{Map, Value};

use crate::scalar::{MAX_NODES, resolve_plain};

/// At most this many nested collections. Real frontmatter nests two or three levels; the
/// bound keeps every recursive walk of a [`Value`] (drop, clone, display) far from the
/// stack's end.
pub(crate) const MAX_DEPTH: usize = 64;

/// A YAML syntax error, with its position inside the parsed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub(crate) message: String,
    /// 1-based line inside the parsed text.
    pub(crate) line: usize,
    /// 1-based column (in characters) inside the parsed text.
    pub(crate) column: usize,
}

/// Parses one YAML document. An empty document is `Value::Null`. The simple shapes of
/// nearly every frontmatter take the fast path ([`crate::simple`]); the rest, and every
/// error, are the event parser's.
pub(crate) fn parse(text: &str) -> Result<Value, SyntaxError> {
    match crate::simple::parse(text) {
        Some(value) => Ok(value),
        None => parse_events(text),
    }
}

/// Parses one YAML document through yaml-rust2's events (see the module docs).
pub(crate) fn parse_events(text: &str) -> Result<Value, SyntaxError> {
    let error = |message: String, mark: Marker| SyntaxError {
        message,
        line: mark.line(),
        column: mark.col() + 1,
    };
    let mut builder = Builder::default();
    let mut parser = Parser::new_from_str(text);
    let mut documents = 0;
    loop {
        let (event, mark) = parser
            .next_token()
            .map_err(|e| error(e.info().to_owned(), *e.marker()))?;
        match event {
            Event::StreamEnd => break,
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(error(
                        "expected a single YAML document, found content after the first node"
                            .to_owned(),
                        mark,
                    ));
                }
            }
            Event::SequenceStart(..) | Event::MappingStart(..)
                if builder.stack.len() >= MAX_DEPTH =>
            {
                return Err(error(
                    format!("collections nested deeper than {MAX_DEPTH} levels"),
                    mark,
                ));
            }
            event => builder.on_event(event, mark),
        }
        if let Some(mark) = builder.overflow {
            return Err(error(
                format!("more than {MAX_NODES} nodes once aliases are expanded"),
                mark,
            ));
        }
    }
    Ok(builder.root.unwrap_or(Value::Null))
}

/// A mapping key waiting for its value.
enum Key {
    /// An ordinary key, as text.
    Text(String),
    /// A plain (unquoted) `<<`: the value's keys are merged into the map.
    Merge,
}

enum Frame {
    List {
        items: Vec<Value>,
        anchor: usize,
    },
    Map {
        map: Map,
        key: Option<Key>,
        anchor: usize,
    },
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    root: Option<Value>,
    anchors: HashMap<usize, (Value, usize)>,
    nodes: usize,
    overflow: Option<Marker>,
}

impl Builder {
    fn insert(&mut self, value: Value, anchor: usize, size: usize, mark: Marker) {
        self.nodes = self.nodes.saturating_add(size);
        if self.nodes > MAX_NODES {
            self.overflow.get_or_insert(mark);
            return;
        }
        if anchor > 0 {
            self.anchors.insert(anchor, (value.clone(), size));
        }
        match self.stack.last_mut() {
            None => {
                self.root.get_or_insert(value);
            }
            Some(Frame::List { items, .. }) => items.push(value),
            Some(Frame::Map { map, key, .. }) => match key.take() {
                None => *key = Some(Key::Text(key_text(&value))),
                Some(Key::Text(k)) => {
                    // Duplicate keys: the last value wins (in the first key's position).
                    map.insert(k, value);
                }
                Some(Key::Merge) => merge(map, value),
            },
        }
    }
}

impl Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.overflow.is_some() {
            return;
        }
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                if let Some(Frame::Map {
                    key: key @ None, ..
                }) = self.stack.last_mut()
                    && style == TScalarStyle::Plain
                    && text == "<<"
                    && tag.is_none()
                {
                    *key = Some(Key::Merge);
                    self.nodes = self.nodes.saturating_add(1);
                    return;
                }
                let value = resolve_scalar(text, style, tag.as_ref());
                self.insert(value, anchor, 1, mark);
            }
            Event::SequenceStart(anchor, _) => self.stack.push(Frame::List {
                items: Vec::new(),
                anchor,
            }),
            Event::MappingStart(anchor, _) => self.stack.push(Frame::Map {
                map: Map::new(),
                key: None,
                anchor,
            }),
            Event::SequenceEnd | Event::MappingEnd => {
                let (value, anchor) = match self.stack.pop() {
                    Some(Frame::List { items, anchor }) => (Value::List(items), anchor),
                    Some(Frame::Map {
                        mut map,
                        key,
                        anchor,
                    }) => {
                        // A key with no value event cannot happen in valid YAML; keep it as null.
                        if let Some(Key::Text(k)) = key {
                            map.insert(k, Value::Null);
                        }
                        (Value::Map(Box::new(map)), anchor)
                    }
                    None => return,
                };
                // The container's own node was counted by its children's insertions only;
                // count it now, and remember its full size for aliases.
                let size = value.node_count();
                self.nodes = self.nodes.saturating_add(1);
                if anchor > 0 {
                    self.anchors.insert(anchor, (value.clone(), size));
                }
                self.insert(value, 0, 0, mark);
            }
            Event::Alias(id) => {
                let (value, size) = self.anchors.get(&id).cloned().unwrap_or((Value::Null, 1));
                if self.nodes.saturating_add(size) > MAX_NODES {
                    self.overflow.get_or_insert(mark);
                    return;
                }
                self.insert(value, 0, size, mark);
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart
            | Event::DocumentEnd => {}
        }
    }
}

/// A merge key (`<<: *base`, or a list of such maps): the merged map's keys are added where
/// the map does not set them itself, so keys written in the map win whatever their order
/// (YAML's merge-key type, as the original's YAML loader honours it). A value that is not a
/// map (nor a list of maps) is kept under the key `<<`.
fn merge(map: &mut Map, value: Value) {
    let sources = match value {
        Value::Map(source) => vec![source],
        Value::List(items) if items.iter().all(|i| matches!(i, Value::Map(_))) => items
            .into_iter()
            .filter_map(|i| match i {
                Value::Map(m) => Some(m),
                _ => None,
            })
            .collect(),
        other => {
            map.insert("<<".to_owned(), other);
            return;
        }
    };
    for source in sources {
        for (k, v) in *source {
            map.entry(k).or_insert(v);
        }
    }
}

/// Non-string keys become their text (`1` → `"1"`); a collection key its flow-style text.
fn key_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// `!!str`, as the parser resolves it (handle `tag:yaml.org,2002:`, suffix `str`), or the
/// verbatim `!<tag:yaml.org,2002:str>`.
fn is_str_tag(tag: Option<&Tag>) -> bool {
    const STR: &str = "tag:yaml.org,2002:str";
    tag.is_some_and(|t| STR.strip_prefix(t.handle.as_str()) == Some(t.suffix.as_str()))
}

/// YAML 1.2 core schema for plain scalars; everything quoted or block-styled is a string.
fn resolve_scalar(text: String, style: TScalarStyle, tag: Option<&Tag>) -> Value {
    if style != TScalarStyle::Plain || is_str_tag(tag) {
        return Value::String(text);
    }
    resolve_plain(&text).unwrap_or(Value::String(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> Map {
        match parse(text).unwrap() {
            Value::Map(m) => *m,
            other => panic!("not a map: {other:?}"),
        }
    }

    #[test]
    fn core_schema() {
        let m = map(
            "a: yes\nb: True\nc: '1'\nd: 1\ne: 1.5\nf: ~\ng: 0x1f\nh: .inf\ni: 1e3\nj: 12abc\nk: !!str 3",
        );
        assert_eq!(m["a"], Value::String("yes".into()));
        assert_eq!(m["b"], Value::Bool(true));
        for (text, expected) in [
            ("TRUE", Some(true)),
            ("False", Some(false)),
            ("tRUE", None),
            ("fALSE", None),
        ] {
            let got = map(&format!("v: {text}"))["v"].as_bool();
            assert_eq!(got, expected, "{text}");
        }
        assert_eq!(m["c"], Value::String("1".into()));
        assert_eq!(m["d"], Value::Int(1));
        assert_eq!(m["e"], Value::Float(1.5));
        assert_eq!(m["f"], Value::Null);
        assert_eq!(m["g"], Value::Int(31));
        assert_eq!(m["h"], Value::Float(f64::INFINITY));
        assert_eq!(m["i"], Value::Float(1000.0));
        assert_eq!(m["j"], Value::String("12abc".into()));
        assert_eq!(m["k"], Value::String("3".into()));
    }

    #[test]
    fn billion_laughs_is_refused() {
        use std::fmt::Write;
        let mut doc = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        let mut prev = 'a';
        for name in 'b'..='j' {
            let items = vec![format!("*{prev}"); 10].join(", ");
            writeln!(doc, "{name}: &{name} [{items}]").unwrap();
            prev = name;
        }
        let err = parse(&doc).unwrap_err();
        assert!(err.message.contains("aliases"), "{err:?}");
    }

    #[test]
    fn error_position_is_one_based() {
        let err = parse("a: 1\nb: *x").unwrap_err();
        assert_eq!(err.line, 2, "{err:?}");
    }

    #[test]
    fn deep_nesting_is_refused_before_it_is_built() {
        // 5,000 nested block sequences: `Parser::load` would recurse once per level.
        let deep = "- ".repeat(5_000) + "x";
        let err = parse(&deep).unwrap_err();
        assert!(err.message.contains("nested deeper than 64"), "{err:?}");
        let flow = "[".repeat(100_000);
        assert!(parse(&flow).is_err());
        let mut maps = String::new();
        for i in 0..10_000 {
            maps.push_str(&" ".repeat(i));
            maps.push_str("k:\n");
        }
        assert!(parse(&maps).is_err());
        // 64 levels are still fine.
        let ok = "- ".repeat(MAX_DEPTH) + "x";
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn a_second_document_is_an_error() {
        let err = parse("a: 1\n...\nb: 2").unwrap_err();
        assert!(err.message.contains("single YAML document"), "{err:?}");
        assert!(parse("a: 1\n...\n").is_ok());
    }

    #[test]
    fn merge_keys_fill_what_the_map_does_not_set() {
        let m = map("a: &a {x: 1, y: 2}\nb: &b {y: 3, z: 4}\nc:\n  y: 0\n  <<: [*a, *b]\n");
        let Value::Map(c) = &m["c"] else { panic!() };
        assert_eq!(c["y"], Value::Int(0));
        assert_eq!(c["x"], Value::Int(1));
        assert_eq!(c["z"], Value::Int(4));
        // A merge of something that is not a map is an ordinary key.
        let m = map("<<: 3\n");
        assert_eq!(m["<<"], Value::Int(3));
    }
}
