//! The Windsurf rules provider (behaviour.md §5).
//!
//! | level | source | name |
//! |---|---|---|
//! | user | `~/.codeium/windsurf/memories/global_rules.md` | `global_rules` |
//! | project | `<cwd>/.windsurf/rules/` `*.md` | file name without extension |
//! | project (Extended E1) | `<cwd>/.windsurfrules` | `windsurfrules` |
//!
//! `global_rules` is pushed first, so it wins a name clash with a project rule; a 0-byte
//! `global_rules.md` is skipped, as the original skips it. Fields follow
//! [`FIELD_POLICY`]. In Extended:
//! - E1: `.windsurfrules` is read, and the whole-file sources (`global_rules.md`,
//!   `.windsurfrules`) are always-apply unless their frontmatter sets `alwaysApply`;
//! - E2: Windsurf's own `trigger:` key decides how a rule applies: `always_on` →
//!   always-apply; `model_decision` → the rulebook (by its description); `glob` → attached
//!   when a file matches `globs`; `manual` → only read through `rule://`. The trigger
//!   overrides `alwaysApply`. An unknown trigger is a warning and is ignored.
//!
//! [`host`] is the tool's own view (`--as`): what the tool loads here, in its order, as
//! its documentation tells (it cannot be run here: "documented, not verified");
//! `rulebook-hosts` dispatches to it and guards what it shows.
//!
//! Depends on `rulebook-kit` alone (its file reading, registry and model re-exported).
/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Windsurf, for the table of tools: `--as windsurf` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Windsurf);

use std::path::Path;

use rulebook_kit::FileLoader;
use rulebook_kit::coerce::{
    AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy, common_keys_and,
};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, Level, Profile, Rule, Value, apply_whole_file_default,
};
use rulebook_kit::{LoadResult, ProviderError, ProviderMeta, RuleCapability};

/// Windsurf's field coercion: its row of behaviour.md §5's table.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOrScalarText,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The keys Windsurf rules may set: the common ones and `trigger` (E2).
const KNOWN_KEYS: &[rulebook_kit::KnownKey] =
    &common_keys_and::<7>(&[rulebook_kit::KnownKey::new(
        "trigger",
        "when Windsurf applies the rule: always_on, model_decision, glob, manual",
    )]);

/// The Windsurf provider (id `windsurf`, priority 50).
#[derive(Debug, Clone, Copy, Default)]
pub struct WindsurfProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "windsurf",
    "Windsurf",
    "Windsurf rules: ~/.codeium/windsurf/memories/global_rules.md, .windsurf/rules/*.md, and .windsurfrules (Extended)",
    50,
)
.with_known_keys(KNOWN_KEYS)
.with_nested_names(&[".windsurf"])
// Windsurf's reader is not public (no source, no doc example of the form, no run of it
// here), so the form Cursor documents stays a warning, with why.
.with_unquoted_globs(rulebook_kit::UnquotedGlobs::QuoteBecause(
    "Cursor reads this form, so rulebook does; Windsurf's own reader is not public and its docs show no such example, so whether Windsurf matches it is not known",
));

impl Provider<RuleCapability> for WindsurfProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let extended = ctx.profile == Profile::Extended;
        // Windsurf's rule files are placed by their frontmatter alone.
        let loader = FileLoader::new(ctx, "windsurf", "Windsurf", FIELD_POLICY).content_blind(true);
        let mut out = LoadResult::default();
        let mut whole_files = Vec::new();
        if let Some(global) = ctx.in_home(".codeium/windsurf/memories/global_rules.md") {
            // The original skips a 0-byte global file, so it neither wins the name
            // `global_rules` nor fails validation in its place (a blank one still loads).
            let empty = std::fs::metadata(&global).is_ok_and(|m| m.is_file() && m.len() == 0);
            if !empty {
                if let Some(i) =
                    loader.load_file(&global, "global_rules", Level::User, None, &mut out)
                {
                    whole_files.push(i);
                }
            }
        }
        let nested = loader.load_project_dirs(ctx, Path::new(".windsurf/rules"), &["md"], &mut out);
        if extended {
            let legacy = ctx.cwd.join(".windsurfrules");
            if let Some(i) = loader.load_file(
                &legacy,
                "windsurfrules",
                Level::Project,
                Some(&ctx.cwd),
                &mut out,
            ) {
                whole_files.push(i);
            }
            for i in whole_files {
                apply_whole_file_default(&mut out.items[i]);
            }
            for rule in &mut out.items {
                if let Some(d) = apply_trigger(rule) {
                    out.diagnostics.push(d);
                }
            }
        }
        // Scoped last: a nested `trigger: always_on` applies under its directory only.
        for (i, rel) in nested {
            rulebook_kit::scope_to_directory(&mut out.items[i], &rel);
        }
        Ok(out)
    }
}

/// Extended E2: reads `trigger:` into the rule's activation.
fn apply_trigger(rule: &mut Rule) -> Option<Diagnostic> {
    let problem = match rule.frontmatter.get("trigger")? {
        Value::Null => return None,
        Value::String(trigger) => {
            let activation = match trigger.as_str() {
                "always_on" => Activation::AlwaysOn,
                "model_decision" => Activation::ModelDecision,
                "glob" => Activation::Glob,
                "manual" => Activation::Manual,
                other => {
                    return Some(warning(
                        rule,
                        format!(
                            "`trigger` in {} is {other:?}, not one of always_on, model_decision, glob, manual; it is ignored",
                            rule.path.display()
                        ),
                    ));
                }
            };
            rule.activate(activation);
            // A `trigger` says whether the rule is always-apply: `false` is written out for
            // the other three (`list --json` shows it), where `activate` leaves it unset.
            rule.always_apply = Some(activation == Activation::AlwaysOn);
            return None;
        }
        other => format!(
            "`trigger` in {} is {}, not a string; it is ignored",
            rule.path.display(),
            other.type_name()
        ),
    };
    Some(warning(rule, problem))
}

fn warning(rule: &Rule, message: String) -> Diagnostic {
    Diagnostic::new(DiagnosticCode::WrongType, message).with_path(&rule.path)
}
