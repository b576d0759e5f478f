//! The stdio transport, framed by us: one JSON-RPC message per line. rmcp ignores a line
//! that is not JSON; JSON-RPC says to answer it, so every line is checked here first. A
//! line that is not JSON, or longer than [`MAX_LINE`], is answered with a parse error
//! (`-32700`, `id: null`) and the session goes on; the others go to rmcp. Standard output
//! carries only whole protocol lines, from one writer.

use serde_json::json;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The longest line taken, in bytes: rmcp's own bound (16 MiB), which drops a longer line
/// without a word; here it is answered with a parse error and skipped, never buffered
/// whole. A 10 MB argument fits.
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// A parse error's reply line.
fn parse_error(message: &str) -> Vec<u8> {
    let mut line = serde_json::to_vec(&json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": message}
    }))
    .unwrap_or_default();
    line.push(b'\n');
    line
}

/// An error reply to the request `id`.
fn error_reply(id: &serde_json::Value, code: i64, message: &str) -> Vec<u8> {
    let mut line = serde_json::to_vec(&json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message}
    }))
    .unwrap_or_default();
    line.push(b'\n');
    line
}

/// The parameters each method needs, `(field, JSON type)`: a request that lacks one (or
/// has it of another type) is answered `-32602 Invalid params` naming it, with its id.
/// rmcp answers such a request `-32601 Method not found` (and an invalid request
/// `-32600` without its id, so the client waits forever).
const REQUIRED_PARAMS: &[(&str, &[(&str, &str)])] = &[
    ("tools/call", &[("name", "string")]),
    ("prompts/get", &[("name", "string")]),
    ("resources/read", &[("uri", "string")]),
    ("resources/subscribe", &[("uri", "string")]),
    ("resources/unsubscribe", &[("uri", "string")]),
    (
        "completion/complete",
        &[("ref", "object"), ("argument", "object")],
    ),
];

/// The optional parameters checked for their type when present.
const OPTIONAL_PARAMS: &[(&str, &[(&str, &str)])] = &[
    ("tools/call", &[("arguments", "object")]),
    ("prompts/get", &[("arguments", "object")]),
];

/// `a string`, `an object`.
fn article(kind: &str) -> String {
    if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {kind}")
    } else {
        format!("a {kind}")
    }
}

fn json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

/// The error reply for a message rmcp would answer badly: an invalid request that has an
/// id (`-32600`, with the id), or a known method's parameters of the wrong shape
/// (`-32602`, naming the field). `None`: the message goes to rmcp.
fn precheck(message: &serde_json::Value) -> Option<Vec<u8>> {
    let object = message.as_object()?;
    let id = object.get("id").filter(|id| !id.is_null())?;
    if !matches!(
        id,
        serde_json::Value::String(_) | serde_json::Value::Number(_)
    ) {
        return Some(error_reply(
            &serde_json::Value::Null,
            -32600,
            "Invalid Request: id must be a string or a number",
        ));
    }
    if object.get("jsonrpc").and_then(serde_json::Value::as_str) != Some("2.0") {
        // rmcp drops such a message without a word: the client would wait for ever.
        return Some(error_reply(
            id,
            -32600,
            "Invalid Request: jsonrpc must be \"2.0\"",
        ));
    }
    if object.contains_key("result") || object.contains_key("error") {
        return None; // a response of the client's
    }
    let Some(method) = object.get("method") else {
        return Some(error_reply(id, -32600, "Invalid Request: no method"));
    };
    let Some(method) = method.as_str() else {
        return Some(error_reply(
            id,
            -32600,
            &format!(
                "Invalid Request: method must be a string, not {}",
                json_type(method)
            ),
        ));
    };
    let params = object.get("params");
    if let Some(params) = params.filter(|p| !p.is_object()) {
        return Some(error_reply(
            id,
            -32602,
            &format!(
                "Invalid params: params must be an object, not {}",
                json_type(params)
            ),
        ));
    }
    let lookup = |table: &[(&str, &'static [(&'static str, &'static str)])]| {
        table
            .iter()
            .find(|(m, _)| *m == method)
            .map_or(&[][..], |(_, fields)| *fields)
    };
    let wrong_type = |field: &str, kind: &str, value: &serde_json::Value| {
        error_reply(
            id,
            -32602,
            &format!(
                "Invalid params: params.{field} of {method} must be {}, not {}",
                article(kind),
                json_type(value)
            ),
        )
    };
    for &(field, kind) in lookup(REQUIRED_PARAMS) {
        match params.and_then(|p| p.get(field)) {
            None => {
                return Some(error_reply(
                    id,
                    -32602,
                    &format!("Invalid params: {method} needs params.{field} ({kind})"),
                ));
            }
            Some(value) if json_type(value) != kind => return Some(wrong_type(field, kind, value)),
            Some(_) => {}
        }
    }
    for &(field, kind) in lookup(OPTIONAL_PARAMS) {
        if let Some(value) = params.and_then(|p| p.get(field)) {
            if !value.is_null() && json_type(value) != kind {
                return Some(wrong_type(field, kind, value));
            }
        }
    }
    None
}

/// What one read of a line gave.
enum Line {
    /// A whole line (without its newline).
    Whole(Vec<u8>),
    /// A line longer than [`MAX_LINE`], skipped to its end.
    TooLong,
    /// The end of input.
    End,
}

async fn read_line<R: AsyncBufRead + Unpin>(reader: &mut R) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let (done, used) = {
            let chunk = reader.fill_buf().await?;
            if chunk.is_empty() {
                return Ok(match (too_long, line.is_empty()) {
                    (true, _) => Line::TooLong,
                    (false, true) => Line::End,
                    (false, false) => Line::Whole(line),
                });
            }
            let (part, done, used) = match chunk.iter().position(|&b| b == b'\n') {
                Some(at) => (&chunk[..at], true, at + 1),
                None => (chunk, false, chunk.len()),
            };
            if !too_long && line.len() + part.len() > MAX_LINE {
                // Too long: drop what was kept, and the rest as it comes.
                too_long = true;
                line = Vec::new();
            }
            if !too_long {
                line.extend_from_slice(part);
            }
            (done, used)
        };
        reader.consume(used);
        if done {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Whole(line)
            });
        }
    }
}

/// The most requests rmcp holds at once: one more waits in the input (which is then not
/// read) until a reply is written. A client that never reads its replies makes the server
/// hold at most this many, not every reply it asked for.
pub(crate) const MAX_IN_FLIGHT: usize = 32;

/// The most error replies waiting to be written: past it, the input is not read until the
/// client reads them (a flood of junk lines cannot queue without bound).
pub(crate) const MAX_QUEUED_ERRORS: usize = 64;

/// Reads `input` line by line: JSON lines go to `to_rmcp`, parse errors to `errors`.
/// Returns at the end of input (closing `to_rmcp`, which ends the session). At most
/// [`MAX_IN_FLIGHT`] requests are unanswered at once, and a full `errors` queue stops the
/// reading too: what waits to be written is bounded however slowly the client reads.
pub(crate) async fn pump_input<R, W>(
    input: R,
    mut to_rmcp: W,
    errors: mpsc::Sender<Vec<u8>>,
    pending: Pending,
    drain: std::time::Duration,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut handshake = false;
    loop {
        let line = match read_line(&mut reader).await {
            Ok(Line::End) | Err(_) => break,
            Ok(Line::TooLong) => {
                let _ = errors
                    .send(parse_error(&format!(
                        "Parse error: a message longer than {MAX_LINE} bytes"
                    )))
                    .await;
                continue;
            }
            Ok(Line::Whole(line)) => line,
        };
        let text = line.trim_ascii();
        if text.is_empty() {
            continue;
        }
        // Parsed whole (serde_json bounds the nesting): rmcp drops a line it cannot parse
        // without a word, so every such line is answered here.
        let Ok(message) = serde_json::from_slice::<serde_json::Value>(text) else {
            let _ = errors
                .send(parse_error("Parse error: the line is not JSON"))
                .await;
            continue;
        };
        if let Some(reply) = precheck(&message) {
            let _ = errors.send(reply).await;
            continue;
        }
        let request =
            message.get("id").is_some_and(|id| !id.is_null()) && message.get("method").is_some();
        if !handshake {
            // Before `initialize`, rmcp ends the session on a notification; a notification
            // has no answer, so it is dropped here instead.
            if !request && message.get("method").is_some() {
                continue;
            }
            handshake = request
                && message.get("method").and_then(serde_json::Value::as_str) == Some("initialize");
        }
        if request {
            pending.room(MAX_IN_FLIGHT).await;
            pending.started(&message["id"]);
        } else if message.get("method").and_then(serde_json::Value::as_str)
            == Some("notifications/cancelled")
        {
            // A cancelled request gets no reply (MCP): it is in flight no more.
            if let Some(id) = message.pointer("/params/requestId") {
                pending.answered(id);
            }
        }
        drop(message);
        if to_rmcp.write_all(text).await.is_err()
            || to_rmcp.write_all(b"\n").await.is_err()
            || to_rmcp.flush().await.is_err()
        {
            break;
        }
    }
    // rmcp ends the session, and drops the requests in flight, when its input ends: let
    // them be answered first (a client may send its last request and close at once).
    pending.settled(drain).await;
    let _ = to_rmcp.shutdown().await;
}

/// How long the requests in flight at the end of input may take to be answered: the
/// server exits within a second of its input closing, whatever is in flight.
pub(crate) const DRAIN: std::time::Duration = std::time::Duration::from_millis(700);

/// The requests sent to rmcp and not answered yet, by id (written as JSON: `1`, `"a"`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Pending(
    std::sync::Arc<(
        std::sync::Mutex<std::collections::HashSet<String>>,
        tokio::sync::Notify,
    )>,
);

impl Pending {
    fn ids(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<String>> {
        self.0
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn started(&self, id: &serde_json::Value) {
        self.ids().insert(id.to_string());
    }

    /// The request `id` was answered (or cancelled).
    pub(crate) fn answered(&self, id: &serde_json::Value) {
        let removed = self.ids().remove(&id.to_string());
        if removed {
            self.0.1.notify_waiters();
        }
    }

    fn len(&self) -> usize {
        self.ids().len()
    }

    /// Waits until fewer than `max` requests are in flight.
    async fn room(&self, max: usize) {
        loop {
            let notified = self.0.1.notified();
            if self.len() < max {
                return;
            }
            notified.await;
        }
    }

    /// Waits until every request is answered, or `limit` passes.
    async fn settled(&self, limit: std::time::Duration) {
        let _ = tokio::time::timeout(limit, self.room(1)).await;
    }
}

/// The id of a line rmcp wrote when it is a response (it has an `id` and no `method`),
/// judged on its head: rmcp writes `{"jsonrpc":"2.0","id":…` first.
fn response_id(line: &[u8]) -> Option<serde_json::Value> {
    let head = &line[..line.len().min(256)];
    let has = |needle: &[u8]| head.windows(needle.len()).position(|w| w == needle);
    if has(b"\"method\":").is_some() {
        return None;
    }
    let at = has(b"\"id\":")? + 5;
    serde_json::Deserializer::from_slice(&line[at..])
        .into_iter::<serde_json::Value>()
        .next()?
        .ok()
}

/// Writes rmcp's lines and the parse errors to `output`, a whole line at a time, until
/// rmcp's side closes.
pub(crate) async fn pump_output<R, W>(
    from_rmcp: R,
    mut output: W,
    mut errors: mpsc::Receiver<Vec<u8>>,
    pending: Pending,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut lines = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    loop {
        tokio::select! {
            read = lines.read_until(b'\n', &mut line) => {
                match read {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if !line.ends_with(b"\n") {
                            line.push(b'\n');
                        }
                        if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                            return;
                        }
                        if let Some(id) = response_id(&line) {
                            pending.answered(&id);
                        }
                        line.clear();
                    }
                }
            }
            Some(error) = errors.recv() => {
                if output.write_all(&error).await.is_err() || output.flush().await.is_err() {
                    return;
                }
            }
        }
    }
    while let Ok(error) = errors.try_recv() {
        let _ = output.write_all(&error).await;
    }
    let _ = output.flush().await;
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests fail loudly")]
    use super::*;

    async fn lines(input: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
        let (tx, mut rx) = mpsc::channel(MAX_QUEUED_ERRORS);
        let mut forwarded = Vec::new();
        let pending = Pending::default();
        pump_input(
            input,
            &mut forwarded,
            tx,
            pending.clone(),
            std::time::Duration::ZERO,
        )
        .await;
        let mut errors = Vec::new();
        while let Ok(e) = rx.try_recv() {
            errors.push(e);
        }
        (forwarded, errors)
    }

    #[tokio::test]
    async fn json_lines_pass_and_the_rest_is_answered() {
        let (forwarded, errors) = lines(
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\nnot json\n\n  [1,2]  \r\n{\"b\":\n{\"c\":2}",
        )
        .await;
        assert_eq!(
            forwarded,
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n[1,2]\n{\"c\":2}\n"
        );
        assert_eq!(
            errors.len(),
            2,
            "`not json` and `{{\"b\":` are parse errors"
        );
        let reply: serde_json::Value = serde_json::from_slice(&errors[0]).unwrap();
        assert_eq!(reply["error"]["code"], -32700);
        assert!(reply["id"].is_null());
    }

    /// An invalid request with an id is answered with its id
    /// (rmcp answered `-32600` with `id: null`, and the client waited forever); a known
    /// method's parameters of the wrong shape get `-32602` naming the field (rmcp said
    /// `-32601 Method not found`). Well-formed requests still go to rmcp.
    #[tokio::test]
    async fn malformed_requests_are_answered_with_their_id() {
        let input = concat!(
            r#"{"jsonrpc":"2.0","id":7}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":"s","method":5}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":5}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"check","arguments":[1]}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":11,"method":"prompts/get","params":[1]}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":12,"method":"resources/read","params":{"uri":"rule://a"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":13,"result":{}}"#,
            "\n",
        );
        let (forwarded, errors) = lines(input.as_bytes()).await;
        let replies: Vec<serde_json::Value> = errors
            .iter()
            .map(|e| serde_json::from_slice(e).unwrap())
            .collect();
        let got: Vec<(serde_json::Value, i64, String)> = replies
            .iter()
            .map(|r| {
                (
                    r["id"].clone(),
                    r["error"]["code"].as_i64().unwrap(),
                    r["error"]["message"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let want = [
            (json!(7), -32600, "Invalid Request: no method"),
            (
                json!("s"),
                -32600,
                "Invalid Request: method must be a string, not number",
            ),
            (
                json!(8),
                -32602,
                "Invalid params: params.name of tools/call must be a string, not number",
            ),
            (
                json!(9),
                -32602,
                "Invalid params: resources/read needs params.uri (string)",
            ),
            (
                json!(10),
                -32602,
                "Invalid params: params.arguments of tools/call must be an object, not array",
            ),
            (
                json!(11),
                -32602,
                "Invalid params: params must be an object, not array",
            ),
            (
                json!(null),
                -32600,
                "Invalid Request: id must be a string or a number",
            ),
        ];
        assert_eq!(got.len(), want.len(), "{got:#?}");
        for (got, want) in got.iter().zip(want) {
            assert_eq!((&got.0, got.1, got.2.as_str()), (&want.0, want.1, want.2));
        }
        let forwarded = String::from_utf8(forwarded).unwrap();
        assert_eq!(forwarded.lines().count(), 2, "{forwarded}");
        assert!(forwarded.contains(r#""id":12"#) && forwarded.contains(r#""id":13"#));
    }

    /// A request still in flight when the input ends is answered before rmcp's input is
    /// closed: rmcp drops what is in flight when its input ends, and a client may write its
    /// last request and close at once. (The clock is paused: the wait below is exact.)
    #[tokio::test(start_paused = true)]
    async fn rmcps_input_closes_only_once_the_requests_in_flight_are_answered() {
        use tokio::io::AsyncReadExt as _;
        let (to_rmcp, mut rmcp_side) = tokio::io::duplex(1 << 16);
        let (tx, _rx) = mpsc::channel(MAX_QUEUED_ERRORS);
        let pending = Pending::default();
        let input: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n";
        let pump = tokio::spawn(pump_input(
            input,
            to_rmcp,
            tx,
            pending.clone(),
            std::time::Duration::from_secs(3600),
        ));
        let mut got = vec![0; input.len()];
        rmcp_side.read_exact(&mut got).await.unwrap();
        assert_eq!(got, input);
        let mut rest = Vec::new();
        let waited = tokio::time::timeout(
            std::time::Duration::from_secs(60),
            rmcp_side.read_to_end(&mut rest),
        )
        .await;
        assert!(
            waited.is_err(),
            "rmcp's input closed with a request unanswered"
        );
        pending.answered(&serde_json::json!(1));
        rmcp_side.read_to_end(&mut rest).await.unwrap();
        assert!(rest.is_empty());
        pump.await.unwrap();
    }

    /// rmcp's side of the pipe, failing after `left` bytes, or at the flush.
    struct Failing {
        left: usize,
        flush_fails: bool,
    }

    impl AsyncWrite for Failing {
        fn poll_write(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &[u8],
        ) -> std::task::Poll<std::io::Result<usize>> {
            if self.left == 0 {
                return std::task::Poll::Ready(Err(std::io::ErrorKind::BrokenPipe.into()));
            }
            let n = buf.len().min(self.left);
            self.left -= n;
            std::task::Poll::Ready(Ok(n))
        }

        fn poll_flush(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(if self.flush_fails {
                Err(std::io::ErrorKind::BrokenPipe.into())
            } else {
                Ok(())
            })
        }

        fn poll_shutdown(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
    }

    /// Once rmcp's side is gone (the line, its newline or the flush fails), the rest of the
    /// input is not read: no parse error is answered for a line after that.
    #[tokio::test]
    async fn input_stops_at_the_first_failed_write_to_rmcp() {
        let request = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}";
        for (left, flush_fails) in [(0, false), (request.len(), false), (usize::MAX, true)] {
            let (tx, mut rx) = mpsc::channel(MAX_QUEUED_ERRORS);
            let mut input = request.to_vec();
            input.extend_from_slice(b"\nnot json\n");
            pump_input(
                &input[..],
                Failing { left, flush_fails },
                tx,
                Pending::default(),
                std::time::Duration::ZERO,
            )
            .await;
            assert!(
                rx.try_recv().is_err(),
                "a line after the failed write was read ({left} bytes taken, flush fails: {flush_fails})"
            );
        }
    }

    #[tokio::test]
    async fn notifications_before_initialize_are_dropped() {
        let (forwarded, errors) = lines(
            b"{\"method\":\"notifications/initialized\"}\n{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n{\"method\":\"notifications/initialized\"}\n",
        )
        .await;
        assert_eq!(
            forwarded,
            b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n{\"method\":\"notifications/initialized\"}\n"
        );
        assert!(errors.is_empty());
    }

    /// Before `initialize`, a request (`ping`) is forwarded but does not open the session:
    /// a notification after it is still dropped.
    #[tokio::test]
    async fn only_initialize_opens_the_session() {
        let (forwarded, _) = lines(
            b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n{\"method\":\"notifications/x\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n{\"method\":\"notifications/y\"}\n",
        )
        .await;
        assert_eq!(
            forwarded,
            b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n{\"method\":\"notifications/y\"}\n"
        );
    }

    /// A response has an `id` and no `method`; a notification or a request of the server's
    /// own is not one. Its id is read from the head of the line.
    #[test]
    fn responses_are_told_from_requests_and_notifications() {
        assert_eq!(
            response_id(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"),
            Some(serde_json::json!(1))
        );
        assert_eq!(
            response_id(b"{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"result\":{}}"),
            Some(serde_json::json!("a\"b"))
        );
        assert_eq!(
            response_id(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}"),
            None
        );
        assert_eq!(
            response_id(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}"),
            None
        );
    }

    /// A client that never reads its replies: at most [`MAX_IN_FLIGHT`] requests reach rmcp,
    /// and the input is read no further until one is answered (then one more goes).
    #[tokio::test]
    async fn requests_in_flight_are_bounded() {
        use tokio::io::AsyncReadExt as _;
        let mut input = Vec::new();
        for id in 0..MAX_IN_FLIGHT + 5 {
            input.extend_from_slice(
                format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n").as_bytes(),
            );
        }
        let (to_rmcp, mut rmcp_side) = tokio::io::duplex(1 << 20);
        let (tx, _rx) = mpsc::channel(MAX_QUEUED_ERRORS);
        let pending = Pending::default();
        let pump = tokio::spawn(pump_input(
            std::io::Cursor::new(input),
            to_rmcp,
            tx,
            pending.clone(),
            std::time::Duration::ZERO,
        ));
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert_eq!(pending.len(), MAX_IN_FLIGHT);
        pending.answered(&serde_json::json!(0));
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        assert_eq!(pending.len(), MAX_IN_FLIGHT, "one answered, one more sent");
        let mut buffer = vec![0; 1 << 16];
        let n = rmcp_side.read(&mut buffer).await.unwrap();
        let sent = buffer[..n].iter().filter(|&&b| b == b'\n').count();
        assert_eq!(sent, MAX_IN_FLIGHT + 1);
        // A cancellation takes its request out of flight too.
        pump.abort();
    }

    /// A flood of junk lines is answered, but at most [`MAX_QUEUED_ERRORS`] replies wait to
    /// be written: the input is not read further until the client takes them.
    #[tokio::test]
    async fn queued_error_replies_are_bounded() {
        let input = b"junk\n".repeat(10_000);
        let (tx, mut rx) = mpsc::channel(MAX_QUEUED_ERRORS);
        let pump = tokio::spawn(pump_input(
            std::io::Cursor::new(input),
            tokio::io::sink(),
            tx,
            Pending::default(),
            std::time::Duration::ZERO,
        ));
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert!(
            !pump.is_finished(),
            "the input was read past the queue's bound"
        );
        let mut replies = 0;
        while rx.recv().await.is_some() {
            replies += 1;
        }
        assert_eq!(replies, 10_000);
        pump.await.unwrap();
    }

    /// A request that is no JSON-RPC 2.0 (`"jsonrpc":"1.0"`) is answered with its id.
    #[test]
    fn another_jsonrpc_version_is_answered_with_the_id() {
        let reply =
            precheck(&serde_json::json!({"jsonrpc": "1.0", "id": 9, "method": "ping"})).unwrap();
        let reply: serde_json::Value = serde_json::from_slice(&reply).unwrap();
        assert_eq!(reply["id"], 9);
        assert_eq!(reply["error"]["code"], -32600);
    }

    /// Past rmcp's own bound a line would be dropped without a word: ours must not be larger.
    #[test]
    fn the_line_bound_is_rmcps() {
        assert_eq!(MAX_LINE, rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH);
    }

    #[tokio::test]
    async fn a_line_past_the_limit_is_skipped_not_buffered() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\n{\"ok\":true}\n");
        let (forwarded, errors) = lines(&input).await;
        assert_eq!(forwarded, b"{\"ok\":true}\n");
        assert_eq!(errors.len(), 1);
        assert!(String::from_utf8_lossy(&errors[0]).contains("longer than"));
    }

    /// A line of exactly `MAX_LINE` bytes is taken; one byte more is not.
    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_taken() {
        let line = |len: usize| {
            let head = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"pad\":\"";
            let mut l = head.to_vec();
            l.resize(len - 2, b'a');
            l.extend_from_slice(b"\"}");
            assert_eq!(l.len(), len);
            l
        };
        let mut input = line(MAX_LINE);
        input.push(b'\n');
        let (forwarded, errors) = lines(&input).await;
        assert!(errors.is_empty());
        assert_eq!(forwarded.len(), MAX_LINE + 1);
        let mut input = line(MAX_LINE + 1);
        input.push(b'\n');
        let (forwarded, errors) = lines(&input).await;
        assert!(forwarded.is_empty());
        assert_eq!(errors.len(), 1);
    }
}
