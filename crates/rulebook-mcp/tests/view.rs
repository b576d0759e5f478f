//! What the server answers, on the demo fixture, under both profiles: the resources, the
//! rules for some files, the stories of `explain`, the findings of `check`, the prompt.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::PathBuf;

use rulebook::{Options, Profile, Rulebook};
use rulebook_mcp::view;

fn demo(profile: Profile) -> Rulebook {
    let demo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/demo");
    Rulebook::discover(
        demo.join("project"),
        Some(&demo.join("home")),
        &Options::new().profile(profile),
    )
}

fn pretty<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap()
}

fn both(what: impl Fn(&Rulebook) -> String) -> String {
    format!(
        "== extended\n{}\n\n== reference\n{}\n",
        what(&demo(Profile::Extended)),
        what(&demo(Profile::Reference))
    )
}

#[test]
fn resources_are_the_readable_rules_once_each_in_resolution_order() {
    insta::assert_snapshot!(both(|book| pretty(&view::resources(book))));
}

#[test]
fn a_resource_is_what_resolve_reads() {
    let book = demo(Profile::Extended);
    for resource in view::resources(&book) {
        let read = book.resolve(&resource.uri).unwrap();
        assert_eq!(read.content, *resource.content);
        assert_eq!(read.content.len(), resource.size);
    }
}

#[test]
fn rules_for_paths_gives_always_apply_and_glob_hits_with_their_uri() {
    let paths = [
        "src/web/cart.ts",
        "api/orders.py",
        "README.md",
        "../elsewhere.ts",
    ]
    .map(str::to_owned);
    insta::assert_snapshot!(both(|book| pretty(&view::rules_for_paths(book, &paths))));
}

#[test]
fn explain_tells_each_files_fate() {
    insta::assert_snapshot!(both(|book| pretty(&view::explain(book, None).unwrap())));
}

#[test]
fn explain_of_one_name_gives_its_files_and_none_for_an_unknown_name() {
    let book = demo(Profile::Extended);
    let one = view::explain(&book, Some("typescript")).unwrap();
    let statuses: Vec<_> = one
        .rules
        .iter()
        .map(|r| (r.provider.as_str(), r.status))
        .collect();
    assert_eq!(statuses, [("native", "active"), ("cursor", "shadowed")]);
    assert!(
        one.rules[1].reason.as_deref().is_some_and(
            |r| r.starts_with("shadowed by typescript (native, .xcsh/rules/typescript.md)")
        ),
        "{:?}",
        one.rules[1].reason
    );
    assert!(view::explain(&book, Some("no-such-rule")).is_none());
    // The warnings of one rule are those about its own files.
    assert!(one.warnings.is_empty(), "{:?}", one.warnings);
    let broken = view::explain(&book, Some("react-components")).unwrap();
    assert_eq!(broken.warnings.len(), 1);
    assert_eq!(broken.rules.len(), 1);
}

#[test]
fn check_counts_and_lists_the_findings() {
    insta::assert_snapshot!(both(|book| pretty(&view::check_rules(book))));
}

#[test]
fn the_prompt_is_the_facades_section_and_paths_attach_in_extended() {
    let book = demo(Profile::Extended);
    assert_eq!(view::prompt(&book, &[]), book.system_prompt_section());
    let with = view::prompt(&book, &["src/web/cart.ts".to_owned()]);
    assert_ne!(
        with,
        book.system_prompt_section(),
        "the typescript rule is attached"
    );
    assert_eq!(
        with,
        book.system_prompt_section_for(["src/web/cart.ts"]),
        "as `rulebook prompt --paths` renders it"
    );
}

#[test]
fn completion_is_bounded_and_counts_the_rest() {
    let book = demo(Profile::Extended);
    let (names, total) = view::complete(&book, "", 3);
    assert_eq!(names.len(), 3);
    assert_eq!(total, view::resources(&book).len());
    let (names, total) = view::complete(&book, "rule://ty", 100);
    assert_eq!((names, total), (vec!["typescript".to_owned()], 1));
}

/// 10,000 paths on 300 always-apply rules (3.7 GiB before) list
/// the 300 once; 300 rules matching every path by glob stop at [`view::MAX_HITS`] entries,
/// and the answer says where and why.
#[test]
fn rules_for_paths_is_bounded_in_all() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join(".cursor/rules");
    std::fs::create_dir_all(&rules).unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    for i in 0..300 {
        std::fs::write(
            rules.join(format!("r{i:03}.mdc")),
            "---\nalwaysApply: true\n---\nAlways.\n",
        )
        .unwrap();
    }
    let book = Rulebook::discover(dir.path(), Some(&dir.path().join("home")), &Options::new());
    let paths: Vec<String> = (0..view::MAX_PATHS).map(|i| format!("f{i}.rs")).collect();
    let answer = view::rules_for_paths(&book, &paths);
    assert_eq!(answer.always_apply.len(), 300);
    assert_eq!(answer.paths.len(), view::MAX_PATHS, "every path answered");
    assert!(answer.paths.iter().all(|p| p.rules.is_empty()));
    assert!(answer.cut.is_none());

    for i in 0..300 {
        std::fs::write(
            rules.join(format!("r{i:03}.mdc")),
            "---\nglobs: \"**/*.rs\"\n---\nRust.\n",
        )
        .unwrap();
    }
    let book = Rulebook::discover(dir.path(), Some(&dir.path().join("home")), &Options::new());
    let answer = view::rules_for_paths(&book, &paths);
    assert!(answer.always_apply.is_empty());
    let entries: usize = answer.paths.iter().map(|p| p.rules.len()).sum();
    assert!(entries <= view::MAX_HITS, "{entries}");
    assert_eq!(answer.paths.len(), view::MAX_HITS / 300);
    let cut = answer.cut.as_ref().unwrap();
    assert_eq!(
        (cut.paths_answered, cut.paths_asked),
        (view::MAX_HITS / 300, view::MAX_PATHS)
    );
    // A small question is answered whole.
    assert!(view::rules_for_paths(&book, &paths[..3]).cut.is_none());
}
