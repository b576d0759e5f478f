//! The providers (the union view agents get) against the real tools. For
//! every golden file `cargo xtask oracle` recorded from a real tool, the providers must
//! find every file the tool loaded (a superset: the union view also keeps what the
//! tool leaves for later), with the same activation: a file the tool loads at start is, in
//! the union view, an active always-apply rule or imported by one. The union view is every
//! default provider together: a file is one provider's (AGENTS.md is `agents-md`'s for
//! every tool that reads it). A file missed, or found with another activation, is listed
//! with the case, so drift between the providers and the tools shows here.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rulebook::{Options, RuleBucket, Rulebook};
use rulebook_hosts::fixture::{Case, Golden, golden_path, relative};

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hosts");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("case.json").is_file())
        .collect();
    out.sort();
    out
}

/// Known differences, each with its cause; each must still differ (the list cannot go
/// stale). `(case, file)`: every tool and working directory of the case.
const KNOWN: &[(&str, &str, &str)] = &[
    (
        "codex-override",
        "r/AGENTS.md",
        "the `agents-md` provider reads AGENTS.md as Codex does (behaviour.md §13): an AGENTS.override.md beside it is read instead; Claude, Cline and Continue read AGENTS.md",
    ),
    (
        "codex-blank-override",
        "r/AGENTS.md",
        "as `codex-override`: Codex picks the blank override and reads nothing (an info says so)",
    ),
    (
        "opencode-empty-claims",
        "r/sub/AGENTS.md",
        "a blank AGENTS.md makes no rule in the union view (the `agents-md` provider follows Codex, which skips it); OpenCode sends its blank text",
    ),
    (
        "copilot-cli-order",
        "r/a/b/c/AGENTS.md",
        "as `codex-override`: the `agents-md` provider reads the AGENTS.override.md beside it, as Codex does; Copilot CLI reads AGENTS.md and never the override",
    ),
    (
        "copilot-cli-order",
        "r/a/b/c/.github/copilot-instructions.md",
        "the `copilot` provider reads `.github/copilot-instructions.md` at the project root, as GitHub's documentation and VS Code do; Copilot CLI also reads the working directory's and those between",
    ),
    (
        "copilot-cli-order",
        "r/a/.github/copilot-instructions.md",
        "as the working directory's `.github/copilot-instructions.md` of this case: Copilot CLI reads the one of a directory between the root and the working directory",
    ),
    (
        "continue-agent-names",
        "r/sub/AGENTS.md",
        "as `opencode-empty-claims`: a blank AGENTS.md makes no rule in the union view; the OpenHands SDK sends its blank text",
    ),
    (
        "continue-user",
        "r/.cursorrules",
        "the `cursor` provider reads `.cursorrules` in the working directory, the folder Cursor opens; the OpenHands SDK also reads the repository root's",
    ),
    (
        "mixed-cursor-only",
        "r/.cursorrules",
        "as `continue-user`: the root's `.cursorrules` from a subdirectory",
    ),
    (
        "openhands-third-party",
        "r/.cursorrules",
        "as `continue-user`: the root's `.cursorrules` from a subdirectory",
    ),
    (
        "openhands-third-party",
        "r/AGENT.md",
        "the `zed` and `roo` providers read AGENT.md only when AGENTS.md is missing or blank, as those tools do; the OpenHands SDK takes AGENT.md first (it sorts before AGENTS.md) as its `agents`",
    ),
];

/// Known differences of activation, each with its cause; each must still differ.
/// `(case, file, cwd)`.
const KNOWN_ACTIVATION: &[(&str, &str, &str, &str)] = &[
    (
        "cline-keys",
        "ws/.clinerules/api.md",
        "ws",
        "the `cline` provider reads `paths:` as the VS Code extension does (`UI/rule-conditionals.ts`: attached to matching files); Cline CLI ignores it and loads the rule at start",
    ),
    (
        "cline-dedup",
        "ws/.cline/rules/x.md",
        "ws",
        "Cline CLI keeps one rule per title, the last read (`.cline/rules/x.md` after `.clinerules/x.md`); in the union view both are named `x` and the first of the provider wins, as the extension reads `.clinerules` only",
    ),
    (
        "cline-override",
        "home/Documents/Cline/Rules/style.md",
        "ws",
        "as `cline-dedup`: Cline CLI's last title read wins, so a global rule overrides the workspace's; the `cline` provider follows the extension, where the workspace's rule wins a name clash",
    ),
    (
        "copilot-cli-instructions",
        "r/.github/instructions/none.instructions.md",
        "r",
        "the `copilot` provider reads an instructions file without `applyTo` as VS Code does (listed by its description, attached on request); Copilot CLI sends it at start",
    ),
    (
        "copilot-cli-instructions",
        "r/.github/instructions/desc.instructions.md",
        "r",
        "as `none.instructions.md`: a frontmatter without `applyTo`",
    ),
    (
        "copilot-cli-instructions",
        "home/.copilot/instructions/plain.instructions.md",
        "r",
        "as `none.instructions.md`, the user's",
    ),
    (
        "copilot-cli-instructions",
        "r/.claude/rules/r2.md",
        "r",
        "the `claude` provider reads `paths: \"**\"` as Claude Code does (attached when a file is worked on); Copilot CLI sends the rule at start",
    ),
    (
        "copilot-cli-instructions",
        "home/.copilot/instructions/sub/udeep.instructions.md",
        "r",
        "as `none.instructions.md`, the user's, in a subfolder",
    ),
    (
        "copilot-cli-instructions",
        "home/.copilot/instructions/plain.instructions.md",
        "r/s",
        "as at `r`",
    ),
    (
        "copilot-cli-instructions",
        "home/.copilot/instructions/sub/udeep.instructions.md",
        "r/s",
        "as at `r`",
    ),
    (
        "copilot-cli-instructions",
        "r/.github/instructions/desc.instructions.md",
        "r/s",
        "as at `r`",
    ),
    (
        "copilot-cli-instructions",
        "r/.github/instructions/none.instructions.md",
        "r/s",
        "as at `r`",
    ),
    (
        "copilot-cli-instructions",
        "r/.claude/rules/r2.md",
        "r/s",
        "as at `r`",
    ),
    (
        "augment-rules",
        "r/.augment/rules/broken.md",
        "r",
        "the union view recovers the description of YAML that fails (Extended E4, with a warning) and the `augment` provider reads it as agent-requested; Augment's CLI reads no key of such a block and sends the rule as always",
    ),
    (
        "augment-rules",
        "r/.augment/rules/broken.md",
        "r/sub",
        "as at `r`",
    ),
    (
        "gemini-link",
        "r/sub/GEMINI.md",
        "r/sub",
        "a link to r/GEMINI.md: one rule in the union view (the same file), under the root's name; the OpenHands SDK takes the working directory's by name and the root's is the one it drops",
    ),
    (
        "copilot-cli-no-git",
        "p/q/.github/instructions/a.instructions.md",
        "p/q",
        "as `copilot-cli-instructions`' `none.instructions.md`: no `applyTo`",
    ),
];

/// How the union view holds `file`: `None` when it is what the tool does at start (an active
/// always-apply rule, or imported by one), else what it is instead.
fn activation(book: &Rulebook, root: &Path, file: &str) -> Option<String> {
    let mut fates = Vec::new();
    for (i, entry) in book.all().iter().enumerate() {
        let covers = std::iter::once(&entry.item.path)
            .chain(&entry.item.includes)
            .chain(entry.item.source.real_path.as_ref())
            .any(|p| relative(root, p) == file);
        if !covers {
            continue;
        }
        match book.entry_placement(i).map(|p| p.bucket) {
            Some(Some(RuleBucket::AlwaysApply)) => return None,
            Some(Some(bucket)) => fates.push(format!("{} in {}", entry.item.name, bucket.as_str())),
            Some(None) => fates.push(format!("{} in no bucket", entry.item.name)),
            None => fates.push(format!("{} shadowed or invalid", entry.item.name)),
        }
    }
    Some(fates.join(", "))
}

#[test]
fn providers_find_every_file_the_real_tools_load_with_the_same_activation() {
    let mut known_seen = vec![false; KNOWN.len()];
    let mut known_activation_seen = vec![false; KNOWN_ACTIVATION.len()];
    let mut misses = Vec::new();
    let mut checked = 0usize;
    for dir in cases() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let case = Case::load(&dir).unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(scratch.path()).unwrap();
        case.materialize(&dir, &root).unwrap();
        for host in case.hosts(rulebook::tools()).unwrap() {
            for cwd in &case.cwds {
                let Ok(text) = std::fs::read_to_string(golden_path(&dir, host, cwd)) else {
                    continue;
                };
                let golden: Golden = serde_json::from_str(&text).unwrap();
                let book = Rulebook::discover(
                    root.join(cwd),
                    Some(&root.join(&case.home)),
                    &Options::new(),
                );
                let found: BTreeSet<String> = book
                    .all()
                    .iter()
                    .flat_map(|e| {
                        std::iter::once(&e.item.path)
                            .chain(&e.item.includes)
                            .chain(e.item.source.real_path.as_ref())
                    })
                    .map(|p| relative(&root, p))
                    .collect();
                checked += 1;
                for file in &golden.files {
                    if let Some(k) = KNOWN
                        .iter()
                        .position(|(case, path, _)| *case == name && *path == file.path)
                    {
                        known_seen[k] |= !found.contains(&file.path);
                        continue;
                    }
                    if !found.contains(&file.path) {
                        misses.push(format!("{name} {host}@{cwd}: {} not found", file.path));
                        continue;
                    }
                    let Some(instead) = activation(&book, &root, &file.path) else {
                        continue;
                    };
                    if let Some(k) = KNOWN_ACTIVATION.iter().position(|(case, path, at, _)| {
                        *case == name && *path == file.path && at == cwd
                    }) {
                        known_activation_seen[k] = true;
                        continue;
                    }
                    misses.push(format!(
                        "{name} {host}@{cwd}: {} is loaded at start by the tool, but in the union view: {instead}",
                        file.path
                    ));
                }
            }
        }
    }
    assert!(checked >= 200, "{checked} golden files");
    for (seen, (case, path, _)) in known_seen.iter().zip(KNOWN) {
        assert!(seen, "{case} {path}: listed in KNOWN but now found");
    }
    for (seen, (case, path, cwd, _)) in known_activation_seen.iter().zip(KNOWN_ACTIVATION) {
        assert!(
            seen,
            "{case} {path}@{cwd}: listed in KNOWN_ACTIVATION but now the same"
        );
    }
    assert!(
        misses.is_empty(),
        "{} misses:\n{}",
        misses.len(),
        misses.join("\n")
    );
}
