//! rulebook as a [Model Context Protocol](https://modelcontextprotocol.io) server: any
//! MCP-capable agent (Claude Code, Cursor, Codex, Cline, Zed, Windsurf, …) gets the
//! project's rules, in every format rulebook reads, without copying them into its own.
//!
//! What it serves, over stdio (`rulebook mcp`):
//! - **resources**: every readable rule as `rule://<name>` (`text/markdown`, with its
//!   description and size); `resources/read` returns the body exactly as `rulebook read`
//!   does; the template `rule://{name}` completes names; every skill as `skill://<name>`
//!   (its whole `SKILL.md`; `skill://<name>/<path>` reads a file of its folder, as
//!   `rulebook read` does), with the template `skill://{name}` (behaviour.md §14);
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

pub use server::{
    Changes, PROMPT, RulebookServer, SKILL_TEMPLATE, ServeOptions, Snapshot, TEMPLATE,
};
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
    let (errors_tx, errors_rx) = tokio::sync::mpsc::channel(stdio::MAX_QUEUED_ERRORS);
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
    // rmcp's side is closed now: the writer drains what is left and ends (a client that
    // no longer reads does not hold the exit past a moment).
    let _ = tokio::time::timeout(Duration::from_millis(200), writer).await;
    outcome
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

    use serde_json::{Value, json};
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    use super::*;

    type Pipe = tokio::io::DuplexStream;
    type PipeClient = Client<tokio::io::ReadHalf<Pipe>, tokio::io::WriteHalf<Pipe>>;
    type Session = tokio::task::JoinHandle<std::io::Result<()>>;

    /// A client on in-memory pipes to `server`, which serves until the client is dropped.
    fn connect(server: RulebookServer) -> (PipeClient, Session) {
        let (client, served) = tokio::io::duplex(1 << 20);
        let (from_server, to_server) = tokio::io::split(client);
        let (input, output) = tokio::io::split(served);
        let session = tokio::spawn(serve(server, input, output));
        let client = Client {
            to_server,
            lines: BufReader::new(from_server).lines(),
            next_id: 0,
        };
        (client, session)
    }

    struct Client<R, W> {
        to_server: W,
        lines: tokio::io::Lines<BufReader<R>>,
        next_id: u64,
    }

    impl<R: tokio::io::AsyncRead + Unpin, W: tokio::io::AsyncWrite + Unpin> Client<R, W> {
        async fn next(&mut self) -> Value {
            serde_json::from_str(&self.lines.next_line().await.unwrap().unwrap()).unwrap()
        }

        async fn call(&mut self, method: &str, params: Value) -> Value {
            self.next_id += 1;
            let line =
                json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
            self.to_server
                .write_all(format!("{line}\n").as_bytes())
                .await
                .unwrap();
            loop {
                let reply = self.next().await;
                if reply["id"] == self.next_id {
                    return reply;
                }
            }
        }

        async fn initialize(&mut self) -> Value {
            self.call(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
            )
            .await
        }

        async fn send_notification(&mut self, method: &str) {
            let line = json!({"jsonrpc": "2.0", "method": method});
            self.to_server
                .write_all(format!("{line}\n").as_bytes())
                .await
                .unwrap();
        }
    }

    /// A provider whose `load` waits until the test opens its gate: a discovery that
    /// takes as long as the test wants, with no clock.
    struct Held {
        gate: std::sync::Arc<(std::sync::Mutex<bool>, std::sync::Condvar)>,
    }

    impl rulebook::Provider<rulebook::stages::kit::RuleCapability> for Held {
        fn info(&self) -> &rulebook::ProviderMeta {
            static INFO: rulebook::ProviderMeta =
                rulebook::ProviderMeta::new("held", "Held", "waits for the test", 60);
            &INFO
        }

        fn load(
            &self,
            _: &rulebook::LoadContext,
        ) -> Result<
            rulebook::stages::kit::LoadResult<rulebook::Rule>,
            rulebook::stages::kit::ProviderError,
        > {
            let (open, changed) = &*self.gate;
            let mut open = open.lock().unwrap();
            while !*open {
                open = changed.wait(open).unwrap();
            }
            Ok(rulebook::stages::kit::LoadResult::default())
        }
    }

    /// Opens the gate when dropped, so a failing test never leaves the discovery thread
    /// (shared by every server of the process) waiting.
    struct Opener(std::sync::Arc<(std::sync::Mutex<bool>, std::sync::Condvar)>);

    impl Opener {
        fn open(&self) {
            *self.0.0.lock().unwrap() = true;
            self.0.1.notify_all();
        }
    }

    impl Drop for Opener {
        fn drop(&mut self) {
            self.open();
        }
    }

    /// A project with one Cursor rule, `style` ("Tabs."), and a gate for [`Held`], open or
    /// shut, with the [`Opener`] that opens it when the test ends.
    fn style_project(
        open: bool,
    ) -> (
        tempfile::TempDir,
        std::path::PathBuf,
        std::sync::Arc<(std::sync::Mutex<bool>, std::sync::Condvar)>,
        Opener,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        std::fs::create_dir_all(project.join(".cursor/rules")).unwrap();
        std::fs::write(
            project.join(".cursor/rules/style.mdc"),
            "---\ndescription: Style\n---\nTabs.\n",
        )
        .unwrap();
        let gate = std::sync::Arc::new((std::sync::Mutex::new(open), std::sync::Condvar::new()));
        let opener = Opener(gate.clone());
        (dir, project, gate, opener)
    }

    /// `initialize` is answered at once: the first discovery runs in the background (at
    /// 100,000 rules it takes seconds), and a request for the rules waits for it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn initialize_is_answered_while_the_first_discovery_runs() {
        let (dir, project, gate, opener) = style_project(false);
        let options = rulebook::Options::new().provider(Held { gate });
        let home = dir.path().join("home");
        // Built off the runtime: a server that discovered before answering would wait here.
        let server = tokio::time::timeout(
            Duration::from_secs(60),
            tokio::task::spawn_blocking(move || {
                RulebookServer::new(
                    ServeOptions::new(&project)
                        .home(home)
                        .options(options)
                        .watch(false),
                )
            }),
        )
        .await
        .expect("the server is built before its discovery ends")
        .unwrap();
        let (mut client, _session) = connect(server);
        let init = tokio::time::timeout(Duration::from_secs(60), client.initialize())
            .await
            .expect("initialize is answered while the discovery is held");
        assert_eq!(init["result"]["serverInfo"]["name"], "rulebook", "{init}");
        opener.open();
        let listed = client.call("resources/list", json!({})).await;
        let uris: Vec<&str> = listed["result"]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["uri"].as_str())
            .collect();
        assert_eq!(uris, ["rule://style"], "{listed}");
    }

    /// A refresh never blocks a read: while a refresh's discovery is held (a save at
    /// 100,000 rules took a minute to refresh), `resources/read` is answered from the
    /// snapshot in place, and the refresh then swaps the new one in.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_read_is_answered_while_a_refresh_runs() {
        let (dir, project, gate, opener) = style_project(true);
        let server = RulebookServer::new(
            ServeOptions::new(&project)
                .home(dir.path().join("home"))
                .options(rulebook::Options::new().provider(Held { gate: gate.clone() }))
                .watch(false),
        );
        let (mut client, _session) = connect(server.clone());
        client.initialize().await;
        // The first discovery is in once the rules are listed.
        client.call("resources/list", json!({})).await;
        *gate.0.lock().unwrap() = false;
        std::fs::write(
            project.join(".cursor/rules/style.mdc"),
            "---\ndescription: Style\n---\nSpaces.\n",
        )
        .unwrap();
        let refreshing = server.clone();
        let refresh = tokio::task::spawn_blocking(move || refreshing.refresh());
        let read = tokio::time::timeout(
            Duration::from_secs(60),
            client.call("resources/read", json!({"uri": "rule://style"})),
        )
        .await
        .expect("a read is answered while the refresh is held");
        assert_eq!(read["result"]["contents"][0]["text"], "Tabs.", "{read}");
        assert!(!refresh.is_finished(), "the refresh was held");
        opener.open();
        let changes = refresh.await.unwrap();
        assert!(!changes.updated.is_empty(), "{changes:?}");
        let read = client
            .call("resources/read", json!({"uri": "rule://style"}))
            .await;
        assert_eq!(read["result"]["contents"][0]["text"], "Spaces.", "{read}");
    }

    /// Skills are resources too: listed after the rules, read whole through
    /// `skill://NAME` and `skill://NAME/PATH`, refused as `rulebook read` refuses, and their
    /// template completes names.
    #[tokio::test]
    async fn skills_are_resources() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        let pdf = project.join(".agents/skills/pdf");
        std::fs::create_dir_all(pdf.join("scripts")).unwrap();
        std::fs::write(
            pdf.join("SKILL.md"),
            "---\nname: pdf\ndescription: Read PDF files\n---\nRun scripts/x.sh.\n",
        )
        .unwrap();
        std::fs::write(pdf.join("scripts/x.sh"), "pdftotext\n").unwrap();
        let server = RulebookServer::new(
            ServeOptions::new(&project)
                .home(dir.path().join("home"))
                .watch(false),
        );
        let (mut client, _session) = connect(server);
        client.initialize().await;
        let listed = client.call("resources/list", json!({})).await;
        let resources = listed["result"]["resources"].as_array().unwrap();
        assert_eq!(resources.len(), 1, "{listed}");
        assert_eq!(resources[0]["uri"], "skill://pdf");
        assert_eq!(resources[0]["description"], "Read PDF files");
        let read = client
            .call("resources/read", json!({"uri": "skill://pdf"}))
            .await;
        assert_eq!(
            read["result"]["contents"][0]["text"],
            "---\nname: pdf\ndescription: Read PDF files\n---\nRun scripts/x.sh.\n"
        );
        let script = client
            .call("resources/read", json!({"uri": "skill://pdf/scripts/x.sh"}))
            .await;
        assert_eq!(script["result"]["contents"][0]["text"], "pdftotext\n");
        assert_eq!(script["result"]["contents"][0]["mimeType"], "text/plain");
        let refused = client
            .call("resources/read", json!({"uri": "skill://pdf/../../x"}))
            .await;
        assert_eq!(refused["error"]["code"], -32002);
        assert_eq!(
            refused["error"]["message"],
            "Path traversal (..) is not allowed in skill:// URLs"
        );
        let templates = client.call("resources/templates/list", json!({})).await;
        assert_eq!(
            templates["result"]["resourceTemplates"][1]["uriTemplate"],
            SKILL_TEMPLATE
        );
        let completed = client
            .call(
                "completion/complete",
                json!({"ref": {"type": "ref/resource", "uri": SKILL_TEMPLATE}, "argument": {"name": "name", "value": "skill://p"}}),
            )
            .await;
        assert_eq!(completed["result"]["completion"]["values"], json!(["pdf"]));
    }

    /// A session over in-memory pipes: every handler answers from a temporary project, and
    /// a change to a subscribed rule is notified.
    #[tokio::test]
    async fn a_session_over_pipes() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        let rules = project.join(".cursor/rules");
        std::fs::create_dir_all(&rules).unwrap();
        std::fs::write(
            rules.join("ts.mdc"),
            "---\ndescription: TypeScript\nglobs: src/**/*.ts\n---\nUse strict.\n",
        )
        .unwrap();
        std::fs::write(
            rules.join("sec.mdc"),
            "---\nalwaysApply: true\n---\nNo secrets.\n",
        )
        .unwrap();
        let server = RulebookServer::new(
            ServeOptions::new(&project)
                .home(dir.path().join("home"))
                .watch(false),
        );
        let (mut client, session) = connect(server.clone());
        let init = client.initialize().await;
        assert_eq!(init["result"]["serverInfo"]["name"], "rulebook");
        assert_eq!(
            init["result"]["capabilities"]["resources"]["subscribe"],
            true
        );

        let listed = client.call("resources/list", json!({})).await;
        let uris: Vec<&str> = listed["result"]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["uri"].as_str().unwrap())
            .collect();
        assert_eq!(uris, ["rule://ts", "rule://sec"]);
        assert_eq!(
            listed["result"]["resources"][0]["description"],
            "TypeScript"
        );
        assert_eq!(
            listed["result"]["resources"][0]["size"], 11,
            "the body, trimmed"
        );

        let read = client
            .call("resources/read", json!({"uri": "rule://ts"}))
            .await;
        assert_eq!(read["result"]["contents"][0]["text"], "Use strict.");
        assert_eq!(read["result"]["contents"][0]["mimeType"], "text/markdown");
        let missing = client
            .call("resources/read", json!({"uri": "rule://nope"}))
            .await;
        assert_eq!(missing["error"]["code"], -32002);

        let templates = client.call("resources/templates/list", json!({})).await;
        assert_eq!(
            templates["result"]["resourceTemplates"][0]["uriTemplate"],
            TEMPLATE
        );
        let completed = client.call(
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": TEMPLATE}, "argument": {"name": "name", "value": "t"}}),
        )
        .await;
        assert_eq!(completed["result"]["completion"]["values"], json!(["ts"]));
        assert_eq!(completed["result"]["completion"]["total"], 1);
        assert_eq!(completed["result"]["completion"]["hasMore"], false);
        let other = client.call(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "rules"}, "argument": {"name": "paths", "value": "s"}}),
        )
        .await;
        assert_eq!(other["result"]["completion"]["values"], json!([]));

        let prompts = client.call("prompts/list", json!({})).await;
        assert_eq!(prompts["result"]["prompts"][0]["name"], PROMPT);
        let plain = client.call("prompts/get", json!({"name": "rules"})).await;
        let with = client
            .call(
                "prompts/get",
                json!({"name": "rules", "arguments": {"paths": "src/a.ts"}}),
            )
            .await;
        let text = |v: &Value| {
            v["result"]["messages"][0]["content"]["text"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        assert!(text(&plain).contains("No secrets.") && !text(&plain).contains("Use strict."));
        assert!(text(&with).contains("Use strict."), "{}", text(&with));

        let tools = client.call("tools/list", json!({})).await;
        let names: Vec<&str> = tools["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["rules_for_paths", "explain", "check"]);
        let schemas = &tools["result"]["tools"];
        assert_eq!(schemas[0]["inputSchema"]["required"], json!(["paths"]));
        assert_eq!(
            schemas[0]["inputSchema"]["properties"]["paths"]["type"],
            "array"
        );
        assert_eq!(
            schemas[1]["inputSchema"]["properties"]["name"]["type"],
            "string"
        );
        assert_eq!(schemas[2]["inputSchema"]["additionalProperties"], false);
        // Each result holds what its output schema requires.
        let required = |i: usize| -> Vec<String> {
            schemas[i]["outputSchema"]["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(required(0), ["profile", "always_apply", "paths"]);
        assert_eq!(required(1), ["profile", "rules", "warnings"]);
        assert_eq!(
            required(2),
            ["failed", "errors", "warnings", "infos", "findings"]
        );
        assert_eq!(
            schemas[1]["outputSchema"]["properties"]["rules"]["items"]["properties"]["bucket"]["type"],
            json!(["string", "null"])
        );
        assert_eq!(
            schemas[2]["outputSchema"]["properties"]["findings"]["items"]["required"],
            json!(["severity", "code", "message"])
        );
        let applied = client
            .call(
                "tools/call",
                json!({"name": "rules_for_paths", "arguments": {"paths": ["src/a.ts"]}}),
            )
            .await;
        // The always-apply rule once, the glob match under the path.
        let always = &applied["result"]["structuredContent"]["always_apply"];
        assert_eq!(always[0]["name"], "sec");
        assert_eq!(always[0]["by"], "always-apply");
        let hits = &applied["result"]["structuredContent"]["paths"][0]["rules"];
        assert_eq!(hits[0]["name"], "ts");
        assert_eq!(hits[0]["glob"], "src/**/*.ts");
        assert_eq!(hits.as_array().unwrap().len(), 1);
        let explained = client
            .call(
                "tools/call",
                json!({"name": "explain", "arguments": {"name": "ts"}}),
            )
            .await;
        assert_eq!(
            explained["result"]["structuredContent"]["rules"][0]["bucket"],
            "rulebook"
        );
        let unknown = client
            .call(
                "tools/call",
                json!({"name": "explain", "arguments": {"name": "zz"}}),
            )
            .await;
        assert_eq!(unknown["result"]["isError"], true);
        let checked = client
            .call("tools/call", json!({"name": "check", "arguments": {}}))
            .await;
        assert_eq!(checked["result"]["structuredContent"]["failed"], false);
        for (i, reply) in [&applied, &explained, &checked].into_iter().enumerate() {
            for key in required(i) {
                assert!(
                    reply["result"]["structuredContent"].get(&key).is_some(),
                    "tool {i} lacks `{key}`"
                );
            }
        }

        // Subscribed, then changed: `updated`; unsubscribed: nothing for it.
        assert!(
            client
                .call("resources/subscribe", json!({"uri": "rule://ts"}))
                .await["result"]
                .is_object()
        );
        std::fs::write(
            rules.join("ts.mdc"),
            "---\ndescription: TypeScript\nglobs: src/**/*.ts\n---\nUse strict!\n",
        )
        .unwrap();
        let changes = server.refresh();
        assert_eq!(changes.updated, ["rule://ts"]);
        assert!(!changes.list_changed, "same size, same description");
        assert_eq!(server.subscribed(&changes.updated), ["rule://ts"]);
        server.notify(&changes).await;
        let note = client.next().await;
        assert_eq!(note["method"], "notifications/resources/updated");
        assert_eq!(note["params"]["uri"], "rule://ts");
        assert!(
            client
                .call("resources/unsubscribe", json!({"uri": "rule://ts"}))
                .await["result"]
                .is_object()
        );
        assert!(server.subscribed(&["rule://ts".to_owned()]).is_empty());

        // Only a rule's exact URI is taken; a made-up one,
        // one with a path after the name, or one past the length bound is refused, with the id.
        let long = format!("rule://{}", "x".repeat(9000));
        for (uri, code) in [
            ("rule://nope", -32002),
            ("rule://ts/../../x", -32602),
            (long.as_str(), -32602),
        ] {
            let refused = client
                .call("resources/subscribe", json!({"uri": uri}))
                .await;
            assert_eq!(refused["error"]["code"], code, "{uri:.40}: {refused}");
            assert!(refused["id"].is_number(), "{refused}");
        }
        assert!(server.subscribed(&["rule://nope".to_owned()]).is_empty());
        let read = client
            .call("resources/read", json!({"uri": "rule://ts/../../x"}))
            .await;
        assert_eq!(read["error"]["code"], -32602, "{read}");
        // The raw and the encoded spelling subscribe to the one rule.
        client
            .call("resources/subscribe", json!({"uri": "rule://%74s"}))
            .await;
        assert_eq!(server.subscribed(&["rule://ts".to_owned()]), ["rule://ts"]);

        drop(client);
        session.await.unwrap().unwrap();
    }

    /// The handshake alone is enough for notifications (the client's `initialized` makes
    /// the server remember it); completion answers only the template's `name`; a tool call
    /// takes at most `MAX_PATHS` paths.
    #[tokio::test]
    async fn notifications_after_the_handshake_completion_refs_and_the_paths_bound() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        let rules = project.join(".cursor/rules");
        std::fs::create_dir_all(&rules).unwrap();
        std::fs::write(rules.join("ts.mdc"), "---\ndescription: TS\n---\nA\n").unwrap();
        // More rules than one completion answer holds.
        for i in 0..=100 {
            std::fs::write(
                rules.join(format!("r{i:03}.mdc")),
                format!("---\ndescription: R{i}\n---\nR\n"),
            )
            .unwrap();
        }
        let server = RulebookServer::new(
            ServeOptions::new(&project)
                .home(dir.path().join("home"))
                .watch(false),
        );
        let (mut client, session) = connect(server.clone());
        client.initialize().await;
        client.send_notification("notifications/initialized").await;
        // The first discovery runs in the background: it is in once the rules are listed.
        server.current().await;
        // A new rule: the list changed, and the client hears it with no request of its own.
        std::fs::write(rules.join("new.mdc"), "---\ndescription: New\n---\nB\n").unwrap();
        // The `initialized` notification is handled on the server's own task: wait (a
        // bounded while) until it has been, then ask for the changes.
        for _ in 0..100 {
            if server.peer().is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let changes = server.refresh();
        assert!(changes.list_changed);
        server.notify(&changes).await;
        let note = tokio::time::timeout(Duration::from_secs(5), client.next())
            .await
            .expect("a notification after the handshake");
        assert_eq!(note["method"], "notifications/resources/list_changed");

        let complete = |uri: &str, argument: &str| json!({"ref": {"type": "ref/resource", "uri": uri}, "argument": {"name": argument, "value": "t"}});
        let values = |reply: &Value| reply["result"]["completion"]["values"].clone();
        let named = client
            .call("completion/complete", complete(TEMPLATE, "name"))
            .await;
        assert_eq!(values(&named), json!(["ts"]));
        for (uri, argument) in [(TEMPLATE, "other"), ("rule://ts", "name")] {
            let reply = client
                .call("completion/complete", complete(uri, argument))
                .await;
            assert_eq!(values(&reply), json!([]), "{uri} {argument}");
        }

        let all = client
            .call(
                "completion/complete",
                json!({"ref": {"type": "ref/resource", "uri": TEMPLATE}, "argument": {"name": "name", "value": "r"}}),
            )
            .await;
        assert_eq!(values(&all).as_array().unwrap().len(), 100);
        assert_eq!(all["result"]["completion"]["total"], 101);
        assert_eq!(all["result"]["completion"]["hasMore"], true);

        let prompt_paths =
            |n: usize| json!({"name": "rules", "arguments": {"paths": vec!["a.ts"; n].join("\n")}});
        let most = client
            .call("prompts/get", prompt_paths(view::MAX_PATHS))
            .await;
        assert!(most["result"]["messages"].is_array(), "{most}");
        let over = client
            .call("prompts/get", prompt_paths(view::MAX_PATHS + 1))
            .await;
        assert_eq!(over["error"]["code"], -32602);

        let paths =
            |n: usize| json!({"name": "rules_for_paths", "arguments": {"paths": vec!["a.ts"; n]}});
        let most = client.call("tools/call", paths(view::MAX_PATHS)).await;
        assert!(
            most["result"]["structuredContent"]["paths"].is_array(),
            "{most}"
        );
        let over = client.call("tools/call", paths(view::MAX_PATHS + 1)).await;
        assert_eq!(over["error"]["code"], -32602);

        drop(client);
        session.await.unwrap().unwrap();
    }

    /// Under the reference profile the prompt is served, and `paths` (which attaches rules
    /// by glob, never done there) is refused.
    #[tokio::test]
    async fn the_reference_prompt_refuses_paths_only() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        std::fs::create_dir_all(project.join(".cursor/rules")).unwrap();
        std::fs::write(
            project.join(".cursor/rules/a.mdc"),
            "---\nalwaysApply: true\n---\nAlways.\n",
        )
        .unwrap();
        let server = RulebookServer::new(
            ServeOptions::new(&project)
                .home(dir.path().join("home"))
                .options(rulebook::Options::new().profile(rulebook::Profile::Reference))
                .watch(false),
        );
        let (mut client, session) = connect(server);
        client.initialize().await;
        let plain = client.call("prompts/get", json!({"name": "rules"})).await;
        let text = plain["result"]["messages"][0]["content"]["text"]
            .as_str()
            .unwrap();
        assert!(text.contains("Always."), "{plain}");
        let with = client
            .call(
                "prompts/get",
                json!({"name": "rules", "arguments": {"paths": "src/a.ts"}}),
            )
            .await;
        assert_eq!(with["error"]["code"], -32602);
        drop(client);
        session.await.unwrap().unwrap();
    }

    /// A client may send its last request and close at once: the request is answered
    /// before the session ends. And with watching on, a change to a user-level rule (a
    /// directory outside the project) is noticed and notified.
    #[tokio::test]
    async fn the_last_request_is_answered_and_user_rules_are_watched() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        let home = dir.path().join("home");
        std::fs::create_dir_all(&project).unwrap();
        let user_rules = home.join(".xcsh/agent/rules");
        std::fs::create_dir_all(&user_rules).unwrap();
        std::fs::write(user_rules.join("u.md"), "---\ndescription: U\n---\nOne\n").unwrap();
        let options = || {
            ServeOptions::new(&project)
                .home(&home)
                .debounce(Duration::from_millis(50))
        };

        // The last request, then the end of input.
        let (client, session) = connect(RulebookServer::new(options().watch(false)));
        let Client {
            mut to_server,
            mut lines,
            ..
        } = client;
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
        let last = json!({"jsonrpc": "2.0", "id": 2, "method": "resources/list"});
        to_server
            .write_all(format!("{init}\n{last}\n").as_bytes())
            .await
            .unwrap();
        to_server.shutdown().await.unwrap();
        drop(to_server);
        let mut ids = Vec::new();
        while let Ok(Some(line)) = lines.next_line().await {
            let reply: Value = serde_json::from_str(&line).unwrap();
            ids.push(reply["id"].clone());
        }
        assert!(
            ids.contains(&json!(2)),
            "the last request was answered: {ids:?}"
        );
        session.await.unwrap().unwrap();

        // Watching: the user's rule changes, the client hears of it (a bounded wait).
        let (mut client, session) = connect(RulebookServer::new(options().watch(true)));
        client.initialize().await;
        client.send_notification("notifications/initialized").await;
        client
            .call("resources/subscribe", json!({"uri": "rule://u"}))
            .await;
        std::fs::write(user_rules.join("u.md"), "---\ndescription: U\n---\nTwo\n").unwrap();
        let note = tokio::time::timeout(Duration::from_secs(20), client.next())
            .await
            .expect("a change outside the project is watched");
        assert_eq!(note["method"], "notifications/resources/updated");
        assert_eq!(note["params"]["uri"], "rule://u");
        drop(client);
        session.await.unwrap().unwrap();
    }

    /// A project in a repository whose `.cursor/rules` holds `files`, served with live
    /// updates (a debounce of 50 ms, `hook` after each refresh) to a client that has
    /// initialized, once the watcher's first refresh (what changed while the watches were
    /// set) is over: `refreshed` counts what `hook` saw. The wait is a hang's deadline, not
    /// a timing. The folder, the rules folder, the server, its client and the session.
    async fn watched_cursor_rules(
        files: &[(&str, &str)],
        hook: fn(),
        refreshed: &std::sync::atomic::AtomicUsize,
    ) -> (
        tempfile::TempDir,
        std::path::PathBuf,
        RulebookServer,
        PipeClient,
        Session,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        let rules = project.join(".cursor/rules");
        std::fs::create_dir_all(&rules).unwrap();
        std::fs::create_dir_all(project.join(".git")).unwrap();
        for (name, text) in files {
            std::fs::write(rules.join(name), text).unwrap();
        }
        let server = RulebookServer::new(
            ServeOptions::new(&project)
                .home(dir.path().join("home"))
                .debounce(Duration::from_millis(50))
                .after_refresh(hook)
                .watch(true),
        );
        let (mut client, session) = connect(server.clone());
        client.initialize().await;
        client.send_notification("notifications/initialized").await;
        tokio::time::timeout(Duration::from_secs(20), async {
            while refreshed.load(std::sync::atomic::Ordering::SeqCst) == 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the first refresh ends");
        (dir, rules, server, client, session)
    }

    /// The next message of the server, within a hang's deadline.
    async fn noticed(client: &mut PipeClient) -> Value {
        tokio::time::timeout(Duration::from_secs(20), client.next())
            .await
            .expect("the change is noticed")
    }

    /// The address of the snapshot `server` holds now (the same address: put in place, not
    /// built anew).
    async fn held(server: &RulebookServer) -> usize {
        let server = server.clone();
        tokio::task::spawn_blocking(move || std::sync::Arc::as_ptr(&server.snapshot()) as usize)
            .await
            .unwrap()
    }

    /// A save through a temporary file renamed over the rule (as many editors save) is a
    /// change of the rule's text: the subscriber hears of it, and the rule is put in place
    /// in the snapshot the server holds (the same one, not one built anew). The wait is a
    /// hang's deadline, not a timing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_save_through_a_renamed_file_updates_the_rule_in_place() {
        static REFRESHED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        fn bump() {
            REFRESHED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        let (_dir, rules, server, mut client, session) = watched_cursor_rules(
            &[("style.mdc", "---\nalwaysApply: true\n---\nOne\n")],
            bump,
            &REFRESHED,
        )
        .await;
        client
            .call("resources/subscribe", json!({"uri": "rule://style"}))
            .await;
        let held_before = held(&server).await;
        let tmp = rules.join(".style.mdc.tmp");
        std::fs::write(&tmp, "---\nalwaysApply: true\n---\nTwo\n").unwrap();
        std::fs::rename(&tmp, rules.join("style.mdc")).unwrap();
        let note = noticed(&mut client).await;
        assert_eq!(note["method"], "notifications/resources/updated");
        assert_eq!(note["params"]["uri"], "rule://style");
        let read = client
            .call("resources/read", json!({"uri": "rule://style"}))
            .await;
        assert_eq!(read["result"]["contents"][0]["text"], "Two");
        assert_eq!(
            held(&server).await,
            held_before,
            "the rule was put in place, not the snapshot built anew"
        );
        drop(client);
        session.await.unwrap().unwrap();
    }

    /// A rule file created beside the others of its folder, then deleted, is put in place
    /// in the snapshot the server holds: the list is a fresh discovery's each time, the new
    /// rule reads, a subscriber hears that it went.
    #[tokio::test]
    async fn a_rule_file_created_or_deleted_beside_others_is_put_in_place() {
        static REFRESHED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        fn bump() {
            REFRESHED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        let (_dir, rules, server, mut client, session) = watched_cursor_rules(
            &[
                ("a.mdc", "---\nalwaysApply: true\n---\nA\n"),
                ("c.mdc", "---\ndescription: c\n---\nC\n"),
            ],
            bump,
            &REFRESHED,
        )
        .await;
        // The URIs the server lists, and those a fresh discovery lists.
        let listed = |server: &RulebookServer| {
            let server = server.clone();
            tokio::task::spawn_blocking(move || {
                let uris = |r: &[view::RuleResource]| -> Vec<String> {
                    r.iter().map(|r| r.uri.clone()).collect()
                };
                (
                    uris(&server.snapshot().resources),
                    uris(&view::resources(&server.serve_options().discover())),
                )
            })
        };
        let held_before = held(&server).await;

        // A new rule between the two: listed where a fresh discovery lists it, and read.
        std::fs::write(rules.join("b.mdc"), "---\ndescription: b\n---\nB\n").unwrap();
        let note = noticed(&mut client).await;
        assert_eq!(note["method"], "notifications/resources/list_changed");
        let (now, fresh) = listed(&server).await.unwrap();
        assert_eq!(now, fresh);
        assert!(now.contains(&"rule://b".to_owned()), "{now:?}");
        let read = client
            .call("resources/read", json!({"uri": "rule://b"}))
            .await;
        assert_eq!(read["result"]["contents"][0]["text"], "B");
        assert_eq!(
            held(&server).await,
            held_before,
            "the rule was put in place, not the snapshot built anew"
        );

        // Deleted: gone from the list, and a subscriber told.
        client
            .call("resources/subscribe", json!({"uri": "rule://b"}))
            .await;
        std::fs::remove_file(rules.join("b.mdc")).unwrap();
        let note = noticed(&mut client).await;
        assert_eq!(note["method"], "notifications/resources/list_changed");
        let note = noticed(&mut client).await;
        assert_eq!(note["method"], "notifications/resources/updated");
        assert_eq!(note["params"]["uri"], "rule://b");
        let (now, fresh) = listed(&server).await.unwrap();
        assert_eq!(now, fresh);
        assert!(!now.contains(&"rule://b".to_owned()), "{now:?}");
        assert_eq!(
            held(&server).await,
            held_before,
            "the rule was taken out in place"
        );
        drop(client);
        session.await.unwrap().unwrap();
    }

    /// The hook of `ServeOptions::after_refresh` runs after each refresh of the watcher,
    /// before the client hears of it (`rulebook mcp` gives memory back there).
    #[tokio::test]
    async fn the_after_refresh_hook_runs_after_each_refresh() {
        static REFRESHED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        fn bump() {
            REFRESHED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        std::fs::create_dir_all(project.join(".cursor/rules")).unwrap();
        let (mut client, session) = connect(RulebookServer::new(
            ServeOptions::new(&project)
                .home(dir.path().join("home"))
                .debounce(Duration::from_millis(50))
                .after_refresh(bump)
                .watch(true),
        ));
        client.initialize().await;
        client.send_notification("notifications/initialized").await;
        client.call("resources/list", json!({})).await;
        std::fs::write(
            project.join(".cursor/rules/new.mdc"),
            "---\ndescription: New\n---\nB\n",
        )
        .unwrap();
        tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                if client.next().await["method"] == "notifications/resources/list_changed" {
                    return;
                }
            }
        })
        .await
        .expect("a new rule is noticed");
        assert!(REFRESHED.load(std::sync::atomic::Ordering::SeqCst) >= 1);
        drop(client);
        session.await.unwrap().unwrap();
    }

    /// Skills are watched too: a new skill in the project's `.agents/skills` is a
    /// new resource (`list_changed`), and a changed user skill (outside the project) is
    /// `updated` for a subscriber. The waits are a hang's deadline, not a timing.
    #[tokio::test]
    async fn skills_are_watched() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        let home = dir.path().join("home");
        let user = home.join(".agents/skills/style");
        std::fs::create_dir_all(&user).unwrap();
        std::fs::create_dir_all(project.join(".agents/skills")).unwrap();
        std::fs::write(user.join("SKILL.md"), "---\ndescription: Style\n---\nOne\n").unwrap();
        let (mut client, session) = connect(RulebookServer::new(
            ServeOptions::new(&project)
                .home(&home)
                .debounce(Duration::from_millis(50))
                .watch(true),
        ));
        client.initialize().await;
        client.send_notification("notifications/initialized").await;
        client
            .call("resources/subscribe", json!({"uri": "skill://style"}))
            .await;
        std::fs::write(user.join("SKILL.md"), "---\ndescription: Style\n---\nTwo\n").unwrap();
        let note = tokio::time::timeout(Duration::from_secs(20), client.next())
            .await
            .expect("a user skill is watched");
        assert_eq!(note["method"], "notifications/resources/updated");
        assert_eq!(note["params"]["uri"], "skill://style");
        let pdf = project.join(".agents/skills/pdf");
        std::fs::create_dir_all(&pdf).unwrap();
        std::fs::write(pdf.join("SKILL.md"), "---\ndescription: PDF\n---\nRead.\n").unwrap();
        let note = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                let note = client.next().await;
                if note["method"] == "notifications/resources/list_changed" {
                    return note;
                }
            }
        })
        .await
        .expect("a new project skill is noticed");
        assert_eq!(note["method"], "notifications/resources/list_changed");
        let listed = client.call("resources/list", json!({})).await;
        let uris: Vec<&str> = listed["result"]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["uri"].as_str().unwrap())
            .collect();
        assert_eq!(uris, ["skill://pdf", "skill://style"]);
        drop(client);
        session.await.unwrap().unwrap();
    }

    /// The watcher follows no link that discovery does not (a
    /// chain of 36 directory links, 2^18 paths when followed, once hung the handshake), and
    /// the session ends when input does. The deadline is a hang's, not a timing.
    #[cfg(unix)]
    #[tokio::test]
    async fn linked_directories_are_not_watched() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        std::fs::create_dir_all(project.join(".cursor/rules")).unwrap();
        std::fs::write(
            project.join(".cursor/rules/a.mdc"),
            "---\nalwaysApply: true\n---\nA\n",
        )
        .unwrap();
        for level in 0..=18 {
            std::fs::create_dir_all(project.join(format!("l{level}"))).unwrap();
        }
        for level in 0..18 {
            for name in ["x", "y"] {
                std::os::unix::fs::symlink(
                    format!("../l{}", level + 1),
                    project.join(format!("l{level}/{name}")),
                )
                .unwrap();
            }
        }
        let server = RulebookServer::new(
            ServeOptions::new(&project)
                .home(dir.path().join("home"))
                .debounce(Duration::from_millis(50)),
        );
        let (mut client, session) = connect(server);
        let ended = tokio::time::timeout(Duration::from_secs(30), async move {
            let init = client.initialize().await;
            assert_eq!(init["result"]["serverInfo"]["name"], "rulebook");
            let listed = client.call("resources/list", json!({})).await;
            assert_eq!(listed["result"]["resources"][0]["uri"], "rule://a");
            drop(client);
            session.await.unwrap().unwrap();
        })
        .await;
        assert!(
            ended.is_ok(),
            "the handshake or the end of the session hung"
        );
    }

    /// Files saved every 10 ms (one outside the rules, one a rule
    /// itself) do not starve the notification of another rule's change: it comes within
    /// debounce + `watch::MAX_SETTLE` (the deadline here is a hang's).
    #[tokio::test]
    async fn a_busy_project_does_not_starve_notifications() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        let rules = project.join(".cursor/rules");
        std::fs::create_dir_all(&rules).unwrap();
        std::fs::write(rules.join("u.mdc"), "---\ndescription: U\n---\nOne\n").unwrap();
        std::fs::write(rules.join("noise.mdc"), "---\ndescription: N\n---\na\n").unwrap();
        let server = RulebookServer::new(
            ServeOptions::new(&project)
                .home(dir.path().join("home"))
                .debounce(Duration::from_millis(50)),
        );
        let (mut client, session) = connect(server.clone());
        client.initialize().await;
        client.send_notification("notifications/initialized").await;
        client
            .call("resources/subscribe", json!({"uri": "rule://u"}))
            .await;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let noise = {
            let (stop, project, rules) = (stop.clone(), project.clone(), rules.clone());
            std::thread::spawn(move || {
                let mut i = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    i += 1;
                    std::fs::write(project.join("build.log"), i.to_string()).unwrap();
                    let body = if i % 2 == 0 { "a" } else { "b" };
                    std::fs::write(
                        rules.join("noise.mdc"),
                        format!("---\ndescription: N\n---\n{body}\n"),
                    )
                    .unwrap();
                    std::thread::sleep(Duration::from_millis(10));
                }
            })
        };
        // Let the noise run past several debounce times before the change.
        tokio::time::sleep(Duration::from_millis(300)).await;
        std::fs::write(rules.join("u.mdc"), "---\ndescription: U\n---\nTwo\n").unwrap();
        // A refresh may read the noisy rule half written (a `list_changed` then): wait for
        // the update of `u` itself.
        let note = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                let note = client.next().await;
                if note["method"] == "notifications/resources/updated" {
                    return note;
                }
            }
        })
        .await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        noise.join().unwrap();
        let note = note.expect("the change was notified while the project stayed busy");
        assert_eq!(note["params"]["uri"], "rule://u");
        drop(client);
        session.await.unwrap().unwrap();
    }
}
