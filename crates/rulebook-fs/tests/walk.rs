//! The walker and reader on temporary trees (behaviour.md §2, §4).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fs;
use std::path::Path;

use rulebook_fs::{ReadOptions, read_rule_file, walk_rules_dir, walk_rules_dir_only};
use rulebook_rule::DiagnosticCode;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn rel(root: &Path, files: &[std::path::PathBuf]) -> Vec<String> {
    files
        .iter()
        .map(|p| {
            p.strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect()
}

#[test]
fn order_is_depth_first_bytewise() {
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "a.md", "a-b.md", "a/x.md", "a/a.md", "B.md", "b.mdc", "c.MD", "d.txt",
    ] {
        write(dir.path(), f, "x");
    }
    let walked = walk_rules_dir(dir.path(), &["md", "mdc"]);
    assert_eq!(
        rel(dir.path(), &walked.files),
        ["B.md", "a/a.md", "a/x.md", "a-b.md", "a.md", "b.mdc"]
    );
    assert!(walked.diagnostics.is_empty());
}

#[test]
fn hidden_node_modules_and_git_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "keep.md",
        ".hidden.md",
        ".hidden/inner.md",
        "node_modules/dep.md",
        "sub/node_modules/dep.md",
        ".git/x.md",
        "sub/ok.md",
    ] {
        write(dir.path(), f, "x");
    }
    let walked = walk_rules_dir(dir.path(), &["md"]);
    assert_eq!(rel(dir.path(), &walked.files), ["keep.md", "sub/ok.md"]);
}

#[test]
fn hidden_root_is_walked() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".cursor/rules/a.mdc", "x");
    let root = dir.path().join(".cursor/rules");
    let walked = walk_rules_dir(&root, &["mdc"]);
    assert_eq!(rel(&root, &walked.files), ["a.mdc"]);
}

#[test]
fn gitignore_only_inside_a_git_repository() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "rules/.gitignore", "ignored.md\n");
    write(dir.path(), "rules/.ignore", "dotignored.md\n");
    for f in ["rules/ignored.md", "rules/dotignored.md", "rules/kept.md"] {
        write(dir.path(), f, "x");
    }
    let root = dir.path().join("rules");
    // Not a repository: .gitignore is not read, .ignore is.
    let walked = walk_rules_dir(&root, &["md"]);
    assert_eq!(rel(&root, &walked.files), ["ignored.md", "kept.md"]);
    // Inside a repository: both are.
    fs::create_dir(dir.path().join(".git")).unwrap();
    let walked = walk_rules_dir(&root, &["md"]);
    assert_eq!(rel(&root, &walked.files), ["kept.md"]);
}

#[test]
fn missing_directory_is_silent() {
    let dir = tempfile::tempdir().unwrap();
    let walked = walk_rules_dir(&dir.path().join("nope"), &["md"]);
    assert!(walked.files.is_empty() && walked.diagnostics.is_empty());
}

#[cfg(unix)]
#[test]
fn symlinks() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "elsewhere/target.md", "x");
    write(dir.path(), "elsewhere/sub/inner.md", "x");
    let root = dir.path().join("rules");
    fs::create_dir(&root).unwrap();
    symlink(
        dir.path().join("elsewhere/target.md"),
        root.join("linked.md"),
    )
    .unwrap();
    symlink(dir.path().join("elsewhere/sub"), root.join("linkdir")).unwrap();
    symlink(dir.path().join("missing.md"), root.join("broken.md")).unwrap();
    let walked = walk_rules_dir(&root, &["md"]);
    // The file link is reported under the link's path; the directory link is not entered.
    assert_eq!(rel(&root, &walked.files), ["linked.md"]);
    let codes: Vec<_> = walked.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        [DiagnosticCode::ReadFailed, DiagnosticCode::WalkFailed]
    );
    assert!(walked.diagnostics[0].message.contains("broken symlink"));
    assert!(walked.diagnostics[1].message.contains("not followed"));
}

#[cfg(unix)]
#[test]
fn root_symlink_to_directory_is_walked() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "real/a.md", "x");
    symlink(dir.path().join("real"), dir.path().join(".clinerules")).unwrap();
    let root = dir.path().join(".clinerules");
    let walked = walk_rules_dir(&root, &["md"]);
    assert_eq!(rel(&root, &walked.files), ["a.md"]);
}

#[cfg(unix)]
#[test]
fn unreadable_file_warns_and_others_load() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "secret.md", "x");
    let path = dir.path().join("secret.md");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read(&path).is_ok() {
        // Running as root: permissions cannot make the file unreadable; nothing to test.
        eprintln!("skipped: files cannot be made unreadable for this user");
        return;
    }
    let (text, diagnostics) = read_rule_file(&path, &ReadOptions::new());
    assert!(text.is_none());
    assert_eq!(
        diagnostics[0].message,
        format!("Failed to read file: {}", path.display())
    );
}

#[test]
fn read_errors_use_the_spec_message() {
    let dir = tempfile::tempdir().unwrap();
    // A directory cannot be read as a file.
    let path = dir.path().join("dir.md");
    fs::create_dir(&path).unwrap();
    let (text, diagnostics) = read_rule_file(&path, &ReadOptions::new());
    assert!(text.is_none());
    assert_eq!(
        diagnostics[0].message,
        format!("Failed to read file: {}", path.display())
    );
    let (_, detailed) = read_rule_file(&path, &ReadOptions::new().detailed_errors(true));
    assert!(detailed[0].message.starts_with(&diagnostics[0].message));
    assert!(detailed[0].message.len() > diagnostics[0].message.len());
}

#[test]
fn bom_and_invalid_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let bom = dir.path().join("bom.md");
    fs::write(&bom, b"\xEF\xBB\xBF---\nx: 1\n---\nbody").unwrap();
    let (text, diagnostics) = read_rule_file(&bom, &ReadOptions::new());
    assert_eq!(text.as_deref(), Some("---\nx: 1\n---\nbody"));
    assert!(diagnostics.is_empty());

    let bad = dir.path().join("bad.md");
    fs::write(&bad, b"line one\nline \xFF two\0nul").unwrap();
    let (text, diagnostics) = read_rule_file(&bad, &ReadOptions::new());
    assert_eq!(text.as_deref(), Some("line one\nline \u{FFFD} two\0nul"));
    assert_eq!(diagnostics[0].code, DiagnosticCode::InvalidUtf8);
    assert_eq!(diagnostics[0].line, Some(2));
}

#[test]
fn size_cap() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.md");
    fs::write(&big, vec![b'a'; 101]).unwrap();
    let (text, diagnostics) = read_rule_file(&big, &ReadOptions::new().max_size(Some(100)));
    assert!(text.is_none());
    assert_eq!(diagnostics[0].code, DiagnosticCode::TooLarge);
    let (text, _) = read_rule_file(&big, &ReadOptions::new().max_size(Some(101)));
    assert_eq!(text.map(|t| t.len()), Some(101));
}

#[cfg(unix)]
#[test]
fn project_boundary() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "outside/secret.md", "x");
    write(dir.path(), "project/inside.md", "x");
    let project = dir.path().join("project");
    symlink(
        dir.path().join("outside/secret.md"),
        project.join("leak.md"),
    )
    .unwrap();
    let options = ReadOptions::new().project_root(Some(project.clone()));
    let (text, diagnostics) = read_rule_file(&project.join("leak.md"), &options);
    assert!(text.is_none());
    assert_eq!(diagnostics[0].code, DiagnosticCode::OutsideProject);
    let (text, diagnostics) = read_rule_file(&project.join("inside.md"), &options);
    assert!(text.is_some() && diagnostics.is_empty());
}

/// The walk led straight to some files lists each of them exactly when the whole walk
/// does: hidden entries, `node_modules`, other extensions, links, a folder that is a link,
/// files an ignore file leaves out (below the root or above it), files deeper down. With
/// no ignore file in reach, the files are told by their paths; with one, by the walk.
#[test]
fn a_walk_led_to_some_files_lists_them_as_the_whole_walk_does() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().canonicalize().unwrap();
    let root = top.join("project/.cursor/rules");
    let files = [
        "a.mdc",
        "b.md",
        "c.txt",
        ".hidden.mdc",
        ".hidden/d.mdc",
        "node_modules/e.mdc",
        "group/f.mdc",
        "group/deeper/g.mdc",
        "ignored/h.mdc",
        "kept/i.mdc",
        "kept/j.mdc",
        "noext",
        ".mdc",
    ];
    for file in files {
        write(&root, file, "x");
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root.join("a.mdc"), root.join("link.mdc")).unwrap();
        std::os::unix::fs::symlink(root.join("group"), root.join("linked")).unwrap();
        std::os::unix::fs::symlink(root.join("missing.mdc"), root.join("broken.mdc")).unwrap();
    }
    let mut candidates: Vec<std::path::PathBuf> = files.iter().map(|f| root.join(f)).collect();
    candidates.extend(
        [
            "link.mdc",
            "linked/f.mdc",
            "broken.mdc",
            "absent.mdc",
            "group",
        ]
        .iter()
        .map(|f| root.join(f)),
    );
    candidates.push(top.join("elsewhere.mdc"));
    let check = |when: &str| {
        let whole = walk_rules_dir(&root, &["mdc"]).files;
        for path in &candidates {
            let only = [path.clone()].into_iter().collect();
            let led = walk_rules_dir_only(&root, &["mdc"], &only).files;
            assert_eq!(
                led.contains(path),
                whole.contains(path),
                "{when}: {}",
                path.display()
            );
            assert!(led.iter().all(|f| f == path), "{when}: {led:?}");
        }
        // Several at once, in the walk's order.
        let only = candidates.iter().cloned().collect();
        let led = walk_rules_dir_only(&root, &["mdc"], &only).files;
        assert_eq!(led, whole, "{when}");
    };
    check("no ignore file");
    fs::write(root.join(".ignore"), "ignored/\n").unwrap();
    check("an ignore file in the root");
    fs::remove_file(root.join(".ignore")).unwrap();
    fs::create_dir(top.join("project/.git")).unwrap();
    fs::write(top.join("project/.gitignore"), "j.mdc\n").unwrap();
    check("a .gitignore above the root");
    assert!(
        !walk_rules_dir(&root, &["mdc"])
            .files
            .contains(&root.join("kept/j.mdc"))
    );
}
