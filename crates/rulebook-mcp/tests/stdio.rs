//! `serve_stdio` on the process's own standard input and output: this test binary runs
//! itself again as the server (the child mode below), writes `initialize` to its standard
//! input and reads the answers from its standard output. What the test harness prints
//! around them is not JSON and is skipped.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Set in the child: serve instead of testing.
const CHILD: &str = "RULEBOOK_MCP_STDIO_CHILD";

#[test]
fn serve_stdio_answers_on_the_process_standard_streams() {
    if let Some(project) = std::env::var_os(CHILD) {
        let home = std::path::Path::new(&project).join("home");
        let options = rulebook_mcp::ServeOptions::new(&project)
            .home(home)
            .watch(false);
        rulebook_mcp::serve_stdio(options).unwrap();
        return;
    }
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(project.path().join(".cursor/rules")).unwrap();
    std::fs::write(
        project.path().join(".cursor/rules/style.mdc"),
        "---\ndescription: Style\nalwaysApply: true\n---\nUse tabs.\n",
    )
    .unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "serve_stdio_answers_on_the_process_standard_streams",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, project.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"t","version":"0"}}}}}}"#
    )
    .unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{{"uri":"rule://style"}}}}"#
    )
    .unwrap();
    drop(stdin);
    let replies: Vec<serde_json::Value> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        // The harness may print `test NAME ... ` before the first line, on the same line.
        .filter_map(|line| serde_json::from_str(&line[line.find('{')?..]).ok())
        .collect();
    assert!(child.wait().unwrap().success());
    let by_id = |id: i64| replies.iter().find(|r| r["id"] == id);
    let init = by_id(1).unwrap_or_else(|| panic!("no answer to initialize in {replies:?}"));
    assert_eq!(init["result"]["serverInfo"]["name"], "rulebook");
    let read = by_id(2).unwrap_or_else(|| panic!("no answer to resources/read in {replies:?}"));
    assert_eq!(read["result"]["contents"][0]["text"], "Use tabs.");
}
