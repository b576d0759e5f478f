//! The `agents`, Continue, Roo and Zed providers beyond what their scenarios show:
//! the ecosystem's test cases (the scenarios `agents-chain`,
//! `continue-rules`, `roo-rules`, `roo-legacy` and `zed-rules` pin the rest, both profiles).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};

use rulebook::{DiagnosticCode, Options, Profile, RuleBucket, Rulebook};

/// A scenario folder: the pipeline's in `fixtures/`, a provider's own in its crate's
/// `fixtures/` (`agents-chain` in `rulebook-provider-agents`, and so on).
fn fixture(name: &str) -> PathBuf {
    let provider = match name {
        "agents-chain" => "agents",
        "continue-rules" => "continue",
        "roo-rules" | "roo-legacy" => "roo",
        _ => "",
    };
    let dir = if provider.is_empty() {
        "../../fixtures".to_owned()
    } else {
        format!("../rulebook-provider-{provider}/fixtures")
    };
    std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join(name)).unwrap()
}

fn book(name: &str, profile: Profile) -> Rulebook {
    let root = fixture(name);
    Rulebook::discover(
        root.join("project"),
        Some(&root.join("home")),
        &Options::new()
            .profile(profile)
            .project_root(root.join("project")),
    )
}

#[test]
fn continue_globs_negations_and_colocated_files() {
    let book = book("continue-rules", Profile::Extended);
    let names =
        |path: &str| -> Vec<String> { book.matches(path).into_iter().map(|m| m.name).collect() };
    // `!src/gen/**` vetoes the rule for generated files.
    assert!(names("src/a.rs").contains(&"04-negation".to_owned()));
    assert!(!names("src/gen/b.rs").contains(&"04-negation".to_owned()));
    // Colocated files apply under their directory.
    assert!(names("packages/web/src/App.vue").contains(&"packages:web:rules".to_owned()));
    assert!(!names("packages/api/x.vue").contains(&"packages:web:rules".to_owned()));
    assert!(names("packages/api/ui/Button.tsx").contains(&"packages:api:rules".to_owned()));
    // A prompt is not a rule.
    assert!(book.items().all(|r| r.name != "06-prompt"));
}

#[test]
fn roo_reads_roorules_only_without_rules() {
    // With `.roo/rules` files the legacy file is not read; without them it is.
    let rules = book("roo-rules", Profile::Extended);
    assert!(rules.items().all(|r| r.name != "roorules"));
    let legacy = book("roo-legacy", Profile::Extended);
    let rule = legacy.items().find(|r| r.name == "roorules").unwrap();
    assert_eq!(&*rule.content, "Only .roorules: loaded.");
    assert_eq!(legacy.bucket(RuleBucket::AlwaysApply)[0].name, "roorules");
    // Raw: a leading `---` block is content.
    let b = rules.items().find(|r| r.name == "b").unwrap();
    assert!(b.content.starts_with("---\nx: 1\n---\n"), "{:?}", b.content);
    // A mode's rules are manual and readable.
    assert!(rules.resolve("rule://code:x").is_ok());
    assert!(!rules.system_prompt_section().contains("Code mode only."));
}

#[test]
fn zed_says_it_would_use_only_dot_rules() {
    // Both rules load (`.rules` by zed, AGENTS.md by agents-md); an info says Zed
    // would use only `.rules`.
    let book = book("zed-rules", Profile::Extended);
    let rule = book.items().find(|r| r.name == "rules").unwrap();
    assert_eq!(&*rule.content, "Zed rules, trimmed.");
    let info = book
        .diagnostics()
        .iter()
        .find(|d| d.code == DiagnosticCode::UnsupportedFormat)
        .unwrap();
    assert!(info.message.contains("AGENTS.md"), "{}", info.message);
}

#[test]
fn none_of_them_exist_for_the_reference_profile() {
    for name in ["agents-chain", "continue-rules", "roo-rules", "zed-rules"] {
        let book = book(name, Profile::Reference);
        assert_eq!(book.items().count(), 0, "{name}");
    }
}

/// Outside a repository under the home, the walk stops at the home, which loads once
/// as project and once as user (the user copy shadowed).
#[test]
fn agents_walk_stops_at_the_home_outside_a_repository() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("h");
    let write = |rel: &str| {
        let path = home.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "---\ndescription: d\n---\nBody.").unwrap();
    };
    write("p/.agents/rules/x.md");
    write(".agents/rules/y.md");
    let cwd = home.join("p/q");
    std::fs::create_dir_all(&cwd).unwrap();
    let book = Rulebook::discover(&cwd, Some(&home), &Options::new());
    let agents: Vec<(String, String)> = book
        .items()
        .filter(|r| r.source.provider == "agents")
        .map(|r| (r.name.clone(), format!("{:?}", r.source.level)))
        .collect();
    assert_eq!(
        agents,
        [
            ("x".to_owned(), "Project".to_owned()),
            ("y".to_owned(), "Project".to_owned())
        ]
    );
    let (loser, _) = book.shadowed().next().unwrap();
    assert_eq!(loser.name, "y");
}

/// A file only a review agent reads (`.cursor/BUGBOT.md`, `.gemini/styleguide.md`) is off
/// for the coding agent, with who reads it, and always-apply for `agent_kind=code-review`.
#[test]
fn review_only_files_apply_to_the_review_agent_only() {
    let root = fixture("review-files");
    let discover = |options: Options| {
        let options = options.project_root(root.join("project"));
        Rulebook::discover(root.join("project"), Some(&root.join("home")), &options)
    };
    let coding = discover(Options::new());
    for name in ["BUGBOT", "styleguide"] {
        let rule = coding.items().find(|r| r.name == name).unwrap();
        let placed = coding.placements().find(|(r, _)| r.name == name).unwrap().1;
        assert_eq!(placed.bucket, None, "{name}");
        assert!(
            rule.off_reason
                .as_deref()
                .unwrap()
                .contains("a pull-request review agent"),
            "{name}"
        );
    }
    let review = discover(
        Options::new()
            .provider_option("cursor", "agent_kind", "code-review")
            .provider_option("gemini", "agent_kind", "code-review"),
    );
    for name in ["BUGBOT", "styleguide"] {
        let always = review.bucket(RuleBucket::AlwaysApply);
        assert!(always.iter().any(|r| r.name == name), "{name}");
    }
}

/// Every rule of every scenario, the pipeline's and each provider crate's, can be read
/// through `rule://<name>`: no provider names a rule so that its URL cannot reach it (a
/// `/` in a name would end it).
#[test]
fn every_scenario_rule_is_reachable_through_its_url() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut scenarios: Vec<PathBuf> = Vec::new();
    let mut folders = vec![root.join("fixtures")];
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        if dir.join("fixtures").is_dir() {
            folders.push(dir.join("fixtures"));
        }
    }
    for folder in folders {
        for entry in std::fs::read_dir(folder).unwrap() {
            let dir = entry.unwrap().path();
            if dir.join("project").is_dir() && dir.join("home").is_dir() {
                scenarios.push(dir);
            }
        }
    }
    assert!(scenarios.len() >= 40, "{} scenarios", scenarios.len());
    let mut reached = 0;
    for dir in scenarios {
        let book = Rulebook::discover(
            dir.join("project"),
            Some(&dir.join("home")),
            &Options::new().project_root(dir.join("project")),
        );
        for rule in book.items() {
            let url = format!("rule://{}", rule.name);
            let resource = book
                .resolve(&url)
                .unwrap_or_else(|e| panic!("{}: {url}: {e}", dir.display()));
            assert_eq!(resource.name, rule.name, "{}: {url}", dir.display());
            reached += 1;
        }
    }
    assert!(reached >= 200, "only {reached} rules");
}
