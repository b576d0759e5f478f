//! Test support for rulebook's crates: what every crate's fixture tests share.
//!
//! - [`Scenario`]: a fixture folder `<scenario>/{project,home}` discovered under a profile
//!   with a table of providers, and [`Scenario::both`], the summary of both profiles side
//!   by side (active rules with their bucket, what was shadowed or invalid, every
//!   diagnostic), paths relative to the folder;
//! - [`scenario_snapshots!`]: one insta snapshot per scenario folder of a directory
//!   (`insta::glob!`), named `scenario@<folder>`, so each provider crate snapshots its own
//!   fixtures with its provider alone, and the facade the pipeline's with all of them;
//! - [`redact`]: a folder's path taken out of a text (its real path too);
//! - [`bucket_of`], [`matching`], [`says`]: what a test asks of a book most;
//! - [`Tree`]: a temporary directory built file by file, with what a test asks of it:
//!   discovery from one of its directories, a tool's view there, the paths a view lists.
//!
//! A scenario folder holds `project/` and `home/`, and optionally `cwd` (the working
//! directory, relative to the folder; default `project`) and `root` (the project root;
//! default `project`, so the repository's own `.git` is never the root). Claude Code's
//! upward walk stops at the folder.
//!
//! Depends on `rulebook-discover` (the pipeline), `rulebook-hosts` (the tools' views),
//! `rulebook-registry`, `rulebook-rule`, `serde_json`, `insta` and `tempfile`.
//!
//! ```
//! use rulebook_discover::NoProviders;
//! use rulebook_test::{Scenario, Tree};
//!
//! let tree = Tree::new();
//! tree.dir("demo/project").dir("demo/home");
//! let scenario = Scenario::new(tree.path("demo"));
//! assert_eq!(scenario.name(), "demo");
//! // No provider: no rule, no diagnostic, under either profile.
//! let both = scenario.both(&NoProviders);
//! assert_eq!(both["reference"]["rules"], serde_json::json!([]));
//! assert_eq!(both["extended"]["diagnostics"], serde_json::json!([]));
//! ```

use std::path::{Path, PathBuf};

use rulebook_discover::{Options, ProviderTable, Rulebook};
use rulebook_hosts::{Host, HostFile, HostOptions, HostView};
use rulebook_registry::{Provider, RuleCapability, Status};
use rulebook_rule::{GlobDialect, Profile, Rule};
use serde_json::{Value, json};

#[doc(hidden)]
pub use insta;

/// One fixture folder: `project/`, `home/`, and optionally `cwd` and `root`.
#[derive(Debug, Clone)]
pub struct Scenario {
    given: PathBuf,
    real: PathBuf,
}

impl Scenario {
    /// The scenario in `root` (its real path is resolved once, for redaction).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        let given = root.into();
        let real = std::fs::canonicalize(&given).unwrap_or_else(|_| given.clone());
        Self { given, real }
    }

    /// Whether `dir` is a scenario folder (it holds `project/`).
    pub fn is_scenario(dir: &Path) -> bool {
        dir.join("project").is_dir()
    }

    /// The folder's name: the snapshot's suffix.
    pub fn name(&self) -> String {
        self.given
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    }

    /// `path` relative to the folder, with `/` separators (as given when outside it).
    pub fn rel(&self, path: &Path) -> String {
        path.strip_prefix(&self.real)
            .or_else(|_| path.strip_prefix(&self.given))
            .map_or_else(
                |_| path.display().to_string(),
                |p| p.to_string_lossy().replace('\\', "/"),
            )
    }

    /// `text` with the folder's path (real or as given) and the `/` after it taken out.
    pub fn redact(&self, text: &str) -> String {
        redact(&redact(text, &self.real), &self.given)
    }

    fn setting(&self, file: &str) -> String {
        std::fs::read_to_string(self.given.join(file))
            .map_or_else(|_| "project".to_owned(), |s| s.trim().to_owned())
    }

    /// The options a scenario runs with: `profile`, the folder's project root, and, where
    /// the table holds Claude Code's provider, its upward walk stopped at the folder.
    pub fn options<T: ProviderTable>(&self, table: &T, profile: Profile) -> Options<T> {
        let options = Options::new()
            .table(table.clone())
            .profile(profile)
            .project_root(self.real.join(self.setting("root")));
        if table.providers().iter().any(|p| p.info().id() == "claude") {
            options.provider_option("claude", "walk_ceiling", self.real.to_string_lossy())
        } else {
            options
        }
    }

    /// Discovers the scenario with `options`, from its working directory and home.
    pub fn discover<T: ProviderTable>(&self, options: &Options<T>) -> Rulebook {
        Rulebook::discover(
            self.real.join(self.setting("cwd")),
            Some(&self.real.join("home")),
            options,
        )
    }

    /// Both profiles side by side: `{"reference": summary, "extended": summary}`.
    pub fn both<T: ProviderTable>(&self, table: &T) -> Value {
        json!({
            "reference": self.summary(&self.discover(&self.options(table, Profile::Reference))),
            "extended": self.summary(&self.discover(&self.options(table, Profile::Extended))),
        })
    }

    fn rule_ref(&self, rule: &Rule) -> Value {
        json!({"provider": rule.source.provider, "path": self.rel(&rule.path)})
    }

    /// What a book holds: the contributing providers, every active rule with its bucket
    /// (or the reason it has none) and the fields that place it, the shadowed and the
    /// invalid rules, and every diagnostic (code, position, text), paths relative to the
    /// folder.
    pub fn summary(&self, book: &Rulebook) -> Value {
        let rules: Vec<Value> = book
            .placements()
            .map(|(rule, placement)| {
                let mut map = serde_json::Map::new();
                map.insert("name".into(), json!(rule.name));
                map.insert("provider".into(), json!(rule.source.provider));
                map.insert("level".into(), json!(rule.source.level));
                map.insert("path".into(), json!(self.rel(&rule.path)));
                #[allow(
                    clippy::redundant_closure_for_method_calls,
                    reason = "the bucket's type is the partition crate's, not a dependency here"
                )]
                let bucket = placement.bucket.map(|b| b.as_str());
                map.insert("bucket".into(), json!(bucket));
                if let Some(reason) = &placement.reason {
                    map.insert("reason".into(), json!(reason));
                }
                if let Some(d) = &rule.description {
                    map.insert("description".into(), json!(d));
                }
                if let Some(g) = &rule.globs {
                    map.insert("globs".into(), json!(g));
                }
                if let Some(a) = rule.always_apply {
                    map.insert("always_apply".into(), json!(a));
                }
                if !rule.condition.is_empty() {
                    map.insert("condition".into(), json!(rule.condition));
                }
                if let Some(a) = rule.activation {
                    map.insert("activation".into(), json!(a));
                }
                if rule.glob_dialect != GlobDialect::Cursor {
                    map.insert("glob_dialect".into(), json!(rule.glob_dialect));
                }
                if let Some(root) = &rule.glob_root {
                    map.insert("glob_root".into(), json!(self.rel(root)));
                }
                map.insert("content".into(), json!(rule.content));
                Value::Object(map)
            })
            .collect();
        let shadowed: Vec<Value> = book
            .shadowed()
            .map(|(loser, winner)| {
                json!({"name": loser.name, "loser": self.rule_ref(loser), "shadowed_by": self.rule_ref(winner)})
            })
            .collect();
        let invalid: Vec<Value> = book
            .invalid()
            .map(|(rule, reason)| json!({"name": rule.name, "rule": self.rule_ref(rule), "reason": reason}))
            .collect();
        let diagnostics: Vec<Value> = book
            .diagnostics()
            .iter()
            .map(|d| {
                let at = match (d.line, d.column) {
                    (Some(l), Some(c)) => format!(" @{l}:{c}"),
                    (Some(l), None) => format!(" @{l}"),
                    _ => String::new(),
                };
                json!(format!("{:?}{at}: {}", d.code, self.redact(&d.to_string())))
            })
            .collect();
        let mut summary = json!({
            "providers": book.contributing_providers(),
            "rules": rules,
            "shadowed": shadowed,
            "invalid": invalid,
            "diagnostics": diagnostics,
        });
        // Skills only where there are any, so a scenario of rules alone reads as before.
        if !book.all_skills().is_empty() {
            summary["skills"] = self.skills(book);
        }
        summary
    }

    /// Every skill loaded: the active ones in the catalog's order, then each one left out
    /// with what became of it.
    fn skills(&self, book: &Rulebook) -> Value {
        let all = book.all_skills();
        let active: Vec<Value> = book
            .skills()
            .into_iter()
            .map(|s| {
                json!({
                    "name": s.name,
                    "provider": s.source.provider,
                    "level": s.source.level,
                    "path": self.rel(&s.path),
                    "description": s.description,
                })
            })
            .collect();
        let left_out: Vec<Value> = all
            .iter()
            .filter_map(|e| {
                let fate = match &e.status {
                    Status::Active => return None,
                    Status::Shadowed { by } => {
                        format!("shadowed by {}", self.rel(&all[*by].item.path))
                    }
                    Status::SameFile { by } => {
                        format!("same file as {}", self.rel(&all[*by].item.path))
                    }
                    Status::Invalid { reason } => format!("invalid: {reason}"),
                };
                Some(json!({
                    "name": e.item.name,
                    "provider": e.provider,
                    "path": self.rel(&e.item.path),
                    "fate": fate,
                }))
            })
            .collect();
        json!({"active": active, "left_out": left_out})
    }
}

/// A table of one provider: a provider crate's fixtures discovered with it alone.
#[derive(Debug, Clone, Copy, Default)]
pub struct Only<P>(pub P);

impl<P> ProviderTable for Only<P>
where
    P: Provider<RuleCapability> + Clone + Default + 'static,
{
    fn providers(&self) -> Vec<Box<dyn Provider<RuleCapability>>> {
        vec![Box::new(self.0.clone())]
    }
}

/// `text` with every `<dir>/` taken out, for `dir` as given and as its real path.
pub fn redact(text: &str, dir: &Path) -> String {
    let mut out = text.replace(&format!("{}/", dir.display()), "");
    if let Ok(real) = std::fs::canonicalize(dir) {
        if real != dir {
            out = out.replace(&format!("{}/", real.display()), "");
        }
    }
    out
}

/// The bucket the rule named `name` landed in (`none` when in none), if there is such a rule.
pub fn bucket_of(book: &Rulebook, name: &str) -> Option<String> {
    book.placements()
        .find(|(r, _)| r.name == name)
        .map(|(_, p)| p.bucket.map_or("none", |b| b.as_str()).to_owned())
}

/// The names of the rules that apply to `path` (relative to the working directory).
pub fn matching(book: &Rulebook, path: &str) -> Vec<String> {
    book.matches(path).into_iter().map(|m| m.name).collect()
}

/// Whether a diagnostic of `book` says `text`.
pub fn says(book: &Rulebook, text: &str) -> bool {
    book.diagnostics().iter().any(|d| d.message.contains(text))
}

/// A temporary directory built file by file, removed when dropped: the one tree builder of
/// the workspace's tests. Its root is a real path (links resolved), so what discovery and
/// the views report compares with [`Tree::path`] as it is.
#[derive(Debug)]
pub struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Default for Tree {
    fn default() -> Self {
        Self::new()
    }
}

/// The tests' own tree: a refusal of the file system fails the test at once.
#[allow(clippy::expect_used, reason = "test support: a refusal fails the test")]
impl Tree {
    /// An empty temporary directory.
    ///
    /// # Panics
    ///
    /// When no temporary directory can be made (it is for tests).
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = std::fs::canonicalize(dir.path()).expect("the temporary directory's real path");
        Self { _dir: dir, root }
    }

    /// A tree holding a repository at `project` (a `.git` directory in it) and the
    /// directory `home`.
    ///
    /// # Panics
    ///
    /// When the file system refuses (it is for tests).
    pub fn repository(project: &str, home: &str) -> Self {
        let tree = Self::new();
        tree.dir(Path::new(project).join(".git")).dir(home);
        tree
    }

    /// The tree's root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The absolute path of `rel` in the tree.
    pub fn path(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.root.join(rel)
    }

    /// Writes `text` to `rel` (its parent directories made first).
    ///
    /// # Panics
    ///
    /// When the file system refuses (it is for tests).
    pub fn write(&self, rel: impl AsRef<Path>, text: impl AsRef<[u8]>) -> &Self {
        let path = self.path(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create the parent directory");
        }
        std::fs::write(&path, text).expect("write the file");
        self
    }

    /// Makes the directory `rel` (and its parents).
    ///
    /// # Panics
    ///
    /// When the file system refuses (it is for tests).
    pub fn dir(&self, rel: impl AsRef<Path>) -> &Self {
        std::fs::create_dir_all(self.path(rel)).expect("create the directory");
        self
    }

    /// Discovers from `cwd` (made when missing) with the home `home`, both relative to the
    /// tree.
    pub fn discover<T: ProviderTable>(
        &self,
        cwd: &str,
        home: &str,
        options: &Options<T>,
    ) -> Rulebook {
        self.dir(cwd);
        Rulebook::discover(self.path(cwd), Some(&self.path(home)), options)
    }

    /// What `host` loads started in `cwd` for the user whose home is `home` (both relative
    /// to the tree), with the guards every view runs with.
    pub fn view(&self, host: Host, cwd: &str, home: &str) -> HostView {
        rulebook_hosts::emulate(host, &HostOptions::new(self.path(cwd), self.path(home)))
    }

    /// The paths `view` lists, relative to the tree, in its order.
    pub fn listed(&self, view: &HostView) -> Vec<String> {
        view.files.iter().map(|f| self.relative(&f.path)).collect()
    }

    /// The paths `view` loads at start, relative to the tree, in its order.
    pub fn loaded(&self, view: &HostView) -> Vec<String> {
        view.loaded().map(|f| self.relative(&f.path)).collect()
    }

    /// The entry of `view` for `rel`.
    ///
    /// # Panics
    ///
    /// When `view` does not list it (it is for tests).
    pub fn entry<'a>(&self, view: &'a HostView, rel: &str) -> &'a HostFile {
        let path = self.path(rel);
        view.files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("{rel} is not listed: {:#?}", view.files))
    }

    /// `path` relative to the tree (whole when outside it).
    pub fn relative(&self, path: &Path) -> String {
        rulebook_hosts::fixture::relative(&self.root, path)
    }
}

/// One insta snapshot per scenario folder below `$fixtures` (a path relative to the
/// calling file, as `insta::glob!` takes it), discovered with the provider table `$table`
/// under both profiles: `scenario@<folder>.snap` beside the calling test. Folders named
/// after `skip = [...]` are passed over; the count of scenarios snapshotted is the value.
///
/// ```ignore
/// #[test]
/// fn scenarios() {
///     let table = rulebook_test::Only(rulebook_provider_cline::ClineProvider);
///     assert_eq!(rulebook_test::scenario_snapshots!(&table, "../fixtures"), 5);
/// }
/// ```
#[macro_export]
macro_rules! scenario_snapshots {
    ($table:expr, $fixtures:literal) => {
        $crate::scenario_snapshots!($table, $fixtures, skip = [])
    };
    ($table:expr, $fixtures:literal, skip = [$($skip:literal),* $(,)?]) => {{
        let mut count = 0usize;
        $crate::insta::glob!($fixtures, "*", |dir| {
            let skip: &[&str] = &[$($skip),*];
            if !$crate::Scenario::is_scenario(dir)
                || dir.file_name().is_some_and(|n| skip.iter().any(|s| n == *s))
            {
                return;
            }
            let scenario = $crate::Scenario::new(dir);
            let both = scenario.both($table);
            $crate::insta::with_settings!(
                {snapshot_suffix => scenario.name(), prepend_module_to_snapshot => false},
                { $crate::insta::assert_yaml_snapshot!("scenario", both); }
            );
            count += 1;
        });
        count
    }};
}
