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
        // `node_modules`: the Node package's build tools, installed, not ours.
        if name.starts_with('.')
            || name == "target"
            || name == "corpus"
            || name == "snapshots"
            || name == "node_modules"
        {
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

/// The code and docs say what the code does and why: no number of a tracker's entry or of a
/// part of one, no name of a round of work, no id of a test defined nowhere (a capital T and
/// up to three digits, or a test function named after such ids).
#[test]
fn the_code_speaks_of_the_project_alone() {
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in ["crates", "tests", "xtask", "bench", "docs"] {
        sources(&root.join(dir), &mut files);
    }
    files.push(root.join("README.md"));
    files.push(root.join("ARCHITECTURE.md"));
    files.push(root.join("CHANGELOG.md"));
    let history = regex::Regex::new(concat!(
        r"(?i:\b(issues?|items?)\s[0-9]+\b|harden\w*\sround)|\bT[0-9]{1,3}\b",
        // A test function named after such ids: a lower-case `t` and digits, then `_` or `(`.
        r"|\bfn\s+(?:\w+_)?t[0-9]{1,3}(?:_|\()"
    ))
    .unwrap();
    let mut problems = Vec::new();
    for file in &files {
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

/// Every crate's `Depends on` paragraph (its crate docs) names only crates of the workspace
/// it depends on: a crate that moved onto the kit does not keep naming the crates it left.
#[test]
fn each_crate_says_what_it_depends_on() {
    let root = workspace_root();
    let mut problems = Vec::new();
    let mut crates: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    crates.push(root.join("bench"));
    crates.sort();
    let workspace: Vec<String> = crates
        .iter()
        .map(|c| c.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("rulebook"))
        .collect();
    for dir in &crates {
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        let dependencies = manifest
            .split("\n[")
            .find(|table| table.starts_with("[dependencies]") || table.starts_with("dependencies]"))
            .unwrap_or_default()
            .to_owned();
        let depends = |name: &str| {
            dependencies
                .lines()
                .any(|l| l.split([' ', '=']).next() == Some(name))
        };
        let lib = ["src/lib.rs", "src/main.rs"]
            .iter()
            .map(|f| dir.join(f))
            .find(|f| f.is_file());
        let Some(lib) = lib else { continue };
        let text = fs::read_to_string(&lib).unwrap();
        let docs: Vec<&str> = text
            .lines()
            .take_while(|l| l.starts_with("//!") || l.trim().is_empty() || l.starts_with("#!"))
            .filter_map(|l| l.strip_prefix("//!"))
            .collect();
        let docs = docs.join("\n");
        let Some(start) = docs.find("Depends on") else {
            problems.push(format!(
                "{}: no `Depends on` paragraph",
                lib.strip_prefix(&root).unwrap().display()
            ));
            continue;
        };
        let paragraph = docs[start..].split("\n\n").next().unwrap_or_default();
        for name in paragraph.split('`').skip(1).step_by(2) {
            if workspace.iter().any(|w| w == name) && !depends(name) {
                problems.push(format!(
                    "{}: says it depends on `{name}`, which its Cargo.toml does not list",
                    lib.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// A crate's README is what its registry page shows, where rustdoc's intra-doc links
/// (`` [`Rulebook`] ``) do not resolve and a relative link leaves nothing to follow.
#[test]
fn crate_readmes_read_well_on_their_registry_page() {
    let root = workspace_root();
    let intra = regex::Regex::new(r"\[`[^`\]]+`\](?:[^(]|$)").unwrap();
    let relative = regex::Regex::new(r"\]\((?:\.\.|[a-zA-Z_./-]+\.(?:md|txt|rs)\))").unwrap();
    let mut problems = Vec::new();
    for entry in fs::read_dir(root.join("crates")).unwrap() {
        let readme = entry.unwrap().path().join("README.md");
        let Ok(text) = fs::read_to_string(&readme) else {
            continue;
        };
        let rel = readme.strip_prefix(&root).unwrap().display().to_string();
        for (n, line) in text.lines().enumerate() {
            if intra.is_match(line) || relative.is_match(line) {
                problems.push(format!("{rel}:{}: {line}", n + 1));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
