//! The Cline rules provider (SPEC §5).
//!
//! Looks for the nearest `.clinerules` from the working directory upward (the only
//! provider that searches upward):
//! - a directory: every `*.md` in it (at any depth), named by file name;
//! - a file: one rule named `clinerules` (always-apply in Extended, unless its frontmatter
//!   sets `alwaysApply`).
//!
//! There is no user-level source. Fields follow [`FieldPolicy::CLINE`]. The project
//! boundary of Extended E10 is the directory that holds `.clinerules`.
//!
//! Depends on `rulebook-fs`, `rulebook-registry`, `rulebook-rule`.

use rulebook_fs::{FileLoader, Loaded, find_upward};
use rulebook_registry::{LoadContext, LoadResult, Provider, ProviderError, RuleCapability};
use rulebook_rule::coerce::FieldPolicy;
use rulebook_rule::{Level, Profile, Rule, apply_whole_file_default};

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

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new("cline", "Cline", FieldPolicy::CLINE, ctx.profile)
            .max_size(ctx.size_cap());
        let mut out = Loaded::default();
        if let Some(source) = find_upward(&ctx.cwd, ".clinerules") {
            let root = source.parent();
            if source.is_dir() {
                loader.load_dir(&source, &["md"], Level::Project, root, &mut out);
            } else if let Some(i) =
                loader.load_file(&source, "clinerules", Level::Project, root, &mut out)
            {
                if ctx.profile == Profile::Extended {
                    apply_whole_file_default(&mut out.rules[i]);
                }
            }
        }
        Ok(LoadResult {
            items: out.rules,
            diagnostics: out.diagnostics,
        })
    }
}
