//! The bad-input table: each row is a hostile or broken input next to a valid rule. Each
//! must give a clear warning (where there is something to say), no panic, no hang, and
//! bounded memory; the valid neighbour must still load.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rulebook::{DiagnosticCode, Options, Profile, Rulebook};

const GOOD: &str = "---\ndescription: the valid neighbour\n---\nKeep me.\n";

struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Self {
        let p = Self {
            dir: tempfile::tempdir().unwrap(),
        };
        p.write(".xcsh/rules/good.md", GOOD.as_bytes());
        // An empty home: a missing one is a warning of its own.
        fs::create_dir_all(p.root().join("no-home")).unwrap();
        p
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, rel: &str, bytes: &[u8]) -> PathBuf {
        let path = self.root().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, bytes).unwrap();
        path
    }

    fn discover(&self, profile: Profile) -> Rulebook {
        Rulebook::discover(
            self.root(),
            Some(self.root().join("no-home")),
            &Options::new().profile(profile),
        )
    }

    /// Discovers under both profiles, checks the neighbour survived, returns both.
    fn both(&self) -> [Rulebook; 2] {
        [Profile::Reference, Profile::Extended].map(|profile| {
            let book = self.discover(profile);
            assert!(
                book.items()
                    .any(|r| r.name == "good" && r.content == "Keep me."),
                "{profile:?}: the valid neighbour was lost"
            );
            book
        })
    }
}

fn codes(book: &Rulebook) -> Vec<DiagnosticCode> {
    book.diagnostics().iter().map(|d| d.code).collect()
}

#[test]
fn non_utf8_bytes() {
    let p = Project::new();
    p.write(
        ".xcsh/rules/latin1.md",
        b"---\ndescription: caf\xE9\n---\nna\xEFve body\n",
    );
    for book in p.both() {
        let rule = book.items().find(|r| r.name == "latin1").unwrap();
        assert_eq!(rule.description.as_deref(), Some("caf\u{FFFD}"));
        assert!(codes(&book).contains(&DiagnosticCode::InvalidUtf8));
    }
}

#[test]
fn nul_bytes() {
    let p = Project::new();
    p.write(
        ".xcsh/rules/nul.md",
        b"---\ndescription: a\0b\n---\nbody\0with nul\n",
    );
    for book in p.both() {
        let rule = book.items().find(|r| r.name == "nul").unwrap();
        assert!(rule.content.contains('\0'));
    }
}

#[test]
fn fifty_mib_rule_file() {
    let p = Project::new();
    let mut big = b"---\ndescription: huge\n---\n".to_vec();
    big.resize(50 * 1024 * 1024, b'x');
    p.write(".xcsh/rules/huge.md", &big);
    let [reference, extended] = p.both();
    // Reference reads files of any size (the seeds have no cap); Extended E9 skips it
    // without reading more than the cap.
    assert!(reference.items().any(|r| r.name == "huge"));
    assert!(!extended.items().any(|r| r.name == "huge"));
    assert!(codes(&extended).contains(&DiagnosticCode::TooLarge));
}

#[test]
fn one_hundred_thousand_rule_files_in_one_directory() {
    let p = Project::new();
    let dir = p.root().join(".cursor/rules");
    fs::create_dir_all(&dir).unwrap();
    for i in 0..100_000 {
        fs::write(dir.join(format!("r{i:06}.mdc")), "body").unwrap();
    }
    let start = Instant::now();
    let book = p.discover(Profile::Extended);
    // Not a timing assertion (machines are noisy): a bound that only a hang would break.
    assert!(start.elapsed() < Duration::from_secs(120));
    assert_eq!(book.all().len(), 100_001);
    assert!(book.items().any(|r| r.name == "good"));
}

#[test]
fn two_hundred_levels_deep() {
    let p = Project::new();
    let deep = (0..200)
        .map(|i| format!("d{i}/"))
        .collect::<Vec<_>>()
        .concat();
    p.write(
        &format!(".xcsh/rules/{deep}deep.md"),
        b"---\ndescription: deep\n---\nfound\n",
    );
    for book in p.both() {
        assert!(book.items().any(|r| r.name == "deep"));
    }
}

#[cfg(unix)]
#[test]
fn symlink_loops() {
    use std::os::unix::fs::symlink;
    let p = Project::new();
    let rules = p.root().join(".xcsh/rules");
    symlink(&rules, rules.join("loop")).unwrap(); // a directory link to its own parent
    symlink(rules.join("b.md"), rules.join("a.md")).unwrap(); // a.md -> b.md -> a.md
    symlink(rules.join("a.md"), rules.join("b.md")).unwrap();
    for book in p.both() {
        assert_eq!(book.all().len(), 1);
        let messages: Vec<&str> = book
            .diagnostics()
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert!(
            messages.iter().any(|m| m.contains("not followed")),
            "{messages:?}"
        );
        assert!(
            messages
                .iter()
                .filter(|m| m.contains("broken symlink"))
                .count()
                == 2,
            "{messages:?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn clinerules_symlink_to_the_filesystem_root() {
    use std::os::unix::fs::symlink;
    let p = Project::new();
    symlink("/", p.root().join(".clinerules")).unwrap();
    // Extended E10 refuses the directory before walking it.
    let book = p.discover(Profile::Extended);
    assert!(book.items().any(|r| r.name == "good"));
    assert!(
        book.diagnostics()
            .iter()
            .any(|d| d.code == DiagnosticCode::OutsideProject
                && d.message.contains("rules directory")),
        "{:?}",
        book.diagnostics()
    );
    assert!(book.all().iter().all(|e| e.provider != "cline"));
    // Reference follows the link, as the seeds do, but the walk is bounded
    // (MAX_WALK_ENTRIES, MAX_WALK_DEPTH): it returns, and the neighbour survives.
    let start = Instant::now();
    let book = p.discover(Profile::Reference);
    assert!(book.items().any(|r| r.name == "good"));
    assert!(start.elapsed() < Duration::from_secs(300), "no hang");
}

#[cfg(unix)]
#[test]
fn unreadable_directory() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new();
    let locked = p.write(".xcsh/rules/locked/secret.md", b"x");
    let dir = locked.parent().unwrap();
    fs::set_permissions(dir, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read_dir(dir).is_ok() {
        eprintln!("skipped: running as a user that reads any directory (root)");
        fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
        return;
    }
    for book in p.both() {
        assert!(codes(&book).contains(&DiagnosticCode::WalkFailed));
    }
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(unix)]
#[test]
fn names_with_newlines_and_dot_dot() {
    let p = Project::new();
    p.write(
        ".xcsh/rules/two\nlines.md",
        b"---\ndescription: a name with a newline\n---\nx\n",
    );
    p.write(".xcsh/rules/...md", b"---\ndescription: dots\n---\nx\n");
    for book in p.both() {
        assert!(book.items().any(|r| r.name == "two\nlines"));
        // `rule://` names are exact: no path is ever built from them.
        assert!(book.resolve("rule://../../etc/passwd").is_err());
        assert!(book.resolve("rule://two%0Alines").is_ok());
    }
}

#[test]
fn yaml_bomb() {
    let p = Project::new();
    let mut doc = String::from("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
    let mut prev = 'a';
    for name in 'b'..='k' {
        let items = vec![format!("*{prev}"); 10].join(", ");
        doc.push_str(&format!("{name}: &{name} [{items}]\n"));
        prev = name;
    }
    doc.push_str("description: bomb\n---\nbody\n");
    p.write(".xcsh/rules/bomb.md", doc.as_bytes());
    for book in p.both() {
        assert!(codes(&book).contains(&DiagnosticCode::YamlSyntax));
        let message = &book.diagnostics()[0].message;
        assert!(message.contains("aliases"), "{message}");
    }
}

#[test]
fn ten_thousand_line_frontmatter() {
    let p = Project::new();
    let mut doc = String::from("---\n");
    for i in 0..10_000 {
        doc.push_str(&format!("key{i}: value {i}\n"));
    }
    doc.push_str("description: long\n---\nbody\n");
    p.write(".xcsh/rules/long.md", doc.as_bytes());
    for book in p.both() {
        let rule = book.items().find(|r| r.name == "long").unwrap();
        assert_eq!(rule.frontmatter.len(), 10_001);
        assert_eq!(rule.description.as_deref(), Some("long"));
    }
}

#[test]
fn catastrophic_backtracking_trigger() {
    let p = Project::new();
    p.write(
        ".xcsh/rules/redos.md",
        b"---\ncondition: \"(a+)+$\"\n---\nA pattern that hangs a backtracking engine.\n",
    );
    let mut book = p.discover(Profile::Extended);
    let stream = format!("{}b", "a".repeat(1 << 20));
    let start = Instant::now();
    let ttsr = book.ttsr_mut();
    for chunk in stream.as_bytes().chunks(4096) {
        ttsr.feed(std::str::from_utf8(chunk).unwrap());
    }
    let mut fresh = TtsrCheck::new(&p);
    assert!(fresh.check(&stream).is_empty());
    assert!(start.elapsed() < Duration::from_secs(60), "no hang");
}

/// A second discovery, to run `check` on a manager whose rules have not fired.
struct TtsrCheck(Rulebook);

impl TtsrCheck {
    fn new(p: &Project) -> Self {
        Self(p.discover(Profile::Extended))
    }

    fn check(&mut self, buffer: &str) -> Vec<String> {
        self.0
            .ttsr_mut()
            .check(buffer)
            .iter()
            .map(|f| f.name.to_owned())
            .collect()
    }
}

#[test]
fn the_binary_survives_all_of_it() {
    // One project holding several rows at once, through `check --json`.
    let p = Project::new();
    p.write(
        ".cursor/rules/latin1.mdc",
        b"---\ndescription: caf\xE9\n---\nx",
    );
    p.write(".cursor/rules/empty.mdc", b"");
    p.write(".cursor/rules/only-dashes.mdc", b"---");
    p.write(
        ".cursor/rules/bad.mdc",
        b"---\nglobs: *.ts\ncondition: \"(\"\n---\n",
    );
    let output = std::process::Command::new(rulebook_tests::rulebook_binary())
        .args(["check", "--json", "--cwd"])
        .arg(p.root())
        .arg("--home")
        .arg(p.root().join("no-home"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["files"], 5);
    assert!(value["errors"].as_u64().unwrap() >= 3);
}
