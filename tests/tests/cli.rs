//! Every command of the `rulebook` binary, text and JSON, over `fixtures/demo`, as a
//! person runs it. Absolute paths of this machine are redacted to `[ROOT]`.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::Path;
use std::process::{Command, Output};

use rulebook_tests::{rulebook_binary, workspace_root};

/// Runs `rulebook` with the demo fixture and returns a redacted transcript.
fn run(args: &[&str]) -> String {
    run_in("demo", args)
}

/// Runs `rulebook` on `fixtures/<fixture>/{project,home}`.
fn output_in(fixture: &str, args: &[&str]) -> Output {
    let dir = workspace_root().join("fixtures").join(fixture);
    Command::new(rulebook_binary())
        .env_remove("COLUMNS")
        .args(args)
        .arg("--cwd")
        .arg(dir.join("project"))
        .arg("--root")
        .arg(dir.join("project"))
        .arg("--home")
        .arg(dir.join("home"))
        .arg("--option")
        .arg(format!("claude.walk_ceiling={}", dir.display()))
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// Runs `rulebook` on `fixtures/<fixture>/{project,home}`; returns a redacted transcript.
fn run_in(fixture: &str, args: &[&str]) -> String {
    let output = output_in(fixture, args);
    transcript(&args.join(" "), &output, &workspace_root(), "[ROOT]")
}

/// `$ rulebook ARGS`, the exit code, standard output and error, with `root` written `mark`.
fn transcript(command: &str, output: &Output, root: &Path, mark: &str) -> String {
    let redact =
        |bytes: &[u8]| String::from_utf8_lossy(bytes).replace(&root.display().to_string(), mark);
    format!(
        "$ rulebook {command}\nexit: {}\n--- stdout ---\n{}--- stderr ---\n{}",
        output
            .status
            .code()
            .map_or("signal".to_owned(), |c| c.to_string()),
        redact(&output.stdout),
        redact(&output.stderr)
    )
}

macro_rules! cli_snapshot {
    ($name:ident, [$($arg:expr),* $(,)?]) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(run(&[$($arg),*]));
        }
    };
}

cli_snapshot!(list, ["list"]);
cli_snapshot!(list_reference, ["list", "--profile", "reference"]);
cli_snapshot!(list_json, ["list", "--json"]);
cli_snapshot!(explain, ["explain"]);
cli_snapshot!(explain_reference, ["explain", "--profile", "reference"]);
cli_snapshot!(explain_json, ["explain", "--json"]);
cli_snapshot!(explain_name, ["explain", "typescript"]);
cli_snapshot!(explain_name_json, ["explain", "commit-messages", "--json"]);
cli_snapshot!(explain_unknown_name, ["explain", "nope"]);
cli_snapshot!(prompt, ["prompt"]);
cli_snapshot!(prompt_reference, ["prompt", "--profile", "reference"]);
cli_snapshot!(
    prompt_paths,
    ["prompt", "--paths", "src/web/cart.ts", "api/orders.py"]
);
cli_snapshot!(
    prompt_json,
    ["prompt", "--json", "--paths", "src/web/cart.ts"]
);
cli_snapshot!(read, ["read", "rule://typescript"]);
cli_snapshot!(read_ttsr_extended, ["read", "rule://no-console-log"]);
cli_snapshot!(
    read_ttsr_reference,
    ["read", "rule://no-console-log", "--profile", "reference"]
);
cli_snapshot!(read_unknown, ["read", "rule://nope"]);
cli_snapshot!(read_empty_name, ["read", "rule://"]);
cli_snapshot!(read_json, ["read", "rule://release", "--json"]);
cli_snapshot!(check, ["check"]);
cli_snapshot!(check_reference, ["check", "--profile", "reference"]);
cli_snapshot!(check_json, ["check", "--json"]);
cli_snapshot!(check_github, ["check", "--output-format", "github"]);
cli_snapshot!(check_sarif, ["check", "--output-format", "sarif"]);
cli_snapshot!(
    match_paths,
    [
        "match",
        "src/web/cart.ts",
        "src/components/Button.tsx",
        "api/v1/orders.py",
        "../outside.ts"
    ]
);
cli_snapshot!(match_json, ["match", "--json", "src/components/Button.tsx"]);
cli_snapshot!(
    match_reference,
    ["match", "--profile", "reference", "api/orders.py"]
);
cli_snapshot!(complete, ["complete", "rule://t"]);
cli_snapshot!(
    complete_json_reference,
    ["complete", "--json", "--profile", "reference"]
);

#[test]
fn explain_refused_symlink() {
    insta::assert_snapshot!(run_in("e10-boundary", &["explain"]));
}

#[test]
fn check_refused_symlink() {
    insta::assert_snapshot!(run_in("e10-boundary", &["check"]));
}

/// The shape of `list --json` is a documented contract: pin its keys.
#[test]
fn list_json_shape_is_stable() {
    let output = output_in("demo", &["list", "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let keys =
        |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(
        keys(&value),
        [
            "profile",
            "rules",
            "shadowed",
            "invalid",
            "unbucketed",
            "diagnostics"
        ]
    );
    assert_eq!(
        keys(&value["rules"][0]),
        [
            "name",
            "bucket",
            "provider",
            "provider_name",
            "level",
            "path",
            "description",
            "globs",
            "always_apply",
            "condition"
        ]
    );
    // Paths are absolute.
    assert!(Path::new(value["rules"][0]["path"].as_str().unwrap()).is_absolute());
}

/// Colour appears on a terminal and never with `NO_COLOR`. A terminal needs a pseudo-terminal:
/// util-linux `script` provides one; where it is missing the test says so and checks nothing.
#[test]
fn colour_only_on_a_terminal_and_never_with_no_color() {
    let Ok(probe) = Command::new("script").arg("--version").output() else {
        eprintln!("skipped: no `script` (util-linux) to provide a pseudo-terminal");
        return;
    };
    if !probe.status.success() {
        eprintln!("skipped: `script` does not run here");
        return;
    }
    let demo = workspace_root().join("fixtures/demo");
    let command = format!(
        "{} list --cwd {} --home {}",
        rulebook_binary().display(),
        demo.join("project").display(),
        demo.join("home").display()
    );
    let on_terminal = |no_color: Option<&str>| {
        let mut cmd = Command::new("script");
        cmd.args(["-qc", &command, "/dev/null"])
            .env_remove("NO_COLOR");
        if let Some(value) = no_color {
            cmd.env("NO_COLOR", value);
        }
        String::from_utf8_lossy(&cmd.output().unwrap().stdout).into_owned()
    };
    assert!(
        on_terminal(None).contains("\x1b[1mNAME"),
        "no colour on a terminal"
    );
    assert!(
        !on_terminal(Some("1")).contains('\x1b'),
        "colour despite NO_COLOR"
    );
    // Piped (not a terminal): never.
    assert!(!String::from_utf8_lossy(&output_in("demo", &["list"]).stdout).contains('\x1b'));
}

cli_snapshot!(explain_bucket_filter, ["explain", "--bucket", "rulebook"]);
cli_snapshot!(explain_provider_filter, ["explain", "--provider", "cursor"]);
cli_snapshot!(explain_unknown_bucket, ["explain", "--bucket", "nope"]);
cli_snapshot!(
    prompt_paths_refused_by_reference,
    ["prompt", "--profile", "reference", "--paths", "src/a.ts"]
);
cli_snapshot!(read_unbucketed_rule, ["read", "rule://style-notes"]);
cli_snapshot!(check_strict, ["check", "--strict"]);
cli_snapshot!(check_ignore, ["check", "--ignore", "no-bucket,unknown-key"]);
cli_snapshot!(check_unknown_code, ["check", "--select", "no-such-code"]);

/// A scratch project: `files` are (relative path, content); returns the directory.
fn project(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    for (rel, bytes) in files {
        let path = dir.path().join("project").join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    std::fs::create_dir_all(dir.path().join("project")).unwrap();
    dir
}

/// Runs the binary on a scratch project (`-C`, as git and cargo spell it).
fn output_at(dir: &Path, args: &[&str]) -> Output {
    Command::new(rulebook_binary())
        .env_remove("COLUMNS")
        .arg("-C")
        .arg(dir.join("project"))
        .arg("--home")
        .arg(dir.join("home"))
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The README's first command (run the main job) runs as written, from the repository root.
#[test]
fn the_readme_first_command_runs() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.starts_with("cargo run -p rulebook-cli -- "))
        .expect("README gives the main command");
    let args: Vec<&str> = line
        .trim_start_matches("cargo run -p rulebook-cli -- ")
        .split_whitespace()
        .collect();
    let output = Command::new(rulebook_binary())
        .env_remove("COLUMNS")
        .args(&args)
        .current_dir(workspace_root())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(output.status.success(), "{line}: {output:?}");
    let text = stdout(&output);
    assert!(
        text.contains("rule file(s)") && (text.contains("Warnings (") || text.contains("Notes (")),
        "{text}"
    );
}

#[test]
fn completions_for_every_shell_and_a_man_page() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let output = Command::new(rulebook_binary())
            .env_remove("COLUMNS")
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(output.status.success(), "{shell}");
        assert!(stdout(&output).contains("rulebook"), "{shell}");
    }
    let man = Command::new(rulebook_binary())
        .env_remove("COLUMNS")
        .arg("man")
        .output()
        .unwrap();
    assert!(stdout(&man).contains(".TH rulebook 1"));
    // `man` is a command like the others: `--help` names it, and `--dir` installs the pages.
    let help = Command::new(rulebook_binary())
        .env_remove("COLUMNS")
        .arg("--help")
        .output()
        .unwrap();
    assert!(
        stdout(&help)
            .lines()
            .any(|l| l.trim_start().starts_with("man ")),
        "{}",
        stdout(&help)
    );
    let dir = tempfile::tempdir().unwrap();
    let written = Command::new(rulebook_binary())
        .env_remove("COLUMNS")
        .args(["man", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(written.status.success());
    assert!(dir.path().join("rulebook.1").is_file());
    assert!(dir.path().join("rulebook-list.1").is_file());
}

#[test]
fn color_flag_and_environment() {
    let dir = project(&[(".xcsh/rules/a.md", b"---\ndescription: d\n---\nBody.\n")]);
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = Command::new(rulebook_binary());
        cmd.env_remove("COLUMNS")
            .arg("-C")
            .arg(dir.path().join("project"))
            .args(args)
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE");
        for (k, v) in env {
            cmd.env(k, v);
        }
        stdout(&cmd.output().unwrap()).contains('\x1b')
    };
    assert!(run(&["list", "--color", "always"], &[]));
    assert!(!run(
        &["list", "--color", "never"],
        &[("CLICOLOR_FORCE", "1")]
    ));
    assert!(
        run(&["list"], &[("CLICOLOR_FORCE", "1")]),
        "forced while piped"
    );
    assert!(!run(&["list"], &[("CLICOLOR_FORCE", "0")]));
    assert!(!run(
        &["list"],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    ));
    assert!(!run(&["list"], &[]), "piped: no colour");
}

/// Cursor writes `globs: *.ts,*.tsx` unquoted and matches it so: not a finding, and never
/// advice to quote it. The same line in a Windsurf rule is worth a warning.
#[test]
fn check_agrees_with_cursor_about_unquoted_globs() {
    let rule =
        b"---\ndescription: TS\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\nUse strict mode.\n";
    let dir = project(&[
        (".cursor/rules/ts.mdc", rule),
        (".windsurf/rules/ts2.md", rule),
    ]);
    let output = output_at(dir.path(), &["check", "--json"]);
    assert!(output.status.success(), "{output:?}");
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let findings = value["diagnostics"].as_array().unwrap();
    assert!(
        findings
            .iter()
            .all(|d| !d["path"].as_str().unwrap().ends_with("ts.mdc")),
        "{findings:#?}"
    );
    assert!(
        findings
            .iter()
            .any(|d| d["path"].as_str().unwrap().ends_with("ts2.md") && d["severity"] == "warning"),
        "{findings:#?}"
    );
}

#[test]
fn check_speaks_where_it_was_silent() {
    let dir = project(&[
        // Zed uses `.rules`, Roo Code the non-empty AGENTS.md: no tool uses AGENT.md.
        ("AGENT.md", b"Be nice.\n"),
        (".rules", b"Zed's rules.\n"),
        ("AGENTS.md", b"Run the tests.\n"),
        (
            ".github/instructions/x.instructions.md",
            b"---\napplyTo: '**'\n---\nX\n",
        ),
        (
            ".xcsh/rules/nobody.md",
            b"No description, so nobody sees me.\n",
        ),
        (
            ".xcsh/rules/dir-glob.md",
            b"---\ndescription: web\nglobs: web/\n---\nWeb.\n",
        ),
        (
            ".xcsh/rules/always.md",
            b"---\nalwaysApply: true\nglobs: \"*.ts\"\ntitle: A title\n---\nAlways.\n",
        ),
    ]);
    std::fs::create_dir_all(dir.path().join("project/web")).unwrap();
    let output = output_at(dir.path(), &["check", "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let codes: Vec<(&str, &str)> = value["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["severity"].as_str().unwrap()))
        .collect();
    for expected in [
        ("unsupported-format", "info"),
        ("no-bucket", "warning"),
        ("glob-names-directory", "warning"),
        ("ineffective-key", "info"),
        ("unknown-key", "warning"),
    ] {
        assert!(codes.contains(&expected), "{expected:?} in {codes:?}");
    }
    // Unknown keys: one short line each, no list of known keys.
    let text = stdout(&output_at(dir.path(), &["check"]));
    let line = text.lines().find(|l| l.contains("unknown-key")).unwrap();
    assert!(
        line.ends_with("unknown key `title`: Native does not read it"),
        "{line}"
    );
    // Warnings pass; --strict fails on them; rulebook.toml can ignore codes.
    assert!(output.status.success());
    assert_eq!(
        output_at(dir.path(), &["check", "--strict"]).status.code(),
        Some(1)
    );
    std::fs::write(
        dir.path().join("project/rulebook.toml"),
        "[check]\nignore = [\"no-bucket\", \"glob-names-directory\", \"unknown-key\"]\nstrict = true\n",
    )
    .unwrap();
    let configured = output_at(dir.path(), &["check"]);
    assert!(configured.status.success(), "{}", stdout(&configured));
    std::fs::write(
        dir.path().join("project/rulebook.toml"),
        "[check]\nnope = 1\n",
    )
    .unwrap();
    let bad = output_at(dir.path(), &["check"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("rulebook.toml"));
}

/// `read` prints a rule's content byte for byte, the final newline included; a body under
/// frontmatter (trimmed, spec §3) ends in its newline too,
/// and `--json` holds the content exactly.
#[test]
fn read_is_byte_exact() {
    let dir = project(&[
        (".clinerules", b"First line.\nLast line.\n"),
        (
            ".xcsh/rules/fm.md",
            b"---\ndescription: d\n---\nBody line.\n",
        ),
    ]);
    let output = output_at(dir.path(), &["read", "rule://clinerules"]);
    assert_eq!(output.stdout, b"First line.\nLast line.\n");
    let output = output_at(dir.path(), &["read", "rule://fm"]);
    assert_eq!(output.stdout, b"Body line.\n");
    let output = output_at(dir.path(), &["read", "rule://fm", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["content"], "Body line.");
}

/// Control characters in names, descriptions and messages never reach the terminal raw.
#[test]
fn terminal_escapes_in_rule_files_are_shown_not_obeyed() {
    let evil_name = ".xcsh/rules/a\x1b]0;pwned\x07b\x1b]52;c;ZXZpbA==\x07.md";
    let dir = project(&[(
        evil_name,
        b"---\ndescription: \"clear\\e[2J\\rfake\"\nglobs: \"*.ts\"\n---\nBody\n",
    )]);
    for args in [
        &["list"][..],
        &["explain"],
        &["complete"],
        &["check"],
        &["match", "x.ts"],
        &["read", "rule://nope"],
    ] {
        let output = output_at(dir.path(), args);
        for stream in [&output.stdout, &output.stderr] {
            let text = String::from_utf8_lossy(stream);
            assert!(
                !text.contains(['\x1b', '\x07', '\r']),
                "{args:?} printed a raw control character: {text:?}"
            );
        }
    }
    // JSON escapes them by construction.
    let json = output_at(dir.path(), &["list", "--json"]);
    assert!(!json.stdout.contains(&0x1b));
}

/// A file name that is not UTF-8 is carried lossily in JSON, listed under `lossy_paths`,
/// never a panic.
#[cfg(unix)]
#[test]
fn non_utf8_file_names_in_json() {
    use std::os::unix::ffi::OsStrExt;
    let dir = project(&[]);
    let rules = dir.path().join("project/.xcsh/rules");
    std::fs::create_dir_all(&rules).unwrap();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.md");
    std::fs::write(rules.join(name), "---\ndescription: d\n---\nBody\n").unwrap();
    for command in ["list", "explain", "check", "complete"] {
        let output = output_at(dir.path(), &[command, "--json"]);
        assert_eq!(output.status.code(), Some(0), "{command}: {output:?}");
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        if command == "list" || command == "explain" {
            assert_eq!(value["lossy_paths"].as_array().unwrap().len(), 1, "{value}");
        }
    }
}

/// Paths inside the project are inside it however they are spelled: through a symlinked
/// project directory, or with `..`. JSON paths are normalized.
#[cfg(unix)]
#[test]
fn match_compares_real_paths() {
    let dir = project(&[(
        ".xcsh/rules/ts.md",
        b"---\ndescription: TS\nglobs: \"*.ts\"\n---\nTS\n",
    )]);
    let real = dir.path().join("project");
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    std::fs::create_dir_all(real.join("src")).unwrap();
    std::fs::write(real.join("src/a.ts"), "").unwrap();
    let spelled = [
        real.join("src/a.ts"),
        link.join("src/a.ts"),
        real.join("src/../src/a.ts"),
    ];
    for cwd in [&real, &link] {
        for path in &spelled {
            let output = Command::new(rulebook_binary())
                .env_remove("COLUMNS")
                .arg("-C")
                .arg(cwd)
                .args(["match", "--json"])
                .arg(path)
                .output()
                .unwrap();
            let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            let hit = &value["paths"][0];
            assert_eq!(hit["inside_project"], true, "{cwd:?} {path:?}: {value}");
            assert_eq!(hit["rules"][0]["name"], "ts");
        }
    }
    let dotted = real.join("../project");
    let output = Command::new(rulebook_binary())
        .env_remove("COLUMNS")
        .arg("-C")
        .arg(&dotted)
        .args(["explain", "--json"])
        .output()
        .unwrap();
    let text = stdout(&output);
    assert!(!text.contains("/../") && !text.contains("/./"), "{text}");
}

#[test]
fn match_reads_paths_from_stdin() {
    use std::io::Write;
    let dir = project(&[(
        ".xcsh/rules/ts.md",
        b"---\ndescription: TS\nglobs: \"*.ts\"\n---\nTS\n",
    )]);
    let mut child = Command::new(rulebook_binary())
        .env_remove("COLUMNS")
        .arg("-C")
        .arg(dir.path().join("project"))
        .args(["match", "--json", "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for i in 0..20_000 {
        input.push_str(&format!("src/f{i}.ts\n"));
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["paths"].as_array().unwrap().len(), 20_000);
}

/// A failed write is an error exit; a closed pipe is a quiet one.
#[cfg(unix)]
#[test]
fn write_errors_are_not_silent() {
    let big = "x".repeat(1 << 20);
    let dir = project(&[(".clinerules", big.as_bytes())]);
    let project = dir.path().join("project");
    if std::path::Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = Command::new(rulebook_binary())
            .env_remove("COLUMNS")
            .arg("-C")
            .arg(&project)
            .arg("prompt")
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&output.stderr).contains("cannot write"));
    }
    let script = format!(
        "'{}' -C '{}' prompt | head -c 1 >/dev/null; echo \"${{PIPESTATUS[0]}}\"",
        rulebook_binary().display(),
        project.display()
    );
    let output = Command::new("bash").args(["-c", &script]).output().unwrap();
    assert_eq!(stdout(&output).trim(), "0", "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
}

/// A 100 KB trigger is not echoed whole in warnings and `check` output.
#[test]
fn long_values_are_cut_in_messages() {
    let rule = format!(
        "---\ndescription: d\ncondition: \"({}\"\n---\nBody\n",
        "a".repeat(100_000)
    );
    let dir = project(&[(".xcsh/rules/huge.md", rule.as_bytes())]);
    for args in [&["check"][..], &["explain"]] {
        let text = stdout(&output_at(dir.path(), args));
        let longest = text.lines().map(str::len).max().unwrap_or(0);
        assert!(longest < 2_000, "{args:?}: a line of {longest} bytes");
        assert!(text.contains("more characters"), "{args:?}: {text}");
    }
}

cli_snapshot!(list_only_cursor, ["list", "--providers", "cursor"]);
cli_snapshot!(
    list_without_native,
    ["list", "--no-provider", "native,cline"]
);
cli_snapshot!(unknown_provider, ["list", "--providers", "nope"]);

/// Runs `rulebook` in `fixtures/<fixture>/project/<cwd>` with the project root at
/// `project/`; returns a redacted transcript.
fn run_below(fixture: &str, cwd: &str, args: &[&str]) -> String {
    let root = workspace_root();
    let dir = root.join("fixtures").join(fixture);
    let output = Command::new(rulebook_binary())
        .env_remove("COLUMNS")
        .args(args)
        .arg("-C")
        .arg(dir.join("project").join(cwd))
        .arg("--root")
        .arg(dir.join("project"))
        .arg("--home")
        .arg(dir.join("home"))
        .arg("--option")
        .arg(format!("claude.walk_ceiling={}", dir.display()))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let redact = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes).replace(&root.display().to_string(), "[ROOT]")
    };
    format!(
        "$ rulebook {} (in project/{cwd})\nexit: {}\n--- stdout ---\n{}--- stderr ---\n{}",
        args.join(" "),
        output
            .status
            .code()
            .map_or("signal".to_owned(), |c| c.to_string()),
        redact(&output.stdout),
        redact(&output.stderr)
    )
}

/// E11 as a person sees it: every nested rule with its scope, from the root; the rules a
/// file deep in `apps/api` gets, from `apps/api` (the root's rules included).
#[test]
fn monorepo_explain_and_match() {
    insta::assert_snapshot!(run_below("monorepo", "", &["explain"]));
    insta::assert_snapshot!(run_below(
        "monorepo",
        "apps/api",
        &["match", "src/rest/middleware/scope.ts", "README.md"]
    ));
    insta::assert_snapshot!(run_below("monorepo", "", &["explain", "--no-nested"]));
}

/// AGENTS.md and Claude Code as a person sees them: every file with its scope and order,
/// imports listed.
#[test]
fn agents_and_claude_explain() {
    insta::assert_snapshot!(run_below("claude-imports", "", &["explain"]));
    insta::assert_snapshot!(run_below("claude-imports", "", &["explain", "CLAUDE"]));
}

/// A host fixture tree (`fixtures/hosts/<case>`) materialized in a scratch directory; the
/// binary runs in `cwd` of it with its home. Returns the redacted transcript.
fn run_host_case(case: &str, cwd: &str, args: &[&str]) -> String {
    run_host_case_with(case, cwd, args, &[])
}

/// As [`run_host_case`], with `env` set for the run.
fn run_host_case_with(case: &str, cwd: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let dir = workspace_root().join("fixtures/hosts").join(case);
    let fixture = rulebook_hosts::fixture::Case::load(&dir).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(scratch.path()).unwrap();
    fixture.materialize(&dir, &root).unwrap();
    let output = Command::new(rulebook_binary())
        .env_remove("COLUMNS")
        .arg("-C")
        .arg(root.join(cwd))
        .arg("--home")
        .arg(root.join(&fixture.home))
        .args(args)
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    transcript(
        &format!("{} (in {case}/{cwd})", args.join(" ")),
        &output,
        &root,
        "[TREE]",
    )
}

macro_rules! host_snapshot {
    ($name:ident, $case:expr, $cwd:expr, [$($arg:expr),* $(,)?]) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(run_host_case($case, $cwd, &[$($arg),*]));
        }
    };
}

host_snapshot!(
    as_codex_skills_budget,
    "codex-skills-budget",
    "r/sub",
    ["list", "--as", "codex"]
);
host_snapshot!(
    as_codex_skills,
    "codex-skills",
    "r/sub",
    ["list", "--json", "--as", "codex"]
);
host_snapshot!(
    as_claude_skills,
    "claude-skills",
    "proj/sub",
    ["list", "--as", "claude"]
);
host_snapshot!(
    as_gemini_skills,
    "gemini-skills",
    "w",
    ["list", "--as", "gemini"]
);
host_snapshot!(
    as_codex_list_cut,
    "codex-budget",
    "r/a/b",
    ["list", "--as", "codex"]
);
host_snapshot!(
    as_codex_list_json,
    "codex-budget",
    "r/a/b",
    ["list", "--json", "--as", "codex"]
);
host_snapshot!(
    as_claude_explain,
    "claude-agents-local",
    "r",
    ["explain", "--as", "claude"]
);
host_snapshot!(
    as_claude_explain_json,
    "claude-kinds",
    "r",
    ["explain", "--json", "--as", "claude"]
);
host_snapshot!(
    as_gemini_prompt,
    "gemini-imports",
    "r",
    ["prompt", "--as", "gemini"]
);
host_snapshot!(
    as_claude_match,
    "claude-kinds",
    "r",
    ["match", "--as", "claude", "src/api/x.ts", "README.md"]
);
host_snapshot!(
    as_cursor_list_documented,
    "mixed-monorepo",
    "r",
    ["list", "--as", "cursor"]
);
host_snapshot!(compare_monorepo, "mixed-monorepo", "r", ["compare"]);
host_snapshot!(budget_monorepo, "mixed-monorepo", "r", ["budget"]);
host_snapshot!(budget_link, "claude-link", "r", ["budget"]);
// The twelve formats in one real-shaped tree, CLAUDE.md a copy of AGENTS.md.
host_snapshot!(compare_twelve_formats, "twelve-formats", "r", ["compare"]);
// The files an import brings in name their importer as the table names files (relative to
// the working directory), and an import of nothing is said.
host_snapshot!(
    explain_as_claude_imports,
    "claude-imports",
    "r",
    ["explain", "--as", "claude"]
);

/// `compare` wider than the terminal (`COLUMNS`) prints the tools in groups, a table each as
/// wide as fits; a pipe (no `COLUMNS`) gets the one table.
#[test]
fn compare_fits_the_terminal_width() {
    let text = run_host_case_with("twelve-formats", "r", &["compare"], &[("COLUMNS", "100")]);
    let widest = text
        .lines()
        .skip_while(|l| !l.starts_with("file"))
        .take_while(|l| !l.starts_with('*'))
        .map(|l| l.chars().count())
        .max()
        .unwrap();
    assert!(widest <= 100, "{widest} columns:\n{text}");
    assert!(text.matches("\nfile ").count() >= 2, "{text}");
    insta::assert_snapshot!(text);
}
host_snapshot!(budget_twelve_formats, "twelve-formats", "r", ["budget"]);
host_snapshot!(check_twelve_formats, "twelve-formats", "r", ["check"]);
host_snapshot!(
    check_as_crush_twelve_formats,
    "twelve-formats",
    "r",
    ["check", "--as", "crush"]
);
host_snapshot!(list_twelve_formats, "twelve-formats", "r", ["list"]);
host_snapshot!(
    as_qwen_twelve_formats,
    "twelve-formats",
    "r",
    ["list", "--as", "qwen"]
);
host_snapshot!(
    as_warp_twelve_formats,
    "twelve-formats",
    "r",
    ["explain", "--as", "warp"]
);
host_snapshot!(
    budget_skills,
    "codex-skills",
    "r/sub",
    ["budget", "--hosts", "codex,gemini,claude"]
);
host_snapshot!(
    budget_codex_cut,
    "codex-budget",
    "r/a/b",
    ["budget", "--json", "--hosts", "codex"]
);
host_snapshot!(
    compare_skills,
    "codex-skills-budget",
    "r",
    ["compare", "--hosts", "codex,gemini,claude"]
);
host_snapshot!(
    compare_skills_json,
    "gemini-skills",
    "w",
    ["compare", "--json", "--hosts", "codex,gemini"]
);
host_snapshot!(
    compare_monorepo_reasons,
    "mixed-monorepo",
    "r/apps/web",
    ["compare", "--reasons", "--hosts", "claude,codex,gemini"]
);
host_snapshot!(
    compare_json_one_file,
    "mixed-monorepo",
    "r",
    ["compare", "--json", "--hosts", "codex,claude", "AGENTS.md"]
);
host_snapshot!(as_unknown_tool, "mixed-empty", "r", ["list", "--as", "vim"]);
host_snapshot!(
    as_with_read_is_refused,
    "mixed-empty",
    "r",
    ["read", "rule://x", "--as", "codex"]
);
host_snapshot!(
    as_prompt_nothing,
    "mixed-empty",
    "r",
    ["prompt", "--as", "claude"]
);

/// The skills of `fixtures/skills` as `rulebook skills` lists them
/// (the nearest native skill wins, a linked copy is one file, a skill without a description
/// is said), read through `skill://` (the whole SKILL.md, a resource, and the original's
/// refusals), and the lints of `check` on them.
#[test]
fn skills_listed_read_and_checked() {
    let cwd = "apps/web";
    // The table pads to the longest path: from the project root every path is relative,
    // so the snapshot does not depend on where the repository is checked out.
    insta::assert_snapshot!(run_below("skills", "", &["skills"]));
    insta::assert_snapshot!(run_below("skills", cwd, &["skills", "--json"]));
    insta::assert_snapshot!(run_below(
        "skills",
        "",
        &["--profile", "reference", "skills"]
    ));
    insta::assert_snapshot!(run_below("skills", cwd, &["read", "skill://pdf"]));
    insta::assert_snapshot!(run_below(
        "skills",
        cwd,
        &["read", "skill://pdf/scripts/extract.sh"]
    ));
    for refused in [
        "skill://",
        "skill://nope",
        "skill://pdf/../../secret",
        "skill://pdf//etc/passwd",
        "skill://pdf/missing.md",
    ] {
        let out = run_below("skills", cwd, &["read", refused]);
        assert!(out.contains("exit: 1"), "{out}");
        insta::assert_snapshot!(out);
    }
    insta::assert_snapshot!(run_below(
        "skills",
        cwd,
        &[
            "check",
            "--select",
            "skill-name,skill-description,skill-content,unsupported-format"
        ]
    ));
    // Why each skill of a name is or is not seen.
    insta::assert_snapshot!(run_below("skills", "", &["explain", "pdf"]));
    insta::assert_snapshot!(run_below("skills", cwd, &["explain", "deploy"]));
    // Slash commands and subagents are said not read.
    insta::assert_snapshot!(run_below(
        "skills",
        "",
        &["check", "--select", "unsupported-format"]
    ));
    // The prompt: the skills block before the rules, under both profiles.
    insta::assert_snapshot!(run_below("skills", cwd, &["prompt"]));
    insta::assert_snapshot!(run_below(
        "skills",
        cwd,
        &["--profile", "reference", "prompt"]
    ));
}
