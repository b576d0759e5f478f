//! Every pipeline scenario of `fixtures/<scenario>/{project,home}` under both profiles,
//! side by side: the active rules with their bucket, what was shadowed or invalid, and
//! every warning. Paths are relative to the scenario folder (`rulebook-test`'s harness).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};

use rulebook::{DefaultProviders, Options, Rulebook};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// The pipeline's scenarios (`fixtures/<scenario>`) with every default provider; each
/// provider's own scenarios are snapshotted in its crate, with it alone.
#[test]
fn scenarios() {
    let count = rulebook_test::scenario_snapshots!(
        &DefaultProviders::default(),
        "../../../fixtures",
        skip = ["demo"]
    );
    assert!(count >= 15, "only {count} scenarios found");
}

#[test]
fn sequential_and_parallel_discovery_agree() {
    let root = fixtures().join("all-providers");
    let a = Rulebook::discover(
        root.join("project"),
        Some(&root.join("home")),
        &Options::new(),
    );
    let b = Rulebook::discover(
        root.join("project"),
        Some(&root.join("home")),
        &Options::new().sequential(true),
    );
    let names = |book: &Rulebook| book.items().map(|r| r.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b));
    assert_eq!(a.diagnostics(), b.diagnostics());
}

#[test]
fn provider_selection() {
    let root = fixtures().join("all-providers");
    let book = Rulebook::discover(
        root.join("project"),
        Some(&root.join("home")),
        &Options::new().deny_providers(["native"]),
    );
    let shared = book.items().find(|r| r.name == "shared").unwrap();
    assert_eq!(shared.source.provider, "cursor");
    let book = Rulebook::discover(
        root.join("project"),
        Some(&root.join("home")),
        &Options::new().allow_providers(["cline"]),
    );
    assert!(book.items().all(|r| r.source.provider == "cline"));
}
