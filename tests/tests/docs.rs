//! The documentation cites only what the repository holds: every `behaviour.md §N`, `S9.k`
//! and `E<n>` citation in the code and docs names a section of `docs/behaviour.md`, and
//! nothing cites a file a fresh clone does not have (`SPEC §`, `seeds §`, `SPEC.md`); and
//! the code, tests and docs speak of the project alone: of what behaviour they hold and
//! why, never of the tracker's issues, their items or rounds, or test ids defined nowhere.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fs;
use std::path::{Path, PathBuf};

use rulebook_tests::workspace_root;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" || name == "corpus" || name == "snapshots" {
            continue;
        }
        if path.is_dir() {
            sources(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("rs") || e.eq_ignore_ascii_case("md"))
        {
            out.push(path);
        }
    }
}

#[test]
fn citations_point_into_the_repository() {
    let root = workspace_root();
    let behaviour = fs::read_to_string(root.join("docs/behaviour.md")).unwrap();
    let mut files = Vec::new();
    for dir in ["crates", "tests", "xtask", "bench", "docs"] {
        sources(&root.join(dir), &mut files);
    }
    files.push(root.join("README.md"));
    files.push(root.join("ARCHITECTURE.md"));
    let mut problems = Vec::new();
    for file in &files {
        if file.ends_with("tests/docs.rs") {
            continue;
        }
        let text = fs::read_to_string(file).unwrap();
        let rel = file.strip_prefix(&root).unwrap().display().to_string();
        for stale in ["SPEC §", "seeds §", "SPEC.md"] {
            if rel != "docs/behaviour.md" && text.contains(stale) {
                problems.push(format!(
                    "{rel}: cites `{stale}`, which a clone does not have"
                ));
            }
        }
        for (i, _) in text.match_indices("behaviour.md §") {
            let number: String = text[i + "behaviour.md §".len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if !behaviour.contains(&format!("\n## {number}. ")) {
                problems.push(format!(
                    "{rel}: cites behaviour.md §{number}, which has no section"
                ));
            }
        }
        for (i, _) in text.match_indices("behaviour.md S9.") {
            let item: String = text[i + "behaviour.md S9.".len()..]
                .chars()
                .take(1)
                .collect();
            if !behaviour.contains(&format!("### S9.{item} ")) {
                problems.push(format!("{rel}: cites S9.{item}, which has no section"));
            }
        }
    }
    for e in 1..=10 {
        assert!(
            behaviour.contains(&format!("### E{e}. ")),
            "behaviour.md has no E{e}"
        );
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Words of the project's history that the code and docs must not use: `issue 30`, `item
/// 4`, `hardening round 3`, test ids such as `T17`.
#[test]
fn the_code_speaks_of_the_project_alone() {
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in ["crates", "tests", "xtask", "bench", "docs"] {
        sources(&root.join(dir), &mut files);
    }
    files.push(root.join("README.md"));
    files.push(root.join("ARCHITECTURE.md"));
    let history =
        regex::Regex::new(r"(?i:\b(issues?|items?) [0-9]+\b|hardening round)|\bT[0-9]{1,3}\b")
            .unwrap();
    let mut problems = Vec::new();
    for file in &files {
        if file.ends_with("tests/docs.rs") {
            continue;
        }
        let text = fs::read_to_string(file).unwrap();
        let rel = file.strip_prefix(&root).unwrap().display().to_string();
        for (n, line) in text.lines().enumerate() {
            if let Some(found) = history.find(line) {
                problems.push(format!("{rel}:{}: `{}`", n + 1, found.as_str()));
            }
        }
    }
    assert!(
        !root.join("docs/design").exists(),
        "docs/design holds a draft, not the design"
    );
    assert!(problems.is_empty(), "history words: {problems:#?}");
}
