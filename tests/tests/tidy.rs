//! Keeps the layering of ARCHITECTURE.md true: each crate depends only on the crates
//! below it, and nothing depends on the facade or the CLI.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::collections::BTreeMap;
use std::process::Command;

/// For each crate, the workspace crates it may depend on (normal dependencies).
fn allowed() -> BTreeMap<&'static str, &'static [&'static str]> {
    // A provider depends on the kit alone.
    let providers: &[&str] = &["rulebook-kit"];
    BTreeMap::from([
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
        ("rulebook-provider-native", providers),
        ("rulebook-provider-cursor", providers),
        ("rulebook-provider-windsurf", providers),
        ("rulebook-provider-cline", providers),
        ("rulebook-partition", &["rulebook-rule"][..]),
        ("rulebook-prompt", &["rulebook-rule"][..]),
        ("rulebook-protocol", &["rulebook-rule"][..]),
        ("rulebook-ttsr", &["rulebook-rule"][..]),
        ("rulebook-match", &["rulebook-rule"][..]),
        // Host emulation: the dispatch and the guards, over the shared host types of the kit;
        // a tool's emulation lives in its provider crate, so hosts stands above
        // the providers it dispatches to.
        (
            "rulebook-hosts",
            &["rulebook-frontmatter", "rulebook-fs", "rulebook-kit"][..],
        ),
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
                "rulebook-provider-cline",
                "rulebook-provider-cursor",
                "rulebook-provider-native",
                "rulebook-provider-windsurf",
                "rulebook-registry",
                "rulebook-rule",
                "rulebook-ttsr",
            ][..],
        ),
        // Test support (a dev-dependency of the providers and the facade): the pipeline
        // over a scenario folder, no provider.
        (
            "rulebook-test",
            &["rulebook-discover", "rulebook-registry", "rulebook-rule"][..],
        ),
        ("rulebook-check", &["rulebook"][..]),
        // The report model, over the facade: the CLI and the MCP server render it.
        ("rulebook-report", &["rulebook"][..]),
        (
            "rulebook-mcp",
            &["rulebook", "rulebook-check", "rulebook-report"][..],
        ),
        (
            "rulebook-cli",
            &[
                "rulebook",
                "rulebook-check",
                "rulebook-mcp",
                "rulebook-report",
            ][..],
        ),
        (
            "rulebook-bench",
            &["rulebook", "rulebook-frontmatter", "rulebook-ttsr"][..],
        ),
        // The oracle runner (`src/bin/oracle.rs`) reads the host fixtures.
        ("rulebook-tests", &["rulebook-hosts"][..]),
        ("xtask", &[][..]),
    ])
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
        let may = if name.starts_with("rulebook-provider-") && !allowed.contains_key(name) {
            // A provider scaffolded by `cargo xtask new-provider` follows the provider rule.
            allowed.get("rulebook-provider-native")
        } else {
            allowed.get(name)
        };
        let Some(may) = may else {
            panic!("{name} is not in the layering table of tests/tests/tidy.rs: add it");
        };
        for dep in package["dependencies"].as_array().unwrap() {
            let dep_name = dep["name"].as_str().unwrap();
            let is_dev = dep["kind"].as_str() == Some("dev");
            if names.contains(&dep_name) && !is_dev {
                // The facade may use every provider crate (its default providers table), and
                // the host dispatch every provider that holds its tool's emulation.
                let facade_provider = (name == "rulebook" || name == "rulebook-hosts")
                    && dep_name.starts_with("rulebook-provider-");
                assert!(
                    may.contains(&dep_name) || facade_provider,
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
