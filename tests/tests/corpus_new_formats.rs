//! Real rule files read as the twelve newer formats read them: every Markdown file of
//! the corpus (the vendored sample, and the full corpus beside the repository when it is
//! there) laid into the folders of the providers that parse frontmatter (`.trae/rules`,
//! `.augment/rules`, `.aiassistant/rules`, `.openhands/microagents`, `.qwen/rules`) and
//! of those that read files raw (`.amazonq/rules`, `.kilocode/rules`), then discovered under
//! Extended: no panic, every file accounted for (a rule, shadowed, or invalid with why),
//! and every warning names the file it is about.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rulebook::{Options, Rulebook, Severity};
use rulebook_tests::workspace_root;

/// Each folder and the provider that reads it.
const FOLDERS: [(&str, &str); 7] = [
    (".trae/rules", "trae"),
    (".augment/rules", "augment"),
    (".aiassistant/rules", "jetbrains-ai"),
    (".openhands/microagents", "openhands"),
    (".qwen/rules", "qwen"),
    (".amazonq/rules", "amazonq"),
    (".kilocode/rules", "kilocode"),
];

fn markdown_files(corpus: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for format in [
        "mdc",
        "claude-rules",
        "cursor-rules-md",
        "windsurf-md",
        "clinerules-dir",
    ] {
        let Ok(entries) = std::fs::read_dir(corpus.join(format)) else {
            continue;
        };
        out.extend(entries.map(|e| e.unwrap().path()));
    }
    out.sort();
    out
}

/// Lays `files` into every folder (as `NNNN.md`, so no two share a name), discovers, and
/// returns per provider: rules, invalid, warnings.
fn run(files: &[PathBuf]) -> BTreeMap<&'static str, (usize, usize, usize)> {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    for (folder, _) in FOLDERS {
        let to = project.join(folder);
        std::fs::create_dir_all(&to).unwrap();
        for (i, file) in files.iter().enumerate() {
            std::fs::copy(file, to.join(format!("{i:04}.md"))).unwrap();
        }
    }
    let book = Rulebook::discover(
        &project,
        Some(&home),
        &Options::new()
            .project_root(&project)
            .allow_providers(FOLDERS.iter().map(|(_, id)| *id)),
    );
    let mut table = BTreeMap::new();
    for (folder, id) in FOLDERS {
        let dir = project.join(folder);
        let of = |p: &Path| p.starts_with(&dir);
        let all: Vec<_> = book.all().iter().filter(|e| of(&e.item.path)).collect();
        // Every file is accounted for: one entry a file.
        assert_eq!(
            all.len(),
            files.len(),
            "{id}: {} entries for {} files",
            all.len(),
            files.len()
        );
        let invalid = book.invalid().filter(|(r, _)| of(&r.path)).count();
        let warnings: Vec<_> = book
            .diagnostics()
            .iter()
            .filter(|d| d.severity == Severity::Warning && d.path.as_deref().is_some_and(of))
            .collect();
        // A warning names its file, and the file is one of the folder's.
        for d in &warnings {
            let path = d.path.as_deref().unwrap();
            assert!(path.is_file(), "{id}: {d}");
        }
        table.insert(id, (all.len() - invalid, invalid, warnings.len()));
    }
    table
}

#[test]
fn the_vendored_sample_loads_in_every_new_folder() {
    let files = markdown_files(&workspace_root().join("fixtures/corpus"));
    assert!(files.len() >= 20, "only {} sample files", files.len());
    let table = run(&files);
    // Raw readers keep every file (none is empty in the sample).
    assert_eq!(table["amazonq"].1, 0);
    assert_eq!(table["kilocode"].1, 0);
}

#[test]
fn the_full_corpus_loads_in_every_new_folder() {
    let corpus = std::env::var_os("RULEBOOK_CORPUS")
        .map_or_else(|| workspace_root().join("../shared/corpus"), PathBuf::from);
    if !corpus.join("MANIFEST.tsv").is_file() {
        eprintln!("skipped: no corpus at {}", corpus.display());
        return;
    }
    let files = markdown_files(&corpus);
    let table = run(&files);
    for (id, (rules, invalid, warnings)) in &table {
        eprintln!("{id:<14} {rules:>5} rules {invalid:>4} invalid {warnings:>5} warnings");
    }
}
