//! The order-preserving value model the frontmatter is parsed into.

use std::fmt;

use indexmap::IndexMap;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A frontmatter mapping: keys in the order the file wrote them (a duplicate key keeps its
/// first position and its last value).
pub type Map = IndexMap<String, Value>;

/// One YAML value, typed as YAML 1.2's core schema resolves it.
///
/// Serializes as the plain value (`true`, `3`, `"text"`, a list, a map), so a JSON or YAML
/// dump of a [`Map`] reads like the frontmatter it came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `~`, `null`, or an empty value.
    Null,
    /// `true`, `True`, `TRUE`, `false`, `False` or `FALSE` (YAML 1.2's core schema); never
    /// `yes`/`on` nor another letter case.
    Bool(bool),
    /// A decimal, octal (`0o17`) or hexadecimal (`0xff`) integer that fits an `i64`.
    Int(i64),
    /// A floating-point number, including `.inf` and `.nan`.
    Float(f64),
    /// Any other scalar, quoted or not, and block scalars.
    String(String),
    /// A sequence.
    List(Vec<Value>),
    /// A nested mapping (boxed: a map is several times the size of the other variants,
    /// and every value of every frontmatter would carry that size).
    Map(Box<Map>),
}

impl Value {
    /// The string, if this is a [`Value::String`].
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if this is a [`Value::Bool`].
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The text of a scalar (`3` → `"3"`, `true` → `"true"`, a string as itself); `None` for
    /// null, lists and maps.
    pub fn scalar_text(&self) -> Option<String> {
        match self {
            Value::Bool(b) => Some(b.to_string()),
            Value::Int(i) => Some(i.to_string()),
            Value::Float(f) => Some(format_float(*f)),
            Value::String(s) => Some(s.clone()),
            Value::Null | Value::List(_) | Value::Map(_) => None,
        }
    }

    /// A short name of the value's type, for warnings ("a list", "a boolean").
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::String(_) => "a string",
            Value::List(_) => "a list",
            Value::Map(_) => "a map",
        }
    }

    /// How many nodes this value holds, itself included (used to bound alias expansion).
    #[cfg(feature = "parse")]
    pub(crate) fn node_count(&self) -> usize {
        match self {
            Value::List(items) => 1 + items.iter().map(Value::node_count).sum::<usize>(),
            Value::Map(map) => 1 + map.values().map(|v| 1 + v.node_count()).sum::<usize>(),
            _ => 1,
        }
    }
}

fn format_float(f: f64) -> String {
    if f.is_nan() {
        ".nan".to_owned()
    } else if f.is_infinite() {
        if f > 0.0 { ".inf" } else { "-.inf" }.to_owned()
    } else {
        f.to_string()
    }
}

impl fmt::Display for Value {
    /// Scalars as their text, null as `null`, collections in YAML flow style.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Value::Map(map) => {
                f.write_str("{")?;
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
            scalar => f.write_str(&scalar.scalar_text().unwrap_or_default()),
        }
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Int(i) => serializer.serialize_i64(*i),
            Value::Float(f) => serializer.serialize_f64(*f),
            Value::String(s) => serializer.serialize_str(s),
            Value::List(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Map(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                for (k, v) in map.iter() {
                    out.serialize_entry(k, v)?;
                }
                out.end()
            }
        }
    }
}
