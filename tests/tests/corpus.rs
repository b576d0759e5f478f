//! Real rule files, laid out as each tool reads them, through `rulebook check --json` and
//! `rulebook explain --json` under both profiles: no panic, every file accounted for, and a
//! table of how their frontmatter parsed.
//!
//! Two runs of the same code:
//! - the sample vendored in `fixtures/corpus/` (always there; its table is a snapshot);
//! - the full corpus beside the repository (`../shared/corpus`, or `$RULEBOOK_CORPUS`),
//!   which a fresh clone does not have: that test says it skipped, and no snapshot depends
//!   on it (it asserts the invariants and prints its table).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::collections::BTreeMap;
use std::fmt::Write;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use rulebook_tests::{rulebook_binary, workspace_root};

use serde_json::Value;

/// One project tree to run the binary on, and how many rule files it holds.
struct Tree {
    project: PathBuf,
    home: PathBuf,
    rule_files: usize,
    /// A legacy file (`.cursorrules`, `.windsurfrules`): the reference profile does not
    /// read it (behaviour.md S9.1); Extended E1 does.
    legacy: bool,
    /// Files of formats only Extended reads (AGENTS.md, CLAUDE.md, `.claude/rules`,
    /// Copilot's).
    extended_only: usize,
    /// Files Extended reads and turns into no rule: an AGENTS.md, CLAUDE.md or
    /// copilot-instructions.md with nothing but white space (an empty rule).
    blank: usize,
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    out.sort();
    out
}

fn copy_into(from: &Path, to_dir: &Path, extension: Option<&str>) -> usize {
    fs::create_dir_all(to_dir).unwrap();
    let mut rules = 0;
    for file in files(from) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let target = match extension {
            // Give files the extension their tool reads (`.md`), keeping the rest.
            Some(ext) if !name.ends_with(&format!(".{ext}")) => format!("{name}.{ext}"),
            _ => name.clone(),
        };
        fs::copy(&file, to_dir.join(&target)).unwrap();
        if extension.is_none_or(|ext| target.ends_with(&format!(".{ext}"))) {
            rules += 1;
        }
    }
    rules
}

fn build_trees(corpus: &Path, scratch: &Path) -> Vec<Tree> {
    let mut trees = Vec::new();
    // Directory-based formats: one project holds them all.
    let project = scratch.join("multi/project");
    let home = scratch.join("multi/home");
    let mut rule_files = 0;
    rule_files += copy_into(&corpus.join("mdc"), &project.join(".cursor/rules"), None);
    rule_files += copy_into(
        &corpus.join("cursor-rules-md"),
        &project.join(".cursor/rules"),
        None,
    );
    rule_files += copy_into(
        &corpus.join("windsurf-md"),
        &project.join(".windsurf/rules"),
        None,
    );
    // Cline reads only `*.md` in its directory; the corpus's other files sit beside them.
    fs::create_dir_all(project.join(".clinerules")).unwrap();
    for file in files(&corpus.join("clinerules-dir")) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        fs::copy(&file, project.join(".clinerules").join(&name)).unwrap();
        if Path::new(&name).extension().is_some_and(|e| e == "md") {
            rule_files += 1;
        }
    }
    // `.claude/rules`, as Claude Code reads them (Extended).
    let claude_rules = copy_into(
        &corpus.join("claude-rules"),
        &project.join(".claude/rules"),
        Some("md"),
    );
    rule_files += claude_rules;
    // Copilot's path-specific instructions, as Copilot reads them (Extended).
    let mut instructions = 0;
    let dir = project.join(".github/instructions");
    fs::create_dir_all(&dir).unwrap();
    for file in files(&corpus.join("copilot-instructions-md")) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let target = if name.ends_with(".instructions.md") {
            name
        } else {
            format!("{}.instructions.md", name.trim_end_matches(".md"))
        };
        fs::copy(&file, dir.join(target)).unwrap();
        instructions += 1;
    }
    rule_files += instructions;
    for file in files(&corpus.join("windsurf-global-md")) {
        let dir = home.join(".codeium/windsurf/memories");
        fs::create_dir_all(&dir).unwrap();
        fs::copy(&file, dir.join("global_rules.md")).unwrap();
        rule_files += 1;
    }
    trees.push(Tree {
        project,
        home,
        rule_files,
        legacy: false,
        extended_only: claude_rules + instructions,
        blank: 0,
    });
    // Whole-file formats: one project each.
    for (folder, name) in [
        ("cursorrules", ".cursorrules"),
        ("windsurfrules", ".windsurfrules"),
        ("clinerules-file", ".clinerules"),
        ("clinerules-mode", ".clinerules"),
    ] {
        for (i, file) in files(&corpus.join(folder)).into_iter().enumerate() {
            let project = scratch.join(format!("{folder}-{i}/project"));
            fs::create_dir_all(&project).unwrap();
            fs::copy(&file, project.join(name)).unwrap();
            trees.push(Tree {
                home: scratch.join(format!("{folder}-{i}/home")),
                project,
                rule_files: 1,
                legacy: name != ".clinerules",
                extended_only: 0,
                blank: 0,
            });
        }
    }
    // One file per directory, as Codex and Claude Code read them (Extended).
    for (folder, name) in [
        ("agents-md", "AGENTS.md"),
        ("claude-md", "CLAUDE.md"),
        ("copilot-instructions", ".github/copilot-instructions.md"),
    ] {
        for (i, file) in files(&corpus.join(folder)).into_iter().enumerate() {
            let project = scratch.join(format!("{folder}-{i}/project"));
            fs::create_dir_all(project.join(name).parent().unwrap()).unwrap();
            fs::copy(&file, project.join(name)).unwrap();
            let blank =
                fs::read(&file).is_ok_and(|b| String::from_utf8_lossy(&b).trim().is_empty());
            trees.push(Tree {
                home: scratch.join(format!("{folder}-{i}/home")),
                project,
                rule_files: 1,
                legacy: false,
                extended_only: 1,
                blank: usize::from(blank),
            });
        }
    }
    trees
}

fn run_json(tree: &Tree, args: &[&str]) -> (i32, Value) {
    let output = Command::new(rulebook_binary())
        .args(args)
        .arg("--json")
        .arg("--cwd")
        .arg(&tree.project)
        .arg("--home")
        .arg(&tree.home)
        // Claude Code walks up to `/`: not past the scratch tree.
        .arg("--option")
        .arg(format!(
            "claude.walk_ceiling={}",
            tree.project.parent().unwrap().display()
        ))
        .output()
        .unwrap();
    let code = output
        .status
        .code()
        .expect("rulebook was killed by a signal");
    assert!(
        code == 0 || code == 1,
        "{args:?} on {} exited {code}: {}",
        tree.project.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?} on {} printed no JSON ({e}): {}",
            tree.project.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (code, value)
}

/// Runs every tree of `corpus` through the binary; asserts that every file is accounted
/// for; returns the table of outcomes.
fn run_corpus(corpus: &Path, label: &str) -> String {
    let scratch = tempfile_dir(label);
    let trees = build_trees(corpus, &scratch);
    let total: usize = trees.iter().map(|t| t.rule_files).sum();
    let mut table = String::new();
    writeln!(table, "rule files: {total}").unwrap();
    for profile in ["reference", "extended"] {
        let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
        let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
        let mut check_errors = 0;
        let mut failing_checks = 0;
        for tree in &trees {
            let (code, check) = run_json(tree, &["check", "--profile", profile]);
            check_errors += check["errors"].as_u64().unwrap();
            failing_checks += usize::from(code == 1);
            let (_, explain) = run_json(tree, &["explain", "--profile", profile]);
            let loaded = explain["files"].as_array().unwrap();
            for file in loaded {
                *outcomes
                    .entry(file["frontmatter_outcome"].as_str().unwrap().to_owned())
                    .or_default() += 1;
            }
            let not_loaded: Vec<&Value> = explain["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| {
                    matches!(
                        d["code"].as_str(),
                        Some("too-large" | "read-failed" | "outside-project")
                    )
                })
                .collect();
            for d in &not_loaded {
                *skipped
                    .entry(d["code"].as_str().unwrap().to_owned())
                    .or_default() += 1;
            }
            let ignored = if profile == "reference" && tree.legacy {
                *skipped
                    .entry("legacy file, not read by reference".to_owned())
                    .or_default() += tree.rule_files;
                tree.rule_files
            } else if profile == "reference" {
                if tree.extended_only > 0 {
                    *skipped
                        .entry("a format only Extended reads".to_owned())
                        .or_default() += tree.extended_only;
                }
                tree.extended_only
            } else {
                if tree.blank > 0 {
                    *skipped
                        .entry(
                            "blank AGENTS.md, CLAUDE.md or copilot-instructions.md, no rule"
                                .to_owned(),
                        )
                        .or_default() += tree.blank;
                }
                tree.blank
            };
            assert_eq!(
                loaded.len() + not_loaded.len() + ignored,
                tree.rule_files,
                "{profile}: files of {} not accounted for",
                tree.project.display()
            );
        }
        writeln!(table, "\n{profile}:").unwrap();
        for (outcome, n) in &outcomes {
            writeln!(table, "  frontmatter {outcome}: {n}").unwrap();
        }
        for (code, n) in &skipped {
            writeln!(table, "  not loaded ({code}): {n}").unwrap();
        }
        writeln!(
            table,
            "  check: {check_errors} error(s); {failing_checks} of {} project(s) fail `rulebook check`",
            trees.len()
        )
        .unwrap();
    }
    let _ = fs::remove_dir_all(&scratch);
    println!("{table}");
    table
}

#[test]
fn vendored_sample_loads_without_panic_and_every_file_is_accounted_for() {
    let sample = workspace_root().join("fixtures/corpus");
    insta::assert_snapshot!(run_corpus(&sample, "sample"));
}

/// The full corpus, where it is: `$RULEBOOK_CORPUS`, else `../shared/corpus`. Skips, and
/// says so, where it is not (a fresh clone); asserts the same invariants as the sample.
#[test]
fn full_corpus_loads_without_panic_and_every_file_is_accounted_for() {
    let corpus = std::env::var_os("RULEBOOK_CORPUS")
        .map_or_else(|| workspace_root().join("../shared/corpus"), PathBuf::from);
    if !corpus.join("MANIFEST.tsv").exists() {
        println!(
            "skipped: no full corpus at {} (set RULEBOOK_CORPUS to run it); the vendored sample ran instead",
            corpus.display()
        );
        return;
    }
    let table = run_corpus(&corpus, "full");
    assert!(table.starts_with("rule files: "), "{table}");
}

fn tempfile_dir(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-corpus-{label}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}
