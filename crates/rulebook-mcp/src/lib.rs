//! rulebook as a [Model Context Protocol](https://modelcontextprotocol.io) server: any
//! MCP-capable agent (Claude Code, Cursor, Codex, Cline, Zed, Windsurf, …) gets the
//! project's rules, in every format rulebook reads, without copying them into its own.
//!
//! What it serves, over stdio (`rulebook mcp`):
//! - **resources**: every readable rule as `rule://<name>` (`text/markdown`, with its
//!   description and size); `resources/read` returns the body exactly as `rulebook read`
//!   does; the template `rule://{name}` completes names;
//! - **prompt** `rules` (optional argument `paths`): the rules section of a system prompt,
//!   the text `rulebook prompt` prints;
//! - **tools** `rules_for_paths`, `explain`, `check`: structured results (with their JSON
//!   schemas) and text;
//! - **live**: the rule files are watched; after a change settles, discovery runs again and
//!   the client gets `notifications/resources/list_changed` and `…/updated`.
//!
//! Malformed input gets a JSON-RPC error and the session goes on; standard output carries
//! only protocol lines; the server exits when standard input closes.
//!
//! Depends on the facade (`rulebook`), `rulebook-check`, `rmcp` (the official Rust SDK),
//! `tokio` and `notify`. The answers are computed by [`view`], plain functions over a
//! [`rulebook::Rulebook`]:
//!
//! ```
//! use rulebook::{Options, Rulebook};
//! use rulebook_mcp::view;
//!
//! let dir = std::env::temp_dir();
//! let book = Rulebook::discover(&dir, Some(&dir), &Options::new());
//! for resource in view::resources(&book) {
//!     println!("{} ({} bytes)", resource.uri, resource.size);
//! }
//! let answer = view::rules_for_paths(&book, &["src/main.rs".to_owned()]);
//! assert_eq!(answer.paths.len(), 1);
//! ```
//!
//! Serving (this blocks until standard input closes):
//!
//! ```no_run
//! let options = rulebook_mcp::ServeOptions::new(".");
//! rulebook_mcp::serve_stdio(options)?;
//! # Ok::<(), std::io::Error>(())
//! ```

mod schema;
mod server;
mod stdio;
pub mod view;
mod watch;

use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;

pub use server::{Changes, PROMPT, RulebookServer, ServeOptions, Snapshot, TEMPLATE};
pub use stdio::MAX_LINE;

/// Serves over standard input and output until standard input closes. Discovery runs
/// once before the first request; with watching on, again after each change.
pub fn serve_stdio(options: ServeOptions) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let result = runtime.block_on(serve(
        RulebookServer::new(options),
        tokio::io::stdin(),
        tokio::io::stdout(),
    ));
    // Standard input may still be held by a blocking read: do not wait for it.
    runtime.shutdown_timeout(Duration::from_millis(100));
    result
}

/// Serves `server` over a byte stream pair (standard input and output, or a test's pipes)
/// until `input` ends.
pub async fn serve<R, W>(server: RulebookServer, input: R, output: W) -> std::io::Result<()>
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (ours, theirs) = tokio::io::duplex(1 << 20);
    let (from_rmcp, to_rmcp) = tokio::io::split(ours);
    let (errors_tx, errors_rx) = tokio::sync::mpsc::unbounded_channel();
    let pending = stdio::Pending::default();
    let reader = tokio::spawn(stdio::pump_input(
        input,
        to_rmcp,
        errors_tx,
        pending.clone(),
        stdio::DRAIN,
    ));
    let writer = tokio::spawn(stdio::pump_output(from_rmcp, output, errors_rx, pending));
    let watcher = if server.serve_options().watch {
        watch::start(&server)
    } else {
        None
    };
    let outcome = match server.serve(theirs).await {
        Ok(running) => running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| std::io::Error::other(format!("the session ended badly: {e}"))),
        // Input ended before the handshake: nothing to serve.
        Err(ServerInitializeError::ConnectionClosed(_)) => Ok(()),
        Err(err) => Err(std::io::Error::other(format!(
            "the client did not initialize: {err}"
        ))),
    };
    drop(watcher);
    reader.abort();
    // rmcp's side is closed now: the writer drains what is left and ends.
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
    outcome
}
