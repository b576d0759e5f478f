//! The Python package `rulebook-rs` (module `rulebook_rs`), built by maturin: rulebook's
//! discovery, prompt text, `rule://` and `skill://`, rules for paths, skills, each tool's
//! view, check's findings and the TTSR stream matcher, from the same crates as the CLI.
//! Errors are `rulebook_rs.RulebookError` with a `code`; discovery, check and a tool's view
//! let the GIL go. Typed by `rulebook_rs.pyi`.
//!
//! Depends on `rulebook-bindings` (what the bindings share), `pyo3` and `serde_json`.
//!
//! ```python
//! import rulebook_rs
//! book = rulebook_rs.discover(".")
//! print(book.prompt())
//! ```

use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use rulebook_bindings as bind;

create_exception!(
    rulebook_rs,
    RulebookError,
    PyException,
    "A rulebook failure; `code` says which (`not-a-directory`, `unknown-provider`, `unknown-rule`, …)."
);

/// The Python error of a binding error: a `RulebookError` whose `code` attribute holds
/// the code.
fn raise(py: Python<'_>, err: &bind::Error) -> PyErr {
    let error = RulebookError::new_err(err.message.clone());
    if let Err(failed) = error.value(py).setattr("code", err.code) {
        return failed;
    }
    error
}

/// A serializable answer as Python objects (dicts, lists, strings, numbers, None):
/// serialized to JSON here and read by the standard library's `json.loads` (C code that
/// shares each key among the dicts it builds), much faster than building them a field at
/// a time.
fn to_python<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    let loads = PyModule::import(py, "json")?.getattr("loads")?;
    Ok(loads.call1((text,))?.unbind())
}

/// `rules()` as Python dicts built here, each key shared by every dict (what
/// [`to_python`] gives for the same value, without the JSON text in between).
fn rule_dicts(py: Python<'_>, book: &rulebook::Rulebook) -> PyResult<Py<PyAny>> {
    use pyo3::intern;
    use pyo3::types::{PyDict, PyList};
    use rulebook_report::FateReport;
    use rulebook_report::text::path_text;

    let source = |d: &Bound<'_, PyDict>,
                  key: &Bound<'_, pyo3::types::PyString>,
                  s: &rulebook_report::text::JsonSource<'_>|
     -> PyResult<()> {
        let inner = PyDict::new(py);
        inner.set_item(intern!(py, "provider"), s.provider)?;
        inner.set_item(intern!(py, "path"), path_text(s.path))?;
        d.set_item(key, inner)
    };
    let list = PyList::empty(py);
    for rule in bind::rules(book) {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "name"), rule.name)?;
        d.set_item(intern!(py, "provider"), rule.provider)?;
        d.set_item(intern!(py, "level"), rule.level)?;
        d.set_item(intern!(py, "path"), path_text(rule.path))?;
        let status = intern!(py, "status");
        match &rule.fate {
            FateReport::Shadowed { shadowed_by } => {
                d.set_item(status, "shadowed")?;
                source(&d, intern!(py, "shadowed_by"), shadowed_by)?;
            }
            FateReport::SameFile { same_file_as } => {
                d.set_item(status, "same-file")?;
                source(&d, intern!(py, "same_file_as"), same_file_as)?;
            }
            FateReport::Invalid { reason } => {
                d.set_item(status, "invalid")?;
                d.set_item(intern!(py, "reason"), *reason)?;
            }
            FateReport::Bucketed {
                bucket,
                ttsr_rejected,
            } => {
                d.set_item(status, "bucketed")?;
                d.set_item(intern!(py, "bucket"), *bucket)?;
                d.set_item(intern!(py, "ttsr_rejected"), *ttsr_rejected)?;
            }
            FateReport::Unbucketed { reason } => {
                d.set_item(status, "unbucketed")?;
                d.set_item(intern!(py, "reason"), *reason)?;
            }
        }
        d.set_item(intern!(py, "description"), rule.description)?;
        d.set_item(intern!(py, "globs"), rule.globs)?;
        d.set_item(intern!(py, "always_apply"), rule.always_apply)?;
        list.append(d)?;
    }
    Ok(list.into_any().unbind())
}

/// The rules of one project, as discovered once: every answer is read from it.
#[pyclass(frozen, name = "Rulebook", module = "rulebook_rs")]
struct Book {
    book: rulebook::Rulebook,
}

#[pymethods]
impl Book {
    /// Every rule file discovered and what became of it, with its fields.
    fn rules(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        rule_dicts(py, &self.book)
    }

    /// `rules()` through JSON: the same value, for the tests that hold the two equal.
    fn _rules_json(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &bind::rules(&self.book))
    }

    /// The diagnostics of discovery.
    fn diagnostics(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &bind::diagnostics(&self.book))
    }

    /// The system-prompt text, as `rulebook prompt [--paths …]` prints it (without its
    /// final line break); `paths` attaches the rules whose globs match them.
    #[pyo3(signature = (paths=None))]
    fn prompt(&self, py: Python<'_>, paths: Option<Vec<PathBuf>>) -> PyResult<String> {
        let paths = paths.unwrap_or_default();
        bind::prompt(&self.book, &paths).map_err(|e| raise(py, &e))
    }

    /// What a `rule://NAME` or `skill://NAME[/PATH]` URL resolves to: `name`, `content`,
    /// `path`, `mime_type`.
    fn resolve(&self, py: Python<'_>, url: &str) -> PyResult<Py<PyAny>> {
        let resolved = bind::resolve(&self.book, url).map_err(|e| raise(py, &e))?;
        to_python(py, &resolved)
    }

    /// The rules that apply to `paths`: the always-apply ones, then each path's matches.
    #[allow(
        clippy::needless_pass_by_value,
        reason = "PyO3 extracts arguments as owned values"
    )]
    fn rules_for_paths(&self, py: Python<'_>, paths: Vec<String>) -> PyResult<Py<PyAny>> {
        to_python(py, &bind::rules_for_paths(&self.book, &paths))
    }

    /// Every skill found.
    fn skills(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &bind::skills(&self.book))
    }

    /// What the tool `tool` (`claude`, `codex`, `cursor`, …) loads here.
    #[pyo3(name = "view")]
    fn tool_view(&self, py: Python<'_>, tool: &str) -> PyResult<Py<PyAny>> {
        let book = &self.book;
        let view = py
            .detach(|| bind::view(book, tool))
            .map_err(|e| raise(py, &e))?;
        to_python(py, &view)
    }

    /// The findings of `rulebook check` (`strict`: warnings fail too).
    #[pyo3(signature = (strict=false))]
    fn check(&self, py: Python<'_>, strict: bool) -> PyResult<Py<PyAny>> {
        let book = &self.book;
        let report = py.detach(|| bind::check(book, strict));
        to_python(py, &bind::check_report(&report))
    }

    /// A TTSR stream matcher of these rules, at the start of a turn.
    fn ttsr(&self) -> Matcher {
        Matcher {
            inner: bind::Matcher::new(&self.book),
        }
    }

    /// `extended` or `reference`.
    #[getter]
    fn profile(&self) -> &'static str {
        rulebook_report::text::profile(&self.book)
    }

    /// The working directory discovered for.
    #[getter]
    fn cwd(&self) -> String {
        rulebook_report::text::path_text(self.book.cwd()).into_owned()
    }
}

/// The TTSR stream matcher: feed it the model's output as it streams.
#[pyclass(name = "TtsrMatcher", module = "rulebook_rs")]
struct Matcher {
    inner: bind::Matcher,
}

#[pymethods]
impl Matcher {
    /// Feeds the next chunk: the rules it sets off (`name`, `condition`, `content`).
    fn feed(&mut self, py: Python<'_>, chunk: &str) -> PyResult<Py<PyAny>> {
        let fired = self.inner.feed(chunk);
        to_python(py, &fired)
    }

    /// Starts the next turn: the stream so far is forgotten.
    fn next_turn(&mut self) {
        self.inner.next_turn();
    }
}

/// Discovers the rules of the project in `cwd`, as `rulebook` does with the same options.
#[pyfunction]
#[pyo3(signature = (cwd, *, home=None, profile=None, providers=None, no_providers=None, options=None, root=None))]
#[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
fn discover(
    py: Python<'_>,
    cwd: PathBuf,
    home: Option<PathBuf>,
    profile: Option<String>,
    providers: Option<Vec<String>>,
    no_providers: Option<Vec<String>>,
    options: Option<Vec<String>>,
    root: Option<PathBuf>,
) -> PyResult<Book> {
    let mut run = bind::Discover::new(cwd)
        .providers(providers.unwrap_or_default())
        .no_providers(no_providers.unwrap_or_default())
        .options(options.unwrap_or_default());
    if let Some(home) = home {
        run = run.home(home);
    }
    if let Some(profile) = profile {
        run = run.profile(profile);
    }
    if let Some(root) = root {
        run = run.root(root);
    }
    let book = py.detach(|| run.run()).map_err(|e| raise(py, &e))?;
    Ok(Book { book })
}

/// The ids of the tools `view` takes.
#[pyfunction]
fn tools() -> Vec<&'static str> {
    rulebook::tools().iter().map(|h| h.id()).collect()
}

#[pymodule]
fn rulebook_rs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(discover, m)?)?;
    m.add_function(wrap_pyfunction!(tools, m)?)?;
    m.add_class::<Book>()?;
    m.add_class::<Matcher>()?;
    m.add("RulebookError", m.py().get_type::<RulebookError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
