//! The kit's own promises, without a provider: the coercion table of behaviour.md §5 (both
//! rows that differ), directory keys and names, the whole-file default, the project
//! directories of E11, scoping to a directory, and `@path` imports.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fmt::Write;
use std::path::{Path, PathBuf};

use rulebook_kit::coerce::{
    AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy, coerce_fields,
};
use rulebook_kit::frontmatter::Recovery;
use rulebook_kit::{
    Activation, Dialect, ImportOptions, LoadContext, Map, Mechanisms, Place, Rule, SourceMeta,
    Value, apply_whole_file_default, dir_key, dir_scoped_name, expand_imports, project_dirs,
    recovery, scope_to_directory,
};

const NATIVE: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOrScalarText,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::ScalarElementsAsText,
);
const CURSOR: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::OnlyTrue,
    GlobsPolicy::StringsOnly,
);

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

/// Every case of the table, under both rows, as one snapshot: the typed fields and the
/// warnings.
#[test]
fn the_coercion_table() {
    let cases: Vec<(&str, Vec<(&str, Value)>)> = vec![
        ("description string", vec![("description", s("Docs"))]),
        ("description number", vec![("description", Value::Int(42))]),
        ("description bool", vec![("description", Value::Bool(true))]),
        ("description null", vec![("description", Value::Null)]),
        (
            "description list",
            vec![("description", Value::List(vec![s("a")]))],
        ),
        ("alwaysApply true", vec![("alwaysApply", Value::Bool(true))]),
        (
            "alwaysApply false",
            vec![("alwaysApply", Value::Bool(false))],
        ),
        ("alwaysApply null", vec![("alwaysApply", Value::Null)]),
        ("alwaysApply string", vec![("alwaysApply", s("true"))]),
        (
            "globs string",
            vec![("globs", s("src/**/*.ts, *.{ts,tsx}"))],
        ),
        (
            "globs list with scalars",
            vec![(
                "globs",
                Value::List(vec![
                    s("*.ts"),
                    Value::Int(7),
                    Value::Bool(false),
                    Value::Null,
                ]),
            )],
        ),
        ("globs null", vec![("globs", Value::Null)]),
        ("globs number", vec![("globs", Value::Int(3))]),
        ("condition string", vec![("condition", s("console\\.log"))]),
        (
            "condition list with empties and a number",
            vec![("condition", Value::List(vec![s("a"), s(""), Value::Int(1)]))],
        ),
        (
            "condition wrong type",
            vec![("condition", Value::Bool(true))],
        ),
        ("condition empty string", vec![("condition", s(""))]),
        (
            "ttsr_trigger before ttsrTrigger",
            vec![("ttsrTrigger", s("late")), ("ttsr_trigger", s("early"))],
        ),
        ("ttsrTrigger alone", vec![("ttsrTrigger", s("x"))]),
        (
            "ttsr_trigger wrong type",
            vec![("ttsr_trigger", Value::Int(1)), ("ttsrTrigger", s("y"))],
        ),
        (
            "condition wins over ttsr_trigger",
            vec![("condition", s("c")), ("ttsr_trigger", s("t"))],
        ),
    ];
    let mut out = String::new();
    for (label, entries) in cases {
        let map: Map = entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect();
        let _ = writeln!(out, "## {label}");
        for (row, policy) in [("native", NATIVE), ("cursor", CURSOR)] {
            for split in [false, true] {
                let (fields, warnings) =
                    coerce_fields(&map, policy, split, Path::new("/p/r.md"), None);
                let _ = writeln!(
                    out,
                    "{row}{}: description={:?} always_apply={:?} globs={:?} ttsr_trigger={:?} condition={:?}",
                    if split { " (split)" } else { "" },
                    fields.description,
                    fields.always_apply,
                    fields.globs,
                    fields.ttsr_trigger,
                    fields.condition
                );
                for w in warnings {
                    let _ = writeln!(out, "  warning[{}]: {}", w.code, w.message);
                }
            }
        }
    }
    insta::assert_snapshot!(out);
}

#[test]
fn the_recovery_follows_the_mechanisms() {
    assert_eq!(recovery(&Mechanisms::EXTENDED), Recovery::QuoteValues);
    assert_eq!(recovery(&Mechanisms::REFERENCE), Recovery::LineParser);
}

#[test]
fn directory_keys_and_names() {
    let root = Path::new("/w/repo");
    let home = Path::new("/home/me");
    assert_eq!(dir_key(root, root, home), "");
    assert_eq!(
        dir_key(Path::new("/w/repo/packages/api"), root, home),
        "packages:api"
    );
    assert_eq!(dir_key(Path::new("/home/me/notes"), root, home), "~:notes");
    assert_eq!(dir_key(Path::new("/w/other/x"), root, home), "..:other:x");
    assert_eq!(
        dir_key(Path::new("/elsewhere"), root, home),
        "..:..:elsewhere"
    );
    assert_eq!(
        dir_key(Path::new("/home/me/x"), root, Path::new("")),
        "..:..:home:me:x",
        "no home known"
    );
    assert_eq!(dir_scoped_name(root, "AGENTS", root, home), "AGENTS");
    assert_eq!(
        dir_scoped_name(Path::new("/w/repo/apps/web"), "AGENTS", root, home),
        "apps:web:AGENTS"
    );
}

fn rule(frontmatter: Vec<(&str, Value)>) -> Rule {
    let mut rule = Rule::new(
        "r",
        "/p/.cursorrules",
        "body",
        SourceMeta::new("cursor", "Cursor", rulebook_kit::Level::Project, "/p"),
    );
    rule.frontmatter = frontmatter
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    rule
}

/// A whole-file source applies always, unless its frontmatter says otherwise with a boolean.
#[test]
fn the_whole_file_default() {
    let mut plain = rule(vec![]);
    apply_whole_file_default(&mut plain);
    assert_eq!(plain.always_apply, Some(true));
    let mut off = rule(vec![("alwaysApply", Value::Bool(false))]);
    off.always_apply = None;
    apply_whole_file_default(&mut off);
    assert_eq!(off.always_apply, None, "the file's own `false` stands");
    let mut text = rule(vec![("alwaysApply", s("false"))]);
    apply_whole_file_default(&mut text);
    assert_eq!(text.always_apply, Some(true), "a string is not a boolean");
}

#[test]
fn project_directories_nearest_first() {
    let ctx = LoadContext::new("/w/repo/apps/api", "/home/me")
        .project_root_at("/w/repo")
        .nested(
            [(
                ".cursor".to_owned(),
                vec![
                    PathBuf::from("/w/repo/apps/api/src/feature"),
                    PathBuf::from("/w/repo/apps/api"),
                    PathBuf::from("/w/repo/apps/web"),
                ],
            )]
            .into(),
        );
    let dirs: Vec<(PathBuf, Place)> = project_dirs(&ctx, ".cursor")
        .into_iter()
        .map(|d| (d.dir, d.place))
        .collect();
    assert_eq!(
        dirs,
        [
            (PathBuf::from("/w/repo/apps/api"), Place::Cwd),
            (PathBuf::from("/w/repo/apps"), Place::Ancestor),
            (PathBuf::from("/w/repo"), Place::Ancestor),
            (
                PathBuf::from("/w/repo/apps/api/src/feature"),
                Place::Descendant("src/feature".to_owned())
            ),
        ],
        "the cwd, its ancestors up to the root, then the nested directories below the cwd only"
    );
    let reference = LoadContext::new("/w/repo/apps/api", "/home/me")
        .project_root_at("/w/repo")
        .mechanisms(Mechanisms::REFERENCE);
    assert_eq!(
        project_dirs(&reference, ".cursor").len(),
        1,
        "no chain in Reference"
    );
    let outside = LoadContext::new("/elsewhere", "/home/me").project_root_at("/w/repo");
    assert_eq!(
        project_dirs(&outside, ".cursor").len(),
        1,
        "a cwd outside the root has no chain"
    );
}

#[test]
fn scoping_a_rule_to_its_directory() {
    let mut globbed = rule(vec![]);
    globbed.globs = Some(vec![
        "*.tsx".to_owned(),
        "./src/*.ts".to_owned(),
        " /lib/** ".to_owned(),
    ]);
    globbed.description = Some("UI".to_owned());
    scope_to_directory(&mut globbed, "apps/web");
    assert_eq!(
        globbed.globs.as_deref().unwrap(),
        ["apps/web/**/*.tsx", "apps/web/src/*.ts", "apps/web/lib/**"]
    );
    assert_eq!(globbed.description.as_deref(), Some("UI"));

    let mut always = rule(vec![]);
    always.always_apply = Some(true);
    always.globs = Some(Vec::new());
    scope_to_directory(&mut always, "apps/api");
    assert_eq!(always.globs.as_deref().unwrap(), ["apps/api/**"]);
    assert_eq!(
        always.always_apply, None,
        "applies under its directory, not everywhere"
    );
    assert_eq!(always.activation, Some(Activation::Glob));
    assert_eq!(
        always.description.as_deref(),
        Some("Instructions for folder 'apps/api'")
    );

    let mut on = rule(vec![]);
    on.activation = Some(Activation::AlwaysOn);
    on.description = Some(String::new());
    scope_to_directory(&mut on, "x");
    assert_eq!(on.activation, Some(Activation::Glob));
    assert_eq!(
        on.description.as_deref(),
        Some("Instructions for folder 'x'")
    );

    let mut manual = rule(vec![]);
    manual.activation = Some(Activation::Manual);
    manual.description = Some("On request".to_owned());
    scope_to_directory(&mut manual, "x");
    assert_eq!(
        manual.activation,
        Some(Activation::Manual),
        "only an always rule changes"
    );
}

#[test]
fn imports_are_expanded_recursively_and_failures_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(root.join("docs/a.md"), "A says @./b.md").unwrap();
    std::fs::write(root.join("docs/b.md"), "B").unwrap();
    std::fs::write(root.join("docs/loop.md"), "loop @./loop.md").unwrap();
    let options = ImportOptions {
        max_depth: 4,
        boundary: root.clone(),
        allow_outside: false,
        home: PathBuf::from("/nonexistent-home"),
        dialect: Dialect::Claude,
        max_size: None,
    };
    let file = root.join("CLAUDE.md");
    let expanded = expand_imports("See @docs/a.md and `@docs/b.md`.", &file, &options);
    assert_eq!(expanded.text, "See A says B and `@docs/b.md`.");
    assert_eq!(
        expanded.includes,
        [root.join("docs/a.md"), root.join("docs/b.md")]
    );
    assert!(expanded.diagnostics.is_empty());

    let failed = expand_imports(
        "@docs/missing.md @docs/loop.md @/etc/hostname",
        &file,
        &options,
    );
    assert!(
        failed.text.starts_with("@docs/missing.md loop @./loop.md"),
        "{}",
        failed.text
    );
    assert!(
        failed.text.ends_with("@/etc/hostname"),
        "outside the project: left as written"
    );
    assert_eq!(failed.diagnostics.len(), 3, "{:?}", failed.diagnostics);
}

/// Where a token is an import, and how deep imports go.
#[test]
fn what_is_an_import_and_how_deep_it_goes() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().canonicalize().unwrap();
    let root = top.join("p");
    std::fs::create_dir_all(&root).unwrap();
    for (name, text) in [
        ("one.md", "1 @two.md"),
        ("two.md", "2 @three.md"),
        ("three.md", "3 @four.md"),
        ("four.md", "4 @five.md"),
        ("five.md", "5"),
        ("x.md", "X"),
    ] {
        std::fs::write(root.join(name), text).unwrap();
    }
    std::fs::create_dir_all(root.join("folder")).unwrap();
    std::fs::create_dir_all(top.join("home")).unwrap();
    std::fs::write(top.join("home/mine.md"), "MINE").unwrap();
    let options = |max_depth, gemini: bool| ImportOptions {
        max_depth,
        boundary: root.clone(),
        allow_outside: false,
        home: top.join("home"),
        dialect: if gemini {
            Dialect::Gemini
        } else {
            Dialect::Claude
        },
        max_size: None,
    };
    let file = root.join("CLAUDE.md");
    // Four hops: five.md is the fifth file, one hop too many.
    let deep = expand_imports("@one.md", &file, &options(4, false));
    assert_eq!(deep.text, "1 2 3 4 @five.md");
    assert_eq!(deep.includes.len(), 4);
    assert!(
        deep.diagnostics[0]
            .message
            .contains("the depth limit (4 hops)")
    );
    assert_eq!(
        expand_imports("@one.md", &file, &options(5, false)).text,
        "1 2 3 4 5"
    );
    // Not after a word character, not in code, not in a fenced block; `~/` is the home.
    let text = "a@x.md `@x.md` @x.md\n```\n@x.md\n```\n~~~\n@x.md\n~~~\n@~/mine.md";
    let expanded = expand_imports(text, &file, &options(4, false));
    assert_eq!(
        expanded.text,
        "a@x.md `@x.md` X\n```\n@x.md\n```\n~~~\n@x.md\n~~~\n@~/mine.md"
    );
    assert!(
        expanded.diagnostics[0]
            .message
            .contains("outside the project"),
        "the home is outside the project: {:?}",
        expanded.diagnostics
    );
    let mut outside = options(4, false);
    outside.allow_outside = true;
    assert_eq!(expand_imports("@~/mine.md", &file, &outside).text, "MINE");
    // A directory is not a file; Gemini's rule: a token starts with `.`, `/` or a letter.
    let folder = expand_imports("@folder", &file, &options(4, false));
    assert_eq!(folder.text, "@folder");
    assert!(
        folder.diagnostics[0].message.contains("not a regular file"),
        "{:?}",
        folder.diagnostics
    );
    // A named pipe is refused before it is read (reading it would block).
    let fifo = std::process::Command::new("mkfifo")
        .arg(root.join("pipe"))
        .status()
        .is_ok_and(|s| s.success());
    if fifo {
        let piped = expand_imports("@pipe", &file, &options(4, false));
        assert_eq!(piped.text, "@pipe");
        assert!(piped.diagnostics[0].message.contains("not a regular file"));
    }
    assert_eq!(
        expand_imports("@1x @x.md", &file, &options(4, true)).text,
        "@1x X"
    );
    assert_eq!(
        expand_imports("@ alone @", &file, &options(4, false)).text,
        "@ alone @"
    );
    // The warning names the line.
    let missing = expand_imports("first\nsecond @gone.md", &file, &options(4, false));
    assert_eq!(missing.diagnostics[0].line, Some(2));
    // Claude's dialect (the tokenizer the emulation shares): a `#fragment` is dropped from
    // the path, a binary file is no import, a token may follow a code span right away.
    let claude = expand_imports("@x.md#part @x.png `c`@x.md", &file, &options(4, false));
    assert_eq!(claude.text, "X @x.png `c`X");
    assert!(claude.diagnostics.is_empty());
}

/// `FileLoader` on a real tree: the project directories of E11 (names, glob roots, the
/// descendants handed back), one file by name, the raw mode, and the reading options the
/// mechanisms imply (the E10 boundary for project files only).
#[cfg(unix)]
#[test]
fn the_file_loader_reads_the_chain_and_single_files() {
    use rulebook_kit::{DiagnosticCode, FileLoader, Level, LoadResult, Profile};

    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap().join("repo");
    let cwd = root.join("apps/api");
    let feature = cwd.join("src/feature");
    let home = root.parent().unwrap().join("home");
    for (path, text) in [
        (
            root.join(".cursor/rules/a.mdc"),
            "---\nalwaysApply: true\n---\nA",
        ),
        (
            cwd.join(".cursor/rules/b.mdc"),
            "---\nalwaysApply: true\n---\nB",
        ),
        (feature.join(".cursor/rules/c.mdc"), "C"),
        (root.parent().unwrap().join("outside.md"), "far away"),
        (home.join("notes.md"), "---\nx: 1\n---\nhome notes"),
    ] {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::os::unix::fs::symlink(
        root.parent().unwrap().join("outside.md"),
        cwd.join("link.md"),
    )
    .unwrap();
    let ctx = LoadContext::new(&cwd, &home)
        .profile(Profile::Extended)
        .project_root_at(&root)
        .nested([(".cursor".to_owned(), vec![feature.clone()])].into());
    let loader = FileLoader::new(&ctx, "cursor", "Cursor", CURSOR);
    assert_eq!(loader.mechanisms(), &ctx.mechanisms);

    let mut out = LoadResult::default();
    let descendants =
        loader.load_project_dirs(&ctx, Path::new(".cursor/rules"), &["mdc"], &mut out);
    let names: Vec<&str> = out.items.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["b", "a", "apps:api:src:feature:c"]);
    assert_eq!(out.items[0].glob_root, None, "the cwd's own rules");
    assert_eq!(out.items[1].glob_root.as_deref(), Some(root.as_path()));
    assert_eq!(descendants, [(2, "src/feature".to_owned())]);

    // One file: a missing one is nothing, silently; a path through a file is an error.
    let mut one = LoadResult::default();
    assert_eq!(
        loader.load_file(
            &cwd.join("none.md"),
            "none",
            Level::Project,
            Some(&root),
            &mut one
        ),
        None
    );
    assert!(one.diagnostics.is_empty());
    assert_eq!(
        loader.load_file(
            &cwd.join(".cursor/rules/b.mdc/x"),
            "x",
            Level::Project,
            Some(&root),
            &mut one
        ),
        None
    );
    assert_eq!(one.diagnostics.len(), 1);
    assert_eq!(one.diagnostics[0].code, DiagnosticCode::ReadFailed);
    // The index returned is the rule's place in `items`.
    let mut two = LoadResult::default();
    two.items.push(out.items[0].clone());
    let at = loader
        .load_file(
            &home.join("notes.md"),
            "notes",
            Level::User,
            Some(&root),
            &mut two,
        )
        .unwrap();
    assert_eq!((at, two.items[at].name.as_str()), (1, "notes"));
    assert_eq!(&*two.items[at].content, "home notes");
    // Raw: the whole text is the content.
    let raw = FileLoader::new(&ctx, "agents-md", "AGENTS.md", CURSOR).raw(true);
    let at = raw
        .load_file(
            &home.join("notes.md"),
            "notes",
            Level::User,
            Some(&root),
            &mut two,
        )
        .unwrap();
    assert_eq!(&*two.items[at].content, "---\nx: 1\n---\nhome notes");
    // E10: a project file that links outside the root is refused; the same link read as a
    // user file (no boundary) is read.
    let mut linked = LoadResult::default();
    assert_eq!(
        loader.load_file(
            &cwd.join("link.md"),
            "link",
            Level::Project,
            Some(&root),
            &mut linked
        ),
        None
    );
    assert_eq!(linked.diagnostics[0].code, DiagnosticCode::OutsideProject);
    assert!(
        loader
            .load_file(
                &cwd.join("link.md"),
                "link",
                Level::User,
                Some(&root),
                &mut linked
            )
            .is_some()
    );
    // With same-file dedup (Extended), the real path of a linked file is kept.
    let read = linked.items.last().unwrap();
    assert_eq!(
        read.source.real_path.as_deref(),
        Some(root.parent().unwrap().join("outside.md").as_path())
    );
}

/// The original's `agents` provider folds kebab-case keys: `always-apply` is `alwaysApply`,
/// and where both are written the camelCase one stands; without folding, the kebab key is
/// just an unknown key.
#[test]
fn kebab_keys_fold_to_camel_case() {
    use rulebook_kit::{FileLoader, Level, LoadResult, Profile};

    let dir = tempfile::tempdir().unwrap();
    let kebab = dir.path().join("kebab.md");
    let both = dir.path().join("both.md");
    std::fs::write(&kebab, "---\nalways-apply: true\nttsr-trigger: x\n---\nK").unwrap();
    std::fs::write(&both, "---\nalways-apply: false\nalwaysApply: true\n---\nB").unwrap();
    let ctx = LoadContext::new(dir.path(), dir.path()).profile(Profile::Extended);
    let load = |fold: bool, path: &Path| {
        let mut out = LoadResult::default();
        FileLoader::new(&ctx, "agents", "Agents", NATIVE)
            .fold_kebab_keys(fold)
            .load_file(path, "x", Level::Project, None, &mut out)
            .unwrap();
        out.items.remove(0)
    };
    let folded = load(true, &kebab);
    assert_eq!(folded.always_apply, Some(true));
    assert!(folded.frontmatter.contains_key("ttsrTrigger"));
    assert!(!folded.frontmatter.contains_key("always-apply"));
    assert_eq!(load(false, &kebab).always_apply, None);
    assert_eq!(
        load(true, &both).always_apply,
        Some(true),
        "the camelCase key stands"
    );
    let reference = LoadContext::new(dir.path(), dir.path()).profile(Profile::Reference);
    assert_eq!(
        FileLoader::new(&reference, "agents", "Agents", NATIVE).mechanisms(),
        &rulebook_kit::Mechanisms::REFERENCE
    );
}

/// An import back to the file being expanded is a cycle; a code span hides an import
/// even after a space inside it; Gemini's rule: a path starts with `.`, `/` or a letter.
#[test]
fn cycles_to_the_root_code_spans_and_path_starts() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("CLAUDE.md"), "top @a.md").unwrap();
    std::fs::write(root.join("a.md"), "a @CLAUDE.md").unwrap();
    std::fs::write(root.join("_x.md"), "X").unwrap();
    std::fs::write(root.join("x.md"), "X").unwrap();
    let options = |gemini: bool| ImportOptions {
        max_depth: 5,
        boundary: root.clone(),
        allow_outside: false,
        home: root.join("home"),
        dialect: if gemini {
            Dialect::Gemini
        } else {
            Dialect::Claude
        },
        max_size: None,
    };
    let file = root.join("CLAUDE.md");
    let cycle = expand_imports("top @a.md", &file, &options(false));
    assert_eq!(cycle.text, "top a @CLAUDE.md");
    assert!(cycle.diagnostics[0].message.contains("a cycle of imports"));

    let spans = expand_imports("`see @x.md here` and @x.md", &file, &options(false));
    assert_eq!(spans.text, "`see @x.md here` and X");

    let absolute = format!("@{}", root.join("x.md").display());
    let text = format!("@_x.md @./x.md {absolute} @x.md");
    assert_eq!(
        expand_imports(&text, &file, &options(false)).text,
        "X X X X"
    );
    assert_eq!(
        expand_imports(&text, &file, &options(true)).text,
        "@_x.md X X X",
        "Gemini reads no import starting with `_`"
    );
}

/// A memory file (CLAUDE.md, GEMINI.md): a directory of its name is passed over, imports
/// expand in the dialect (Claude Code hides HTML comments first, Gemini CLI keeps them), the
/// rule is always-apply with its includes, a file that is one import says which, and an
/// empty one loads nothing.
#[test]
fn memory_files_load_as_claude_and_gemini_read_them() {
    use rulebook_kit::{FileLoader, Level, LoadResult};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("MEM.md"), "<!-- hidden -->\nsee @a.md").unwrap();
    std::fs::write(root.join("a.md"), "A").unwrap();
    std::fs::write(root.join("ONE.md"), "@a.md\n").unwrap();
    std::fs::write(root.join("EMPTY.md"), "  \n").unwrap();
    std::fs::create_dir(root.join("DIR.md")).unwrap();
    let ctx = LoadContext::new(&root, root.join("home"));
    let loader = FileLoader::new(&ctx, "claude", "Claude Code", NATIVE).raw(true);
    let options = |dialect| ImportOptions {
        max_depth: 4,
        boundary: root.clone(),
        allow_outside: false,
        home: root.join("home"),
        dialect,
        max_size: None,
    };
    let mut out = LoadResult::default();
    let load = |file: &str, dialect, out: &mut LoadResult<Rule>| {
        loader.load_memory_file(
            &root.join(file),
            file,
            Level::Project,
            Some(&root),
            &options(dialect),
            out,
        )
    };
    let claude = load("MEM.md", Dialect::Claude, &mut out).unwrap();
    let rule = &out.items[claude.index];
    assert_eq!(&*rule.content, "\nsee A");
    assert_eq!(rule.includes, [root.join("a.md")]);
    assert_eq!(
        (rule.always_apply, rule.activation),
        (Some(true), Some(Activation::AlwaysOn))
    );
    assert_eq!(claude.one_import, None);
    let gemini = load("MEM.md", Dialect::Gemini, &mut out).unwrap();
    assert_eq!(&*out.items[gemini.index].content, "<!-- hidden -->\nsee A");
    let one = load("ONE.md", Dialect::Claude, &mut out).unwrap();
    assert_eq!(one.one_import, Some(root.join("a.md")));
    let before = out.items.len();
    assert!(load("EMPTY.md", Dialect::Claude, &mut out).is_none());
    assert!(load("DIR.md", Dialect::Claude, &mut out).is_none());
    assert_eq!(out.items.len(), before, "nothing loads for either");
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
}

/// A copy and a link of one text are one group, its bytes counted again for each copy
/// after the first; a different text, and blank files, are not duplicates.
#[test]
fn files_of_the_same_text_are_loaded_twice() {
    use rulebook_kit::host::{Host, HostView, Scope, Status};
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    std::fs::write(p("AGENTS.md"), "Use tabs.\n").unwrap();
    std::fs::write(p("CLAUDE.md"), "Use tabs.\n").unwrap();
    std::fs::write(p("other.md"), "Use spaces.\n").unwrap();
    std::fs::write(p("blank1.md"), "\n").unwrap();
    std::fs::write(p("blank2.md"), "\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(p("AGENTS.md"), p("link.md")).unwrap();
    let mut names = vec![
        "AGENTS.md",
        "other.md",
        "CLAUDE.md",
        "blank1.md",
        "blank2.md",
    ];
    if cfg!(unix) {
        names.push("link.md");
    }
    let mut view = HostView::new(Host::new(&AnyTool));
    for name in &names {
        view.push(p(name), Scope::Project, Status::Loaded, "test");
    }
    // A file the tool does not load is no duplicate.
    std::fs::write(p("unread.md"), "Use tabs.\n").unwrap();
    view.push(p("unread.md"), Scope::Project, Status::NotRead, "test");
    let found = view.duplicates();
    assert_eq!(found.len(), 1);
    let shown: Vec<String> = found[0]
        .paths
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let expected: &[&str] = if cfg!(unix) {
        &["AGENTS.md", "CLAUDE.md", "link.md"]
    } else {
        &["AGENTS.md", "CLAUDE.md"]
    };
    assert_eq!(shown, expected);
    assert_eq!(found[0].bytes_lost, if cfg!(unix) { 20 } else { 10 });
}

/// A tool for the views these tests build by hand: it loads nothing itself.
struct AnyTool;

/// What [`AnyTool`] is.
static ANY_INFO: rulebook_kit::host::ToolInfo =
    rulebook_kit::host::ToolInfo::new("any", "Any", "any", "these tests");

impl rulebook_kit::host::Tool for AnyTool {
    fn info(&self) -> &rulebook_kit::host::ToolInfo {
        &ANY_INFO
    }

    fn emulate(&self, _options: &rulebook_kit::host::HostOptions) -> rulebook_kit::host::HostView {
        rulebook_kit::host::HostView::new(rulebook_kit::host::Host::new(&AnyTool))
    }
}

/// A folder of many rule files is read on several threads while cores are idle, a batch
/// at a time: the rules and the findings come out in the files' order all the same, each
/// finding beside its file's place (every seventh file is broken YAML).
#[test]
fn a_folder_read_on_several_threads_gives_what_one_thread_gives() {
    use rulebook_kit::{FileLoader, LoadResult, Profile};

    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    let rules = root.join(".cursor/rules");
    std::fs::create_dir_all(&rules).unwrap();
    let files = 1_000;
    for i in 0..files {
        let text = if i % 7 == 3 {
            format!("---\ndescription: [unclosed {i}\n---\nBody {i}\n")
        } else {
            format!("---\ndescription: Rule {i}\nglobs: src/{i}/**\n---\nBody {i}\n")
        };
        std::fs::write(rules.join(format!("r{i:04}.mdc")), text).unwrap();
    }
    let ctx = LoadContext::new(&root, root.join("home")).profile(Profile::Extended);
    let loader = FileLoader::new(&ctx, "cursor", "Cursor", CURSOR);
    let load = || {
        let mut out = LoadResult::default();
        loader.load_dir(
            &rules,
            &["mdc"],
            rulebook_kit::Level::Project,
            Some(&root),
            &mut out,
        );
        out
    };
    let out = load();
    let names: Vec<&str> = out.items.iter().map(|r| r.name.as_str()).collect();
    let mut expected: Vec<String> = (0..files).map(|i| format!("r{i:04}")).collect();
    expected.sort();
    assert_eq!(names, expected);
    for (i, rule) in out.items.iter().enumerate() {
        assert_eq!(&*rule.content, format!("Body {i}"), "{}", rule.name);
    }
    // Findings by file, in the files' order.
    let paths: Vec<String> = out
        .diagnostics
        .iter()
        .filter_map(|d| d.path.as_ref())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    assert!(paths.contains(&"r0003.mdc".to_owned()), "{paths:?}");
    // The same again, however the threads ran.
    let again = load();
    assert_eq!(again.items, out.items);
    assert_eq!(again.diagnostics, out.diagnostics);
}

/// The views of one run walk a root once for every name they look for, and each finds
/// what a walk for its name alone finds: hidden folders of other names are skipped either
/// way; a folder bearing another wanted name (`AGENTS.md/`), which a walk for several
/// names does not enter, makes each view walk for its own name again.
#[test]
fn one_walk_below_a_root_finds_for_each_name_what_its_own_walk_finds() {
    use rulebook_kit::host::util::{BELOW_NAMES, below, with_shared_reads};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for file in [
        "a/AGENTS.md",
        "a/CLAUDE.md",
        "b/.cursor/rules/x.mdc",
        "b/.windsurf/rules/y.md",
        "b/.claude/AGENTS.md",
        "c/d/GEMINI.md",
        "c/d/WARP.md",
        "c/.goosehints",
    ] {
        let path = root.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "x").unwrap();
    }
    let each = |root: &std::path::Path| -> Vec<Vec<std::path::PathBuf>> {
        BELOW_NAMES.iter().map(|n| below(root, n)).collect()
    };
    let alone = each(&root);
    assert_eq!(alone[3], [root.join("a")], "AGENTS.md");
    let shared = std::sync::Arc::new(rulebook_registry::SharedReads::default());
    assert_eq!(
        with_shared_reads(std::sync::Arc::clone(&shared), || each(&root)),
        alone
    );
    // A folder named as another wanted name, with a rule file inside.
    std::fs::create_dir_all(root.join("e/AGENTS.md")).unwrap();
    std::fs::write(root.join("e/AGENTS.md/GEMINI.md"), "x").unwrap();
    let alone = each(&root);
    assert!(
        alone[6].contains(&root.join("e/AGENTS.md")),
        "{:?}",
        alone[6]
    );
    let shared = std::sync::Arc::new(rulebook_registry::SharedReads::default());
    assert_eq!(with_shared_reads(shared, || each(&root)), alone);
}
