//! rulebook's report model: what a person or an agent is told about one [`Rulebook`](rulebook::Rulebook),
//! as `Serialize` structs built once and rendered three ways: the CLI's text printer, its
//! `--json`, and the MCP server's tool results.
//!
//! - [`files`]: each loaded file's fate, read from the one join [`Rulebook::files`](rulebook::Rulebook::files), in
//!   the CLI's shape ([`FileReport`], [`Summary`]) and the MCP server's ([`RuleStory`],
//!   [`Explanation`]).
//! - [`paths`]: the rules that apply to given paths ([`RulesForPaths`]), bounded.
//! - [`findings`]: a diagnostic with its file and message as a person names them.
//! - [`text`]: paths as normalized lossy text, levels, profiles, severities, diagnostics.
//!
//! ```
//! use rulebook::{Options, Rulebook};
//! use rulebook_report::{Explanation, FileReport, RulesForPaths, Summary};
//!
//! # let dir = tempfile::tempdir()?;
//! # let project = dir.path();
//! # std::fs::create_dir_all(project.join(".cursor/rules"))?;
//! std::fs::write(project.join(".cursor/rules/ts.mdc"), "---\nglobs: \"*.ts\"\n---\nStrict.")?;
//! std::fs::write(project.join(".cursor/rules/all.mdc"), "---\nalwaysApply: true\n---\nEnglish.")?;
//! let book = Rulebook::discover(project, Some(&project.join("home")), &Options::default());
//!
//! let summary = Summary::new(&book);
//! assert_eq!((summary.always_apply, summary.no_bucket), (1, 1));
//! let files: Vec<FileReport<'_>> = book.files().map(|f| FileReport::new(&book, &f, false)).collect();
//! assert_eq!(serde_json::to_value(&files[1])?["status"], "unbucketed");
//!
//! let story = Explanation::new(&book, Some("ts")).expect("a file is named ts");
//! assert_eq!(story.rules[0].status, "active");
//!
//! let answer = RulesForPaths::new(&book, &["src/app.ts".to_owned()]);
//! assert_eq!(answer.always_apply[0].name, "all");
//! assert_eq!(answer.paths[0].rules[0].glob.as_deref(), Some("*.ts"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Depends on the `rulebook` facade and `serde`.

pub mod files;
pub mod findings;
pub mod paths;
pub mod text;

pub use files::{Details, Explanation, FateReport, FileReport, RuleStory, Summary, not_loaded};
pub use findings::{Finding, finding};
pub use paths::{AppliedRule, Cut, FileRules, MAX_HITS, MAX_PATHS, RulesForPaths};
