//! Every pipeline scenario of `fixtures/<scenario>/{project,home}` under both profiles,
//! side by side: the active rules with their bucket, what was shadowed or invalid, and
//! every warning. Paths are relative to the scenario folder.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};

use rulebook::{Options, Profile, Rule, Rulebook};
use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

struct Scenario {
    root: PathBuf,
}

impl Scenario {
    fn rel(&self, path: &Path) -> String {
        let root = std::fs::canonicalize(&self.root).unwrap();
        path.strip_prefix(&root)
            .or_else(|_| path.strip_prefix(&self.root))
            .map_or_else(
                |_| path.display().to_string(),
                |p| p.to_string_lossy().replace('\\', "/"),
            )
    }

    fn redact(&self, text: &str) -> String {
        let root = std::fs::canonicalize(&self.root).unwrap();
        text.replace(&format!("{}/", root.display()), "")
            .replace(&format!("{}/", self.root.display()), "")
    }

    fn discover(&self, profile: Profile) -> Rulebook {
        let cwd = std::fs::read_to_string(self.root.join("cwd"))
            .map_or_else(|_| "project".to_owned(), |s| s.trim().to_owned());
        let root = std::fs::canonicalize(&self.root).unwrap();
        // The project root (E11): `project/` unless the scenario names another in `root`
        // (fixtures live inside this repository, whose own `.git` must not be the root).
        let project_root = std::fs::read_to_string(self.root.join("root"))
            .map_or_else(|_| "project".to_owned(), |s| s.trim().to_owned());
        Rulebook::discover(
            root.join(cwd),
            Some(root.join("home")),
            &Options::new()
                .profile(profile)
                .project_root(root.join(project_root))
                // Claude walks up to `/`: not past the scenario.
                .provider_option("claude", "walk_ceiling", root.to_string_lossy()),
        )
    }

    fn rule_ref(&self, rule: &Rule) -> Value {
        json!({"provider": rule.source.provider, "path": self.rel(&rule.path)})
    }

    fn summary(&self, book: &Rulebook) -> Value {
        let rules: Vec<Value> = book
            .placements()
            .map(|(rule, placement)| {
                let mut v = json!({
                    "name": rule.name,
                    "provider": rule.source.provider,
                    "level": rule.source.level,
                    "path": self.rel(&rule.path),
                    "bucket": placement.bucket.map(rulebook::RuleBucket::as_str),
                });
                let map = v.as_object_mut().unwrap();
                if let Some(reason) = &placement.reason {
                    map.insert("reason".into(), json!(reason));
                }
                if let Some(d) = &rule.description {
                    map.insert("description".into(), json!(d));
                }
                if let Some(g) = &rule.globs {
                    map.insert("globs".into(), json!(g));
                }
                if let Some(a) = rule.always_apply {
                    map.insert("always_apply".into(), json!(a));
                }
                if !rule.condition.is_empty() {
                    map.insert("condition".into(), json!(rule.condition));
                }
                if let Some(a) = rule.activation {
                    map.insert("activation".into(), json!(a));
                }
                if rule.glob_dialect != rulebook::stages::rule::GlobDialect::Cursor {
                    map.insert("glob_dialect".into(), json!(rule.glob_dialect));
                }
                if let Some(root) = &rule.glob_root {
                    map.insert("glob_root".into(), json!(self.rel(root)));
                }
                map.insert("content".into(), json!(rule.content));
                v
            })
            .collect();
        let shadowed: Vec<Value> = book
            .shadowed()
            .map(|(loser, winner)| {
                json!({"name": loser.name, "loser": self.rule_ref(loser), "shadowed_by": self.rule_ref(winner)})
            })
            .collect();
        let invalid: Vec<Value> = book
            .invalid()
            .map(|(rule, reason)| json!({"name": rule.name, "rule": self.rule_ref(rule), "reason": reason}))
            .collect();
        let diagnostics: Vec<Value> = book
            .diagnostics()
            .iter()
            .map(|d| {
                let at = match (d.line, d.column) {
                    (Some(l), Some(c)) => format!(" @{l}:{c}"),
                    (Some(l), None) => format!(" @{l}"),
                    _ => String::new(),
                };
                json!(format!("{:?}{at}: {}", d.code, self.redact(&d.to_string())))
            })
            .collect();
        json!({
            "providers": book.contributing_providers(),
            "rules": rules,
            "shadowed": shadowed,
            "invalid": invalid,
            "diagnostics": diagnostics,
        })
    }
}

#[test]
fn scenarios() {
    let mut count = 0;
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("project").is_dir() && p.file_name().unwrap() != "demo")
        .collect();
    dirs.sort();
    for root in dirs {
        let name = root.file_name().unwrap().to_string_lossy().into_owned();
        let scenario = Scenario { root };
        let both = json!({
            "reference": scenario.summary(&scenario.discover(Profile::Reference)),
            "extended": scenario.summary(&scenario.discover(Profile::Extended)),
        });
        insta::with_settings!({snapshot_suffix => name.clone(), prepend_module_to_snapshot => false}, {
            insta::assert_yaml_snapshot!("scenario", both);
        });
        count += 1;
    }
    assert!(count >= 20, "only {count} scenarios found");
}

#[test]
fn sequential_and_parallel_discovery_agree() {
    let root = fixtures().join("all-providers");
    let a = Rulebook::discover(
        root.join("project"),
        Some(root.join("home")),
        &Options::new(),
    );
    let b = Rulebook::discover(
        root.join("project"),
        Some(root.join("home")),
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
        Some(root.join("home")),
        &Options::new().deny_providers(["native"]),
    );
    let shared = book.items().find(|r| r.name == "shared").unwrap();
    assert_eq!(shared.source.provider, "cursor");
    let book = Rulebook::discover(
        root.join("project"),
        Some(root.join("home")),
        &Options::new().allow_providers(["cline"]),
    );
    assert!(book.items().all(|r| r.source.provider == "cline"));
}
