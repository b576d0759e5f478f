//! The protocol layer: [`RulebookServer`] answers MCP requests from the current snapshot
//! of the rules ([`crate::view`] computes every answer), and swaps in a new snapshot when
//! the rule files change.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    CompletionInfo, ContentBlock, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    Implementation, JsonObject, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, Prompt, PromptArgument,
    PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Reference,
    Resource, ResourceContents, ResourceTemplate, ResourceUpdatedNotificationParam, Role,
    ServerCapabilities, ServerConfig, SubscribeRequestParams, Tool, ToolAnnotations,
    UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use rulebook::{Options, Profile, Rulebook};
use serde_json::{Value, json};

use crate::schema;
use crate::view::{self, MAX_PATHS, RuleResource};

/// The resource template every rule is read through.
pub const TEMPLATE: &str = "rule://{name}";

/// The resource template of a skill (behaviour.md §14); `skill://{name}/<path>` reads a file
/// of its folder.
pub const SKILL_TEMPLATE: &str = "skill://{name}";

/// Whether `uri` is a `skill://` URI (the scheme in any case).
fn is_skill_uri(uri: &str) -> bool {
    rulebook::skill_url_rest(uri).is_some()
}

/// The one prompt the server offers.
pub const PROMPT: &str = "rules";

/// How `rulebook mcp` runs: the project, the discovery options, and the watching.
#[derive(Clone)]
pub struct ServeOptions {
    pub(crate) cwd: PathBuf,
    pub(crate) home: Option<PathBuf>,
    pub(crate) options: Options,
    pub(crate) watch: bool,
    pub(crate) debounce: Duration,
    pub(crate) after_refresh: Option<fn()>,
}

impl ServeOptions {
    /// Serve the rules of the project at `cwd`, with the default options, watching the
    /// rule files and settling changes for 200 ms.
    pub fn new(cwd: impl Into<PathBuf>) -> Self {
        Self {
            cwd: cwd.into(),
            home: None,
            options: Options::new(),
            watch: true,
            debounce: Duration::from_millis(200),
            after_refresh: None,
        }
    }

    /// The home directory of user-level rules (default: the user's).
    #[must_use]
    pub fn home(mut self, home: impl Into<PathBuf>) -> Self {
        self.home = Some(home.into());
        self
    }

    /// Discovery options (profile, providers, limits).
    #[must_use]
    pub fn options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Whether to watch the rule files and notify the client of changes.
    #[must_use]
    pub fn watch(mut self, yes: bool) -> Self {
        self.watch = yes;
        self
    }

    /// How long the files must be quiet before a change is taken.
    #[must_use]
    pub fn debounce(mut self, quiet: Duration) -> Self {
        self.debounce = quiet;
        self
    }

    /// Calls `hook` on the discovery thread after each refresh of the watcher, once the new
    /// snapshot is in and the old one dropped: a process on glibc returns the memory the
    /// old snapshot freed with `malloc_trim` here (`rulebook mcp` does), which malloc
    /// otherwise keeps at the top of its heap.
    #[must_use]
    pub fn after_refresh(mut self, hook: fn()) -> Self {
        self.after_refresh = Some(hook);
        self
    }

    /// Runs discovery once, on the calling thread alone.
    pub fn discover(&self) -> Rulebook {
        Rulebook::discover(&self.cwd, self.home.as_deref(), &self.discovery_options())
    }

    /// The discovery options, run on one thread: the server discovers on its one worker
    /// thread (see `watch::Worker`) so that every snapshot comes from one malloc arena.
    /// Providers loaded on threads of their own allocate from the arena of each, and every
    /// arena kept the peak of the discoveries it served: at 10,000 rules the resident
    /// memory went from 48 to 118 MiB over 100 saves, against a flat 42 MiB on one thread.
    ///
    /// Each snapshot keeps how each rule file was loaded ([`Options::keep_reads`]), so a
    /// save that changed a rule's text alone is served by reading that file
    /// ([`RulebookServer::refresh_contents`]).
    fn discovery_options(&self) -> Options {
        self.options.clone().sequential(true).keep_reads(true)
    }
}

/// One discovery and what it serves.
#[derive(Debug)]
pub struct Snapshot {
    /// The rules.
    pub book: Rulebook,
    /// The readable rules as resources.
    pub resources: Vec<RuleResource>,
}

impl Snapshot {
    fn new(book: Rulebook) -> Self {
        let mut resources = view::resources(&book);
        resources.extend(view::skill_resources(&book));
        Self { book, resources }
    }
}

/// What changed between two snapshots, as MCP notifies it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// A resource came, went, or changed its name, description or size.
    pub list_changed: bool,
    /// The resources whose content changed or that went away, by URI.
    pub updated: Vec<String>,
}

impl Changes {
    /// What changed from `old` to `new`: one pass over each, by URI (a snapshot of
    /// 100,000 rules is compared in linear time).
    fn between(old: &[RuleResource], new: &[RuleResource]) -> Self {
        fn listed(r: &RuleResource) -> (&String, &Option<String>, usize, &String) {
            (&r.uri, &r.description, r.size, &r.path)
        }
        let list_changed =
            old.len() != new.len() || old.iter().map(listed).ne(new.iter().map(listed));
        let by_uri: HashMap<&str, &RuleResource> =
            new.iter().map(|r| (r.uri.as_str(), r)).collect();
        let updated = old
            .iter()
            .filter(|o| {
                by_uri.get(o.uri.as_str()).is_none_or(|n| {
                    !std::sync::Arc::ptr_eq(&n.content, &o.content) && n.content != o.content
                })
            })
            .map(|o| o.uri.clone())
            .collect();
        Self {
            list_changed,
            updated,
        }
    }
}

struct Inner {
    serve: ServeOptions,
    /// The current snapshot: `None` until the first discovery, which runs in the
    /// background while the client initializes.
    state: RwLock<Option<Arc<Snapshot>>>,
    /// Said once the first snapshot is in.
    ready: Ready,
    /// Held while a refresh runs: refreshes follow one another, each compared with the
    /// snapshot it replaces.
    refreshing: Mutex<()>,
    peer: Mutex<Option<Peer<RoleServer>>>,
    subscriptions: Mutex<HashSet<String>>,
}

/// The MCP server: rules as `rule://` resources, the `rules` prompt, and the tools
/// `rules_for_paths`, `explain` and `check`. Cheap to clone (one shared state).
///
/// Every discovery runs on one thread of its own, so the snapshots come from one malloc
/// arena. A process that serves for long on glibc should also fix malloc's mapping
/// threshold (`mallopt(M_MMAP_THRESHOLD, 128 * 1024)`, as `rulebook mcp` does, or
/// `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072`): by default it rises with each
/// large block freed, and the resident memory then grows by about 30% over the first saves
/// before it levels off.
#[derive(Clone)]
pub struct RulebookServer {
    inner: Arc<Inner>,
}

/// Whether the first snapshot is in, for threads and for tasks to wait on.
#[derive(Default)]
struct Ready {
    done: Mutex<bool>,
    changed: std::sync::Condvar,
    notify: tokio::sync::Notify,
}

impl Ready {
    fn set(&self) {
        *self.done.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.changed.notify_all();
        self.notify.notify_waiters();
    }

    fn is_set(&self) -> bool {
        *self.done.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait_blocking(&self) {
        let mut done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
        while !*done {
            done = self
                .changed
                .wait(done)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    async fn wait(&self) {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.is_set() {
                return;
            }
            notified.await;
        }
    }
}

impl RulebookServer {
    /// Serves the rules: the first discovery starts at once, in the background, so the
    /// client's `initialize` is answered without waiting for it; a request that needs the
    /// rules waits for it.
    pub fn new(serve: ServeOptions) -> Self {
        let server = Self {
            inner: Arc::new(Inner {
                serve,
                state: RwLock::new(None),
                ready: Ready::default(),
                refreshing: Mutex::new(()),
                peer: Mutex::new(None),
                subscriptions: Mutex::new(HashSet::new()),
            }),
        };
        // On the thread every later refresh runs on (see `watch::Worker`).
        let first = server.clone();
        let started = crate::watch::Worker::get()
            .is_some_and(|worker| worker.start(move || first.first_discovery()));
        if !started {
            server.first_discovery();
        }
        server
    }

    /// The first discovery, and the word that it is in.
    fn first_discovery(&self) {
        let snapshot = Arc::new(Snapshot::new(self.inner.serve.discover()));
        *self
            .inner
            .state
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Some(snapshot);
        self.inner.ready.set();
    }

    /// The current snapshot (a request keeps the one it started with), once the first
    /// discovery is in: this blocks the calling thread until then (a task awaits
    /// [`RulebookServer::current`]).
    pub fn snapshot(&self) -> Arc<Snapshot> {
        loop {
            if let Some(snapshot) = self.loaded() {
                return snapshot;
            }
            self.inner.ready.wait_blocking();
        }
    }

    /// [`RulebookServer::snapshot`] for a task: waits for the first discovery without
    /// holding a thread.
    pub async fn current(&self) -> Arc<Snapshot> {
        loop {
            if let Some(snapshot) = self.loaded() {
                return snapshot;
            }
            self.inner.ready.wait().await;
        }
    }

    fn loaded(&self) -> Option<Arc<Snapshot>> {
        self.inner
            .state
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// How the server was started.
    pub fn serve_options(&self) -> &ServeOptions {
        &self.inner.serve
    }

    /// Discovers again and swaps the new snapshot in; what changed. Requests in flight
    /// finish on the snapshot they hold, and the lock requests take is held only for the
    /// swap: a save never blocks a request.
    pub fn refresh(&self) -> Changes {
        self.replace(|_, serve| serve.discover())
    }

    /// As [`RulebookServer::refresh`], when the rule files `changed` (already read) changed
    /// their content and no file or directory came, went or was renamed: the rules are read
    /// again over the walk of the current snapshot ([`Rulebook::rediscover`]), the tree is
    /// not walked again.
    ///
    /// When each file changed its rule's text alone, or its frontmatter but not its place
    /// ([`Rulebook::file_update`]), the snapshot is updated in place: only those files are
    /// read, and requests wait for no more than the swap of their rules. That needs the snapshot to be held by no
    /// request at that moment; else, and for any other change, a new snapshot is built.
    pub fn refresh_contents(&self, changed: impl IntoIterator<Item = PathBuf>) -> Changes {
        let changed: Vec<PathBuf> = changed.into_iter().collect();
        if let Some(changes) = self.update_in_place(&changed) {
            return changes;
        }
        self.replace(|current, serve| current.book.rediscover(&serve.discovery_options()))
    }

    /// The texts of `changed` put in place in the current snapshot, when that can be done
    /// (see [`RulebookServer::refresh_contents`]).
    fn update_in_place(&self, changed: &[PathBuf]) -> Option<Changes> {
        self.in_place(
            |book, options| book.file_update(options, changed),
            Self::put_update,
        )
    }

    /// One update in place: `read` makes it from the current snapshot's book (outside the
    /// state's lock: requests go on meanwhile), `put` puts it in the snapshot, which no
    /// request may hold then. Refreshes follow one another. `None` when either says no, or
    /// a request holds the snapshot.
    fn in_place<U, R>(
        &self,
        read: impl FnOnce(&Rulebook, &rulebook::Options) -> Option<U>,
        put: impl FnOnce(&mut Snapshot, U) -> Option<R>,
    ) -> Option<R> {
        let _one_at_a_time = self
            .inner
            .refreshing
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let update = read(&self.loaded()?.book, &self.inner.serve.discovery_options())?;
        let mut state = self
            .inner
            .state
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        put(Arc::get_mut(state.as_mut()?)?, update)
    }

    /// Puts a save's update ([`Rulebook::file_update`]) in the snapshot.
    fn put_update(snapshot: &mut Snapshot, update: rulebook::ContentUpdate) -> Option<Changes> {
        if update.moves() {
            return Self::move_in_place(snapshot, update);
        }
        // Each resource's new text and description, by the text it serves now.
        let mut replaced: HashMap<*const u8, (Arc<str>, Option<Option<String>>)> = update
            .replaced()
            .map(|(old, new)| (old.as_ptr(), (Arc::clone(new), None)))
            .collect();
        replaced.extend(update.reshaped().map(|(old, rule)| {
            (
                old.as_ptr(),
                (Arc::clone(&rule.content), Some(rule.description.clone())),
            )
        }));
        if !snapshot.book.apply_content_update(update) {
            return None;
        }
        let mut changes = Changes::default();
        for resource in &mut snapshot.resources {
            let Some((new, description)) = replaced.remove(&resource.content.as_ptr()) else {
                continue;
            };
            if *new != *resource.content {
                changes.updated.push(resource.uri.clone());
            }
            changes.list_changed |= new.len() != resource.size;
            if let Some(description) = description {
                changes.list_changed |= description != resource.description;
                resource.description = description;
            }
            resource.size = new.len();
            resource.content = new;
        }
        Some(changes)
    }

    /// Builds the next snapshot from the current one with `next`, compares the two, and
    /// swaps the new one in.
    fn replace(&self, next: impl FnOnce(&Snapshot, &ServeOptions) -> Rulebook) -> Changes {
        let _one_at_a_time = self
            .inner
            .refreshing
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let current = self.snapshot();
        let next = Arc::new(Snapshot::new(next(&current, &self.inner.serve)));
        let changes = Changes::between(&current.resources, &next.resources);
        *self
            .inner
            .state
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Some(next);
        changes
    }

    /// The subscribed URIs among `uris`.
    pub fn subscribed(&self, uris: &[String]) -> Vec<String> {
        let subscriptions = self
            .inner
            .subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        uris.iter()
            .filter(|u| subscriptions.contains(*u))
            .cloned()
            .collect()
    }

    /// Puts in place an update that moves rules to other buckets: their resources leave the
    /// list and come back where `rule://` now resolves them (the names of the active rules
    /// are unique, so a rule's place among them is its resource's). A linear pass, no list
    /// made again: requests wait for no more than it.
    fn move_in_place(snapshot: &mut Snapshot, update: rulebook::ContentUpdate) -> Option<Changes> {
        let names: Vec<String> = update.reshaped().map(|(_, r)| r.name.clone()).collect();
        let before = Self::rule_texts(snapshot, &names);
        if !snapshot.book.apply_content_update(update) {
            return None;
        }
        Some(Self::put_back(snapshot, &names, before))
    }

    /// The texts the resources of the rules `names` serve now, by name.
    fn rule_texts(snapshot: &Snapshot, names: &[String]) -> HashMap<String, Arc<str>> {
        snapshot
            .resources
            .iter()
            .filter(|r| names.contains(&r.name) && r.uri.starts_with("rule://"))
            .map(|r| (r.name.clone(), Arc::clone(&r.content)))
            .collect()
    }

    /// The resources of the rules `names` (which served the texts `before`) taken out of
    /// the list and put back where `rule://` now resolves them, the book already updated:
    /// a linear pass, no list made again. What changed.
    fn put_back(
        snapshot: &mut Snapshot,
        names: &[String],
        before: HashMap<String, Arc<str>>,
    ) -> Changes {
        snapshot
            .resources
            .retain(|r| !(names.contains(&r.name) && r.uri.starts_with("rule://")));
        let mut back: Vec<(usize, RuleResource)> = snapshot
            .book
            .resolvable()
            .into_iter()
            .enumerate()
            .filter(|(_, rule)| names.contains(&rule.name))
            .map(|(at, rule)| (at, view::resource(&snapshot.book, rule)))
            .collect();
        back.sort_by_key(|(at, _)| *at);
        let mut changes = Changes {
            list_changed: true,
            updated: Vec::new(),
        };
        let mut resolved = HashSet::new();
        for (at, resource) in back {
            if before
                .get(&resource.name)
                .is_some_and(|old| *old != resource.content)
            {
                changes.updated.push(resource.uri.clone());
            }
            resolved.insert(resource.name.clone());
            let at = at.min(snapshot.resources.len());
            snapshot.resources.insert(at, resource);
        }
        // A rule no longer resolved is gone for a subscriber too.
        for (name, _) in before {
            if !resolved.contains(&name) {
                changes
                    .updated
                    .push(rulebook::stages::protocol::rule_uri(&name));
            }
        }
        changes
    }

    /// As [`RulebookServer::refresh`], when the files `made` were created (or written
    /// without having been read) and the files `gone` deleted, and no folder came or went:
    /// when each is a rule file beside others of its provider
    /// ([`Rulebook::files_update`]), the snapshot is updated in place, reading only the new
    /// files: the rules come and go, and their resources with them. That needs the snapshot
    /// to be held by no request at that moment; else, and for any other change, the tree
    /// is discovered anew.
    pub fn refresh_files(&self, made: &[PathBuf], gone: &[PathBuf]) -> Changes {
        self.files_in_place(made, gone)
            .map_or_else(|| self.refresh(), |(changes, _)| changes)
    }

    /// The files `made` and `gone` put in place in the current snapshot, when that can be
    /// done (see [`RulebookServer::refresh_files`]): what changed, and the files of the
    /// rules that came.
    pub(crate) fn files_in_place(
        &self,
        made: &[PathBuf],
        gone: &[PathBuf],
    ) -> Option<(Changes, Vec<PathBuf>)> {
        self.in_place(
            |book, options| book.files_update(options, made, gone),
            Self::put_files,
        )
    }

    /// Puts an update of files made and gone ([`Rulebook::files_update`]) in the
    /// snapshot: what changed, and the files of the rules that came.
    fn put_files(
        snapshot: &mut Snapshot,
        update: rulebook::FilesUpdate,
    ) -> Option<(Changes, Vec<PathBuf>)> {
        let names: Vec<String> = update
            .removed(&snapshot.book)
            .map(str::to_owned)
            .chain(update.added().map(|r| r.name.clone()))
            .collect();
        let read: Vec<PathBuf> = update.added().map(|r| r.path.clone()).collect();
        let before = Self::rule_texts(snapshot, &names);
        if !snapshot.book.apply_files_update(update) {
            return None;
        }
        if names.is_empty() {
            return Some((Changes::default(), read));
        }
        Some((Self::put_back(snapshot, &names, before), read))
    }

    /// The client, once it has initialized.
    pub(crate) fn peer(&self) -> Option<Peer<RoleServer>> {
        self.inner
            .peer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn remember_peer(&self, peer: &Peer<RoleServer>) {
        let mut slot = self
            .inner
            .peer
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(peer.clone());
        }
    }

    /// Sends the notifications `changes` call for: `list_changed`, and `updated` for
    /// each subscribed resource that changed.
    pub(crate) async fn notify(&self, changes: &Changes) {
        let Some(peer) = self.peer() else { return };
        if changes.list_changed {
            if let Err(err) = peer.notify_resource_list_changed().await {
                eprintln!("rulebook mcp: cannot notify the client: {err}");
                return;
            }
        }
        for uri in self.subscribed(&changes.updated) {
            if let Err(err) = peer
                .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                .await
            {
                eprintln!("rulebook mcp: cannot notify the client: {err}");
                return;
            }
        }
    }
}

/// `paths` of a tool call: an array of at most [`MAX_PATHS`] strings.
fn paths_argument(arguments: Option<&JsonObject>) -> Result<Vec<String>, ErrorData> {
    let bad = |message: String| ErrorData::invalid_params(message, None);
    let value = arguments
        .and_then(|a| a.get("paths"))
        .ok_or_else(|| bad("`paths` is required: an array of file paths".to_owned()))?;
    let items = value
        .as_array()
        .ok_or_else(|| bad("`paths` must be an array of strings".to_owned()))?;
    if items.len() > MAX_PATHS {
        return Err(bad(format!(
            "`paths` holds {} paths; at most {MAX_PATHS} per call",
            items.len()
        )));
    }
    items
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or_else(|| bad("`paths` must be an array of strings".to_owned()))
        })
        .collect()
}

/// Fails on arguments a tool does not take.
fn only_arguments(arguments: Option<&JsonObject>, known: &[&str]) -> Result<(), ErrorData> {
    if let Some(unknown) = arguments
        .into_iter()
        .flat_map(|a| a.keys())
        .find(|k| !known.contains(&k.as_str()))
    {
        return Err(ErrorData::invalid_params(
            format!("unknown argument `{}`", escape(unknown)),
            None,
        ));
    }
    Ok(())
}

/// Control characters written as escapes, and long values cut: text a client may show.
fn escape(text: &str) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == 200 {
            out.push('…');
            break;
        }
        if c.is_control() {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// The paths of the `rules` prompt's argument: one per line, or comma-separated.
fn prompt_paths(text: &str) -> Vec<String> {
    text.split(['\n', ','])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

fn structured<T: serde::Serialize>(value: &T, text: String) -> Result<CallToolResult, ErrorData> {
    let value = serde_json::to_value(value)
        .map_err(|e| ErrorData::internal_error(format!("cannot serialize: {e}"), None))?;
    let mut result = CallToolResult::structured(value);
    result.content.insert(0, ContentBlock::text(text));
    Ok(result)
}

fn rules_for_paths_text(answer: &view::RulesForPaths) -> String {
    let line = |text: &mut String, rule: &view::AppliedRule| {
        let how = rule.glob.as_deref().map_or_else(
            || "always-apply".to_owned(),
            |g| format!("by {}", escape(g)),
        );
        let read = rule
            .uri
            .as_deref()
            .map(|u| format!(", read {}", escape(u)))
            .unwrap_or_default();
        let scope = rule
            .scope
            .as_deref()
            .map(|s| format!(", {}", escape(s)))
            .unwrap_or_default();
        let _ = writeln!(
            text,
            "  {}  {how}  ({}, {}{scope}{read})",
            escape(&rule.name),
            rule.bucket.unwrap_or("no bucket"),
            escape(&rule.path),
        );
    };
    let mut text = String::new();
    if !answer.always_apply.is_empty() {
        text.push_str("Every path (always-apply):\n");
        for rule in &answer.always_apply {
            line(&mut text, rule);
        }
    }
    for file in &answer.paths {
        let _ = write!(text, "{}", escape(&file.path));
        if !file.inside_project {
            text.push_str("  (outside the project: no glob matches it)");
        }
        text.push('\n');
        if file.rules.is_empty() {
            text.push_str(if answer.always_apply.is_empty() {
                "  no rule applies\n"
            } else {
                "  no glob matches: the always-apply rules only\n"
            });
        }
        for rule in &file.rules {
            line(&mut text, rule);
        }
    }
    if let Some(cut) = &answer.cut {
        let _ = writeln!(
            text,
            "(answered {} of {} paths: {})",
            cut.paths_answered,
            cut.paths_asked,
            escape(&cut.reason)
        );
    }
    text
}

fn explain_text(answer: &view::Explanation) -> String {
    let mut text = String::new();
    for rule in &answer.rules {
        let place = match (rule.status, rule.bucket) {
            ("active", Some(bucket)) => bucket.to_owned(),
            ("active", None) => "no bucket".to_owned(),
            (status, _) => status.to_owned(),
        };
        let _ = write!(
            text,
            "{}  {place}  {} ({})",
            escape(&rule.name),
            escape(&rule.path),
            rule.provider
        );
        if let Some(reason) = &rule.reason {
            let _ = write!(text, ": {}", escape(reason));
        }
        if let Some(scope) = &rule.scope {
            let _ = write!(text, "; {}", escape(scope));
        }
        text.push('\n');
    }
    for warning in &answer.warnings {
        let _ = writeln!(text, "{}: {}", warning.severity, escape(&warning.message));
    }
    text
}

fn check_text(answer: &view::CheckSummary) -> String {
    let mut text = format!(
        "{} error(s), {} warning(s), {} info(s){}\n",
        answer.errors,
        answer.warnings,
        answer.infos,
        if answer.failed {
            ": `rulebook check` fails"
        } else {
            ""
        }
    );
    for f in &answer.findings {
        let place = match (&f.path, f.line) {
            (Some(path), Some(line)) => format!("{}:{line}: ", escape(path)),
            (Some(path), None) => format!("{}: ", escape(path)),
            _ => String::new(),
        };
        let _ = writeln!(
            text,
            "{place}{}[{}] {}",
            f.severity,
            f.code,
            escape(&f.message)
        );
    }
    text
}

impl ServerHandler for RulebookServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_completions()
                .enable_prompts()
                .enable_tools()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_resources_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new("rulebook", env!("CARGO_PKG_VERSION")))
        .with_instructions(
            "The project's rules, from every rule format its tools use (.cursor/rules, \
             .windsurf/rules, .clinerules, AGENTS.md, CLAUDE.md, .github/instructions, …). \
             Before you edit files, call `rules_for_paths` with them and read the rules it \
             names (rule://NAME). The `rules` prompt is the rules section of a system prompt.",
        )
    }

    async fn on_initialized(&self, ctx: NotificationContext<RoleServer>) {
        self.remember_peer(&ctx.peer);
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.remember_peer(&ctx.peer);
        let snapshot = self.current().await;
        Ok(ListResourcesResult::with_all_items(
            snapshot
                .resources
                .iter()
                .map(|r| {
                    let resource = Resource::new(r.uri.clone(), r.name.clone())
                        .with_mime_type(rulebook::stages::protocol::CONTENT_TYPE)
                        .with_size(r.size as u64);
                    let kind = if is_skill_uri(&r.uri) {
                        "Skill"
                    } else {
                        "Rule"
                    };
                    match &r.description {
                        Some(d) => resource.with_description(d.clone()),
                        None => resource.with_description(format!("{kind} from {}", r.path)),
                    }
                })
                .collect(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.remember_peer(&ctx.peer);
        let snapshot = self.current().await;
        let read = if is_skill_uri(&request.uri) {
            snapshot
                .book
                .resolve_skill(&request.uri)
                .map(|r| (r.content, r.mime_type))
                .map_err(|e| e.to_string())
        } else {
            exact_uri(&request.uri)?;
            snapshot
                .book
                .resolve(&request.uri)
                .map(|r| (r.content, r.content_type))
                .map_err(|e| e.to_string())
        };
        match read {
            Ok((content, mime_type)) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(content, request.uri.clone()).with_mime_type(mime_type),
            ])
            .into()),
            Err(err) => Err(ErrorData::resource_not_found(
                err.lines().map(escape).collect::<Vec<_>>().join("\n"),
                Some(json!({"uri": escape(&request.uri)})),
            )),
        }
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(TEMPLATE, "rule")
                .with_description("A project rule by name (complete `name` for the list)")
                .with_mime_type(rulebook::stages::protocol::CONTENT_TYPE),
            ResourceTemplate::new(SKILL_TEMPLATE, "skill")
                .with_description(
                    "A skill's SKILL.md by name (complete `name`); skill://NAME/PATH reads a file of its folder",
                )
                .with_mime_type("text/markdown"),
        ]))
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let names = match &request.r#ref {
            Reference::Resource(r) if r.uri == TEMPLATE && request.argument.name == "name" => {
                let snapshot = self.current().await;
                let (names, total) = view::complete(
                    &snapshot.book,
                    &request.argument.value,
                    CompletionInfo::MAX_VALUES,
                );
                let more = total > names.len();
                CompletionInfo::with_pagination(names, u32::try_from(total).ok(), more)
            }
            Reference::Resource(r)
                if r.uri == SKILL_TEMPLATE && request.argument.name == "name" =>
            {
                let snapshot = self.current().await;
                let (names, total) = view::complete_skills(
                    &snapshot.book,
                    &request.argument.value,
                    CompletionInfo::MAX_VALUES,
                );
                let more = total > names.len();
                CompletionInfo::with_pagination(names, u32::try_from(total).ok(), more)
            }
            _ => CompletionInfo::new(Vec::new()),
        };
        names
            .map(CompleteResult::new)
            .map_err(|e| ErrorData::internal_error(e, None))
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            PROMPT,
            Some(
                "The rules section of a system prompt: always-apply rules, the rules to read on demand, and (extended profile) the rules whose globs match `paths`",
            ),
            Some(vec![
                PromptArgument::new("paths")
                    .with_description(
                        "Files in play, one per line or comma-separated, relative to the project",
                    )
                    .with_required(false),
            ]),
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != PROMPT {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown prompt `{}`: the one prompt is `rules`",
                    escape(&request.name)
                ),
                None,
            ));
        }
        let paths = match request.arguments.as_ref().and_then(|a| a.get("paths")) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::String(text)) => prompt_paths(text),
            Some(_) => {
                return Err(ErrorData::invalid_params(
                    "`paths` is a string: paths one per line or comma-separated".to_owned(),
                    None,
                ));
            }
        };
        if paths.len() > MAX_PATHS {
            return Err(ErrorData::invalid_params(
                format!("`paths` names {} paths; at most {MAX_PATHS}", paths.len()),
                None,
            ));
        }
        let snapshot = self.current().await;
        if snapshot.book.profile() == Profile::Reference && !paths.is_empty() {
            return Err(ErrorData::invalid_params(
                "`paths` attaches rules by glob, which the reference profile never does".to_owned(),
                None,
            ));
        }
        let text = view::prompt(&snapshot.book, &paths);
        Ok(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
                .with_description(format!(
                    "The project's rules ({} readable)",
                    snapshot.resources.len()
                ))
                .into(),
        )
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let read_only = || ToolAnnotations::new().read_only(true);
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new(
                "rules_for_paths",
                "The rules that apply to these files: every always-apply rule, and the rules whose globs match (with the glob, the scope of a nested rule, and the rule:// URI to read it).",
                schema::rules_for_paths_input(),
            )
            .with_raw_output_schema(schema::rules_for_paths_output())
            .with_annotations(read_only()),
            Tool::new(
                "explain",
                "Why each rule file is or is not seen: its bucket, the rule that shadows it, why it is invalid; and the warnings of discovery. With `name`, only that rule's files.",
                schema::explain_input(),
            )
            .with_raw_output_schema(schema::explain_output())
            .with_annotations(read_only()),
            Tool::new(
                "check",
                "Lint the rule files as `rulebook check` does: errors, warnings and infos, each with its file and line.",
                schema::check_input(),
            )
            .with_raw_output_schema(schema::check_output())
            .with_annotations(read_only()),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.remember_peer(&ctx.peer);
        let arguments = request.arguments.as_ref();
        let snapshot = self.current().await;
        let result = match request.name.as_ref() {
            "rules_for_paths" => {
                only_arguments(arguments, &["paths"])?;
                let paths = paths_argument(arguments)?;
                let answer = view::rules_for_paths(&snapshot.book, &paths);
                structured(&answer, rules_for_paths_text(&answer))?
            }
            "explain" => {
                only_arguments(arguments, &["name"])?;
                let name = match arguments.and_then(|a| a.get("name")) {
                    None | Some(Value::Null) => None,
                    Some(Value::String(name)) => Some(name.as_str()),
                    Some(_) => {
                        return Err(ErrorData::invalid_params(
                            "`name` must be a string".to_owned(),
                            None,
                        ));
                    }
                };
                match view::explain(&snapshot.book, name) {
                    Some(answer) => structured(&answer, explain_text(&answer))?,
                    None => CallToolResult::error(vec![ContentBlock::text(format!(
                        "no rule file is named `{}`",
                        escape(name.unwrap_or_default())
                    ))]),
                }
            }
            "check" => {
                only_arguments(arguments, &[])?;
                let answer = view::check_rules(&snapshot.book);
                structured(&answer, check_text(&answer))?
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "unknown tool `{}`: rules_for_paths, explain or check",
                        escape(other)
                    ),
                    None,
                ));
            }
        };
        Ok(result.into())
    }

    #[allow(deprecated, reason = "resources/subscribe is what 2025 clients use")]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.remember_peer(&ctx.peer);
        // A skill's URI as listed (`skill://NAME`), or a rule's.
        let (name, uri) = if is_skill_uri(&request.uri) {
            let name = rulebook::skill_url_rest(&request.uri)
                .unwrap_or_default()
                .to_owned();
            (name, request.uri.clone())
        } else {
            let name = exact_uri(&request.uri)?;
            let uri = rulebook::stages::protocol::rule_uri(&name);
            (name, uri)
        };
        // Only a listed URI: a set of made-up URIs would grow without bound.
        if !self.current().await.resources.iter().any(|r| r.uri == uri) {
            let kind = if is_skill_uri(&uri) { "skill" } else { "rule" };
            return Err(ErrorData::resource_not_found(
                format!("no {kind} is named {}", escape(&name)),
                Some(json!({"uri": escape(&request.uri)})),
            ));
        }
        let mut subscriptions = self
            .inner
            .subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if subscriptions.len() >= MAX_SUBSCRIPTIONS && !subscriptions.contains(&uri) {
            return Err(ErrorData::invalid_params(
                format!("at most {MAX_SUBSCRIPTIONS} subscriptions are kept"),
                None,
            ));
        }
        subscriptions.insert(uri);
        Ok(())
    }

    #[allow(deprecated, reason = "resources/unsubscribe is what 2025 clients use")]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let uri = if is_skill_uri(&request.uri) {
            request.uri.clone()
        } else {
            rulebook::stages::protocol::rule_uri(&exact_uri(&request.uri)?)
        };
        self.inner
            .subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&uri);
        Ok(())
    }
}

/// The most subscriptions one session keeps.
pub(crate) const MAX_SUBSCRIPTIONS: usize = 10_000;

/// The longest URI a request may name (a rule's name is a file stem and directories).
pub(crate) const MAX_URI_LENGTH: usize = 8 * 1024;

/// The rule name of a URI that is exactly a rule's (`rule://<name>`, the name encoded or
/// raw), or `-32602 Invalid params` naming what is wrong: nothing after the name
/// (`rule://a/../../x` is not `a`'s URI), no URI longer than [`MAX_URI_LENGTH`].
fn exact_uri(uri: &str) -> Result<String, ErrorData> {
    if uri.len() > MAX_URI_LENGTH {
        return Err(ErrorData::invalid_params(
            format!(
                "uri: {} bytes, longer than the {MAX_URI_LENGTH} a rule's URI may be",
                uri.len()
            ),
            None,
        ));
    }
    let parsed = rulebook::RuleUrl::parse(uri).map_err(|err| {
        ErrorData::invalid_params(
            format!("uri: {}", escape(&err.to_string())),
            Some(json!({"uri": escape(uri)})),
        )
    })?;
    if !parsed.rest.is_empty() {
        return Err(ErrorData::invalid_params(
            format!(
                "uri: {} is not a rule's URI: nothing may follow the name (rule://<name>)",
                escape(uri)
            ),
            Some(json!({"uri": escape(uri)})),
        ));
    }
    Ok(parsed.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn resource(name: &str, content: &str) -> RuleResource {
        RuleResource {
            uri: rulebook::stages::protocol::rule_uri(name),
            name: name.to_owned(),
            description: None,
            size: content.len(),
            path: format!(".cursor/rules/{name}.mdc"),
            content: content.into(),
        }
    }

    #[test]
    fn nothing_changed_is_no_notification() {
        let a = [resource("a", "x"), resource("b", "y")];
        assert_eq!(Changes::between(&a, &a), Changes::default());
    }

    #[test]
    fn an_edit_of_the_same_size_updates_without_changing_the_list() {
        let old = [resource("a", "x"), resource("b", "y")];
        let new = [resource("a", "x"), resource("b", "z")];
        assert_eq!(
            Changes::between(&old, &new),
            Changes {
                list_changed: false,
                updated: vec!["rule://b".to_owned()],
            }
        );
    }

    #[test]
    fn a_new_longer_or_removed_rule_changes_the_list() {
        let old = [resource("a", "x"), resource("b", "y")];
        let added = [resource("a", "x"), resource("b", "y"), resource("c", "")];
        assert!(Changes::between(&old, &added).list_changed);
        assert!(Changes::between(&old, &added).updated.is_empty());
        let longer = [resource("a", "x"), resource("b", "yy")];
        assert_eq!(
            Changes::between(&old, &longer),
            Changes {
                list_changed: true,
                updated: vec!["rule://b".to_owned()],
            },
            "the listed size changed too"
        );
        let removed = [resource("b", "y")];
        assert_eq!(
            Changes::between(&old, &removed),
            Changes {
                list_changed: true,
                updated: vec!["rule://a".to_owned()],
            }
        );
    }

    #[test]
    fn resources_are_matched_by_uri_not_by_position() {
        let old = [resource("a", "x"), resource("b", "y"), resource("c", "z")];
        let moved = [resource("c", "z"), resource("a", "x"), resource("b", "w")];
        assert_eq!(
            Changes::between(&old, &moved),
            Changes {
                list_changed: true,
                updated: vec!["rule://b".to_owned()],
            },
            "a new order is a new list; only b's content changed"
        );
    }

    #[test]
    fn a_save_that_keeps_a_rule_s_name_is_put_in_place_and_any_other_rebuilds_the_snapshot() {
        let dir = tempfile::tempdir().unwrap();
        let rule = dir.path().join("apps/api/.cursor/rules/api.mdc");
        let other = dir.path().join(".cursor/rules/other.mdc");
        std::fs::create_dir_all(rule.parent().unwrap()).unwrap();
        std::fs::create_dir_all(other.parent().unwrap()).unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::write(&rule, "---\nalwaysApply: true\n---\nREST.\n").unwrap();
        std::fs::write(&other, "---\nalwaysApply: true\n---\nOther.\n").unwrap();
        let server = RulebookServer::new(
            ServeOptions::new(dir.path())
                .home(dir.path().join("home"))
                .watch(false),
        );
        let content = |uri: &str| {
            server
                .snapshot()
                .resources
                .iter()
                .find(|r| r.uri == uri)
                .map(|r| r.content.to_string())
        };
        let uri = |path: &Path| {
            server
                .snapshot()
                .resources
                .iter()
                .find(|r| Path::new(&r.path).ends_with(path.strip_prefix(dir.path()).unwrap()))
                .map(|r| r.uri.clone())
                .unwrap()
        };
        let (rule_uri, other_uri) = (uri(&rule), uri(&other));
        std::fs::write(&rule, "---\nalwaysApply: true\n---\nGraphQL.\n").unwrap();
        std::fs::write(&other, "---\nalwaysApply: true\n---\nOther, saved.\n").unwrap();
        assert_eq!(
            server.refresh_contents([rule.clone()]),
            Changes {
                list_changed: true,
                updated: vec![rule_uri.clone()],
            }
        );
        assert_eq!(content(&rule_uri).as_deref(), Some("GraphQL."));
        // A file it was not told of is served as read before.
        assert_eq!(content(&other_uri).as_deref(), Some("Other."));
        assert_eq!(server.refresh_contents([rule.clone()]), Changes::default());
        assert!(server.refresh_contents([other.clone()]).updated == [other_uri.clone()]);
        assert_eq!(content(&other_uri).as_deref(), Some("Other, saved."));
        // In place: the snapshot is the same one.
        let before = server.snapshot();
        let before_ptr = Arc::as_ptr(&before);
        drop(before);
        std::fs::write(&rule, "---\nalwaysApply: true\n---\nSOAP.\n").unwrap();
        server.refresh_contents([rule.clone()]);
        assert_eq!(Arc::as_ptr(&server.snapshot()), before_ptr);
        assert_eq!(content(&rule_uri).as_deref(), Some("SOAP."));
        // A snapshot a request holds is not changed under it: a new one is built, and
        // every file is read again.
        let held = server.snapshot();
        std::fs::write(&rule, "---\nalwaysApply: true\n---\ngRPC.\n").unwrap();
        std::fs::write(&other, "---\nalwaysApply: true\n---\nOther, third.\n").unwrap();
        server.refresh_contents([rule.clone()]);
        assert!(!Arc::ptr_eq(&held, &server.snapshot()));
        assert_eq!(
            held.resources
                .iter()
                .find(|r| r.uri == rule_uri)
                .unwrap()
                .content
                .as_ref(),
            "SOAP."
        );
        drop(held);
        assert_eq!(content(&rule_uri).as_deref(), Some("gRPC."));
        assert_eq!(content(&other_uri).as_deref(), Some("Other, third."));
        // A frontmatter change that keeps the rule's place is put in place too (the nested
        // rule stays in the rulebook, scoped to its directory), its new description listed.
        let before_ptr = Arc::as_ptr(&server.snapshot());
        std::fs::write(&rule, "---\ndescription: API\n---\ngRPC.\n").unwrap();
        let changes = server.refresh_contents([rule]);
        assert_eq!(
            changes,
            Changes {
                list_changed: true,
                updated: Vec::new()
            }
        );
        assert_eq!(Arc::as_ptr(&server.snapshot()), before_ptr);
        let described = |uri: &str| {
            server
                .snapshot()
                .resources
                .iter()
                .find(|r| r.uri == uri)
                .and_then(|r| r.description.clone())
        };
        assert_eq!(described(&rule_uri).as_deref(), Some("API"));
        // One that moves it (always-apply to the rulebook) too: the list is made again.
        std::fs::write(&other, "---\ndescription: Other\n---\nOther, third.\n").unwrap();
        let changes = server.refresh_contents([other.clone()]);
        assert!(changes.list_changed, "{changes:?}");
        assert_eq!(Arc::as_ptr(&server.snapshot()), before_ptr);
        assert_eq!(described(&other_uri).as_deref(), Some("Other"));
        assert_eq!(server.snapshot().resources, fresh_resources(dir.path()));
        // A TTSR trigger is registered by discovery: a new snapshot.
        std::fs::write(&other, "---\ncondition: \"eval\\\\(\"\n---\nNo eval.\n").unwrap();
        server.refresh_contents([other]);
        assert_ne!(Arc::as_ptr(&server.snapshot()), before_ptr);
        assert_eq!(server.snapshot().resources, fresh_resources(dir.path()));
    }

    /// The resources a new server lists for `dir`.
    fn fresh_resources(dir: &Path) -> Vec<RuleResource> {
        let server =
            RulebookServer::new(ServeOptions::new(dir).home(dir.join("home")).watch(false));
        server.snapshot().resources.clone()
    }

    #[test]
    fn tool_arguments_are_checked() {
        let args = |v: Value| v.as_object().cloned();
        assert_eq!(
            paths_argument(args(json!({"paths": ["a", "b"]})).as_ref()).unwrap(),
            ["a", "b"]
        );
        assert!(paths_argument(None).is_err());
        assert!(paths_argument(args(json!({"paths": "a"})).as_ref()).is_err());
        assert!(paths_argument(args(json!({"paths": [1]})).as_ref()).is_err());
        let many = vec!["p"; MAX_PATHS + 1];
        assert!(paths_argument(args(json!({ "paths": many })).as_ref()).is_err());
        assert!(only_arguments(args(json!({"paths": []})).as_ref(), &["paths"]).is_ok());
        assert!(only_arguments(args(json!({"x": 1})).as_ref(), &["paths"]).is_err());
    }

    #[test]
    fn prompt_paths_split_on_lines_and_commas() {
        assert_eq!(
            prompt_paths("a.ts, b.ts\n c/d.ts \n\n"),
            ["a.ts", "b.ts", "c/d.ts"]
        );
        assert!(prompt_paths("  ").is_empty());
    }

    #[test]
    fn the_text_answers_say_what_the_structured_ones_hold() {
        let mut answer = view::RulesForPaths {
            profile: "extended",
            always_apply: vec![view::AppliedRule {
                name: "sec".to_owned(),
                by: "always-apply",
                glob: None,
                scope: None,
                bucket: None,
                provider: "cline".to_owned(),
                path: ".clinerules".to_owned(),
                uri: None,
            }],
            paths: vec![
                view::FileRules {
                    path: "src/a.ts".to_owned(),
                    inside_project: true,
                    rules: vec![view::AppliedRule {
                        name: "ts".to_owned(),
                        by: "glob",
                        glob: Some("src/**/*.ts".to_owned()),
                        scope: Some("applies under src/".to_owned()),
                        bucket: Some("rulebook"),
                        provider: "cursor".to_owned(),
                        path: ".cursor/rules/ts.mdc".to_owned(),
                        uri: Some("rule://ts".to_owned()),
                    }],
                },
                view::FileRules {
                    path: "/etc/x".to_owned(),
                    inside_project: false,
                    rules: vec![],
                },
            ],
            cut: None,
        };
        assert_eq!(
            rules_for_paths_text(&answer),
            "Every path (always-apply):\n  sec  always-apply  (no bucket, .clinerules)\nsrc/a.ts\n  ts  by src/**/*.ts  (rulebook, .cursor/rules/ts.mdc, applies under src/, read rule://ts)\n/etc/x  (outside the project: no glob matches it)\n  no glob matches: the always-apply rules only\n"
        );
        answer.always_apply.clear();
        assert!(
            rules_for_paths_text(&answer).ends_with(
                "/etc/x  (outside the project: no glob matches it)\n  no rule applies\n"
            )
        );
        let story = |status, bucket, reason: Option<&str>| view::RuleStory {
            name: "r".to_owned(),
            provider: "cursor".to_owned(),
            level: "project",
            path: ".cursor/rules/r.mdc".to_owned(),
            status,
            bucket,
            reason: reason.map(str::to_owned),
            scope: None,
            globs: vec![],
            description: None,
        };
        let explanation = view::Explanation {
            profile: "extended",
            rules: vec![
                story("active", Some("rulebook"), None),
                story("active", None, Some("no description")),
                story(
                    "shadowed",
                    None,
                    Some("shadowed by r (native, .xcsh/rules/r.md)"),
                ),
            ],
            warnings: vec![view::Finding {
                severity: "warning",
                code: "shadowed",
                path: None,
                line: None,
                message: "twice".to_owned(),
            }],
        };
        assert_eq!(
            explain_text(&explanation),
            "r  rulebook  .cursor/rules/r.mdc (cursor)\nr  no bucket  .cursor/rules/r.mdc (cursor): no description\nr  shadowed  .cursor/rules/r.mdc (cursor): shadowed by r (native, .xcsh/rules/r.md)\nwarning: twice\n"
        );
        let summary = view::CheckSummary {
            failed: true,
            errors: 1,
            warnings: 0,
            infos: 0,
            findings: vec![view::Finding {
                severity: "error",
                code: "wrong-type",
                path: Some("a.mdc".to_owned()),
                line: Some(3),
                message: "bad".to_owned(),
            }],
        };
        assert_eq!(
            check_text(&summary),
            "1 error(s), 0 warning(s), 0 info(s): `rulebook check` fails\na.mdc:3: error[wrong-type] bad\n"
        );
        let mut whole_file = summary.clone();
        whole_file.failed = false;
        whole_file.findings[0].line = None;
        assert_eq!(
            check_text(&whole_file),
            "1 error(s), 0 warning(s), 0 info(s)\na.mdc: error[wrong-type] bad\n"
        );
    }

    #[test]
    fn escape_shows_control_characters_and_cuts_long_text() {
        assert_eq!(escape("a\u{1b}[31m\u{0}"), "a\\u{1b}[31m\\u{0}");
        assert_eq!(escape(&"x".repeat(500)).chars().count(), 201);
    }
}
