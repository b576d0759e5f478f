//! Glob applicability (Extended E3): which rules apply to which files.
//!
//! [`GlobIndex::new`] compiles every glob of every rule into **one** [`globset::GlobSet`];
//! [`GlobIndex::applicable`] then matches each path once against all of them. Conventions,
//! as Cursor applies them:
//! - a pattern without `/` matches the file name at any depth (`*.ts` is `**/*.ts`);
//! - a pattern with `/` is relative to the project root (a leading `/` or `./` is
//!   dropped), and `*` does not cross `/` (`src/*.ts` does not match `src/a/b.ts`);
//! - paths are relative to the project root; an absolute path under the root is made
//!   relative; a path outside the root (absolute elsewhere, or escaping with `..`) never
//!   matches. `\` is read as `/`.
//!
//! A glob that does not compile is a warning naming the rule and the pattern; the rule's
//! other globs still work.
//!
//! Depends on `globset` and `rulebook-rule`.
//!
//! ```
//! use rulebook_match::GlobIndex;
//! # use rulebook_rule::*;
//! # let rule = |name: &str, globs: &[&str]| Rule { name: name.into(), path: "/p/r.md".into(),
//! #     content: String::new(), globs: Some(globs.iter().map(|g| g.to_string()).collect()),
//! #     always_apply: None, description: None, ttsr_trigger: None, condition: vec![],
//! #     activation: None, source: SourceMeta::new("cursor", "Cursor", Level::Project, "/p/r.md"),
//! #     frontmatter: Map::new(), frontmatter_outcome: FrontmatterOutcome::Parsed };
//! let rules = [rule("ts", &["*.ts"]), rule("docs", &["docs/**"])];
//! let (index, warnings) = GlobIndex::new(rules.iter());
//! assert!(warnings.is_empty());
//! let hits = index.applicable("/p", ["src/deep/a.ts", "docs/x.md", "/elsewhere/b.ts"]);
//! let names: Vec<_> = hits.iter().map(|h| (rules[h.rule].name.as_str(), h.glob.as_str())).collect();
//! assert_eq!(names, [("ts", "*.ts"), ("docs", "docs/**")]);
//! assert_eq!(index.matches("/p", "/p/docs/a.ts").len(), 2);
//! ```

use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use rulebook_rule::{Diagnostic, DiagnosticCode, Rule};
use serde::Serialize;

/// One rule that applies to some of the given paths.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Applicable {
    /// The rule's index in the rules given to [`GlobIndex::new`].
    pub rule: usize,
    /// The rule's name.
    pub name: String,
    /// The first (in the rule's order) of its globs that matched any path.
    pub glob: String,
    /// The first given path (normalized) that matched one of its globs.
    pub path: String,
}

/// One rule that applies to one path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PathMatch {
    /// The rule's index in the rules given to [`GlobIndex::new`].
    pub rule: usize,
    /// The rule's name.
    pub name: String,
    /// The first (in the rule's order) of its globs that matched the path.
    pub glob: String,
}

/// Every glob of a set of rules, compiled once.
#[derive(Debug, Clone)]
pub struct GlobIndex {
    set: GlobSet,
    /// For each distinct glob in the set: every (rule index, glob index within the rule)
    /// that wrote it. Rules share globs (`*.ts`) far more often than not; compiling each
    /// once keeps the set small and the match fast.
    owners: Vec<Vec<(usize, usize)>>,
    /// The rules' names and globs, as written.
    rules: Vec<(String, Vec<String>)>,
}

impl GlobIndex {
    /// Compiles the globs of `rules` (rules without globs are simply never applicable).
    pub fn new<'a>(rules: impl IntoIterator<Item = &'a Rule>) -> (Self, Vec<Diagnostic>) {
        let mut builder = GlobSetBuilder::new();
        let mut owners: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let mut names = Vec::new();
        let mut diagnostics = Vec::new();
        for (r, rule) in rules.into_iter().enumerate() {
            let globs = rule.globs.clone().unwrap_or_default();
            for (g, pattern) in globs.iter().enumerate() {
                if let Some(&slot) = seen.get(pattern) {
                    owners[slot].push((r, g));
                    continue;
                }
                match compile(pattern) {
                    Ok(glob) => {
                        builder.add(glob);
                        seen.insert(pattern.clone(), owners.len());
                        owners.push(vec![(r, g)]);
                    }
                    Err(err) => diagnostics.push(
                        Diagnostic::warning(
                            DiagnosticCode::WrongType,
                            format!(
                                "glob {pattern:?} of rule `{}` ({}) does not compile: {err}; it never matches",
                                rule.name,
                                rule.path.display()
                            ),
                        )
                        .with_path(&rule.path),
                    ),
                }
            }
            names.push((rule.name.clone(), globs));
        }
        let set = builder.build().unwrap_or_else(|err| {
            diagnostics.push(Diagnostic::warning(
                DiagnosticCode::WrongType,
                format!("the rules' globs could not be compiled together: {err}; no glob matches"),
            ));
            GlobSet::empty()
        });
        (
            Self {
                set,
                owners,
                rules: names,
            },
            diagnostics,
        )
    }

    /// The rules whose globs match any of `paths` (relative to `root`, or absolute under
    /// it), in rule order. Each path is matched once against the whole set; the cost per
    /// path is one set match plus a few integer updates per rule that shares a matched glob.
    pub fn applicable<I, P>(&self, root: impl AsRef<Path>, paths: I) -> Vec<Applicable>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let root = root.as_ref();
        // Per rule: (first glob index that matched any path, index of the first path).
        let mut hits: Vec<Option<(usize, usize)>> = vec![None; self.rules.len()];
        let mut first_paths: Vec<String> = Vec::new();
        let mut scratch = Vec::new();
        for path in paths {
            let Some(relative) = normalize(root, path.as_ref()) else {
                continue;
            };
            self.set.matches_into(relative.as_str(), &mut scratch);
            if scratch.is_empty() {
                continue;
            }
            let path_index = first_paths.len();
            let mut used = false;
            for &(rule, glob) in scratch.iter().flat_map(|&i| &self.owners[i]) {
                match &mut hits[rule] {
                    Some((g, _)) => *g = (*g).min(glob),
                    slot @ None => {
                        *slot = Some((glob, path_index));
                        used = true;
                    }
                }
            }
            if used {
                first_paths.push(relative);
            }
        }
        hits.into_iter()
            .enumerate()
            .filter_map(|(rule, hit)| {
                let (glob, path) = hit?;
                let (name, globs) = &self.rules[rule];
                Some(Applicable {
                    rule,
                    name: name.clone(),
                    glob: globs[glob].clone(),
                    path: first_paths[path].clone(),
                })
            })
            .collect()
    }

    /// The rules whose globs match one path, in rule order, each with the first of its
    /// globs that matched. Empty for a path outside `root`.
    pub fn matches(&self, root: impl AsRef<Path>, path: impl AsRef<Path>) -> Vec<PathMatch> {
        let Some(relative) = normalize(root.as_ref(), path.as_ref()) else {
            return Vec::new();
        };
        let mut best: Vec<(usize, usize)> = Vec::new();
        for &(rule, glob) in self
            .set
            .matches(relative.as_str())
            .iter()
            .flat_map(|&i| &self.owners[i])
        {
            match best.iter_mut().find(|(r, _)| *r == rule) {
                Some(entry) => entry.1 = entry.1.min(glob),
                None => best.push((rule, glob)),
            }
        }
        best.sort_unstable();
        best.into_iter()
            .map(|(rule, glob)| {
                let (name, globs) = &self.rules[rule];
                PathMatch {
                    rule,
                    name: name.clone(),
                    glob: globs[glob].clone(),
                }
            })
            .collect()
    }

    /// The normalized form of `path` the globs are matched against (relative to `root`,
    /// `/` separators), or `None` when it lies outside `root`.
    pub fn relative(root: impl AsRef<Path>, path: impl AsRef<Path>) -> Option<String> {
        normalize(root.as_ref(), path.as_ref())
    }

    /// How many distinct globs compiled.
    pub fn len(&self) -> usize {
        self.owners.len()
    }

    /// Whether no glob compiled.
    pub fn is_empty(&self) -> bool {
        self.owners.is_empty()
    }
}

fn compile(pattern: &str) -> Result<globset::Glob, globset::Error> {
    let trimmed = pattern.trim();
    let anchored = trimmed
        .strip_prefix("./")
        .or_else(|| trimmed.strip_prefix('/'))
        .unwrap_or(trimmed);
    let full = if anchored.contains('/') {
        anchored.to_owned()
    } else {
        format!("**/{anchored}")
    };
    GlobBuilder::new(&full)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
}

/// `path` relative to `root`, with `/` separators and `.`/`..` resolved lexically; `None`
/// when it lies outside the root.
fn normalize(root: &Path, path: &Path) -> Option<String> {
    let text = path.to_string_lossy().replace('\\', "/");
    let path = PathBuf::from(text);
    let relative = if path.is_absolute() {
        path.strip_prefix(root).ok()?.to_path_buf()
    } else {
        path
    };
    let mut parts: Vec<String> = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::normalize;
    use std::path::Path;

    #[test]
    fn normalization() {
        let root = Path::new("/p");
        assert_eq!(
            normalize(root, Path::new("a/./b/../c.ts")).as_deref(),
            Some("a/c.ts")
        );
        assert_eq!(
            normalize(root, Path::new("/p/src/x.ts")).as_deref(),
            Some("src/x.ts")
        );
        assert_eq!(normalize(root, Path::new("/q/x.ts")), None);
        assert_eq!(normalize(root, Path::new("../x.ts")), None);
        assert_eq!(
            normalize(root, Path::new("a\\b.ts")).as_deref(),
            Some("a/b.ts")
        );
        assert_eq!(normalize(root, Path::new(".")), None);
    }
}
