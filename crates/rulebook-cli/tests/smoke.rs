//! Exit codes and usage errors of the binary (the full command snapshots live in the
//! workspace's `tests/` member). Having an integration test here also makes
//! `cargo test --workspace` build the `rulebook` binary those tests run.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::process::Command;

fn rulebook() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rulebook"))
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["bogus"][..],
        &["list", "--profile", "nope"],
        &["read"],
        &["match"],
        &["list", "--cwd", "/definitely/not/here"],
    ] {
        let output = rulebook().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn help_and_version_exit_0() {
    let help = rulebook().arg("--help").output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    let text = String::from_utf8(help.stdout).unwrap();
    for command in ["list", "explain", "prompt", "read", "check", "match"] {
        assert!(text.contains(command), "{command} missing from --help");
    }
    let version = rulebook().arg("--version").output().unwrap();
    assert_eq!(version.status.code(), Some(0));
}

#[test]
fn empty_project_succeeds() {
    let dir = std::env::temp_dir();
    let output = rulebook()
        .args(["list", "--cwd"])
        .arg(&dir)
        .arg("--home")
        .arg(dir.join("rulebook-no-home"))
        .args(["--profile", "reference"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
}
