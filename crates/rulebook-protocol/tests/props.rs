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
