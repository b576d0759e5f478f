//! The JetBrains AI Assistant rules provider (behaviour.md §13, the `jetbrains-ai` row),
//! Extended only.
//!
//! AI Assistant reads the project rules `.aiassistant/rules/*.md` (at the project root,
//! flat). Its documentation (`ai-assistant/configure-project-rules.html`) gives each rule
//! a type, chosen in the IDE: Always, Manually (`@rule:`), By model decision (with an
//! instruction), By file patterns, Off, and does not say where the type is stored. A
//! reading of the plugin by a third party (the rulesync project's notes) found it in the file, as a
//! leading `---` block of `apply:`, `instructions:` and comma-separated `patterns:` lines.
//!
//! Rulebook reads that block when it is there: `apply: always` → always-apply; `manually`
//! → manual; `by model decision` → the rulebook, described by `instructions`; `by file
//! patterns` → attached to the files `patterns` match; `off` → never. Without an `apply:`
//! line the activation is **unknown** (the IDE may hold it): the rule is offered on
//! request only (the manual bucket) and an `info` says "activation unknown" rather than
//! guess.
//!
//! [`host`] is the tool's own view (`--as jetbrains-ai`): documented, not verified.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::Activation;
//! use rulebook_provider_jetbrains_ai::{JetbrainsAiProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".aiassistant/rules"))?;
//! std::fs::write(dir.path().join(".aiassistant/rules/style.md"), "Prefer val.")?;
//! let loaded = JetbrainsAiProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].activation, Some(Activation::Manual));
//! assert!(loaded.diagnostics[0].message.contains("activation unknown"));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// JetBrains AI Assistant, for the table of tools: `--as jetbrains-ai` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::JetbrainsAi);

use std::path::Path;

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, FileLoader, GlobDialect, KnownKey, Level, LoadResult,
    Profile, ProviderError, ProviderMeta, Rule, RuleCapability, Value,
};

/// AI Assistant reads none of the common keys.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The keys of AI Assistant's block.
pub const KNOWN_KEYS: &[KnownKey] = &[
    KnownKey::new(
        "apply",
        "always, manually, by model decision, by file patterns or off",
    ),
    KnownKey::new(
        "instructions",
        "with by model decision: when to use the rule",
    ),
    KnownKey::new(
        "patterns",
        "with by file patterns: comma-separated patterns",
    ),
];

/// The JetBrains AI Assistant provider (id `jetbrains-ai`, priority 16).
#[derive(Debug, Clone, Copy, Default)]
pub struct JetbrainsAiProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "jetbrains-ai",
    "JetBrains AI Assistant",
    "JetBrains AI Assistant: .aiassistant/rules/*.md at the project root (Extended)",
    16,
)
.with_known_keys(KNOWN_KEYS)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for JetbrainsAiProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "jetbrains-ai", "JetBrains AI Assistant", FIELD_POLICY);
        let mut out = LoadResult::default();
        let root = &ctx.project_root;
        let dir = root.join(".aiassistant/rules");
        loader.load_top_level(&dir, &["md"], Level::Project, Some(root), &mut out);
        let mut notes = Vec::new();
        for rule in &mut out.items {
            notes.extend(apply(rule, root));
        }
        out.diagnostics.extend(notes);
        Ok(out)
    }
}

fn text(rule: &Rule, key: &str) -> Option<String> {
    match rule.frontmatter.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::List(items) => Some(
            items
                .iter()
                .filter_map(|i| i.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        ),
        _ => None,
    }
}

/// The `apply:` line onto the rule.
fn apply(rule: &mut Rule, root: &Path) -> Option<Diagnostic> {
    rule.content = rule.content.trim().into();
    rule.globs = None;
    rule.description = None;
    let note = |rule: &Rule, message: String| {
        Some(Diagnostic::new(DiagnosticCode::UnsupportedFormat, message).with_path(&rule.path))
    };
    match text(rule, "apply").as_deref().map(str::trim) {
        None => {
            rule.activate(Activation::Manual);
            note(
                rule,
                format!(
                    "activation unknown: {} has no `apply:` line, and JetBrains AI Assistant may keep its type in the IDE; rulebook offers it on request only",
                    rule.path.display()
                ),
            )
        }
        Some("always") => {
            rule.activate(Activation::AlwaysOn);
            None
        }
        Some("manually") => {
            rule.activate(Activation::Manual);
            None
        }
        Some("by model decision") => {
            rule.description = text(rule, "instructions").filter(|d| !d.trim().is_empty());
            rule.activate(Activation::ModelDecision);
            None
        }
        Some("by file patterns") => {
            let globs: Vec<String> = text(rule, "patterns")
                .unwrap_or_default()
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_owned)
                .collect();
            rule.description = Some(format!("Applies to {}", globs.join(", ")));
            rule.globs = Some(globs);
            rule.glob_dialect = GlobDialect::Cursor;
            rule.glob_root = Some(root.to_path_buf());
            rule.activate(Activation::Glob);
            None
        }
        Some("off") => {
            rule.turn_off("`apply: off`: JetBrains AI Assistant does not use this rule");
            None
        }
        Some(other) => {
            let message = format!(
                "activation unknown: `apply: {other}` in {} is not always, manually, by model decision, by file patterns or off; rulebook offers it on request only",
                rule.path.display()
            );
            rule.activate(Activation::Manual);
            note(rule, message)
        }
    }
}
