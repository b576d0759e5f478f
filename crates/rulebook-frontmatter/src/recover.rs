//! Extended E4: reading the values YAML refuses as the plain text their authors meant.
//!
//! Real rule files write `globs: *.ts,*.tsx` (an alias to YAML) and
//! `description: Use this: always` (a nested mapping to YAML). We quote such values, and only
//! such values, so every other key keeps its YAML type.

/// The metadata with the offending values single-quoted, and the keys (or `-` items) that
/// were quoted. `None` when nothing needed quoting (recovery cannot help).
pub(crate) fn quote_plain_values(metadata: &str) -> Option<(String, Vec<String>)> {
    let mut out = String::with_capacity(metadata.len() + 16);
    let mut quoted = Vec::new();
    // Indentation of a line that opened a block scalar (`key: |`): deeper lines are its text.
    let mut block_indent: Option<usize> = None;
    for (i, line) in metadata.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        if let Some(open) = block_indent {
            if line.trim().is_empty() || indent > open {
                out.push_str(line);
                continue;
            }
            block_indent = None;
        }
        match split_value(line) {
            Some((head, label, value)) if needs_quotes(value) => {
                let text = bad_escape_content(value).unwrap_or_else(|| value.trim_end());
                out.push_str(head);
                out.push('\'');
                out.push_str(&text.replace('\'', "''"));
                out.push('\'');
                quoted.push(label.to_owned());
            }
            Some((_, _, value)) => {
                if value.starts_with(['|', '>']) {
                    block_indent = Some(indent);
                }
                out.push_str(line);
            }
            None => out.push_str(line),
        }
    }
    (!quoted.is_empty()).then_some((out, quoted))
}

/// Splits `  key: value` or `  - value` into (everything before the value, a label, value).
fn split_value(line: &str) -> Option<(&str, &str, &str)> {
    let trimmed = line.trim_start_matches([' ', '\t']);
    if trimmed.starts_with('#') {
        return None;
    }
    if let Some(item) = trimmed.strip_prefix("- ") {
        let value = item.trim_start();
        let head = &line[..line.len() - value.len()];
        // `- key: value` inside a list of maps: treat the key/value part.
        if let Some((key_head, key, v)) = split_key(value) {
            let head = &line[..head.len() + key_head.len()];
            return Some((head, key, v));
        }
        return Some((head, "-", value));
    }
    split_key(trimmed).map(|(key_head, key, value)| {
        let head = &line[..line.len() - trimmed.len() + key_head.len()];
        (head, key, value)
    })
}

/// Splits `key: value` at its first `: `; the key must be a plain key (not quoted, not a flow).
fn split_key(text: &str) -> Option<(&str, &str, &str)> {
    if text.starts_with(['"', '\'', '[', '{', '*', '&', '!', '|', '>']) {
        return None;
    }
    let colon = text.find(": ")?;
    let key = &text[..colon];
    if key.is_empty() || key.contains(" #") {
        return None;
    }
    let value = text[colon + 2..].trim_start();
    let head = &text[..text.len() - value.len()];
    Some((head, key, value))
}

/// A value that YAML refuses or reads as something else: an alias (`*`), a nested map
/// (`: `), a reserved indicator (`@`, `` ` ``), or a double-quoted string with an escape YAML
/// does not know (`"console\.log"`, meant as a regex).
fn needs_quotes(value: &str) -> bool {
    if value.is_empty() || value.starts_with('\'') {
        return false;
    }
    if value.starts_with('"') {
        return bad_escape_content(value).is_some();
    }
    value.starts_with(['*', '@', '`']) || value.contains(": ")
}

/// The text between the quotes of `"…"` when it holds an escape YAML does not know.
fn bad_escape_content(value: &str) -> Option<&str> {
    let inner = value.trim_end().strip_prefix('"')?.strip_suffix('"')?;
    let mut chars = inner.chars();
    let mut bad = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => return None,
            '\\' => match chars.next() {
                Some(
                    '0' | 'a' | 'b' | 't' | '\t' | 'n' | 'v' | 'f' | 'r' | 'e' | ' ' | '"' | '/'
                    | '\\' | 'N' | '_' | 'L' | 'P' | 'x' | 'u' | 'U',
                ) => {}
                _ => bad = true,
            },
            _ => {}
        }
    }
    bad.then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::quote_plain_values;

    #[test]
    fn quotes_only_offenders() {
        let (text, keys) =
            quote_plain_values("globs: *.ts,*.tsx\nalwaysApply: false\ndescription: Use: it's\n")
                .unwrap();
        assert_eq!(
            text,
            "globs: '*.ts,*.tsx'\nalwaysApply: false\ndescription: 'Use: it''s'\n"
        );
        assert_eq!(keys, ["globs", "description"]);
    }

    #[test]
    fn list_items_and_block_scalars() {
        let (text, keys) =
            quote_plain_values("globs:\n  - *.ts\nnote: |\n  a: b\n  *c\nx: *y").unwrap();
        assert_eq!(text, "globs:\n  - '*.ts'\nnote: |\n  a: b\n  *c\nx: '*y'");
        assert_eq!(keys, ["-", "x"]);
    }

    #[test]
    fn reserved_indicators_and_bad_escapes() {
        let (text, keys) =
            quote_plain_values("a: @x\nb: `y`\nc: \"console\\.log\"\nd: \"ok\\n\"").unwrap();
        assert_eq!(text, "a: '@x'\nb: '`y`'\nc: 'console\\.log'\nd: \"ok\\n\"");
        assert_eq!(keys, ["a", "b", "c"]);
    }

    #[test]
    fn nothing_to_do() {
        assert!(quote_plain_values("a: 1\nb: \"x: y\"").is_none());
    }
}
