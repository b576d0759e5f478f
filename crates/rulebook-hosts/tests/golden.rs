//! Host emulation (`--as`) against the real tools: every fixture tree of `fixtures/hosts/`
//! is materialized, emulated for each verified host and each cwd, and compared with the
//! golden file the real tool produced (`cargo xtask oracle` wrote them; this test needs no
//! tool). Known differences are listed in the case's `differs` with their cause, and must
//! still differ (so the list cannot go stale). The table of N/N per host is printed.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rulebook_hosts::fixture::{Case, Golden, golden_of, golden_path};
use rulebook_hosts::{Host, HostOptions, emulate};

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hosts");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("case.json").is_file())
        .collect();
    out.sort();
    out
}

#[test]
fn emulations_equal_the_real_tools_on_every_golden_file() {
    let mut table: BTreeMap<Host, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut stale = Vec::new();
    let mut missing = Vec::new();
    let cases = cases();
    assert!(
        cases.len() >= 40,
        "at least 40 host fixture trees, found {}",
        cases.len()
    );
    for dir in &cases {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let case = Case::load(dir).unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(scratch.path()).unwrap();
        case.materialize(dir, &root).unwrap();
        for host in case.hosts(rulebook::tools()).unwrap() {
            for cwd in &case.cwds {
                let path = golden_path(dir, host, cwd);
                let Ok(text) = std::fs::read_to_string(&path) else {
                    missing.push(format!("{name} {host}@{cwd}"));
                    continue;
                };
                let golden: Golden = serde_json::from_str(&text).unwrap();
                // What the tool reads through a link out of the project is compared too
                // (the view withholds it from display unless asked).
                let view = emulate(
                    host,
                    &HostOptions::new(root.join(cwd), root.join(&case.home)).show_outside(true),
                );
                // A golden file must not hang on this machine's directory order (Claude
                // Code does not sort `.claude/rules`): such a tree would fail elsewhere.
                if let Some(note) = view
                    .notes
                    .iter()
                    .find(|n| n.contains("order the file system lists"))
                {
                    failures.push(format!(
                        "{name} {host}@{cwd}: the order depends on the file system: {note}"
                    ));
                }
                let mut ours = golden_of(&view, &root, cwd);
                let mut golden = golden;
                // A tool that lists skills in its file search's order is compared on the set.
                if host.tool().info().skills_unordered() {
                    let key =
                        |s: &rulebook_hosts::fixture::GoldenSkill| (s.path.clone(), s.name.clone());
                    ours.skills.sort_by_key(key);
                    golden.skills.sort_by_key(key);
                }
                let cell = table.entry(host).or_default();
                cell.1 += 1;
                let key = format!("{host}@{cwd}");
                let known = case.differs.get(&key);
                if ours == golden {
                    cell.0 += 1;
                    if known.is_some() {
                        stale.push(format!("{name} {key}: listed in `differs` but now equal"));
                    }
                } else if known.is_none() {
                    failures.push(format!(
                        "{name} {key}\n  real tool: {}\n  emulation: {}",
                        serde_json::to_string(&golden).unwrap(),
                        serde_json::to_string(&ours).unwrap()
                    ));
                }
            }
        }
    }
    for (host, (pass, all)) in &table {
        println!("{:<10} {pass}/{all}", host.id());
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        missing.is_empty(),
        "golden files missing (run `cargo xtask oracle`):\n{}",
        missing.join("\n")
    );
}

/// The documented emulations (Cursor, Windsurf, Copilot, Kiro, Zed) cannot be checked
/// against their tools; their output over every fixture tree is a snapshot per tool, read
/// as code: each line says which files that tool loads in which case and cwd.
#[test]
fn documented_emulations_over_every_fixture_tree() {
    for host in rulebook::tools().iter().copied().filter(|h| !h.verified()) {
        let mut lines = Vec::new();
        for dir in cases() {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            let case = Case::load(&dir).unwrap();
            let scratch = tempfile::tempdir().unwrap();
            let root = std::fs::canonicalize(scratch.path()).unwrap();
            case.materialize(&dir, &root).unwrap();
            for cwd in &case.cwds {
                let view = emulate(
                    host,
                    &HostOptions::new(root.join(cwd), root.join(&case.home)),
                );
                let shown: Vec<String> = view
                    .files
                    .iter()
                    .filter(|f| !matches!(f.status, rulebook_hosts::Status::NotRead))
                    .map(|f| {
                        format!(
                            "{} {}",
                            f.status.label(),
                            rulebook_hosts::fixture::relative(&root, &f.path)
                        )
                    })
                    .collect();
                if !shown.is_empty() {
                    lines.push(format!("{name} @{cwd}: {}", shown.join("; ")));
                }
            }
        }
        insta::assert_snapshot!(format!("documented_{}", host.id()), lines.join("\n"));
    }
}

/// A view made without its prompt, and one made with shared reads (one walk below the
/// root for every name the views look for, each file read once; or, with a store that
/// keeps no bytes, each file's digest kept), list the same files with the same statuses
/// and reasons as the plain view, and find the same duplicates, on every fixture tree, for
/// every tool and every working directory: the prompt alone may be left empty (a view that
/// renders it through the shared helpers leaves it so). `check` makes its views so.
#[test]
fn views_without_prompts_or_with_shared_reads_list_what_the_plain_views_list() {
    let (mut compared, mut left_empty, mut found_duplicates) = (0, 0, 0);
    for dir in &cases() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let case = Case::load(dir).unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(scratch.path()).unwrap();
        case.materialize(dir, &root).unwrap();
        for cwd in &case.cwds {
            let plain = HostOptions::new(root.join(cwd), root.join(&case.home));
            let store = |bound| {
                Some(std::sync::Arc::new(
                    rulebook::stages::registry::SharedReads::new(bound),
                ))
            };
            let shared = plain.clone().share_reads(store(
                rulebook::stages::registry::SharedReads::DEFAULT_BOUND,
            ));
            // A store that keeps no bytes, as `check` makes its views: the digests alone.
            let digests = plain.clone().share_reads(store(0)).without_prompt(true);
            let bare = shared.clone().without_prompt(true);
            for &host in rulebook::tools() {
                let want = emulate(host, &plain);
                for (how, options) in [
                    ("shared", &shared),
                    ("without prompt", &bare),
                    ("digests", &digests),
                ] {
                    let view = emulate(host, options);
                    let files = |v: &rulebook_hosts::HostView| format!("{:?}", v.files);
                    assert_eq!(files(&view), files(&want), "{name} {host}@{cwd} {how}");
                    assert_eq!(view.notes, want.notes, "{name} {host}@{cwd} {how}");
                    let duplicates = options.reading(|| view.duplicates());
                    assert_eq!(
                        duplicates,
                        plain.reading(|| want.duplicates()),
                        "{name} {host}@{cwd} {how}"
                    );
                    found_duplicates += duplicates.len();
                    if how == "shared" {
                        assert_eq!(view.prompt, want.prompt, "{name} {host}@{cwd}");
                    } else {
                        assert!(
                            view.prompt.is_empty() || view.prompt == want.prompt,
                            "{name} {host}@{cwd}"
                        );
                        left_empty +=
                            usize::from(view.prompt.is_empty() && !want.prompt.is_empty());
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1000, "only {compared} views compared");
    assert!(left_empty > 100, "only {left_empty} prompts left empty");
    assert!(found_duplicates > 0, "no duplicates found");
}
