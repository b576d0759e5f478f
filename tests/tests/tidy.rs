//! Keeps the layering of ARCHITECTURE.md true: each crate depends only on the crates
//! below it, and nothing depends on the facade or the CLI.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::collections::BTreeMap;
use std::process::Command;

/// The provider crates of the facade's list (`crates/rulebook/providers.txt`, the one list
/// of providers and tools).
fn listed_providers() -> Vec<String> {
    let list =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/rulebook/providers.txt");
    std::fs::read_to_string(list)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("tool "))
        .map(|l| format!("rulebook-provider-{}", l.split('|').next().unwrap().trim()))
        .collect()
}

/// For each crate, the workspace crates it may depend on (normal dependencies): exactly
/// these, every provider crate of the list included by name.
fn allowed() -> BTreeMap<String, Vec<String>> {
    let providers = listed_providers();
    let own = |deps: &[&str]| deps.iter().map(|d| (*d).to_owned()).collect::<Vec<_>>();
    let mut table: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // A provider depends on the kit alone.
    for provider in &providers {
        table.insert(provider.clone(), own(&["rulebook-kit"]));
    }
    let fixed: BTreeMap<&str, &[&str]> = BTreeMap::from([
        ("rulebook-frontmatter", &[][..]),
        ("rulebook-rule", &["rulebook-frontmatter"][..]),
        ("rulebook-fs", &["rulebook-rule"][..]),
        ("rulebook-registry", &["rulebook-rule"][..]),
        (
            "rulebook-kit",
            &[
                "rulebook-frontmatter",
                "rulebook-fs",
                "rulebook-registry",
                "rulebook-rule",
            ][..],
        ),
        ("rulebook-partition", &["rulebook-rule"][..]),
        ("rulebook-prompt", &["rulebook-rule"][..]),
        ("rulebook-protocol", &["rulebook-rule"][..]),
        ("rulebook-ttsr", &["rulebook-rule"][..]),
        ("rulebook-match", &["rulebook-rule"][..]),
        // Host emulation: the guards around a tool's own view, over the shared host types
        // of the kit; each tool lives in its provider crate and the facade's table lists
        // them, so hosts names no provider.
        ("rulebook-hosts", &["rulebook-kit"][..]),
        // The discovery stage: the glue of the stages, no provider (the facade hands it the
        // table of default providers).
        (
            "rulebook-discover",
            &[
                "rulebook-kit",
                "rulebook-match",
                "rulebook-partition",
                "rulebook-prompt",
                "rulebook-protocol",
                "rulebook-registry",
                "rulebook-rule",
                "rulebook-ttsr",
            ][..],
        ),
        (
            "rulebook",
            &[
                "rulebook-discover",
                "rulebook-hosts",
                "rulebook-kit",
                "rulebook-match",
                "rulebook-partition",
                "rulebook-prompt",
                "rulebook-protocol",
                "rulebook-registry",
                "rulebook-rule",
                "rulebook-ttsr",
            ][..],
        ),
        // Test support (a dev-dependency of the providers and the facade): the pipeline
        // over a scenario folder, no provider.
        (
            "rulebook-test",
            &[
                "rulebook-discover",
                "rulebook-hosts",
                "rulebook-registry",
                "rulebook-rule",
            ][..],
        ),
        ("rulebook-check", &["rulebook"][..]),
        // The report model, over the facade: the CLI and the MCP server render it.
        ("rulebook-report", &["rulebook"][..]),
        (
            "rulebook-mcp",
            &["rulebook", "rulebook-check", "rulebook-report"][..],
        ),
        ("rulebook-lsp", &["rulebook", "rulebook-check"][..]),
        (
            "rulebook-bindings",
            &["rulebook", "rulebook-check", "rulebook-report"][..],
        ),
        (
            "rulebook-python",
            &["rulebook", "rulebook-bindings", "rulebook-report"][..],
        ),
        (
            "rulebook-node",
            &[
                "rulebook",
                "rulebook-bindings",
                "rulebook-check",
                "rulebook-report",
            ][..],
        ),
        (
            "rulebook-cli",
            &[
                "rulebook",
                "rulebook-check",
                "rulebook-lsp",
                "rulebook-mcp",
                "rulebook-report",
            ][..],
        ),
        (
            "rulebook-bench",
            &[
                "rulebook",
                "rulebook-bindings",
                "rulebook-frontmatter",
                "rulebook-ttsr",
            ][..],
        ),
        // The oracle runner (`src/bin/oracle.rs`) reads the host fixtures and runs the
        // tools of the facade's table.
        ("rulebook-tests", &["rulebook", "rulebook-hosts"][..]),
        ("xtask", &[][..]),
    ]);
    for (name, deps) in fixed {
        table.insert(name.to_owned(), own(deps));
    }
    // The facade: the stage crates above, and every provider of the list (each behind its
    // cargo feature).
    table
        .get_mut("rulebook")
        .unwrap()
        .extend(providers.iter().cloned());
    table
}

#[test]
fn dependencies_point_one_way() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let allowed = allowed();
    let packages = metadata["packages"].as_array().unwrap();
    let names: Vec<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for package in packages {
        let name = package["name"].as_str().unwrap();
        let Some(may) = allowed.get(name) else {
            panic!("{name} is not in the layering table of tests/tests/tidy.rs: add it");
        };
        for dep in package["dependencies"].as_array().unwrap() {
            let dep_name = dep["name"].as_str().unwrap();
            let is_dev = dep["kind"].as_str() == Some("dev");
            if names.contains(&dep_name) && !is_dev {
                assert!(
                    may.iter().any(|m| m == dep_name),
                    "{name} depends on {dep_name}, which breaks the layering of ARCHITECTURE.md"
                );
            }
        }
    }
    // The model uses the frontmatter crate's value model only: the stages that take rules
    // (through the model) pull in no YAML parser.
    let model = packages
        .iter()
        .find(|p| p["name"] == "rulebook-rule")
        .unwrap();
    let frontmatter = model["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "rulebook-frontmatter")
        .unwrap();
    assert_eq!(frontmatter["uses_default_features"], false, "{frontmatter}");
    assert!(
        !frontmatter["features"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "parse"),
        "{frontmatter}"
    );
}
