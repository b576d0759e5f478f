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
        .args(args)
        .arg("--cwd")
        .arg(dir.join("project"))
        .arg("--home")
        .arg(dir.join("home"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// Runs `rulebook` on `fixtures/<fixture>/{project,home}`; returns a redacted transcript.
fn run_in(fixture: &str, args: &[&str]) -> String {
    let root = workspace_root();
    let output = output_in(fixture, args);
    let redact = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes).replace(&root.display().to_string(), "[ROOT]")
    };
    format!(
        "$ rulebook {}\nexit: {}\n--- stdout ---\n{}--- stderr ---\n{}",
        args.join(" "),
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
