//! The Roo Code rules provider (behaviour.md §13, the `roo` row), Extended only. Roo Code was
//! retired in 2026; the provider serves repositories that keep its files.
//!
//! - `.roo/rules/**`: files of any extension but Roo's cache and system files (`*.log`,
//!   `*.bak`, `*.lock`, `*.tmp`), in Roo's order (by file name, case-insensitively, across
//!   subdirectories) → always-apply, raw text (Roo parses no frontmatter), trimmed, named by
//!   file name without its last extension;
//! - `.roo/rules-{mode}/**` → the manual bucket (read through `rule://`), named
//!   `<mode>:<stem>`, described `Roo mode '<mode>' rules`;
//! - `.roorules` (`roorules`, always-apply) only when no `.roo/rules` file loaded;
//! - project (the working directory) first, then the user's `~/.roo`.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_kit::{LoadContext, Provider, ProviderMeta};
//! use rulebook_provider_roo::RooProvider;
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".roo/rules-code"))?;
//! std::fs::write(dir.path().join(".roo/rules-code/x.md"), "Code mode only.")?;
//! let loaded = RooProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "code:x");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

use rulebook_kit::ProviderMeta;
use std::path::Path;

use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
use rulebook_kit::{
    Activation, FileLoader, Level, LoadContext, LoadResult, Profile, Provider, ProviderError, Rule,
    RuleCapability, stem,
};

/// Roo reads no frontmatter; the policy matters to nothing (bodies are raw).
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// Roo's cache and system files, never rules.
const EXCLUDED: &[&str] = &["log", "bak", "lock", "tmp", "swp", "cache"];

/// The Roo provider (id `roo`, priority 30).
#[derive(Debug, Clone, Copy, Default)]
pub struct RooProvider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "roo",
    "Roo",
    "Roo Code rules: .roo/rules, .roo/rules-{mode}, .roorules (project, then user; Extended)",
    30,
)
.with_profiles(&[Profile::Extended]);

impl Provider<RuleCapability> for RooProvider {
    fn info(&self) -> &ProviderMeta {
        &INFO
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let mut out = LoadResult::default();
        let loader = FileLoader::new(ctx, "roo", "Roo", FIELD_POLICY).raw(true);
        let project = ctx.cwd.join(".roo");
        let before = out.items.len();
        load_base(&loader, &project, Level::Project, Some(&ctx.cwd), &mut out);
        let project_rules = out.items[before..]
            .iter()
            .any(|r| r.activation != Some(Activation::Manual));
        if !project_rules {
            let legacy = ctx.cwd.join(".roorules");
            if let Some(i) = loader.load_file(
                &legacy,
                "roorules",
                Level::Project,
                Some(&ctx.cwd),
                &mut out,
            ) {
                always(&mut out.items[i]);
            }
        }
        if let Some(user) = ctx.in_home(".roo") {
            load_base(&loader, &user, Level::User, None, &mut out);
        }
        Ok(out)
    }
}

fn always(rule: &mut Rule) {
    rule.content = rule.content.trim().into();
    rule.activate(Activation::AlwaysOn);
}

/// `base/rules` (always-apply) and every `base/rules-{mode}` (manual).
fn load_base(
    loader: &FileLoader,
    base: &Path,
    level: Level,
    root: Option<&Path>,
    out: &mut LoadResult<Rule>,
) {
    let keep = |path: &Path| {
        path.extension()
            .is_none_or(|e| !EXCLUDED.iter().any(|x| e.eq_ignore_ascii_case(x)))
    };
    let first = out.items.len();
    loader.load_dir_where(&base.join("rules"), &["*"], level, root, out, &stem, &keep);
    // Roo's order: by file name, case-insensitively, whatever the subdirectory.
    out.items[first..].sort_by_key(|r| {
        r.path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default()
    });
    for rule in &mut out.items[first..] {
        always(rule);
    }
    let mut modes: Vec<String> = std::fs::read_dir(base)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| {
                    e.file_name()
                        .to_str()
                        .and_then(|n| n.strip_prefix("rules-"))
                        .filter(|m| !m.is_empty())
                        .map(str::to_owned)
                })
                .collect()
        })
        .unwrap_or_default();
    modes.sort();
    for mode in modes {
        let first = out.items.len();
        let name = |path: &Path| format!("{mode}:{}", stem(path));
        loader.load_dir_where(
            &base.join(format!("rules-{mode}")),
            &["*"],
            level,
            root,
            out,
            &name,
            &keep,
        );
        for rule in &mut out.items[first..] {
            rule.content = rule.content.trim().into();
            rule.activate(Activation::Manual);
            rule.description = Some(format!("Roo mode '{mode}' rules"));
        }
    }
}
