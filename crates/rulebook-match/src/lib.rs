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
//! # let rule = |name: &str, globs: &[&str]| Rule::new(name, "/p/r.md", "",
//! #     SourceMeta::new("cursor", "Cursor", Level::Project, "/p/r.md")).with_globs(globs.iter().copied());
//! let rules = [rule("ts", &["*.ts"]), rule("docs", &["docs/**"])];
//! let (index, warnings) = GlobIndex::new(rules.iter());
//! assert!(warnings.is_empty());
//! let hits = index.applicable("/p", ["src/deep/a.ts", "docs/x.md", "/elsewhere/b.ts"]);
//! let names: Vec<_> = hits.iter().map(|h| (rules[h.rule].name.as_str(), h.glob.as_str())).collect();
//! assert_eq!(names, [("ts", "*.ts"), ("docs", "docs/**")]);
//! assert_eq!(index.matches("/p", "/p/docs/a.ts").len(), 2);
//! ```

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use rulebook_rule::{Diagnostic, DiagnosticCode, GlobDialect, Rule};
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

/// The longest glob [`GlobIndex::new`] compiles, in bytes: longer ones are refused with a
/// warning (real globs are a few dozen bytes; a 100,000-byte one is an attack on the
/// compiler, not a rule).
pub const MAX_GLOB_LEN: usize = 1024;

/// The deepest nesting of `{…}` alternations a glob may have: the glob compiler recurses
/// once per level, so a glob 100,000 braces deep would overflow the stack.
pub const MAX_GLOB_NESTING: usize = 8;

/// How many distinct glob remainders one [`GlobSet`] holds: a set compiles its globs
/// together, and one huge set costs superlinear time and memory to build.
const SET_CHUNK: usize = 256;

/// Every glob of a set of rules, compiled once.
///
/// Each glob is split at its last `/` before the first glob metacharacter into a literal
/// directory prefix and a remainder (`apps/api/src/**/*.ts` is `apps/api/src/` +
/// `**/*.ts`). Only the distinct remainders are compiled (into sets of at most 256), and a
/// path is matched by looking up each of its own directory prefixes in a hash map: the
/// cost of a path is one set match per directory level, whatever the number of globs, and
/// 100,000 globs that differ only in their directory cost one compiled remainder.
///
/// Rules whose globs are relative to another root than the working directory
/// ([`Rule::glob_root`]) are kept in an index of their own per root; a path is made
/// relative to each root once.
#[derive(Debug, Clone)]
pub struct GlobIndex {
    /// One index per glob root (`None`: the root paths are given against).
    roots: Vec<RootIndex>,
    /// For each distinct glob: every (rule index, glob index within the rule) that wrote it.
    /// Rules share globs (`*.ts`) far more often than not.
    owners: Vec<Vec<(usize, usize)>>,
    /// For each distinct glob: whether it negates (`!pattern`, anchored dialect).
    negated: Vec<bool>,
    /// The rules' names and globs, as written.
    rules: Vec<(String, Vec<String>)>,
}

/// The globs relative to one root.
#[derive(Debug, Clone, Default)]
struct RootIndex {
    root: Option<PathBuf>,
    /// Holds the globs with no literal directory prefix (and the literal paths).
    top: bool,
    /// The distinct remainders, compiled, in chunks of at most [`SET_CHUNK`], each with the
    /// remainder id of each of its globs.
    sets: Vec<(GlobSet, Vec<usize>)>,
    /// For each literal directory prefix (`""` for none): remainder → the glob slots.
    prefixes: HashMap<String, HashMap<usize, Vec<usize>>>,
    /// Globs with no metacharacter at all: the exact path, and the glob slot.
    literals: HashMap<String, Vec<usize>>,
    /// The byte lengths of the prefixes, sorted: a path's directory prefix of another length
    /// is not looked up.
    prefix_lengths: Vec<usize>,
}

/// A glob made ready for the index by its dialect.
struct Prepared {
    /// The pattern globset compiles (relative to the glob root).
    full: String,
    case_insensitive: bool,
    negated: bool,
}

/// A glob split for the index.
enum Split {
    /// No metacharacter: the normalized pattern is a path.
    Literal(String),
    /// A literal directory prefix (ending in `/`, or empty) and the pattern after it.
    Prefixed(String, String),
}

/// A remainder to compile: its dedup key and the glob.
type Remainder = (String, globset::Glob);

impl GlobIndex {
    /// Compiles the globs of `rules` (rules without globs are simply never applicable),
    /// each by its [`GlobDialect`] and against its glob root. A glob that is too long,
    /// nested too deep, or does not compile is a warning naming the rule, its file and the
    /// pattern; that glob never matches, and every other glob (of that rule and of the
    /// others) still works.
    pub fn new<'a>(rules: impl IntoIterator<Item = &'a Rule>) -> (Self, Vec<Diagnostic>) {
        let mut owners: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut negated = Vec::new();
        // (root, dialect, pattern) → slot.
        let mut seen: HashMap<(Option<PathBuf>, GlobDialect, String), usize> = HashMap::new();
        let mut names = Vec::new();
        let mut diagnostics = Vec::new();
        let mut roots: Vec<RootIndex> = Vec::new();
        let mut remainders: Vec<Vec<Remainder>> = Vec::new();
        let mut remainder_ids: Vec<HashMap<String, usize>> = Vec::new();
        for (r, rule) in rules.into_iter().enumerate() {
            let globs = rule.globs.clone().unwrap_or_default();
            for (g, pattern) in globs.iter().enumerate() {
                let key = (rule.glob_root.clone(), rule.glob_dialect, pattern.clone());
                if let Some(&slot) = seen.get(&key) {
                    owners[slot].push((r, g));
                    continue;
                }
                let prepared = check_bounds(pattern).map(|()| prepare(pattern, rule.glob_dialect));
                let split = prepared.and_then(|p| split(&p).map(|s| (s, p)));
                let (split, prepared) = match split {
                    Ok(split) => split,
                    Err(why) => {
                        diagnostics.push(invalid_glob(rule, pattern, &why));
                        continue;
                    }
                };
                let slot = owners.len();
                // Globs with no literal directory (`**/*.ts`, most of them) and globs under
                // one (`src/api/**`) are indexed apart: a path is matched whole against the
                // first once, and only its directory prefixes that some glob names are
                // matched against the second.
                let top = !matches!(&split, Split::Prefixed(prefix, _) if !prefix.is_empty());
                let root_index = match roots
                    .iter()
                    .position(|x| x.root == rule.glob_root && x.top == top)
                {
                    Some(i) => i,
                    None => {
                        roots.push(RootIndex {
                            root: rule.glob_root.clone(),
                            top,
                            ..RootIndex::default()
                        });
                        remainders.push(Vec::new());
                        remainder_ids.push(HashMap::new());
                        roots.len() - 1
                    }
                };
                let index = &mut roots[root_index];
                match split {
                    Split::Literal(path) => index.literals.entry(path).or_default().push(slot),
                    Split::Prefixed(prefix, rest) => {
                        let dedup = format!("{}{rest}", u8::from(prepared.case_insensitive));
                        let ids = &mut remainder_ids[root_index];
                        let id = if let Some(&id) = ids.get(&dedup) {
                            id
                        } else {
                            let glob = match compile(&rest, prepared.case_insensitive) {
                                Ok(glob) => glob,
                                Err(err) => {
                                    diagnostics.push(invalid_glob(rule, pattern, &err.to_string()));
                                    continue;
                                }
                            };
                            let list = &mut remainders[root_index];
                            list.push((rest, glob));
                            ids.insert(dedup, list.len() - 1);
                            list.len() - 1
                        };
                        index
                            .prefixes
                            .entry(prefix)
                            .or_default()
                            .entry(id)
                            .or_default()
                            .push(slot);
                    }
                }
                seen.insert(key, slot);
                owners.push(vec![(r, g)]);
                negated.push(prepared.negated);
            }
            names.push((rule.name.clone(), globs));
        }
        let mut index = Self {
            roots,
            owners,
            negated,
            rules: names,
        };
        for (i, list) in remainders.iter().enumerate() {
            let sets = index.build_sets(i, list, &mut diagnostics);
            let root = &mut index.roots[i];
            root.sets = sets;
            root.prefix_lengths = root.prefixes.keys().map(String::len).collect();
            root.prefix_lengths.sort_unstable();
            root.prefix_lengths.dedup();
        }
        (index, diagnostics)
    }

    /// Compiles the remainders of root `root` in chunks. A chunk that does not build
    /// together has its globs built one by one, so the one at fault is named and only it is
    /// dropped.
    fn build_sets(
        &self,
        root: usize,
        remainders: &[Remainder],
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Vec<(GlobSet, Vec<usize>)> {
        let mut sets = Vec::new();
        for (c, chunk) in remainders.chunks(SET_CHUNK).enumerate() {
            let first = c * SET_CHUNK;
            let mut builder = GlobSetBuilder::new();
            for (_, glob) in chunk {
                builder.add(glob.clone());
            }
            if let Ok(set) = builder.build() {
                sets.push((set, (first..first + chunk.len()).collect()));
                continue;
            }
            let mut builder = GlobSetBuilder::new();
            let mut ids = Vec::new();
            for (offset, (rest, glob)) in chunk.iter().enumerate() {
                let mut alone = GlobSetBuilder::new();
                alone.add(glob.clone());
                match alone.build() {
                    Ok(_) => {
                        builder.add(glob.clone());
                        ids.push(first + offset);
                    }
                    Err(err) => {
                        self.report_remainder(
                            root,
                            first + offset,
                            rest,
                            &err.to_string(),
                            diagnostics,
                        );
                    }
                }
            }
            if let Ok(set) = builder.build() {
                sets.push((set, ids));
            }
        }
        sets
    }

    /// Warns about every glob whose remainder `id` (of root `root`) failed to compile.
    fn report_remainder(
        &self,
        root: usize,
        id: usize,
        rest: &str,
        why: &str,
        out: &mut Vec<Diagnostic>,
    ) {
        for (prefix, entries) in &self.roots[root].prefixes {
            for &slot in entries.get(&id).into_iter().flatten() {
                for &(rule, glob) in &self.owners[slot] {
                    let (name, globs) = &self.rules[rule];
                    out.push(Diagnostic::new(
                        DiagnosticCode::InvalidGlob,
                        format!(
                            "glob {} of rule `{name}` does not compile ({prefix}{rest}: {why}); it never matches",
                            shorten(&globs[glob]),
                        ),
                    ));
                }
            }
        }
    }

    /// The glob slots that match one path (given relative to `base`, or absolute),
    /// unordered, possibly repeated.
    fn slots_into(
        &self,
        base: &Path,
        path: &Path,
        out: &mut Vec<usize>,
        scratch: &mut Vec<usize>,
    ) -> bool {
        out.clear();
        let mut inside = false;
        // The path relative to each glob root, computed once per root.
        let mut relatives: Vec<(Option<&Path>, Option<String>)> = Vec::with_capacity(2);
        for index in &self.roots {
            let root = index.root.as_deref();
            let cached = relatives.iter().position(|(r, _)| *r == root);
            let at = if let Some(at) = cached {
                at
            } else {
                let relative = match root {
                    None => normalize(base, path),
                    Some(root) => {
                        let absolute = if path.is_absolute() {
                            path.to_path_buf()
                        } else {
                            base.join(path)
                        };
                        normalize(root, &absolute)
                    }
                };
                relatives.push((root, relative));
                relatives.len() - 1
            };
            let Some(relative) = &relatives[at].1 else {
                continue;
            };
            inside = true;
            index.slots_into(relative, out, scratch);
        }
        inside
    }

    /// For each rule with a matching glob (and no matching negation): the first of its
    /// positive globs that matched, in rule order.
    fn rules_of(&self, slots: &[usize]) -> Vec<(usize, usize)> {
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut vetoed: Vec<usize> = Vec::new();
        for &slot in slots {
            if self.negated[slot] {
                vetoed.extend(self.owners[slot].iter().map(|&(rule, _)| rule));
            } else {
                pairs.extend_from_slice(&self.owners[slot]);
            }
        }
        // Sorted by (rule, glob): the first pair of each rule has its first glob.
        pairs.sort_unstable();
        pairs.dedup_by_key(|(rule, _)| *rule);
        if !vetoed.is_empty() {
            vetoed.sort_unstable();
            pairs.retain(|(rule, _)| vetoed.binary_search(rule).is_err());
        }
        pairs
    }

    /// The rules whose globs match any of `paths` (relative to `root`, or absolute), in
    /// rule order, each with the first of its globs that matched and the first path. Each
    /// path is matched once per glob root; the cost per path is one set match per directory
    /// level plus a few integer updates per rule that shares a matched glob.
    pub fn applicable<I, P>(&self, root: impl AsRef<Path>, paths: I) -> Vec<Applicable>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let root = root.as_ref();
        // Per rule: (first glob index that matched any path, index of the first path).
        let mut hits: Vec<Option<(usize, usize)>> = vec![None; self.rules.len()];
        let mut first_paths: Vec<String> = Vec::new();
        let (mut scratch, mut slots) = (Vec::new(), Vec::new());
        let any_negated = self.negated.contains(&true);
        for path in paths {
            let path = path.as_ref();
            self.slots_into(root, path, &mut slots, &mut scratch);
            if slots.is_empty() {
                continue;
            }
            let path_index = first_paths.len();
            let mut used = false;
            // Without negations every matched glob counts: no per-path sorting.
            let pairs: Box<dyn Iterator<Item = (usize, usize)>> = if any_negated {
                Box::new(self.rules_of(&slots).into_iter())
            } else {
                Box::new(slots.iter().flat_map(|&i| self.owners[i].iter().copied()))
            };
            for (rule, glob) in pairs {
                match &mut hits[rule] {
                    Some((g, _)) => *g = (*g).min(glob),
                    slot @ None => {
                        *slot = Some((glob, path_index));
                        used = true;
                    }
                }
            }
            if used {
                first_paths.push(
                    normalize(root, path).unwrap_or_else(|| path.to_string_lossy().into_owned()),
                );
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
    /// globs that matched. Empty for a path outside every glob root.
    pub fn matches(&self, root: impl AsRef<Path>, path: impl AsRef<Path>) -> Vec<PathMatch> {
        let (mut slots, mut scratch) = (Vec::new(), Vec::new());
        self.slots_into(root.as_ref(), path.as_ref(), &mut slots, &mut scratch);
        self.rules_of(&slots)
            .into_iter()
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

    /// How many distinct globs compiled (those refused are not counted).
    pub fn len(&self) -> usize {
        self.owners.len()
    }

    /// Whether no glob compiled.
    pub fn is_empty(&self) -> bool {
        self.owners.is_empty()
    }
}

impl RootIndex {
    /// The glob slots that match one normalized path (relative to this root).
    fn slots_into(&self, path: &str, out: &mut Vec<usize>, scratch: &mut Vec<usize>) {
        if let Some(slots) = self.literals.get(path) {
            out.extend_from_slice(slots);
        }
        // Each directory prefix of the path (and the empty one) that some glob starts with:
        // only the prefix lengths some glob has are looked up.
        let cuts = std::iter::once(0).chain(path.match_indices('/').map(|(i, _)| i + 1));
        for cut in cuts {
            if self.prefix_lengths.binary_search(&cut).is_err() {
                continue;
            }
            let Some(entries) = self.prefixes.get(&path[..cut]) else {
                continue;
            };
            let rest = &path[cut..];
            if rest.is_empty() {
                continue;
            }
            let candidate = globset::Candidate::new(rest);
            for (set, ids) in &self.sets {
                set.matches_candidate_into(&candidate, scratch);
                for &i in scratch.iter() {
                    if let Some(slots) = entries.get(&ids[i]) {
                        out.extend_from_slice(slots);
                    }
                }
            }
        }
    }
}

/// A pattern as its dialect reads it, relative to the glob root.
fn prepare(pattern: &str, dialect: GlobDialect) -> Prepared {
    let trimmed = pattern.trim();
    match dialect {
        // Cursor: slashless patterns match at any depth; others are root-relative.
        GlobDialect::Cursor => {
            let anchored = trimmed
                .strip_prefix("./")
                .or_else(|| trimmed.strip_prefix('/'))
                .unwrap_or(trimmed);
            let full = if anchored.contains('/') {
                anchored.to_owned()
            } else {
                format!("**/{anchored}")
            };
            Prepared {
                full,
                case_insensitive: false,
                negated: false,
            }
        }
        // VS Code (`_matches`): `**/` prefixed unless the pattern starts with `/` or `**/`;
        // case-insensitive.
        GlobDialect::VsCode => {
            let full = if let Some(rooted) = trimmed.strip_prefix('/') {
                rooted.to_owned()
            } else if trimmed.starts_with("**/") {
                trimmed.to_owned()
            } else {
                format!("**/{trimmed}")
            };
            Prepared {
                full,
                case_insensitive: true,
                negated: false,
            }
        }
        // Anchored at the root (Cline `paths`, Continue, Kiro); `!` negates.
        GlobDialect::Anchored => {
            let (negated, rest) = match trimmed.strip_prefix('!') {
                Some(rest) => (true, rest.trim_start()),
                None => (false, trimmed),
            };
            let full = rest
                .strip_prefix("./")
                .or_else(|| rest.strip_prefix('/'))
                .unwrap_or(rest)
                .to_owned();
            Prepared {
                full,
                case_insensitive: false,
                negated,
            }
        }
    }
}

/// Refuses globs too long or nested too deep to compile safely.
fn check_bounds(pattern: &str) -> Result<(), String> {
    if pattern.len() > MAX_GLOB_LEN {
        return Err(format!(
            "it is {} bytes long, more than the {MAX_GLOB_LEN} allowed",
            pattern.len()
        ));
    }
    let (mut depth, mut deepest, mut escaped) = (0usize, 0usize, false);
    for b in pattern.bytes() {
        match b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MAX_GLOB_NESTING {
        return Err(format!(
            "its `{{…}}` alternations nest {deepest} deep, more than the {MAX_GLOB_NESTING} allowed"
        ));
    }
    Ok(())
}

/// The split of a prepared pattern into a literal directory prefix and the rest; a
/// case-insensitive pattern is matched whole (its literal part is not a literal).
fn split(prepared: &Prepared) -> Result<Split, String> {
    let full = &prepared.full;
    if prepared.case_insensitive {
        compile(full, true).map_err(|e| e.to_string())?;
        return Ok(Split::Prefixed(String::new(), full.clone()));
    }
    let meta = full.find(['*', '?', '[', ']', '{', '}', '\\']);
    let Some(meta) = meta else {
        // Validate it all the same (an empty pattern, say), so errors stay the compiler's.
        compile(full, false).map_err(|e| e.to_string())?;
        return Ok(Split::Literal(full.clone()));
    };
    let cut = full[..meta].rfind('/').map_or(0, |i| i + 1);
    Ok(Split::Prefixed(
        full[..cut].to_owned(),
        full[cut..].to_owned(),
    ))
}

fn compile(pattern: &str, case_insensitive: bool) -> Result<globset::Glob, globset::Error> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(case_insensitive)
        .build()
}

fn invalid_glob(rule: &Rule, pattern: &str, why: &str) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::InvalidGlob,
        format!(
            "glob {} of rule `{}` ({}) is not used: {why}; it never matches (the rule's other globs still do)",
            shorten(pattern),
            rule.name,
            rule.path.display()
        ),
    )
    .with_path(&rule.path)
}

/// A pattern for a message: quoted, and cut to 80 characters.
fn shorten(pattern: &str) -> String {
    const MAX: usize = 80;
    match pattern.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{:?}… ({} bytes)", &pattern[..cut], pattern.len()),
        None => format!("{pattern:?}"),
    }
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
