//! `@path` imports as Gemini CLI expands them in the text it sends (`processImports` of
//! `memoryImportProcessor.ts`, "tree" format), shared by the emulations of Gemini CLI and
//! of its fork Qwen Code: each import inlined between `<!-- Imported from: … -->` markers,
//! confined to the git root, a cycle or a file already processed marked, and the depth the
//! tool allows. The two differ only in what a missing file leaves behind ([`Missing`]).
//!
//! Neither tool bounds the text: a fan-out of repeated imports (ten imports of a file that
//! imports another ten times, four levels down) would expand to gigabytes. A view expands
//! at most [`MAX_EXPANDED`] bytes of imported text for one file; past that an import is
//! left as written, listed as not read with why, and the view says it was cut.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{HostFile, HostView, Scope, Status, util};

/// What a missing imported file leaves in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// An `<!-- Import failed: … ENOENT … -->` comment (Gemini CLI 0.61.0).
    Comment,
    /// The `@path` token as written (Qwen Code 0.24.4).
    Literal,
}

/// The real path, or (for a missing file) the lexically normalized one.
pub fn real(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| crate::fs::normalize_lexically(path))
}

/// The file whose imports are being expanded: where its imports resolve and stop.
pub struct Importer<'a> {
    /// The importing file.
    pub path: &'a Path,
    /// Where its relative imports resolve.
    pub base: &'a Path,
    /// Imports must resolve under it (the git root).
    pub root: &'a Path,
    /// Hops from the file the tool loaded.
    pub depth: usize,
    /// The tool's import depth.
    pub max_depth: usize,
    /// What a missing file leaves in the text.
    pub missing: Missing,
}

/// The most bytes of imported text a view expands into one file: rulebook's size cap. The
/// tools have no bound of their own.
pub const MAX_EXPANDED: u64 = super::util::MAX_READ;

/// Why an import past [`MAX_EXPANDED`] is left as written.
pub const PAST_THE_BOUND: &str = "past the bound of imported text this view expands into one file (1048576 bytes): the tool would inline it, this view leaves it as written";

/// One file an import named: loaded into the text, or refused and why.
pub struct Imported {
    /// The file named.
    pub path: PathBuf,
    /// The file whose import named it.
    pub by: PathBuf,
    /// Why it was refused, if it was.
    pub refused: Option<&'static str>,
}

#[allow(
    clippy::implicit_hasher,
    reason = "the emulations pass the standard set; the chain is a handful of paths"
)]
/// `content` with its imports expanded (`processed`: the files of the chain so far, a
/// cycle's guard); every file an import named is pushed to `imported`, refused or not.
/// `budget`: the bytes of imported text that may still be expanded ([`MAX_EXPANDED`] for
/// one file); an import that would pass it is left as written.
pub fn process_imports(
    content: &str,
    from: &Importer<'_>,
    processed: &HashSet<PathBuf>,
    imported: &mut Vec<Imported>,
    budget: &mut u64,
) -> String {
    if from.depth >= from.max_depth {
        return content.to_string();
    }
    let mut out = String::with_capacity(content.len());
    let mut last = 0;
    for token in crate::import_tokens(content, crate::Dialect::Gemini) {
        let import = token.path;
        out.push_str(&content[last..token.range.start]);
        last = token.range.end;
        let full = crate::fs::normalize_lexically(&from.base.join(import));
        let is_url = ["file://", "http://", "https://"]
            .iter()
            .any(|p| import.starts_with(p));
        let mut refuse = |why: &'static str| {
            if !is_url && util::is_file(&full) {
                imported.push(Imported {
                    path: full.clone(),
                    by: from.path.to_path_buf(),
                    refused: Some(why),
                });
            }
        };
        if is_url || !real(&full).starts_with(real(from.root)) {
            refuse("outside the git root: Gemini CLI refuses it as a path traversal");
            out.push_str(&format!(
                "<!-- Import failed: {import} - Path traversal attempt -->"
            ));
            continue;
        }
        if processed.contains(&full) {
            out.push_str(&format!("<!-- File already processed: {import} -->"));
            continue;
        }
        if !util::exists(&full) {
            match from.missing {
                Missing::Comment => out.push_str(&format!(
                    "<!-- Import failed: {import} - ENOENT: no such file or directory, access '{}' -->",
                    full.display()
                )),
                Missing::Literal => out.push_str(&content[token.range.clone()]),
            }
            continue;
        }
        if util::is_dir(&full) {
            out.push_str(&format!(
                "<!-- Import failed: {import} - EISDIR: illegal operation on a directory, read -->"
            ));
            continue;
        }
        if *budget == 0 || std::fs::metadata(&full).is_ok_and(|m| m.len() > *budget) {
            *budget = 0;
            imported.push(Imported {
                path: full.clone(),
                by: from.path.to_path_buf(),
                refused: Some(PAST_THE_BOUND),
            });
            out.push_str(&content[token.range.clone()]);
            continue;
        }
        let Some(text) = util::read_text(&full) else {
            refuse("unreadable");
            out.push_str(&format!("<!-- Import failed: {import} - unreadable -->"));
            continue;
        };
        *budget = budget.saturating_sub(text.len() as u64);
        let mut chain = processed.clone();
        chain.insert(full.clone());
        imported.push(Imported {
            path: full.clone(),
            by: from.path.to_path_buf(),
            refused: None,
        });
        let inner = Importer {
            path: &full,
            base: full.parent().unwrap_or(Path::new("/")),
            root: from.root,
            depth: from.depth + 1,
            max_depth: from.max_depth,
            missing: from.missing,
        };
        let expanded = process_imports(&text, &inner, &chain, imported, budget);
        out.push_str(&format!(
            "<!-- Imported from: {import} -->\n{expanded}\n<!-- End of import from: {import} -->"
        ));
    }
    out.push_str(&content[last..]);
    out
}

/// The text of the file at `path` with its imports expanded from the top (relative to its
/// directory, confined to `root`), and every file an import named.
pub fn expand_file(
    text: &str,
    path: &Path,
    root: &Path,
    max_depth: usize,
    missing: Missing,
) -> (String, Vec<Imported>) {
    let base = path.parent().unwrap_or(Path::new("/"));
    let mut imported = Vec::new();
    let from = Importer {
        path,
        base,
        root,
        depth: 0,
        max_depth,
        missing,
    };
    let mut budget = MAX_EXPANDED;
    let content = process_imports(text, &from, &HashSet::new(), &mut imported, &mut budget);
    (content, imported)
}

/// The files `imported` names, after the file that imported them in `view`: loaded, or not
/// read with why; each once (an import loop brings the importer back, marked in the text).
/// A file whose imports passed [`MAX_EXPANDED`] is named in a note.
pub fn push_imported(view: &mut HostView, imported: Vec<Imported>, scope: Scope) {
    if let Some(cut) = imported.iter().find(|i| i.refused == Some(PAST_THE_BOUND)) {
        view.notes.push(format!(
            "the imports of {} expand past {MAX_EXPANDED} bytes: this view stops there and leaves the rest as written (the tool has no such bound)",
            cut.by.display()
        ));
    }
    for import in imported {
        if view.files.iter().any(|f| f.path == import.path) {
            continue;
        }
        view.files.push(HostFile {
            path: import.path,
            scope,
            status: if import.refused.is_none() {
                Status::Loaded
            } else {
                Status::NotRead
            },
            reason: match import.refused {
                None => format!("imported by {}", import.by.display()),
                Some(why) => format!("imported by {}, but {why}", import.by.display()),
            },
            imported_by: Some(import.by),
            outside: None,
        });
    }
}
