//! The one `@path` tokenizer: where a text imports a file, as Claude Code or Gemini CLI
//! recognizes it. The union view's expansion ([`expand_imports`](super::expand_imports)) and
//! the tools' own views (`rulebook_provider_claude::host`, `rulebook_provider_gemini::host`)
//! read the same tokens.

use std::ops::Range;

/// How a tool recognizes an `@path` import.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// Claude Code (observed in the golden runs, `fixtures/hosts/claude-*`, and read in its
    /// 2.1.332 bundle: the pattern `(?:^|\s)@((?:[^\s\\]|\\ )+)` over the text of the
    /// Markdown, code skipped): line by line; a token starts at the beginning of a line,
    /// after white space or right after a code span, and runs to the next white space,
    /// backslash or code span; not inside a code span (a run of backticks closed by the same
    /// run on the line) or a fenced block (a line starting, after indent, with ```` ``` ````
    /// or `~~~`); a `#fragment` is dropped from the path. The path must look like one, as
    /// Claude's test says: `./…`, `~/…`, `/…` (not `/` alone), or a first character among
    /// ASCII letters, digits, `.`, `_` and `-` (so `@(x)`, `@@x`, `@#x`, `@*.md` are prose);
    /// and a file with an extension is imported only when the extension is one of Claude's
    /// text types (`.md`, `.txt`, `.json`, `.ts`, …; `@a.md,` is `.md,`, not imported).
    /// Claude's escaped space (`@my\ file.md`) is not read: the token ends at the backslash.
    #[default]
    Claude,
    /// Gemini CLI 0.61.0 (`findImports` and `findCodeRegions` of `memoryImportProcessor`):
    /// over the whole text; a token starts at the beginning or after a space, tab or line
    /// break, runs to the next one, and its path starts with `.`, `/` or an ASCII letter;
    /// not inside a code region (a match of ``/(`+)([\s\S]*?)\1/g``, which spans lines and
    /// covers fenced blocks).
    Gemini,
}

/// One import in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportToken<'a> {
    /// The bytes of the token as written, `@` included (`@docs/a.md#part`).
    pub range: Range<usize>,
    /// The path it names (`docs/a.md`).
    pub path: &'a str,
}

/// The imports of `text`, in order, as `dialect` recognizes them.
///
/// ```
/// use rulebook_kit::{Dialect, import_tokens};
///
/// let text = "See @a.md and `@b.md`, mail me@example.com, @c.md#part.\n";
/// let paths: Vec<&str> = import_tokens(text, Dialect::Claude).iter().map(|t| t.path).collect();
/// assert_eq!(paths, ["a.md", "c.md"]);
/// ```
pub fn import_tokens(text: &str, dialect: Dialect) -> Vec<ImportToken<'_>> {
    if !text.contains('@') {
        return Vec::new();
    }
    match dialect {
        Dialect::Claude => claude(text),
        Dialect::Gemini => gemini(text),
    }
}

fn claude(text: &str) -> Vec<ImportToken<'_>> {
    let mut out = Vec::new();
    let mut fenced = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.contains('@') {
            continue;
        }
        let spans = code_spans(line);
        let mut spans = spans.iter().peekable();
        // Whether the next character begins a token: at the start of the line, after white
        // space, after a code span (Claude reads the text around a span as text of its own).
        let mut at_start = true;
        let mut i = 0;
        while i < line.len() {
            if let Some(span) = spans.next_if(|s| s.start == i) {
                i = span.end;
                at_start = true;
                continue;
            }
            let c = line[i..].chars().next().unwrap_or(' ');
            if c == '@' && at_start {
                let end = spans.peek().map_or(line.len(), |s| s.start);
                let rest = &line[i + 1..end];
                let len = rest
                    .find(|c: char| c.is_whitespace() || c == '\\')
                    .unwrap_or(rest.len());
                let path = rest[..len].split('#').next().unwrap_or_default();
                if looks_like_a_path(path) && is_text_path(path) {
                    out.push(ImportToken {
                        range: start + i..start + i + 1 + len,
                        path,
                    });
                }
                i += 1 + len;
                at_start = false;
                continue;
            }
            at_start = c.is_whitespace();
            i += c.len_utf8();
        }
    }
    out
}

/// The code spans of one line: a run of backticks closed by the next occurrence of the same
/// run; a run that never closes is text.
fn code_spans(line: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = line[from..].find('`') {
        let start = from + found;
        let run = line[start..].bytes().take_while(|&b| b == b'`').count();
        let ticks = &line[start..start + run];
        let after = start + run;
        match line[after..].find(ticks) {
            Some(end) => {
                out.push(start..after + end + run);
                from = after + end + run;
            }
            None => from = after,
        }
    }
    out
}

/// Claude Code's test of an import's path: `./…`, `~/…`, `/…` but not `/` alone, or one
/// that does not start with `@` or a run of `#%^&*()`, and starts with an ASCII letter, a
/// digit, `.`, `_` or `-`.
fn looks_like_a_path(path: &str) -> bool {
    if path.starts_with("./") || path.starts_with("~/") || (path.starts_with('/') && path != "/") {
        return true;
    }
    path.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Claude Code imports a file with an extension only when the extension (in lower case) is
/// one of its text types (the list of its 2.1.332 bundle; `.R` is read as `.r`); a file
/// without one is imported.
fn is_text_path(token: &str) -> bool {
    const TEXT: [&str; 106] = [
        "md",
        "txt",
        "text",
        "json",
        "yaml",
        "yml",
        "toml",
        "xml",
        "csv",
        "html",
        "htm",
        "css",
        "scss",
        "sass",
        "less",
        "js",
        "ts",
        "tsx",
        "jsx",
        "mjs",
        "cjs",
        "mts",
        "cts",
        "py",
        "pyi",
        "pyw",
        "rb",
        "erb",
        "rake",
        "go",
        "rs",
        "java",
        "kt",
        "kts",
        "scala",
        "c",
        "cpp",
        "cc",
        "cxx",
        "h",
        "hpp",
        "hxx",
        "cs",
        "swift",
        "sh",
        "bash",
        "zsh",
        "fish",
        "ps1",
        "bat",
        "cmd",
        "env",
        "ini",
        "cfg",
        "conf",
        "config",
        "properties",
        "sql",
        "graphql",
        "gql",
        "proto",
        "vue",
        "svelte",
        "astro",
        "ejs",
        "hbs",
        "pug",
        "jade",
        "php",
        "pl",
        "pm",
        "lua",
        "r",
        "dart",
        "ex",
        "exs",
        "erl",
        "hrl",
        "clj",
        "cljs",
        "cljc",
        "edn",
        "hs",
        "lhs",
        "elm",
        "ml",
        "mli",
        "f",
        "f90",
        "f95",
        "for",
        "cmake",
        "make",
        "makefile",
        "gradle",
        "sbt",
        "rst",
        "adoc",
        "asciidoc",
        "org",
        "tex",
        "latex",
        "lock",
        "log",
        "diff",
        "patch",
    ];
    // Node's `extname`: from the last `.` of the last component, unless that component
    // starts with it (`.env` has none).
    let name = token.rsplit('/').next().unwrap_or(token);
    match name.rfind('.') {
        Some(0) | None => true,
        Some(dot) => TEXT.contains(&name[dot + 1..].to_ascii_lowercase().as_str()),
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn gemini(text: &str) -> Vec<ImportToken<'_>> {
    let s = text.as_bytes();
    let regions = code_regions(s);
    let mut regions = regions.iter().peekable();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let Some(at) = s[i..].iter().position(|&b| b == b'@').map(|p| p + i) else {
            break;
        };
        if at > 0 && !is_space(s[at - 1]) {
            i = at + 1;
            continue;
        }
        let mut j = at + 1;
        while j < s.len() && !is_space(s[j]) {
            j += 1;
        }
        if j > at + 1 {
            let first = s[at + 1];
            while regions.next_if(|r| r.end <= at).is_some() {}
            let in_code = regions.peek().is_some_and(|r| r.start <= at);
            if !in_code && (first == b'.' || first == b'/' || first.is_ascii_alphabetic()) {
                out.push(ImportToken {
                    range: at..j,
                    path: &text[at + 1..j],
                });
            }
        }
        i = j + 1;
    }
    out
}

/// `findCodeRegions`: the matches of ``/(`+)([\s\S]*?)\1/g``, as a backtracking regex finds
/// them, in time linear in the text (times a logarithm) where the regex's own search can be
/// quadratic. At a run of `r` backticks the regex tries every length `k` from `r` down and
/// takes the first later place holding `k` backticks: for `k > r/2` that is the first later
/// run at least `k` long; for `k <= r/2` the run's own second half.
pub(crate) fn code_regions(text: &[u8]) -> Vec<Range<usize>> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        if text[at] == b'`' {
            let start = at;
            while at < text.len() && text[at] == b'`' {
                at += 1;
            }
            runs.push((start, at - start));
        } else {
            at += 1;
        }
    }
    let lengths: Vec<usize> = runs.iter().map(|r| r.1).collect();
    let longest = Longest::new(&lengths);
    let mut out = Vec::new();
    // `pos`: where the regex stands; `run`: the index of the run at or after it.
    let (mut pos, mut run) = (0, 0);
    while run < runs.len() {
        let (start, len) = runs[run];
        pos = pos.max(start);
        if pos >= start + len {
            run += 1;
            continue;
        }
        let here = start + len - pos;
        let ticks = longest.max_from(run + 1).min(here);
        if ticks > here / 2 {
            if let Some(next) = longest.first_from(run + 1, ticks) {
                let end = runs[next].0 + ticks;
                out.push(pos..end);
                pos = end;
                run = next;
                continue;
            }
        }
        if here >= 2 {
            let half = here / 2;
            out.push(pos..pos + 2 * half);
            pos += 2 * half;
            continue;
        }
        pos += 1;
        run += 1;
    }
    out
}

/// A segment tree over the run lengths: the longest from an index on, and the first index
/// from one on whose run is at least so long.
struct Longest {
    size: usize,
    tree: Vec<usize>,
}

impl Longest {
    fn new(lengths: &[usize]) -> Self {
        let size = lengths.len().next_power_of_two();
        let mut tree = vec![0; 2 * size];
        tree[size..size + lengths.len()].copy_from_slice(lengths);
        for n in (1..size).rev() {
            tree[n] = tree[2 * n].max(tree[2 * n + 1]);
        }
        Longest { size, tree }
    }

    /// The longest run at index `from` or later (0 when there is none).
    fn max_from(&self, from: usize) -> usize {
        let (mut lo, mut hi) = (from + self.size, 2 * self.size);
        let mut best = 0;
        while lo < hi {
            if lo & 1 == 1 {
                best = best.max(self.tree[lo]);
                lo += 1;
            }
            if hi & 1 == 1 {
                hi -= 1;
                best = best.max(self.tree[hi]);
            }
            lo /= 2;
            hi /= 2;
        }
        best
    }

    /// The first index `from` or later whose run is at least `k` long.
    fn first_from(&self, from: usize, k: usize) -> Option<usize> {
        self.descend(1, 0, self.size, from, k)
    }

    fn descend(&self, node: usize, lo: usize, hi: usize, from: usize, k: usize) -> Option<usize> {
        if hi <= from || self.tree[node] < k {
            return None;
        }
        if hi - lo == 1 {
            return Some(lo);
        }
        let mid = usize::midpoint(lo, hi);
        self.descend(2 * node, lo, mid, from, k)
            .or_else(|| self.descend(2 * node + 1, mid, hi, from, k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str, dialect: Dialect) -> Vec<&str> {
        import_tokens(text, dialect)
            .iter()
            .map(|t| t.path)
            .collect()
    }

    /// A code span hides the `@` inside it wherever it stands in the span; text between two
    /// spans is not code; a backtick that never closes is a literal character, and an `@`
    /// right after it follows no white space, so it is no import.
    /// Claude Code 2.1.332's own extractor, run on these lines (the including file in the
    /// project root): what it tries to import, and what it takes for prose.
    #[test]
    fn claude_takes_what_looks_like_a_path() {
        let cases: [(&str, &[&str]); 16] = [
            ("(via @-mentions)", &["-mentions)"]),
            ("with @-links to", &["-links"]),
            ("`@bodhiapp/app-bindings`", &[]),
            (
                "use @bodhiapp/app-bindings here",
                &["bodhiapp/app-bindings"],
            ),
            ("see @hey-api/openapi-ts).", &[]),
            ("mail me@example.com", &[]),
            ("@./docs/a.md", &["./docs/a.md"]),
            ("@~/x.md", &["~/x.md"]),
            ("@/", &[]),
            ("@#foo", &[]),
            ("@(x)", &[]),
            ("@docs/a.md#part", &["docs/a.md"]),
            ("@@x @*.md", &[]),
            (
                "@.hidden @_x.md @../up.md",
                &[".hidden", "_x.md", "../up.md"],
            ),
            ("@a.md, and @b.png", &[]),
            ("@notes.PY @Makefile", &["notes.PY", "Makefile"]),
        ];
        for (text, want) in cases {
            assert_eq!(paths(text, Dialect::Claude), want, "{text}");
        }
    }

    #[test]
    fn claude_code_spans_hide_imports_only_between_their_ticks() {
        assert!(paths("Run `cd @b.md` first\n", Dialect::Claude).is_empty());
        assert_eq!(paths("`a` @b.md `c`\n", Dialect::Claude), ["b.md"]);
        assert_eq!(paths("``x ` @y`` @b.md\n", Dialect::Claude), ["b.md"]);
        assert!(paths("`@x.md is not closed\n", Dialect::Claude).is_empty());
        // Right after a span a token may start, and a span ends one.
        assert_eq!(
            paths("`a`@b.md\n@c.md`d`\n", Dialect::Claude),
            ["b.md", "c.md"]
        );
    }

    #[test]
    fn claude_skips_code_words_and_binaries_and_drops_fragments() {
        let text = "See @docs/a.md and `@docs/b.md`.\n```\n@c.md\n```\nmail me@example.com @x.png @y.md#part\n";
        assert_eq!(paths(text, Dialect::Claude), ["docs/a.md", "y.md"]);
        let tokens = import_tokens(text, Dialect::Claude);
        assert_eq!(&text[tokens[1].range.clone()], "@y.md#part");
    }

    #[test]
    fn gemini_needs_a_space_before_and_a_path_start() {
        assert_eq!(
            paths("@./a.md x@b.md @-no @Upper.md\n@/abs", Dialect::Gemini),
            ["./a.md", "Upper.md", "/abs"]
        );
        // An `@` with nothing after it is text.
        assert!(paths("mail @", Dialect::Gemini).is_empty());
        assert!(paths("@ @\n", Dialect::Gemini).is_empty());
        assert_eq!(import_tokens("@ @x", Dialect::Gemini)[0].range, 2..4);
        // Code regions span lines and cover fences.
        assert_eq!(
            paths("`a\n@b.md` @c.md\n```\n@d.md\n```\n", Dialect::Gemini),
            ["c.md"]
        );
    }

    #[test]
    fn code_regions_follow_the_regex() {
        assert_eq!(code_regions(b"a `b` c"), vec![Range { start: 2, end: 5 }]);
        assert_eq!(
            code_regions(b"```\n@x\n```"),
            vec![Range { start: 0, end: 10 }]
        );
        // `` then a single ` : the two-tick run finds no partner, one tick does.
        assert_eq!(code_regions(b"``a`"), vec![Range { start: 0, end: 2 }]);
    }

    /// The regex as a backtracking engine runs it (the emulation's code before it was made
    /// linear): the oracle for the fast version.
    fn code_regions_by_backtracking(s: &[u8]) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut p = 0;
        'outer: while p < s.len() {
            if s[p] != b'`' {
                p += 1;
                continue;
            }
            let run = s[p..].iter().take_while(|&&b| b == b'`').count();
            for k in (1..=run).rev() {
                let mut q = p + k;
                while q + k <= s.len() {
                    if s[q..q + k].iter().all(|&b| b == b'`') {
                        out.push(p..q + k);
                        p = q + k;
                        continue 'outer;
                    }
                    q += 1;
                }
            }
            p += 1;
        }
        out
    }

    /// 200,000 texts of up to 24 bytes of backticks, letters and white space: the fast code
    /// regions are the backtracking regex's.
    #[test]
    fn code_regions_agree_with_the_backtracking_regex() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 25) as usize;
            let text: Vec<u8> = (0..len)
                .map(|i| match (seed >> (2 * (i % 30))) & 3 {
                    0 | 1 => b'`',
                    2 => b'a',
                    _ => b' ',
                })
                .collect();
            assert_eq!(
                code_regions(&text),
                code_regions_by_backtracking(&text),
                "{:?}",
                String::from_utf8_lossy(&text)
            );
        }
    }

    /// A long run of backticks before a long text with none costs the regex a scan of the
    /// text per length it tries; the fast version one pass (this would take minutes).
    #[test]
    fn a_long_unmatched_run_is_one_pass() {
        let mut text = vec![b'`'; 200_000];
        text.extend(std::iter::repeat_n(b'a', 600_000));
        assert_eq!(
            code_regions(&text),
            vec![Range {
                start: 0,
                end: 200_000
            }]
        );
    }
}
