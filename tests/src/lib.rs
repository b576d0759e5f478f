//! Helpers of rulebook's end-to-end tests, which live in this crate's `tests/` folder: they
//! run the built `rulebook` binary over `fixtures/` and the shared corpus.

use std::path::{Path, PathBuf};

/// The workspace root (this crate's parent), resolved.
pub fn workspace_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::canonicalize(&root).unwrap_or(root)
}

/// The `rulebook` binary cargo built for this test run: next to the test's own binary.
///
/// # Panics
/// When it was not built: run the tests through `cargo test --workspace` (or
/// `cargo xtask ci`), which builds it.
pub fn rulebook_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."));
    let path = dir.join(format!("rulebook{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} does not exist: run these tests through `cargo test --workspace` (or `cargo xtask ci`), which builds the binary",
        path.display()
    );
    path
}

/// Runs the `rulebook` binary with `args` in `dir` (`--cwd dir --home dir/no-home`) under
/// an address-space limit of `mib` MiB (`ulimit -v` in `sh`, one malloc arena so that idle
/// thread arenas do not count against it): a command that would hold more fails to
/// allocate and dies, where a bound holds it in. Standard input is empty.
///
/// # Panics
/// When `sh` cannot be started.
pub fn run_limited(dir: &Path, mib: u64, args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v \"$1\" || exit 125; shift; exec \"$@\"")
        .arg("sh")
        .arg((mib * 1024).to_string())
        .arg(rulebook_binary())
        .arg("--cwd")
        .arg(dir)
        .arg("--home")
        .arg(dir.join("no-home"))
        .args(args)
        .env("MALLOC_ARENA_MAX", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run sh: {e}"))
}

/// The Rust blocks of the README, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme {}
