//! The OpenHands microagents provider (behaviour.md §13, the `openhands` row), Extended only.
//!
//! The OpenHands SDK (1.58.2) reads the `*.md` files of `.agents/skills`, `.openhands/skills`
//! and `.openhands/microagents`, recursively (`README.md`, `SKILL.md` and a skill's folder
//! skipped), of the working directory, then of the repository root, then the user's; so
//! does this provider. Their kinds follow OpenHands' V0 microagents
//! (`All-Hands-AI/OpenHands` 156d068, `openhands/microagent/microagent.py`), where
//! a microagent's name is its path
//! under the folder without `.md` (`sub/foo`; rulebook's rule `sub:foo`), whatever its
//! frontmatter `name`. Its kind
//! comes from its keys, not from `type` (which is only validated):
//! - `inputs` → a **task** microagent, run when the user types `/<name>`;
//! - else `triggers` → a **knowledge** microagent: added once per conversation when a user
//!   message contains one of its keywords (`match_trigger`: the message lower-cased, a plain
//!   substring test, so `git` fires on `github`);
//! - else a **repo** microagent: always on (`<REPOSITORY_INSTRUCTIONS>`).
//!
//! The legacy `.openhands_instructions` is an always-on repo microagent, `repo_legacy`.
//!
//! This provider maps them onto rulebook's buckets: repo → always-apply; knowledge → TTSR,
//! one condition a trigger (`(?i)` and the keyword, escaped: the same case-insensitive
//! substring test), described by its triggers; task → manual (read through `rule://`).
//! The semantics agree on the test and differ on the text tested: OpenHands tests the
//! user's messages, rulebook's TTSR manager the model's output stream.
//!
//! [`host`] is the tool's own view (`--as openhands`), verified against the OpenHands SDK
//! 1.58.2: its third-party files, skills folders, `<REPO_CONTEXT>` and skills catalog.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_openhands::{LoadContext, OpenhandsProvider, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".openhands/microagents"))?;
//! std::fs::write(
//!     dir.path().join(".openhands/microagents/docker.md"),
//!     "---\ntriggers:\n- docker\n---\nUse compose v2.",
//! )?;
//! let loaded = OpenhandsProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].condition, vec!["(?i)docker".to_string()]);
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// OpenHands, for the table of tools: `--as openhands` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Openhands);

use std::path::Path;

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, FileLoader, KnownKey, Level, LoadResult, Profile,
    ProviderError, ProviderMeta, Rule, RuleCapability, Value,
};

/// OpenHands reads no `description`, `globs` or `alwaysApply`: its keys decide.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The keys of a microagent's frontmatter (`openhands/microagent/types.py`).
pub const KNOWN_KEYS: &[KnownKey] = &[
    KnownKey::new("name", "a display name (the path names the microagent)"),
    KnownKey::new("type", "repo, knowledge or task (validated, not used)"),
    KnownKey::new("version", "the microagent's version"),
    KnownKey::new("agent", "the agent it is for (CodeActAgent)"),
    KnownKey::new("triggers", "keywords that add it to the conversation"),
    KnownKey::new("inputs", "a task microagent's inputs"),
    KnownKey::new("mcp_tools", "MCP servers it brings"),
];

/// The kinds `type` may name.
const TYPES: &[&str] = &["repo", "knowledge", "task"];

/// The OpenHands provider (id `openhands`, priority 18).
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenhandsProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "openhands",
    "OpenHands",
    "OpenHands microagents: the *.md files of .agents/skills, .openhands/skills and .openhands/microagents (repo, knowledge, task), the working directory's, the root's, then the user's (Extended)",
    18,
)
.with_known_keys(KNOWN_KEYS)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for OpenhandsProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "openhands", "OpenHands", FIELD_POLICY);
        let mut out = LoadResult::default();
        let root = &ctx.project_root;
        let raw = FileLoader::new(ctx, "openhands", "OpenHands", FIELD_POLICY).raw(true);
        if let Some(i) = raw.load_file(
            &root.join(".openhands_instructions"),
            "repo_legacy",
            Level::Project,
            Some(root),
            &mut out,
        ) {
            let rule = &mut out.items[i];
            rule.content = rule.content.trim().into();
            rule.activate(Activation::AlwaysOn);
        }
        // The SDK's skills folders, the working directory's first, then the root's, then the
        // user's: their loose `*.md` files are microagents; the `SKILL.md` folders beside
        // them are skills (the `agents` provider's in `.agents/skills`).
        let mut dirs = Vec::new();
        let mut project_dirs = vec![ctx.cwd.clone()];
        if ctx.cwd != *root {
            project_dirs.push(root.clone());
        }
        for base in &project_dirs {
            for folder in FOLDERS {
                dirs.push((base.join(folder), Level::Project));
            }
        }
        for folder in FOLDERS {
            if let Some(user) = ctx.in_home(folder) {
                dirs.push((user, Level::User));
            }
        }
        for (dir, level) in dirs {
            let first = out.items.len();
            let name = |path: &Path| rulebook_kit::path_name(&dir, path, level);
            let skill_dirs = skill_folders(&dir);
            let keep = |path: &Path| {
                path.file_name().is_none_or(|n| {
                    n != "README.md" && !n.to_string_lossy().eq_ignore_ascii_case("skill.md")
                }) && !skill_dirs.iter().any(|d| path.starts_with(d))
            };
            let boundary = (level == Level::Project).then_some(root.as_path());
            let diagnostics = out.diagnostics.len();
            loader.load_dir_where(&dir, &["md"], level, boundary, &mut out, &name, &keep);
            // A skill's folder is not a microagents folder: what its walk says is not ours
            // (a linked skill folder, the `agents` provider's).
            let mut at = 0;
            out.diagnostics.retain(|d| {
                at += 1;
                at <= diagnostics
                    || !(d.code == DiagnosticCode::WalkFailed
                        && d.path
                            .as_ref()
                            .is_some_and(|p| skill_dirs.iter().any(|s| p.starts_with(s))))
            });
            let mut notes = Vec::new();
            for rule in &mut out.items[first..] {
                notes.extend(kind(rule));
            }
            out.diagnostics.extend(notes);
        }
        Ok(out)
    }
}

/// The skills folders the OpenHands SDK reads in a project directory and in the home, in
/// its order.
pub const FOLDERS: [&str; 3] = [
    ".agents/skills",
    ".openhands/skills",
    ".openhands/microagents",
];

/// The folders of `dir` that hold a `SKILL.md` (any case): a skill each, not microagents.
fn skill_folders(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_dir()
                && std::fs::read_dir(p).is_ok_and(|mut inner| {
                    inner.any(|e| {
                        e.is_ok_and(|e| {
                            e.file_name()
                                .to_string_lossy()
                                .eq_ignore_ascii_case("skill.md")
                        })
                    })
                })
        })
        .collect()
}

/// A microagent's kind, from its keys, onto the rule.
fn kind(rule: &mut Rule) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    rule.content = rule.content.trim().into();
    let fm = &rule.frontmatter;
    let mut refused = false;
    if let Some(kind) = fm.get("type") {
        if !kind.as_str().is_some_and(|k| TYPES.contains(&k)) {
            refused = true;
            notes.push(
                Diagnostic::new(
                    DiagnosticCode::WrongType,
                    format!(
                        "`type` in {} is not repo, knowledge or task: OpenHands refuses the microagent",
                        rule.path.display()
                    ),
                )
                .with_path(&rule.path),
            );
        }
    }
    let has_inputs = fm.get("inputs").is_some_and(|v| !matches!(v, Value::Null));
    let triggers: Vec<String> = match fm.get("triggers") {
        Some(Value::List(items)) => items
            .iter()
            .filter_map(|i| i.as_str().map(str::to_owned))
            .filter(|t| !t.is_empty())
            .collect(),
        Some(Value::String(s)) => {
            notes.push(
                Diagnostic::new(
                    DiagnosticCode::WrongType,
                    format!(
                        "`triggers` in {} is a string: OpenHands wants a list of keywords (`triggers: [{s}]`)",
                        rule.path.display()
                    ),
                )
                .with_path(&rule.path),
            );
            Vec::new()
        }
        _ => Vec::new(),
    };
    rule.globs = None;
    // OpenHands' own name of it: its path under the folder (`tasks/deploy`).
    let own = rule.name.trim_start_matches("~:").replace(':', "/");
    if refused {
        rule.turn_off(
            "its `type` is not repo, knowledge or task: OpenHands refuses the microagent",
        );
    } else if has_inputs {
        rule.description = Some(format!("OpenHands task: /{own}"));
        rule.activate(Activation::Manual);
    } else if !triggers.is_empty() {
        rule.description = Some(format!(
            "OpenHands knowledge: when the conversation mentions {}",
            triggers.join(", ")
        ));
        rule.condition = triggers
            .iter()
            .map(|t| format!("(?i){}", escape(t)))
            .collect();
        rule.activation = None;
        rule.always_apply = None;
    } else {
        rule.activate(Activation::AlwaysOn);
    }
    notes
}

/// A keyword as a regular expression that matches it literally.
pub fn escape(keyword: &str) -> String {
    let mut out = String::with_capacity(keyword.len());
    for c in keyword.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn keywords_are_matched_literally() {
        assert_eq!(escape("c++"), "c\\+\\+");
        assert_eq!(escape("node.js"), "node\\.js");
        assert_eq!(escape("git"), "git");
    }
}
