//! Project automation, run as `cargo xtask <command>` (the alias lives in `.cargo/config.toml`).
//!
//! - `ci`: `cargo fmt --check`, `cargo clippy --all-targets -D warnings`, the tests with
//!   `CI=true` (insta then fails on any snapshot mismatch instead of writing `.snap.new`),
//!   a check that every committed snapshot is still used by a test, and `cargo doc` with
//!   warnings denied.
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
        Some("new-provider") => new_provider(&args[1..]),
        Some("man") => man(&args[1..]),
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
  man [--out FILE]                write the rulebook(1) man page (default:
                                  target/man/rulebook.1)
  new-provider NAME               scaffold crates/rulebook-provider-NAME (reads
                                  .NAME/rules/*.md), a fixture and a snapshot test";

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
    eprintln!("xtask: ci passed");
    Ok(())
}

/// The man page, rendered by the binary itself (`clap_mangen`) so it never drifts from `--help`.
fn man(args: &[String]) -> Result<(), String> {
    let target =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let out = flag(args, "--out").map_or_else(|| target.join("man/rulebook.1"), PathBuf::from);
    let output = cargo()
        .args([
            "run",
            "--quiet",
            "--locked",
            "-p",
            "rulebook-cli",
            "--",
            "man",
        ])
        .output()
        .map_err(|e| format!("man: could not start cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "man: rulebook man failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    if let Some(dir) = out.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    fs::write(&out, &output.stdout).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!(
        "xtask: wrote {} (view it with `man {}`)",
        out.display(),
        out.display()
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
        &[10, 100, 1000, 10_000]
    };
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

fn new_provider(args: &[String]) -> Result<(), String> {
    let name = args
        .first()
        .ok_or("new-provider needs a NAME (lower-case, e.g. `zed`)")?;
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(format!("`{name}`: use lower-case letters, digits and `-`"));
    }
    let krate = format!("rulebook-provider-{name}");
    let dir = root().join("crates").join(&krate);
    if dir.exists() {
        return Err(format!("{} exists already", dir.display()));
    }
    let ident = name.replace('-', "_");
    let type_name: String = name
        .split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect();
    let write = |path: PathBuf, text: String| -> Result<(), String> {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
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
publish.workspace = true

[dependencies]
rulebook-fs = {{ workspace = true }}
rulebook-registry = {{ workspace = true }}
rulebook-rule = {{ workspace = true }}

[dev-dependencies]
insta = {{ workspace = true }}

[lints]
workspace = true
"#
        ),
    )?;
    write(
        dir.join("src/lib.rs"),
        format!(
            r#"//! The {type_name} rules provider: `<cwd>/.{name}/rules/*.md` (project) and
//! `~/.{name}/rules/*.md` (user), project first. Fields follow [`FieldPolicy::NATIVE`];
//! pick another row of the table if the tool reads its frontmatter differently.
//!
//! Register it next to the defaults: `let mut registry = rulebook::Options::new().registry();`,
//! `registry.register({type_name}Provider)?;`, then `rulebook::Rulebook::discover_with(cwd,
//! home, profile, &registry)`.
//!
//! Depends on `rulebook-fs`, `rulebook-registry`, `rulebook-rule`.

use rulebook_fs::{{FileLoader, Loaded}};
use rulebook_registry::{{LoadContext, LoadResult, Provider, ProviderError, RuleCapability}};
use rulebook_rule::coerce::FieldPolicy;
use rulebook_rule::{{Level, Rule}};

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

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {{
        let loader = FileLoader::new("{name}", "{type_name}", FieldPolicy::NATIVE, ctx.profile)
            .max_size(ctx.size_cap());
        let mut out = Loaded::default();
        let dir = ".{name}/rules";
        loader.load_dir(&ctx.cwd.join(dir), &["md"], Level::Project, Some(&ctx.cwd), &mut out);
        if let Some(user) = ctx.in_home(dir) {{
            loader.load_dir(&user, &["md"], Level::User, None, &mut out);
        }}
        Ok(LoadResult {{
            items: out.rules,
            diagnostics: out.diagnostics,
        }})
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

use rulebook_provider_{ident}::{type_name}Provider;
use rulebook_registry::{{LoadContext, Provider}};

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
        "---
description: An example rule
---
Replace me.
"
        .to_owned(),
    )?;
    eprintln!(
        "xtask: created {krate}. Next: run `cargo test -p {krate}` and review the new snapshot, add the crate to [workspace.dependencies], and register {type_name}Provider where it is used."
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
