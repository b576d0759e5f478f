//! A whole editor session against the server, in memory: the buffer's text (not the saved
//! file) is what the diagnostics describe, each finding sits on its key, a hover says what
//! each tool does with the file as `rulebook explain --as TOOL` does, and the links, keys
//! and fixes are the ones the file calls for.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};

/// A project with one file of each kind the server answers about.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    write(
        ".cursor/rules/ts.mdc",
        "---\ndescription: TypeScript\nglobs: src/*.ts\ntitle: TS\n---\nStrict.\n",
    );
    write(
        "CLAUDE.md",
        "# Memory\n\nSee @docs/style.md and @docs/missing.md here.\n",
    );
    write("docs/style.md", "Tabs.\n");
    write(
        ".claude/skills/deploy/SKILL.md",
        "---\nname: ship\ndescription: Deploys the app\n---\nRun make deploy.\n",
    );
    write(
        ".claude/rules/api.md",
        "---\npaths: src/*.ts, lib/*.ts\n---\nAPI rules.\n",
    );
    write("src/a.ts", "");
    write("src/b.ts", "");
    write("src/deep/c.ts", "");
    write("lib/d.ts", "");
    dir
}

struct Client {
    connection: Connection,
    next: i32,
    serving: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Client {
    fn start(root: &Path) -> Self {
        let (server, connection) = Connection::memory();
        let options = rulebook_lsp::ServeOptions::new(root)
            .home(root.join("no-home"))
            .debounce(Duration::from_millis(20));
        let serving = std::thread::spawn(move || rulebook_lsp::serve(server, options));
        let mut client = Self {
            connection,
            next: 0,
            serving: Some(serving),
        };
        let uri = url(root);
        let answer = client.request(
            "initialize",
            json!({"capabilities": {}, "rootUri": uri, "workspaceFolders": [{"uri": uri, "name": "p"}]}),
        );
        assert_eq!(answer["serverInfo"]["name"], "rulebook");
        client.notify("initialized", json!({}));
        client
    }

    fn notify(&self, method: &str, params: Value) {
        self.connection
            .sender
            .send(Notification::new(method.to_owned(), params).into())
            .unwrap();
    }

    /// Sends a request and waits for its answer (diagnostics published meanwhile are
    /// dropped: [`Client::diagnostics`] waits for those).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.connection
            .sender
            .send(Request::new(id.clone(), method.to_owned(), params).into())
            .unwrap();
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => {
                    assert!(r.error.is_none(), "{method}: {:?}", r.error);
                    return r.result.unwrap_or(Value::Null);
                }
                _ => {}
            }
        }
    }

    fn recv(&self) -> Message {
        self.connection
            .receiver
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s")
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&self, uri: &str) -> Vec<Value> {
        loop {
            if let Message::Notification(n) = self.recv() {
                if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri {
                    return n.params["diagnostics"].as_array().unwrap().clone();
                }
            }
        }
    }

    fn open(&self, path: &Path) -> String {
        let uri = url(path);
        let text = std::fs::read_to_string(path).unwrap();
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
        );
        uri
    }

    fn change(&self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn at(&mut self, method: &str, uri: &str, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        )
    }

    /// The code actions offered on lines `from..=to` of `uri`.
    fn actions(&mut self, uri: &str, from: u32, to: u32) -> Value {
        self.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": {"start": {"line": from, "character": 0}, "end": {"line": to, "character": 0}}, "context": {"diagnostics": []}}),
        )
    }

    fn finish(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.serving.take().unwrap().join().unwrap().unwrap();
    }
}

fn url(path: &Path) -> String {
    lsp_types::Url::from_file_path(path).unwrap().to_string()
}

fn labels_of(items: &Value) -> Vec<&str> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect()
}

fn codes(diagnostics: &[Value]) -> Vec<&str> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect()
}

#[test]
fn the_buffer_not_the_saved_file_is_what_the_findings_describe() {
    let dir = project();
    let client = Client::start(dir.path());
    let file = dir.path().join(".cursor/rules/ts.mdc");
    let uri = client.open(&file);
    let diagnostics = client.diagnostics(&uri);
    assert_eq!(codes(&diagnostics), ["unknown-key"]);
    let unknown = &diagnostics[0];
    // On the key itself (line 4, `title`), not on line 1.
    assert_eq!(
        unknown["range"],
        json!({"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 5}})
    );
    assert_eq!(unknown["severity"], 2);
    assert_eq!(unknown["source"], "rulebook");
    assert!(
        unknown["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .ends_with("enum.DiagnosticCode.html#variant.UnknownKey")
    );
    // The key removed in the buffer, not on disk: the finding goes.
    client.change(
        &uri,
        2,
        "---\ndescription: TypeScript\nglobs: src/*.ts\n---\nStrict.\n",
    );
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    assert!(std::fs::read_to_string(&file).unwrap().contains("title"));
    // A new unknown key typed: found again, where it was typed.
    client.change(
        &uri,
        3,
        "---\ndescription: TypeScript\nauthor: me\nglobs: src/*.ts\n---\nStrict.\n",
    );
    let diagnostics = client.diagnostics(&uri);
    assert_eq!(codes(&diagnostics), ["unknown-key"]);
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 2);
    client.finish();
}

#[test]
fn a_hover_says_what_each_tool_does_with_the_file() {
    let dir = project();
    let mut client = Client::start(dir.path());
    let file = dir.path().join("CLAUDE.md");
    let uri = client.open(&file);
    client.diagnostics(&uri);
    let hover = client.at("textDocument/hover", &uri, 0, 2);
    let text = hover["contents"]["value"].as_str().unwrap();
    // Each tool's own view decides, as `explain --as TOOL` says (held line by line against
    // the CLI by the end-to-end client test).
    assert!(
        text.contains("- **Claude Code** (verified) loaded: always, loaded whole at start ("),
        "{text}"
    );
    assert!(text.contains("bytes as saved, ~"), "{text}");
    assert!(text.contains("Not read by: "), "{text}");
    // An import: where it leads, and who imports it.
    let line = "See @docs/style.md and @docs/missing.md here.";
    let at = u32::try_from(line.find("style").unwrap()).unwrap();
    let hover = client.at("textDocument/hover", &uri, 2, at);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("docs/style.md"), "{text}");
    assert!(text.contains("**Claude Code**"), "{text}");
    let at = u32::try_from(line.find("missing").unwrap()).unwrap();
    let hover = client.at("textDocument/hover", &uri, 2, at);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("No such file"), "{text}");
    client.finish();
}

#[test]
fn a_glob_hover_counts_the_files_it_matches_now() {
    let dir = project();
    let mut client = Client::start(dir.path());
    let uri = client.open(&dir.path().join(".cursor/rules/ts.mdc"));
    client.diagnostics(&uri);
    let hover = client.at("textDocument/hover", &uri, 2, 9);
    let text = hover["contents"]["value"].as_str().unwrap();
    // `src/*.ts` holds src/a.ts and src/b.ts; `*` does not cross into src/deep.
    assert!(text.contains("`src/*.ts` matches 2 file(s)"), "{text}");
    assert_eq!(hover["range"]["start"], json!({"line": 2, "character": 7}));
    client.finish();
}

#[test]
fn imports_and_links_lead_to_their_files() {
    let dir = project();
    let mut client = Client::start(dir.path());
    let uri = client.open(&dir.path().join("CLAUDE.md"));
    client.diagnostics(&uri);
    let line = "See @docs/style.md and @docs/missing.md here.";
    let at = u32::try_from(line.find("style").unwrap()).unwrap();
    let found = client.at("textDocument/definition", &uri, 2, at);
    assert_eq!(found["uri"], url(&dir.path().join("docs/style.md")));
    let at = u32::try_from(line.find("missing").unwrap()).unwrap();
    assert_eq!(
        client.at("textDocument/definition", &uri, 2, at),
        Value::Null
    );
    // rule:// and skill:// links, written in any buffer.
    let notes = dir.path().join("NOTES.md");
    std::fs::write(&notes, "Read rule://ts then skill://ship.\n").unwrap();
    let notes_uri = client.open(&notes);
    let found = client.at("textDocument/definition", &notes_uri, 0, 8);
    assert_eq!(found["uri"], url(&dir.path().join(".cursor/rules/ts.mdc")));
    let found = client.at("textDocument/definition", &notes_uri, 0, 25);
    assert_eq!(
        found["uri"],
        url(&dir.path().join(".claude/skills/deploy/SKILL.md"))
    );
    client.finish();
}

#[test]
fn completion_offers_the_keys_and_values_of_the_files_format() {
    let dir = project();
    let mut client = Client::start(dir.path());
    let file = dir.path().join(".cursor/rules/ts.mdc");
    let uri = client.open(&file);
    client.diagnostics(&uri);
    let text = "---\ndescription: TypeScript\nglobs: src/*.ts\n\n---\nStrict.\n";
    client.change(&uri, 2, text);
    let items = client.at("textDocument/completion", &uri, 3, 0);
    let labels = labels_of(&items);
    // Cursor's keys, less those written already.
    assert!(labels.contains(&"alwaysApply"), "{labels:?}");
    assert!(!labels.contains(&"description"), "{labels:?}");
    assert!(!labels.contains(&"paths"), "{labels:?}");
    let text = "---\ndescription: TypeScript\nalwaysApply: \n---\nStrict.\n";
    client.change(&uri, 3, text);
    let items = client.at("textDocument/completion", &uri, 2, 13);
    let labels = labels_of(&items);
    assert_eq!(labels, ["true", "false"]);
    client.finish();
}

#[test]
fn quick_fixes_rewrite_what_can_be_rewritten_safely() {
    let dir = project();
    let mut client = Client::start(dir.path());
    // A skill named otherwise than its folder: named after it.
    let skill = dir.path().join(".claude/skills/deploy/SKILL.md");
    let uri = client.open(&skill);
    let diagnostics = client.diagnostics(&uri);
    assert!(
        codes(&diagnostics).contains(&"skill-name"),
        "{diagnostics:?}"
    );
    let actions = client.actions(&uri, 1, 1);
    let edit = &actions[0]["edit"]["changes"][&uri][0];
    assert_eq!(edit["newText"], " deploy");
    assert_eq!(edit["range"]["start"], json!({"line": 1, "character": 5}));
    // Claude's early one-string `paths`: a YAML list.
    let rule = dir.path().join(".claude/rules/api.md");
    let uri = client.open(&rule);
    let diagnostics = client.diagnostics(&uri);
    assert!(
        codes(&diagnostics).contains(&"tools-own-form"),
        "{diagnostics:?}"
    );
    let actions = client.actions(&uri, 1, 1);
    let edit = &actions[0]["edit"]["changes"][&uri][0];
    assert_eq!(
        edit["newText"],
        "paths:\n  - \"src/*.ts\"\n  - \"lib/*.ts\""
    );
    client.finish();
}

#[test]
fn a_quoted_glob_is_offered_where_yaml_cannot_read_it() {
    let dir = project();
    let windsurf: PathBuf = dir.path().join(".windsurf/rules/py.md");
    std::fs::create_dir_all(windsurf.parent().unwrap()).unwrap();
    std::fs::write(&windsurf, "---\ntrigger: glob\nglobs: *.py\n---\nPEP 8.\n").unwrap();
    let mut client = Client::start(dir.path());
    let uri = client.open(&windsurf);
    let diagnostics = client.diagnostics(&uri);
    let actions = client.actions(&uri, 0, 5);
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert!(
        titles.iter().any(|t| t.starts_with("Quote the glob")),
        "{diagnostics:?} {titles:?}"
    );
    client.finish();
}

#[test]
fn a_buffer_checked_alone_agrees_with_the_whole_project_checked_after() {
    let dir = project();
    // The same name in the native format: Cursor's file is shadowed by it, a finding that
    // involves the other file.
    let native = dir.path().join(".xcsh/rules/ts.md");
    std::fs::create_dir_all(native.parent().unwrap()).unwrap();
    std::fs::write(&native, "Native TypeScript rules.\n").unwrap();
    let client = Client::start(dir.path());
    let uri = client.open(&dir.path().join(".cursor/rules/ts.mdc"));
    let mut opened = codes(&client.diagnostics(&uri))
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    opened.sort();
    assert_eq!(opened, ["shadowed", "unknown-key"]);
    // The unknown key removed: checked alone first (the shadowing kept from the project),
    // then with the whole project once the buffers have been quiet; the two agree.
    client.change(
        &uri,
        2,
        "---\ndescription: TypeScript\nglobs: src/*.ts\n---\nStrict.\n",
    );
    let alone = client.diagnostics(&uri);
    assert_eq!(codes(&alone), ["shadowed"]);
    assert_eq!(
        alone[0]["relatedInformation"][0]["location"]["uri"],
        url(&native)
    );
    let whole = client.diagnostics(&uri);
    assert_eq!(alone, whole);
    client.finish();
}

#[test]
fn a_closed_buffer_is_read_from_disk_again_under_every_name() {
    let dir = project();
    let agents = dir.path().join("AGENTS.md");
    std::fs::write(&agents, "Saved.\n").unwrap();
    let link = dir.path().join("GEMINI.md");
    std::os::unix::fs::symlink(&agents, &link).unwrap();
    let client = Client::start(dir.path());
    let uri = client.open(&link);
    client.diagnostics(&uri);
    client.change(&uri, 2, "Typed, not saved.\n");
    client.diagnostics(&uri);
    let real = std::fs::canonicalize(&agents).unwrap();
    let overlay = rulebook::stages::fs::Overlay::get;
    assert_eq!(overlay(&real).as_deref(), Some(&b"Typed, not saved.\n"[..]));
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    client.diagnostics(&uri);
    assert_eq!(overlay(&link), None);
    assert_eq!(overlay(&real), None);
    client.finish();
}

#[test]
fn a_glob_counts_files_in_hidden_folders_too() {
    let dir = project();
    let rule = dir.path().join(".github/instructions/ci.instructions.md");
    std::fs::create_dir_all(rule.parent().unwrap()).unwrap();
    std::fs::write(
        &rule,
        "---\napplyTo: \".github/workflows/*.yml\"\n---\nPin actions.\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join(".github/workflows")).unwrap();
    for name in ["ci.yml", "release.yml"] {
        std::fs::write(
            dir.path().join(".github/workflows").join(name),
            "on: push\n",
        )
        .unwrap();
    }
    let mut client = Client::start(dir.path());
    let uri = client.open(&rule);
    client.diagnostics(&uri);
    let hover = client.at("textDocument/hover", &uri, 1, 14);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("matches 2 file(s)"), "{text}");
    client.finish();
}
