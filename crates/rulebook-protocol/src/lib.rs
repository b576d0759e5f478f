//! The `rule://` protocol (behaviour.md §9).
//!
//! - [`RuleUrl::parse`]: the scheme is `rule` in any letter case; the name is the raw text
//!   between `://` and the first `/`, `?` or `#`, percent-decoded; on a bad escape (or
//!   bytes that do not decode as UTF-8) the raw text is the name. Names are case-sensitive.
//! - [`resolve`]: exact name match over the rules the caller offers, in order, first wins
//!   (the facade offers rulebook rules, then always-apply rules, then, in Extended E5, TTSR
//!   and manual rules).
//! - [`complete`] (Extended E6): names with descriptions for a prefix.
//!
//! Errors display the exact messages of the specification:
//! `rule:// URL requires a rule name: rule://<name>`, and
//! `Unknown rule: <name>` then, on the next line, `Available: <names joined by ", ">` or
//! `Available: none`.
//!
//! Depends on `rulebook-rule`, `serde` and `thiserror`. Does no I/O.
//!
//! ```
//! use rulebook_protocol::{resolve, RuleUrl};
//! # use rulebook_rule::*;
//! # let rule = Rule::new("style", "/p/style.md", "Be brief.",
//! #     SourceMeta::new("native", "Native", Level::Project, "/p/style.md")).with_description("d");
//! assert_eq!(RuleUrl::parse("RULE://my%20rule/x?y#z").unwrap().name, "my rule");
//! let resource = resolve("rule://style", [&rule]).unwrap();
//! assert_eq!(&*resource.content, "Be brief.");
//! assert_eq!(resource.content_type, "text/markdown");
//! let err = resolve("rule://nope", [&rule]).unwrap_err();
//! assert_eq!(err.to_string(), "Unknown rule: nope\nAvailable: style");
//! ```

use std::path::PathBuf;

use rulebook_rule::Rule;
use serde::Serialize;

/// The content type of every resolved rule.
pub const CONTENT_TYPE: &str = "text/markdown";

/// A parsed `rule://` URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleUrl {
    /// The rule's name, percent-decoded.
    pub name: String,
    /// Whatever followed the name (`/path`, `?query`, `#fragment`), raw; ignored by
    /// resolution.
    pub rest: String,
}

/// Why a URL did not resolve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The text is not a `rule://` URL at all.
    #[error("not a rule:// URL: {0:?} (expected rule://<name>)")]
    NotRuleUrl(String),
    /// `rule://` with nothing before the first `/`, `?` or `#`.
    #[error("rule:// URL requires a rule name: rule://<name>")]
    MissingName,
    /// No offered rule has that name.
    #[error("Unknown rule: {name}\nAvailable: {}", available_list(.available))]
    UnknownRule {
        /// The name asked for.
        name: String,
        /// The names that would have resolved, in order.
        available: Vec<String>,
    },
}

fn available_list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// A resolved rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resource {
    /// The rule's name.
    pub name: String,
    /// The body, frontmatter stripped.
    pub content: String,
    /// Always [`CONTENT_TYPE`].
    pub content_type: &'static str,
    /// The content's size in bytes.
    pub size: usize,
    /// The file the rule came from.
    pub source_path: PathBuf,
}

impl Resource {
    /// The resource a rule resolves to.
    pub fn from_rule(rule: &Rule) -> Self {
        Self {
            name: rule.name.clone(),
            content: rule.content.to_string(),
            content_type: CONTENT_TYPE,
            size: rule.content.len(),
            source_path: rule.path.clone(),
        }
    }
}

impl ProtocolError {
    /// `Unknown rule: <name>` with the names that would have resolved (each once, in
    /// order).
    pub fn unknown<'a>(
        name: impl Into<String>,
        available: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let mut names: Vec<String> = Vec::new();
        for n in available {
            if !names.iter().any(|x| x == n) {
                names.push(n.to_owned());
            }
        }
        ProtocolError::UnknownRule {
            name: name.into(),
            available: names,
        }
    }
}

/// The names `rule://` resolves, indexed once: resolution in constant time, the first rule
/// of a name (in the order given) winning.
#[derive(Debug, Clone, Default)]
pub struct UrlIndex {
    /// Name → position in the rules given to [`UrlIndex::new`].
    by_name: std::collections::HashMap<String, usize>,
    /// Every name, in order, each once (for `Available:`).
    names: Vec<String>,
}

impl UrlIndex {
    /// Indexes `rules`, in resolution order.
    pub fn new<'a>(rules: impl IntoIterator<Item = &'a Rule>) -> Self {
        let mut index = Self::default();
        for (i, rule) in rules.into_iter().enumerate() {
            if !index.by_name.contains_key(&rule.name) {
                index.by_name.insert(rule.name.clone(), i);
                index.names.push(rule.name.clone());
            }
        }
        index
    }

    /// The position (in the rules given to [`UrlIndex::new`]) `url` resolves to, or the
    /// exact error (behaviour.md §9).
    pub fn position(&self, url: &str) -> Result<usize, ProtocolError> {
        let parsed = RuleUrl::parse(url)?;
        match self.by_name.get(&parsed.name) {
            Some(&i) => Ok(i),
            None => Err(ProtocolError::UnknownRule {
                name: parsed.name,
                available: self.names.clone(),
            }),
        }
    }

    /// How many names resolve.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no name resolves.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

impl RuleUrl {
    /// Parses `rule://<name>[/…][?…][#…]`.
    pub fn parse(url: &str) -> Result<Self, ProtocolError> {
        let rest = strip_scheme(url).ok_or_else(|| ProtocolError::NotRuleUrl(url.to_owned()))?;
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let raw = &rest[..end];
        if raw.is_empty() {
            return Err(ProtocolError::MissingName);
        }
        Ok(Self {
            name: percent_decode(raw).unwrap_or_else(|| raw.to_owned()),
            rest: rest[end..].to_owned(),
        })
    }
}

/// The text after `rule://` (the scheme in any letter case), or `None`.
fn strip_scheme(text: &str) -> Option<&str> {
    text.get(..7)
        .filter(|scheme| scheme.eq_ignore_ascii_case("rule://"))
        .map(|_| &text[7..])
}

/// `%XX` escapes decoded; `None` on a malformed escape or when the bytes are not UTF-8.
fn percent_decode(raw: &str) -> Option<String> {
    if !raw.contains('%') {
        return Some(raw.to_owned());
    }
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = raw.get(i + 1..i + 3)?;
            out.push(
                u8::from_str_radix(hex, 16)
                    .ok()
                    .filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))?,
            );
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Resolves `url` against `rules`, in order, first exact name match wins.
pub fn resolve<'a, I>(url: &str, rules: I) -> Result<Resource, ProtocolError>
where
    I: IntoIterator<Item = &'a Rule>,
    I::IntoIter: Clone,
{
    let parsed = RuleUrl::parse(url)?;
    let rules = rules.into_iter();
    match rules.clone().find(|r| r.name == parsed.name) {
        Some(rule) => Ok(Resource::from_rule(rule)),
        None => Err(ProtocolError::unknown(
            parsed.name,
            rules.map(|r| r.name.as_str()),
        )),
    }
}

/// A completion candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Completion {
    /// The rule's name.
    pub name: String,
    /// `rule://<name>`, percent-encoded where needed.
    pub url: String,
    /// Its description, if any.
    pub description: Option<String>,
}

/// Extended E6: the rules whose name starts with `prefix` (which may itself start with
/// `rule://`), in order, each once.
pub fn complete<'a>(prefix: &str, rules: impl IntoIterator<Item = &'a Rule>) -> Vec<Completion> {
    let prefix = strip_scheme(prefix).unwrap_or(prefix);
    // A prefix copied from an encoded URI (`src%3A`) means the name it encodes.
    let decoded = percent_decode(prefix);
    let prefix = decoded.as_deref().unwrap_or(prefix);
    let mut out: Vec<Completion> = Vec::new();
    // The names given already, by a hash: a search of the list for each rule would make a
    // prefix every rule has (`""`) quadratic.
    let mut given: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for rule in rules {
        if rule.name.starts_with(prefix) && given.insert(rule.name.as_str()) {
            out.push(Completion {
                name: rule.name.clone(),
                url: rule_uri(&rule.name),
                description: rule.description.clone(),
            });
        }
    }
    out
}

pub use rulebook_rule::percent_encode;

/// The URI of the rule named `name`: `rule://` and [`percent_encode`]'s form of it.
pub fn rule_uri(name: &str) -> String {
    format!("rule://{}", percent_encode(name))
}
