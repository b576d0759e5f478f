//! A provider from outside the workspace's list joins the defaults without any change to
//! the registry: it only implements `Provider<RuleCapability>`.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::Path;

use rulebook::stages::kit::coerce::{
    AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy,
};
use rulebook::stages::kit::{FileLoader, LoadContext, LoadResult, ProviderError, RuleCapability};
use rulebook::{Level, Provider, Rule, RuleBucket, Rulebook};

const POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::OnlyTrue,
    GlobsPolicy::StringsOnly,
);

/// Reads `.acme/rules/*.md` at priority 60: above Cursor, below native.
struct Acme;

impl Provider<RuleCapability> for Acme {
    fn id(&self) -> &'static str {
        "acme"
    }
    fn display_name(&self) -> &'static str {
        "Acme"
    }
    fn description(&self) -> &'static str {
        "Acme rules"
    }
    fn priority(&self) -> i32 {
        60
    }
    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "acme", "Acme", POLICY);
        let mut out = LoadResult::default();
        loader.load_dir(
            &ctx.cwd.join(".acme/rules"),
            &["md"],
            Level::Project,
            Some(&ctx.cwd),
            &mut out,
        );
        Ok(out)
    }
}

#[test]
fn a_new_provider_takes_its_place_by_priority() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        ".acme/rules/style.md",
        "---\ndescription: zed style\n---\nAcme.",
    );
    write(
        ".cursor/rules/style.mdc",
        "---\ndescription: cursor style\n---\nCursor.",
    );
    let book = Rulebook::discover(
        dir.path(),
        Some(dir.path().join("home")),
        &rulebook::Options::new().provider(Acme),
    );
    let rulebook: Vec<(&str, &str)> = book
        .bucket(RuleBucket::Rulebook)
        .iter()
        .map(|r| (r.name.as_str(), r.source.provider.as_str()))
        .collect();
    assert_eq!(rulebook, [("style", "acme")]);
    let (loser, winner) = book.shadowed().next().unwrap();
    assert_eq!(
        (
            loser.source.provider.as_str(),
            winner.source.provider.as_str()
        ),
        ("cursor", "acme")
    );
    let ids: Vec<&str> = book.providers().iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "native",
            "agents",
            "claude",
            "agents-md",
            "acme",
            "copilot",
            "cursor",
            "windsurf",
            "kiro",
            "gemini",
            "cline",
            "continue",
            "roo",
            "zed"
        ]
    );
    assert!(Path::new(&book.items().next().unwrap().path).ends_with(".acme/rules/style.md"));
}
