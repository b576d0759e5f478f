//! A name as the host of a URI (`rule://`, `skill://`).

use std::fmt::Write;

/// A rule's or skill's name as the host of a valid RFC 3986 URI (`rule://<encoded>`): every UTF-8 byte
/// but the unreserved ones (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `.`, `_`, `~`) is written `%XX`
/// (upper-case hex). Simple names stay as they are (`style`, `CLAUDE.local`); a nested
/// rule's `src:routes:CLAUDE` becomes `src%3Aroutes%3ACLAUDE`, which URL parsers read as
/// one opaque host, not as host `src` and port `routes:CLAUDE` (the MCP Python SDK 1.x and
/// Node's `new URL()` reject that). `rulebook_protocol::RuleUrl::parse` decodes it.
pub fn percent_encode(name: &str) -> String {
    percent_encode_bytes(name.as_bytes(), b"")
}

/// `bytes` with every byte but the unreserved ones and those of `keep` written `%XX`
/// (upper-case hex): [`percent_encode`] keeps none, a URI's path keeps `/`. Bytes that are
/// not UTF-8 (a file name's own) are encoded as they are.
///
/// ```
/// assert_eq!(rulebook_rule::percent_encode_bytes(b"a b/c#\xe9", b"/"), "a%20b/c%23%E9");
/// ```
pub fn percent_encode_bytes(bytes: &[u8], keep: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') || keep.contains(&b)
        {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::percent_encode;

    #[test]
    fn names_a_url_parser_would_misread_are_encoded() {
        assert_eq!(percent_encode("style"), "style");
        assert_eq!(percent_encode("c#"), "c%23");
        assert_eq!(percent_encode("API Style"), "API%20Style");
        assert_eq!(percent_encode("~:CLAUDE"), "~%3ACLAUDE");
        assert_eq!(percent_encode("über"), "%C3%BCber");
    }
}
