//! Splits a Markdown rule file into its YAML frontmatter and its body.
//!
//! This crate knows nothing of rules: it turns text into an ordered, typed map
//! ([`Map`] of [`Value`]), a body, and [`Warning`]s that carry the line and column of the
//! file they are about. It never fails and never panics: text with no frontmatter, or with
//! frontmatter that is not valid YAML, still yields a body and a (possibly empty) map.
//!
//! The steps are those of the behaviour contract (`docs/behaviour.md`), §3:
//! 1. `\r\n` and lone `\r` become `\n`; every closed HTML comment `<!-- … -->` is removed,
//!    body included.
//! 2. Text that does not start with `---` has no frontmatter; its body is the normalized
//!    text, untrimmed.
//! 3. The closing delimiter is the first `\n---` from index 3; without one there is no
//!    frontmatter either.
//! 4. The metadata runs from index 4 to the delimiter; the body follows the delimiter's four
//!    characters, trimmed (so a closer `---more` leaves `more` at the start of the body).
//!
//!    The trim is JavaScript's (`String.prototype.trim`: U+FEFF is white space, U+0085 is not).
//! 5. The metadata is parsed as YAML 1.2 after each tab becomes two spaces (the simple
//!    shapes nearly every frontmatter takes through a fast path, held by a differential
//!    property test to the same values as the full parser, which reads everything else). Only the core
//!    schema's `true True TRUE false False FALSE` are booleans (`tRUE`, `yes` and `on` are
//!    strings); non-string keys become their text; the last of duplicate keys wins; merge
//!    keys (`<<: *base`) are honoured; content after the first root node is an error; a
//!    top-level scalar or list is an empty map with a warning.
//! 6. On a YAML error, a warning `Failed to parse YAML frontmatter (<path>): <message>`, and
//!    then a [`Recovery`]: the seeds' line parser ([`Recovery::LineParser`], every
//!    `^(\w+):\s*(.*)$` line as a string), or Extended E4 ([`Recovery::QuoteValues`]: the
//!    values YAML misread are quoted and the metadata parsed again, so other keys keep
//!    their types).
//!
//! Depends on `yaml-rust2` (the parser), `indexmap` (key order) and `serde` (so the map
//! serializes as the frontmatter it came from).
//!
//! # Features
//! - `parse` (default): the parser. Without it the crate is only the value model ([`Map`],
//!   [`Value`], [`Outcome`]), which is what a crate that consumes rules needs: the model of
//!   rulebook depends on it that way, so the stages that take rules pull in no YAML.
//!
//! ```
//! # #[cfg(feature = "parse")] {
//! use rulebook_frontmatter::{parse_frontmatter, ParseOptions, Recovery, Value};
//!
//! let text = "---\nglobs: *.ts\nalwaysApply: false\n---\n\nUse strict mode.\n";
//!
//! // The seeds' fallback: every value a string.
//! let reference = parse_frontmatter(text, &ParseOptions::new());
//! assert_eq!(reference.frontmatter["alwaysApply"], Value::String("false".into()));
//! assert_eq!(reference.body, "Use strict mode.");
//! assert_eq!(reference.warnings.len(), 1);
//!
//! // Extended E4: only the broken value is read as text.
//! let extended = parse_frontmatter(text, &ParseOptions::new().recovery(Recovery::QuoteValues));
//! assert_eq!(extended.frontmatter["alwaysApply"], Value::Bool(false));
//! assert_eq!(extended.frontmatter["globs"], Value::String("*.ts".into()));
//! # }
//! ```

#[cfg(feature = "parse")]
mod normalize;
#[cfg(feature = "parse")]
mod parse;
#[cfg(feature = "parse")]
mod recover;
#[cfg(feature = "parse")]
mod scalar;
#[cfg(feature = "parse")]
mod simple;
mod value;
#[cfg(feature = "parse")]
mod yaml;

use serde::Serialize;

#[cfg(feature = "parse")]
pub use parse::{
    ParseOptions, Parsed, Recovery, Warning, WarningKind, YamlError, normalize_text,
    parse_frontmatter,
};
pub use value::{Map, Value};

/// How the frontmatter was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The text has no frontmatter (no leading `---`, or no closing `\n---`).
    Absent,
    /// Valid YAML: a map, or empty.
    Parsed,
    /// Valid YAML whose top level is a scalar or a list: read as an empty map.
    NotAMap,
    /// Invalid YAML, recovered by quoting values (Extended E4).
    Recovered,
    /// Invalid YAML, read by the line parser.
    LineParser,
}
