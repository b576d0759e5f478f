//! What the server answers, computed from one [`Rulebook`]: plain functions over a
//! snapshot, with no protocol types, so each is tested on its own and the protocol layer
//! only wraps them.

use rulebook::stages::protocol::rule_uri;
use rulebook::{Rulebook, Severity};
use rulebook_check::{CheckOptions, check};
use serde::Serialize;

use rulebook_report::finding;
pub use rulebook_report::{
    AppliedRule, Cut, Explanation, FileRules, Finding, MAX_HITS, MAX_PATHS, RuleStory,
    RulesForPaths,
};

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
        .map(|rule| resource(book, rule))
        .collect()
}

/// The resource of one rule of `book`.
pub fn resource(book: &Rulebook, rule: &rulebook::Rule) -> RuleResource {
    RuleResource {
        uri: uri(&rule.name),
        name: rule.name.clone(),
        description: rule.description.clone(),
        size: rule.content.len(),
        path: book.display_path(&rule.path),
        content: rule.content.clone(),
    }
}

/// `skill://<name>`, percent-encoded where needed.
pub fn skill_uri(name: &str) -> String {
    format!(
        "skill://{}",
        rulebook::stages::protocol::percent_encode(name)
    )
}

/// Every skill a tool would list, as `skill://<name>` resources after the rules (the size
/// and content are the `SKILL.md` file's, what `resources/read` returns).
pub fn skill_resources(book: &Rulebook) -> Vec<RuleResource> {
    book.skills()
        .into_iter()
        .map(|skill| {
            // Read as `resources/read` and `rulebook read` read it: within the size cap, and
            // the opened file checked against the project boundary.
            let text: std::sync::Arc<str> = book
                .resolve_skill(&skill_uri(&skill.name))
                .map_or_else(|_| skill.content.clone(), |r| r.content.into());
            RuleResource {
                uri: skill_uri(&skill.name),
                name: skill.name.clone(),
                description: skill.description.clone(),
                size: text.len(),
                path: book.display_path(&skill.path),
                content: text,
            }
        })
        .collect()
}

/// The skill names completing `prefix` (with or without `skill://`), at most `limit`, in
/// the catalog's order, and how many there were.
pub fn complete_skills(book: &Rulebook, prefix: &str, limit: usize) -> (Vec<String>, usize) {
    let prefix = rulebook::skill_url_rest(prefix).unwrap_or(prefix);
    let names: Vec<String> = book
        .skills()
        .into_iter()
        .filter(|s| s.name.starts_with(prefix))
        .map(|s| s.name.clone())
        .collect();
    let total = names.len();
    (names.into_iter().take(limit).collect(), total)
}

/// The names completing `prefix` (with or without `rule://`), at most `limit`, and
/// whether there were more.
pub fn complete(book: &Rulebook, prefix: &str, limit: usize) -> (Vec<String>, usize) {
    let all = book.complete(prefix);
    let total = all.len();
    (all.into_iter().take(limit).map(|c| c.name).collect(), total)
}

/// The rules that apply to each of `paths`: [`RulesForPaths::new`].
pub fn rules_for_paths(book: &Rulebook, paths: &[String]) -> RulesForPaths {
    RulesForPaths::new(book, paths)
}

/// The system-prompt section, with the rules whose globs match `paths` attached (Extended).
pub fn prompt(book: &Rulebook, paths: &[String]) -> String {
    book.system_prompt_section_for(paths)
}

/// Why each rule file is or is not seen: [`Explanation::new`].
pub fn explain(book: &Rulebook, name: Option<&str>) -> Option<Explanation> {
    Explanation::new(book, name)
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
