//! The Continue rules provider (behaviour.md §13, the `continue` row), Extended only.
//!
//! - `.continue/rules/**/*.md` in the workspace (the working directory), then
//!   `~/.continue/rules`, in lexicographic order, named by file name;
//! - colocated `rules.md` files anywhere in the workspace (found by the one walk of E11),
//!   named `<dir key>:rules`, whose globs Continue rewrites relative to their directory
//!   (`*.tsx` → `<dir>/**/*.tsx`, `**/x.ts` → `<dir>/**/x.ts`; none → `<dir>/**/*`);
//! - the agent file `cn` reads, the first of `AGENTS.md`, `AGENT.md`, `CLAUDE.md`,
//!   `CODEX.md` in the working directory: `AGENT.md` or `CODEX.md` is read here, always-apply
//!   (the other two are the `agents-md` and `claude` providers' files).
//!
//! When a rule applies (Continue's `getSystemMessageWithRules`):
//!
//! | rule | bucket |
//! |---|---|
//! | `alwaysApply: true` | always-apply |
//! | a `.continue/rules` file with no `globs`, no `regex`, `alwaysApply` absent | always-apply |
//! | `alwaysApply: false`, no globs | the rulebook by its `description` (or `name`), else manual (read by name) |
//! | `globs` | attached to matching files, anchored at the workspace, `!` negates |
//!
//! `regex` (a trigger on file contents) is not supported: a warning, and the rule applies
//! by its globs alone. `invokable: true` files are prompts, not rules: an `info`, skipped.
//!
//! [`host`] is the tool's own view (`--as`): what the real tool loads here, in its order and
//! wrapping, checked against the real tool where it could be run (`rulebook-hosts`
//! dispatches to it and guards what it shows).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::ProviderMeta;
//! use rulebook_provider_continue::{ContinueProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".continue/rules"))?;
//! std::fs::write(dir.path().join(".continue/rules/01-general.md"), "Be kind.")?;
//! let loaded = ContinueProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].always_apply, Some(true));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

pub mod host;

/// Continue CLI (cn), for the table of tools: `--as continue` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::Continue);

use rulebook_kit::ProviderMeta;
use rulebook_kit::coerce::{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy,
};
use rulebook_kit::{
    Activation, Diagnostic, DiagnosticCode, FileLoader, GlobDialect, KnownKey, Level, LoadResult,
    Profile, ProviderError, Rule, RuleCapability, Value, dir_scoped_name,
};

/// Continue's field coercion.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOrScalarText,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The keys Continue rules may set.
pub const KNOWN_KEYS: &[KnownKey] = &[
    COMMON_KEYS[0],
    COMMON_KEYS[1],
    COMMON_KEYS[2],
    KnownKey::new("name", "the rule's name; its description when it has none"),
    KnownKey::new(
        "regex",
        "a trigger on file contents (not supported by rulebook)",
    ),
    KnownKey::new("invokable", "a prompt to invoke, not a rule"),
];

/// The Continue provider (id `continue`, priority 35).
#[derive(Debug, Clone, Copy, Default)]
pub struct ContinueProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "continue",
    "Continue",
    "Continue rules: .continue/rules/*.md (workspace, then user) and colocated rules.md files (Extended)",
    35,
)
.with_known_keys(KNOWN_KEYS)
.with_nested_names(&["rules.md"])
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for ContinueProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let loader = FileLoader::new(ctx, "continue", "Continue", FIELD_POLICY);
        // `.continue/rules`: workspace, then user.
        let mut sources: Vec<(usize, Option<String>)> = Vec::new();
        let first = out.items.len();
        loader.load_dir(
            &ctx.cwd.join(".continue/rules"),
            &["md"],
            Level::Project,
            Some(&ctx.cwd),
            &mut out,
        );
        if let Some(user) = ctx.in_home(".continue/rules") {
            loader.load_dir(&user, &["md"], Level::User, None, &mut out);
        }
        sources.extend((first..out.items.len()).map(|i| (i, None)));
        // Colocated `rules.md`: the working directory's, then the nested ones.
        let mut dirs = vec![ctx.cwd.clone()];
        dirs.extend(ctx.nested_dirs("rules.md").iter().cloned());
        for dir in dirs {
            let name = dir_scoped_name(&dir, "rules", &ctx.project_root, &ctx.home);
            let Some(i) = loader.load_file(
                &dir.join("rules.md"),
                &name,
                Level::Project,
                Some(&ctx.cwd),
                &mut out,
            ) else {
                continue;
            };
            let rel = dir
                .strip_prefix(&ctx.cwd)
                .map(|r| r.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            sources.push((i, Some(rel)));
        }
        // Continue's agent file: the first of these in the working directory. AGENTS.md and
        // CLAUDE.md are their own providers' files; the other two only Continue reads
        // (found by the provider-vs-golden test, `continue-agent-names`).
        let agent_file = AGENT_FILES
            .iter()
            .map(|name| ctx.cwd.join(name))
            .find(|path| path.is_file());
        if let Some(path) = agent_file {
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
            if let (Some(stem), true) = (
                stem,
                ["AGENT", "CODEX"]
                    .iter()
                    .any(|n| path.ends_with(format!("{n}.md"))),
            ) {
                if let Some(i) =
                    loader.load_file(&path, &stem, Level::Project, Some(&ctx.cwd), &mut out)
                {
                    rulebook_kit::apply_whole_file_default(&mut out.items[i]);
                }
            }
        }
        let mut prompts = Vec::new();
        for (i, colocated) in sources {
            match apply(&mut out.items[i], colocated.as_deref()) {
                Applied::Rule(Some(d)) => out.diagnostics.push(d),
                Applied::Rule(None) => {}
                Applied::Prompt(d) => {
                    out.diagnostics.push(d);
                    prompts.push(i);
                }
            }
        }
        let mut index = 0;
        out.items.retain(|_| {
            let keep = !prompts.contains(&index);
            index += 1;
            keep
        });
        Ok(out)
    }
}

/// The files Continue's `cn` reads as its agent file, the first that exists (its
/// `loadAgentFiles`, observed with cn 1.5.47: `continue-agent-names` golden).
const AGENT_FILES: [&str; 4] = ["AGENTS.md", "AGENT.md", "CLAUDE.md", "CODEX.md"];

enum Applied {
    Rule(Option<Diagnostic>),
    Prompt(Diagnostic),
}

/// Continue's applicability, as the table of the crate docs says.
fn apply(rule: &mut Rule, colocated: Option<&str>) -> Applied {
    if rule.frontmatter.get("invokable") == Some(&Value::Bool(true)) {
        return Applied::Prompt(
            Diagnostic::new(
                DiagnosticCode::UnsupportedFormat,
                format!(
                    "{} is a Continue prompt (`invokable: true`), not a rule; it is not loaded",
                    rule.path.display()
                ),
            )
            .with_path(&rule.path),
        );
    }
    if rule.description.is_none() {
        if let Some(name) = rule.frontmatter.get("name").and_then(Value::scalar_text) {
            rule.description = Some(name);
        }
    }
    let mut diagnostic = None;
    if rule.frontmatter.contains_key("regex") {
        diagnostic = Some(
            Diagnostic::new(
                DiagnosticCode::IneffectiveKey,
                format!(
                    "`regex` in {} (a trigger on file contents) is not supported; the rule is applied by its globs alone",
                    rule.path.display()
                ),
            )
            .with_path(&rule.path),
        );
    }
    let globs: Vec<String> = rule.globs.clone().unwrap_or_default();
    let explicit = rule.always_apply;
    match colocated {
        Some(dir) => {
            // Continue rewrites a colocated file's globs relative to its directory.
            let prefix = if dir.is_empty() {
                String::new()
            } else {
                format!("{dir}/")
            };
            let rewritten: Vec<String> = if globs.is_empty() {
                vec![format!("{prefix}**/*")]
            } else {
                globs
                    .iter()
                    .map(|g| {
                        let (neg, g) = g.strip_prefix('!').map_or(("", g.as_str()), |r| ("!", r));
                        if g.starts_with("**") {
                            format!("{neg}{prefix}{g}")
                        } else {
                            format!("{neg}{prefix}**/{g}")
                        }
                    })
                    .collect()
            };
            if explicit == Some(true) {
                rule.always_apply = Some(true);
            } else {
                scoped(rule, rewritten);
            }
        }
        None => match (explicit, globs.is_empty()) {
            (Some(true), _) => {
                rule.activate(Activation::AlwaysOn);
            }
            (_, false) => scoped(rule, globs),
            (None, true) if diagnostic.is_none() => {
                rule.activate(Activation::AlwaysOn);
            }
            // `alwaysApply: false` and no globs: the agent may pull it by its description;
            // with none (nor a `name`), only a person can ask for it: Continue lists it
            // among the rules to invoke by hand, so it is a manual rule, read by name.
            _ => {
                rule.always_apply = None;
                if rule.description.as_deref().is_none_or(str::is_empty) {
                    rule.activation = Some(Activation::Manual);
                }
            }
        },
    }
    Applied::Rule(diagnostic)
}

fn scoped(rule: &mut Rule, globs: Vec<String>) {
    if rule.description.as_deref().is_none_or(str::is_empty) {
        rule.description = Some(format!("Applies to {}", globs.join(", ")));
    }
    rule.globs = Some(globs);
    rule.glob_dialect = GlobDialect::Anchored;
    rule.activate(Activation::Glob);
}
