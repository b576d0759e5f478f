//! Properties that hold for every input.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use proptest::prelude::*;
use rulebook_frontmatter::{Outcome, ParseOptions, Recovery, parse_frontmatter};

fn frontmatterish() -> impl Strategy<Value = String> {
    // Pieces that hit the parser's corners, glued at random.
    let piece = prop_oneof![
        Just("---".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        Just("\r".to_owned()),
        Just("<!--".to_owned()),
        Just("-->".to_owned()),
        Just("\t".to_owned()),
        Just(": ".to_owned()),
        Just("*".to_owned()),
        Just("&a ".to_owned()),
        Just("\"\\.".to_owned()),
        Just("- ".to_owned()),
        Just("[".to_owned()),
        Just("é".to_owned()),
        "[a-z]{1,5}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn never_panics_and_is_deterministic(text in frontmatterish()) {
        for recovery in [Recovery::LineParser, Recovery::QuoteValues] {
            let options = ParseOptions::new().recovery(recovery);
            let a = parse_frontmatter(&text, &options);
            let b = parse_frontmatter(&text, &options);
            prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
            if a.outcome == Outcome::Absent {
                prop_assert!(a.frontmatter.is_empty());
            }
            for w in &a.warnings {
                if let Some(line) = w.line {
                    let lines = text.split(['\n', '\r']).count().max(1);
                    prop_assert!(line >= 1 && line <= lines + 1, "line {} of {}", line, lines);
                }
            }
        }
    }
}
