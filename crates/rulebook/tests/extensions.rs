//! The Extended profile's additions that are not visible in discovery alone, each under
//! both profiles side by side: E3 (globs attach rules), E5 (rule:// resolves TTSR
//! rules), E6 (completions), E9 (size cap).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fmt::Write;
use std::path::{Path, PathBuf};

use rulebook::{DiagnosticCode, Options, Profile, Rulebook};

fn fixture(name: &str) -> PathBuf {
    std::fs::canonicalize(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures")
            .join(name),
    )
    .unwrap()
}

fn discover(name: &str, profile: Profile) -> Rulebook {
    let root = fixture(name);
    Rulebook::discover(
        root.join("project"),
        Some(&root.join("home")),
        &Options::new().profile(profile),
    )
}

fn side_by_side(f: impl Fn(&Rulebook) -> String, name: &str) -> String {
    let mut out = String::new();
    for profile in [Profile::Reference, Profile::Extended] {
        let book = discover(name, profile);
        writeln!(out, "=== {profile:?} ===\n{}\n=== end ===", f(&book)).unwrap();
    }
    out
}

#[test]
fn e3_prompt_attaches_rules_by_glob() {
    let paths = ["src/app.ts", "db/migrations/001.sql", "README.md"];
    insta::assert_snapshot!(side_by_side(
        |book| book.system_prompt_section_for(paths),
        "e3-globs"
    ));
}

#[test]
fn e3_applicable() {
    let book = discover("e3-globs", Profile::Extended);
    let hits: Vec<String> = book
        .applicable(["web/x.tsx", "db/migrations/2024/a.sql", "/elsewhere/a.ts"])
        .into_iter()
        .map(|a| format!("{} {}", a.name, a.glob))
        .collect();
    assert_eq!(
        hits,
        ["migrations db/migrations/**", "todo **", "typescript *.tsx"]
    );
}

#[test]
fn e5_rule_urls_reach_ttsr_rules() {
    insta::assert_snapshot!(side_by_side(
        |book| match book.resolve("rule://todo") {
            Ok(r) => format!("ok: {}", r.content),
            Err(e) => format!("error: {e}"),
        },
        "e3-globs"
    ));
}

#[test]
fn e6_completions() {
    insta::assert_snapshot!(side_by_side(
        |book| {
            book.complete("rule://")
                .into_iter()
                .map(|c| format!("{} {:?}", c.url, c.description))
                .collect::<Vec<_>>()
                .join("\n")
        },
        "demo"
    ));
}

#[test]
fn e9_size_cap() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join(".xcsh/rules");
    std::fs::create_dir_all(&rules).unwrap();
    let mut big = String::from("---\ndescription: huge\n---\n");
    big.push_str(&"x".repeat(2 * 1024 * 1024));
    std::fs::write(rules.join("huge.md"), &big).unwrap();
    std::fs::write(rules.join("small.md"), "---\ndescription: small\n---\nok").unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let names = |book: &Rulebook| book.items().map(|r| r.name.clone()).collect::<Vec<_>>();

    let reference = Rulebook::discover(
        dir.path(),
        Some(&home),
        &Options::new().profile(Profile::Reference),
    );
    assert_eq!(names(&reference), ["huge", "small"]);

    let extended = Rulebook::discover(dir.path(), Some(&home), &Options::new());
    assert_eq!(names(&extended), ["small"]);
    let d = &extended.diagnostics()[0];
    assert_eq!(d.code, DiagnosticCode::TooLarge);
    assert!(d.message.contains("1048576-byte limit"), "{}", d.message);

    // Configurable.
    let raised = Rulebook::discover(
        dir.path(),
        Some(&home),
        &Options::new().max_file_size(4 * 1024 * 1024),
    );
    assert_eq!(names(&raised), ["huge", "small"]);
}

/// A skill for a person to invoke (`disable-model-invocation: true`) is not offered to the
/// model in Extended, as Claude Code, Copilot CLI and the OpenHands SDK leave it out of
/// their listings; `skill://` still serves it. Reference lists it, as the original did.
#[test]
fn a_skill_for_people_only_is_not_offered_to_the_model() {
    let dir = tempfile::tempdir().unwrap();
    for (name, extra) in [("deploy", "disable-model-invocation: true\n"), ("pdf", "")] {
        let folder = dir.path().join(format!("p/.xcsh/skills/{name}"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: the {name} skill\n{extra}---\nBody of {name}\n"
            ),
        )
        .unwrap();
    }
    let book = |profile| {
        Rulebook::discover(
            dir.path().join("p"),
            Some(&dir.path().join("h")),
            &Options::new().profile(profile),
        )
    };
    let extended = book(Profile::Extended);
    let prompt = extended.system_prompt_section();
    assert!(
        prompt.contains("the pdf skill") && !prompt.contains("deploy"),
        "{prompt}"
    );
    assert!(
        extended
            .skill("deploy")
            .unwrap()
            .content
            .contains("Body of deploy")
    );
    assert!(
        book(Profile::Reference)
            .system_prompt_section()
            .contains("the deploy skill")
    );
}
