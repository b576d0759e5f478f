//! Properties of the `rule://` parser for every input.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use proptest::prelude::*;
use rulebook_protocol::{RuleUrl, percent_encode};

proptest! {
    /// Never panics; what it accepts is a `rule://` URL with a non-empty name.
    #[test]
    fn parse_never_panics(url in "(?s)(rule|RULE|Rule|rules|http)?(://|:|//)?[a-z%/?#.@:+~ é0-9A-F]{0,24}") {
        if let Ok(parsed) = RuleUrl::parse(&url) {
            prop_assert!(url.to_ascii_lowercase().starts_with("rule://"));
            prop_assert!(!parsed.name.is_empty());
        }
    }

    /// Any rule name survives `percent_encode` and `parse`: completions always resolve.
    #[test]
    fn encoded_names_round_trip(name in "(?s).{1,24}") {
        let url = format!("rule://{}", percent_encode(&name));
        prop_assert_eq!(RuleUrl::parse(&url).unwrap().name, name);
    }
}

/// RFC 3986 §3.2.2: `reg-name = *( unreserved / pct-encoded / sub-delims )`; rulebook
/// writes no sub-delims, so an encoded name is unreserved bytes and `%XX` triples only.
fn is_reg_name(host: &str) -> bool {
    let bytes = host.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                if !bytes
                    .get(i + 1..i + 3)
                    .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
                {
                    return false;
                }
                i += 3;
            }
            b if b.is_ascii_alphanumeric() || b"-._~".contains(&b) => i += 1,
            _ => return false,
        }
    }
    true
}

proptest! {
    /// Every URI rulebook prints is a valid RFC 3986 URI whose
    /// authority is one host (no `:` port, no `@` user, no path, query or fragment).
    #[test]
    fn every_uri_is_one_valid_host(name in "(?s).{1,24}") {
        let uri = rulebook_protocol::rule_uri(&name);
        let host = uri.strip_prefix("rule://").unwrap();
        prop_assert!(is_reg_name(host), "{}", uri);
    }
}

/// The names of nested rules (`src:routes:CLAUDE`) were printed raw: `rule://src:routes:CLAUDE`
/// is host `src`, port `routes:CLAUDE` to a URL parser. Simple names stay as they were; the
/// old spelling still reads.
#[test]
fn nested_names_are_encoded_and_the_old_spelling_still_reads() {
    let cases = [
        ("CLAUDE", "rule://CLAUDE"),
        ("CLAUDE.local", "rule://CLAUDE.local"),
        ("my-rule_2", "rule://my-rule_2"),
        ("src:routes:CLAUDE", "rule://src%3Aroutes%3ACLAUDE"),
        ("~:CLAUDE", "rule://~%3ACLAUDE"),
        ("..:CLAUDE", "rule://..%3ACLAUDE"),
        ("my rule", "rule://my%20rule"),
        ("a/b", "rule://a%2Fb"),
        ("ü-rule", "rule://%C3%BC-rule"),
        ("a%b", "rule://a%25b"),
        ("a@b", "rule://a%40b"),
    ];
    for (name, uri) in cases {
        assert_eq!(rulebook_protocol::rule_uri(name), uri);
        assert_eq!(RuleUrl::parse(uri).unwrap().name, name);
    }
    assert_eq!(
        RuleUrl::parse("rule://src:routes:CLAUDE").unwrap().name,
        "src:routes:CLAUDE"
    );
    // Lower-case hex, as a client may send it.
    assert_eq!(
        RuleUrl::parse("rule://src%3aroutes%3aCLAUDE").unwrap().name,
        "src:routes:CLAUDE"
    );
}
