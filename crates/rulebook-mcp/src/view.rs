//! What the server answers, computed from one [`Rulebook`]: plain functions over a
//! snapshot, with no protocol types, so each is tested on its own and the protocol layer
//! only wraps them.

use std::path::Path;

use rulebook::stages::protocol::rule_uri;
use rulebook::{Diagnostic, Profile, Rule, RuleBucket, Rulebook, Severity};
use rulebook_check::{CheckOptions, check};
use serde::Serialize;

/// The most paths one `rules_for_paths` call or one prompt may name; more is an
/// invalid-params error (a hostile 10 MB list is answered, not worked through).
pub const MAX_PATHS: usize = 10_000;

/// One readable rule, as a `rule://` resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleResource {
    /// `rule://<name>`, percent-encoded where needed.
    pub uri: String,
    /// The rule's name.
    pub name: String,
    /// Its description, if it has one.
    pub description: Option<String>,
    /// The body's size in bytes (what `resources/read` returns).
    pub size: usize,
    /// The file it came from, as a person names it.
    pub path: String,
    /// The body (shared with the rule, not copied), to tell a changed rule from an
    /// unchanged one.
    #[serde(skip)]
    pub content: std::sync::Arc<str>,
}

/// `rule://<name>`, percent-encoded where needed.
fn uri(name: &str) -> String {
    rule_uri(name)
}

/// Every rule `rule://` resolves, once per name, in resolution order (the first of a name
/// is the one a read returns).
pub fn resources(book: &Rulebook) -> Vec<RuleResource> {
    let mut seen = std::collections::HashSet::new();
    book.resolvable()
        .into_iter()
        .filter(|rule| seen.insert(rule.name.as_str()))
        .map(|rule| RuleResource {
            uri: uri(&rule.name),
            name: rule.name.clone(),
            description: rule.description.clone(),
            size: rule.content.len(),
            path: book.display_path(&rule.path),
            content: rule.content.clone(),
        })
        .collect()
}

/// The names completing `prefix` (with or without `rule://`), at most `limit`, and
/// whether there were more.
pub fn complete(book: &Rulebook, prefix: &str, limit: usize) -> (Vec<String>, usize) {
    let all = book.complete(prefix);
    let total = all.len();
    (all.into_iter().take(limit).map(|c| c.name).collect(), total)
}

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

fn profile(book: &Rulebook) -> &'static str {
    match book.profile() {
        Profile::Reference => "reference",
        Profile::Extended => "extended",
    }
}

/// The rules that apply to each of `paths` (relative to the project, or absolute under it):
/// the always-apply rules once (they apply to every path), then each path's glob matches.
pub fn rules_for_paths(book: &Rulebook, paths: &[String]) -> RulesForPaths {
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
                .then(|| uri(&rule.name)),
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
    RulesForPaths {
        profile: profile(book),
        always_apply,
        paths,
        cut,
    }
}

/// The system-prompt section, with the rules whose globs match `paths` attached (Extended).
pub fn prompt(book: &Rulebook, paths: &[String]) -> String {
    book.system_prompt_section_for(paths)
}

/// A warning or finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// `error`, `warning` or `info`.
    pub severity: &'static str,
    /// The code (`yaml-syntax`).
    pub code: &'static str,
    /// The file, as a person names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 1-based line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

fn finding(book: &Rulebook, d: &Diagnostic) -> Finding {
    Finding {
        severity: severity(d.severity),
        code: d.code.as_str(),
        path: d.path.as_deref().map(|p| book.display_path(p)),
        line: d.line,
        message: book.display_message(&d.message),
    }
}

/// What happened to one rule file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleStory {
    /// The rule's name.
    pub name: String,
    /// The provider that read it.
    pub provider: String,
    /// `project` or `user`.
    pub level: &'static str,
    /// The file.
    pub path: String,
    /// `active`, `shadowed` or `invalid`.
    pub status: &'static str,
    /// The bucket of an active rule; `null` when it landed in none.
    pub bucket: Option<&'static str>,
    /// Why: the rule that shadows it, why it is invalid, why it is in no bucket.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Where it applies when not the whole project.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Its globs.
    pub globs: Vec<String>,
    /// Its description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The answer of `explain`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// The profile.
    pub profile: &'static str,
    /// Every rule file (or the named rule's files), in discovery order.
    pub rules: Vec<RuleStory>,
    /// The warnings of discovery (about those files, when a name was given).
    pub warnings: Vec<Finding>,
}

/// Why each rule file is or is not seen; with `name`, only the files of that name
/// (`None` when no file has it).
pub fn explain(book: &Rulebook, name: Option<&str>) -> Option<Explanation> {
    let positions: std::collections::HashMap<*const Rule, usize> = book
        .items()
        .enumerate()
        .map(|(i, r)| (std::ptr::from_ref(r), i))
        .collect();
    let shadowed: std::collections::HashMap<*const Rule, &Rule> = book
        .shadowed()
        .map(|(r, w)| (std::ptr::from_ref(r), w))
        .collect();
    let invalid: std::collections::HashMap<*const Rule, &str> = book
        .invalid()
        .map(|(r, why)| (std::ptr::from_ref(r), why))
        .collect();
    let mut rules = Vec::new();
    for entry in book.all() {
        let rule = &entry.item;
        if name.is_some_and(|n| n != rule.name) {
            continue;
        }
        let key = std::ptr::from_ref(rule);
        let position = positions.get(&key).copied();
        let (status, bucket, reason) = if let Some(position) = position {
            let placement = book.placement(position);
            let bucket = placement.and_then(|p| p.bucket).map(RuleBucket::as_str);
            let reason = placement
                .filter(|p| p.bucket.is_none())
                .and_then(|p| p.reason.as_deref())
                .map(|r| book.display_message(r));
            ("active", bucket, reason)
        } else if let Some(winner) = shadowed.get(&key) {
            (
                "shadowed",
                None,
                Some(format!(
                    "shadowed by {} ({}, {})",
                    winner.name,
                    winner.source.provider,
                    book.display_path(&winner.path)
                )),
            )
        } else if let Some(why) = invalid.get(&key) {
            ("invalid", None, Some(book.display_message(why)))
        } else {
            ("invalid", None, None)
        };
        rules.push(RuleStory {
            name: rule.name.clone(),
            provider: rule.source.provider.clone(),
            level: match rule.source.level {
                rulebook::Level::User => "user",
                rulebook::Level::Project => "project",
            },
            path: book.display_path(&rule.path),
            status,
            bucket,
            reason,
            scope: book.scope(rule),
            globs: rule.globs.clone().unwrap_or_default(),
            description: rule.description.clone(),
        });
    }
    if name.is_some() && rules.is_empty() {
        return None;
    }
    let paths: Vec<&Path> = book
        .all()
        .iter()
        .filter(|e| name.is_none_or(|n| n == e.item.name))
        .map(|e| e.item.path.as_path())
        .collect();
    let warnings = book
        .diagnostics()
        .iter()
        .filter(|d| name.is_none() || d.path.as_deref().is_some_and(|p| paths.contains(&p)))
        .map(|d| finding(book, d))
        .collect();
    Some(Explanation {
        profile: profile(book),
        rules,
        warnings,
    })
}

/// The answer of `check`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckSummary {
    /// Whether `rulebook check` would fail (an error was found).
    pub failed: bool,
    /// How many errors.
    pub errors: usize,
    /// How many warnings.
    pub warnings: usize,
    /// How many infos.
    pub infos: usize,
    /// The findings, by file then line.
    pub findings: Vec<Finding>,
}

/// Lints the rule files as `rulebook check` does (default selection, not strict).
pub fn check_rules(book: &Rulebook) -> CheckSummary {
    let report = check(book, &CheckOptions::new());
    CheckSummary {
        failed: report.failed(),
        errors: report.count(Severity::Error),
        warnings: report.count(Severity::Warning),
        infos: report.count(Severity::Info),
        findings: report.findings.iter().map(|d| finding(book, d)).collect(),
    }
}
