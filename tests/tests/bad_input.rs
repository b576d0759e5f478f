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
            Some(&self.root().join("no-home")),
            &Options::new().profile(profile),
        )
    }

    /// Discovers under both profiles, checks the neighbour survived, returns both.
    fn both(&self) -> [Rulebook; 2] {
        [Profile::Reference, Profile::Extended].map(|profile| {
            let book = self.discover(profile);
            assert!(
                book.items()
                    .any(|r| r.name == "good" && &*r.content == "Keep me."),
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

/// Runs `f` on a thread and fails (instead of hanging the suite) when it does not return
/// within a bound only a hang would reach.
fn within_bound<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{what}: no answer within 60 s (a hang)"))
}

fn mkfifo(path: &Path) -> bool {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// A FIFO where a whole-file source or a rule file is expected: only regular files are
/// read (opening a FIFO for reading blocks until a writer comes: forever).
#[cfg(unix)]
#[test]
fn fifos_and_devices_are_not_read() {
    let p = Project::new();
    let fifos = [
        ".clinerules",
        ".cursorrules",
        ".windsurfrules",
        ".xcsh/rules/pipe.md",
    ];
    for rel in fifos {
        if !mkfifo(&p.root().join(rel)) {
            eprintln!("skipped: no mkfifo");
            return;
        }
    }
    let home = p.root().join("no-home");
    if !mkfifo(&home.join(".codeium/windsurf/memories/global_rules.md")) {
        return;
    }
    std::os::unix::fs::symlink("/dev/zero", p.root().join(".xcsh/rules/zero.md")).unwrap();
    let root = p.root().to_path_buf();
    for profile in [Profile::Reference, Profile::Extended] {
        let root = root.clone();
        let book = within_bound("discovery with FIFOs", move || {
            Rulebook::discover(
                &root,
                Some(&root.join("no-home")),
                &Options::new().profile(profile),
            )
        });
        assert!(book.items().any(|r| r.name == "good"));
        let not_files = book
            .diagnostics()
            .iter()
            .filter(|d| d.code == DiagnosticCode::NotAFile)
            .count();
        // Reference reads neither legacy file; Extended reads both.
        let expected = if profile == Profile::Extended { 6 } else { 4 };
        assert_eq!(
            not_files,
            expected,
            "{profile:?}: {:#?}",
            book.diagnostics()
        );
    }
}

/// `.cursorrules -> /proc/self/fd/0` put standard input into the prompt; a chain whose real
/// path exceeds `PATH_MAX` put an outside file there. Extended E10 must never fail open.
#[cfg(target_os = "linux")]
#[test]
fn e10_never_fails_open() {
    let p = Project::new();
    std::os::unix::fs::symlink("/proc/self/fd/0", p.root().join(".cursorrules")).unwrap();
    // A secret whose real path is longer than PATH_MAX (4096): built in two hops of links,
    // each under the limit.
    let outside = tempfile::tempdir().unwrap();
    let first = repeated(12, |i| format!("{}{i}/", "d".repeat(200)));
    let deep = outside.path().join(&first);
    fs::create_dir_all(&deep).unwrap();
    let hop = outside.path().join("hop");
    std::os::unix::fs::symlink(&deep, &hop).unwrap();
    let second = repeated(12, |i| format!("{}{i}/", "e".repeat(200)));
    // Past PATH_MAX a path cannot be named whole: go down one directory at a time.
    let steps = repeated(12, |i| {
        format!(" && mkdir {0}{i} && cd -P {0}{i}", "e".repeat(200))
    });
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "cd '{}'{steps} && echo 'SECRET TEXT' > secret.md",
            deep.display()
        ))
        .status()
        .unwrap();
    assert!(status.success());
    std::os::unix::fs::symlink(
        format!("{}/{second}secret.md", hop.display()),
        p.root().join(".xcsh/rules/leak.md"),
    )
    .unwrap();
    let book = p.discover(Profile::Extended);
    let prompt = book.system_prompt_section();
    assert!(!prompt.contains("SECRET TEXT"), "{prompt}");
    assert!(book.resolve("rule://leak").is_err());
    let refused = book
        .diagnostics()
        .iter()
        .filter(|d| d.code == DiagnosticCode::OutsideProject || d.code == DiagnosticCode::NotAFile)
        .count();
    assert!(refused >= 2, "{:#?}", book.diagnostics());
}

/// A rule file swapped for a link to an outside file while discovery runs is never read:
/// the check is made on the opened file, not on the path again.
#[cfg(unix)]
#[test]
fn a_file_swapped_for_a_link_during_discovery_is_not_read() {
    let p = Project::new();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.md");
    fs::write(&secret, "---\ndescription: s\n---\nSECRET TEXT\n").unwrap();
    let target = p.root().join(".xcsh/rules/swap.md");
    let plain = p.root().join(".xcsh/swap-plain.md");
    let linked = p.root().join(".xcsh/swap-link.md");
    fs::write(&plain, "---\ndescription: fine\n---\nFine.\n").unwrap();
    std::os::unix::fs::symlink(&secret, &linked).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (stop, target) = (stop.clone(), target.clone());
        std::thread::spawn(move || {
            let mut flip = false;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let from = if flip { &plain } else { &linked };
                let _ = swap_in(from, &target);
                flip = !flip;
            }
        })
    };
    for _ in 0..300 {
        let book = p.discover(Profile::Extended);
        assert!(
            !book.system_prompt_section().contains("SECRET"),
            "an outside file was read through a swapped link"
        );
        assert!(book.items().all(|r| !r.content.contains("SECRET")));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().unwrap();
}

/// A file of a skill's folder (and its `SKILL.md`) swapped for a link to an outside file
/// while `skill://` URLs are read is never printed: the check is made on the opened file.
#[cfg(unix)]
#[test]
fn a_skill_file_swapped_for_a_link_is_not_read() {
    let p = Project::new();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.md");
    fs::write(
        &secret,
        "---\nname: pdf\ndescription: s\n---\nSECRET TEXT\n",
    )
    .unwrap();
    p.write(
        ".xcsh/skills/pdf/SKILL.md",
        b"---\nname: pdf\ndescription: PDFs\n---\nUse pdftotext.\n",
    );
    let folder = p.root().join(".xcsh/skills/pdf");
    let (plain, linked) = (p.root().join("plain.md"), p.root().join("linked.md"));
    fs::write(&plain, "---\nname: pdf\ndescription: PDFs\n---\nFine.\n").unwrap();
    std::os::unix::fs::symlink(&secret, &linked).unwrap();
    let book = p.discover(Profile::Extended);
    assert!(book.skill("pdf").is_some(), "{:#?}", book.diagnostics());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (stop, folder) = (stop.clone(), folder.clone());
        std::thread::spawn(move || {
            let mut flip = false;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let from = if flip { &plain } else { &linked };
                let _ = swap_in(from, &folder.join("ref.md"));
                let _ = swap_in(from, &folder.join("SKILL.md"));
                flip = !flip;
            }
        })
    };
    let mut read = 0;
    for _ in 0..2000 {
        for url in ["skill://pdf/ref.md", "skill://pdf"] {
            if let Ok(resource) = book.resolve_skill(url) {
                read += 1;
                assert!(
                    !resource.content.contains("SECRET"),
                    "{url}: an outside file was read through a swapped link"
                );
            }
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().unwrap();
    assert!(read > 0, "no read went through: the test proves nothing");
}

/// `part(0) + part(1) + …` for `n` parts.
fn repeated(n: usize, part: impl Fn(usize) -> String) -> String {
    let mut out = String::new();
    for i in 0..n {
        out.push_str(&part(i));
    }
    out
}

/// Puts a copy of `from` (a regular file, or the symlink itself) at `to` with one atomic
/// rename, so `to` is always one or the other.
#[cfg(unix)]
fn swap_in(from: &Path, to: &Path) -> std::io::Result<()> {
    let tmp = to.with_extension("tmp");
    let _ = fs::remove_file(&tmp);
    if fs::symlink_metadata(from)?.file_type().is_symlink() {
        std::os::unix::fs::symlink(fs::read_link(from)?, &tmp)?;
    } else {
        fs::copy(from, &tmp)?;
    }
    fs::rename(&tmp, to)
}

/// `.clinerules` in a shared parent directory (a sticky `/tmp`) above the repository.
#[test]
fn clinerules_above_the_project_root() {
    let shared = tempfile::tempdir().unwrap();
    fs::write(shared.path().join(".clinerules"), "PLANTED RULE\n").unwrap();
    let repo = shared.path().join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    fs::create_dir_all(repo.join("home")).unwrap();
    let discover = |profile| {
        Rulebook::discover(
            &repo,
            Some(&repo.join("home")),
            &Options::new().profile(profile),
        )
    };
    // Extended: Cline reads `.clinerules` at the workspace root only.
    let extended = discover(Profile::Extended);
    assert!(extended.items().all(|r| r.name != "clinerules"));
    // Reference searches upward, as the original does, but says where it found it.
    let reference = discover(Profile::Reference);
    assert!(reference.items().any(|r| r.name == "clinerules"));
    assert!(
        reference
            .diagnostics()
            .iter()
            .any(|d| d.code == DiagnosticCode::OutsideProject
                && d.message.contains("above the project root")),
        "{:#?}",
        reference.diagnostics()
    );
}

/// 5,000 nested block sequences, deeply nested block maps: recursion in the YAML loader
/// overflowed a provider thread's stack (abort, both profiles).
#[test]
fn deeply_nested_yaml() {
    let p = Project::new();
    let seqs = format!(
        "---\ndescription: deep\nx:\n{}y\n---\nbody\n",
        "- ".repeat(5_000)
    );
    p.write(".xcsh/rules/seqs.md", seqs.as_bytes());
    // 1,000 levels (0.5 MB of indentation; 10,000 would pass the size cap of Extended).
    let mut maps = String::from("---\ndescription: deep\n");
    for i in 0..1_000 {
        maps.push_str(&" ".repeat(i));
        maps.push_str("k:\n");
    }
    maps.push_str("---\nbody\n");
    p.write(".xcsh/rules/maps.md", maps.as_bytes());
    for book in p.both() {
        let nested = book
            .diagnostics()
            .iter()
            .filter(|d| d.code == DiagnosticCode::YamlSyntax && d.message.contains("nested deeper"))
            .count();
        assert_eq!(nested, 2, "{:#?}", book.diagnostics());
        // The line parser still finds the description.
        assert!(
            book.items()
                .any(|r| r.name == "seqs" && r.description.as_deref() == Some("deep"))
        );
    }
}

/// A glob 100,000 braces deep overflowed globset's stack; one bad glob turned off every
/// rule's globs.
#[test]
fn hostile_and_broken_globs() {
    let p = Project::new();
    let deep = format!(
        "---\ndescription: deep\nglobs: [\"{}\", \"*.md\"]\n---\nbody\n",
        "{".repeat(100_000)
    );
    p.write(".xcsh/rules/deep-glob.md", deep.as_bytes());
    p.write(
        ".xcsh/rules/bad-glob.md",
        b"---\ndescription: bad\nglobs: [\"a[\", \"*.rs\"]\n---\nbody\n",
    );
    p.write(
        ".xcsh/rules/ts.md",
        b"---\ndescription: ts\nglobs: \"*.ts\"\n---\nbody\n",
    );
    let book = p.discover(Profile::Extended);
    let names =
        |path: &str| -> Vec<String> { book.matches(path).into_iter().map(|m| m.name).collect() };
    assert_eq!(names("a.ts"), ["ts"]);
    assert_eq!(names("a.rs"), ["bad-glob"]);
    assert_eq!(names("x.md"), ["deep-glob"]);
    let warnings = book.glob_diagnostics();
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("`bad-glob`") && w.message.contains("\"a[\""))
    );
    assert!(
        warnings
            .iter()
            .all(|w| w.code == DiagnosticCode::InvalidGlob && w.message.len() < 600)
    );
}

/// A trigger that validates but could never fire (the regex size limit at match time), and
/// its compile cost at every discovery.
#[test]
fn huge_triggers_are_refused_quickly_by_the_check_matching_uses() {
    let p = Project::new();
    for i in 0..100 {
        p.write(
            &format!(".xcsh/rules/huge-{i}.md"),
            b"---\ndescription: huge\ncondition: \"(?:\\\\w+){500}\"\n---\nbody\n",
        );
    }
    let root = p.root().to_path_buf();
    let book = within_bound("discovery of 100 huge triggers", move || {
        Rulebook::discover(&root, Some(&root.join("no-home")), &Options::new())
    });
    let refused = book
        .diagnostics()
        .iter()
        .filter(|d| d.code == DiagnosticCode::InvalidTrigger)
        .count();
    assert_eq!(refused, 100);
    assert_eq!(book.bucket(rulebook::RuleBucket::Ttsr).len(), 0);
}

/// A directory where a rules directory's files were expected to be readable: every error
/// but "not found" is a warning (here: `.cursor/rules` is a file).
#[test]
fn a_rules_directory_that_is_a_file_is_a_warning() {
    let p = Project::new();
    p.write(".cursor/rules", b"not a directory");
    let book = p.discover(Profile::Extended);
    assert!(
        book.diagnostics()
            .iter()
            .any(|d| d.code == DiagnosticCode::NotAFile),
        "{:#?}",
        book.diagnostics()
    );
}

/// A `--home` that does not exist is said, not silently read as "no user rules".
#[test]
fn a_missing_home_is_a_warning() {
    let p = Project::new();
    let book = Rulebook::discover(p.root(), Some(&p.root().join("nowhere")), &Options::new());
    assert_eq!(book.diagnostics()[0].code, DiagnosticCode::MissingDirectory);
}

/// A memory file (CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md,
/// GEMINI.md, and nested ones) that links to a file outside the project is refused with
/// the boundary's warning, as every other rule location refuses it.
#[cfg(unix)]
#[test]
fn memory_files_linked_out_of_the_project_are_refused() {
    let p = Project::new();
    fs::create_dir_all(p.root().join(".git")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.md");
    fs::write(&secret, "OUTSIDE SECRET\n").unwrap();
    let links = [
        "CLAUDE.md",
        "CLAUDE.local.md",
        ".claude/CLAUDE.md",
        "GEMINI.md",
        "pkg/CLAUDE.md",
        "pkg/GEMINI.md",
    ];
    for rel in links {
        let path = p.root().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&secret, &path).unwrap();
    }
    let options = Options::new()
        .provider_option("claude", "walk_ceiling", p.root().to_string_lossy())
        .profile(Profile::Extended);
    let book = Rulebook::discover(p.root(), Some(&p.root().join("no-home")), &options);
    assert!(
        !book.system_prompt_section().contains("OUTSIDE SECRET"),
        "{}",
        book.system_prompt_section()
    );
    assert!(book.items().all(|r| !r.content.contains("OUTSIDE SECRET")));
    for rel in links {
        let path = p.root().join(rel);
        assert!(
            book.diagnostics()
                .iter()
                .any(|d| d.code == DiagnosticCode::OutsideProject
                    && d.path.as_deref() == Some(path.as_path())),
            "{rel}: no outside-project warning in {:#?}",
            book.diagnostics()
        );
    }
    // A link inside the project is still read.
    fs::remove_file(p.root().join("CLAUDE.md")).unwrap();
    p.write("docs/inside.md", b"INSIDE TEXT\n");
    std::os::unix::fs::symlink(p.root().join("docs/inside.md"), p.root().join("CLAUDE.md"))
        .unwrap();
    let book = Rulebook::discover(p.root(), Some(&p.root().join("no-home")), &options);
    assert!(
        book.items()
            .any(|r| r.name == "CLAUDE" && r.content.contains("INSIDE TEXT"))
    );
}

/// An import swapped for a link to an outside file between the check and the read
/// is never read: the check is made on the opened handle.
#[cfg(unix)]
#[test]
fn an_import_swapped_for_a_link_is_not_read() {
    let p = Project::new();
    fs::create_dir_all(p.root().join(".git")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.md");
    fs::write(&secret, "OUTSIDE SECRET\n").unwrap();
    p.write("CLAUDE.md", b"See @docs/imp.md\n");
    let target = p.root().join("docs/imp.md");
    let plain = p.root().join("imp-plain.md");
    let linked = p.root().join("imp-link.md");
    fs::write(&plain, "Fine.\n").unwrap();
    fs::create_dir_all(target.parent().unwrap()).unwrap();
    fs::write(&target, "Fine.\n").unwrap();
    std::os::unix::fs::symlink(&secret, &linked).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (stop, target) = (stop.clone(), target.clone());
        std::thread::spawn(move || {
            let mut flip = false;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let from = if flip { &plain } else { &linked };
                let _ = swap_in(from, &target);
                flip = !flip;
            }
        })
    };
    let options = Options::new()
        .provider_option("claude", "walk_ceiling", p.root().to_string_lossy())
        .allow_providers(["claude"]);
    let mut read_fine = 0;
    for _ in 0..400 {
        let book = Rulebook::discover(p.root(), Some(&p.root().join("no-home")), &options);
        assert!(
            book.items().all(|r| !r.content.contains("OUTSIDE SECRET")),
            "an outside file was read through a swapped import"
        );
        read_fine += usize::from(book.items().any(|r| r.content.contains("Fine.")));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().unwrap();
    // The swap raced both ways; the inside file was still read when it was there.
    assert!(read_fine > 0);
}

/// An import larger than the size cap is not read (a sparse 1 GiB file aborted the
/// process), and a fan-out of repeated imports stops at the size cap in all, with one
/// warning, not one per token.
#[test]
fn imports_are_bounded_by_the_size_cap() {
    let p = Project::new();
    fs::create_dir_all(p.root().join(".git")).unwrap();
    let big = fs::File::create(p.root().join("big.md")).unwrap();
    big.set_len(1 << 30).unwrap(); // sparse: no disk used
    drop(big);
    p.write("CLAUDE.md", b"Big: @big.md\n");
    // Four hops of ten repeated imports of 20 KiB: 10^4 x 20 KiB = 200 MiB unbounded.
    p.write("l4.md", "x".repeat(20 * 1024).as_bytes());
    for (file, next) in [("l3.md", "l4.md"), ("l2.md", "l3.md"), ("l1.md", "l2.md")] {
        p.write(file, format!("@{next}\n").repeat(10).as_bytes());
    }
    p.write("pkg/CLAUDE.md", "@../l1.md\n".repeat(10).as_bytes());
    let options = Options::new()
        .provider_option("claude", "walk_ceiling", p.root().to_string_lossy())
        .max_file_size(1024 * 1024);
    let root = p.root().to_path_buf();
    let book = within_bound("imports past the size cap", move || {
        Rulebook::discover(&root, Some(&root.join("no-home")), &options)
    });
    let top = book.items().find(|r| r.name == "CLAUDE").unwrap();
    assert_eq!(top.content.trim_end(), "Big: @big.md");
    let fan = book.items().find(|r| r.name == "pkg:CLAUDE").unwrap();
    assert!(
        fan.content.len() <= 1024 * 1024 + 200,
        "{}",
        fan.content.len()
    );
    let warnings: Vec<_> = book
        .diagnostics()
        .iter()
        .filter(|d| d.code == DiagnosticCode::ImportFailed)
        .collect();
    assert!(
        warnings
            .iter()
            .any(|d| d.message.contains("larger than the 1048576-byte limit")),
        "{warnings:#?}"
    );
    let bound = warnings
        .iter()
        .filter(|d| d.message.contains("would add more than 1048576 bytes"))
        .count();
    assert_eq!(bound, 1, "{warnings:#?}");
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
}

/// Runs the binary in `dir` (home: `dir/no-home`) with `args`, within a bound only a hang
/// would reach; returns the exit code, stdout and stderr.
fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut command = std::process::Command::new(rulebook_tests::rulebook_binary());
    command
        .arg("--cwd")
        .arg(dir)
        .arg("--home")
        .arg(dir.join("no-home"))
        .args(args)
        .stdin(std::process::Stdio::null());
    let output = within_bound("the rulebook binary", move || command.output().unwrap());
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A `rulebook.toml` that links out of the project is refused
/// without a word of its content; a FIFO does not hang `check`, a link to `/dev/zero` does
/// not eat memory; a TOML error is one line naming line and column, never the file's text.
#[cfg(unix)]
#[test]
fn a_config_file_is_read_as_carefully_as_a_rule() {
    let p = Project::new();
    fs::create_dir_all(p.root().join(".git")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.toml");
    fs::write(&secret, "OUTSIDE_SECRET = [\n").unwrap();
    let config = p.root().join("rulebook.toml");
    std::os::unix::fs::symlink(&secret, &config).unwrap();
    let (code, _, stderr) = run_in(p.root(), &["check"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(!stderr.contains("OUTSIDE_SECRET"), "{stderr}");
    assert!(stderr.contains("outside"), "{stderr}");

    fs::remove_file(&config).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &config).unwrap();
    let (code, _, stderr) = run_in(p.root(), &["check"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("a device, not a regular file"), "{stderr}");

    fs::remove_file(&config).unwrap();
    if mkfifo(&config) {
        let (code, _, stderr) = run_in(p.root(), &["check"]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains("a FIFO, not a regular file"), "{stderr}");
        fs::remove_file(&config).unwrap();
    }

    fs::write(
        &config,
        "[check]\nstrict = true\nignore = [\"unknown-key\"\nIN_FILE_TEXT = 1\n",
    )
    .unwrap();
    let (code, _, stderr) = run_in(p.root(), &["check"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        !stderr.contains("IN_FILE_TEXT"),
        "the file's text is quoted: {stderr}"
    );
    assert!(!stderr.contains("\\n"), "a literal \\n: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("rulebook.toml: line 4, column"), "{stderr}");
}

/// The real tools follow a link out of the project (Codex reads
/// `AGENTS.override.md -> elsewhere`), so `--as` reports the file as loaded, says it is
/// outside, and withholds its text unless `--show-outside` asks for it.
#[cfg(unix)]
#[test]
fn host_views_report_outside_links_and_withhold_their_text() {
    let p = Project::new();
    fs::create_dir_all(p.root().join(".git")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("notes.md");
    fs::write(&secret, "OUTSIDE SECRET\n").unwrap();
    std::os::unix::fs::symlink(&secret, p.root().join("AGENTS.override.md")).unwrap();
    std::os::unix::fs::symlink(&secret, p.root().join("CLAUDE.md")).unwrap();
    for host in ["codex", "claude"] {
        let (code, stdout, stderr) = run_in(p.root(), &["--as", host, "prompt"]);
        assert_eq!(code, Some(0), "{stderr}");
        assert!(!stdout.contains("OUTSIDE SECRET"), "{host}: {stdout}");
        let (_, explain, _) = run_in(p.root(), &["--as", host, "explain"]);
        assert!(explain.contains("outside the project"), "{host}: {explain}");
        assert!(!explain.contains("OUTSIDE SECRET"), "{host}: {explain}");
        let (_, shown, _) = run_in(p.root(), &["--as", host, "--show-outside", "prompt"]);
        assert!(shown.contains("OUTSIDE SECRET"), "{host}: {shown}");
    }
    let (_, json, _) = run_in(p.root(), &["--as", "codex", "list", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["files"].as_array().unwrap().len(), 1, "{json}");
}

/// The tools' own views (`--as X`, `compare`) follow a skill folder, a `SKILL.md`, or a
/// rule file linked out of the project as the tools do, and say so; but they print nothing
/// such a file says (a skill's name, description or first paragraph, a rule's triggers or
/// globs) unless `--show-outside` asks.
#[cfg(unix)]
#[test]
fn tool_views_withhold_the_values_of_files_linked_outside() {
    let p = Project::new();
    fs::create_dir_all(p.root().join(".git")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let folder = outside.path().join("key");
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("SKILL.md"),
        "---\nname: SECRETNAME\ndescription: SECRETDESC\n---\nSECRETBODY\n",
    )
    .unwrap();
    let no_frontmatter = outside.path().join("plain.md");
    fs::write(&no_frontmatter, "SECRETPARAGRAPH of a skill\n").unwrap();
    for dir in [
        ".claude/skills",
        ".agents/skills",
        ".codex/skills",
        ".gemini/skills",
    ] {
        fs::create_dir_all(p.root().join(dir).join("byfile")).unwrap();
        std::os::unix::fs::symlink(&folder, p.root().join(dir).join("byfolder")).unwrap();
        std::os::unix::fs::symlink(&no_frontmatter, p.root().join(dir).join("byfile/SKILL.md"))
            .unwrap();
    }
    let rule = outside.path().join("rule.md");
    fs::write(
        &rule,
        "---\ntriggers:\n- SECRETTRIGGER\nglobs: SECRETGLOB/**\ndescription: SECRETDESC\n---\nSECRETBODY\n",
    )
    .unwrap();
    for link in [
        ".openhands/microagents/x.md",
        ".trae/rules/y.md",
        ".cursor/rules/z.mdc",
    ] {
        let link = p.root().join(link);
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&rule, &link).unwrap();
    }
    let runs: [&[&str]; 11] = [
        &["--as", "claude", "list", "--json"],
        &["--as", "claude", "list"],
        &["--as", "codex", "list", "--json"],
        &["--as", "gemini", "list", "--json"],
        &["--as", "openhands", "explain"],
        &["--as", "trae", "explain"],
        &["--as", "trae", "explain", "--json"],
        &["--as", "cursor", "explain"],
        &["compare", "--reasons"],
        &["compare", "--json"],
        &["budget", "--json"],
    ];
    for args in runs {
        let (code, stdout, stderr) = run_in(p.root(), args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(
            !stdout.contains("SECRET"),
            "{args:?} printed outside text:\n{stdout}"
        );
        assert!(
            !stderr.contains("SECRET"),
            "{args:?} printed outside text:\n{stderr}"
        );
    }
    let (_, listed, _) = run_in(p.root(), &["--as", "claude", "list"]);
    assert!(listed.contains("outside the project"), "{listed}");
    let (_, explained, _) = run_in(p.root(), &["--as", "trae", "explain"]);
    assert!(explained.contains("outside the project"), "{explained}");
    let (_, shown, _) = run_in(
        p.root(),
        &["--as", "claude", "--show-outside", "list", "--json"],
    );
    assert!(shown.contains("SECRETDESC"), "{shown}");
}

/// `check --output-format github` writes no raw control byte of a file name or a value to
/// the log (they are escaped as the full format escapes them), and SARIF's
/// `artifactLocation.uri` is a valid URI whose decoded path is the file's.
#[cfg(unix)]
#[test]
fn check_formats_for_ci_stay_valid_with_any_file_name() {
    use std::os::unix::ffi::OsStrExt;
    let p = Project::new();
    let broken = b"---\ndescription: [\x1b]0;title\x07\n---\nbody\n";
    let names: [&[u8]; 5] = [
        b"e\x1b[31mvil\x07.mdc",
        b"x#y.mdc",
        b"100%41.mdc",
        b"a b?.mdc",
        b"caf\xe9.mdc",
    ];
    let dir = p.root().join(".cursor/rules");
    fs::create_dir_all(&dir).unwrap();
    for name in names {
        fs::write(dir.join(std::ffi::OsStr::from_bytes(name)), broken).unwrap();
    }
    let output = std::process::Command::new(rulebook_tests::rulebook_binary())
        .arg("--cwd")
        .arg(p.root())
        .arg("--home")
        .arg(p.root().join("no-home"))
        .args(["check", "--output-format", "github"])
        .output()
        .unwrap();
    let log = output.stdout;
    assert!(log.windows(2).any(|w| w == b"::"), "no annotation at all");
    for byte in [0x1b_u8, 0x07] {
        assert!(
            !log.contains(&byte),
            "a raw control byte {byte:#04x} in the log:\n{}",
            String::from_utf8_lossy(&log)
        );
    }
    let (_, sarif, stderr) = run_in(p.root(), &["check", "--output-format", "sarif"]);
    let value: serde_json::Value = serde_json::from_str(&sarif).expect(&stderr);
    let mut uris = Vec::new();
    for result in value["runs"][0]["results"].as_array().unwrap() {
        if let Some(uri) =
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str()
        {
            uris.push(uri.to_owned());
        }
    }
    for name in names {
        let written: Vec<u8> = [b".cursor/rules/".as_slice(), name].concat();
        let found = uris.iter().any(|uri| {
            assert!(
                uri.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b)),
                "not a valid URI path: {uri}"
            );
            percent_decoded(uri) == written
        });
        assert!(
            found,
            "no URI decodes to {:?}: {uris:#?}",
            String::from_utf8_lossy(&written)
        );
    }
}

/// A rule file whose name is not UTF-8 leaves every JSON output one valid document (the
/// name written lossily, as `list --json` writes it), never an empty line with exit 0.
#[cfg(unix)]
#[test]
fn json_outputs_stay_valid_with_a_name_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let p = Project::new();
    fs::create_dir_all(p.root().join(".git")).unwrap();
    for dir in [".claude/rules", ".cursor/rules", ".trae/rules"] {
        let dir = p.root().join(dir);
        fs::create_dir_all(&dir).unwrap();
        let name = std::ffi::OsStr::from_bytes(b"caf\xe9.md");
        fs::write(dir.join(name), "---\ndescription: d\n---\nbody\n").unwrap();
    }
    fs::write(p.root().join("AGENTS.md"), "Agents.\n").unwrap();
    let runs: [&[&str]; 8] = [
        &["budget", "--json"],
        &["compare", "--json"],
        &["--as", "claude", "list", "--json"],
        &["--as", "claude", "explain", "--json"],
        &["--as", "cursor", "explain", "--json"],
        &["--as", "trae", "list", "--json"],
        &["--as", "codex", "explain", "--json"],
        &["list", "--json"],
    ];
    for args in runs {
        let (code, stdout, stderr) = run_in(p.root(), args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        let value: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {stdout:?}"));
        assert!(value.get("error").is_none(), "{args:?}: {value}");
        // `--as X list` names the files loaded at start only.
        if args[0] != "--as" || args[2] == "explain" {
            assert!(
                stdout.contains("caf\u{FFFD}.md"),
                "{args:?}: the file is missing: {stdout}"
            );
        }
    }
}

/// `@` in prose is no failed import: what Claude Code's own test does not take for a path
/// is no token, and an import Claude passes over without a word (a file that does not
/// exist: `with @-links to`, an npm scope named in passing) is at most an info.
#[test]
fn at_signs_in_prose_are_not_warned_as_failed_imports() {
    let p = Project::new();
    p.write(".git/HEAD", b"");
    p.write("docs/real.md", b"Real import.\n");
    p.write(
        "CLAUDE.md",
        b"Mention files (via @-mentions), with @-links to docs.\n\
          Generated by @hey-api/openapi-ts). Use @bodhiapp/app-bindings here.\n\
          Mail me@example.com or @(someone); see @docs/real.md\n",
    );
    let book = p.discover(Profile::Extended);
    let claude = book
        .items()
        .find(|r| r.path.ends_with("CLAUDE.md"))
        .unwrap();
    assert!(
        claude.content.contains("Real import."),
        "{}",
        claude.content
    );
    let imports: Vec<_> = book
        .diagnostics()
        .iter()
        .filter(|d| {
            matches!(
                d.code,
                DiagnosticCode::ImportFailed | DiagnosticCode::ImportSkipped
            )
        })
        .collect();
    assert!(!imports.is_empty(), "the missing paths are still said");
    for d in &imports {
        assert_eq!(d.code, DiagnosticCode::ImportSkipped, "{}", d.message);
        assert_eq!(d.severity, rulebook::Severity::Info, "{}", d.message);
        assert!(
            !d.message.contains("@(someone)") && !d.message.contains("example.com"),
            "{}",
            d.message
        );
    }
    let (code, stdout, stderr) = run_in(p.root(), &["check", "--strict"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(!stdout.contains("warning[import-failed]"), "{stdout}");
}

/// Cursor's "Manual" rules (no description, `globs: []`, `alwaysApply: false`: used when
/// @-mentioned) are in the manual bucket under Extended, readable through `rule://`, and
/// `check` does not call them unseen; under Reference they stay in no bucket.
#[test]
fn cursor_manual_rules_are_read_on_request() {
    let p = Project::new();
    p.write(
        ".cursor/rules/migrations.mdc",
        b"---\ndescription: \"\"\nglobs: []\nalwaysApply: false\n---\nMigration checklist.\n",
    );
    let [reference, extended] = p.both();
    let bucket = |book: &Rulebook| {
        book.placements()
            .find(|(r, _)| r.name == "migrations")
            .map(|(_, p)| p.bucket)
            .unwrap()
    };
    assert_eq!(bucket(&reference), None);
    assert_eq!(bucket(&extended), Some(rulebook::RuleBucket::Manual));
    assert_eq!(
        &*extended.resolve("rule://migrations").unwrap().content,
        "Migration checklist."
    );
    let (code, stdout, stderr) = run_in(p.root(), &["read", "rule://migrations"]);
    assert_eq!(
        (code, stdout.as_str()),
        (Some(0), "Migration checklist.\n"),
        "{stderr}"
    );
    let (_, check, _) = run_in(p.root(), &["check"]);
    assert!(!check.contains("no agent sees it"), "{check}");
}

/// `WARP.md` in four spellings side by side: one is read, and `explain`, `check` and
/// `--as warp` each name the three others and say why they are not.
#[test]
fn several_spellings_of_warp_md_are_each_accounted_for() {
    let p = Project::new();
    p.write(".git/HEAD", b"");
    let spellings = ["WARP.md", "warp.md", "Warp.md", "wARP.md"];
    for name in spellings {
        p.write(name, format!("Rules of {name}.\n").as_bytes());
    }
    if fs::read_dir(p.root()).unwrap().count() < 4 + 3 {
        eprintln!("a file system that folds case: the spellings are one file here");
        return;
    }
    let book = p.discover(Profile::Extended);
    let warp: Vec<_> = book
        .items()
        .filter(|r| r.source.provider == "warp")
        .collect();
    assert_eq!(warp.len(), 1);
    assert!(warp[0].path.ends_with("WARP.md"));
    let (_, explain, _) = run_in(p.root(), &["explain"]);
    let (_, check, _) = run_in(p.root(), &["check"]);
    let (_, tool, _) = run_in(p.root(), &["--as", "warp", "explain"]);
    for name in &spellings[1..] {
        for (what, out) in [
            ("explain", &explain),
            ("check", &check),
            ("--as warp", &tool),
        ] {
            assert!(out.contains(name), "{what} says nothing of {name}:\n{out}");
        }
    }
    assert!(explain.contains("another spelling of WARP.md"), "{explain}");
    assert!(tool.contains("another spelling of WARP.md"), "{tool}");
}

/// The most memory a command may take in the bound tests: far below the inputs (1 GiB
/// files, gigabytes of expanded imports), far above what a bounded command needs.
const LIMIT_MIB: u64 = 512;

/// Asserts that a run under [`LIMIT_MIB`] ended by itself (exit 0, or 1 for `check`'s
/// findings), not killed by a failed allocation.
fn assert_bounded(args: &[&str], output: &std::process::Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        matches!(output.status.code(), Some(0 | 1)) && !stderr.contains("memory allocation"),
        "{args:?} did not stay within {LIMIT_MIB} MiB: {:?}\n{stderr}",
        output.status
    );
}

/// `check`, `budget`, `compare` and the tools' views over 1 GiB (sparse) files of every
/// format a tool reads whole read at most the size cap of each: they run within 512 MiB.
#[cfg(unix)]
#[test]
fn huge_rule_files_of_every_format_are_read_only_up_to_the_cap() {
    let p = Project::new();
    p.write(".git/HEAD", b"");
    let names = [
        "WARP.md",
        "CRUSH.md",
        ".goosehints",
        "QWEN.md",
        ".idx/airules.md",
        "AmazonQ.md",
        ".openhands/microagents/big.md",
        ".trae/rules/big.md",
        "AGENTS.md",
        "CLAUDE.md",
        "GEMINI.md",
        ".junie/guidelines.md",
        ".augment/rules/big.md",
        ".kilocode/rules/big.md",
        ".aiassistant/rules/big.md",
        ".amazonq/rules/big.md",
        ".cursorrules",
        ".windsurfrules",
    ];
    for name in names {
        let path = p.root().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::File::create(&path).unwrap().set_len(1 << 30).unwrap();
    }
    let runs: [&[&str]; 8] = [
        &["check"],
        &["budget"],
        &["compare"],
        &["--as", "codex", "list"],
        &["--as", "qwen", "list"],
        &["--as", "gemini", "list"],
        &["--as", "warp", "list"],
        &["list", "--json"],
    ];
    for args in runs {
        let output = rulebook_tests::run_limited(p.root(), LIMIT_MIB, args);
        assert_bounded(args, &output);
        if args == ["check"] {
            // AGENTS.md and CLAUDE.md hold the same bytes, and a tool that loads both
            // (Crush) spends them twice: said within the bound too, not lost to it.
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(stdout.contains("duplicate-load"), "{stdout}");
        }
    }
}

/// A fan-out of repeated imports (ten imports of a file that imports another ten times,
/// four levels down to 100 KB: gigabytes once expanded) is expanded by the tools' views up
/// to the bound of one file's imported text, within 512 MiB, and the views say they cut.
#[cfg(unix)]
#[test]
fn a_fan_out_of_imports_is_expanded_only_up_to_a_bound() {
    let p = Project::new();
    p.write(".git/HEAD", b"");
    p.write("d.md", "x".repeat(100_000).as_bytes());
    for (name, next) in [("c.md", "d.md"), ("b.md", "c.md"), ("a.md", "b.md")] {
        p.write(name, format!("@{next}\n").repeat(10).as_bytes());
    }
    for top in [
        "GEMINI.md",
        "QWEN.md",
        "CLAUDE.md",
        ".goosehints",
        "AGENTS.md",
    ] {
        p.write(top, "@a.md\n".repeat(10).as_bytes());
    }
    let runs: [&[&str]; 7] = [
        &["--as", "gemini", "list"],
        &["--as", "qwen", "list"],
        &["--as", "claude", "list"],
        &["--as", "goose", "list"],
        &["budget"],
        &["check"],
        &["compare"],
    ];
    for args in runs {
        let output = rulebook_tests::run_limited(p.root(), LIMIT_MIB, args);
        assert_bounded(args, &output);
        if args[0] == "--as" && matches!(args[1], "gemini" | "qwen") {
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(
                stdout.contains("expand past 1048576 bytes"),
                "{args:?}: {stdout}"
            );
        }
    }
}

/// `%XX` decoded to bytes (the URI's path as a file system reads it).
fn percent_decoded(uri: &str) -> Vec<u8> {
    let bytes = uri.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(&uri[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// `--as` over a 2 GiB (sparse) AGENTS.md or CLAUDE.md reads at most the size cap
/// (it read them whole: 2 GiB of memory), and says so.
#[test]
fn host_views_read_a_huge_file_only_up_to_the_size_cap() {
    let p = Project::new();
    fs::create_dir_all(p.root().join(".git")).unwrap();
    for name in ["AGENTS.md", "CLAUDE.md"] {
        let big = fs::File::create(p.root().join(name)).unwrap();
        big.set_len(2 << 30).unwrap();
    }
    for view in [
        within_bound_from(p.root(), |root| {
            rulebook::emulate(
                rulebook::tool("codex").unwrap(),
                &rulebook::HostOptions::new(root, root.join("no-home")),
            )
        }),
        within_bound_from(p.root(), |root| {
            rulebook::emulate(
                rulebook::tool("claude").unwrap(),
                &rulebook::HostOptions::new(root, root.join("no-home")),
            )
        }),
    ] {
        assert!(
            view.notes
                .iter()
                .any(|n| n.contains("read its first 1048576 bytes only")),
            "{:#?}",
            view.notes
        );
        assert!(view.prompt.len() < 2 * 1024 * 1024, "{}", view.prompt.len());
    }
}

/// [`within_bound`] for a function of a directory.
fn within_bound_from<T: Send + 'static>(dir: &Path, f: fn(&Path) -> T) -> T {
    let dir = dir.to_path_buf();
    within_bound("an emulation", move || f(&dir))
}

/// `--root` that is not a directory, and `--option`s no provider reads (an unknown
/// provider, an unknown key, a value it does not take) are usage errors naming the known
/// ones, not silently accepted.
#[test]
fn a_bad_root_or_provider_option_is_a_usage_error() {
    let p = Project::new();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--root", "/nonexistent-rulebook-root", "list"],
            "is not a directory",
        ),
        (
            &["--option", "nope.key=1", "list"],
            "these do: agents-md, claude, copilot, cursor, gemini",
        ),
        (
            &["--option", "claude.nope=1", "list"],
            "its options: allow_external_imports, walk_ceiling",
        ),
        (
            &["--option", "claude.allow_external_imports=yes", "list"],
            "true or false",
        ),
        (
            &["--option", "copilot.agent_kind=reviewer", "list"],
            "coding-agent, code-review",
        ),
        (
            &["--option", "gemini.file_names=a/b.md", "list"],
            "comma-separated list of file names",
        ),
        (
            &[
                "--option",
                "claude.walk_ceiling=/nonexistent-rulebook-root",
                "list",
            ],
            "names a directory",
        ),
    ];
    for (args, said) in cases {
        let (code, stdout, stderr) = run_in(p.root(), args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(
            stderr.starts_with("rulebook: ") && stderr.contains(said),
            "{args:?}: {stderr}"
        );
    }
    let (code, _, stderr) = run_in(
        p.root(),
        &[
            "--option",
            "gemini.file_names=GEMINI.md,CONTEXT.md",
            "--option",
            "copilot.agent_kind=code-review",
            "list",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
}

/// One answer in every command. A CLAUDE.md that links to AGENTS.md is
/// "same file" in `explain` and no `shadowed` warning in `check`; Cursor's unquoted globs
/// (Cursor's own form) are a note in `explain`, not a warning, as in `check`, and the
/// `alwaysApply: false` beside them stays `false`.
#[cfg(unix)]
#[test]
fn check_and_explain_give_one_answer() {
    let p = Project::new();
    fs::create_dir_all(p.root().join(".git")).unwrap();
    p.write("AGENTS.md", b"Run the tests.\n");
    std::os::unix::fs::symlink("AGENTS.md", p.root().join("CLAUDE.md")).unwrap();
    p.write(
        ".cursor/rules/ts.mdc",
        b"---\ndescription: TS\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\nTS\n",
    );
    let ceiling = format!("claude.walk_ceiling={}", p.root().display());
    let (code, check, stderr) = run_in(p.root(), &["--option", &ceiling, "check"]);
    assert_eq!(code, Some(0), "{check}{stderr}");
    assert!(!check.contains("shadowed"), "{check}");
    // The link is one rule to rulebook; Crush, which reads both names, loads its text
    // twice and says so (Augment's CLI reads a regular file only: the link is skipped);
    // nothing else is found.
    assert!(check.contains("0 error(s), 1 warning(s)"), "{check}");
    assert_eq!(
        check.matches("warning[duplicate-load]").count(),
        1,
        "{check}"
    );
    let (_, explain, _) = run_in(p.root(), &["--option", &ceiling, "explain"]);
    assert!(explain.contains("same file as CLAUDE.md"), "{explain}");
    assert!(
        explain.contains("No warnings.") && explain.contains("Notes (1):"),
        "{explain}"
    );
    // The recovered frontmatter keeps `alwaysApply: false` as written (it was `null`).
    let (_, json, _) = run_in(p.root(), &["--option", &ceiling, "list", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let ts = json["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "ts")
        .unwrap();
    assert_eq!(ts["always_apply"], serde_json::json!(false), "{ts}");
}

/// A Continue rule with `alwaysApply: false` and neither description, name nor
/// globs is one Continue lists to invoke by hand: a manual rule, readable by name; `list`
/// counts warnings as `check` does (Cursor's unquoted globs are a note).
#[test]
fn a_continue_rule_with_no_way_to_apply_is_manual() {
    let p = Project::new();
    p.write(
        ".continue/rules/man.md",
        b"---\nalwaysApply: false\n---\nAsk for me.\n",
    );
    p.write(
        ".cursor/rules/ts.mdc",
        b"---\ndescription: TS\nglobs: *.ts\n---\nTS\n",
    );
    let (code, list, _) = run_in(p.root(), &["list"]);
    assert_eq!(code, Some(0));
    assert!(
        list.lines()
            .any(|l| l.starts_with("man ") && l.contains(" manual ")),
        "{list}"
    );
    assert!(!list.contains("warning(s)"), "{list}");
    let (code, read, stderr) = run_in(p.root(), &["read", "rule://man"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(read, "Ask for me.\n");
}

/// A nested rules directory past the walk's depth bound, and a UTF-16 file without
/// a byte order mark, are said, not dropped (or garbled) silently.
#[test]
fn too_deep_and_utf16_without_bom_are_warnings() {
    let p = Project::new();
    let deep = (0..300).map(|_| "d/").collect::<String>();
    p.write(
        &format!("{deep}.cursor/rules/far.mdc"),
        b"---\ndescription: far\n---\nfar\n",
    );
    let utf16: Vec<u8> = "---\ndescription: wide\n---\nwide text\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    p.write(".xcsh/rules/wide.md", &utf16);
    // A stray NUL in UTF-8 text is not UTF-16.
    p.write(
        ".xcsh/rules/nul.md",
        b"---\ndescription: nul\n---\na\0b plain text\n",
    );
    let book = p.discover(Profile::Extended);
    let messages: Vec<&str> = book
        .diagnostics()
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("Stopped looking for nested rules 256 directories below")),
        "{messages:#?}"
    );
    let utf16_warnings: Vec<&&str> = messages
        .iter()
        .filter(|m| m.contains("looks like UTF-16"))
        .collect();
    assert_eq!(utf16_warnings.len(), 1, "{messages:#?}");
    assert!(utf16_warnings[0].contains("wide.md"));
}

/// A Copilot file with `excludeAgent: coding-agent` says why it is off and how to
/// see it, in `explain` and as a note (not a warning) in `check`; with the option named
/// there it is read. Windsurf's unquoted globs stay a warning (Windsurf's reader is not
/// public: nothing shows it takes the form Cursor documents), and the warning says so.
#[test]
fn an_excluded_copilot_file_says_why_and_how_to_see_it() {
    let p = Project::new();
    p.write(
        ".github/instructions/rev.instructions.md",
        b"---\napplyTo: \"**/*.ts\"\nexcludeAgent: coding-agent\n---\nReview TS.\n",
    );
    p.write(
        ".windsurf/rules/ws.md",
        b"---\ntrigger: glob\nglobs: *.ts, src/**\n---\nWS\n",
    );
    let hint = "`--option copilot.agent_kind=code-review` shows it";
    let (_, explain, _) = run_in(p.root(), &["explain", "rev"]);
    assert!(
        explain.contains("`excludeAgent: coding-agent`") && explain.contains(hint),
        "{explain}"
    );
    assert!(!explain.contains("Cline"), "{explain}");
    let (code, check, _) = run_in(p.root(), &["check"]);
    assert_eq!(code, Some(0), "{check}");
    let rev: Vec<&str> = check.lines().filter(|l| l.contains("rev")).collect();
    assert_eq!(rev.len(), 1, "{check}");
    assert!(
        rev[0].contains("info[turned-off]") && rev[0].contains(hint),
        "{check}"
    );
    assert!(
        check.contains("warning[yaml-recovered]")
            && check.contains("Windsurf's own reader is not public"),
        "{check}"
    );
    assert!(
        check.contains("0 error(s), 1 warning(s), 1 info"),
        "{check}"
    );
    let (_, seen, _) = run_in(
        p.root(),
        &[
            "--option",
            "copilot.agent_kind=code-review",
            "explain",
            "rev",
        ],
    );
    assert!(seen.contains("→ rulebook"), "{seen}");
}

/// A body under frontmatter is read with its final newline; `list --json --as
/// gemini` lists the files Gemini's imports bring in (as Claude's view does); under
/// `--profile reference` a working directory reached through a link keeps the path as
/// given (the original joins paths, it does not resolve them), Extended the real one.
#[cfg(unix)]
#[test]
fn read_ends_in_a_newline_gemini_lists_imports_and_reference_keeps_a_linked_cwd() {
    let p = Project::new();
    fs::create_dir_all(p.root().join("real/.git")).unwrap();
    p.write(
        "real/.cursor/rules/a.mdc",
        b"---\nalwaysApply: true\n---\nAlways.\n",
    );
    p.write("real/GEMINI.md", b"Top.\n@docs/style.md\n");
    p.write("real/docs/style.md", b"Style.\n");
    std::os::unix::fs::symlink("real", p.root().join("link")).unwrap();
    let real = p.root().join("real");

    let (code, read, _) = run_in(&real, &["read", "rule://a"]);
    assert_eq!((code, read.as_str()), (Some(0), "Always.\n"));

    let (_, json, _) = run_in(&real, &["--as", "gemini", "list", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let files: Vec<&str> = json["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 2, "{json}");
    assert!(files[0].ends_with("real/GEMINI.md") && files[1].ends_with("real/docs/style.md"));

    for (profile, shown) in [("reference", "link"), ("extended", "real")] {
        let (_, json, stderr) = run_in(
            &p.root().join("link"),
            &["--profile", profile, "list", "--json"],
        );
        let json: serde_json::Value =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {stderr}"));
        let path = json["rules"][0]["path"].as_str().unwrap();
        let want = p.root().join(shown).join(".cursor/rules/a.mdc");
        assert_eq!(Path::new(path), want, "{profile}");
    }
}

/// Bash completes the tools of `--as`, provider ids, `check --select` codes and
/// the rule names of `read` (run in bash, with `rule://` split at `:` as bash splits it);
/// every error is `rulebook: …` (`read`, `explain NAME`, and clap's usage errors).
#[cfg(unix)]
#[test]
fn bash_completes_values_and_names_and_errors_have_one_style() {
    let p = Project::new();
    p.write(
        ".cursor/rules/typescript.mdc",
        b"---\ndescription: t\n---\nT\n",
    );
    p.write(".xcsh/rules/API Style.md", b"---\ndescription: a\n---\nA\n");
    p.write(".git/HEAD", b"");
    p.write("packages/api/AGENTS.md", b"Nested.\n");
    let (_, script, _) = run_in(p.root(), &["completions", "bash"]);
    let script_path = p.root().join("rb.bash");
    fs::write(&script_path, script).unwrap();
    let bin_dir = Path::new(&rulebook_tests::rulebook_binary())
        .parent()
        .unwrap()
        .to_path_buf();
    let driver = r#"
source "$1"
t() {
    COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    _rulebook rulebook "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    echo "${COMPREPLY[*]}"
}
t "rulebook --as cl" rulebook --as cl
t "rulebook --providers wind" rulebook --providers wind
t "rulebook check --select yaml" rulebook check --select yaml
t "rulebook read ty" rulebook read ty
t "rulebook read rule://ty" rulebook read rule : //ty
t "rulebook read API" rulebook read API
t "rulebook read pack" rulebook read pack
t "rulebook explain API" rulebook explain API
t "rulebook explain pack" rulebook explain pack
t "rulebook explain packages:a" rulebook explain packages : a
"#;
    let Ok(output) = std::process::Command::new("bash")
        .arg("-c")
        .arg(driver)
        .arg("driver")
        .arg(&script_path)
        .current_dir(p.root())
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin_dir.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .output()
    else {
        eprintln!("no bash here: completion not run");
        return;
    };
    let lines: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        lines,
        [
            "claude cline",
            "windsurf",
            "yaml-syntax yaml-recovered",
            "rule://typescript",
            "//typescript",
            "rule://API%20Style",
            "rule://packages%3Aapi%3AAGENTS",
            "API\\ Style",
            "packages:api:AGENTS",
            "api:AGENTS",
        ],
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // What was offered is what the commands take.
    for args in [
        &["read", "rule://typescript"][..],
        &["read", "rule://API%20Style"],
        &["read", "rule://packages%3Aapi%3AAGENTS"],
        &["explain", "API Style"],
        &["explain", "packages:api:AGENTS"],
    ] {
        let (code, _, stderr) = run_in(p.root(), args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
    }
    for args in [
        &["read", "rule://nope"][..],
        &["explain", "nope"],
        &["lst"],
        &["--as", "nope", "list"],
        &["list", "--bogus"],
    ] {
        let (code, _, stderr) = run_in(p.root(), args);
        assert!(matches!(code, Some(1 | 2)), "{args:?}: {code:?}");
        assert!(stderr.starts_with("rulebook: "), "{args:?}: {stderr}");
    }
}

/// Every page the man page's SUBCOMMANDS section names is written beside it.
#[test]
fn the_man_pages_named_are_written() {
    let p = Project::new();
    let dir = p.root().join("man");
    let (code, _, stderr) = run_in(p.root(), &["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    let main = fs::read_to_string(dir.join("rulebook.1")).unwrap();
    let named: Vec<String> = main
        .split("rulebook\\-")
        .skip(1)
        .filter_map(|rest| rest.split_once("(1)").map(|(name, _)| name.to_owned()))
        .filter(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .collect();
    assert!(named.len() >= 9, "{named:?}");
    for name in named {
        assert!(
            dir.join(format!("rulebook-{name}.1")).is_file(),
            "rulebook-{name}.1"
        );
    }
}

/// `cd / && rulebook list` (or the home directory, outside a repository) no longer
/// walks the disk for nested rules: it says it did not.
#[test]
fn the_file_system_root_and_home_are_not_walked() {
    let (code, stdout, stderr) = run_in(Path::new("/"), &["explain"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("is the file system root and in no repository, not a project"),
        "{stdout}"
    );
    let p = Project::new();
    p.write(
        "deep/.cursor/rules/a.mdc",
        b"---\nalwaysApply: true\n---\nA\n",
    );
    let at_home = || {
        let output = std::process::Command::new(rulebook_tests::rulebook_binary())
            .arg("--cwd")
            .arg(p.root())
            .arg("--home")
            .arg(p.root())
            .arg("explain")
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let stdout = at_home();
    assert!(stdout.contains("is the home directory"), "{stdout}");
    assert!(!stdout.contains("a.mdc"), "{stdout}");
    // In a repository the same tree is a project, walked.
    fs::create_dir_all(p.root().join(".git")).unwrap();
    let stdout = at_home();
    assert!(
        stdout.contains("a.mdc") && !stdout.contains("is the home directory"),
        "{stdout}"
    );
}
