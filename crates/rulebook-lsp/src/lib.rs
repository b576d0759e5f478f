//! `rulebook lsp`: a Language Server that says, in the editor and as you type, what each
//! coding agent makes of a rule file.
//!
//! For every file a registered tool reads (rule files, memory files, `SKILL.md`, and
//! `rulebook.toml`) the server publishes `rulebook check`'s findings with their codes,
//! severities, the line and key or glob they are about, a link to the code's
//! documentation and the other files involved; a hover says which tools load the file and
//! how (from each tool's own view, as `rulebook explain --as TOOL` says it, marked verified
//! or documented, with the bytes and tokens it costs at start), how many project files a
//! glob matches now, and where an `@import` leads or why it is skipped; definition follows
//! `@imports`, `rule://` and `skill://` links; completion offers the frontmatter keys the
//! file's tools read; code actions rewrite what can be rewritten safely (quote a glob YAML
//! cannot read, a one-string `paths` as a list, a skill's name after its folder).
//!
//! The open buffers' text is what is analysed, not the saved files. Once the buffers have
//! been quiet for the debounce (200 ms by default), a changed buffer is checked apart from
//! the project: alone, at its place in an otherwise empty copy of the project, for the
//! findings its own text decides ([`OWN_CODES`]: its YAML, keys, globs, conditions, body, a
//! skill's name), laid over the findings of the last whole discovery; a few milliseconds
//! however large the project. After a second more of quiet, and after the debounce when a
//! buffer is opened or closed or a file saved, the whole project is discovered again with every
//! buffer laid over its file ([`rulebook::stages::fs::Overlay`]), with the CLI's bounds:
//! what involves other files (shadowing, imports, what each tool loads) follows. What the
//! tools load twice (`duplicate-load`) is recomputed when a file is saved, since the tools
//! read what is saved.
//!
//! Depends on `rulebook` (the pipeline), `rulebook-check` (the findings), `lsp-server` and
//! `lsp-types` (the protocol, as rust-analyzer speaks it), `ignore` (a glob's count).
//!
//! ```
//! use lsp_server::{Connection, Message, Notification, Request};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("CLAUDE.md"), "Use tabs.\n")?;
//! let (server, client) = Connection::memory();
//! let serving = std::thread::spawn({
//!     let options = rulebook_lsp::ServeOptions::new(dir.path()).home(dir.path());
//!     move || rulebook_lsp::serve(server, options)
//! });
//! let init = serde_json::json!({"capabilities": {}, "rootUri": null});
//! client.sender.send(Request::new(1.into(), "initialize".into(), init).into())?;
//! let Message::Response(answer) = client.receiver.recv()? else { panic!() };
//! assert!(answer.result.unwrap()["capabilities"]["hoverProvider"].as_bool().unwrap());
//! client.sender.send(Notification::new("initialized".into(), serde_json::json!({})).into())?;
//! client.sender.send(Request::new(2.into(), "shutdown".into(), serde_json::Value::Null).into())?;
//! let _ = client.receiver.recv()?;
//! client.sender.send(Notification::new("exit".into(), serde_json::Value::Null).into())?;
//! serving.join().unwrap()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod analysis;
mod text;

pub use analysis::{MAX_COUNTED_FILES, OWN_CODES, Snapshot};

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, GotoDefinition, HoverRequest, Request as _,
};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, DiagnosticSeverity, HoverProviderCapability,
    InitializeParams, OneOf, Position, PublishDiagnosticsParams, Range, SaveOptions,
    ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Url,
};
use rulebook::DiagnosticCode;
use rulebook::stages::fs::Overlay;
use rulebook_check::CheckOptions;

/// How long the buffers stay quiet, after a change checked apart from the project, before
/// the whole project is discovered again (what involves other files: shadowing, imports,
/// what the tools load).
const SETTLE: Duration = Duration::from_secs(1);

/// How to serve: the project, the home directory, the discovery options and the debounce.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    cwd: PathBuf,
    home: Option<PathBuf>,
    options: rulebook::Options,
    debounce: Duration,
}

impl ServeOptions {
    /// Serves the project at `cwd` (the client's workspace folder, when it names one,
    /// takes its place), with the default options and a 200 ms debounce.
    pub fn new(cwd: impl Into<PathBuf>) -> Self {
        Self {
            cwd: cwd.into(),
            home: None,
            options: rulebook::Options::default(),
            debounce: Duration::from_millis(200),
        }
    }

    /// The home directory (default: the user's).
    #[must_use]
    pub fn home(mut self, home: impl Into<PathBuf>) -> Self {
        self.home = Some(home.into());
        self
    }

    /// The discovery options (profile, providers, bounds), as the CLI builds them.
    #[must_use]
    pub fn options(mut self, options: rulebook::Options) -> Self {
        self.options = options;
        self
    }

    /// How long the buffers must be quiet before they are analysed again.
    #[must_use]
    pub fn debounce(mut self, debounce: Duration) -> Self {
        self.debounce = debounce;
        self
    }
}

/// Serves the protocol on standard input and output until the client says `exit`.
pub fn serve_stdio(options: ServeOptions) -> std::io::Result<()> {
    let (connection, threads) = Connection::stdio();
    let served = serve(connection, options);
    threads.join()?;
    served
}

/// Serves the protocol on `connection` (standard input and output, a socket, or memory in
/// a test) until the client says `exit`. Returns when the client leaves; an error when the
/// connection breaks or the client breaks the protocol's handshake.
pub fn serve(connection: Connection, options: ServeOptions) -> std::io::Result<()> {
    let (id, params) = connection
        .initialize_start()
        .map_err(|e| protocol_error(&e))?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let root = workspace_root(&params).unwrap_or_else(|| options.cwd.clone());
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "rulebook".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        },
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| protocol_error(&e))?;
    if watches_files(&params) {
        connection
            .sender
            .send(watch_request().into())
            .map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client has gone")
            })?;
    }
    let mut server = Server::new(&connection, root, options);
    let served = server.run();
    server.forget_buffers();
    // The connection's end: its writer (standard output's thread) finishes.
    drop(connection);
    served
}

fn protocol_error(err: &lsp_server::ProtocolError) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, err.to_string())
}

/// What the server offers.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".to_owned(), " ".to_owned()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

/// Whether the client watches files for a server that asks (dynamic registration of
/// `workspace/didChangeWatchedFiles`).
fn watches_files(params: &InitializeParams) -> bool {
    params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false)
}

/// Asks the client to say when the files the tools read change on disk (a checkout, a
/// file written by another program): Markdown, `.mdc`, TOML, JSON, YAML and text files, and
/// the dotted files some tools read (`.clinerules`, `.cursorrules`, `.goosehints`, …).
fn watch_request() -> Request {
    let watchers: Vec<serde_json::Value> = [
        "**/*.{md,mdc,toml,json,yaml,yml,txt}",
        "**/.*rules",
        "**/.*hints",
        "**/.rules",
    ]
    .iter()
    .map(|glob| serde_json::json!({"globPattern": glob}))
    .collect();
    Request::new(
        RequestId::from("rulebook-watch".to_owned()),
        "client/registerCapability".to_owned(),
        serde_json::json!({"registrations": [{
            "id": "rulebook-watch",
            "method": "workspace/didChangeWatchedFiles",
            "registerOptions": {"watchers": watchers},
        }]}),
    )
}

/// The project directory the client opened: its first workspace folder, or its root URI.
fn workspace_root(params: &InitializeParams) -> Option<PathBuf> {
    if let Some(folder) = params.workspace_folders.as_ref().and_then(|f| f.first()) {
        return folder.uri.to_file_path().ok();
    }
    #[allow(deprecated)]
    params.root_uri.as_ref().and_then(|u| u.to_file_path().ok())
}

/// One buffer the client has open.
struct Buffer {
    path: PathBuf,
    /// Its real path, where a link leads elsewhere (laid over too).
    real: Option<PathBuf>,
    text: String,
}

impl Buffer {
    /// Takes the buffer's text off the file system's overlay.
    fn forget(&self) {
        Overlay::remove(&self.path);
        if let Some(real) = &self.real {
            Overlay::remove(real);
        }
    }
}

struct Server<'a> {
    connection: &'a Connection,
    root: PathBuf,
    options: ServeOptions,
    buffers: HashMap<Url, Buffer>,
    /// The check's options (the project's `rulebook.toml`), and what is wrong with it.
    check: CheckOptions,
    config_error: Option<rulebook_check::config::ConfigError>,
    snapshot: Option<Snapshot>,
    /// `duplicate-load` as of the last save: what the tools load twice of the saved files.
    duplicates: Vec<rulebook::Diagnostic>,
    /// When the buffers will have been quiet for the debounce.
    due: Option<Instant>,
    /// When the project is discovered again whole, after buffers were checked alone.
    settle: Option<Instant>,
    /// The buffers changed since the last analysis.
    changed: HashSet<Url>,
    /// Something only a discovery of the whole project answers (a buffer opened or
    /// closed, a file saved or changed on disk, the configuration).
    needs_full: bool,
    /// A save since the last full check.
    saved: bool,
    /// The buffers whose diagnostics were published last (to clear them when they close).
    published: HashSet<Url>,
}

impl<'a> Server<'a> {
    fn new(connection: &'a Connection, root: PathBuf, options: ServeOptions) -> Self {
        let mut server = Self {
            connection,
            root,
            options,
            buffers: HashMap::new(),
            check: CheckOptions::new(),
            config_error: None,
            snapshot: None,
            duplicates: Vec::new(),
            due: None,
            settle: None,
            changed: HashSet::new(),
            needs_full: true,
            saved: true,
            published: HashSet::new(),
        };
        server.load_config();
        server
    }

    fn load_config(&mut self) {
        self.config_error = None;
        self.check = match rulebook_check::config::load(&self.root) {
            Ok(Some((_, config))) => CheckOptions::new()
                .with_config(&config.check)
                .unwrap_or_else(|unknown| {
                    self.config_error = Some(rulebook_check::config::ConfigError {
                        path: self.root.join("rulebook.toml"),
                        message: unknown.to_string(),
                    });
                    CheckOptions::new()
                }),
            Ok(None) => CheckOptions::new(),
            Err(err) => {
                self.config_error = Some(err);
                CheckOptions::new()
            }
        };
    }

    fn run(&mut self) -> std::io::Result<()> {
        loop {
            let next = match (self.due, self.settle) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let message = match next {
                Some(due) => {
                    let wait = due.saturating_duration_since(Instant::now());
                    match self.connection.receiver.recv_timeout(wait) {
                        Ok(message) => Some(message),
                        Err(crossbeam_channel::RecvTimeoutError::Timeout) => None,
                        Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return Ok(()),
                    }
                }
                None => match self.connection.receiver.recv() {
                    Ok(message) => Some(message),
                    Err(_) => return Ok(()),
                },
            };
            match message {
                None if self.due.is_some_and(|d| d <= Instant::now()) => self.refresh()?,
                None => {
                    self.needs_full = true;
                    self.refresh()?;
                }
                Some(Message::Request(request)) => {
                    if self
                        .connection
                        .handle_shutdown(&request)
                        .map_err(|e| protocol_error(&e))?
                    {
                        return Ok(());
                    }
                    // An answer reflects every change the client sent before asking.
                    if self.due.is_some() {
                        self.refresh()?;
                    }
                    let response = self.answer(request);
                    self.send(response.into())?;
                }
                Some(Message::Notification(notification)) => {
                    if notification.method == "exit" {
                        return Ok(());
                    }
                    self.notified(notification);
                }
                Some(Message::Response(_)) => {}
            }
        }
    }

    fn send(&self, message: Message) -> std::io::Result<()> {
        self.connection
            .sender
            .send(message)
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client has gone"))
    }

    fn notified(&mut self, notification: Notification) {
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Some(params) = params::<DidOpenTextDocument>(notification) {
                    let document = params.text_document;
                    self.set_buffer(document.uri, document.text);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Some(params) = params::<DidChangeTextDocument>(notification) {
                    // Full synchronization: the last change holds the whole text.
                    if let Some(change) = params.content_changes.into_iter().last() {
                        self.set_buffer(params.text_document.uri, change.text);
                    }
                }
            }
            DidSaveTextDocument::METHOD => {
                if let Some(params) = params::<DidSaveTextDocument>(notification) {
                    self.saved(&params.text_document.uri);
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Some(params) = params::<DidCloseTextDocument>(notification) {
                    if let Some(buffer) = self.buffers.remove(&params.text_document.uri) {
                        buffer.forget();
                    }
                    self.needs_full = true;
                    self.schedule();
                }
            }
            DidChangeWatchedFiles::METHOD => {
                self.saved = true;
                self.needs_full = true;
                self.schedule();
            }
            _ => {}
        }
    }

    fn set_buffer(&mut self, uri: Url, text: String) {
        let Ok(path) = uri.to_file_path() else {
            return;
        };
        Overlay::set(&path, text.as_bytes());
        let real = std::fs::canonicalize(&path)
            .ok()
            .filter(|real| *real != path);
        if let Some(real) = &real {
            Overlay::set(real, text.as_bytes());
        }
        if let Some(old) = self.buffers.get(&uri) {
            if old.real != real {
                if let Some(gone) = &old.real {
                    Overlay::remove(gone);
                }
            }
        }
        if self.buffers.is_empty() {
            // The first buffer: the tools' duplicates have not been computed yet.
            self.saved = true;
        }
        if !self.buffers.contains_key(&uri) {
            self.needs_full = true;
        }
        self.changed.insert(uri.clone());
        self.buffers.insert(uri, Buffer { path, real, text });
        self.schedule();
    }

    fn saved(&mut self, uri: &Url) {
        if uri
            .to_file_path()
            .is_ok_and(|p| p.file_name().is_some_and(|n| n == "rulebook.toml"))
        {
            self.load_config();
        }
        self.saved = true;
        self.needs_full = true;
        self.schedule();
    }

    fn schedule(&mut self) {
        self.due = Some(Instant::now() + self.options.debounce);
        // A change puts off the whole project's discovery too: it follows quiet.
        self.settle = None;
    }

    /// Discovers and checks again with the buffers' text, and publishes the diagnostics of
    /// every open buffer.
    fn refresh(&mut self) -> std::io::Result<()> {
        self.due = None;
        if !self.needs_full && self.check_changed_alone() {
            // The whole project again once the buffers have been quiet a while.
            self.settle = Some(Instant::now() + SETTLE);
            self.changed.clear();
            return self.publish();
        }
        self.needs_full = false;
        self.settle = None;
        self.changed.clear();
        let wants_duplicates = self.check.keeps(DiagnosticCode::DuplicateLoad);
        let mut snapshot = if self.saved && wants_duplicates {
            let snapshot = self.take(&self.check);
            self.duplicates = snapshot
                .findings()
                .iter()
                .filter(|f| f.code == DiagnosticCode::DuplicateLoad)
                .cloned()
                .collect();
            snapshot
        } else {
            let quick = self.check.clone().ignore([DiagnosticCode::DuplicateLoad]);
            self.take(&quick)
        };
        self.saved = false;
        if wants_duplicates {
            snapshot.replace_code(DiagnosticCode::DuplicateLoad, &self.duplicates);
        }
        self.snapshot = Some(snapshot);
        self.publish()
    }

    /// Checks each changed buffer apart from the project ([`Snapshot::own_findings`]) and
    /// lays its findings over the last snapshot; `false` (nothing changed) when a buffer
    /// cannot be checked so.
    fn check_changed_alone(&mut self) -> bool {
        let Some(snapshot) = &self.snapshot else {
            return false;
        };
        let quick = self.check.clone().ignore([DiagnosticCode::DuplicateLoad]);
        let mut own = Vec::new();
        for uri in &self.changed {
            let Some(buffer) = self.buffers.get(uri) else {
                return false;
            };
            if !snapshot.knows(&buffer.path) {
                return false;
            }
            let Some(findings) =
                snapshot.own_findings(&self.options.options, &quick, &buffer.path, &buffer.text)
            else {
                return false;
            };
            own.push((buffer.path.clone(), findings));
        }
        if own.is_empty() {
            return false;
        }
        if let Some(snapshot) = &mut self.snapshot {
            for (path, findings) in own {
                snapshot.replace_own(&path, findings);
            }
        }
        true
    }

    fn take(&self, check: &CheckOptions) -> Snapshot {
        Snapshot::take(
            &self.root,
            self.options.home.as_deref(),
            &self.options.options,
            check,
        )
    }

    fn publish(&mut self) -> std::io::Result<()> {
        let Some(snapshot) = &self.snapshot else {
            return Ok(());
        };
        let mut now = HashSet::new();
        for (uri, buffer) in &self.buffers {
            let mut diagnostics = snapshot.diagnostics(&buffer.path, &buffer.text);
            if let Some(error) = &self.config_error {
                if same_file(&error.path, &buffer.path) {
                    diagnostics.push(config_diagnostic(error));
                }
            }
            now.insert(uri.clone());
            let params = PublishDiagnosticsParams::new(uri.clone(), diagnostics, None);
            self.send(Notification::new(PublishDiagnostics::METHOD.to_owned(), params).into())?;
        }
        for gone in self.published.difference(&now) {
            let params = PublishDiagnosticsParams::new(gone.clone(), Vec::new(), None);
            self.send(Notification::new(PublishDiagnostics::METHOD.to_owned(), params).into())?;
        }
        self.published = now;
        Ok(())
    }

    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        if self.snapshot.is_none() {
            let check = self.check.clone().ignore([DiagnosticCode::DuplicateLoad]);
            self.snapshot = Some(self.take(&check));
        }
        let Some(snapshot) = &self.snapshot else {
            return Response::new_err(id, ErrorCode::InternalError as i32, "no snapshot".into());
        };
        let buffers = &self.buffers;
        let text_of = |uri: &Url| -> Option<(PathBuf, String)> {
            let path = uri.to_file_path().ok()?;
            match buffers.get(uri) {
                Some(buffer) => Some((path, buffer.text.clone())),
                None => {
                    let text = std::fs::read_to_string(&path).ok()?;
                    Some((path, text))
                }
            }
        };
        match request.method.as_str() {
            HoverRequest::METHOD => respond::<HoverRequest>(request, |params| {
                let at = params.text_document_position_params;
                let (path, text) = text_of(&at.text_document.uri)?;
                snapshot.hover(&path, &text, at.position)
            }),
            GotoDefinition::METHOD => respond::<GotoDefinition>(request, |params| {
                let at = params.text_document_position_params;
                let (path, text) = text_of(&at.text_document.uri)?;
                snapshot
                    .definition(&path, &text, at.position)
                    .map(lsp_types::GotoDefinitionResponse::Scalar)
            }),
            Completion::METHOD => respond::<Completion>(request, |params| {
                let at = params.text_document_position;
                let (path, text) = text_of(&at.text_document.uri)?;
                let items = snapshot.completion(&path, &text, at.position);
                Some(lsp_types::CompletionResponse::Array(items))
            }),
            CodeActionRequest::METHOD => respond::<CodeActionRequest>(request, |params| {
                let uri = params.text_document.uri;
                let (path, text) = text_of(&uri)?;
                let actions = snapshot.code_actions(&uri, &path, &text, params.range);
                Some(
                    actions
                        .into_iter()
                        .map(lsp_types::CodeActionOrCommand::CodeAction)
                        .collect::<Vec<_>>(),
                )
            }),
            _ => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("rulebook lsp does not answer `{}`", request.method),
            ),
        }
    }

    /// Takes every buffer off the file system's overlay (the server is leaving).
    fn forget_buffers(&mut self) {
        for buffer in self.buffers.values() {
            buffer.forget();
        }
        self.buffers.clear();
    }
}

/// A notification's parameters, or `None` when the client sent malformed ones (ignored,
/// as the protocol asks of notifications).
fn params<N: lsp_types::notification::Notification>(
    notification: Notification,
) -> Option<N::Params> {
    notification.extract(N::METHOD).ok()
}

/// Answers a request of type `R` with `answer` (a `None` is the protocol's `null`); the
/// client's malformed parameters are an `InvalidParams` error that says why.
fn respond<R: lsp_types::request::Request>(
    request: Request,
    answer: impl FnOnce(R::Params) -> R::Result,
) -> Response
where
    R::Result: serde::Serialize,
{
    let id: RequestId = request.id.clone();
    match request.extract::<R::Params>(R::METHOD) {
        Ok((id, params)) => {
            let result = answer(params);
            Response::new_ok(id, result)
        }
        Err(lsp_server::ExtractError::JsonError { error, .. }) => Response::new_err(
            id,
            ErrorCode::InvalidParams as i32,
            format!("the parameters of `{}` do not parse: {error}", R::METHOD),
        ),
        Err(lsp_server::ExtractError::MethodMismatch(_)) => Response::new_err(
            id,
            ErrorCode::MethodNotFound as i32,
            format!("expected `{}`", R::METHOD),
        ),
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    a == b || real(a) == real(b)
}

/// A `rulebook.toml` that cannot be used, on the line its message names.
fn config_diagnostic(error: &rulebook_check::config::ConfigError) -> lsp_types::Diagnostic {
    let number = |after: &str| -> Option<u32> {
        let at = error.message.find(after)? + after.len();
        let digits: String = error.message[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
    let line = number("line ").map_or(0, |l| l.saturating_sub(1));
    let column = number("column ").map_or(0, |c| c.saturating_sub(1));
    lsp_types::Diagnostic {
        range: Range::new(Position::new(line, column), Position::new(line, u32::MAX)),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("rulebook".to_owned()),
        message: format!("rulebook.toml is not used: {}", error.message),
        ..lsp_types::Diagnostic::default()
    }
}
