//! The load context a provider reads (options, nested directories, limits, the project root)
//! and what the registry makes of providers' nested names and of invalid rules.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
#![allow(clippy::unnecessary_literal_bound, reason = "the trait returns &str")]

use std::collections::BTreeMap;
use std::path::PathBuf;

use rulebook_registry::{
    LoadContext, LoadResult, Provider, ProviderError, ProviderMeta, Registry, rules::RuleCapability,
};
use rulebook_rule::{DEFAULT_MAX_FILE_SIZE, Level, Profile, Rule, SourceMeta};

#[test]
fn provider_options_are_read_by_provider_and_key() {
    let ctx = LoadContext::new("/p", "/h").provider_option("claude", "depth", "4");
    assert_eq!(ctx.option("claude", "depth"), Some("4"));
    assert_eq!(ctx.option("claude", "other"), None);
    assert_eq!(ctx.option("gemini", "depth"), None);
}

#[test]
fn nested_directories_are_listed_by_name() {
    let ctx = LoadContext::new("/p", "/h");
    assert!(
        ctx.nested_dirs("AGENTS.md").is_empty(),
        "none before the walk"
    );
    let ctx = ctx.nested(BTreeMap::from([(
        "AGENTS.md".to_owned(),
        vec![PathBuf::from("/p/a"), PathBuf::from("/p/b")],
    )]));
    assert_eq!(
        ctx.nested_dirs("AGENTS.md"),
        [PathBuf::from("/p/a"), PathBuf::from("/p/b")]
    );
    assert!(ctx.nested_dirs(".cursor").is_empty());
}

#[test]
fn the_size_cap_follows_the_profile() {
    let extended = LoadContext::new("/p", "/h").profile(Profile::Extended);
    assert_eq!(extended.size_cap(), Some(DEFAULT_MAX_FILE_SIZE));
    assert_eq!(extended.max_file_size(10).size_cap(), Some(10));
    let reference = LoadContext::new("/p", "/h").profile(Profile::Reference);
    assert_eq!(reference.size_cap(), None);
    assert_eq!(
        reference.max_file_size(10).size_cap(),
        None,
        "the original has no cap"
    );
}

#[test]
fn the_project_root_is_the_nearest_directory_with_a_marker() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("repo/apps/api")).unwrap();
    std::fs::write(root.join("repo/package.json"), "{}").unwrap();
    let ctx =
        LoadContext::new(root.join("repo/apps/api"), "/h").project_root_markers(&["package.json"]);
    assert_eq!(ctx.project_root, root.join("repo"));
    let ctx = LoadContext::new(root.join("repo/apps/api"), "/h")
        .project_root_markers(&["no-such-marker"]);
    assert_eq!(
        ctx.project_root,
        root.join("repo/apps/api"),
        "no marker: the cwd"
    );
}

struct Named(ProviderMeta, Vec<Rule>);

fn named(id: &'static str, nested: &'static [&'static str], rules: Vec<Rule>) -> Named {
    Named(
        ProviderMeta::new(id, id, "test", 0).with_nested_names(nested),
        rules,
    )
}

impl Provider<RuleCapability> for Named {
    fn info(&self) -> &ProviderMeta {
        &self.0
    }
    fn load(&self, _: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        Ok(LoadResult::new(self.1.clone()))
    }
}

struct Plain;
impl Provider<RuleCapability> for Plain {
    fn info(&self) -> &ProviderMeta {
        static INFO: ProviderMeta =
            ProviderMeta::new("plain", "Plain", "no nested names, no known keys", 0);
        &INFO
    }
    fn load(&self, _: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        Ok(LoadResult::default())
    }
}

fn rule(name: &str, content: &str) -> Rule {
    Rule::new(
        name,
        format!("/p/{name}.md"),
        content,
        SourceMeta::new("a", "A", Level::Project, "/p"),
    )
}

#[test]
fn nested_names_are_the_enabled_providers_once_each() {
    assert!(Plain.info().nested_names().next().is_none() && Plain.info().known_keys().is_empty());
    let mut registry = Registry::<RuleCapability>::new()
        .with(named("a", &[".cursor", "AGENTS.md"], vec![]))
        .with(named("b", &["AGENTS.md", "CLAUDE.md"], vec![]))
        .with(Plain);
    assert_eq!(
        registry.nested_names(),
        [".cursor", "AGENTS.md", "CLAUDE.md"]
    );
    registry.disable("b");
    assert_eq!(registry.nested_names(), [".cursor", "AGENTS.md"]);
    let debug = format!("{registry:?}");
    assert!(
        debug.contains("Registry") && debug.contains("plain"),
        "{debug}"
    );
}

/// A rule without content is invalid, with the original's reason, and never active; the
/// same in a parallel and a sequential load.
#[test]
fn invalid_rules_are_listed_with_their_reason() {
    for parallel in [true, false] {
        let mut registry = Registry::<RuleCapability>::new().with(named(
            "a",
            &[],
            vec![rule("good", "x"), rule("empty", "")],
        ));
        registry.parallel(parallel);
        let ctx = LoadContext::new("/p", "/h").profile(Profile::Extended);
        let loaded = registry.load(&ctx);
        let active: Vec<&str> = loaded.items().map(|r| r.name.as_str()).collect();
        assert_eq!(active, ["good"]);
        let invalid: Vec<(&str, &str)> = loaded
            .invalid()
            .map(|(e, why)| (e.item.name.as_str(), why))
            .collect();
        assert_eq!(
            invalid,
            [("empty", "Rule must have content")],
            "parallel: {parallel}"
        );
        // The warning names the file, so a person can find it.
        let warning = loaded
            .diagnostics
            .iter()
            .find(|d| d.code == rulebook_rule::DiagnosticCode::InvalidItem)
            .unwrap();
        assert_eq!(
            warning.path.as_deref(),
            Some(std::path::Path::new("/p/empty.md"))
        );
        assert_eq!(
            warning.message,
            "Invalid item at /p/empty.md: Rule must have content"
        );
    }
}

fn rule_at(name: &str, path: &str, real: Option<&str>) -> Rule {
    let mut source = SourceMeta::new("a", "A", Level::Project, "/p");
    source.real_path = real.map(PathBuf::from);
    Rule::new(name, path, "x", source)
}

/// Rules are told apart by name (the first provider's stands), and, in Extended, one file
/// under two names (`CLAUDE.md -> AGENTS.md`) is one rule: the second is the same file.
#[test]
fn names_and_files_are_deduplicated() {
    let first = named(
        "first",
        &[],
        vec![rule_at("agents", "/p/AGENTS.md", Some("/p/AGENTS.md"))],
    );
    let second = named(
        "second",
        &[],
        vec![
            rule_at("claude", "/p/CLAUDE.md", Some("/p/AGENTS.md")),
            rule_at("agents", "/p/other/AGENTS.md", Some("/p/other/AGENTS.md")),
            rule_at("own", "/p/own.md", None),
        ],
    );
    let registry = Registry::<RuleCapability>::new().with(first).with(second);
    let names = |profile| {
        let loaded = registry.load(&LoadContext::new("/p", "/h").profile(profile));
        let active: Vec<String> = loaded.items().map(|r| r.name.clone()).collect();
        let left: Vec<(String, String)> = loaded
            .shadowed()
            .map(|(l, w)| (l.item.name.clone(), w.item.name.clone()))
            .collect();
        (active, left)
    };
    let (active, left) = names(Profile::Extended);
    assert_eq!(active, ["agents", "own"]);
    assert_eq!(
        left,
        [
            ("claude".to_owned(), "agents".to_owned()),
            ("agents".to_owned(), "agents".to_owned())
        ]
    );
    let (active, left) = names(Profile::Reference);
    assert_eq!(
        active,
        ["agents", "claude", "own"],
        "Reference keeps both names"
    );
    assert_eq!(left, [("agents".to_owned(), "agents".to_owned())]);
}
