//! Edges a consumer of the parser relies on: the character after the opening `---`, the
//! normalization step alone, E4 recovery around block scalars, lists of maps and quoted
//! values, what is not a number, anchors on scalars, merge lists that hold a non-map,
//! `!!str`, and the node bound (exactly 100,000 nodes parse, one more does not).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook_frontmatter::{
    Map, Outcome, ParseOptions, Recovery, Value, normalize_text, parse_frontmatter,
};

fn parse(text: &str) -> (Outcome, Map) {
    let parsed = parse_frontmatter(text, &ParseOptions::new().recovery(Recovery::QuoteValues));
    (parsed.outcome, parsed.frontmatter)
}

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

#[test]
fn the_character_after_the_opening_dashes_is_skipped() {
    // "From index 4": `---x` opens frontmatter and the `x` is not metadata.
    let (outcome, map) = parse("---x\nkey: 1\n---\nbody");
    assert_eq!(outcome, Outcome::Parsed);
    assert_eq!(map["key"], Value::Int(1));
    assert_eq!(map.len(), 1);
}

#[test]
fn normalization_alone() {
    assert_eq!(
        normalize_text("a\r\nb<!-- c -->d\re<!--\nf\n-->g"),
        "a\nbd\neg"
    );
    assert_eq!(
        normalize_text("open <!-- never closed"),
        "open <!-- never closed"
    );
}

#[test]
fn recovery_leaves_block_scalars_and_quoted_values_and_reaches_list_items() {
    let (outcome, map) = parse(
        "---\ndescription: |\n  Use *this*: carefully\n  and: *that*\n\n  end\nglobs: *.ts\n---\n",
    );
    assert_eq!(outcome, Outcome::Recovered);
    assert_eq!(
        map["description"],
        s("Use *this*: carefully\nand: *that*\n\nend\n")
    );
    assert_eq!(map["globs"], s("*.ts"));

    let (_, map) = parse("---\nitems:\n  - name: *bad\n    other: ok\nglobs: *.ts\n---\n");
    let mut item = Map::new();
    item.insert("name".into(), s("*bad"));
    item.insert("other".into(), s("ok"));
    assert_eq!(map["items"], Value::List(vec![Value::Map(Box::new(item))]));

    let (_, map) = parse("---\ntitle: 'a: b'\nglobs: *.ts\n---\n");
    assert_eq!(
        map["title"],
        s("a: b"),
        "a single-quoted value is valid YAML as it is"
    );
}

#[test]
fn what_is_not_a_number() {
    for text in ["1a.5", ".", "1e", "1ex", "a.5", "1.5e", "1e+"] {
        let (_, map) = parse(&format!("---\nk: {text}\n---\n"));
        assert_eq!(map["k"], s(text), "{text}");
    }
    let (_, map) = parse("---\nk: 1.5e3\n---\n");
    assert_eq!(map["k"], Value::Float(1500.0));
}

#[test]
fn str_tags_in_both_spellings() {
    for text in ["!!str 42", "!<tag:yaml.org,2002:str> 42"] {
        let (_, map) = parse(&format!("---\nk: {text}\n---\n"));
        assert_eq!(map["k"], s("42"), "{text}");
    }
}

#[test]
fn anchors_on_scalars_and_merge_lists_with_a_non_map() {
    let (_, map) = parse("---\na: &x hello\nb: *x\n---\n");
    assert_eq!(map["b"], s("hello"));
    // A merge list that holds a non-map is not a merge: it stays under `<<`.
    let (_, map) = parse("---\nbase: &b {x: 1}\nk:\n  <<: [*b, 3]\n  y: 2\n---\n");
    let Value::Map(k) = &map["k"] else {
        panic!("{map:?}")
    };
    assert!(
        matches!(k.get("<<"), Some(Value::List(items)) if items.len() == 2),
        "{k:?}"
    );
    assert!(!k.contains_key("x"));
}

/// A map holding one list of `n` scalars is `n + 3` nodes (the key, the list, the map).
#[test]
fn exactly_the_node_bound_parses() {
    let list = |n: usize| format!("---\nk: [{}]\n---\n", vec!["0"; n].join(","));
    let (outcome, map) = parse(&list(100_000 - 3));
    assert_eq!(outcome, Outcome::Parsed);
    assert!(matches!(&map["k"], Value::List(items) if items.len() == 99_997));
    let (outcome, _) = parse(&list(100_000 - 2));
    assert_ne!(outcome, Outcome::Parsed);
}

/// Aliases of maps count every node of the map: ten levels of ten aliases of a ten-key map
/// would be millions of nodes, past the bound, so the frontmatter is refused, not built.
#[test]
fn aliases_of_maps_count_their_nodes() {
    let mut text = String::from("---\na0: &a0 {");
    text.push_str(
        &(0..10)
            .map(|i| format!("k{i}: 0"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    text.push_str("}\n");
    for level in 1..6 {
        let items: Vec<String> = (0..10).map(|i| format!("x{i}: *a{}", level - 1)).collect();
        text.push_str(&format!("a{level}: &a{level} {{{}}}\n", items.join(", ")));
    }
    text.push_str("---\n");
    let (outcome, map) = parse(&text);
    assert_ne!(outcome, Outcome::Parsed, "{} keys", map.len());
}

/// E4 quotes a double-quoted value only when its one problem is an escape YAML does not
/// know (`"console\.log"`); a value with an unescaped `"` inside is not a quoted string the
/// recovery can repair, so the line parser reads the file.
#[test]
fn recovery_repairs_unknown_escapes_only() {
    let (outcome, map) = parse("---\npattern: \"console\\.log\"\n---\n");
    assert_eq!(outcome, Outcome::Recovered);
    assert_eq!(map["pattern"], s("console\\.log"));
    let (outcome, _) = parse("---\npattern: \"say \"hi\" \\d\"\n---\n");
    assert_eq!(outcome, Outcome::LineParser);
}

/// An alias counts every node of what it names, a map's keys included: a map of ten keys
/// is 21 nodes, a list of ten entries 11. The frontmatter below is exactly the bound with
/// `pad` items of padding, and one node over it with one more.
#[test]
fn aliases_count_exactly() {
    let text = |anchored: &str, pad: usize| {
        format!(
            "---\na: &x {anchored}\nb: *x\np: [{}]\n---\n",
            vec!["0"; pad].join(",")
        )
    };
    let map = format!(
        "{{{}}}",
        (0..10)
            .map(|i| format!("k{i}: 0"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let list = format!("[{}]", ["0"; 10].join(","));
    // Nodes: `a` 1 + the value + `b` 1 + the alias (the value again) + `p` 1 + the list
    // (pad + 1) + the root 1.
    for (anchored, size) in [(map.as_str(), 21), (list.as_str(), 11)] {
        let pad = 100_000 - (1 + size + 1 + size + 1 + 1 + 1);
        let (outcome, _) = parse(&text(anchored, pad));
        assert_eq!(outcome, Outcome::Parsed, "{anchored}");
        let (outcome, _) = parse(&text(anchored, pad + 1));
        assert_ne!(outcome, Outcome::Parsed, "{anchored}");
    }
}
