//! Project automation, run as `cargo xtask <command>` (the alias lives in `.cargo/config.toml`).
//!
//! - `ci`: `cargo fmt --check`, `cargo clippy --all-targets -D warnings`, the tests with
//!   `CI=true` (insta then fails on any snapshot mismatch instead of writing `.snap.new`),
//!   a check that every committed snapshot is still used by a test, the provider wiring
//!   check, `cargo package` of every library crate, the corpus test without the full
//!   corpus, and `cargo doc` with warnings denied.
//!
//! Depends on nothing but the standard library, so it builds in seconds on a fresh clone.

mod bench;
mod ci;
mod generated;
mod man;
mod mutants;
mod new_provider;
mod oracle;
mod synth;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci::ci(),
        Some("gen-tree") => gen_tree(&args[1..]),
        Some("bench") => bench::bench(&args[1..]),
        Some("fuzz") => bench::fuzz(&args[1..]),
        Some("mutants") => mutants::mutants(&args[1..]),
        Some("new-provider") => new_provider::new_provider(&args[1..]),
        Some("man") => man::man(&args[1..]),
        Some("oracle") => oracle::oracle(&args[1..]),
        Some("help" | "--help" | "-h") | None => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: cargo xtask <command>

commands:
  ci                              fmt --check, clippy -D warnings, tests (CI=true),
                                  unreferenced snapshots, docs
  gen-tree --rules N --out DIR    write a synthetic rule tree (DIR/project, DIR/home)
           [--cursor-only]        every rule in Cursor's folders
  gen-tree --skills N --out DIR   the same with N skills (SKILL.md folders)
  gen-tree --monorepo N --out DIR a monorepo of N files with 50 nested rule directories
  bench [--quick]                 generate trees (10..10,000 rules), build (profiling),
                                  run the benchmarks, print the table
  fuzz [--seconds S] [TARGET...]  time-boxed random testing of frontmatter, protocol,
                                  ttsr (default: all three, 60 s each)
  man [--dir DIR]                 write the rulebook(1) man page and one per
                                  subcommand (default: target/man)
  mutants [CRATE…]                 mutation testing (cargo-mutants, copy mode, 2 jobs, each
                                   crate's own tests) of the stage crates; prints the table
 oracle [--check] [--case NAME] [--host ID] [--no-install]
                                  install the pinned real tools (npm) into
                                  $RULEBOOK_ORACLE_CACHE (default target/oracle), run every
                                  fixtures/hosts tree through each offline (unshare -n,
                                  scratch HOME, loopback only), write the golden files, or
                                  with --check compare them
  new-provider NAME               scaffold crates/rulebook-provider-NAME (reads
                                  .NAME/rules/*.md) with a fixture scenario and its
                                  snapshot, append it to crates/rulebook/providers.txt
                                  and write the files generated from that list
  new-provider --write            write the generated files (the facade's
                                  src/table.rs, its [features], the provider lines of
                                  the dependency tables) as providers.txt gives
  new-provider --check            fail when a generated file differs from what
                                  providers.txt gives, or a provider crate is unlisted";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

fn cargo() -> Command {
    let mut cmd = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    cmd.current_dir(root());
    cmd
}

fn run(step: &str, cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask: == {step}: {cmd:?}");
    let status = cmd
        .status()
        .map_err(|e| format!("{step}: could not start: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{step} failed ({status})"))
    }
}

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn gen_tree(args: &[String]) -> Result<(), String> {
    if let Some(files) = flag(args, "--monorepo") {
        let files: usize = files.parse().map_err(|e| format!("--monorepo: {e}"))?;
        let out = PathBuf::from(flag(args, "--out").ok_or("gen-tree needs --out DIR")?);
        let written = synth::write_monorepo(&out, files, 50)
            .map_err(|e| format!("writing {}: {e}", out.display()))?;
        eprintln!(
            "xtask: wrote a monorepo of {written} files (50 nested rule directories, build output and dependencies ignored) under {}",
            out.display()
        );
        return Ok(());
    }
    if let Some(skills) = flag(args, "--skills") {
        let skills: usize = skills.parse().map_err(|e| format!("--skills: {e}"))?;
        let out = PathBuf::from(flag(args, "--out").ok_or("gen-tree needs --out DIR")?);
        let (files, bytes) = synth::write_skills(&out, skills, 42)
            .map_err(|e| format!("writing {}: {e}", out.display()))?;
        eprintln!(
            "xtask: wrote {files} skills ({bytes} bytes) under {}",
            out.display()
        );
        return Ok(());
    }
    let rules: usize = flag(args, "--rules")
        .ok_or("gen-tree needs --rules N")?
        .parse()
        .map_err(|e| format!("--rules: {e}"))?;
    let out = PathBuf::from(flag(args, "--out").ok_or("gen-tree needs --out DIR")?);
    let mix = if args.iter().any(|a| a == "--cursor-only") {
        synth::Mix::CursorOnly
    } else {
        synth::Mix::Mixed
    };
    let (files, bytes) = synth::write_tree(&out, rules, 42, mix)
        .map_err(|e| format!("writing {}: {e}", out.display()))?;
    eprintln!(
        "xtask: wrote {files} rule files ({bytes} bytes) under {}",
        out.display()
    );
    Ok(())
}
