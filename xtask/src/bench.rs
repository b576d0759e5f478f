//! `cargo xtask bench` and `cargo xtask fuzz`: generate the trees, build with the `profiling`
//! profile (release code with line tables), run `rulebook-bench`.

use std::env;
use std::path::PathBuf;
use std::process::Command;

use super::{cargo, flag, root, run, synth};

/// Builds `packages` with the `profiling` profile (release code with line tables).
fn build_profiling(packages: &[&str]) -> Result<(), String> {
    let mut cmd = cargo();
    cmd.args(["build", "--profile", "profiling", "--locked"]);
    for package in packages {
        cmd.args(["-p", package]);
    }
    run("build", &mut cmd)
}

pub(crate) fn bench(args: &[String]) -> Result<(), String> {
    let quick = args.iter().any(|a| a == "--quick");
    let target =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let trees = target.join("bench-trees");
    let sizes: &[usize] = if quick {
        &[10, 100, 1000]
    } else {
        &[10, 100, 1000, 10_000, 100_000]
    };
    // A monorepo of 100,000 files, and in a full run one of a million (the nested walk
    // must find every rule of it, near `fd`'s time).
    let mut monorepos = Vec::new();
    for &files in if quick {
        &[100_000][..]
    } else {
        &[100_000, 1_000_000][..]
    } {
        let monorepo = trees.join(format!("monorepo-{files}"));
        let written = synth::write_monorepo(&monorepo, files, 50)
            .map_err(|e| format!("writing {}: {e}", monorepo.display()))?;
        eprintln!(
            "xtask: wrote a monorepo of {written} files under {}",
            monorepo.display()
        );
        monorepos.push(monorepo);
    }
    let mut tree_args = Vec::new();
    for &n in sizes {
        let dir = trees.join(format!("n{n}"));
        let (_, bytes) = synth::write_tree(&dir, n, 42, synth::Mix::Mixed)
            .map_err(|e| format!("writing {}: {e}", dir.display()))?;
        tree_args.push(format!("{n}={}={bytes}", dir.display()));
    }
    // A tree of Cursor's rules alone: `check`'s views against its lint.
    let cursor_rules = if quick { 1000 } else { 10_000 };
    let cursor_tree = trees.join(format!("cursor{cursor_rules}"));
    let (_, cursor_bytes) =
        synth::write_tree(&cursor_tree, cursor_rules, 42, synth::Mix::CursorOnly)
            .map_err(|e| format!("writing {}: {e}", cursor_tree.display()))?;
    let skills = trees.join("skills1000");
    let (_, skill_bytes) = synth::write_skills(&skills, 1000, 42)
        .map_err(|e| format!("writing {}: {e}", skills.display()))?;
    build_profiling(&["rulebook-cli", "rulebook-bench"])?;
    // The read floor every tree row is a ratio to: `bench/floor.c`, when a C compiler is
    // here (else the bench's own walk, and its rows say so).
    let c_floor = target.join("profiling").join("floor-c");
    let compiled = Command::new(env::var_os("CC").unwrap_or_else(|| "cc".into()))
        .args(["-O2", "-pthread", "-o"])
        .arg(&c_floor)
        .arg(root().join("bench/floor.c"))
        .status()
        .is_ok_and(|s| s.success());
    if !compiled {
        eprintln!("xtask: no C compiler compiled bench/floor.c: the floor is the bench's own walk");
    }
    let mut cmd = Command::new(
        target
            .join("profiling")
            .join(format!("rulebook-bench{}", env::consts::EXE_SUFFIX)),
    );
    cmd.arg("--rulebook")
        .arg(
            target
                .join("profiling")
                .join(format!("rulebook{}", env::consts::EXE_SUFFIX)),
        )
        .arg("--corpus")
        .arg(root().join("../shared/corpus"));
    for monorepo in &monorepos {
        cmd.arg("--monorepo").arg(monorepo);
    }
    if compiled {
        cmd.arg("--c-floor").arg(&c_floor);
    }
    cmd.arg("--skills")
        .arg(format!("1000={}={skill_bytes}", skills.display()));
    // The language packages, where `cargo xtask ci` built them: their rows against the
    // Rust call.
    let node = root().join("crates/rulebook-node");
    if node.join("index.js").is_file() {
        cmd.arg("--node-package").arg(&node);
    }
    let python = target.join("py-venv/bin/python");
    if python.is_file() {
        cmd.arg("--python").arg(&python);
    }
    if quick {
        cmd.arg("--quick");
    }
    for t in tree_args {
        cmd.arg("--tree").arg(t);
    }
    cmd.arg("--cursor-tree").arg(format!(
        "{cursor_rules}={}={cursor_bytes}",
        cursor_tree.display()
    ));
    run("bench", &mut cmd)
}

pub(crate) fn fuzz(args: &[String]) -> Result<(), String> {
    let seconds = flag(args, "--seconds").unwrap_or("60");
    let mut targets: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| ["frontmatter", "protocol", "ttsr"].contains(a))
        .collect();
    if targets.is_empty() {
        targets = vec!["frontmatter", "protocol", "ttsr"];
    }
    build_profiling(&["rulebook-bench"])?;
    let target =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let bin = target
        .join("profiling")
        .join(format!("rulebook-bench{}", env::consts::EXE_SUFFIX));
    for t in targets {
        run(
            &format!("fuzz {t}"),
            Command::new(&bin)
                .args(["fuzz", t, seconds])
                .arg(root().join("../shared/corpus")),
        )?;
    }
    Ok(())
}
