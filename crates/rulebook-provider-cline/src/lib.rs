//! The Cline rules provider (behaviour.md §5).
//!
//! Looks for the nearest `.clinerules` from the working directory upward (the only
//! provider that searches upward):
//! - a directory: every `*.md` in it (at any depth), named by file name;
//! - a file: one rule named `clinerules` (always-apply in Extended, unless its frontmatter
//!   sets `alwaysApply`).
//!
//! How far up it looks depends on the profile:
//! - Reference searches up to the filesystem root, as the original does, but a
//!   `.clinerules` found above the project root (the repository root, else the working
//!   directory) is a warning naming where it is, and so is one owned by another user: in a
//!   shared parent such as a sticky `/tmp`, anyone can plant one. A `.clinerules` that is a
//!   symbolic link to a directory is not followed: the original warns
//!   `Failed to read .clinerules at <path>` and loads nothing from it.
//! - Extended never looks above the project root (Cline reads `.clinerules` at the
//!   workspace root only), follows a link to a directory (subject to E10), and warns too
//!   about a source owned by another user.
//!
//! There is no user-level source. Fields follow [`FIELD_POLICY`]. The project
//! boundary of Extended E10 is the directory that holds `.clinerules`.
//!
//! Depends on `rulebook-fs`, `rulebook-registry`, `rulebook-rule`.

use std::path::Path;

use rulebook_kit::coerce::{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy,
};
use rulebook_kit::{Diagnostic, DiagnosticCode, Level, Profile, Rule, apply_whole_file_default};
use rulebook_kit::{FileLoader, owned_by_another_user};
use rulebook_kit::{LoadContext, LoadResult, Provider, ProviderError, RuleCapability};

/// Cline's field coercion: its row of behaviour.md §5's table.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// The Cline provider (id `cline`, priority 40).
#[derive(Debug, Clone, Copy, Default)]
pub struct ClineProvider;

impl Provider<RuleCapability> for ClineProvider {
    fn id(&self) -> &'static str {
        "cline"
    }

    fn display_name(&self) -> &'static str {
        "Cline"
    }

    fn description(&self) -> &'static str {
        "Cline rules: the nearest .clinerules from the working directory upward (a file, or a directory of *.md)"
    }

    fn priority(&self) -> i32 {
        40
    }

    fn known_keys(&self) -> &[rulebook_kit::KnownKey] {
        COMMON_KEYS
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "cline", "Cline", FIELD_POLICY);
        let mut out = LoadResult::default();
        let extended = ctx.profile == Profile::Extended;
        let project_root = ctx.repo_root.as_deref().unwrap_or(&ctx.cwd);
        // Extended stops at the project root; Reference goes on to `/`, as the original does.
        let mut dirs = ctx.cwd.ancestors();
        let found = dirs.find_map(|dir| {
            let candidate = dir.join(".clinerules");
            let meta = std::fs::symlink_metadata(&candidate).ok()?;
            Some((candidate, meta))
        });
        let found = found.filter(|(source, _)| {
            !extended || source.parent().is_some_and(|p| p.starts_with(project_root))
        });
        if let Some((source, meta)) = found {
            let root = source.parent();
            warn_if_untrusted(&source, root, project_root, &mut out);
            let is_dir = std::fs::metadata(&source).is_ok_and(|m| m.is_dir());
            if is_dir && meta.file_type().is_symlink() && !extended {
                out.diagnostics.push(
                    Diagnostic::warning(
                        DiagnosticCode::ReadFailed,
                        format!("Failed to read .clinerules at {}", source.display()),
                    )
                    .with_path(&source),
                );
            } else if is_dir {
                loader.load_dir(&source, &["md"], Level::Project, root, &mut out);
            } else if let Some(i) =
                loader.load_file(&source, "clinerules", Level::Project, root, &mut out)
            {
                if extended {
                    apply_whole_file_default(&mut out.items[i]);
                }
            }
        }
        Ok(out)
    }
}

/// A `.clinerules` above the project root, or owned by another user, is read (Reference) but
/// never silently.
fn warn_if_untrusted(
    source: &Path,
    dir: Option<&Path>,
    project_root: &Path,
    out: &mut LoadResult<Rule>,
) {
    if dir.is_some_and(|d| !d.starts_with(project_root)) {
        out.diagnostics.push(
            Diagnostic::warning(
                DiagnosticCode::OutsideProject,
                format!(
                    "Read {} from above the project root {}: the original searches every parent directory; Cline itself reads .clinerules at the workspace root only",
                    source.display(),
                    project_root.display()
                ),
            )
            .with_path(source),
        );
    }
    if owned_by_another_user(source) {
        out.diagnostics.push(
            Diagnostic::warning(
                DiagnosticCode::ForeignOwner,
                format!(
                    "{} is owned by another user than the one running rulebook; its rules are read, check that you trust it",
                    source.display()
                ),
            )
            .with_path(source),
        );
    }
}
