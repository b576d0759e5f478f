//! The YAML 1.2 core schema as the value model reads plain scalars (numbers, tags), and the
//! value helpers consumers use (text, type names, display).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
#![allow(clippy::float_cmp, reason = "infinities compare exactly")]

use rulebook_frontmatter::{Map, Outcome, ParseOptions, Value, parse_frontmatter};

fn value(yaml_scalar: &str) -> Value {
    let text = format!("---\nk: {yaml_scalar}\n---\nbody");
    let parsed = parse_frontmatter(&text, &ParseOptions::new());
    assert_eq!(
        parsed.outcome,
        Outcome::Parsed,
        "{yaml_scalar}: {:?}",
        parsed.warnings
    );
    parsed.frontmatter.get("k").cloned().unwrap()
}

#[test]
fn numbers_of_the_core_schema() {
    let int = |t: &str| match value(t) {
        Value::Int(i) => i,
        other => panic!("{t}: {other:?}"),
    };
    let float = |t: &str| match value(t) {
        Value::Float(f) => f,
        other => panic!("{t}: {other:?}"),
    };
    assert_eq!(int("42"), 42);
    assert_eq!(int("-42"), -42);
    assert_eq!(int("+42"), 42);
    assert_eq!(int("0o17"), 15);
    assert_eq!(int("0xff"), 255);
    assert!(float("99999999999999999999") > 9.9e19, "past i64: a float");
    assert!((float("1.5") - 1.5).abs() < f64::EPSILON);
    assert!((float(".5") - 0.5).abs() < f64::EPSILON);
    assert!((float("1.") - 1.0).abs() < f64::EPSILON);
    assert!((float("-2.5e3") + 2500.0).abs() < f64::EPSILON);
    assert!((float("1e+2") - 100.0).abs() < f64::EPSILON);
    assert!((float("+1.5") - 1.5).abs() < f64::EPSILON);
    assert_eq!(float(".inf"), f64::INFINITY);
    assert_eq!(float("-.inf"), f64::NEG_INFINITY);
    assert_eq!(float("+.Inf"), f64::INFINITY);
    assert!(float(".NaN").is_nan());
    // Not numbers in the core schema: strings.
    for text in [
        "1.2.3", "e5", "1e", ".", "0x", "1_000", "12abc", "- 1", "--1", ".e1", "1e5.5",
    ] {
        assert!(
            matches!(value(&format!("\"{text}\"")), Value::String(_)),
            "quoted {text}"
        );
        let plain = format!("x{text}");
        assert_eq!(value(&plain), Value::String(plain.clone()));
    }
    assert_eq!(value("1.2.3"), Value::String("1.2.3".to_owned()));
    assert_eq!(value("1e5.5"), Value::String("1e5.5".to_owned()));
    assert_eq!(value("e5"), Value::String("e5".to_owned()));
}

#[test]
fn the_str_tag_keeps_text() {
    assert_eq!(value("!!str 42"), Value::String("42".to_owned()));
    assert_eq!(value("!!str true"), Value::String("true".to_owned()));
    assert_eq!(
        value("!!int 42"),
        Value::Int(42),
        "other tags resolve as usual"
    );
}

#[test]
fn helpers_and_display() {
    let s = Value::String("x".to_owned());
    assert_eq!(s.as_str(), Some("x"));
    assert_eq!(Value::Int(1).as_str(), None);
    assert_eq!(Value::Bool(true).as_bool(), Some(true));
    assert_eq!(s.as_bool(), None);
    assert_eq!(
        Value::Float(f64::NAN).scalar_text().as_deref(),
        Some(".nan")
    );
    assert_eq!(
        Value::Float(f64::INFINITY).scalar_text().as_deref(),
        Some(".inf")
    );
    assert_eq!(
        Value::Float(f64::NEG_INFINITY).scalar_text().as_deref(),
        Some("-.inf")
    );
    assert_eq!(Value::Float(2.5).scalar_text().as_deref(), Some("2.5"));
    assert_eq!(Value::Null.scalar_text(), None);
    assert_eq!(Value::List(vec![]).type_name(), "a list");
    let mut inner = Map::new();
    inner.insert(
        "b".to_owned(),
        Value::List(vec![Value::Int(1), Value::Null]),
    );
    inner.insert("c".to_owned(), Value::Bool(false));
    let list = Value::List(vec![
        s,
        Value::Map(Box::new(inner)),
        Value::Float(f64::NEG_INFINITY),
    ]);
    assert_eq!(list.to_string(), "[x, {b: [1, null], c: false}, -.inf]");
    assert_eq!(Value::List(vec![]).to_string(), "[]");
    assert_eq!(Value::Map(Box::default()).to_string(), "{}");
}
