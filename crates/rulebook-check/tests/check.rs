//! The lint on a project with one of each problem, under both profiles; the options that
//! choose findings; the configuration file.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fmt::Write;
use std::path::Path;

use rulebook::{DiagnosticCode, Options, Profile, Rulebook, Severity};
use rulebook_check::{CheckOptions, UnknownCode, check, config, parse_codes, severity};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// One file per problem (and two that are fine).
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("project");
    write(&p, ".git/HEAD", "ref: refs/heads/main\n");
    write(
        &p,
        ".cursor/rules/fine.mdc",
        "---\ndescription: Fine\nglobs: src/**/*.ts, *.tsx\n---\nBody\n",
    );
    write(
        &p,
        ".cursor/rules/wrong-type.mdc",
        "---\ndescription: X\nalwaysApply: \"yes\"\n---\nBody\n",
    );
    write(
        &p,
        ".cursor/rules/broken.mdc",
        "---\ndescription: [unclosed\n---\nBody\n",
    );
    write(
        &p,
        ".cursor/rules/unseen.mdc",
        "---\nfoo: bar\n---\nNo description, no globs\n",
    );
    write(
        &p,
        ".cursor/rules/dir-glob.mdc",
        "---\ndescription: D\nglobs: src/components\n---\nBody\n",
    );
    write(
        &p,
        ".xcsh/rules/fine.md",
        "---\ndescription: Native wins\n---\nBody\n",
    );
    write(
        &p,
        ".xcsh/rules/trigger.md",
        "---\ncondition: \"(unclosed\"\n---\nBody\n",
    );
    write(&p, "AGENT.md", "Zed reads me\n");
    write(
        &p,
        ".cursor/rules/dead.mdc",
        "---\ndescription: Dead globs\nglobs: [\"src/**/*.\", \"\\\\*_/_.ts\"]\n---\nBody\n",
    );
    write(&p, "AGENTS.md", "Run the tests.\n");
    write(&p, "CLAUDE.md", "Run the tests.\n");
    write(&p, "src/components/button.tsx", "x");
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    dir
}

fn report(root: &Path, profile: Profile, options: &CheckOptions) -> String {
    let book = Rulebook::discover(
        root.join("project"),
        Some(&root.join("home")),
        &Options::new().profile(profile),
    );
    let report = check(&book, options);
    let mut out = format!(
        "failed={} errors={} warnings={} infos={}\n",
        report.failed(),
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Info)
    );
    for f in &report.findings {
        let file = f
            .path
            .as_deref()
            .map(|p| book.display_path(p))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{:?} {} {file}:{} {}",
            f.severity,
            f.code,
            f.line.map_or(String::new(), |l| l.to_string()),
            book.display_message(&f.message)
        );
    }
    out
}

#[test]
fn one_of_each_finding_under_both_profiles() {
    let dir = project();
    let options = CheckOptions::new();
    insta::assert_snapshot!(format!(
        "== extended\n{}\n== reference\n{}",
        report(dir.path(), Profile::Extended, &options),
        report(dir.path(), Profile::Reference, &options)
    ));
}

/// `check --as TOOL`: only the files that tool reads, and what it loads
/// twice; Crush reads both `AGENTS.md` and `CLAUDE.md` (a copy), Claude Code only
/// `CLAUDE.md`.
#[test]
fn check_as_one_tool_keeps_its_files_and_its_duplicates() {
    let dir = project();
    let book = Rulebook::discover(
        dir.path().join("project"),
        Some(&dir.path().join("home")),
        &Options::new(),
    );
    let findings = |host| {
        check(&book, &CheckOptions::new().host(Some(host)))
            .findings
            .iter()
            .map(|f| {
                let name = f
                    .path
                    .as_deref()
                    .and_then(|p| p.file_name())
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                format!("{}:{}", f.code, name)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        findings(rulebook::tool("crush").unwrap()),
        ["duplicate-load:CLAUDE.md"]
    );
    assert!(findings(rulebook::tool("claude").unwrap()).is_empty());
    let cursor = findings(rulebook::tool("cursor").unwrap());
    assert!(
        cursor.contains(&"glob-matches-nothing:dead.mdc".to_owned()),
        "{cursor:?}"
    );
    assert!(
        !cursor.iter().any(|f| f.starts_with("duplicate-load")),
        "{cursor:?}"
    );
}

/// `check --as claude`: the `paths:` forms earlier Claude Code versions ignored, each with
/// the report that shows it; a rule without `paths` says nothing.
#[test]
fn check_as_claude_names_the_paths_forms_older_versions_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("project");
    write(&p, ".git/HEAD", "ref: refs/heads/main\n");
    write(
        &p,
        ".claude/rules/list.md",
        "---\npaths:\n  - \"src/**\"\n---\nList.\n",
    );
    write(
        &p,
        ".claude/rules/quoted.md",
        "---\npaths: \"src/**\"\n---\nQuoted.\n",
    );
    write(
        &p,
        ".claude/rules/bare.md",
        "---\npaths: src/**/*.ts\n---\nBare.\n",
    );
    write(&p, ".claude/rules/none.md", "Always.\n");
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    let book = Rulebook::discover(&p, Some(&dir.path().join("home")), &Options::new());
    let report = check(
        &book,
        &CheckOptions::new().host(Some(rulebook::tool("claude").unwrap())),
    );
    let said: Vec<(String, String)> = report
        .findings
        .iter()
        .filter(|f| f.code == DiagnosticCode::ToolsDiffer)
        .map(|f| {
            let file = f.path.as_deref().unwrap().file_name().unwrap();
            let issue = f
                .message
                .split("anthropics/claude-code#")
                .nth(1)
                .unwrap_or_default();
            (
                file.to_string_lossy().into_owned(),
                issue.chars().take_while(char::is_ascii_digit).collect(),
            )
        })
        .collect();
    let expected = [
        ("bare.md", "16038"),
        ("list.md", "16853"),
        ("quoted.md", "17204"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(f, i)| ((*f).to_owned(), (*i).to_owned()))
        .collect();
    assert_eq!(said, expected);
    // Without --as, these are not said.
    let all = check(&book, &CheckOptions::new());
    assert!(
        all.findings
            .iter()
            .all(|f| f.code != DiagnosticCode::ToolsDiffer)
    );
}

#[test]
fn select_ignore_and_strict_choose_what_counts() {
    let dir = project();
    let codes = |options: &CheckOptions| -> Vec<String> {
        let book = Rulebook::discover(
            dir.path().join("project"),
            Some(&dir.path().join("home")),
            &Options::new(),
        );
        let mut codes: Vec<String> = check(&book, options)
            .findings
            .iter()
            .map(|f| f.code.to_string())
            .collect();
        codes.dedup();
        codes
    };
    let all = codes(&CheckOptions::new());
    assert!(all.contains(&"wrong-type".to_owned()) && all.contains(&"no-bucket".to_owned()));
    let only = codes(&CheckOptions::new().select([DiagnosticCode::WrongType]));
    assert_eq!(only, ["wrong-type"]);
    let without = codes(&CheckOptions::new().ignore([DiagnosticCode::WrongType]));
    assert!(!without.contains(&"wrong-type".to_owned()) && without.len() + 1 >= all.len());
    let both = codes(
        &CheckOptions::new()
            .select([DiagnosticCode::WrongType, DiagnosticCode::NoBucket])
            .ignore([DiagnosticCode::NoBucket]),
    );
    assert_eq!(both, ["wrong-type"], "ignore wins over select");
    assert!(!CheckOptions::new().is_strict());
    assert!(CheckOptions::new().strict(true).is_strict());
}

#[test]
fn strict_makes_warnings_fail() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("project");
    write(&p, ".xcsh/rules/unseen.md", "No frontmatter at all\n");
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    let book = Rulebook::discover(&p, Some(&dir.path().join("home")), &Options::new());
    let lenient = check(&book, &CheckOptions::new());
    assert_eq!(lenient.count(Severity::Error), 0);
    assert!(
        lenient.count(Severity::Warning) > 0,
        "{:?}",
        lenient.findings
    );
    assert!(!lenient.failed());
    assert!(check(&book, &CheckOptions::new().strict(true)).failed());
    // Nothing to say: not failed, strict or not.
    let other = tempfile::tempdir().unwrap();
    let q = other.path().join("project");
    write(&q, ".xcsh/rules/a.md", "---\ndescription: A\n---\nBody\n");
    std::fs::create_dir_all(other.path().join("home")).unwrap();
    let clean = Rulebook::discover(&q, Some(&other.path().join("home")), &Options::new());
    let report = check(&clean, &CheckOptions::new().strict(true));
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert!(!report.failed());
}

#[test]
fn every_code_has_a_severity_and_errors_are_what_check_fails_on() {
    assert_eq!(severity(DiagnosticCode::YamlSyntax), Severity::Error);
    assert_eq!(severity(DiagnosticCode::WrongType), Severity::Error);
    assert_eq!(severity(DiagnosticCode::UnsupportedFormat), Severity::Info);
    assert_eq!(severity(DiagnosticCode::NoBucket), Severity::Warning);
    for &code in DiagnosticCode::ALL {
        let _ = severity(code);
    }
}

#[test]
fn codes_are_parsed_by_name() {
    assert_eq!(
        parse_codes(&[
            " wrong-type ".to_owned(),
            String::new(),
            "no-bucket".to_owned()
        ]),
        Ok(vec![DiagnosticCode::WrongType, DiagnosticCode::NoBucket])
    );
    let err = parse_codes(&["nope".to_owned()]).unwrap_err();
    assert_eq!(err, UnknownCode("nope".to_owned()));
    assert!(err.to_string().contains("nope"), "{err}");
}

#[test]
fn the_config_file_is_found_upward_to_the_repository_root() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    write(&repo, ".git/HEAD", "x");
    write(
        &repo,
        "rulebook.toml",
        "[check]\nignore = [\"no-bucket\"]\nstrict = true\n",
    );
    std::fs::create_dir_all(repo.join("apps/web")).unwrap();
    let (path, found) = config::load(&repo.join("apps/web")).unwrap().unwrap();
    assert_eq!(path, repo.join("rulebook.toml"));
    assert_eq!(found.check.ignore, ["no-bucket"]);
    assert!(found.check.strict);
    let options = CheckOptions::new().with_config(&found.check).unwrap();
    assert!(options.is_strict());

    // Not above the repository root.
    write(dir.path(), "rulebook.toml", "[check]\nstrict = true\n");
    let other = dir.path().join("other");
    write(&other, ".git/HEAD", "x");
    assert!(config::load(&other).unwrap().is_none());

    // A broken one is an error that names the file.
    write(&repo, "rulebook.toml", "[check]\nnonsense = 1\n");
    let err = config::load(&repo).unwrap_err();
    assert_eq!(err.path, repo.join("rulebook.toml"));
    assert!(err.to_string().contains("rulebook.toml"), "{err}");
    // One that cannot be read (a directory of that name) is an error too, never skipped.
    std::fs::remove_file(repo.join("rulebook.toml")).unwrap();
    std::fs::create_dir_all(repo.join("rulebook.toml")).unwrap();
    let err = config::load(&repo).unwrap_err();
    assert!(err.message.starts_with("cannot read it"), "{err}");
    // An unknown code in it is an error of its own.
    let bad = config::CheckConfig {
        ignore: vec!["nope".to_owned()],
        ..Default::default()
    };
    assert!(CheckOptions::new().with_config(&bad).is_err());
}

/// Unquoted globs outside Cursor (a finding, at the line of the glob, a list item too, but
/// not an item of another key); always-apply rules whose globs do nothing; a rule with
/// globs and nothing else (seen in Extended when a path matches, unseen in Reference);
/// globs that name a directory, and ones that hold a wildcard (fine).
#[test]
fn globs_findings_under_both_profiles() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("project");
    write(&p, ".git/HEAD", "ref: refs/heads/main\n");
    write(
        &p,
        ".xcsh/rules/star.md",
        "---\ndescription: Star\nglobs: *.ts\n---\nBody\n",
    );
    write(
        &p,
        ".xcsh/rules/items.md",
        "---\ndescription: Items\nglobs:\n  - src/a.ts\n  - *.md\nother:\n  - *.txt\n---\nBody\n",
    );
    write(
        &p,
        ".xcsh/rules/always.md",
        "---\nalwaysApply: true\nglobs: [\"src/**\"]\n---\nBody\n",
    );
    write(
        &p,
        ".xcsh/rules/only-globs.md",
        "---\nglobs: [\"**/*.rs\"]\n---\nBody\n",
    );
    write(
        &p,
        ".xcsh/rules/dirs.md",
        "---\ndescription: Dirs\nglobs: [\"lib\", \"lib/*.rs\", \"\"]\n---\nBody\n",
    );
    write(
        &p,
        ".xcsh/rules/colons.md",
        "---\ndescription: Use a: b\n---\nBody\n",
    );
    write(
        &p,
        ".xcsh/rules/trigger.md",
        "---\ncondition: \"forbidden\"\n---\nBody\n",
    );
    // Claude Code reads `paths`, the original's providers do not: each provider's own
    // keys are checked.
    write(
        &p,
        ".claude/rules/api.md",
        "---\npaths: [\"src/**\"]\n---\nBody\n",
    );
    write(&p, "lib/a.rs", "x");
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    let options = CheckOptions::new();
    insta::assert_snapshot!(format!(
        "== extended\n{}\n== reference\n{}",
        report(dir.path(), Profile::Extended, &options),
        report(dir.path(), Profile::Reference, &options)
    ));
}

/// `check --as TOOL` keeps the findings of the tool's own provider by its id: a provider of
/// another id that shares the display name, reading the same file, is not the tool's.
#[test]
fn check_as_a_tool_keeps_its_providers_findings_by_id() {
    use rulebook::{
        FileLoader, LoadContext, LoadResult, Provider, ProviderError, ProviderMeta, Rule,
        RuleCapability,
    };

    /// Reads Cursor's rule files as its own, under Cursor's display name.
    struct Lookalike;
    static INFO: ProviderMeta =
        ProviderMeta::new("lookalike", "Cursor", "reads .cursor/rules as Cursor's", 1);
    impl Provider<RuleCapability> for Lookalike {
        fn info(&self) -> &ProviderMeta {
            &INFO
        }
        fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
            let loader = FileLoader::new(
                ctx,
                "lookalike",
                "Cursor",
                rulebook::stages::kit::coerce::FieldPolicy::new(
                    rulebook::stages::kit::coerce::DescriptionPolicy::StringOnly,
                    rulebook::stages::kit::coerce::AlwaysApplyPolicy::Boolean,
                    rulebook::stages::kit::coerce::GlobsPolicy::StringsOnly,
                ),
            );
            let mut out = LoadResult::default();
            loader.load_dir(
                &ctx.cwd.join(".cursor/rules"),
                &["mdc"],
                rulebook::Level::Project,
                Some(&ctx.cwd),
                &mut out,
            );
            Ok(out)
        }
    }

    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("project");
    write(&p, ".git/HEAD", "ref: refs/heads/main\n");
    write(
        &p,
        ".cursor/rules/broken.mdc",
        "---\ndescription: [unclosed\n---\nBody\n",
    );
    let book = Rulebook::discover(
        &p,
        Some(&dir.path().join("home")),
        &Options::new()
            .allow_providers(["cursor", "lookalike"])
            .provider(Lookalike),
    );
    let providers = |report: &rulebook_check::Report| -> Vec<String> {
        report
            .findings
            .iter()
            .filter(|d| d.code == DiagnosticCode::YamlSyntax)
            .filter_map(|d| d.provider_id.clone())
            .collect()
    };
    let all = check(&book, &CheckOptions::new());
    assert_eq!(providers(&all), ["cursor", "lookalike"]);
    let cursor = check(
        &book,
        &CheckOptions::new().host(Some(rulebook::tool("cursor").unwrap())),
    );
    assert_eq!(providers(&cursor), ["cursor"]);
}

/// One severity per code: what the library reports (and `list`, `explain` and MCP print)
/// and what `check` reports carry the severity of the code's one table, under both
/// profiles. Cursor's own unquoted globs are information that says so, not a YAML
/// failure; a value YAML could not read but recovered is a warning, YAML that lost its
/// keys' types an error.
#[test]
fn every_code_has_one_severity_in_the_library_and_in_check() {
    let dir = project();
    let p = dir.path().join("project");
    let home = dir.path().join("home");
    write(
        &p,
        ".cursor/rules/native.mdc",
        "---\ndescription: N\nglobs: *.ts\n---\nBody\n",
    );
    write(&p, ".clinerules/off.md", "---\npaths: []\n---\nOff here\n");
    write(
        &p,
        ".claude/rules/early.md",
        "---\npaths: \"src/**, lib/**\"\n---\nEarly form\n",
    );
    write(&p, ".claude/rules/imports.md", "See @missing.md\n");
    write(
        &p,
        ".windsurf/rules/recovered.md",
        "---\ntrigger: glob\nglobs: *.py\n---\nBody\n",
    );
    write(
        &p,
        ".claude/skills/bare/SKILL.md",
        "---\nname: bare\n---\nNo description\n",
    );
    write(
        &home,
        ".kiro/steering/ts.md",
        "---\ninclusion: fileMatch\nfileMatchPattern: \"*.ts\"\n---\nUser steering\n",
    );
    let mut seen = std::collections::HashMap::new();
    for profile in [Profile::Extended, Profile::Reference] {
        let book = Rulebook::discover(&p, Some(&home), &Options::new().profile(profile));
        let report = check(&book, &CheckOptions::new());
        for d in book.diagnostics().iter().chain(&report.findings) {
            assert_eq!(d.severity, d.code.severity(), "{profile:?}: {d}");
            assert_eq!(*seen.entry(d.code).or_insert(d.severity), d.severity, "{d}");
        }
        let native: Vec<_> = book
            .diagnostics()
            .iter()
            .filter(|d| d.path.as_deref().is_some_and(|f| f.ends_with("native.mdc")))
            .collect();
        if profile == Profile::Extended {
            assert!(
                native.iter().all(|d| d.code == DiagnosticCode::ToolsOwnForm
                    && d.severity == Severity::Info
                    && !d.message.contains("Failed to parse")),
                "{native:?}"
            );
            assert!(
                book.diagnostics()
                    .iter()
                    .any(|d| d.code == DiagnosticCode::YamlRecovered
                        && d.path
                            .as_deref()
                            .is_some_and(|f| f.ends_with("recovered.md"))),
                "{:?}",
                book.diagnostics()
            );
        }
    }
    for code in [
        DiagnosticCode::YamlSyntax,
        DiagnosticCode::WrongType,
        DiagnosticCode::ToolsOwnForm,
        DiagnosticCode::YamlRecovered,
        DiagnosticCode::TurnedOff,
    ] {
        assert!(seen.contains_key(&code), "no {code} in {seen:?}");
    }
    assert_eq!(severity(DiagnosticCode::YamlSyntax), Severity::Error);
    assert_eq!(DiagnosticCode::YamlRecovered.severity(), Severity::Warning);
}

/// Claude Code's custom commands are what they are for Claude Code: listed at start with its
/// skills, not rules; a tool's other folders (Copilot's prompt files) are neither rules nor
/// skills. Each is an info, said once, of the folder that is there.
#[test]
fn commands_and_other_folders_are_said_as_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("project");
    write(&p, ".git/HEAD", "ref: refs/heads/main\n");
    write(
        &p,
        ".claude/commands/deploy.md",
        "---\ndescription: deploy\n---\nDeploy.\n",
    );
    write(&p, ".github/prompts/review.prompt.md", "Review.\n");
    let book = Rulebook::discover(&p, Some(&dir.path().join("home")), &Options::new());
    let said: Vec<String> = check(&book, &CheckOptions::new())
        .findings
        .iter()
        .filter(|d| d.code == DiagnosticCode::UnsupportedFormat)
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said.iter().any(
            |m| m.starts_with(".claude/commands holds Claude Code's custom commands")
                && m.contains("lists at start with its skills")
        ),
        "{said:?}"
    );
    assert!(
        said.iter().any(|m| m.starts_with(
            ".github/prompts holds GitHub Copilot's prompt files, neither rules nor skills"
        )),
        "{said:?}"
    );
}

/// What a check reports does not depend on how its views read: every tool's view made on
/// this thread, beside the lint, apart from the book and handed in (as `rulebook check`
/// makes them beside discovery), or through the bytes discovery kept, gives the same
/// findings and counts, in both profiles, for every tool and for `--as` one.
#[test]
fn a_check_reports_the_same_whichever_way_its_views_read() {
    use rulebook_check::{ToolViews, check_with_views, view_hosts};
    let dir = project();
    let (cwd, home) = (dir.path().join("project"), dir.path().join("home"));
    // A copy and a link beside the rules, so that the views' duplicates and links count.
    write(&cwd, "AGENTS.md", "Run the tests.\n");
    write(&cwd, "CLAUDE.md", "Run the tests.\n");
    let shown = |report: &rulebook_check::Report| {
        let mut out = format!("{} files\n", report.files);
        for f in &report.findings {
            writeln!(out, "{}:{:?}:{:?}: {}", f.code, f.path, f.line, f.message).unwrap();
        }
        out
    };
    for profile in [Profile::Extended, Profile::Reference] {
        let plain = Rulebook::discover(&cwd, Some(&home), &Options::new().profile(profile));
        let sharing = Rulebook::discover(
            &cwd,
            Some(&home),
            &Options::new().profile(profile).share_reads(true),
        );
        let kept = sharing.shared_reads().expect("the book keeps its reads");
        assert!(kept.len() >= 5, "{} files kept", kept.len());
        assert!(plain.shared_reads().is_none());
        let project = rulebook::Located::new(&cwd, Some(&home), profile).project;
        assert_eq!(&project, plain.project());
        for host in [None, Some(rulebook::tool("crush").unwrap())] {
            let options = CheckOptions::new().host(host);
            let expected = shown(&check(&plain, &options));
            assert!(expected.contains("duplicate-load"), "{expected}");
            assert_eq!(shown(&check(&sharing, &options)), expected, "{profile:?}");
            let apart = check_with_views(&plain, &options, || {
                ToolViews::read(&project, &view_hosts(&options))
            });
            assert_eq!(shown(&apart), expected, "{profile:?} {host:?}");
            // Views of other tools than the check reads are made again.
            let other = check_with_views(&plain, &options, || {
                ToolViews::read(&project, &[rulebook::tool("zed").unwrap()])
            });
            assert_eq!(shown(&other), expected, "{profile:?} {host:?}");
        }
    }
}

/// A view reads a file through the reads it shares: the bytes kept for a path are what the
/// view gets, not the disk's (so a view never reads a file discovery read already).
#[test]
fn a_view_takes_a_file_kept_in_its_shared_reads() {
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let (cwd, home) = (dir.path().join("p"), dir.path().join("h"));
    write(&cwd, ".git/HEAD", "ref: refs/heads/main\n");
    write(&cwd, "AGENTS.md", "On disk.\n");
    std::fs::create_dir_all(&home).unwrap();
    let codex = rulebook::tool("codex").unwrap();
    let options = rulebook::HostOptions::new(&cwd, &home);
    assert!(
        rulebook::emulate(codex, &options)
            .prompt
            .contains("On disk.")
    );
    let shared = Arc::new(rulebook::SharedReads::default());
    let canonical = std::fs::canonicalize(&cwd).unwrap();
    for dir in [&cwd, &canonical] {
        shared.keep(&dir.join("AGENTS.md"), b"Kept.\n");
    }
    let sharing = options.share_reads(Some(Arc::clone(&shared)));
    let view = rulebook::emulate(codex, &sharing);
    assert!(view.prompt.contains("Kept."), "{}", view.prompt);
    assert!(!view.prompt.contains("On disk."));
}

/// A view's guard finds a link out of the project among many files of one folder (listed
/// once, not asked about file by file) as among a few.
#[cfg(unix)]
#[test]
fn a_link_out_of_the_project_is_found_among_many_files_of_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (cwd, home) = (dir.path().join("p"), dir.path().join("h"));
    write(&cwd, ".git/HEAD", "ref: refs/heads/main\n");
    std::fs::create_dir_all(&home).unwrap();
    write(
        dir.path(),
        "secret.mdc",
        "---\nalwaysApply: true\n---\nSecret.\n",
    );
    for i in 0..100 {
        write(
            &cwd,
            &format!(".cursor/rules/r{i:03}.mdc"),
            "---\nalwaysApply: true\n---\nA rule.\n",
        );
    }
    // Named to come after the first files of the folder, when it is listed.
    std::os::unix::fs::symlink(
        dir.path().join("secret.mdc"),
        cwd.join(".cursor/rules/r050-link.mdc"),
    )
    .unwrap();
    let view = rulebook::emulate(
        rulebook::tool("cursor").unwrap(),
        &rulebook::HostOptions::new(&cwd, &home),
    );
    let outside: Vec<_> = view
        .files
        .iter()
        .filter(|f| f.outside.is_some())
        .map(|f| f.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(outside, ["r050-link.mdc"]);
    assert!(view.prompt.is_empty(), "the prompt is withheld");
    assert_eq!(view.files.len(), 101);
}

/// A book of many rules lints the same with its glob index built on another core as a
/// small one does on this thread: a glob that does not compile is said once, among the
/// other findings, and what the lint finds of each file is there.
#[test]
fn a_large_book_says_its_glob_findings_as_a_small_one_does() {
    let findings = |rules: usize| {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("project");
        write(&p, ".git/HEAD", "ref: refs/heads/main\n");
        write(
            &p,
            ".cursor/rules/bad-glob.mdc",
            "---\ndescription: Bad\nglobs: \"src/[a-\"\n---\nBody\n",
        );
        write(
            &p,
            ".cursor/rules/empty.mdc",
            "---\ndescription: Empty\n---\n",
        );
        for i in 0..rules {
            write(
                &p,
                &format!(".cursor/rules/many/r{i:04}.mdc"),
                &format!("---\ndescription: Rule {i}\nglobs: \"src/{i}/**\"\n---\nBody {i}\n"),
            );
        }
        let book = Rulebook::discover(&p, Some(&dir.path().join("home")), &Options::new());
        assert_eq!(book.all().len(), rules + 2);
        check(&book, &CheckOptions::new())
            .findings
            .iter()
            .map(|f| {
                let name = f.path.as_deref().and_then(Path::file_name);
                format!("{} {:?}", f.code, name)
            })
            .collect::<Vec<_>>()
    };
    let small = findings(1);
    assert!(
        small.iter().any(|f| f.starts_with("invalid-glob")),
        "{small:?}"
    );
    assert!(small.iter().any(|f| f.contains("empty.mdc")), "{small:?}");
    // The same findings: none is said of the many rules, which are fine.
    assert_eq!(findings(600), small);
}
