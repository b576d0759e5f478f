//! The oracle runner behind `cargo xtask oracle`: runs every host-emulation fixture tree
//! (`fixtures/hosts/<case>/`) through the real tools (their scripts in `xtask/oracle/`,
//! each offline: a network namespace with loopback alone, a scratch environment, no real
//! key) and writes what each loaded as golden files, or (`--check`) compares.
//!
//! Usage: `oracle [--check] [--case NAME]... [--host ID]...` with `ORACLE_CACHE` naming the
//! folder the tools were installed into.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use rulebook_hosts::Host;
use rulebook_hosts::fixture::{
    Case, Golden, GoldenFile, GoldenSkill, golden_path, redact, relative,
};

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("oracle: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool, String> {
    let mut check = false;
    let mut only_cases = Vec::new();
    let mut only_hosts = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--case" => only_cases.push(args.next().ok_or("--case needs a name")?),
            "--host" => {
                let id = args.next().ok_or("--host needs an id")?;
                only_hosts.push(rulebook::tool(&id).ok_or(format!("unknown host `{id}`"))?);
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("no repository root")?
        .to_path_buf();
    let fixtures = repo.join("fixtures/hosts");
    let scripts = repo.join("xtask/oracle");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .map_err(|e| format!("{}: {e}", fixtures.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("case.json").is_file())
        .collect();
    cases.sort();
    let mut jobs = Vec::new();
    for dir in &cases {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if !only_cases.is_empty() && !only_cases.contains(&name) {
            continue;
        }
        let case = Case::load(dir).map_err(|e| e.to_string())?;
        for host in case.hosts(rulebook::tools())? {
            if !only_hosts.is_empty() && !only_hosts.contains(&host) {
                continue;
            }
            for cwd in &case.cwds {
                jobs.push((dir.clone(), case.clone(), host, cwd.clone()));
            }
        }
    }
    eprintln!("oracle: {} runs", jobs.len());
    let jobs = std::sync::Mutex::new(jobs.into_iter());
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                // The lock is taken and released inside `next`, never held over a run.
                let next = || jobs.lock().ok().and_then(|mut j| j.next());
                while let Some((dir, case, host, cwd)) = next() {
                    let outcome = one(&scripts, &dir, &case, host, &cwd, check);
                    if let Ok(mut r) = results.lock() {
                        r.push((dir, host, cwd, outcome));
                    }
                }
            });
        }
    });
    let mut ok = true;
    let mut results = results.into_inner().map_err(|e| e.to_string())?;
    results.sort_by(|a, b| (&a.0, a.1.id(), &a.2).cmp(&(&b.0, b.1.id(), &b.2)));
    for (dir, host, cwd, outcome) in results {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        match outcome {
            Ok(None) => {}
            Ok(Some(diff)) => {
                ok = false;
                eprintln!(
                    "oracle: {name} {host}@{cwd}: the golden file differs from the real tool:\n{diff}"
                );
            }
            Err(e) => {
                ok = false;
                eprintln!("oracle: {name} {host}@{cwd}: {e}");
            }
        }
    }
    Ok(ok)
}

/// Runs one tool in one case and cwd; writes the golden file, or compares with it.
fn one(
    scripts: &Path,
    dir: &Path,
    case: &Case,
    host: Host,
    cwd: &str,
    check: bool,
) -> Result<Option<String>, String> {
    let scratch = tempfile::Builder::new()
        .prefix("rulebook-oracle-")
        .tempdir()
        .map_err(|e| e.to_string())?;
    let root = std::fs::canonicalize(scratch.path()).map_err(|e| e.to_string())?;
    case.materialize(dir, &root)
        .map_err(|e| format!("materialize: {e}"))?;
    let script = scripts.join(host.id()).join("run.sh");
    let out = Command::new("sh")
        .arg(&script)
        .arg(root.join(cwd))
        .arg(root.join(&case.home))
        .output()
        .map_err(|e| format!("{}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed ({}): {}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "{}: not JSON ({e}): {}",
            script.display(),
            String::from_utf8_lossy(&out.stdout)
        )
    })?;
    let golden = normalize(host, &root, cwd, &value)?;
    let path = golden_path(dir, host, cwd);
    if check {
        let committed =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut committed: Golden =
            serde_json::from_str(&committed).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut golden = golden;
        // A tool that lists skills in its file search's order is compared on the set.
        if host.tool().info().skills_unordered() {
            let key = |s: &GoldenSkill| (s.path.clone(), s.name.clone());
            committed.skills.sort_by_key(key);
            golden.skills.sort_by_key(key);
        }
        return Ok((committed != golden).then(|| {
            format!(
                "committed: {}\nreal tool: {}",
                serde_json::to_string_pretty(&committed).unwrap_or_default(),
                serde_json::to_string_pretty(&golden).unwrap_or_default()
            )
        }));
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    let text = serde_json::to_string_pretty(&golden).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(None)
}

/// A script's `{files, text}` as a golden record: paths relative to the tree, the tree's
/// path redacted, and the tool's own prompt text (Claude Code's preamble) removed.
fn normalize(
    host: Host,
    root: &Path,
    cwd: &str,
    value: &serde_json::Value,
) -> Result<Golden, String> {
    let files = value["files"].as_array().ok_or("no `files` array")?;
    let files = files
        .iter()
        .map(|f| {
            let (path, cut) = match f {
                serde_json::Value::String(p) => (p.as_str(), None),
                other => (
                    other["path"].as_str().unwrap_or_default(),
                    other["truncated_at"]
                        .as_u64()
                        .and_then(|n| usize::try_from(n).ok()),
                ),
            };
            GoldenFile {
                path: relative(root, Path::new(path)),
                truncated_at: cut,
            }
        })
        .collect();
    let mut text = value["text"].as_str().ok_or("no `text`")?.to_string();
    if host.id() == "claude" {
        text = claude_entries(&text);
    }
    let skills = value["skills"]
        .as_array()
        .map(|skills| {
            skills
                .iter()
                .map(|s| GoldenSkill {
                    name: s["name"].as_str().unwrap_or_default().to_owned(),
                    description: redact(root, s["description"].as_str().unwrap_or_default()),
                    path: relative(root, Path::new(s["path"].as_str().unwrap_or_default())),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Golden {
        host: host.id().to_string(),
        version: host.version().unwrap_or_default().to_string(),
        cwd: cwd.to_string(),
        files,
        text: redact(root, &text),
        skills,
    })
}

/// The `Contents of …` entries of Claude Code's memory block, without the sentence before
/// them and the `<system-reminder>` around them (the tool's own prompt text).
fn claude_entries(text: &str) -> String {
    let Some(start) = text.find("Contents of ") else {
        return String::new();
    };
    let body = &text[start..];
    body.strip_suffix("\n</system-reminder>")
        .unwrap_or(body)
        .to_string()
}
