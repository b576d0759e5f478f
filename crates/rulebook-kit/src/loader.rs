//! The glue every provider shares: walk, read, build.

use std::path::{Path, PathBuf};

use rulebook_fs::{ReadOptions, read_rule_file, walk_rules_dir};
use rulebook_registry::{LoadContext, LoadResult};
use rulebook_rule::{Diagnostic, DiagnosticCode, Level, Profile, Rule, SourceMeta};

use crate::coerce::FieldPolicy;
use crate::{RuleFile, build_rule};

/// Loads rule files for one provider.
#[derive(Debug, Clone)]
pub struct FileLoader {
    provider: String,
    provider_name: String,
    policy: FieldPolicy,
    profile: Profile,
    max_size: Option<u64>,
}

impl FileLoader {
    /// A loader for the provider `provider` (its id) shown as `provider_name`, coercing
    /// fields with `policy`, for the run `ctx` describes: its profile decides the recovery
    /// of broken YAML (E4) and the project boundary (E10), and its size cap (E9) applies,
    /// so no provider can forget them.
    pub fn new(
        ctx: &LoadContext,
        provider: impl Into<String>,
        provider_name: impl Into<String>,
        policy: FieldPolicy,
    ) -> Self {
        Self {
            provider: provider.into(),
            provider_name: provider_name.into(),
            policy,
            profile: ctx.profile,
            max_size: ctx.size_cap(),
        }
    }

    /// Overrides the size cap (Extended E9); `None` reads files of any size.
    #[must_use]
    pub fn max_size(mut self, bytes: Option<u64>) -> Self {
        self.max_size = bytes;
        self
    }

    /// The profile rules are built under.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    fn read_options(&self, level: Level, project_root: Option<&Path>) -> ReadOptions {
        let extended = self.profile == Profile::Extended;
        ReadOptions::new()
            .max_size(self.max_size)
            .detailed_errors(extended)
            .project_root(
                (extended && level == Level::Project)
                    .then(|| project_root.map(Path::to_path_buf))
                    .flatten(),
            )
    }

    /// Loads every rule file under `dir` with one of `extensions`; the name of each rule is
    /// its file name without the extension. `project_root` is the boundary of Extended E10
    /// for project-level sources.
    pub fn load_dir(
        &self,
        dir: &Path,
        extensions: &[&str],
        level: Level,
        project_root: Option<&Path>,
        out: &mut LoadResult<Rule>,
    ) {
        let checked = self.read_options(level, project_root);
        // A root that is itself outside (`.clinerules -> /`) is refused before it is walked;
        // each file is checked again when it is opened (see `read_rule_file`), since a walk
        // result can be stale by the time a file is read.
        if let Some(boundary) = checked.boundary() {
            if let Ok(real) = std::fs::canonicalize(dir) {
                if !real.starts_with(boundary) {
                    out.diagnostics.push(
                        Diagnostic::warning(
                            DiagnosticCode::OutsideProject,
                            format!(
                                "Refused the rules directory {}: its real path {} is outside the project directory {}",
                                dir.display(),
                                real.display(),
                                boundary.display()
                            ),
                        )
                        .with_path(dir),
                    );
                    return;
                }
            }
        }
        let walked = walk_rules_dir(dir, extensions);
        out.diagnostics.extend(walked.diagnostics);
        for path in &walked.files {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            self.load_one(path, &name, level, &checked, out);
        }
    }

    /// Loads one file as the rule `name` (a missing file is not an error: nothing loads).
    pub fn load_file(
        &self,
        path: &Path,
        name: &str,
        level: Level,
        project_root: Option<&Path>,
        out: &mut LoadResult<Rule>,
    ) -> Option<usize> {
        match std::fs::symlink_metadata(path) {
            Ok(_) => {}
            // Only "not found" is silent; a permission or I/O error is not an absence.
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return None,
            Err(err) => {
                out.diagnostics.push(
                    Diagnostic::warning(
                        DiagnosticCode::ReadFailed,
                        format!("Failed to read file: {} ({err})", path.display()),
                    )
                    .with_path(path),
                );
                return None;
            }
        }
        let options = self.read_options(level, project_root);
        self.load_one(path, name, level, &options, out)
    }

    fn load_one(
        &self,
        path: &Path,
        name: &str,
        level: Level,
        options: &ReadOptions,
        out: &mut LoadResult<Rule>,
    ) -> Option<usize> {
        let (text, diagnostics) = read_rule_file(path, options);
        out.diagnostics.extend(diagnostics);
        let text = text?;
        let source = SourceMeta::new(
            self.provider.clone(),
            self.provider_name.clone(),
            level,
            PathBuf::from(path),
        );
        let file = RuleFile {
            name,
            path,
            text: &text,
            policy: self.policy,
            source: &source,
        };
        let (rule, diagnostics) = build_rule(&file, self.profile);
        out.diagnostics.extend(diagnostics);
        out.items.push(rule);
        Some(out.items.len() - 1)
    }
}
