//! The Node package `rulebook-rs`, built by napi-rs (`napi build`): rulebook's discovery,
//! prompt text, `rule://` and `skill://`, rules for paths, skills, each tool's view, check's
//! findings and the TTSR stream matcher, from the same crates as the CLI. `discover` and
//! `check` run on libuv's thread pool and return promises (with `discoverSync` for a
//! script); errors are JS `Error`s whose `code` says which; `index.d.ts` is generated
//! from this file.
//!
//! Depends on `rulebook-bindings` (what the bindings share), `napi` and `napi-derive`.
//!
//! ```js
//! const { discover } = require('rulebook-rs')
//! const book = await discover('.')
//! console.log(book.prompt())
//! ```

#![allow(
    clippy::needless_pass_by_value,
    reason = "napi-rs passes JS arguments as owned values"
)]

use std::path::PathBuf;

use napi::JSON;
use napi::bindgen_prelude::{AsyncTask, Env, Function, JsObjectValue, Task, ToNapiValue, Unknown};
use napi_derive::napi;
use rulebook_bindings as bind;

/// A binding error as a JS `Error` whose `code` is the error's code.
fn thrown(err: bind::Error) -> napi::Error<String> {
    napi::Error::new(err.code.to_owned(), err.message)
}

fn internal(err: impl std::fmt::Display) -> napi::Error<String> {
    napi::Error::new("internal".to_owned(), err.to_string())
}

/// A serializable answer as a JS value: serialized to JSON here and read by V8's own
/// `JSON.parse` in one call, far fewer crossings into the engine than building the
/// objects a property at a time.
fn to_js<'env, T: serde::Serialize>(
    env: &'env Env,
    value: &T,
) -> napi::Result<Unknown<'env>, String> {
    let text = serde_json::to_string(value).map_err(internal)?;
    let json: JSON<'_> = env
        .get_global()
        .and_then(|global| global.get_named_property_unchecked("JSON"))
        .map_err(internal)?;
    let parse: Function<'_, String, Unknown<'_>> =
        json.get_named_property("parse").map_err(internal)?;
    parse.call(text).map_err(internal)
}

/// How to discover: the CLI's global options.
#[napi(object)]
#[derive(Debug, Clone, Default)]
pub struct DiscoverOptions {
    /// The home directory (default: the user's).
    pub home: Option<String>,
    /// `extended` (the default) or `reference`.
    pub profile: Option<String>,
    /// Only these providers (their ids).
    pub providers: Option<Vec<String>>,
    /// Never these providers.
    pub no_providers: Option<Vec<String>>,
    /// Provider options, each `PROVIDER.KEY=VALUE`.
    pub options: Option<Vec<String>>,
    /// The project root, given instead of found.
    pub root: Option<String>,
}

fn run_of(cwd: String, options: Option<DiscoverOptions>) -> bind::Discover {
    let options = options.unwrap_or_default();
    let mut run = bind::Discover::new(cwd)
        .providers(options.providers.unwrap_or_default())
        .no_providers(options.no_providers.unwrap_or_default())
        .options(options.options.unwrap_or_default());
    if let Some(home) = options.home {
        run = run.home(home);
    }
    if let Some(profile) = options.profile {
        run = run.profile(profile);
    }
    if let Some(root) = options.root {
        run = run.root(root);
    }
    run
}

/// What a `rule://` or `skill://` URL resolves to.
#[napi(object)]
pub struct Resolved {
    /// The rule's or skill's name.
    pub name: String,
    /// The text.
    pub content: String,
    /// The file it comes from.
    pub path: String,
    /// `text/markdown` or `text/plain`.
    pub mime_type: String,
}

/// A rule the stream set off.
#[napi(object)]
pub struct Fired {
    /// The rule's name.
    pub name: String,
    /// The condition that matched.
    pub condition: String,
    /// The text to inject.
    pub content: String,
}

/// The rules of one project, as discovered once: every answer is read from it.
#[napi]
pub struct Rulebook {
    book: std::sync::Arc<rulebook::Rulebook>,
}

#[napi]
impl Rulebook {
    /// Every rule file discovered and what became of it, with its fields (`name`,
    /// `provider`, `level`, `path`, `status`, `bucket`, `description`, `globs`, …).
    #[napi(ts_return_type = "Array<Record<string, unknown>>")]
    pub fn rules<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>, String> {
        to_js(env, &bind::rules(&self.book))
    }

    /// The diagnostics of discovery.
    #[napi]
    pub fn diagnostics(&self) -> Vec<Finding> {
        self.book.diagnostics().iter().map(Finding::of).collect()
    }

    /// The system-prompt text, as `rulebook prompt [--paths …]` prints it (without its
    /// final line break); `paths` attaches the rules whose globs match them.
    #[napi]
    pub fn prompt(&self, paths: Option<Vec<String>>) -> napi::Result<String, String> {
        let paths: Vec<PathBuf> = paths
            .unwrap_or_default()
            .into_iter()
            .map(PathBuf::from)
            .collect();
        bind::prompt(&self.book, &paths).map_err(thrown)
    }

    /// What a `rule://NAME` or `skill://NAME[/PATH]` URL resolves to.
    #[napi]
    pub fn resolve(&self, url: String) -> napi::Result<Resolved, String> {
        let resolved = bind::resolve(&self.book, &url).map_err(thrown)?;
        Ok(Resolved {
            name: resolved.name,
            content: resolved.content,
            path: rulebook_report::text::path_text(&resolved.path).into_owned(),
            mime_type: resolved.mime_type.to_owned(),
        })
    }

    /// The rules that apply to `paths`: the always-apply ones, then each path's matches.
    #[napi(ts_return_type = "Record<string, unknown>")]
    pub fn rules_for_paths<'env>(
        &self,
        env: &'env Env,
        paths: Vec<String>,
    ) -> napi::Result<Unknown<'env>, String> {
        to_js(env, &bind::rules_for_paths(&self.book, &paths))
    }

    /// Every skill found.
    #[napi(ts_return_type = "Array<Record<string, unknown>>")]
    pub fn skills<'env>(&self, env: &'env Env) -> napi::Result<Unknown<'env>, String> {
        to_js(env, &bind::skills(&self.book))
    }

    /// What the tool `tool` (`claude`, `codex`, `cursor`, …) loads here.
    #[napi(ts_return_type = "Record<string, unknown>")]
    pub fn view<'env>(&self, env: &'env Env, tool: String) -> napi::Result<Unknown<'env>, String> {
        to_js(env, &bind::view(&self.book, &tool).map_err(thrown)?)
    }

    /// The findings of `rulebook check` (`strict`: warnings fail too), off the event loop.
    #[napi(ts_return_type = "Promise<CheckResult>")]
    pub fn check(&self, strict: Option<bool>) -> AsyncTask<CheckTask> {
        AsyncTask::new(CheckTask {
            book: self.book.clone(),
            strict: strict.unwrap_or(false),
        })
    }

    /// A TTSR stream matcher of these rules, at the start of a turn.
    #[napi]
    pub fn ttsr(&self) -> TtsrMatcher {
        TtsrMatcher {
            inner: bind::Matcher::new(&self.book),
        }
    }

    /// `extended` or `reference`.
    #[napi(getter)]
    pub fn profile(&self) -> String {
        rulebook_report::text::profile(&self.book).to_owned()
    }
}

/// The TTSR stream matcher: feed it the model's output as it streams.
#[napi]
pub struct TtsrMatcher {
    inner: bind::Matcher,
}

#[napi]
impl TtsrMatcher {
    /// Feeds the next chunk: the rules it sets off.
    #[napi]
    pub fn feed(&mut self, chunk: String) -> Vec<Fired> {
        self.inner
            .feed(&chunk)
            .into_iter()
            .map(|f| Fired {
                name: f.name,
                condition: f.condition,
                content: f.content,
            })
            .collect()
    }

    /// Starts the next turn: the stream so far is forgotten.
    #[napi]
    pub fn next_turn(&mut self) {
        self.inner.next_turn();
    }
}

/// Discovery on libuv's thread pool.
pub struct DiscoverTask {
    run: bind::Discover,
}

impl Task for DiscoverTask {
    type Output = Result<rulebook::Rulebook, bind::Error>;
    type JsValue = Rulebook;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.run.run())
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        match output {
            Ok(book) => Ok(Rulebook {
                book: std::sync::Arc::new(book),
            }),
            // The promise rejects with a JS `Error` whose `code` is the error's code.
            Err(err) => {
                let mut error = env.create_error(napi::Error::new(
                    napi::Status::GenericFailure,
                    err.message.clone(),
                ))?;
                error.set_named_property("code", err.code)?;
                Err(napi::Error::from(error.into_unknown(&env)?))
            }
        }
    }
}

/// One finding of `check`, or a diagnostic of discovery.
#[napi(object)]
pub struct Finding {
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// Its code (`unknown-key`, `yaml-syntax`, …).
    pub code: String,
    /// The display name of the provider that said it.
    pub provider: Option<String>,
    /// The file it is about.
    pub path: Option<String>,
    /// 1-based line.
    pub line: Option<u32>,
    /// 1-based column.
    pub column: Option<u32>,
    /// What it says.
    pub message: String,
}

impl Finding {
    fn of(d: &rulebook::Diagnostic) -> Self {
        let number = |n: Option<usize>| n.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
        Self {
            severity: rulebook_report::text::severity(d.severity).to_owned(),
            code: d.code.as_str().to_owned(),
            provider: d.provider.clone(),
            path: d
                .path
                .as_deref()
                .map(|p| rulebook_report::text::path_text(p).into_owned()),
            line: number(d.line),
            column: number(d.column),
            message: d.message.clone(),
        }
    }
}

/// What `rulebook check` found.
#[napi(object)]
pub struct CheckResult {
    /// How many rule files were checked.
    pub files: u32,
    /// Errors.
    pub errors: u32,
    /// Warnings.
    pub warnings: u32,
    /// Infos.
    pub infos: u32,
    /// Whether the check fails (an error, or with `strict` a warning).
    pub failed: bool,
    /// The findings, by file then line.
    pub findings: Vec<Finding>,
}

/// A check on libuv's thread pool.
pub struct CheckTask {
    book: std::sync::Arc<rulebook::Rulebook>,
    strict: bool,
}

impl Task for CheckTask {
    type Output = rulebook_check::Report;
    type JsValue = CheckResult;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(bind::check(&self.book, self.strict))
    }

    fn resolve(&mut self, _: Env, report: Self::Output) -> napi::Result<Self::JsValue> {
        let count = |s| u32::try_from(report.count(s)).unwrap_or(u32::MAX);
        Ok(CheckResult {
            files: u32::try_from(report.files).unwrap_or(u32::MAX),
            errors: count(rulebook::Severity::Error),
            warnings: count(rulebook::Severity::Warning),
            infos: count(rulebook::Severity::Info),
            failed: report.failed(),
            findings: report.findings.iter().map(Finding::of).collect(),
        })
    }
}

/// Discovers the rules of the project in `cwd`, as `rulebook` does with the same options,
/// on libuv's thread pool.
#[napi(ts_return_type = "Promise<Rulebook>")]
pub fn discover(cwd: String, options: Option<DiscoverOptions>) -> AsyncTask<DiscoverTask> {
    AsyncTask::new(DiscoverTask {
        run: run_of(cwd, options),
    })
}

/// As `discover`, on this thread.
#[napi]
pub fn discover_sync(
    cwd: String,
    options: Option<DiscoverOptions>,
) -> napi::Result<Rulebook, String> {
    let book = run_of(cwd, options).run().map_err(thrown)?;
    Ok(Rulebook {
        book: std::sync::Arc::new(book),
    })
}

/// The ids of the tools `view` takes.
#[napi]
pub fn tools() -> Vec<String> {
    rulebook::tools()
        .iter()
        .map(|h| h.id().to_owned())
        .collect()
}
