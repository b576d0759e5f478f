//! `rulebook check` as a library: lint the rule files a [`Rulebook`] discovered, as a
//! team's CI and an editor want it. The `rulebook` CLI is one client of this crate.
//!
//! Each code has one severity ([`DiagnosticCode::severity`]), the same in the library's
//! diagnostics and here. An **error** is something that makes a rule not load, or not act
//! as its tool would act on it: a file that cannot be read or was refused, an empty body,
//! YAML that lost the types of its keys, a key of the wrong type, a condition or glob that
//! does not compile. A **warning** is worth fixing but changes nothing today (an unknown
//! key, a YAML value recovered as text, a rule no agent will see, a glob naming a
//! directory). An **info** is a fact (a format rulebook does not read yet, globs on an
//! always-apply rule, a name shadowed by higher precedence).
//! [`CheckOptions::strict`] makes warnings fail too; [`CheckOptions::select`] and
//! [`CheckOptions::ignore`] (and a project's `rulebook.toml`, [`config`]) choose the codes.
//!
//! `globs: *.ts,*.tsx` unquoted is how Cursor itself writes globs, and what Cursor matches:
//! for a Cursor rule it is not a finding, and check never advises quoting it. Unknown keys
//! are checked per provider, against the keys each provider declares it reads
//! ([`rulebook::ProviderMeta::known_keys`]). Conditions are checked with the TTSR manager's own
//! validation, so check and discovery never disagree on what compiles.
//!
//! Depends on `rulebook` (the pipeline), `serde` and `toml` (the configuration).
//!
//! ```
//! use rulebook::{Options, Rulebook, Severity};
//! use rulebook_check::{CheckOptions, check};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".cursor/rules"))?;
//! std::fs::write(dir.path().join(".cursor/rules/ts.mdc"), "---\nglobs: *.ts\ntitle: TS\n---\nStrict.")?;
//! let book = Rulebook::discover(dir.path(), Some(dir.path()), &Options::default());
//! let report = check(&book, &CheckOptions::new());
//! // `globs: *.ts` is Cursor's own format: no finding. `title` is unknown to Cursor.
//! assert!(report.findings.iter().all(|d| d.code.as_str() != "yaml-syntax"));
//! assert!(report.findings.iter().any(|d| d.code.as_str() == "unknown-key" && d.severity == Severity::Warning));
//! assert!(!report.failed());
//! assert!(check(&book, &CheckOptions::new().strict(true)).failed());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod config;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rulebook::stages::kit::coerce::key_line;
use rulebook::stages::rule::FrontmatterOutcome;
use rulebook::stages::ttsr::Validator;
use rulebook::{
    Diagnostic, DiagnosticCode, Host, HostDuplicate, HostOptions, HostView, Project, Rule,
    RuleBucket, Rulebook, Severity, SharedReads, UnquotedGlobs,
};

/// The severity of a finding of `code`: [`DiagnosticCode::severity`], the one table the
/// library and `check` share (see the module docs).
pub fn severity(code: DiagnosticCode) -> Severity {
    code.severity()
}

fn finding(code: DiagnosticCode, path: &Path, line: Option<usize>, message: String) -> Diagnostic {
    Diagnostic::new(code, message)
        .with_path(path)
        .at(line, line.map(|_| 1))
}

/// The lines of `text`'s frontmatter that write an unquoted glob: `globs: *.ts` or
/// `  - *.ts` under `globs:`.
fn unquoted_globs(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut lines = text.lines().enumerate();
    if !lines
        .next()
        .is_some_and(|(_, l)| l.trim_start_matches('\u{feff}').starts_with("---"))
    {
        return found;
    }
    let mut in_globs = false;
    for (i, line) in lines {
        if line.starts_with("---") {
            break;
        }
        if let Some(value) = line.strip_prefix("globs:") {
            in_globs = true;
            let value = value.trim();
            if value.starts_with('*') {
                found.push((i + 1, value.to_owned()));
            }
            continue;
        }
        if in_globs {
            let trimmed = line.trim_start();
            if let Some(item) = trimmed.strip_prefix("- ") {
                if item.trim_start().starts_with('*') {
                    found.push((i + 1, item.trim().to_owned()));
                }
                continue;
            }
            if !line.starts_with([' ', '\t']) {
                in_globs = false;
            }
        }
    }
    found
}

/// Which findings to report, and whether warnings fail.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    select: Vec<DiagnosticCode>,
    ignore: Vec<DiagnosticCode>,
    strict: bool,
    host: Option<Host>,
}

impl CheckOptions {
    /// Every code, warnings do not fail.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reports only these codes (empty: all).
    #[must_use]
    pub fn select(mut self, codes: impl IntoIterator<Item = DiagnosticCode>) -> Self {
        self.select = codes.into_iter().collect();
        self
    }

    /// Never reports these codes.
    #[must_use]
    pub fn ignore(mut self, codes: impl IntoIterator<Item = DiagnosticCode>) -> Self {
        self.ignore.extend(codes);
        self
    }

    /// Makes warnings fail the check too.
    #[must_use]
    pub fn strict(mut self, yes: bool) -> Self {
        self.strict = yes;
        self
    }

    /// Whether warnings fail.
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// Checks as one tool reads the project (`check --as TOOL`): only the files that tool
    /// reads here (in its own view, [`rulebook::emulate`]), and the text it loads twice.
    /// Without it, every rule file rulebook reads, and every tool's duplicates.
    #[must_use]
    pub fn host(mut self, host: Option<Host>) -> Self {
        self.host = host;
        self
    }

    /// Adds a `[check]` table of `rulebook.toml`: its ignores are added; its selection is
    /// used when none was given; `strict = true` turns strictness on.
    pub fn with_config(mut self, config: &config::CheckConfig) -> Result<Self, UnknownCode> {
        if self.select.is_empty() {
            self.select = parse_codes(&config.select)?;
        }
        self.ignore.extend(parse_codes(&config.ignore)?);
        self.strict |= config.strict;
        Ok(self)
    }

    /// Whether findings of `code` are reported (selected, or no selection, and not ignored).
    pub fn keeps(&self, code: DiagnosticCode) -> bool {
        (self.select.is_empty() || self.select.contains(&code)) && !self.ignore.contains(&code)
    }
}

/// A code name that is not one of [`DiagnosticCode::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl std::fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let known: Vec<&str> = DiagnosticCode::ALL.iter().map(|c| c.as_str()).collect();
        write!(
            f,
            "unknown code `{}`; the codes are {}",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownCode {}

/// Codes by their kebab-case names (blank names are skipped).
pub fn parse_codes(names: &[String]) -> Result<Vec<DiagnosticCode>, UnknownCode> {
    names
        .iter()
        .map(|n| n.trim())
        .filter(|n| !n.is_empty())
        .map(|n| DiagnosticCode::from_name(n).ok_or_else(|| UnknownCode(n.to_owned())))
        .collect()
}

/// What a check found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The findings, by file then line; findings about no file last.
    pub findings: Vec<Diagnostic>,
    /// How many rule files were checked: every file of the book, or with a tool
    /// ([`CheckOptions::host`]) the files that tool reads here.
    pub files: usize,
    /// Whether warnings fail.
    pub strict: bool,
}

impl Report {
    /// How many findings have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// Whether the check fails: an error, or (strict) a warning.
    pub fn failed(&self) -> bool {
        self.count(Severity::Error) > 0 || (self.strict && self.count(Severity::Warning) > 0)
    }
}

/// The tools whose views a check with `options` reads: the tool of
/// [`CheckOptions::host`], else every tool when `duplicate-load` is reported, else none.
pub fn view_hosts(options: &CheckOptions) -> Vec<Host> {
    match options.host {
        Some(host) => vec![host],
        None if options.keeps(DiagnosticCode::DuplicateLoad) => rulebook::tools().to_vec(),
        None => Vec::new(),
    }
}

/// The tools' views a check reads, made apart from the book: they read the tree on their
/// own, not through discovery, so a caller can make them beside discovery (on another
/// core) and hand them to [`check_with_views`]. `rulebook check` does.
#[derive(Debug, Clone)]
pub struct ToolViews {
    project: Project,
    hosts: Vec<Host>,
    views: Vec<HostView>,
    /// What each view loads twice ([`HostView::duplicates`]), found beside discovery too.
    duplicates: Vec<Vec<HostDuplicate>>,
}

impl ToolViews {
    /// The views of `hosts` in `project` (the one discovery will locate:
    /// [`rulebook::Located`]), one after another on this thread, and what each loads twice
    /// (the duplicate finding's groups). Of each file one of them reads, what the views
    /// after it and the duplicates ask is kept (that it reads, its length, the hash of its
    /// bytes: [`rulebook::stages::registry::Digest`]), not its bytes; each rules folder is
    /// walked once for them all.
    pub fn read(project: &Project, hosts: &[Host]) -> Self {
        // This thread's core is taken: a discovery beside it does not count on it.
        let _busy = rulebook::stages::registry::cores::Busy::enter();
        // A check reads what each tool loads, never the text it would show; a file's bytes
        // are not kept once read (no view of a check shows them), its digest is.
        let options = HostOptions::for_project(project.clone())
            .share_reads(Some(Arc::new(SharedReads::new(0))))
            .without_prompt(true);
        let views: Vec<HostView> = hosts
            .iter()
            .map(|&h| rulebook::emulate(h, &options))
            .collect();
        // The duplicates too, from what the views kept of each file: on this thread,
        // beside discovery, not after it.
        let duplicates = options.reading(|| views.iter().map(HostView::duplicates).collect());
        Self {
            project: project.clone(),
            hosts: hosts.to_vec(),
            views,
            duplicates,
        }
    }
}

/// Lints the rule files of `book`.
pub fn check(book: &Rulebook, options: &CheckOptions) -> Report {
    // The tools' views serve `--as` and the duplicate finding; without either, none is read.
    let hosts = view_hosts(options);
    // The views take the files discovery read from it, when it kept them.
    let host_options = HostOptions::for_project(book.project().clone())
        .share_reads(book.shared_reads().cloned())
        .without_prompt(true);
    // The views read the tree again on their own: they run beside the lint of the book.
    let (findings, views) = std::thread::scope(|scope| {
        let linting = scope.spawn(|| lint(book));
        let views: Vec<HostView> = rulebook::emulate_all(&hosts, &host_options);
        let findings = linting
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (findings, views)
    });
    let duplicates: Vec<Vec<HostDuplicate>> =
        host_options.reading(|| views.iter().map(HostView::duplicates).collect());
    report(book, options, findings, &views, &duplicates)
}

/// [`check`] with views made apart ([`ToolViews::read`]): the same report. `views` is
/// called once the book is linted (a caller making them on another thread joins it there),
/// and gives them or a reference to them (a caller that keeps them, to let them go when it
/// chooses: a process about to end need not free them one by one).
/// Views of another project, or of other tools than the check reads ([`view_hosts`]), are
/// made again here.
pub fn check_with_views<V: std::borrow::Borrow<ToolViews>>(
    book: &Rulebook,
    options: &CheckOptions,
    views: impl FnOnce() -> V,
) -> Report {
    let findings = lint(book);
    let views = views();
    let views: &ToolViews = views.borrow();
    if views.project != *book.project() || views.hosts != view_hosts(options) {
        return check(book, options);
    }
    report(book, options, findings, &views.views, &views.duplicates)
}

/// The report of a check: the lint's `findings`, then what the `views` add (`duplicates`:
/// what each of them loads twice, [`HostView::duplicates`]).
fn report(
    book: &Rulebook,
    options: &CheckOptions,
    mut findings: Vec<Diagnostic>,
    views: &[HostView],
    duplicates: &[Vec<HostDuplicate>],
) -> Report {
    let mut files = book.all().len();
    if options.host.is_some() {
        // The files this tool reads here, whatever it does with them.
        let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let read: HashSet<PathBuf> = views
            .iter()
            .flat_map(|v| &v.files)
            .filter(|f| !matches!(f.status, rulebook::HostStatus::NotRead))
            .map(|f| real(&f.path))
            .collect();
        // Findings on how another tool's provider reads a file are not this tool's: Crush
        // reads `.cursor/rules` raw, so Cursor's frontmatter findings do not concern it.
        let id = options.host.map_or("", Host::provider);
        findings.retain(|d| {
            d.path.as_deref().is_none_or(|p| read.contains(&real(p)))
                && d.provider_id.as_deref().is_none_or(|p| p == id)
        });
        files = read.len();
    }
    findings.extend(duplicate_loads(views, duplicates));
    if let Some(host) = options.host {
        findings.extend(tool_lints(book, host));
    }
    if options.host.is_none() {
        findings.extend(duplicate_rules(book));
    }
    findings.retain(|d| options.keeps(d.code));
    findings.sort_by(|a, b| {
        (a.path.is_none(), &a.path, a.line).cmp(&(b.path.is_none(), &b.path, b.line))
    });
    Report {
        findings,
        files,
        strict: options.strict,
    }
}

/// The text one tool loads twice at start: one finding a group, on the
/// second file, with the bytes spent again.
fn duplicate_loads(views: &[HostView], duplicates: &[Vec<HostDuplicate>]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (view, duplicates) in views.iter().zip(duplicates) {
        for dup in duplicates {
            let Some(again) = dup.paths.get(1) else {
                continue;
            };
            let others: Vec<String> = dup.paths[1..]
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            out.push(
                finding(
                    DiagnosticCode::DuplicateLoad,
                    again,
                    None,
                    format!(
                        "{} loads the same text twice at start: {} = {} ({} bytes spent again){}",
                        view.host.display_name(),
                        dup.paths[0].display(),
                        others.join(" = "),
                        dup.bytes_lost,
                        if view.host.verified() {
                            ""
                        } else {
                            " (documented, not verified)"
                        }
                    ),
                )
                .with_provider(view.host.display_name())
                .with_related(
                    &dup.paths[0],
                    format!("the copy {} loads first", view.host.display_name()),
                ),
            );
        }
    }
    out
}

/// The tool's own findings (`check --as TOOL`): forms its earlier versions are known to
/// ignore, each with the report that shows it ([`Tool::lints`](rulebook::Tool::lints)); the
/// pinned version's own misreadings are its provider's findings already.
fn tool_lints(book: &Rulebook, host: Host) -> Vec<Diagnostic> {
    let rules: Vec<&Rule> = book.all().iter().map(|entry| &entry.item).collect();
    host.tool().lints(&rules)
}

/// The text rulebook's own prompt holds twice: always-apply rules of different files with
/// the same content (a `CLAUDE.md` copy of `AGENTS.md`); a file reached through a link is
/// one rule already ("same file").
fn duplicate_rules(book: &Rulebook) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let always = book.bucket(RuleBucket::AlwaysApply);
    // The first rule of each text, by a hash of the text: a search of the rules before for
    // each rule would make a book of many always-apply rules quadratic.
    let mut first_of: HashMap<&str, &Rule> = HashMap::new();
    for rule in always {
        if rule.content.trim().is_empty() {
            continue;
        }
        let first = *first_of.entry(&*rule.content).or_insert(rule);
        if !std::ptr::eq(first, rule) {
            out.push(
                finding(
                    DiagnosticCode::DuplicateLoad,
                    &rule.path,
                    None,
                    format!(
                        "`{}` has the same text as `{}` ({}): both are always applied, so an agent built on rulebook reads it twice ({} bytes spent again)",
                        rule.name,
                        first.name,
                        first.path.display(),
                        rule.content.len()
                    ),
                )
                .from_provider(rule.source.provider.clone(), rule.source.provider_name.clone())
                .with_related(&first.path, format!("`{}`, the same text", first.name)),
            );
        }
    }
    out
}

/// Why a glob can match no file, when it cannot: it ends in `*.` (an empty extension:
/// `src/**/*.`), or holds a Markdown-escaped star (`\*`, or `*_/_`, what a Markdown
/// formatter makes of `**/`), which the glob libraries read as a literal `*` and `_`.
pub fn glob_matches_nothing(glob: &str) -> Option<&'static str> {
    let glob = glob.trim();
    if glob.ends_with("*.") {
        Some("it ends in `*.`: a file name ending in a dot, which no source file has")
    } else if glob.contains("\\*") || glob.contains("*_/_") || glob.contains("\\_") {
        Some("it holds Markdown escapes (`\\*`, `*_/_` for `**/`): the star is read literally")
    } else {
        None
    }
}

/// The skills' findings (behaviour.md §14): a `name` that is not its folder's or not one the
/// Agent Skills specification allows, a missing or overlong description. Said of every
/// skill loaded, shadowed or not (each copy is a file someone may fix).
fn skills(book: &Rulebook, findings: &mut Vec<Diagnostic>) {
    use rulebook::stages::kit::skills::{MAX_DESCRIPTION, is_spec_name};
    // One file reached through a link is said once: by its first path.
    let mut seen: HashSet<PathBuf> = HashSet::new();
    for entry in book.all_skills() {
        let skill = &entry.item;
        let real = skill
            .source
            .real_path
            .clone()
            .or_else(|| std::fs::canonicalize(&skill.path).ok())
            .unwrap_or_else(|| skill.path.clone());
        if !seen.insert(real) {
            continue;
        }
        let folder = skill.folder_name();
        // Read again only for the line of a finding.
        let text = std::cell::OnceCell::new();
        let text = || text.get_or_init(|| head(&skill.path)).as_str();
        let provider = skill.source.provider_name.as_str();
        if skill.name != folder {
            findings.push(finding(
                DiagnosticCode::SkillName,
                &skill.path,
                key_line(text(), "name"),
                format!(
                    "skill `{}` stands in the folder `{folder}`: the Agent Skills specification wants them equal, and VS Code, Cursor and Cline pass such a skill over",
                    skill.name
                ),
            ));
        } else if !is_spec_name(&skill.name) {
            findings.push(finding(
                DiagnosticCode::SkillName,
                &skill.path,
                key_line(text(), "name"),
                format!(
                    "skill name `{}` is not one the Agent Skills specification allows (1-64 of a-z, 0-9 and -, no - at either end or twice)",
                    skill.name
                ),
            ));
        }
        for link in missing_links(skill) {
            findings.push(finding(
                DiagnosticCode::SkillContent,
                &skill.path,
                None,
                format!(
                    "skill `{}` links to `{link}`, which is not in its folder",
                    skill.name
                ),
            ));
        }
        if let rulebook::Status::Shadowed { by } | rulebook::Status::SameFile { by } = entry.status
        {
            let winner = &book.all_skills()[by].item;
            if !rulebook::stages::fs::same_bytes(&winner.path, &skill.path).unwrap_or(false) {
                findings.push(finding(
                    DiagnosticCode::SkillContent,
                    &skill.path,
                    None,
                    format!(
                        "skill `{}` is also {}, with other content: a tool that reads this folder gets this one, the others get that one",
                        skill.name,
                        book.display_path(&winner.path)
                    ),
                ));
            }
        }
        match skill.description.as_deref() {
            None => findings.push(finding(
                DiagnosticCode::SkillDescription,
                &skill.path,
                None,
                format!(
                    "skill `{}` ({provider}) has no description: a model chooses skills by it, and several tools pass over a skill without one",
                    skill.name
                ),
            )),
            Some(d) if d.chars().count() > MAX_DESCRIPTION => findings.push(finding(
                DiagnosticCode::SkillDescription,
                &skill.path,
                key_line(text(), "description"),
                format!(
                    "the description of skill `{}` is {} characters, over the specification's {MAX_DESCRIPTION} (Codex cuts it to 1,021 and `...`)",
                    skill.name,
                    d.chars().count()
                ),
            )),
            Some(_) => {}
        }
    }
}

/// The relative Markdown link targets of a skill's body (`[text](scripts/x.sh)`) that are
/// not files or folders of its folder; URLs, anchors and absolute paths are not checked.
fn missing_links(skill: &rulebook::Skill) -> Vec<String> {
    let mut missing = Vec::new();
    let body = &skill.content;
    let mut rest: &str = body;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else {
            break;
        };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        let target = target.split('#').next().unwrap_or("");
        let external = target.is_empty()
            || target.contains("://")
            || target.starts_with("mailto:")
            || target.starts_with('/')
            || target.starts_with('<');
        if !external
            && !skill.folder().join(target).exists()
            && !missing.iter().any(|m| m == target)
        {
            missing.push(target.to_owned());
        }
        rest = &after[end..];
    }
    missing
}

/// Every finding, unfiltered. For a book of many rules, its glob index (which its glob
/// findings come from) is built on another thread while the rule files are linted here.
fn lint(book: &Rulebook) -> Vec<Diagnostic> {
    std::thread::scope(|scope| {
        let _index = (book.all().len() >= LINT_BESIDE_FROM).then(|| {
            scope.spawn(|| {
                let _busy = rulebook::stages::registry::cores::Busy::enter();
                book.glob_diagnostics().len()
            })
        });
        lint_files(book)
    })
}

/// The number of rules from which [`lint`] builds the glob index beside the lint of the
/// files: below it, a thread costs more than it saves.
const LINT_BESIDE_FROM: usize = 512;

/// [`lint`]'s findings.
fn lint_files(book: &Rulebook) -> Vec<Diagnostic> {
    let mut findings: Vec<Diagnostic> = Vec::new();
    // YAML diagnostics at these lines say the same as a finding made here; skip them.
    let mut covered: HashSet<(PathBuf, usize)> = HashSet::new();
    let mut outcomes: std::collections::HashMap<&Path, FrontmatterOutcome> =
        std::collections::HashMap::new();
    // Every condition of the project validated as one run, within one total budget.
    let mut validator = Validator::new();

    for entry in book.all() {
        let rule = &entry.item;
        let path = rule.path.as_path();
        outcomes.insert(path, rule.frontmatter_outcome);
        let (id, provider) = (
            rule.source.provider.as_str(),
            rule.source.provider_name.as_str(),
        );
        let finding = |code, path: &Path, line, message| {
            finding(code, path, line, message).from_provider(id, provider)
        };
        if rule.content.is_empty() {
            findings.push(finding(
                DiagnosticCode::InvalidItem,
                path,
                None,
                format!("`{}` has an empty body: no agent will load it", rule.name),
            ));
        }
        // The file's text is read again only where a finding needs a line, or where an
        // unquoted glob can stand: YAML that parsed cleanly holds none (`*` would be an
        // alias), nor does a file without frontmatter.
        let text = std::cell::OnceCell::new();
        let text = || text.get_or_init(|| head(path)).as_str();
        let may_hold_unquoted_globs = match rule.frontmatter_outcome {
            FrontmatterOutcome::Parsed => false,
            FrontmatterOutcome::Absent => rule
                .content
                .trim_start_matches('\u{feff}')
                .trim_start()
                .starts_with("---"),
            _ => true,
        };
        for condition in &rule.condition {
            if let Err(why) = validator.validate(condition) {
                let line = ["condition", "ttsr_trigger", "ttsrTrigger"]
                    .iter()
                    .find_map(|k| key_line(text(), k));
                let message = if why.budget_spent() {
                    format!("condition {condition:?} is not checked: {why}")
                } else {
                    format!("condition {condition:?} does not compile as a regex: {why}")
                };
                findings.push(finding(DiagnosticCode::InvalidTrigger, path, line, message));
            }
        }
        // What the rule's tool makes of an unquoted glob, as its provider says.
        let form = book
            .providers()
            .iter()
            .find(|p| p.id == rule.source.provider)
            .map(|p| p.unquoted_globs)
            .unwrap_or_default();
        let unquoted = if may_hold_unquoted_globs {
            unquoted_globs(text())
        } else {
            Vec::new()
        };
        for (line, glob) in unquoted {
            covered.insert((path.to_path_buf(), line));
            let whose = match form {
                // The tool's own form, and what it matches: nothing to say.
                UnquotedGlobs::Native => continue,
                UnquotedGlobs::QuoteBecause(why) => format!(" ({why})"),
                UnquotedGlobs::Quote => String::new(),
            };
            // Recovered YAML: the rule acts as written; worth fixing, not failing.
            let (code, what) = if rule.frontmatter_outcome == FrontmatterOutcome::Recovered {
                (
                    DiagnosticCode::YamlRecovered,
                    "the YAML fails here; the value was read as text",
                )
            } else {
                (
                    DiagnosticCode::YamlSyntax,
                    "the YAML fails, so the other keys were read as text",
                )
            };
            findings.push(finding(
                code,
                path,
                Some(line),
                format!(
                    "unquoted glob `{glob}`: YAML reads a leading `*` as an alias; {what}. Quoting it (\"{glob}\") makes it valid YAML{whose}"
                ),
            ));
        }
        // Each provider says which keys it reads; one that says nothing is not checked.
        let known = book
            .providers()
            .iter()
            .find(|p| p.id == rule.source.provider)
            .map(|p| p.known_keys.as_slice())
            .unwrap_or_default();
        for glob in rule.globs.as_deref().unwrap_or_default() {
            if let Some(why) = glob_matches_nothing(glob) {
                let line = ["globs", "paths", "applyTo", "fileMatchPattern", "patterns"]
                    .iter()
                    .find_map(|k| key_line(text(), k));
                findings.push(finding(
                    DiagnosticCode::GlobMatchesNothing,
                    path,
                    line,
                    format!(
                        "glob `{glob}` can match no file: {why}; `{}` never applies through it",
                        rule.name
                    ),
                ));
            }
        }
        for key in rule.frontmatter.keys() {
            if !known.is_empty() && !known.iter().any(|k| k.key == key) {
                findings.push(finding(
                    DiagnosticCode::UnknownKey,
                    path,
                    key_line(text(), key),
                    format!("unknown key `{key}`: {provider} does not read it"),
                ));
            }
        }
    }
    skills(book, &mut findings);
    for d in book.diagnostics() {
        if matches!(
            d.code,
            DiagnosticCode::InvalidItem
                | DiagnosticCode::InvalidTrigger
                | DiagnosticCode::DuplicateTrigger
        ) && d.path.as_deref().is_none_or(|p| outcomes.contains_key(p))
        {
            continue; // recomputed for every rule file above (a skill's are said as they are)
        }
        if matches!(
            d.code,
            DiagnosticCode::YamlSyntax
                | DiagnosticCode::YamlRecovered
                | DiagnosticCode::ToolsOwnForm
        ) && d
            .path
            .as_ref()
            .zip(d.line)
            .is_some_and(|(p, l)| covered.contains(&(p.clone(), l)))
        {
            continue; // the unquoted-glob finding says the same (or Cursor reads it so)
        }
        findings.push(d.clone());
    }
    // A rule shadowed by another of the same name; not one that is the same file as its
    // winner (`CLAUDE.md -> AGENTS.md`: one text, injected once, as `explain` says).
    for entry in book.all() {
        let rulebook::Status::Shadowed { by } = entry.status else {
            continue;
        };
        let (loser, winner) = (&entry.item, &book.all()[by].item);
        if loser.source.provider != winner.source.provider {
            findings.push(
                finding(
                    DiagnosticCode::Shadowed,
                    &loser.path,
                    None,
                    format!(
                        "`{}` ({}) is shadowed by {} ({}), which has the same name",
                        loser.name,
                        loser.source.provider_name,
                        winner.path.display(),
                        winner.source.provider_name
                    ),
                )
                .from_provider(
                    loser.source.provider.clone(),
                    loser.source.provider_name.clone(),
                )
                .with_related(
                    &winner.path,
                    format!("shadows it ({})", winner.source.provider_name),
                ),
            );
        }
    }
    findings.extend(book.glob_diagnostics().iter().cloned());
    findings.extend(unseen_rules(book));
    findings.extend(unsupported_formats(book));
    findings
}

/// Rules no agent will see, globs that name a directory, globs that do nothing.
fn unseen_rules(book: &Rulebook) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let extended = book.profile() == rulebook::Profile::Extended;
    for (rule, placement) in book.placements() {
        let (id, provider) = (&rule.source.provider, &rule.source.provider_name);
        let globs = rule.globs.as_deref().unwrap_or_default();
        if let (Some(why), Some(_)) = (&rule.off_reason, &placement.reason) {
            // Turned off on purpose by what its author wrote (`excludeAgent`, Cline's
            // `paths: []`): a note that says why and how to see it, not a problem.
            out.push(
                finding(
                    DiagnosticCode::TurnedOff,
                    &rule.path,
                    None,
                    format!("`{}` is off here: {why}", rule.name),
                )
                .from_provider(id.clone(), provider.clone()),
            );
        } else if let Some(reason) = &placement.reason {
            // In Extended a rule with globs is attached when a path matches: seen then.
            if !extended || globs.is_empty() {
                out.push(
                    finding(
                        DiagnosticCode::NoBucket,
                        &rule.path,
                        None,
                        format!(
                            "`{}` lands in no bucket, so no agent sees it: {reason}",
                            rule.name
                        ),
                    )
                    .from_provider(id.clone(), provider.clone()),
                );
            }
        }
        if placement.bucket == Some(RuleBucket::AlwaysApply) && !globs.is_empty() {
            out.push(
                finding(
                    DiagnosticCode::IneffectiveKey,
                    &rule.path,
                    None,
                    format!(
                        "`{}` is always-apply, so its globs ({}) do nothing: it applies to every file",
                        rule.name,
                        globs.join(", ")
                    ),
                )
                .from_provider(id.clone(), provider.clone()),
            );
            continue;
        }
        for glob in globs {
            let bare = glob.trim().trim_start_matches("./").trim_start_matches('/');
            if bare.is_empty() || bare.contains(['*', '?', '[', '{']) {
                continue;
            }
            let names_dir = bare.ends_with('/') || book.cwd().join(bare).is_dir();
            if names_dir {
                let dir = bare.trim_end_matches('/');
                out.push(
                    finding(
                        DiagnosticCode::GlobNamesDirectory,
                        &rule.path,
                        None,
                        format!(
                            "glob `{glob}` of `{}` names a directory, and matches no file in it; `{dir}/**` does",
                            rule.name
                        ),
                    )
                    .from_provider(id.clone(), provider.clone()),
                );
            }
        }
    }
    out
}

/// Files rulebook does not read, in the project directory: other kinds of file a tool keeps
/// beside its rules (commands, agents, prompts), and a file a tool reads only under a
/// condition that does not hold here ([`rulebook::ConditionalFile`]).
fn unsupported_formats(book: &Rulebook) -> Vec<Diagnostic> {
    // Said of each that is there, in the working directory.
    let present = |rel: &str, message: String| {
        let path = book.cwd().join(rel);
        std::fs::symlink_metadata(&path)
            .ok()
            .map(|_| finding(DiagnosticCode::UnsupportedFormat, &path, None, message))
    };
    // Once a folder: several tools keep the same one (Copilot's editor and CLI).
    let mut folders_said = HashSet::new();
    let not_rules = rulebook::tools()
        .iter()
        .flat_map(|tool| tool.tool().info().other_folders())
        .filter(|(rel, _)| folders_said.insert(*rel))
        .filter_map(|(rel, what)| {
            present(
                rel,
                format!("{rel} holds {what} so rulebook's union view does not read it"),
            )
        });
    // A file a tool reads only under a condition: said when it is here and no provider read
    // it, with each reader's condition, or that its readers do not serve this profile. The
    // readers of a name in ascending priority.
    let mut declared: Vec<(i32, String, rulebook::ConditionalFile)> = table_providers()
        .iter()
        .flat_map(|p| {
            let info = p.info();
            info.conditional_files()
                .iter()
                .map(move |f| (info.priority(), info.id().to_owned(), *f))
        })
        .collect();
    declared.sort_by_key(|(priority, _, _)| *priority);
    let mut names: Vec<&str> = declared.iter().map(|(_, _, f)| f.name).collect();
    names.dedup();
    let conditional = names.into_iter().filter_map(|name| {
        let path = book.cwd().join(name);
        if book.all().iter().any(|e| e.item.path == path) {
            return None;
        }
        let readers: Vec<&(i32, String, rulebook::ConditionalFile)> =
            declared.iter().filter(|(_, _, f)| f.name == name).collect();
        let tools: Vec<&str> = readers.iter().map(|(_, _, f)| f.tool).collect();
        let serving = book
            .providers()
            .iter()
            .any(|p| readers.iter().any(|(_, id, _)| *id == p.id));
        present(
            name,
            if serving {
                let whens: Vec<String> = readers
                    .iter()
                    .map(|(_, _, f)| format!("by {} {}", f.tool, f.when))
                    .collect();
                format!(
                    "{name} is read {}; {} here, so no tool rulebook knows uses it",
                    whens.join(", and "),
                    if whens.len() == 1 { "that does not hold" } else { "neither holds" }
                )
            } else {
                format!(
                    "{name} is read by {}, whose providers serve the Extended profile only: its rules are not in this report",
                    tools.join(" and ")
                )
            },
        )
    });
    not_rules.chain(conditional).collect()
}

/// Every provider of this build's table, whatever the profile serves.
fn table_providers() -> Vec<Box<dyn rulebook::Provider<rulebook::RuleCapability>>> {
    use rulebook::ProviderTable;
    rulebook::DefaultProviders::default().providers()
}

/// The first MiB of a file as text (invalid UTF-8 replaced), or nothing: where a finding
/// looks for the line of a frontmatter key. Never more than the size cap is read, whatever
/// the file has become since discovery.
fn head(path: &Path) -> String {
    rulebook::stages::fs::read_prefix(path, rulebook::stages::rule::DEFAULT_MAX_FILE_SIZE)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}
