//! YAML 1.2 through yaml-rust2's event parser, built into our own [`Value`] model.
//!
//! We build from events rather than use `YamlLoader` because the loader forgets whether a
//! scalar was quoted (`"True"` must stay a string, `True` must be a boolean), does not keep
//! duplicate keys as "last wins", and expands aliases without a bound (a billion-laughs
//! document would exhaust memory).

use std::collections::HashMap;

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use crate::value::{Map, Value};

/// At most this many nodes, aliases expanded, before the document is refused.
pub(crate) const MAX_NODES: usize = 100_000;

/// A YAML syntax error, with its position inside the parsed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub(crate) message: String,
    /// 1-based line inside the parsed text.
    pub(crate) line: usize,
    /// 1-based column (in characters) inside the parsed text.
    pub(crate) column: usize,
}

/// Parses one YAML document. An empty document is `Value::Null`.
pub(crate) fn parse(text: &str) -> Result<Value, SyntaxError> {
    let mut builder = Builder::default();
    let mut parser = Parser::new_from_str(text);
    parser.load(&mut builder, false).map_err(|e| SyntaxError {
        message: e.info().to_owned(),
        line: e.marker().line(),
        column: e.marker().col() + 1,
    })?;
    if let Some(mark) = builder.overflow {
        return Err(SyntaxError {
            message: format!("more than {MAX_NODES} nodes once aliases are expanded"),
            line: mark.line(),
            column: mark.col() + 1,
        });
    }
    Ok(builder.root.unwrap_or(Value::Null))
}

enum Frame {
    List {
        items: Vec<Value>,
        anchor: usize,
    },
    Map {
        map: Map,
        key: Option<String>,
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
                None => *key = Some(key_text(&value)),
                Some(k) => {
                    // Duplicate keys: the last value wins (in the first key's position).
                    map.insert(k, value);
                }
            },
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.overflow.is_some() {
            return;
        }
        match event {
            Event::Scalar(text, style, anchor, tag) => {
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
                        if let Some(k) = key {
                            map.insert(k, Value::Null);
                        }
                        (Value::Map(map), anchor)
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

/// Non-string keys become their text (`1` → `"1"`); a collection key its flow-style text.
fn key_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn is_str_tag(tag: Option<&Tag>) -> bool {
    tag.is_some_and(|t| t.suffix == "str" && (t.handle == "!!" || t.handle == "tag:yaml.org,2002:"))
}

/// YAML 1.2 core schema for plain scalars; everything quoted or block-styled is a string.
fn resolve_scalar(text: String, style: TScalarStyle, tag: Option<&Tag>) -> Value {
    if style != TScalarStyle::Plain || is_str_tag(tag) {
        return Value::String(text);
    }
    match text.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        t if t.eq_ignore_ascii_case("true") => return Value::Bool(true),
        t if t.eq_ignore_ascii_case("false") => return Value::Bool(false),
        _ => {}
    }
    if let Some(number) = resolve_number(&text) {
        return number;
    }
    Value::String(text)
}

fn resolve_number(text: &str) -> Option<Value> {
    let bytes = text.as_bytes();
    let (sign, digits) = match bytes.first()? {
        b'-' => (-1.0, &text[1..]),
        b'+' => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    if let Some(oct) = text.strip_prefix("0o") {
        return i64::from_str_radix(oct, 8).ok().map(Value::Int);
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok().map(Value::Int);
    }
    if matches!(digits, ".inf" | ".Inf" | ".INF") {
        return Some(Value::Float(sign * f64::INFINITY));
    }
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(Value::Float(f64::NAN));
    }
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Some(text.parse::<i64>().map_or_else(
            |_| Value::Float(text.parse().unwrap_or(f64::NAN)),
            Value::Int,
        ));
    }
    is_core_float(digits)
        .then(|| text.parse::<f64>().ok().map(Value::Float))
        .flatten()
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, the core schema's float without sign.
fn is_core_float(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => {
            int.bytes().all(|b| b.is_ascii_digit())
                && frac.bytes().all(|b| b.is_ascii_digit())
                && !(int.is_empty() && frac.is_empty())
        }
        None => !mantissa.is_empty() && mantissa.bytes().all(|b| b.is_ascii_digit()),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> Map {
        match parse(text).unwrap() {
            Value::Map(m) => m,
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
}
