//! The Cursor rules provider (behaviour.md §5).
//!
//! | level | source | name |
//! |---|---|---|
//! | user | `~/.cursor/rules/` `*.mdc`, `*.md` | file name without extension |
//! | project | `<cwd>/.cursor/rules/` `*.mdc`, `*.md` | file name without extension |
//! | project (Extended E1) | `<cwd>/.cursorrules` | `cursorrules` |
//!
//! User rules are pushed before project rules, so a user rule wins a name clash (as the
//! original does). Fields follow [`FIELD_POLICY`] (`transformMDCRule`): description
//! only as a string, `alwaysApply` kept only when `true`, `globs` a list of strings or one
//! string; in Extended ([`EXTENDED_FIELD_POLICY`]) `alwaysApply: false` is kept too. In
//! Extended, `.cursorrules` is read too, and is always-apply unless its frontmatter sets
//! `alwaysApply`.
//!
//! Also in Extended: a rule file with no `alwaysApply: true`, no description and no globs
//! is Cursor's "Manual" type (used when @-mentioned): it goes to the manual bucket, read
//! through `rule://` and never listed, as Windsurf's manual rules do.
//!
//! Also in Extended: `.cursor/BUGBOT.md` at the project root, which Cursor's Bugbot (a
//! pull-request review agent) reads and the editor's agent does not: the rule `BUGBOT`,
//! turned off for the coding agent; option `agent_kind=code-review` applies it always, as
//! Bugbot does (Cursor's Bugbot documentation; the nested `BUGBOT.md` files Bugbot adds for
//! the changed files' directories are not read).
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

/// Cursor, for the table of tools: `--as cursor` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Cursor);

use rulebook_kit::FileLoader;
use rulebook_kit::coerce::{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy,
};
use rulebook_kit::skills::SkillFolders;
use std::path::Path;

use rulebook_kit::{Diagnostic, DiagnosticCode};

use rulebook_kit::{
    Activation, Level, Profile, Rule, apply_whole_file_default, scope_to_directory,
};
use rulebook_kit::{LoadResult, ProviderError, ProviderMeta, RuleCapability};

/// Cursor's field coercion: its row of behaviour.md §5's table.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::OnlyTrue,
    GlobsPolicy::StringsOnly,
);

/// Cursor's field coercion in Extended: as [`FIELD_POLICY`], but `alwaysApply: false` is
/// kept as written: Cursor reads the key as a boolean, and
/// `list --json` and `explain` showed `null` where the author wrote `false`. The bucket is
/// the same either way.
pub const EXTENDED_FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The Cursor provider (id `cursor`, priority 50).
#[derive(Debug, Clone, Copy, Default)]
pub struct CursorProvider;

const EXTENSIONS: &[&str] = &["mdc", "md"];

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "cursor",
    "Cursor",
    "Cursor rules: .cursor/rules/*.mdc and *.md (user, then project), and .cursorrules (Extended)",
    50,
)
.with_known_keys(COMMON_KEYS)
.with_nested_names(&[".cursor"])
// `globs: *.ts,*.tsx` unquoted is how Cursor itself writes globs, and what it matches.
.with_unquoted_globs(rulebook_kit::UnquotedGlobs::Native)
.with_options(&[rulebook_kit::ProviderOption::new(
    "agent_kind",
    rulebook_kit::OptionKind::OneOf(rulebook_kit::context_files::AGENT_KINDS),
)]);

/// What the skills provider is: the same id and priority as the rules provider.
pub static SKILLS_INFO: ProviderMeta = ProviderMeta::new(
    "cursor",
    "Cursor",
    "Cursor skills: .cursor/skills up to the project root, then ~/.cursor/skills",
    50,
)
.with_profiles(&[Profile::Extended])
.with_nested_names(&[".cursor"]);

/// The tool's skills folders (behaviour.md §14): `SKILL.md` one level down in each.
pub const SKILLS: SkillFolders =
    SkillFolders::new(&SKILLS_INFO, &[".cursor/skills"], &[".cursor/skills"]);

impl Provider<RuleCapability> for CursorProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let policy = match ctx.profile {
            Profile::Reference => FIELD_POLICY,
            Profile::Extended => EXTENDED_FIELD_POLICY,
        };
        // Cursor's rule files are placed by their frontmatter alone.
        let loader = FileLoader::new(ctx, "cursor", "Cursor", policy).content_blind(true);
        let mut out = LoadResult::default();
        let dir = ".cursor/rules";
        if let Some(user) = ctx.in_home(dir) {
            loader.load_dir(&user, EXTENSIONS, Level::User, None, &mut out);
        }
        let nested = loader.load_project_dirs(ctx, Path::new(dir), EXTENSIONS, &mut out);
        for (i, rel) in nested {
            scope_to_directory(&mut out.items[i], &rel);
        }
        if ctx.profile == Profile::Extended {
            cursor_globs_are_not_warnings(&mut out);
            manual_rules(&mut out.items);
            let legacy = ctx.cwd.join(".cursorrules");
            if let Some(i) = loader.load_file(
                &legacy,
                "cursorrules",
                Level::Project,
                Some(&ctx.cwd),
                &mut out,
            ) {
                apply_whole_file_default(&mut out.items[i]);
            }
            // The review file's text is trimmed once loaded: not content-blind.
            rulebook_kit::context_files::load_review_file(
                &loader.clone().content_blind(false),
                ctx,
                ".cursor/BUGBOT.md",
                "BUGBOT",
                "Cursor's Bugbot",
                &mut out,
            );
        }
        Ok(out)
    }
}

/// Cursor's "Manual" rule type: no `alwaysApply: true`, no description, no globs. Cursor
/// applies such a rule only when it is @-mentioned (its rules documentation; the view of
/// `--as cursor` says so too): under Extended it goes to the manual bucket, read through
/// `rule://`, as Windsurf's `trigger: manual` does, instead of no bucket at all.
fn manual_rules(rules: &mut [Rule]) {
    for rule in rules {
        let described = rule
            .description
            .as_deref()
            .is_some_and(|d| !d.trim().is_empty());
        let globbed = rule.globs.as_deref().is_some_and(|g| !g.is_empty());
        if rule.activation.is_none() && rule.always_apply != Some(true) && !described && !globbed {
            rule.activation = Some(Activation::Manual);
        }
    }
}

/// `globs: *.ts,*.tsx` unquoted is how Cursor writes globs and what it matches, though YAML
/// reads `*` as an alias: when the only value recovered (E4) is `globs`, the file is in
/// Cursor's own form, information that says so rather than a YAML failure, so `list`,
/// `explain` and `check` count it alike (`check` has no finding for it).
fn cursor_globs_are_not_warnings(out: &mut LoadResult<Rule>) {
    for d in &mut out.diagnostics {
        if d.code == DiagnosticCode::YamlRecovered
            && d.message
                .ends_with("recovered by reading the value of `globs` as plain text")
        {
            let file = d
                .path
                .as_deref()
                .map_or_else(String::new, |p| format!(" in {}", p.display()));
            let mut own = Diagnostic::new(
                DiagnosticCode::ToolsOwnForm,
                format!(
                    "`globs`{file} is written unquoted, Cursor's own form (YAML alone would read a leading `*` as an alias): read as Cursor reads it, as plain text"
                ),
            )
            .at(d.line, d.column);
            own.path = d.path.take();
            *d = own;
        }
    }
}
