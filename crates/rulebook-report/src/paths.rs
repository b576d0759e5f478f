//! The rules that apply to given paths: the always-apply rules once, then each path's glob
//! matches, bounded so a hostile list of paths gets an answer of bounded size.

use std::path::Path;

use rulebook::stages::protocol::rule_uri;
use rulebook::{Rule, RuleBucket, Rulebook};
use serde::Serialize;

use crate::text;

/// The most paths one `rules_for_paths` call or one prompt may name; more is an
/// invalid-params error (a hostile 10 MB list is answered, not worked through).
pub const MAX_PATHS: usize = 10_000;

/// One rule that applies to a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppliedRule {
    /// The rule's name.
    pub name: String,
    /// `always-apply` (every file) or `glob`.
    pub by: &'static str,
    /// The glob that matched (`by: glob`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub glob: Option<String>,
    /// Where the rule applies when not the whole project (`applies under apps/api/`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// The bucket it is in.
    pub bucket: Option<&'static str>,
    /// The provider that read it (`cursor`).
    pub provider: String,
    /// The file it came from.
    pub path: String,
    /// `rule://<name>`, to read its body, when it is readable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}

/// The rules that apply to one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileRules {
    /// The path as it was asked.
    pub path: String,
    /// Whether it is inside the project (only such files match globs).
    pub inside_project: bool,
    /// The rules whose globs match it, in precedence order (the always-apply rules of
    /// [`RulesForPaths::always_apply`] apply too).
    pub rules: Vec<AppliedRule>,
}

/// The answer of `rules_for_paths`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RulesForPaths {
    /// `extended` or `reference` (which never attaches by glob: its glob matches are
    /// what Extended would attach).
    pub profile: &'static str,
    /// The always-apply rules, in precedence order: they apply to every path, inside the
    /// project or not, and are listed once here rather than under each path.
    pub always_apply: Vec<AppliedRule>,
    /// One entry per path asked, in the order asked (up to the bound of [`MAX_HITS`]).
    pub paths: Vec<FileRules>,
    /// Set when the answer stops before the last path: the rules of all the paths past
    /// [`MAX_HITS`] entries would have made a reply of unbounded size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<Cut>,
}

/// Where a `rules_for_paths` answer stopped, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cut {
    /// How many of the paths asked were answered (the first ones).
    pub paths_answered: usize,
    /// How many were asked.
    pub paths_asked: usize,
    /// Why, in one sentence.
    pub reason: String,
}

/// The most glob matches one `rules_for_paths` answer holds, over all its paths (10,000
/// paths matched by 300 rules each would be 3 million entries; the always-apply rules,
/// listed once, do not count).
pub const MAX_HITS: usize = 50_000;

impl RulesForPaths {
    /// The rules that apply to each of `paths` (relative to the project, or absolute under it):
    /// the always-apply rules once (they apply to every path), then each path's glob matches.
    pub fn new(book: &Rulebook, paths: &[String]) -> Self {
        let rules: Vec<&Rule> = book.items().collect();
        let readable: std::collections::HashSet<&str> = book
            .resolvable()
            .into_iter()
            .map(|r| r.name.as_str())
            .collect();
        let applied = |position: usize, glob: Option<String>| {
            let rule = rules[position];
            AppliedRule {
                name: rule.name.clone(),
                by: if glob.is_some() {
                    "glob"
                } else {
                    "always-apply"
                },
                glob,
                scope: book.scope(rule),
                bucket: book
                    .placement(position)
                    .and_then(|p| p.bucket)
                    .map(RuleBucket::as_str),
                provider: rule.source.provider.clone(),
                path: book.display_path(&rule.path),
                uri: readable
                    .contains(rule.name.as_str())
                    .then(|| rule_uri(&rule.name)),
            }
        };
        let always_apply = (0..rules.len())
            .filter(|&position| {
                book.placement(position)
                    .is_some_and(|p| p.bucket == Some(RuleBucket::AlwaysApply))
            })
            .map(|position| applied(position, None))
            .collect();
        let mut hits = 0usize;
        let mut cut = None;
        let asked = paths.len();
        let paths = paths
        .iter()
        .enumerate()
        .map_while(|(i, path)| {
            let found = book.rules_for_path(Path::new(path));
            let matched: Vec<_> = found
                .hits
                .into_iter()
                .filter_map(|hit| hit.glob.map(|glob| (hit.position, glob)))
                .collect();
            hits += matched.len();
            if hits > MAX_HITS && i > 0 {
                cut = Some(Cut {
                    paths_answered: i,
                    paths_asked: asked,
                    reason: format!(
                        "the glob matches of the first {i} paths fill the {MAX_HITS} entries one answer holds; ask again for the rest"
                    ),
                });
                return None;
            }
            Some(FileRules {
                path: path.clone(),
                inside_project: found.inside_project,
                rules: matched
                    .into_iter()
                    .map(|(position, glob)| applied(position, Some(glob)))
                    .collect(),
            })
        })
        .collect();
        Self {
            profile: text::profile(book),
            always_apply,
            paths,
            cut,
        }
    }
}
