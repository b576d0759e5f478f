//! What rulebook's language bindings (the Node package `rulebook-rs` and the Python
//! package `rulebook-rs`) share: discovery from plain values, each answer as a
//! `Serialize` value the binding converts once into its language's objects, and errors
//! that carry a stable code. The bindings add only the conversion and their language's
//! conventions (a JS `Error` or a Python exception with the code, async or the GIL let go
//! during discovery), so both answer exactly what the CLI answers.
//!
//! Depends on `rulebook` (the pipeline), `rulebook-check` (the findings), `rulebook-report`
//! (the report model of the CLI's `--json`) and `serde`.
//!
//! ```
//! use rulebook_bindings::{Discover, prompt, resolve, rules};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".cursor/rules"))?;
//! std::fs::write(dir.path().join(".cursor/rules/all.mdc"), "---\nalwaysApply: true\n---\nEnglish.")?;
//! let book = Discover::new(dir.path()).home(dir.path().join("home")).run()?;
//! assert_eq!(rules(&book)[0].name, "all");
//! assert!(prompt(&book, &[])?.contains("English."));
//! assert_eq!(resolve(&book, "rule://all")?.content, "English.");
//! assert_eq!(resolve(&book, "rule://none").unwrap_err().code, "unknown-rule");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};

use rulebook::{HostView, Options, Profile, Rulebook, SkillError, TtsrManager, TtsrRule};
use rulebook_check::CheckOptions;
use rulebook_report::RulesForPaths;
use rulebook_report::text::JsonDiagnostic;
use serde::Serialize;

/// A failure a binding raises as its language's error, with a stable code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure: `not-a-directory`, `unknown-profile`, `unknown-provider`,
    /// `invalid-option`, `paths-refused`, `not-a-rule-url`, `unknown-rule`,
    /// `not-a-skill-url`, `unknown-skill`, `skill-file`, `unknown-tool`.
    pub code: &'static str,
    /// What happened, naming the value at fault.
    pub message: String,
}

impl Error {
    fn new(code: &'static str, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for Error {}

/// A discovery to run: the directories, the profile, the providers and their options, as
/// the CLI's global options give them.
#[derive(Debug, Clone)]
pub struct Discover {
    cwd: PathBuf,
    home: Option<PathBuf>,
    profile: Option<String>,
    providers: Vec<String>,
    no_providers: Vec<String>,
    options: Vec<String>,
    root: Option<PathBuf>,
}

impl Discover {
    /// A discovery in `cwd`, with the user's home and the default profile (`extended`).
    pub fn new(cwd: impl Into<PathBuf>) -> Self {
        Self {
            cwd: cwd.into(),
            home: None,
            profile: None,
            providers: Vec::new(),
            no_providers: Vec::new(),
            options: Vec::new(),
            root: None,
        }
    }

    /// The home directory.
    #[must_use]
    pub fn home(mut self, home: impl Into<PathBuf>) -> Self {
        self.home = Some(home.into());
        self
    }

    /// The profile: `extended` (the default) or `reference`.
    #[must_use]
    pub fn profile(mut self, profile: impl Into<String>) -> Self {
        self.profile = Some(profile.into());
        self
    }

    /// Only these providers (their ids).
    #[must_use]
    pub fn providers(mut self, ids: impl IntoIterator<Item = String>) -> Self {
        self.providers.extend(ids);
        self
    }

    /// Never these providers.
    #[must_use]
    pub fn no_providers(mut self, ids: impl IntoIterator<Item = String>) -> Self {
        self.no_providers.extend(ids);
        self
    }

    /// Provider options, each `PROVIDER.KEY=VALUE` as `--option` takes them.
    #[must_use]
    pub fn options(mut self, options: impl IntoIterator<Item = String>) -> Self {
        self.options.extend(options);
        self
    }

    /// The project root, given instead of found (`--root`).
    #[must_use]
    pub fn root(mut self, root: impl Into<PathBuf>) -> Self {
        self.root = Some(root.into());
        self
    }

    /// The discovery's options, checked as the CLI checks its own.
    pub fn options_checked(&self) -> Result<Options, Error> {
        let profile = match self.profile.as_deref() {
            None | Some("extended") => Profile::Extended,
            Some("reference") => Profile::Reference,
            Some(other) => {
                return Err(Error::new(
                    "unknown-profile",
                    format!("unknown profile `{other}`: use extended or reference"),
                ));
            }
        };
        let mut options = Options::new().profile(profile);
        let known: Vec<String> = options
            .registry()
            .infos()
            .into_iter()
            .map(|i| i.id)
            .collect();
        if let Some(unknown) = self
            .providers
            .iter()
            .chain(&self.no_providers)
            .find(|id| !known.contains(id))
        {
            return Err(Error::new(
                "unknown-provider",
                format!(
                    "unknown provider `{unknown}`: use one of {}",
                    known.join(", ")
                ),
            ));
        }
        if !self.providers.is_empty() {
            options = options.allow_providers(self.providers.iter().cloned());
        }
        options = options.deny_providers(self.no_providers.iter().cloned());
        if let Some(root) = &self.root {
            if !root.is_dir() {
                return Err(Error::new(
                    "not-a-directory",
                    format!("the project root {} is not a directory", root.display()),
                ));
            }
            options = options.project_root(root);
        }
        let registry = options.registry();
        for option in &self.options {
            let parsed = option
                .split_once('=')
                .and_then(|(name, value)| name.split_once('.').map(|(p, k)| (p, k, value)));
            let Some((provider, key, value)) =
                parsed.filter(|(p, k, _)| !p.is_empty() && !k.is_empty())
            else {
                return Err(Error::new(
                    "invalid-option",
                    format!("option `{option}`: write PROVIDER.KEY=VALUE"),
                ));
            };
            registry
                .check_option(provider, key, value)
                .map_err(|why| Error::new("invalid-option", format!("option `{option}`: {why}")))?;
            options = options.provider_option(provider, key, value);
        }
        Ok(options)
    }

    /// Discovers the rules.
    pub fn run(&self) -> Result<Rulebook, Error> {
        if !self.cwd.is_dir() {
            return Err(Error::new(
                "not-a-directory",
                format!("{} is not a directory", self.cwd.display()),
            ));
        }
        let options = self.options_checked()?;
        Ok(Rulebook::discover(
            &self.cwd,
            self.home.as_deref(),
            &options,
        ))
    }
}

/// One rule file discovered and what became of it: the fields an agent uses (the CLI's
/// `explain --json` reports the same and the whole frontmatter).
#[derive(Debug, Serialize)]
pub struct RuleReport<'a> {
    /// The rule's name.
    pub name: &'a str,
    /// The provider's id.
    pub provider: &'a str,
    /// `project` or `user`.
    pub level: &'static str,
    /// The file.
    #[serde(serialize_with = "rulebook_report::text::path")]
    pub path: &'a Path,
    /// What became of it (`bucketed`, `unbucketed`, `shadowed`, `same-file`, `invalid`),
    /// with its `bucket` or the reason, as `explain --json` says it.
    #[serde(flatten)]
    pub fate: rulebook_report::FateReport<'a>,
    /// Its description.
    pub description: Option<&'a str>,
    /// Its globs.
    pub globs: Option<&'a [String]>,
    /// Its `alwaysApply`.
    pub always_apply: Option<bool>,
}

/// Every rule file discovered and what became of it, in precedence order.
pub fn rules(book: &Rulebook) -> Vec<RuleReport<'_>> {
    book.files()
        .map(|file| {
            let rule = file.rule;
            RuleReport {
                name: &rule.name,
                provider: &rule.source.provider,
                level: rulebook_report::text::level(rule),
                path: &rule.path,
                fate: rulebook_report::FateReport::new(book, &file.fate),
                description: rule.description.as_deref(),
                globs: rule.globs.as_deref(),
                always_apply: rule.always_apply,
            }
        })
        .collect()
}

/// The diagnostics of discovery, as `--json` gives them.
pub fn diagnostics(book: &Rulebook) -> Vec<JsonDiagnostic<'_>> {
    rulebook_report::text::diagnostics(book.diagnostics())
}

/// The system-prompt text, exactly as `rulebook prompt [--paths …]` prints it (without the
/// final line break the command adds); `paths` attaches the rules whose globs match them
/// (the extended profile only, as the CLI refuses them under `reference`).
pub fn prompt(book: &Rulebook, paths: &[PathBuf]) -> Result<String, Error> {
    if book.profile() == Profile::Reference && !paths.is_empty() {
        return Err(Error::new(
            "paths-refused",
            "paths attach rules by glob, which the reference profile never does",
        ));
    }
    Ok(book.system_prompt_section_for(paths))
}

/// What a `rule://` or `skill://` URL resolves to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resolved {
    /// The rule's or skill's name.
    pub name: String,
    /// The text: the rule's body, or the skill's file whole.
    pub content: String,
    /// The file it comes from (as text, lossily where it is not UTF-8, as `--json` writes
    /// paths).
    #[serde(serialize_with = "lossy_path")]
    pub path: PathBuf,
    /// `text/markdown`, or `text/plain` for a skill's file that is not Markdown.
    pub mime_type: &'static str,
}

/// A path as the CLI's `--json` writes it.
#[allow(clippy::ptr_arg, reason = "serde's `serialize_with` passes the field")]
fn lossy_path<S: serde::Serializer>(path: &PathBuf, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&rulebook_report::text::path_text(path))
}

/// Resolves a `rule://NAME` or `skill://NAME[/PATH]` URL, as `rulebook read` does.
pub fn resolve(book: &Rulebook, url: &str) -> Result<Resolved, Error> {
    if rulebook::skill_url_rest(url).is_some() {
        return book
            .resolve_skill(url)
            .map(|r| Resolved {
                name: r.name,
                content: r.content,
                path: r.path,
                mime_type: r.mime_type,
            })
            .map_err(|err| {
                let code = match err {
                    SkillError::NotSkillUrl(_) | SkillError::NoName => "not-a-skill-url",
                    SkillError::Unknown { .. } => "unknown-skill",
                    _ => "skill-file",
                };
                Error::new(code, err.to_string())
            });
    }
    book.resolve(url)
        .map(|r| Resolved {
            name: r.name,
            content: r.content,
            path: r.source_path,
            mime_type: r.content_type,
        })
        .map_err(|err| {
            let code = match err {
                rulebook::ProtocolError::UnknownRule { .. } => "unknown-rule",
                _ => "not-a-rule-url",
            };
            Error::new(code, err.to_string())
        })
}

/// The rules that apply to `paths`: the always-apply ones once, then each path's glob
/// matches (as the MCP tool `rules_for_paths` answers).
pub fn rules_for_paths(book: &Rulebook, paths: &[String]) -> RulesForPaths {
    RulesForPaths::new(book, paths)
}

/// One skill, as `rulebook skills --json` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct SkillReport<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its description.
    pub description: Option<&'a str>,
    /// The provider that found it.
    pub provider: &'a str,
    /// `project` or `user`.
    pub level: &'static str,
    /// Its `SKILL.md`.
    #[serde(serialize_with = "rulebook_report::text::path")]
    pub path: &'a Path,
    /// `active`, `shadowed` or `invalid`.
    pub status: &'static str,
}

/// Every skill found, active ones first as the book lists them.
pub fn skills(book: &Rulebook) -> Vec<SkillReport<'_>> {
    book.all_skills()
        .iter()
        .map(|entry| {
            let skill = &entry.item;
            SkillReport {
                name: &skill.name,
                description: skill.description.as_deref(),
                provider: &skill.source.provider,
                level: if skill.source.level == rulebook::Level::User {
                    "user"
                } else {
                    "project"
                },
                path: &skill.path,
                status: match entry.status {
                    rulebook::Status::Active => "active",
                    rulebook::Status::Shadowed { .. } => "shadowed",
                    _ => "invalid",
                },
            }
        })
        .collect()
}

/// What the tool `id` loads here (`rulebook explain --as ID --json`'s view).
pub fn view(book: &Rulebook, id: &str) -> Result<HostView, Error> {
    let host = rulebook::tool(id).ok_or_else(|| {
        let ids: Vec<&str> = rulebook::tools().iter().map(|h| h.id()).collect();
        Error::new(
            "unknown-tool",
            format!("unknown tool `{id}`: use one of {}", ids.join(", ")),
        )
    })?;
    let options = rulebook::HostOptions::for_project(book.project().clone());
    Ok(rulebook::emulate(host, &options))
}

/// `rulebook check --json`'s answer.
#[derive(Debug, Serialize)]
pub struct CheckReport<'a> {
    /// How many rule files were checked.
    pub files: usize,
    /// Findings of each severity.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Infos.
    pub infos: usize,
    /// Whether the check fails (an error, or with `strict` a warning).
    pub failed: bool,
    /// The findings, by file then line.
    pub findings: Vec<JsonDiagnostic<'a>>,
}

/// Lints the rule files as `rulebook check` does; the report owns its findings.
pub fn check(book: &Rulebook, strict: bool) -> rulebook_check::Report {
    rulebook_check::check(book, &CheckOptions::new().strict(strict))
}

/// The serializable form of a check's report.
pub fn check_report(report: &rulebook_check::Report) -> CheckReport<'_> {
    CheckReport {
        files: report.files,
        errors: report.count(rulebook::Severity::Error),
        warnings: report.count(rulebook::Severity::Warning),
        infos: report.count(rulebook::Severity::Info),
        failed: report.failed(),
        findings: rulebook_report::text::diagnostics(&report.findings),
    }
}

/// A rule a stream set off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fired {
    /// The rule's name.
    pub name: String,
    /// The condition that matched.
    pub condition: String,
    /// The text to inject.
    pub content: String,
}

/// The TTSR stream matcher of a book's rules: feed it the model's output as it streams,
/// get the rules it sets off; linear in the input, as [`TtsrManager::feed`] is.
#[derive(Debug)]
pub struct Matcher {
    manager: TtsrManager,
}

impl Matcher {
    /// A matcher of `book`'s TTSR rules, at the start of a turn.
    pub fn new(book: &Rulebook) -> Self {
        let mut manager = TtsrManager::new();
        for rule in book.ttsr().rules() {
            // The book registered each already: a refusal here cannot happen.
            let _ = manager.register(TtsrRule::clone(rule));
        }
        Self { manager }
    }

    /// Feeds the next chunk of the stream: the rules it sets off.
    pub fn feed(&mut self, chunk: &str) -> Vec<Fired> {
        self.manager
            .feed(chunk)
            .into_iter()
            .map(|f| Fired {
                name: f.name.to_owned(),
                condition: f.condition.to_owned(),
                content: f.content.to_owned(),
            })
            .collect()
    }

    /// Starts the next turn: the stream so far is forgotten.
    pub fn next_turn(&mut self) {
        self.manager.next_turn();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_path_that_is_not_utf8_is_written_lossily_not_refused() {
        use std::os::unix::ffi::OsStrExt;
        let resolved = Resolved {
            name: "x".to_owned(),
            content: String::new(),
            path: PathBuf::from(std::ffi::OsStr::from_bytes(b"/p/caf\xe9.md")),
            mime_type: "text/markdown",
        };
        let json = serde_json::to_value(&resolved).map_err(|e| e.to_string());
        assert_eq!(
            json.map(|v| v["path"].clone()),
            Ok("/p/caf\u{fffd}.md".into())
        );
    }
}
