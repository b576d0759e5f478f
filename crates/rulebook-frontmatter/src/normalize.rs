//! Step 1 of the parse: line endings and HTML comments, with a map back to file lines.

use std::borrow::Cow;

/// Where a removed HTML comment took line breaks out of the text.
#[derive(Debug, Clone, Copy)]
struct Removal {
    /// Byte offset in the normalized text where the comment stood.
    at: usize,
    /// How many line breaks the comment held.
    newlines: usize,
}

/// The normalized text (the input itself when nothing changes, as for nearly every file)
/// and enough bookkeeping to report positions in the original file.
#[derive(Debug, Clone)]
pub(crate) struct Normalized<'a> {
    pub(crate) text: Cow<'a, str>,
    removals: Vec<Removal>,
}

impl Normalized<'_> {
    /// The 1-based line of the original file for a byte offset of the normalized text.
    pub(crate) fn original_line(&self, offset: usize) -> usize {
        let before = &self.text.as_bytes()[..offset.min(self.text.len())];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let removed: usize = self
            .removals
            .iter()
            .take_while(|r| r.at <= offset)
            .map(|r| r.newlines)
            .sum();
        line + removed
    }
}

/// `\r\n` → `\n`, lone `\r` → `\n`, then every closed `<!-- … -->` removed (non-greedy,
/// across lines, body included). An unclosed `<!--` stays.
pub(crate) fn normalize(input: &str) -> Normalized<'_> {
    static COMMENT: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("<!--"));
    // Most files hold neither: one vectorized scan over every byte says so (it stops at
    // each `<`, a few in a typical rule, to look for `!--` after it).
    if !needs_normalizing(input.as_bytes()) {
        return Normalized {
            text: Cow::Borrowed(input),
            removals: Vec::new(),
        };
    }
    let unified: Cow<'_, str> = if memchr::memchr(b'\r', input.as_bytes()).is_some() {
        Cow::Owned(input.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(input)
    };
    if COMMENT.find(unified.as_bytes()).is_none() {
        return Normalized {
            text: unified,
            removals: Vec::new(),
        };
    }
    let mut text = String::with_capacity(unified.len());
    let mut removals = Vec::new();
    let mut rest: &str = &unified;
    while let Some(open) = COMMENT.find(rest.as_bytes()) {
        let Some(close) = rest[open + 4..].find("-->") else {
            break;
        };
        let end = open + 4 + close + 3;
        text.push_str(&rest[..open]);
        let newlines = rest[open..end].bytes().filter(|&b| b == b'\n').count();
        if newlines > 0 {
            removals.push(Removal {
                at: text.len(),
                newlines,
            });
        }
        rest = &rest[end..];
    }
    text.push_str(rest);
    Normalized {
        text: Cow::Owned(text),
        removals,
    }
}

/// Whether `bytes` hold a `\r` or a `<!--`.
fn needs_normalizing(bytes: &[u8]) -> bool {
    memchr::memchr2_iter(b'\r', b'<', bytes)
        .any(|at| bytes[at] == b'\r' || bytes[at + 1..].starts_with(b"!--"))
}

#[cfg(test)]
mod tests {
    use super::{needs_normalizing, normalize};

    #[test]
    fn the_scan_finds_a_carriage_return_or_an_opening_comment() {
        let fragments = [
            "",
            "a",
            "<",
            "<!",
            "<!-",
            "<!--",
            "<!-- x -->",
            "\r",
            "\r\n",
            "<<!--",
            "<a>",
        ];
        for a in fragments {
            for b in fragments {
                for c in fragments {
                    let text = format!("{a}{b}{c}");
                    let expected = text.contains('\r') || text.contains("<!--");
                    assert_eq!(needs_normalizing(text.as_bytes()), expected, "{text:?}");
                    if !expected {
                        assert!(matches!(
                            normalize(&text).text,
                            std::borrow::Cow::Borrowed(_)
                        ));
                    }
                }
            }
        }
    }

    #[test]
    fn line_endings_and_comments() {
        let n = normalize("a\r\nb\rc<!-- x\ny -->d<!-- open");
        assert_eq!(n.text, "a\nb\ncd<!-- open");
        // `d` sits on normalized line 3, but on line 4 of the file.
        let d = n.text.find('d').unwrap();
        assert_eq!(n.original_line(d), 4);
        assert_eq!(n.original_line(0), 1);
    }

    #[test]
    fn comment_close_is_non_greedy() {
        assert_eq!(normalize("<!--a-->b<!--c-->").text, "b");
        assert_eq!(normalize("<!---->x").text, "x");
        assert_eq!(normalize("<!-->x").text, "<!-->x");
    }
}
