//! The output being built: colour, paths as a person reads them, escaping, warnings.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt::Write;
use std::path::Path;

use rulebook::{Diagnostic, Rulebook, Severity};
use serde::Serialize;

const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

/// The output of one command, and what it needs to know to write it.
pub(crate) struct Printer<'a> {
    pub(crate) book: &'a Rulebook,
    color: bool,
    /// `--json` was given.
    pub(crate) json: bool,
    pub(crate) text: String,
    /// Bytes written as they are (a prompt, a rule's content), after `text`.
    raw: Vec<u8>,
    /// The error of a JSON document streamed to standard output, if writing it failed.
    streamed: Option<std::io::Error>,
}

impl<'a> Printer<'a> {
    pub(crate) fn new(book: &'a Rulebook, color: bool, json: bool) -> Self {
        Self {
            book,
            color,
            json,
            text: String::new(),
            raw: Vec::new(),
            streamed: None,
        }
    }

    /// Everything left to write, in order, and the error of what was already streamed.
    pub(crate) fn finish(self) -> (Vec<u8>, Option<std::io::Error>) {
        let mut bytes = self.text.into_bytes();
        if bytes.is_empty() {
            return (self.raw, self.streamed);
        }
        bytes.extend_from_slice(&self.raw);
        (bytes, self.streamed)
    }

    /// Content printed exactly (a rule body, the prompt): no escaping, no copy.
    pub(crate) fn raw(&mut self, content: String) {
        if self.raw.is_empty() {
            self.raw = content.into_bytes();
        } else {
            self.raw.extend_from_slice(content.as_bytes());
        }
    }

    /// One JSON document, pretty-printed, then a newline: streamed to standard output when
    /// it is the first output, else written straight into the output bytes (a prompt of
    /// hundreds of megabytes is not copied again). Serialization cannot
    /// fail on our types (paths are written lossily by [`crate::json::path`]); if it did,
    /// the error is the output, never a panic.
    pub(crate) fn json<T: Serialize>(&mut self, value: &T) {
        self.json_by(|out| serde_json::to_writer_pretty(out, value).map_err(std::io::Error::from));
    }

    /// [`Printer::json`] with the document written by `write` (which writes what
    /// `serde_json::to_writer_pretty` would, without the final newline).
    pub(crate) fn json_by(
        &mut self,
        write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) {
        use std::io::Write as _;
        if self.text.is_empty() && self.raw.is_empty() && self.streamed.is_none() {
            // The first output: streamed to standard output through a buffer, never built
            // whole in memory (the list of 10,000 rules is megabytes).
            let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            let written = write(&mut out)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
            self.streamed = written.err();
            return;
        }
        let start = self.raw.len();
        match write(&mut self.raw) {
            Ok(()) => self.raw.push(b'\n'),
            Err(err) => {
                self.raw.truncate(start);
                let error = serde_json::Value::String(format!("cannot write JSON: {err}"));
                self.raw
                    .extend_from_slice(format!("{{\"error\": {error}}}\n").as_bytes());
            }
        }
    }

    fn paint(&self, style: &str, text: &str) -> String {
        if self.color {
            format!("{style}{text}{RESET}")
        } else {
            text.to_owned()
        }
    }

    pub(crate) fn bold(&self, text: &str) -> String {
        self.paint(BOLD, text)
    }

    pub(crate) fn dim(&self, text: &str) -> String {
        self.paint(DIM, text)
    }

    pub(crate) fn red(&self, text: &str) -> String {
        self.paint(RED, text)
    }

    pub(crate) fn yellow(&self, text: &str) -> String {
        self.paint(YELLOW, text)
    }

    pub(crate) fn green(&self, text: &str) -> String {
        self.paint(GREEN, text)
    }

    pub(crate) fn cyan(&self, text: &str) -> String {
        self.paint(CYAN, text)
    }

    /// A path relative to the project (`.cursor/rules/x.mdc`) or the home (`~/…`) when under
    /// one of them, else absolute; escaped.
    pub(crate) fn show(&self, path: &Path) -> String {
        escape(&self.book.display_path(path)).into_owned()
    }

    /// Messages name files by absolute path; in text output show them as `show` does.
    /// Escaped, and long values cut.
    pub(crate) fn message(&self, message: &str) -> String {
        escape(&cut_long(&self.book.display_message(message))).into_owned()
    }

    /// The label of a severity: `error`, `warning`, `info`, coloured.
    pub(crate) fn severity(&self, severity: Severity) -> String {
        match severity {
            Severity::Error => self.red("error"),
            Severity::Warning => self.yellow("warning"),
            Severity::Info => self.cyan("info"),
        }
    }

    /// Warnings grouped by file: the path once, then one line per warning (`line:col` first
    /// where known); warnings about no file last. Information (a form the tool reads as
    /// written, one file reached twice) follows as notes, not counted as warnings, so the
    /// count is `check`'s.
    pub(crate) fn warnings(&mut self, diagnostics: &[&Diagnostic]) {
        let (notes, warnings): (Vec<&Diagnostic>, Vec<&Diagnostic>) = diagnostics
            .iter()
            .copied()
            .partition(|d| d.severity == Severity::Info);
        if warnings.is_empty() {
            let _ = writeln!(self.text, "\nNo warnings.");
        } else {
            self.grouped("Warnings", &warnings);
        }
        if !notes.is_empty() {
            self.grouped("Notes", &notes);
        }
    }

    /// `title (N):`, then `diagnostics` grouped by file.
    fn grouped(&mut self, title: &str, diagnostics: &[&Diagnostic]) {
        let _ = writeln!(self.text, "\n{} ({}):", self.bold(title), diagnostics.len());
        let mut groups: Vec<(Option<&Path>, Vec<&Diagnostic>)> = Vec::new();
        // Each file's group by a hash, in the order the files first come: a search of the
        // groups for each diagnostic would make a book of many files quadratic.
        let mut group_of: HashMap<Option<&Path>, usize> = HashMap::new();
        for d in diagnostics {
            let path = d.path.as_deref();
            match group_of.entry(path) {
                Entry::Occupied(group) => groups[*group.get()].1.push(d),
                Entry::Vacant(slot) => {
                    slot.insert(groups.len());
                    groups.push((path, vec![d]));
                }
            }
        }
        groups.sort_by_key(|(p, _)| p.is_none());
        for (path, list) in groups {
            let indent = match path {
                Some(path) => {
                    let _ = writeln!(self.text, "  {}", self.bold(&self.show(path)));
                    "    "
                }
                None => "  ",
            };
            for d in list {
                let line = self.diagnostic_line(d, path.is_some());
                let _ = writeln!(self.text, "{indent}{line}");
            }
        }
    }

    /// One diagnostic on one line; without its path when `grouped` (the group names it).
    pub(crate) fn diagnostic_line(&self, d: &Diagnostic, grouped: bool) -> String {
        let mut at = String::new();
        if !grouped {
            if let Some(path) = d.path.as_deref() {
                at = self.show(path);
            }
        }
        if let Some(line) = d.line {
            if !at.is_empty() {
                at.push(':');
            }
            let _ = write!(at, "{line}");
            if let Some(column) = d.column {
                let _ = write!(at, ":{column}");
            }
        }
        let provider = d
            .provider
            .as_deref()
            .map(|p| format!("[{}] ", escape(p)))
            .unwrap_or_default();
        let mut message = self.message(&d.message);
        if grouped {
            // The group's header names the file; do not repeat it in the message.
            if let Some(path) = d.path.as_deref() {
                let shown = self.show(path);
                message = message.replace(&format!(" ({shown})"), "");
            }
        }
        if at.is_empty() {
            format!("{provider}{message}")
        } else {
            format!("{}: {provider}{message}", self.dim(&at))
        }
    }
}

/// `text` with every control character, and every Unicode bidirectional override, written
/// as a visible escape (`\x1b`, `\r`, `\u{202e}`), as ripgrep and git do with names they
/// print: a rule file cannot clear the screen, set the terminal title or the clipboard,
/// or hide text behind a carriage return.
pub(crate) fn escape(text: &str) -> Cow<'_, str> {
    let dangerous =
        |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !text.chars().any(dangerous) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x100 && dangerous(c) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if dangerous(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// As [`escape`], keeping line breaks: for multi-line messages (`Unknown rule: x` and
/// `Available: …` on the next line).
pub(crate) fn escape_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| escape(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The longest a quoted value may run in a message before it is cut (a 100 KB trigger is
/// not echoed whole).
const MAX_VALUE: usize = 200;

/// Cuts every run longer than [`MAX_VALUE`] characters between quotes or backticks.
pub(crate) fn cut_long(text: &str) -> Cow<'_, str> {
    if text.len() <= MAX_VALUE * 2 {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(MAX_VALUE * 4);
    let mut run = 0usize;
    let mut skipped = 0usize;
    for c in text.chars() {
        if matches!(c, '"' | '`' | ' ') {
            if skipped > 0 {
                let _ = write!(out, "… ({skipped} more characters)");
                skipped = 0;
            }
            run = 0;
            out.push(c);
            continue;
        }
        run += 1;
        if run > MAX_VALUE {
            skipped += 1;
        } else {
            out.push(c);
        }
    }
    if skipped > 0 {
        let _ = write!(out, "… ({skipped} more characters)");
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_visible() {
        assert_eq!(escape("plain"), "plain");
        assert_eq!(escape("a\x1b]0;title\x07b"), "a\\x1b]0;title\\x07b");
        assert_eq!(escape("x\ry\n"), "x\\ry\\n");
        assert_eq!(escape("\u{9b}2J"), "\\x9b2J");
        assert_eq!(escape("abc\u{202e}txt"), "abc\\u{202e}txt");
    }

    #[test]
    fn long_values_are_cut() {
        let long = format!("condition \"{}\" is bad", "a".repeat(10_000));
        let cut = cut_long(&long);
        assert!(cut.len() < 300, "{cut}");
        assert!(cut.contains("(9800 more characters)"), "{cut}");
        assert_eq!(cut_long("short"), "short");
    }
}
