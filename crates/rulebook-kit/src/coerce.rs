//! Field coercion: from a frontmatter map to typed rule fields, per provider (behaviour.md §5).
//!
//! A value of the wrong type is dropped with a warning that names the file and the key: we do
//! not reproduce JavaScript truthiness (a string `"false"` counting as true).

use std::path::Path;

use rulebook_rule::{Map, Value};
use serde::Serialize;

use rulebook_registry::KnownKey;
use rulebook_rule::{Diagnostic, DiagnosticCode};

/// How a provider reads `description`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DescriptionPolicy {
    /// A string; a number or boolean as its text (native, windsurf).
    StringOrScalarText,
    /// A string only (cursor, cline).
    StringOnly,
}

/// How a provider reads `alwaysApply`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AlwaysApplyPolicy {
    /// A boolean, `true` or `false` (native, windsurf, cline).
    Boolean,
    /// Only `true` is kept; `false` becomes absent (cursor).
    OnlyTrue,
}

/// How a provider reads `globs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GlobsPolicy {
    /// A list whose scalar elements are kept as text, or one string (native).
    ScalarElementsAsText,
    /// A list whose string elements are kept (others dropped), or one string (cursor,
    /// windsurf, cline).
    StringsOnly,
}

/// The field coercion of one provider: a row of behaviour.md §5's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FieldPolicy {
    /// `description`.
    pub description: DescriptionPolicy,
    /// `alwaysApply`.
    pub always_apply: AlwaysApplyPolicy,
    /// `globs`.
    pub globs: GlobsPolicy,
}

impl FieldPolicy {
    /// A policy from its three rows (each provider crate defines its own, as the row of
    /// behaviour.md §5's table it follows).
    pub const fn new(
        description: DescriptionPolicy,
        always_apply: AlwaysApplyPolicy,
        globs: GlobsPolicy,
    ) -> Self {
        Self {
            description,
            always_apply,
            globs,
        }
    }
}

/// The typed fields read from a frontmatter map.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Fields {
    /// `description`.
    pub description: Option<String>,
    /// `alwaysApply`.
    pub always_apply: Option<bool>,
    /// `globs`.
    pub globs: Option<Vec<String>>,
    /// `ttsr_trigger`, else `ttsrTrigger`.
    pub ttsr_trigger: Option<String>,
    /// The TTSR conditions: `condition`, else `ttsr_trigger`, else `ttsrTrigger`; no empties.
    pub condition: Vec<String>,
}

/// The keys the coercion reads (others are kept in the map for consumers), with their
/// meaning: a provider's [`known_keys`](crate::ProviderMeta::with_known_keys) starts from these.
pub const COMMON_KEYS: &[KnownKey] = &[
    KnownKey::new(
        "description",
        "what the rule is for; lists it in the rulebook",
    ),
    KnownKey::new("alwaysApply", "inject the content into every prompt"),
    KnownKey::new(
        "globs",
        "file patterns the rule is about (attached when one matches)",
    ),
    KnownKey::new("condition", "TTSR regexes that interrupt the output stream"),
    KnownKey::new("ttsr_trigger", "a TTSR regex (when `condition` is not set)"),
    KnownKey::new(
        "ttsrTrigger",
        "a TTSR regex (when neither of the others is set)",
    ),
];

/// [`COMMON_KEYS`] followed by `own`: the known keys of a provider that reads the common
/// ones and more. `N` is their count, `COMMON_KEYS.len() + own.len()` (another count does
/// not compile).
///
/// # Panics
///
/// When `N` is another count: at compile time, in a `const`.
///
/// ```
/// use rulebook_kit::KnownKey;
/// use rulebook_kit::coerce::{COMMON_KEYS, common_keys_and};
///
/// const KEYS: &[KnownKey] = &common_keys_and::<7>(&[KnownKey::new("paths", "files it applies to")]);
/// assert_eq!(KEYS[..6], *COMMON_KEYS);
/// assert_eq!(KEYS[6].key, "paths");
/// ```
pub const fn common_keys_and<const N: usize>(own: &[KnownKey]) -> [KnownKey; N] {
    assert!(
        N == COMMON_KEYS.len() + own.len(),
        "N must be COMMON_KEYS.len() + own.len()"
    );
    let mut out = [COMMON_KEYS[0]; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < COMMON_KEYS.len() {
            COMMON_KEYS[i]
        } else {
            own[i - COMMON_KEYS.len()]
        };
        i += 1;
    }
    out
}

struct Ctx<'a> {
    path: &'a Path,
    text: Option<&'a str>,
    diagnostics: Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn wrong_type(&mut self, key: &str, value: &Value, expected: &str) {
        let shown = match value {
            Value::String(s) => format!("{} ({s:?})", value.type_name()),
            Value::List(_) | Value::Map(_) | Value::Null => value.type_name().to_owned(),
            scalar => format!("{} ({scalar})", scalar.type_name()),
        };
        let line = self.text.and_then(|t| key_line(t, key));
        self.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::WrongType,
                format!(
                    "`{key}` in {} is {shown}, not {expected}; it is ignored",
                    self.path.display()
                ),
            )
            .with_path(self.path)
            .at(line, line.map(|_| 1)),
        );
    }
}

/// Reads the typed fields of `frontmatter` under `policy`. `text` (the file's text) is only
/// used to find the line of a key a warning is about.
///
/// With `split_glob_strings` (Extended E4), a `globs` string is split on commas (outside `{…}`), each part
/// trimmed, empty parts dropped (E4): Cursor writes `globs: src/**/*.ts, tests/**`.
pub fn coerce_fields(
    frontmatter: &Map,
    policy: FieldPolicy,
    split_glob_strings: bool,
    path: &Path,
    text: Option<&str>,
) -> (Fields, Vec<Diagnostic>) {
    let mut ctx = Ctx {
        path,
        text,
        diagnostics: Vec::new(),
    };
    let fields = Fields {
        description: description(frontmatter, policy.description, &mut ctx),
        always_apply: always_apply(frontmatter, policy.always_apply, &mut ctx),
        globs: globs(frontmatter, policy.globs, split_glob_strings, &mut ctx),
        ttsr_trigger: ttsr_trigger(frontmatter, &mut ctx),
        condition: condition(frontmatter, &mut ctx),
    };
    (fields, ctx.diagnostics)
}

fn description(map: &Map, policy: DescriptionPolicy, ctx: &mut Ctx<'_>) -> Option<String> {
    let value = get(map, "description")?;
    match (value, policy) {
        (Value::Null, _) => None,
        (Value::String(s), _) => Some(s.clone()),
        (
            Value::Bool(_) | Value::Int(_) | Value::Float(_),
            DescriptionPolicy::StringOrScalarText,
        ) => value.scalar_text(),
        _ => {
            ctx.wrong_type("description", value, "a string");
            None
        }
    }
}

fn always_apply(map: &Map, policy: AlwaysApplyPolicy, ctx: &mut Ctx<'_>) -> Option<bool> {
    let value = get(map, "alwaysApply")?;
    match (value, policy) {
        (Value::Null, _) | (Value::Bool(false), AlwaysApplyPolicy::OnlyTrue) => None,
        (Value::Bool(b), _) => Some(*b),
        _ => {
            ctx.wrong_type("alwaysApply", value, "a boolean");
            None
        }
    }
}

fn globs(
    map: &Map,
    policy: GlobsPolicy,
    split_glob_strings: bool,
    ctx: &mut Ctx<'_>,
) -> Option<Vec<String>> {
    let value = get(map, "globs")?;
    match value {
        Value::Null => None,
        Value::String(s) => Some(if split_glob_strings {
            split_globs(s)
        } else {
            vec![s.clone()]
        }),
        Value::List(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                let text = match (item, policy) {
                    (Value::String(s), _) => Some(s.clone()),
                    (
                        Value::Bool(_) | Value::Int(_) | Value::Float(_),
                        GlobsPolicy::ScalarElementsAsText,
                    ) => item.scalar_text(),
                    _ => None,
                };
                match text {
                    Some(t) => out.push(t),
                    None => ctx.wrong_type("globs", item, "a string (in the list)"),
                }
            }
            Some(out)
        }
        other => {
            ctx.wrong_type("globs", other, "a list of strings or one string");
            None
        }
    }
}

/// Splits `a, b,{c,d}` into `["a", "b", "{c,d}"]`: commas inside braces are the glob's own.
pub fn split_globs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    let mut globs: Vec<String> = out
        .into_iter()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    // Kept with the rule: no room for more (a filtered collect starts at four).
    globs.shrink_to_fit();
    globs
}

fn ttsr_trigger(map: &Map, ctx: &mut Ctx<'_>) -> Option<String> {
    for key in ["ttsr_trigger", "ttsrTrigger"] {
        match get(map, key) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) => return Some(s.clone()),
            Some(other) => ctx.wrong_type(key, other, "a string"),
        }
    }
    None
}

/// The first of `condition`, `ttsr_trigger`, `ttsrTrigger` that is present (as `??` would
/// pick it), then without empty strings. A value of the wrong type counts as absent.
fn condition(map: &Map, ctx: &mut Ctx<'_>) -> Vec<String> {
    match get(map, "condition") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => return non_empty(std::iter::once(s.clone())),
        Some(Value::List(items)) => {
            let mut out = Vec::new();
            for item in items {
                match item {
                    Value::String(s) => out.push(s.clone()),
                    other => ctx.wrong_type("condition", other, "a string (in the list)"),
                }
            }
            return non_empty(out.into_iter());
        }
        Some(other) => ctx.wrong_type("condition", other, "a string or a list of strings"),
    }
    for key in ["ttsr_trigger", "ttsrTrigger"] {
        // Type warnings for these keys were given by `ttsr_trigger`.
        if let Some(Value::String(s)) = get(map, key) {
            return non_empty(std::iter::once(s.clone()));
        }
    }
    Vec::new()
}

/// `map[key]` by a scan: a frontmatter holds a handful of keys, which a scan compares
/// faster than the map hashes one (each rule's fields look up seven keys); keys are unique,
/// so the first found is the one.
fn get<'m>(map: &'m Map, key: &str) -> Option<&'m Value> {
    map.iter().find_map(|(k, v)| (k == key).then_some(v))
}

fn non_empty(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut kept: Vec<String> = items.filter(|s| !s.is_empty()).collect();
    // Kept with the rule: no room for more (a filtered collect starts at four).
    kept.shrink_to_fit();
    kept
}

/// The 1-based line of `key:` inside the frontmatter of `text`, if written at column 0.
pub fn key_line(text: &str, key: &str) -> Option<usize> {
    let mut lines = text.lines().enumerate();
    let (_, first) = lines.next()?;
    if !first.trim_start_matches('\u{feff}').starts_with("---") {
        return None;
    }
    for (i, line) in lines {
        if line.starts_with("---") {
            return None;
        }
        let rest = line
            .strip_prefix(key)
            .or_else(|| line.strip_prefix(&format!("\"{key}\"")))
            .or_else(|| line.strip_prefix(&format!("'{key}'")));
        if rest.is_some_and(|r| r.trim_start().starts_with(':')) {
            return Some(i + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_braces() {
        assert_eq!(
            split_globs(" src/**/*.ts, *.{ts,tsx} ,, tests/** "),
            ["src/**/*.ts", "*.{ts,tsx}", "tests/**"]
        );
        assert!(split_globs(" , ").is_empty());
    }

    #[test]
    fn key_line_finds_the_key() {
        let text = "---\ndescription: x\nalwaysApply: \"yes\"\n---\nalwaysApply: body";
        assert_eq!(key_line(text, "alwaysApply"), Some(3));
        assert_eq!(key_line(text, "globs"), None);
    }
}
