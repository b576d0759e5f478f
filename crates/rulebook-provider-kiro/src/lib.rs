//! The Kiro steering provider (behaviour.md §13, the `kiro` row), Extended only:
//! `<project root>/.kiro/steering/*.md`, then `~/.kiro/steering/*.md` (the workspace wins a
//! name clash), top level only.
//!
//! | `inclusion` | the rule |
//! |---|---|
//! | absent, `always` | always-apply |
//! | `fileMatch` | attached to files matching `fileMatchPattern` (a string, or a list), anchored at the project root; a string with commas is one pattern to Kiro, which never fires (a warning) |
//! | `manual` | manual: read through `rule://` only |
//! | `auto` | the rulebook, by its description (none: no bucket) |
//! | anything else | a warning, and always-apply |
//!
//! [`host`] is the tool's own view (`--as`): what the tool loads here, in its order, as
//! its documentation tells (it cannot be run here: "documented, not verified");
//! `rulebook-hosts` dispatches to it and guards what it shows.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::ProviderMeta;
//! use rulebook_provider_kiro::{KiroProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".kiro/steering"))?;
//! std::fs::write(dir.path().join(".kiro/steering/product.md"), "The product.")?;
//! let loaded = KiroProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].always_apply, Some(true));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Kiro, for the table of tools: `--as kiro` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Kiro);

use rulebook_kit::ProviderMeta;
use std::path::Path;

use rulebook_kit::coerce::{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy,
};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, FileLoader, GlobDialect, KnownKey, Level, LoadResult,
    Profile, ProviderError, Rule, RuleCapability, Value,
};

/// Kiro's field coercion.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOrScalarText,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The keys Kiro steering files may set.
pub const KNOWN_KEYS: &[KnownKey] = &[
    KnownKey::new("inclusion", "always, fileMatch, manual or auto"),
    KnownKey::new(
        "fileMatchPattern",
        "with inclusion: fileMatch, the files it applies to",
    ),
    COMMON_KEYS[0],
    KnownKey::new("name", "a display name (inclusion: auto)"),
];

/// The Kiro provider (id `kiro`, priority 48).
#[derive(Debug, Clone, Copy, Default)]
pub struct KiroProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "kiro",
    "Kiro",
    "Kiro steering: .kiro/steering/*.md at the project root, then ~/.kiro/steering (Extended)",
    48,
)
.with_known_keys(KNOWN_KEYS)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for KiroProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let loader = FileLoader::new(ctx, "kiro", "Kiro", FIELD_POLICY);
        let root = &ctx.project_root;
        let mut dirs = vec![(root.join(".kiro/steering"), Level::Project)];
        if let Some(user) = ctx.in_home(".kiro/steering") {
            dirs.push((user, Level::User));
        }
        for (dir, level) in dirs {
            let first = out.items.len();
            let boundary = (level == Level::Project).then_some(root.as_path());
            loader.load_top_level(&dir, &["md"], level, boundary, &mut out);
            let mut notes = Vec::new();
            for rule in &mut out.items[first..] {
                notes.extend(inclusion(rule, root, level));
            }
            out.diagnostics.extend(notes);
        }
        Ok(out)
    }
}

fn inclusion(rule: &mut Rule, root: &Path, level: Level) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    let note = |rule: &Rule, code: DiagnosticCode, message: String| {
        Diagnostic::new(code, message).with_path(&rule.path)
    };
    let mode = rule
        .frontmatter
        .get("inclusion")
        .and_then(Value::as_str)
        .map(str::to_owned);
    match mode.as_deref() {
        None | Some("always") => {
            rule.activate(Activation::AlwaysOn);
        }
        Some("fileMatch") => {
            let globs: Vec<String> = match rule.frontmatter.get("fileMatchPattern") {
                Some(Value::String(s)) => {
                    if s.contains(',') {
                        notes.push(note(rule, DiagnosticCode::WrongType, format!(
                            "`fileMatchPattern: {s}` in {}: Kiro matches this comma list as one pattern, which never fires; use a YAML list",
                            rule.path.display()
                        )));
                    }
                    vec![s.clone()]
                }
                Some(Value::List(items)) => items
                    .iter()
                    .filter_map(|i| i.as_str().map(str::to_owned))
                    .collect(),
                _ => Vec::new(),
            };
            if level == Level::User {
                notes.push(note(rule, DiagnosticCode::ToolsDiffer, format!(
                    "Kiro does not fire fileMatch for ~/.kiro/steering (kirodotdev/Kiro#9176): {} applies in rulebook, not in Kiro",
                    rule.path.display()
                )));
            }
            if rule.description.as_deref().is_none_or(str::is_empty) {
                rule.description = Some(format!("Applies to {}", globs.join(", ")));
            }
            rule.globs = Some(globs);
            rule.glob_dialect = GlobDialect::Anchored;
            rule.glob_root = Some(root.to_path_buf());
            rule.activate(Activation::Glob);
        }
        Some("manual") => {
            rule.activate(Activation::Manual);
        }
        Some("auto") => {
            if rule.description.as_deref().is_none_or(str::is_empty) {
                notes.push(note(rule, DiagnosticCode::WrongType, format!(
                    "`inclusion: auto` in {} has no description: Kiro cannot decide when to include it, so it never does",
                    rule.path.display()
                )));
            }
            rule.activate(Activation::ModelDecision);
        }
        Some(other) => {
            notes.push(note(rule, DiagnosticCode::WrongType, format!(
                "`inclusion: {other}` in {} is not always, fileMatch, manual or auto; read as always",
                rule.path.display()
            )));
            rule.activate(Activation::AlwaysOn);
        }
    }
    notes
}
