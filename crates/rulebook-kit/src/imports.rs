//! `@path` imports (SPEC-providers §2.5): the text of an imported file replaces the token,
//! recursively. Claude Code's reading: a token starts at the beginning of the text or after
//! white space and runs to the next white space; it is not a token inside a code span or a
//! fenced block; paths are relative to the importing file (or `~/…`, or absolute).
//!
//! A missing file, a cycle, an import deeper than the limit, or one outside the boundary
//! (unless allowed) leaves the token as written and adds an `import-failed` warning.

use std::path::{Path, PathBuf};

use rulebook_rule::{Diagnostic, DiagnosticCode};

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
    /// Gemini's recognition: a token's first character must be `.`, `/` or an ASCII letter
    /// (Claude's: anything but white space).
    pub path_start_rule: bool,
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
    let mut stack = vec![real(file)];
    out.text = expand(
        text,
        file,
        options,
        0,
        &mut stack,
        &mut out.includes,
        &mut out.diagnostics,
    );
    out
}

fn real(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn expand(
    text: &str,
    file: &Path,
    options: &ImportOptions,
    depth: usize,
    stack: &mut Vec<PathBuf>,
    includes: &mut Vec<PathBuf>,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    let base = file.parent().unwrap_or(Path::new("."));
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            out.push_str(line);
            continue;
        }
        if fenced || !line.contains('@') {
            out.push_str(line);
            continue;
        }
        let mut in_code = false;
        let mut previous: Option<char> = None;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '`' {
                in_code = !in_code;
                out.push(c);
                previous = Some(c);
                continue;
            }
            let starts_token = c == '@' && !in_code && previous.is_none_or(char::is_whitespace);
            if !starts_token {
                out.push(c);
                previous = Some(c);
                continue;
            }
            let rest = &line[i + 1..];
            let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let token = &rest[..len];
            let bad_start = options.path_start_rule
                && !token
                    .chars()
                    .next()
                    .is_some_and(|c| c == '.' || c == '/' || c.is_ascii_alphabetic());
            if token.is_empty() || bad_start {
                out.push(c);
                previous = Some(c);
                continue;
            }
            let warn = |why: String| {
                Diagnostic::warning(
                    DiagnosticCode::ImportFailed,
                    format!(
                        "import @{token} in {} (line {}): {why}; it is left as written",
                        file.display(),
                        n + 1
                    ),
                )
                .with_path(file)
                .at(Some(n + 1), None)
            };
            let target = if let Some(rel) = token.strip_prefix("~/") {
                options.home.join(rel)
            } else if Path::new(token).is_absolute() {
                PathBuf::from(token)
            } else {
                base.join(token)
            };
            let resolved = std::fs::canonicalize(&target);
            let replacement = match resolved {
                Err(_) => Err(warn(format!("not found: {}", target.display()))),
                Ok(real) if !options.allow_outside && !real.starts_with(&options.boundary) => Err(
                    warn("it is outside the project; external imports are not allowed (allow_external_imports)".to_owned()),
                ),
                Ok(real) if stack.contains(&real) => Err(warn("a cycle of imports".to_owned())),
                Ok(_) if depth + 1 > options.max_depth => Err(warn(format!(
                    "the depth limit ({} hops)",
                    options.max_depth
                ))),
                // Checked before reading: reading a FIFO (`@/dev/stdin`, a named pipe) would
                // block discovery, and a directory cannot be read.
                Ok(real) if !std::fs::metadata(&real).is_ok_and(|m| m.is_file()) => {
                    Err(warn("not a regular file".to_owned()))
                }
                Ok(real) => match std::fs::read(&real) {
                    Ok(bytes) => {
                        let inner = rulebook_frontmatter::normalize_text(&String::from_utf8_lossy(&bytes));
                        includes.push(real.clone());
                        stack.push(real.clone());
                        let text = expand(&inner, &real, options, depth + 1, stack, includes, diagnostics);
                        stack.pop();
                        Ok(text.trim_end().to_owned())
                    }
                    Err(err) => Err(warn(format!("cannot read it: {err}"))),
                },
            };
            match replacement {
                Ok(text) => out.push_str(&text),
                Err(d) => {
                    diagnostics.push(d);
                    out.push('@');
                    out.push_str(token);
                }
            }
            // Skip the token's characters.
            while chars.peek().is_some_and(|&(j, _)| j < i + 1 + len) {
                chars.next();
            }
            previous = token.chars().last();
        }
    }
    out
}
