//! Every file of `fixtures/frontmatter/` parsed under both recoveries, side by side.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook_frontmatter::{ParseOptions, Parsed, Recovery, parse_frontmatter};
use serde::Serialize;

#[derive(Serialize)]
struct BothProfiles<'a> {
    /// The input (BOM stripped), so the snapshot shows what was parsed.
    input: String,
    reference: Parsed<'a>,
    extended: Parsed<'a>,
}

#[test]
fn frontmatter_fixtures() {
    insta::glob!("../../../fixtures", "frontmatter/*", |path| {
        let bytes = std::fs::read(path).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let name = std::path::Path::new("frontmatter").join(path.file_name().unwrap());
        let reference = parse_frontmatter(text, &ParseOptions::new().source(&name));
        let extended = parse_frontmatter(
            text,
            &ParseOptions::new()
                .source(&name)
                .recovery(Recovery::QuoteValues),
        );
        insta::assert_yaml_snapshot!(BothProfiles {
            input: text.to_owned(),
            reference,
            extended,
        });
    });
}
