//! Cline CLI 3.0.65 (`@cline/core` 0.0.86, observed offline with a loopback model):
//! - the workspace is `cwd`: no upward search, no git root;
//! - sources, scanned in this order: `AGENTS.md` (titled `Workspace AGENTS.md`),
//!   `.clinerules` (a file titled `.clinerules`, or a directory's top-level files),
//!   `.cline/rules/`, `~/.agents/AGENTS.md` (`Global AGENTS.md`), `~/.cline/rules/`,
//!   `~/Cline/Rules/`, `~/Documents/Cline/Rules/`, then `.cline/<dir>/rules.md` where
//!   `<dir>` holds `managed.json`;
//! - in a directory: regular files (a linked file is skipped) named `*.md`, `*.markdown` or
//!   `*.txt` (any case), in the order the file system lists them;
//! - frontmatter (`^---\r?\n…\r?\n---`) read as YAML: `disabled: true`, or `enabled: false`
//!   without `disabled`, drops the rule, as do a YAML error, a `disabled` that is not a
//!   boolean and a `name` that is not a string; `name:` is the title, else the file name
//!   without its last extension; `paths:` is ignored;
//! - the body: BOM removed, trimmed (CRLF kept); an empty one is dropped;
//! - one rule per title (without case, trimmed): the **last** scanned wins, so global rules
//!   override the workspace's;
//! - sorted by title as `String.prototype.localeCompare` sorts (ICU's root collation:
//!   white space, punctuation and symbols before digits before letters; case and accents
//!   break ties only);
//! - `# Rules\n` + `## <title>\n<body>` joined by blank lines.

use std::path::{Path, PathBuf};

use rulebook_kit::frontmatter::Value;

use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

struct Entry {
    title: String,
    path: PathBuf,
    scope: Scope,
    body: String,
}

/// What Cline CLI loads when started in `options.cwd()` (see the module docs).
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = HostView::new(crate::TOOL);
    let cwd = options.cwd();
    let home = options.home();
    // The entries read so far, by title without case: a title read again replaces the
    // earlier entry (one lookup a file, so a folder of n rules costs n lookups).
    let mut entries: Vec<Option<Entry>> = Vec::new();
    let mut by_title: std::collections::HashMap<String, usize> = std::collections::HashMap::new();

    let mut sources: Vec<(PathBuf, Scope, Option<&str>)> = vec![
        (
            cwd.join("AGENTS.md"),
            Scope::Project,
            Some("Workspace AGENTS.md"),
        ),
        (cwd.join(".clinerules"), Scope::Project, None),
        (cwd.join(".cline/rules"), Scope::Project, None),
        (
            home.join(".agents/AGENTS.md"),
            Scope::User,
            Some("Global AGENTS.md"),
        ),
        (home.join(".cline/rules"), Scope::User, None),
        (home.join("Cline/Rules"), Scope::User, None),
        (home.join("Documents/Cline/Rules"), Scope::User, None),
    ];
    for dir in util::entries(&cwd.join(".cline")) {
        if util::is_file(&dir.join("managed.json")) {
            sources.push((dir.join("rules.md"), Scope::Project, None));
        }
    }
    for (source, scope, fixed_title) in sources {
        let files = if util::is_dir(&source) {
            directory_files(&mut view, &source, scope)
        } else if util::is_file(&source) {
            vec![source.clone()]
        } else {
            continue;
        };
        for path in files {
            let Some(raw) = util::read_text(&path) else {
                continue;
            };
            let rule = match read(&raw) {
                Ok(rule) => rule,
                Err(why) => {
                    view.push(path, scope, Status::NotRead, why);
                    continue;
                }
            };
            let title = match (fixed_title, rule.name) {
                (Some(t), _) => t.to_string(),
                (None, Some(name)) => name,
                (None, None) => stem(&path),
            };
            let key = title.trim().to_lowercase();
            if let Some(old) = by_title.get(&key).and_then(|&i| entries[i].take()) {
                let why = format!(
                    "the title `{}` is taken by {}, read after it (the last one read wins)",
                    title,
                    path.display()
                );
                view.push(old.path, old.scope, Status::NotRead, why);
            }
            by_title.insert(key, entries.len());
            entries.push(Some(Entry {
                title,
                path,
                scope,
                body: rule.body,
            }));
        }
    }
    let mut entries: Vec<Entry> = entries.into_iter().flatten().collect();
    entries.sort_by_cached_key(|e| collation_key(&e.title));
    let mut sections = Vec::new();
    for e in entries {
        view.push(
            e.path.clone(),
            e.scope,
            Status::Loaded,
            "a Cline rule (the CLI ignores `paths:`)",
        );
        sections.push(format!("## {}\n{}", e.title, e.body));
    }
    if !sections.is_empty() {
        view.prompt = format!("# Rules\n{}", sections.join("\n\n"));
    }
    view
}

/// The rule files of a rules directory, in the order the file system lists them.
fn directory_files(view: &mut HostView, dir: &Path, scope: Scope) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in read.filter_map(Result::ok) {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            view.push(
                path,
                scope,
                Status::NotRead,
                "Cline reads the top level of a rules directory only",
            );
            continue;
        }
        let name = util::name(&path).to_ascii_lowercase();
        let wanted = [".md", ".markdown", ".txt"]
            .iter()
            .any(|e| name.ends_with(e));
        if !wanted {
            view.push(
                path,
                scope,
                Status::NotRead,
                "Cline reads .md, .markdown and .txt files only",
            );
        } else if kind.is_symlink() {
            view.push(
                path,
                scope,
                Status::NotRead,
                "a linked file inside a rules directory is skipped",
            );
        } else if kind.is_file() {
            out.push(path);
        }
    }
    out
}

struct Read {
    name: Option<String>,
    body: String,
}

/// A rule file as Cline reads it, or why it is dropped.
fn read(raw: &str) -> Result<Read, &'static str> {
    let text = raw.strip_prefix('\u{feff}').unwrap_or(raw);
    let (meta, body) = match split(text) {
        Some((meta, body)) => (Some(meta), body),
        None => (None, text),
    };
    let mut name = None;
    if let Some(meta) = meta {
        let wrapped = format!("---\n{meta}\n---\n");
        let parsed = rulebook_kit::frontmatter::parse_frontmatter(
            &wrapped,
            &rulebook_kit::frontmatter::ParseOptions::new(),
        );
        if !parsed.warnings.is_empty() {
            return Err("its frontmatter does not parse: Cline drops the rule");
        }
        let fm = parsed.frontmatter;
        match fm.get("disabled") {
            None | Some(Value::Null) => {
                if fm.get("enabled") == Some(&Value::Bool(false)) {
                    return Err("enabled: false");
                }
            }
            Some(Value::Bool(true)) => return Err("disabled: true"),
            Some(Value::Bool(false)) => {}
            Some(_) => return Err("`disabled` is not a boolean: Cline drops the rule"),
        }
        match fm.get("name") {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) => name = Some(s.trim().to_string()).filter(|s| !s.is_empty()),
            Some(_) => return Err("`name` is not a string: Cline drops the rule"),
        }
    }
    let body = js_trim(body);
    if body.is_empty() {
        return Err("empty");
    }
    Ok(Read {
        name,
        body: body.to_string(),
    })
}

/// `^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$`: the metadata and the rest.
fn split(text: &str) -> Option<(&str, &str)> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let i = rest.find("\n---")?;
    let meta_end = if i > 0 && rest.as_bytes()[i - 1] == b'\r' {
        i - 1
    } else {
        i
    };
    let after = &rest[i + 4..];
    let body = after
        .strip_prefix("\r\n")
        .or_else(|| after.strip_prefix('\n'))
        .unwrap_or(after);
    Some((&rest[..meta_end], body))
}

/// JavaScript's `String.prototype.trim`.
fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

/// The file name without its last extension (`.hidden.md` → `.hidden`, `.clinerules` as it is).
fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Cline CLI as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Cline;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "cline",
    "Cline CLI",
    "cline",
    "goldens recorded from Cline CLI 3.0.65 run offline with a loopback model (`cargo xtask oracle`)",
)
.verified("3.0.65");

impl Tool for Cline {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}

/// Two titles in the order of [`collation_key`].
#[cfg(test)]
fn collate(a: &str, b: &str) -> std::cmp::Ordering {
    collation_key(a).cmp(&collation_key(b))
}

/// ICU's root collation for the titles people write (ASCII and Latin-1 letters):
/// primary = white space < punctuation and symbols (in CLDR's order) < digits < letters
/// (without case or accent) < other characters; then accents, then lower case first.
/// Control characters other than white space weigh nothing.
///
/// The key compares the primary weights, then the secondary, then the tertiary, then the
/// text itself. It is built once a title, so a sort of n titles builds n keys.
fn collation_key(s: &str) -> CollationKey {
    let weights: Vec<(u32, u32, u32)> = s.chars().filter(|&c| !ignorable(c)).map(key).collect();
    (
        weights.iter().map(|w| w.0).collect(),
        weights.iter().map(|w| w.1).collect(),
        weights.iter().map(|w| w.2).collect(),
        s.to_owned(),
    )
}

/// Primary, secondary and tertiary weights, and the text (see [`collation_key`]).
type CollationKey = (Vec<u32>, Vec<u32>, Vec<u32>, String);

/// (primary, secondary, tertiary) weights of one character.
fn key(c: char) -> (u32, u32, u32) {
    const PUNCT: &str = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
    if c.is_whitespace() {
        return (1, 0, 0);
    }
    if let Some(i) = PUNCT.find(c) {
        return (10 + u32::try_from(i).unwrap_or(0), 0, 0);
    }
    if let Some(d) = c.to_digit(10) {
        return (100 + d, 0, 0);
    }
    let (base, accent) = fold(c);
    if base.is_ascii_alphabetic() {
        let lower = base.to_ascii_lowercase();
        let upper = u32::from(c.is_uppercase());
        return (200 + u32::from(lower), accent, upper);
    }
    (1000 + u32::from(c), 0, 0)
}

/// A control character other than white space: completely ignorable in ICU's root
/// collation (the DUCET weighs U+0000–U+0008, U+000E–U+001F and U+007F–U+009F
/// `[.0000.0000.0000]`, while tab, line feed and the like sort as white space).
fn ignorable(c: char) -> bool {
    c.is_control() && !c.is_whitespace()
}

/// A Latin-1 letter without its accent, and a weight for the accent (0: none).
fn fold(c: char) -> (char, u32) {
    const TABLE: [(&str, char); 14] = [
        ("àáâãäå", 'a'),
        ("ÀÁÂÃÄÅ", 'A'),
        ("ç", 'c'),
        ("Ç", 'C'),
        ("èéêë", 'e'),
        ("ÈÉÊË", 'E'),
        ("ìíîï", 'i'),
        ("ÌÍÎÏ", 'I'),
        ("ñ", 'n'),
        ("Ñ", 'N'),
        ("òóôõöø", 'o'),
        ("ÒÓÔÕÖØ", 'O'),
        ("ùúûüýÿ", 'u'),
        ("ÙÚÛÜÝ", 'U'),
    ];
    for (set, base) in TABLE {
        if let Some(i) = set.chars().position(|x| x == c) {
            let base = if "ýÿÝ".contains(c) {
                if c.is_uppercase() { 'Y' } else { 'y' }
            } else {
                base
            };
            return (base, 1 + u32::try_from(i).unwrap_or(0));
        }
    }
    (c, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_sort_as_observed() {
        // The order the real CLI printed (in the oracle's run).
        let observed = [
            "-dash",
            "(p",
            "[q",
            "@at",
            "#h",
            "$d",
            "0x",
            "a b",
            "a_b",
            "a-b",
            "aa",
            "ab",
            "dfalse",
            "Dup",
            "eclair",
            "éclair",
            "gs",
            "resume",
            "résumé",
            "rz",
            "s",
            "Workspace AGENTS.md",
            "z z",
            "Zz",
            "zz9",
            "Ω",
        ];
        let mut sorted = observed.to_vec();
        sorted.reverse();
        sorted.sort_by(|a, b| collate(a, b));
        assert_eq!(sorted, observed);
        let mut t2 = ["2", "10", "~t", ".clinerules", "_u"];
        t2.sort_by(|a, b| collate(a, b));
        assert_eq!(t2, ["_u", ".clinerules", "~t", "10", "2"]);
    }

    /// ICU's root collation (what `localeCompare` uses) weighs accents (secondary) before
    /// case (tertiary): the order UTS #10 gives for `role < Role < rôle < Rôle`, and for
    /// `ç`, the first (and only) accented form of its letter.
    #[test]
    fn accents_outrank_case() {
        for observed in [
            ["role", "Role", "rôle", "Rôle"],
            ["facade", "Facade", "façade", "Façade"],
        ] {
            let mut sorted = observed;
            sorted.reverse();
            sorted.sort_by(|a, b| collate(a, b));
            assert_eq!(sorted, observed);
        }
    }

    /// A control character (other than white space) in a title weighs nothing, as in ICU's
    /// root collation: `a\u{1}c` sorts as `ac` would, between `ab` and `ad`, while a tab
    /// sorts as white space.
    #[test]
    fn control_characters_are_ignored() {
        let mut titles = ["ad", "\u{1}ac", "ab", "\u{7f}b", "\ta"];
        titles.sort_by(|a, b| collate(a, b));
        assert_eq!(titles, ["\ta", "ab", "\u{1}ac", "ad", "\u{7f}b"]);
    }

    #[test]
    fn frontmatter_as_cline_splits_it() {
        assert_eq!(split("---\nname: x\n---\nbody"), Some(("name: x", "body")));
        assert_eq!(
            split("---\r\nname: x\r\n---\r\nbody\r\n"),
            Some(("name: x", "body\r\n"))
        );
        // An empty block is no frontmatter: `---\n---\n` stays in the text.
        assert_eq!(split("---\n---\nbody"), None);
        // One empty line is a block: the regex's lazy group matches nothing before `\n---`.
        assert_eq!(split("---\n\n---\nbody"), Some(("", "body")));
    }

    #[test]
    fn dropped_rules() {
        assert!(read("---\ndisabled: true\n---\nx").is_err());
        assert!(read("---\ndisabled: \"false\"\n---\nx").is_err());
        assert!(read("---\nenabled: false\n---\nx").is_err());
        assert!(read("---\ndisabled: false\nenabled: false\n---\nx").is_ok());
        assert!(read("---\nname: 123\n---\nx").is_err());
        assert!(read("---\npaths: [\"src/**\"]\n---\n  \n").is_err());
        assert_eq!(
            read("\u{feff}---\nname: T\n---\n body\r\n")
                .unwrap()
                .name
                .as_deref(),
            Some("T")
        );
    }
}
