//! `@path` imports (behaviour.md §13: the `claude` and `gemini` rows): the text of an imported file
//! replaces the token, recursively. Tokens are found by the one tokenizer ([`import_tokens`]) in
//! the importing tool's [`Dialect`]; paths are relative to the importing file (or `~/…`, or
//! absolute).
//!
//! A missing file, a cycle, an import deeper than the limit, one outside the boundary
//! (unless allowed), one larger than the size cap, or one past the bound on the expanded
//! text leaves the token as written and adds an `import-failed` warning.
//!
//! Each imported file is opened once and every check is made on the opened handle
//! (`rulebook-fs`'s [`read_rule`]): a file swapped for a link between a check and the read
//! cannot bring an outside file in.

use std::path::{Path, PathBuf};

use rulebook_fs::{ReadOptions, read_rule};
use rulebook_rule::{Diagnostic, DiagnosticCode};

mod tokens;

pub use tokens::{Dialect, ImportToken, import_tokens};

/// How imports are expanded.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// Hops below the root file (Claude: 4).
    pub max_depth: usize,
    /// Imports must resolve under this directory (the project root), unless
    /// `allow_outside`.
    pub boundary: PathBuf,
    /// Allow imports outside `boundary`.
    pub allow_outside: bool,
    /// The home directory, for `~/…`.
    pub home: PathBuf,
    /// Whose recognition of a token: Claude Code's or Gemini CLI's.
    pub dialect: Dialect,
    /// The size cap: no imported file larger than this is read, and the imports of one
    /// file add at most this many bytes in all (a fan-out of repeated imports cannot grow
    /// the text without bound). `None`: no cap.
    pub max_size: Option<u64>,
}

/// The expanded text, the files imported (in expansion order), and what failed.
#[derive(Debug, Clone, Default)]
pub struct Expanded {
    /// The text with every import that resolved replaced by the imported text.
    pub text: String,
    /// The files expanded into it.
    pub includes: Vec<PathBuf>,
    /// Imports that failed.
    pub diagnostics: Vec<Diagnostic>,
}

/// Expands the imports of `text`, the content of `file`.
pub fn expand_imports(text: &str, file: &Path, options: &ImportOptions) -> Expanded {
    let mut out = Expanded::default();
    let mut state = State {
        options,
        stack: vec![real(file)],
        includes: Vec::new(),
        diagnostics: Vec::new(),
        budget: options.max_size,
        budget_said: false,
    };
    out.text = expand(text, file, 0, &mut state);
    out.includes = state.includes;
    out.diagnostics = state.diagnostics;
    out
}

fn real(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// What one expansion carries through its recursion.
struct State<'a> {
    options: &'a ImportOptions,
    /// The real paths of the files being expanded, outermost first (cycles).
    stack: Vec<PathBuf>,
    includes: Vec<PathBuf>,
    diagnostics: Vec<Diagnostic>,
    /// Bytes the imports may still add (`None`: no bound).
    budget: Option<u64>,
    /// Whether the warning that the bound was reached was given (once per expansion).
    budget_said: bool,
}

/// Why an import is left as written; `None` for a failure already said once.
type Failure = Option<Why>;

/// Why one import is left as written.
struct Why {
    text: String,
    /// The importing tool itself passes over such an import without a word (a missing
    /// file, a directory, a cycle, the depth limit): in Claude's dialect it is said as an
    /// info ([`DiagnosticCode::ImportSkipped`]), since prose such as `with @-links to` is a token Claude tries and drops.
    quiet: bool,
}

impl From<String> for Why {
    fn from(text: String) -> Self {
        Self { text, quiet: false }
    }
}

/// A [`Why`] the importing tool keeps to itself.
fn quiet(text: String) -> Why {
    Why { text, quiet: true }
}

fn expand(text: &str, file: &Path, depth: usize, state: &mut State<'_>) -> String {
    let options = state.options;
    let base = file.parent().unwrap_or(Path::new("."));
    let mut out = String::with_capacity(text.len());
    let (mut last, mut line, mut counted) = (0, 1, 0);
    for token in import_tokens(text, options.dialect) {
        out.push_str(&text[last..token.range.start]);
        last = token.range.end;
        let written = &text[token.range.start + 1..token.range.end];
        let path = token.path;
        let target = if let Some(rel) = path.strip_prefix("~/") {
            options.home.join(rel)
        } else if Path::new(path).is_absolute() {
            PathBuf::from(path)
        } else {
            base.join(path)
        };
        match import(&target, depth, state) {
            Ok(imported) => out.push_str(&imported),
            Err(why) => {
                if let Some(why) = why {
                    line += text.as_bytes()[counted..token.range.start]
                        .iter()
                        .filter(|&&b| b == b'\n')
                        .count();
                    counted = token.range.start;
                    let quiet = why.quiet && options.dialect == Dialect::Claude;
                    let message = format!(
                        "import @{written} in {} (line {line}): {}; it is left as written{}",
                        file.display(),
                        why.text,
                        if quiet {
                            " (Claude Code passes over such an import without a word)"
                        } else {
                            ""
                        }
                    );
                    let code = if quiet {
                        DiagnosticCode::ImportSkipped
                    } else {
                        DiagnosticCode::ImportFailed
                    };
                    let diagnostic = Diagnostic::new(code, message);
                    state
                        .diagnostics
                        .push(diagnostic.with_path(file).at(Some(line), None));
                }
                out.push('@');
                out.push_str(written);
            }
        }
    }
    out.push_str(&text[last..]);
    out
}

/// The expanded text of one import, or why it is left as written.
fn import(target: &Path, depth: usize, state: &mut State<'_>) -> Result<String, Failure> {
    let options = state.options;
    // A first look by path, for the checks that need no content (a cycle, the depth); the
    // security checks are made again on the opened file below.
    let Ok(resolved) = std::fs::canonicalize(target) else {
        return Err(Some(quiet(format!("not found: {}", target.display()))));
    };
    if !options.allow_outside && !resolved.starts_with(&options.boundary) {
        return Err(Some(outside().into()));
    }
    if state.stack.contains(&resolved) {
        return Err(Some(quiet("a cycle of imports".to_owned())));
    }
    if depth + 1 > options.max_depth {
        return Err(Some(quiet(format!(
            "the depth limit ({} hops)",
            options.max_depth
        ))));
    }
    // A directory cannot be read, and a FIFO is never opened for reading to find that out.
    if !std::fs::metadata(&resolved).is_ok_and(|m| m.is_file()) {
        return Err(Some(quiet("not a regular file".to_owned())));
    }
    if state.budget == Some(0) {
        return Err(budget_spent(state));
    }
    let read_options = ReadOptions::new()
        .max_size(options.max_size)
        .real_path(true)
        .project_root((!options.allow_outside).then(|| options.boundary.clone()));
    let (read, diagnostics) = read_rule(target, &read_options);
    let Some(read) = read else {
        return Err(Some(read_failure(&diagnostics, options.max_size).into()));
    };
    // What the reader says of a file it read (invalid UTF-8 replaced) is kept.
    state.diagnostics.extend(diagnostics);
    // The file that was opened, not the one the path named a moment ago.
    let real = read.real_path.unwrap_or(resolved);
    if state.stack.contains(&real) {
        return Err(Some(quiet("a cycle of imports".to_owned())));
    }
    if let Some(left) = state.budget {
        let size = read.text.len() as u64;
        if size > left {
            state.budget = Some(0);
            return Err(budget_spent(state));
        }
        state.budget = Some(left - size);
    }
    let inner = rulebook_frontmatter::normalize_text(&read.text);
    state.includes.push(real.clone());
    state.stack.push(real.clone());
    let text = expand(&inner, &real, depth + 1, state);
    state.stack.pop();
    Ok(text.trim_end().to_owned())
}

fn outside() -> String {
    "it is outside the project; external imports are not allowed (allow_external_imports)"
        .to_owned()
}

/// The bound on the expanded text was reached: said for the first import it stops.
fn budget_spent(state: &mut State<'_>) -> Failure {
    if std::mem::replace(&mut state.budget_said, true) {
        return None;
    }
    Some(
        format!(
            "the imports of this file would add more than {} bytes (the size cap), so this import and every later one are left as written",
            state.options.max_size.unwrap_or(0)
        )
        .into(),
    )
}

/// Why the reader refused a file, in an import's words.
fn read_failure(diagnostics: &[Diagnostic], cap: Option<u64>) -> String {
    match diagnostics.first() {
        Some(d) if d.code == DiagnosticCode::OutsideProject => outside(),
        Some(d) if d.code == DiagnosticCode::NotAFile => "not a regular file".to_owned(),
        Some(d) if d.code == DiagnosticCode::TooLarge => format!(
            "larger than the {}-byte limit for a rule file",
            cap.unwrap_or(0)
        ),
        Some(d) => format!("cannot read it ({})", d.message),
        None => "cannot read it".to_owned(),
    }
}
