//! Rules directories in the shape Roo Code gave them and its forks kept (Roo's
//! `.roo/rules`, Kilo Code's `.kilocode/rules`): `<base>/rules/**`, files of any extension
//! but cache and system files, in the tool's order (by file name, without regard to case,
//! across subdirectories), always-apply, raw text trimmed; and `<base>/rules-{mode}/**`,
//! read only in that mode (the manual bucket, named `<mode>:<stem>`).
//!
//! ```
//! use rulebook_kit::coerce::{AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy};
//! use rulebook_kit::{FileLoader, Level, LoadContext, LoadResult, modes};
//!
//! const POLICY: FieldPolicy = FieldPolicy::new(
//!     DescriptionPolicy::StringOnly,
//!     AlwaysApplyPolicy::Boolean,
//!     GlobsPolicy::StringsOnly,
//! );
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".kilocode/rules-code"))?;
//! std::fs::write(dir.path().join(".kilocode/rules-code/x.md"), "Code mode only.")?;
//! let ctx = LoadContext::new(dir.path(), "");
//! let loader = FileLoader::new(&ctx, "kilocode", "Kilo Code", POLICY).raw(true);
//! let mut out = LoadResult::default();
//! modes::load_base(&loader, &dir.path().join(".kilocode"), Level::Project, None, "Kilo Code", &mut out);
//! assert_eq!(out.items[0].name, "code:x");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

use std::path::Path;

use crate::{Activation, FileLoader, Level, LoadResult, Rule, stem};

/// Cache and system files, never rules.
pub const EXCLUDED: &[&str] = &["log", "bak", "lock", "tmp", "swp", "cache"];

/// Always-apply, its text trimmed.
pub fn always(rule: &mut Rule) {
    rule.content = rule.content.trim().into();
    rule.activate(Activation::AlwaysOn);
}

/// `base/rules` (always-apply) and every `base/rules-{mode}` (manual, described
/// `<tool> mode '<mode>' rules`).
pub fn load_base(
    loader: &FileLoader,
    base: &Path,
    level: Level,
    root: Option<&Path>,
    tool: &str,
    out: &mut LoadResult<Rule>,
) {
    let keep = |path: &Path| {
        path.extension()
            .is_none_or(|e| !EXCLUDED.iter().any(|x| e.eq_ignore_ascii_case(x)))
    };
    let first = out.items.len();
    loader.load_dir_where(&base.join("rules"), &["*"], level, root, out, &stem, &keep);
    // The tool's order: by file name, case-insensitively, whatever the subdirectory.
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
            rule.description = Some(format!("{tool} mode '{mode}' rules"));
        }
    }
}
