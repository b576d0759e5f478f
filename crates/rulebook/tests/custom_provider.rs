//! A provider from outside the workspace's list joins the defaults without any change to
//! the registry: it only implements `Provider<RuleCapability>`.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::Path;

use rulebook::stages::kit::coerce::{
    AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy,
};
use rulebook::stages::kit::{FileLoader, LoadContext, LoadResult, ProviderError, RuleCapability};
use rulebook::{Level, Provider, ProviderMeta, Rule, RuleBucket, Rulebook};

const POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::OnlyTrue,
    GlobsPolicy::StringsOnly,
);

/// Reads `.acme/rules/*.md` at priority 60: above Cursor, below native.
struct Acme;

impl Provider<RuleCapability> for Acme {
    fn info(&self) -> &ProviderMeta {
        static INFO: ProviderMeta = ProviderMeta::new("acme", "Acme", "Acme rules", 60);
        &INFO
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
        Some(&dir.path().join("home")),
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
            "qwen",
            "cline",
            "continue",
            "copilot-cli",
            "roo",
            "kilo-cli",
            "kilocode",
            "opencode",
            "amazonq",
            "trae",
            "augment",
            "junie",
            "warp",
            "crush",
            "zed",
            "goose",
            "openhands",
            "firebase",
            "jetbrains-ai"
        ]
    );
    assert!(Path::new(&book.items().next().unwrap().path).ends_with(".acme/rules/style.md"));
}

/// A provider added through `Options::provider` keeps what it says of itself: the profiles
/// it serves (an Extended-only one is not loaded under Reference) and the nested names it
/// wants found below the working directory (handed over in `LoadContext::nested`).
#[test]
fn an_added_provider_keeps_its_profiles_and_nested_names() {
    struct Nested;
    impl Provider<RuleCapability> for Nested {
        fn info(&self) -> &ProviderMeta {
            static INFO: ProviderMeta = ProviderMeta::new(
                "nested-acme",
                "Nested Acme",
                "one rule per .acme-rule file found below the working directory",
                5,
            )
            .with_nested_names(&[".acme-rule"])
            .with_profiles(&[rulebook::Profile::Extended]);
            &INFO
        }
        fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
            let loader = FileLoader::new(ctx, "nested-acme", "Nested Acme", POLICY);
            let mut out = LoadResult::default();
            for dir in ctx.nested_dirs(".acme-rule") {
                let name = format!("nested-{}", out.items.len());
                loader.load_file(
                    &dir.join(".acme-rule"),
                    &name,
                    Level::Project,
                    Some(&ctx.cwd),
                    &mut out,
                );
            }
            Ok(out)
        }
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    std::fs::create_dir_all(dir.path().join("pkg")).unwrap();
    std::fs::write(dir.path().join("pkg/.acme-rule"), "Nested.").unwrap();
    let discover = |profile| {
        Rulebook::discover(
            dir.path(),
            Some(&dir.path().join("home")),
            &rulebook::Options::new().profile(profile).provider(Nested),
        )
    };
    let of = |book: &Rulebook| {
        book.items()
            .filter(|r| r.source.provider == "nested-acme")
            .count()
    };
    assert_eq!(of(&discover(rulebook::Profile::Extended)), 1);
    assert_eq!(of(&discover(rulebook::Profile::Reference)), 0);
}

/// A provider declares the options it reads (`ProviderMeta::with_options`);
/// an option a registered provider does not read, or a value it does not take, is an error
/// diagnostic naming what it reads; an option of a provider no table knows (a misspelt id)
/// is an error naming the nearest id.
#[test]
fn provider_options_a_provider_does_not_read_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let options = rulebook::Options::new()
        .provider_option("claude", "walk_ceiling", dir.path().to_string_lossy())
        .provider_option("claude", "nope", "1")
        .provider_option("copilot", "agent_kind", "reviewer")
        .provider_option("cline", "strict", "true")
        .provider_option("cursr", "agent_kind", "code-review");
    let book = Rulebook::discover(dir.path(), Some(&dir.path().join("home")), &options);
    let mut ids: Vec<String> = book.providers().iter().map(|p| p.id.clone()).collect();
    ids.sort();
    let errors: Vec<(rulebook::DiagnosticCode, String)> = book
        .diagnostics()
        .iter()
        .filter(|d| d.severity == rulebook::Severity::Error)
        .map(|d| (d.code, d.to_string()))
        .collect();
    assert_eq!(
        errors,
        [
            (
                rulebook::DiagnosticCode::InvalidOption,
                "[Claude Code] provider option claude.nope=1 is not used: `claude` has no option `nope`; its options: allow_external_imports, walk_ceiling".to_owned()
            ),
            (
                rulebook::DiagnosticCode::InvalidOption,
                "[GitHub Copilot] provider option copilot.agent_kind=reviewer is not used: copilot.agent_kind is one of coding-agent, code-review".to_owned()
            ),
            (
                rulebook::DiagnosticCode::InvalidOption,
                "[Cline] provider option cline.strict=true is not used: `cline` takes no options".to_owned()
            ),
            (
                rulebook::DiagnosticCode::InvalidOption,
                format!(
                    "provider option cursr.agent_kind=code-review is not used: there is no provider `cursr` (did you mean `cursor`?); the providers: {}",
                    ids.join(", ")
                )
            ),
        ]
    );
}

/// Without the default table, no provider id is known but the registered ones: an option
/// for any other is an error, as it would reach no one.
#[test]
fn an_option_for_a_provider_of_no_table_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let options = rulebook::stages::discover::Options::<rulebook::NoProviders>::new()
        .provider_option("claude", "walk_ceiling", dir.path().to_string_lossy());
    let book = Rulebook::discover(dir.path(), Some(&dir.path().join("home")), &options);
    let errors: Vec<String> = book
        .diagnostics()
        .iter()
        .filter(|d| d.severity == rulebook::Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errors,
        ["provider option claude.walk_ceiling=".to_owned()
            + &dir.path().to_string_lossy()
            + " is not used: there is no provider `claude`; no provider is registered"]
    );
}
