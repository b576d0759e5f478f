//! `cargo xtask mutants`: cargo-mutants over the stage crates.

use std::env;
use std::fs;
use std::path::PathBuf;

use super::{cargo, root, run};

/// The stage crates, each meant to be consumed alone: their own tests must pin them.
const MUTANT_CRATES: &[&str] = &[
    "rulebook-frontmatter",
    "rulebook-rule",
    "rulebook-fs",
    "rulebook-registry",
    "rulebook-kit",
    "rulebook-partition",
    "rulebook-prompt",
    "rulebook-protocol",
    "rulebook-ttsr",
    "rulebook-match",
    "rulebook-check",
    "rulebook-mcp",
];

/// `cargo xtask mutants [CRATE…]`: cargo-mutants (installed on demand) on each crate, in copy
/// mode with two jobs, each mutant tested by the crate's own tests only; then the table of
/// caught, missed, timed-out and unviable mutants and the score (caught of the viable ones).
/// Not part of `ci`: it takes minutes per crate. Mutants known to be equivalent are skipped
/// in the code (`#[mutants::skip]` with the reason) or in `.cargo/mutants.toml`.
pub(crate) fn mutants(args: &[String]) -> Result<(), String> {
    let installed = cargo()
        .args(["mutants", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        run(
            "install cargo-mutants",
            cargo().args(["install", "--locked", "cargo-mutants"]),
        )?;
    }
    let crates: Vec<&str> = if args.is_empty() {
        MUTANT_CRATES.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    let target =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let mut rows = Vec::new();
    for krate in crates {
        let out = target.join("mutants").join(krate);
        fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        // cargo-mutants exits non-zero when a mutant is missed: that is a result, not a
        // failure of the run; the counts below say it.
        let status = cargo()
            .args([
                "mutants",
                "--package",
                krate,
                "--test-package",
                krate,
                "--jobs",
                "2",
            ])
            .arg("--output")
            .arg(&out)
            .status()
            .map_err(|e| format!("cargo mutants: {e}"))?;
        let count = |name: &str| {
            fs::read_to_string(out.join("mutants.out").join(name))
                .map_or(0, |t| t.lines().filter(|l| !l.trim().is_empty()).count())
        };
        let (caught, missed, timeout, unviable) = (
            count("caught.txt"),
            count("missed.txt"),
            count("timeout.txt"),
            count("unviable.txt"),
        );
        if caught + missed + timeout + unviable == 0 {
            return Err(format!(
                "cargo mutants found nothing to test in {krate} ({status})"
            ));
        }
        rows.push((krate, caught, missed, timeout, unviable));
    }
    println!(
        "| crate | mutants | caught | missed | timeout | unviable | score (own tests; a hang is caught) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (krate, caught, missed, timeout, unviable) in rows {
        let viable = caught + missed + timeout;
        // A mutant that makes the tests hang is noticed: it counts as caught.
        #[allow(clippy::cast_precision_loss, reason = "counts of mutants")]
        let score = if viable == 0 {
            100.0
        } else {
            100.0 * (caught + timeout) as f64 / viable as f64
        };
        println!(
            "| {krate} | {} | {caught} | {missed} | {timeout} | {unviable} | {score:.1}% |",
            viable + unviable
        );
    }
    println!("\nThe missed mutants: target/mutants/CRATE/mutants.out/missed.txt");
    Ok(())
}
