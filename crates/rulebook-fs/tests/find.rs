//! The nested-rules walk (`find_named`), Cline's upward search, ownership, what a walk says
//! of entries that are not rule files, and its depth bound: each pinned by the crate's own
//! tests, on temporary trees.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fs;
use std::path::{Path, PathBuf};

use rulebook_fs::{find_dirs, find_named, find_upward, owned_by_another_user, walk_rules_dir};

fn touch(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, "x").unwrap();
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(ToString::to_string).collect()
}

#[test]
fn find_named_lists_the_directories_below_the_root_that_hold_a_wanted_name() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for file in [
        ".cursor/rules/top.mdc",
        "AGENTS.md",
        "apps/api/.cursor/rules/x.mdc",
        "apps/api/AGENTS.md",
        "apps/web/AGENTS.md",
        "apps/api/.cursor/nested/AGENTS.md",
        "node_modules/pkg/AGENTS.md",
        ".git/AGENTS.md",
        ".hidden/AGENTS.md",
        "docs/readme.md",
    ] {
        touch(&root.join(file));
    }
    let found = find_named(root, &names(&[".cursor", "AGENTS.md"]));
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    let by: Vec<(String, Vec<PathBuf>)> = found.by_name.into_iter().collect();
    assert_eq!(
        by,
        [
            (".cursor".to_owned(), vec![root.join("apps/api")]),
            (
                "AGENTS.md".to_owned(),
                vec![root.join("apps/api"), root.join("apps/web")]
            ),
        ],
        "the root itself, node_modules, .git, hidden directories and the inside of a wanted directory are left out"
    );
    assert_eq!(find_named(root, &[]), rulebook_fs::Found::default());
}

/// What a watcher watches is what discovery reads. A chain of
/// directory links (2 links per level, 18 levels: 2^18 paths when followed) adds no entry.
#[cfg(unix)]
#[test]
fn find_dirs_lists_what_discovery_reads_and_follows_no_link() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for file in [
        ".cursor/rules/deep/x.mdc",
        ".cursor/rules/.hidden/x.mdc",
        "apps/api/AGENTS.md",
        "node_modules/pkg/AGENTS.md",
        ".git/objects/x",
        ".hidden/AGENTS.md",
    ] {
        touch(&root.join(file));
    }
    for level in 0..=18 {
        fs::create_dir_all(root.join(format!("links/l{level}"))).unwrap();
    }
    for level in 0..18 {
        for name in ["x", "y"] {
            std::os::unix::fs::symlink(
                format!("../l{}", level + 1),
                root.join(format!("links/l{level}/{name}")),
            )
            .unwrap();
        }
    }
    let (dirs, cut) = find_dirs(root, &names(&[".cursor", "AGENTS.md"]));
    assert!(!cut);
    let relative: Vec<String> = dirs
        .iter()
        .map(|d| d.strip_prefix(root).unwrap().to_string_lossy().into_owned())
        .collect();
    let mut expected = vec![
        String::new(),
        ".cursor".to_owned(),
        ".cursor/rules".to_owned(),
        ".cursor/rules/deep".to_owned(),
        "apps".to_owned(),
        "apps/api".to_owned(),
        "links".to_owned(),
    ];
    expected.extend((0..=18).map(|level| format!("links/l{level}")));
    expected.sort();
    assert_eq!(relative, expected);
}

#[test]
fn find_upward_finds_the_nearest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("a/b/c")).unwrap();
    touch(&root.join(".clinerules"));
    touch(&root.join("a/b/.clinerules"));
    assert_eq!(
        find_upward(&root.join("a/b/c"), ".clinerules"),
        Some(root.join("a/b/.clinerules"))
    );
    assert_eq!(
        find_upward(&root.join("a"), ".clinerules"),
        Some(root.join(".clinerules"))
    );
    assert_eq!(
        find_upward(&root.join("a"), ".no-such-name-rulebook-test"),
        None
    );
}

#[test]
fn a_file_of_ours_is_not_another_users() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.md");
    touch(&file);
    assert!(!owned_by_another_user(&file));
    assert!(!owned_by_another_user(&dir.path().join("missing.md")));
    // Only root can give a file away.
    if std::os::unix::fs::chown(&file, Some(54_321), None).is_ok() {
        assert!(owned_by_another_user(&file));
    }
}

/// What a walk says of entries that are not regular files, each in its own words.
#[test]
fn entries_that_are_not_files_are_named_for_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    fs::create_dir_all(&rules).unwrap();
    touch(&rules.join("real.md"));
    std::os::unix::fs::symlink("/dev/null", rules.join("device.md")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(rules.join("socket.md")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(rules.join("fifo.md"))
        .status()
        .is_ok_and(|s| s.success());
    fs::create_dir_all(rules.join("folder.md")).unwrap();
    touch(&rules.join("folder.md/inner.md"));
    let walked = walk_rules_dir(&rules, &["md"]);
    assert_eq!(
        walked.files,
        [rules.join("folder.md/inner.md"), rules.join("real.md")],
        "a directory named like a rule file is walked into, not read"
    );
    let messages: Vec<&str> = walked
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    let says = |what: &str| messages.iter().any(|m| m.contains(what));
    assert!(says("it is a device, not a regular file"), "{messages:?}");
    assert!(says("it is a socket, not a regular file"), "{messages:?}");
    if fifo {
        assert!(says("it is a FIFO, not a regular file"), "{messages:?}");
    }
    // A rules "directory" that is a file.
    let walked = walk_rules_dir(&rules.join("real.md"), &["md"]);
    assert!(
        walked.diagnostics[0]
            .message
            .contains("it is a file, not a directory"),
        "{:?}",
        walked.diagnostics
    );
    assert!(
        !messages.iter().any(|m| m.contains("folder.md")),
        "a directory is walked, not reported: {messages:?}"
    );
    // A rules directory under a file cannot be read: said, not silent.
    let walked = walk_rules_dir(&rules.join("real.md/rules"), &["md"]);
    assert!(
        walked.diagnostics[0]
            .message
            .contains("Could not read the rules directory"),
        "{:?}",
        walked.diagnostics
    );
    // A missing one is the common case: silent.
    let walked = walk_rules_dir(&rules.join("missing"), &["md"]);
    assert!(walked.files.is_empty() && walked.diagnostics.is_empty());
}

/// A walk goes `MAX_WALK_DEPTH` levels below its root and says how many entries it skipped
/// beyond.
#[test]
fn the_depth_bound_is_exact() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    let mut deepest = rules.clone();
    for _ in 0..rulebook_fs::MAX_WALK_DEPTH - 1 {
        deepest.push("d");
    }
    touch(&deepest.join("at-the-bound.md"));
    touch(&deepest.join("d/beyond.md"));
    let walked = walk_rules_dir(&rules, &["md"]);
    assert_eq!(walked.files, [deepest.join("at-the-bound.md")]);
    assert_eq!(walked.diagnostics.len(), 1, "{:?}", walked.diagnostics);
    assert!(
        walked.diagnostics[0].message.starts_with(&format!(
            "Skipped 1 entries more than {}",
            rulebook_fs::MAX_WALK_DEPTH
        )),
        "{}",
        walked.diagnostics[0].message
    );
}
