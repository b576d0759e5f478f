//! The GitHub Copilot rules provider (behaviour.md §13, the `copilot` row), Extended only.
//!
//! - `<project root>/.github/copilot-instructions.md` → `copilot-instructions`,
//!   always-apply, raw;
//! - `.github/instructions/**/*.instructions.md` at the project root (and in the working
//!   directory when it is another), named by file name without `.instructions.md`;
//! - the user's `~/.copilot/copilot-instructions.md` (`~:copilot-instructions`) and
//!   `~/.copilot/instructions/**/*.instructions.md`.
//!
//! `applyTo` is a **string** (VS Code ignores a YAML list: a warning), split on commas
//! outside braces: `**`, `**/*` or `*` → always-apply; other patterns → attached to matching
//! files in VS Code's dialect (`**/` prefixed unless the pattern starts with `/` or `**/`,
//! case-insensitive), with an `info` that GitHub's own agents anchor such a pattern at the
//! repository root; no `applyTo` → listed by its description (VS Code lists every file).
//! `excludeAgent` equal to the agent kind (option `agent_kind`, default `coding-agent`) →
//! never applies.
//!
//! [`host`] is the tool's own view (`--as`): what the tool loads here, in its order, as
//! its documentation tells (it cannot be run here: "documented, not verified");
//! `rulebook-hosts` dispatches to it and guards what it shows.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::ProviderMeta;
//! use rulebook_provider_copilot::{CopilotProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".github"))?;
//! std::fs::write(dir.path().join(".github/copilot-instructions.md"), "Use tabs.")?;
//! let loaded = CopilotProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "copilot-instructions");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// GitHub Copilot (VS Code), for the table of tools: `--as copilot` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Copilot);

use rulebook_kit::skills::SkillFolders;
use rulebook_kit::{OptionKind, ProviderMeta, ProviderOption};
use std::path::Path;

use rulebook_kit::coerce::{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy, split_globs,
};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, FileLoader, GlobDialect, KnownKey, Level, LoadResult,
    Profile, ProviderError, Rule, RuleCapability, Value,
};

/// Copilot reads `description` and `name` as strings only.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The keys Copilot instructions may set.
pub const KNOWN_KEYS: &[KnownKey] = &[
    KnownKey::new(
        "applyTo",
        "files the instructions apply to (a string, commas between patterns)",
    ),
    COMMON_KEYS[0],
    KnownKey::new("name", "a display name (not the identity)"),
    KnownKey::new(
        "excludeAgent",
        "code-review or coding-agent: the agent that ignores the file",
    ),
];

const SUFFIX: &str = ".instructions.md";

/// The Copilot provider (id `copilot`, priority 55).
#[derive(Debug, Clone, Copy, Default)]
pub struct CopilotProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "copilot",
    "GitHub Copilot",
    "GitHub Copilot: .github/copilot-instructions.md and .github/instructions/**/*.instructions.md, the user's ~/.copilot (Extended)",
    55,
)
.with_known_keys(KNOWN_KEYS)
.with_profiles(&[Profile::Extended])
.with_options(&[ProviderOption::new(
    "agent_kind",
    OptionKind::OneOf(&["coding-agent", "code-review"]),
)]);

/// What the skills provider is: the same id and priority as the rules provider.
pub static SKILLS_INFO: ProviderMeta = ProviderMeta::new(
    "copilot",
    "GitHub Copilot",
    "GitHub Copilot skills: .github/skills up to the project root, then ~/.copilot/skills",
    55,
)
.with_profiles(&[Profile::Extended])
.with_nested_names(&[".github"]);

/// The tool's skills folders (behaviour.md §14): `SKILL.md` one level down in each.
pub const SKILLS: SkillFolders =
    SkillFolders::new(&SKILLS_INFO, &[".github/skills"], &[".copilot/skills"]);

impl Provider<RuleCapability> for CopilotProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let raw = FileLoader::new(ctx, "copilot", "GitHub Copilot", FIELD_POLICY).raw(true);
        let parsed = FileLoader::new(ctx, "copilot", "GitHub Copilot", FIELD_POLICY);
        let agent = ctx
            .option("copilot", "agent_kind")
            .unwrap_or("coding-agent")
            .to_owned();
        let root = &ctx.project_root;
        if let Some(user) = ctx.in_home(".copilot/copilot-instructions.md") {
            if let Some(i) =
                raw.load_file(&user, "~:copilot-instructions", Level::User, None, &mut out)
            {
                always(&mut out.items[i]);
            }
        }
        let repo = root.join(".github/copilot-instructions.md");
        if let Some(i) = raw.load_file(
            &repo,
            "copilot-instructions",
            Level::Project,
            Some(root),
            &mut out,
        ) {
            always(&mut out.items[i]);
        }
        let mut dirs = vec![(root.join(".github/instructions"), Level::Project)];
        if ctx.cwd != *root {
            dirs.push((ctx.cwd.join(".github/instructions"), Level::Project));
        }
        if let Some(user) = ctx.in_home(".copilot/instructions") {
            dirs.push((user, Level::User));
        }
        let name = |path: &Path| {
            path.file_name()
                .map(|n| n.to_string_lossy().trim_end_matches(SUFFIX).to_owned())
                .unwrap_or_default()
        };
        let keep = |path: &Path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with(SUFFIX))
        };
        for (dir, level) in dirs {
            let first = out.items.len();
            let boundary = (level == Level::Project).then_some(root.as_path());
            parsed.load_dir_where(&dir, &["md"], level, boundary, &mut out, &name, &keep);
            let mut notes = Vec::new();
            for rule in &mut out.items[first..] {
                notes.extend(apply_to(rule, root, &agent));
            }
            out.diagnostics.extend(notes);
        }
        Ok(out)
    }
}

fn always(rule: &mut Rule) {
    rule.activate(Activation::AlwaysOn);
}

/// `applyTo` and `excludeAgent`, as VS Code and GitHub read them.
fn apply_to(rule: &mut Rule, root: &Path, agent: &str) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    if rule.frontmatter.get("excludeAgent").and_then(Value::as_str) == Some(agent) {
        let other = if agent == "code-review" {
            "coding-agent"
        } else {
            "code-review"
        };
        rule.turn_off(format!(
            "`excludeAgent: {agent}`: Copilot's {agent}, the kind of agent read here, skips it; `--option copilot.agent_kind={other}` shows it as Copilot's {other} reads it"
        ));
        return notes;
    }
    let patterns: Option<Vec<String>> = match rule.frontmatter.get("applyTo") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(split_globs(s)),
        Some(other) => {
            notes.push(
                Diagnostic::new(
                    DiagnosticCode::WrongType,
                    format!(
                        "`applyTo` in {} is {}: applyTo must be a string (Copilot ignores lists); write the patterns in one string, separated by commas",
                        rule.path.display(),
                        other.type_name()
                    ),
                )
                .with_path(&rule.path),
            );
            None
        }
    };
    match patterns {
        Some(p) if p.iter().any(|g| matches!(g.as_str(), "**" | "**/*" | "*")) => always(rule),
        Some(p) if !p.is_empty() => {
            if p.iter()
                .any(|g| !g.starts_with("**") && !g.starts_with('/'))
            {
                notes.push(
                    Diagnostic::new(
                        DiagnosticCode::ToolsDiffer,
                        format!(
                            "VS Code matches `{}` (in {}) at any depth; GitHub's own agents anchor such a pattern at the repository root",
                            p.join(", "),
                            rule.path.display()
                        ),
                    )
                    .with_path(&rule.path),
                );
            }
            if rule.description.as_deref().is_none_or(str::is_empty) {
                rule.description = Some(format!("Applies to {}", p.join(", ")));
            }
            rule.globs = Some(p);
            rule.glob_dialect = GlobDialect::VsCode;
            rule.glob_root = Some(root.to_path_buf());
            rule.activate(Activation::Glob);
        }
        _ => {
            if rule.description.as_deref().is_none_or(str::is_empty) {
                rule.description = Some(format!("Instructions file {}", rule.name));
            }
        }
    }
    notes
}
