//! Positions in a buffer as the protocol counts them (lines, and columns in UTF-16 code
//! units, the encoding every client supports) and as Rust does (byte offsets).

use lsp_types::{Position, Range};

/// A buffer's lines: where each starts, to turn byte offsets into positions and back.
#[derive(Debug, Clone)]
pub(crate) struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(line_ends(text).map(|i| i + 1));
        Self { text, starts }
    }

    /// The text of 0-based line `line`, without its line break (`""` past the end).
    pub(crate) fn line(&self, line: usize) -> &'a str {
        let Some(&start) = self.starts.get(line) else {
            return "";
        };
        let end = self.starts.get(line + 1).map_or(self.text.len(), |&e| e);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// The byte offset where 0-based line `line` starts (the text's end past the last).
    pub(crate) fn start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.text.len())
    }

    /// How many lines the text has (a final line break opens an empty last line).
    pub(crate) fn count(&self) -> usize {
        self.starts.len()
    }

    /// The position of byte `offset` (clamped to the text, and back to a character
    /// boundary).
    pub(crate) fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(as_u32(line), as_u32(column))
    }

    /// The byte offset of `position` (a column past the line's end is its end).
    pub(crate) fn offset(&self, position: Position) -> usize {
        let line = position.line as usize;
        if line >= self.starts.len() {
            return self.text.len();
        }
        let text = self.line(line);
        let mut units = 0usize;
        for (i, c) in text.char_indices() {
            if units >= position.character as usize {
                return self.starts[line] + i;
            }
            units += c.len_utf16();
        }
        self.starts[line] + text.len()
    }

    /// The range of bytes `start..end`.
    pub(crate) fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The range of 0-based line `line` from its first non-blank character to its end
    /// (the whole line when it is blank).
    pub(crate) fn line_range(&self, line: usize) -> Range {
        let text = self.line(line);
        let start = self.start(line);
        let lead = text.len() - text.trim_start().len();
        let trimmed = text.trim_end().len().max(lead);
        if trimmed == lead {
            return self.range(start, start + text.len());
        }
        self.range(start + lead, start + trimmed)
    }
}

/// Where each line break ends: `\n`, `\r\n`, or a `\r` alone (the protocol counts all
/// three).
fn line_ends(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().filter_map(move |(i, &b)| match b {
        b'\n' => Some(i),
        b'\r' if bytes.get(i + 1) != Some(&b'\n') => Some(i),
        _ => None,
    })
}

/// A count as the protocol's `u32` (a buffer of more than 4 G lines is clamped).
fn as_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The frontmatter of `text`: the 0-based lines strictly between an opening `---` on the
/// first line and the closing `---`, or `None` when the text has none (an unclosed block
/// runs to the end, as a reader that recovers it sees it).
pub(crate) fn frontmatter_lines(lines: &Lines<'_>) -> Option<std::ops::Range<usize>> {
    let first = lines.line(0).trim_start_matches('\u{feff}');
    if first.trim_end() != "---" {
        return None;
    }
    let end = (1..lines.count())
        .find(|&i| lines.line(i).trim_end() == "---")
        .unwrap_or(lines.count());
    Some(1..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_round_trip() {
        let text = "---\nname: é𝄞x\n---\nbody";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        // `é` is one unit, `𝄞` two: x stands at column 6 + 3 = 9.
        assert_eq!(lines.position(x), Position::new(1, 9));
        assert_eq!(lines.offset(Position::new(1, 9)), x);
        assert_eq!(lines.offset(Position::new(9, 0)), text.len());
        assert_eq!(
            lines.offset(Position::new(1, 99)),
            text.find("\n---").unwrap()
        );
        // Inside a character: back to its start.
        assert_eq!(lines.position(x - 1), Position::new(1, 7));
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line_as_the_protocol_says() {
        let lines = Lines::new("a\rb\r\nc\nd");
        assert_eq!(lines.count(), 4);
        assert_eq!(
            [lines.line(0), lines.line(1), lines.line(2), lines.line(3)],
            ["a", "b", "c", "d"]
        );
        assert_eq!(lines.position(5), Position::new(2, 0));
    }

    #[test]
    fn frontmatter_is_found_closed_or_not() {
        assert_eq!(
            frontmatter_lines(&Lines::new("---\na: 1\n---\nx")),
            Some(1..2)
        );
        assert_eq!(frontmatter_lines(&Lines::new("---\na: 1\n")), Some(1..3));
        assert_eq!(frontmatter_lines(&Lines::new("# x\n---\n")), None);
    }

    #[test]
    fn a_line_range_skips_indent_and_trailing_blanks() {
        let lines = Lines::new("a\n  - b  \n\n");
        assert_eq!(
            lines.line_range(1),
            Range::new(Position::new(1, 2), Position::new(1, 5))
        );
        assert_eq!(
            lines.line_range(2),
            Range::new(Position::new(2, 0), Position::new(2, 0))
        );
    }
}
