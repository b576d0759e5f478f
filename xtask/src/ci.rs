//! `cargo xtask ci`: the checks CI runs, in order (fmt, clippy, tests, docs, snapshots, the MCP client test).

use std::collections::BTreeSet;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{cargo, root, run};
use crate::new_provider::check_providers;

pub(crate) fn ci() -> Result<(), String> {
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
    one_provider_alone()?;
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
    doc()?;
    // Crates outside the workspace that use it as a consumer does: the facade alone, one
    // provider crate alone (`examples/`), built and run.
    for consumer in ["consumer-facade", "consumer-one-provider"] {
        let manifest = root().join("examples").join(consumer).join("Cargo.toml");
        run(
            &format!("consumer {consumer}"),
            cargo()
                .args(["run", "--quiet", "--locked", "--manifest-path"])
                .arg(&manifest)
                .arg("--target-dir")
                .arg(&target),
        )?;
    }
    // Publishing in dependency order, as crates.io would take the crates: each packaged
    // crate is built from its package against the packages before it (a dry run: nothing
    // is uploaded). Cargo unpacks those packages once per version into its home, and our
    // versions do not change between runs: a home of its own, whose unpacked packages are
    // removed first, keeps a run from building against the sources of an earlier one.
    let home = target.join("publish-cargo-home");
    // The configuration of the usual home (a registry mirror, say) comes along.
    let usual = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    fs::create_dir_all(&home).map_err(|e| format!("cannot create {}: {e}", home.display()))?;
    for name in ["config.toml", "config"] {
        if let Some(from) = usual.as_ref().map(|u| u.join(name)).filter(|f| f.is_file()) {
            fs::copy(&from, home.join(name))
                .map_err(|e| format!("cannot copy {}: {e}", from.display()))?;
        }
    }
    let unpacked = home.join("registry").join("src");
    if let Ok(entries) = fs::read_dir(&unpacked) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with('-') {
                fs::remove_dir_all(entry.path())
                    .map_err(|e| format!("cannot remove {}: {e}", entry.path().display()))?;
            }
        }
    }
    run(
        "publish dry run",
        cargo().env("CARGO_HOME", &home).args([
            "publish",
            "--workspace",
            "--dry-run",
            "--locked",
            "--allow-dirty",
            "--exclude",
            "xtask",
            "--exclude",
            "rulebook-tests",
            "--exclude",
            "rulebook-bench",
            "--exclude",
            "rulebook-test",
        ]),
    )?;
    // The binary the end-to-end tests below drive, built once for all of them.
    run(
        "build rulebook for the end-to-end tests",
        cargo().args(["build", "--locked", "-p", "rulebook-cli"]),
    )?;
    mcp_client(&target)?;
    lsp_client(&target)?;
    python_package(&target)?;
    node_package(&target)?;
    eprintln!("xtask: ci passed");
    Ok(())
}

/// `cargo doc` of the workspace with rustdoc's warnings as errors, and cargo's own warnings
/// too (an output filename collision: two crates' pages at one path, one lost).
fn doc() -> Result<(), String> {
    let mut cmd = cargo();
    cmd.args(["doc", "--workspace", "--no-deps", "--locked"])
        .env("RUSTDOCFLAGS", "-D warnings");
    eprintln!("xtask: == doc: {cmd:?}");
    let output = cmd
        .output()
        .map_err(|e| format!("doc: could not start: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    eprint!("{stderr}");
    if !output.status.success() {
        return Err(format!("doc failed ({})", output.status));
    }
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.trim_start().starts_with("warning"))
        .collect();
    if warnings.is_empty() {
        Ok(())
    } else {
        Err(format!("doc warned: {}", warnings.join("; ")))
    }
}

/// The facade's features are real: with one provider's feature alone it builds that provider
/// crate and no other (`cargo tree` shows it), and compiles.
fn one_provider_alone() -> Result<(), String> {
    let feature = ["--no-default-features", "--features", "cursor"];
    let output = cargo()
        .args(["tree", "--locked", "-p", "rulebook", "-e", "normal"])
        .args(["--prefix", "none"])
        .args(feature)
        .output()
        .map_err(|e| format!("cargo tree: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo tree failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let tree = String::from_utf8_lossy(&output.stdout);
    let providers: BTreeSet<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| name.starts_with("rulebook-provider-"))
        .collect();
    if providers.into_iter().collect::<Vec<_>>() != ["rulebook-provider-cursor"] {
        return Err(format!(
            "rulebook with the feature `cursor` alone must build rulebook-provider-cursor and no other provider; cargo tree:\n{tree}"
        ));
    }
    run(
        "check rulebook with one provider",
        cargo()
            .args(["check", "--locked", "-p", "rulebook"])
            .args(feature),
    )
}

/// The end-to-end test of `rulebook mcp` with the official Python MCP SDK
/// (`tests/mcp/client_test.py`), in a virtual environment under the target directory with
/// the pinned `tests/mcp/requirements.txt`. Without Python 3 or the package registry it
/// says so and skips ([`skipped`]).
pub(crate) fn mcp_client(target: &Path) -> Result<(), String> {
    let skip = |why: String| skipped("mcp client test", &why);
    let python = python();
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

/// The end-to-end test of `rulebook lsp` with a language client nobody here wrote (pygls,
/// `tests/lsp/client_test.py`), in a virtual environment with the pinned
/// `tests/lsp/requirements.txt`; skipped as [`mcp_client`] is.
pub(crate) fn lsp_client(target: &Path) -> Result<(), String> {
    let Some(client) = venv(&python(), target, "lsp-venv", "tests/lsp/requirements.txt")? else {
        return skipped(
            "lsp client test",
            "cannot install tests/lsp/requirements.txt (no Python or package registry?)",
        );
    };
    run(
        "lsp client test (pygls)",
        Command::new(&client)
            .arg(root().join("tests/lsp/client_test.py"))
            .arg(target.join("debug/rulebook"))
            .arg(root().join("fixtures/demo")),
    )
}

/// The Python package (`crates/rulebook-python`): its wheel built by maturin in release,
/// installed into a virtual environment with the pinned
/// `crates/rulebook-python/requirements-dev.txt`, and its pytest suite run against the CLI;
/// skipped as [`mcp_client`] is.
pub(crate) fn python_package(target: &Path) -> Result<(), String> {
    let Some(venv_python) = venv(
        &python(),
        target,
        "py-venv",
        "crates/rulebook-python/requirements-dev.txt",
    )?
    else {
        return skipped(
            "python package",
            "cannot install crates/rulebook-python/requirements-dev.txt (no Python or package registry?)",
        );
    };
    let bin = venv_python
        .parent()
        .ok_or("the virtual environment has no bin directory")?
        .to_path_buf();
    let wheels = target.join("wheels");
    let _ = fs::remove_dir_all(&wheels);
    run(
        "python package: maturin build --release",
        Command::new(bin.join("maturin"))
            .args(["build", "--release", "--locked", "--out"])
            .arg(&wheels)
            .arg("--manifest-path")
            .arg(root().join("crates/rulebook-python/Cargo.toml")),
    )?;
    let wheel = fs::read_dir(&wheels)
        .map_err(|e| format!("{}: {e}", wheels.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .ok_or("maturin built no wheel")?;
    install_wheel(&venv_python, &wheel, "python package: install the wheel")?;
    let pytest = |python: &Path, what: &str| {
        run(
            what,
            Command::new(python)
                .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
                .arg(root().join("crates/rulebook-python/tests"))
                .env("RULEBOOK_BIN", target.join("debug/rulebook"))
                .env("RULEBOOK_FIXTURE", root().join("fixtures/demo"))
                .env("PYTHONDONTWRITEBYTECODE", "1"),
        )
    };
    pytest(&venv_python, "python package: pytest")?;
    // The one abi3 wheel on every other Python 3 this machine has (`python3.N` on the
    // path, or a pyenv version, from the oldest the wheel takes): its tests in a venv of
    // each.
    let built_for = venv_python_version(&venv_python);
    let pyenv = env::var_os("PYENV_ROOT")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".pyenv")));
    for minor in 9..=14 {
        let runs = |python: &Path| {
            Command::new(python)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        };
        let on_path = PathBuf::from(format!("python3.{minor}"));
        let from_pyenv = pyenv.as_ref().and_then(|root| {
            fs::read_dir(root.join("versions"))
                .ok()?
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with(&format!("3.{minor}.")))
                })
                .map(|p| p.join(format!("bin/python3.{minor}")))
                .find(|p| p.is_file())
        });
        let Some(other) = std::iter::once(on_path).chain(from_pyenv).find(|p| runs(p)) else {
            continue;
        };
        if built_for == Some(minor) {
            continue;
        }
        let other = other.display().to_string();
        let Some(python) = venv(
            &other,
            target,
            &format!("py-venv-3.{minor}"),
            "crates/rulebook-python/tests/requirements.txt",
        )?
        else {
            eprintln!("xtask: python package on {other} SKIPPED: no venv or no pytest");
            continue;
        };
        install_wheel(
            &python,
            &wheel,
            &format!("python package: install the wheel for Python 3.{minor}"),
        )?;
        pytest(
            &python,
            &format!("python package: pytest on Python 3.{minor}"),
        )?;
    }
    Ok(())
}

/// An end-to-end step that cannot run here: an error when `RULEBOOK_REQUIRE_MCP_CLIENT` is
/// set (`.ci/run` sets it: CI runs every step), else a line saying it was skipped.
fn skipped(step: &str, why: &str) -> Result<(), String> {
    if env::var_os("RULEBOOK_REQUIRE_MCP_CLIENT").is_some_and(|v| !v.is_empty()) {
        return Err(format!(
            "{step}: {why} (RULEBOOK_REQUIRE_MCP_CLIENT is set)"
        ));
    }
    eprintln!("xtask: {step} SKIPPED: {why}");
    Ok(())
}

/// The Python 3 the virtual environments are made from (`$PYTHON`, else `python3`).
fn python() -> String {
    env::var("PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Installs `wheel` (this build of it, whatever was there) into the environment of `python`.
fn install_wheel(python: &Path, wheel: &Path, what: &str) -> Result<(), String> {
    run(
        what,
        Command::new(python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--force-reinstall",
                "--no-deps",
            ])
            .arg(wheel),
    )
}

/// The minor version of a Python 3 interpreter.
fn venv_python_version(python: &Path) -> Option<u32> {
    let out = Command::new(python)
        .args(["-c", "import sys; print(sys.version_info[1])"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// The Node package (`crates/rulebook-node`): `@napi-rs/cli` installed from the lock file
/// (`npm ci`), the addon built in release (`napi build`, which writes `index.js` and
/// `index.d.ts`), its tests run by node's test runner against the CLI, and the package
/// packed (`npm pack`) into `target/npm`; skipped as [`mcp_client`] is
/// where npm is missing.
pub(crate) fn node_package(target: &Path) -> Result<(), String> {
    let package = root().join("crates/rulebook-node");
    if Command::new("npm")
        .arg("--version")
        .output()
        .map_or(true, |o| !o.status.success())
    {
        return skipped("node package", "npm is not installed");
    }
    run(
        "node package: npm ci",
        Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&package),
    )?;
    run(
        "node package: napi build --release",
        Command::new("npx")
            .args(["napi", "build", "--platform", "--release"])
            .current_dir(&package),
    )?;
    run(
        "node package: node --test",
        Command::new("node")
            .args(["--test", "test/"])
            .current_dir(&package)
            .env("RULEBOOK_BIN", target.join("debug/rulebook"))
            .env("RULEBOOK_FIXTURE", root().join("fixtures/demo")),
    )?;
    let packed = target.join("npm");
    fs::create_dir_all(&packed).map_err(|e| format!("{}: {e}", packed.display()))?;
    run(
        "node package: npm pack",
        Command::new("npm")
            .args(["pack", "--loglevel=error", "--pack-destination"])
            .arg(&packed)
            .current_dir(&package),
    )
}

/// A virtual environment `target/<name>` with the pinned `requirements` (a path from the
/// repository root), made once per content of that file: its Python, or `None` when it
/// cannot be made here (no `venv` module, no package registry).
pub(crate) fn venv(
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

/// Every committed `.snap` must have been read by a test in this run: a stale snapshot is
/// an expectation nobody checks any more.
pub(crate) fn check_unreferenced(references: &Path) -> Result<(), String> {
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
        // `node_modules`: the Node package's installed build tools, not committed.
        if name == "target" || name == "node_modules" || name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect_snapshots(&path, out);
        } else if name.ends_with(".snap") {
            out.push(path);
        }
    }
}
