//! The crate's own API: the hosts' ids, names and provenance (what `--as` accepts and what
//! `explain` prints), `HostView::touching`, and the fixture cases.

use std::path::Path;

use rulebook_hosts::Status;
use rulebook_hosts::fixture::{Case, generated};

use rulebook_test::Tree;

use crate::tool;

/// `--as <id>` takes the ids of the table of tools; each names its host back, `Display` prints the
/// id, and an unknown id names no host.
#[test]
fn every_host_is_found_by_its_id() {
    for &host in rulebook::tools() {
        assert_eq!(rulebook::tool(host.id()), Some(host), "{}", host.id());
        assert_eq!(host.to_string(), host.id());
    }
    assert_eq!(rulebook::tool("vscode"), None);
    assert_eq!(rulebook::tool("Codex"), None);
}

/// The tool's name and where its emulation comes from, as `explain --as` prints them: the
/// npm release the oracle ran for the five verified tools, "documented, not verified" for
/// the others (crate doc).
#[test]
fn each_host_says_which_tool_and_version_it_reproduces() {
    let table: Vec<(&str, &str, String)> = rulebook::tools()
        .iter()
        .map(|h| (h.id(), h.display_name(), h.provenance()))
        .collect();
    let expected = [
        ("codex", "Codex CLI", "verified against Codex CLI 0.171.0"),
        (
            "claude",
            "Claude Code",
            "verified against Claude Code 2.1.332",
        ),
        ("gemini", "Gemini CLI", "verified against Gemini CLI 0.61.0"),
        ("cline", "Cline CLI", "verified against Cline CLI 3.0.65"),
        (
            "continue",
            "Continue CLI (cn)",
            "verified against Continue CLI (cn) 1.5.47",
        ),
        ("opencode", "OpenCode", "verified against OpenCode 1.18.33"),
        (
            "kilo-cli",
            "Kilo Code CLI",
            "verified against Kilo Code CLI 7.7.7",
        ),
        (
            "copilot-cli",
            "GitHub Copilot CLI",
            "verified against GitHub Copilot CLI 1.0.102",
        ),
        ("cursor", "Cursor", "Cursor: documented, not verified"),
        ("windsurf", "Windsurf", "Windsurf: documented, not verified"),
        (
            "copilot",
            "GitHub Copilot (VS Code)",
            "GitHub Copilot (VS Code): documented, not verified",
        ),
        ("kiro", "Kiro", "Kiro: documented, not verified"),
        ("zed", "Zed", "Zed: documented, not verified"),
        ("qwen", "Qwen Code", "verified against Qwen Code 0.24.4"),
        (
            "kilocode",
            "Kilo Code",
            "Kilo Code: documented, not verified",
        ),
        (
            "amazonq",
            "Amazon Q Developer",
            "Amazon Q Developer: documented, not verified",
        ),
        ("trae", "Trae", "Trae: documented, not verified"),
        (
            "augment",
            "Augment CLI",
            "verified against Augment CLI 0.36.0",
        ),
        ("junie", "Junie", "Junie: documented, not verified"),
        ("warp", "Warp", "Warp: documented, not verified"),
        ("crush", "Crush", "Crush: documented, not verified"),
        ("goose", "Goose", "Goose: documented, not verified"),
        (
            "openhands",
            "OpenHands SDK",
            "verified against OpenHands SDK 1.58.2",
        ),
        (
            "firebase",
            "Firebase Studio",
            "Firebase Studio: documented, not verified",
        ),
        (
            "jetbrains-ai",
            "JetBrains AI Assistant",
            "JetBrains AI Assistant: documented, not verified",
        ),
    ];
    let expected: Vec<(&str, &str, String)> = expected
        .into_iter()
        .map(|(id, name, p)| (id, name, p.to_string()))
        .collect();
    assert_eq!(table, expected);
}

/// `touching` answers "which rules does Claude Code add when it edits this file": the
/// scoped files whose globs match the path (absolute, or relative to the working
/// directory), never the files loaded at start. A glob without `/` matches the file name at
/// any depth; a path outside the rule's base matches nothing. (Claude Code: `paths:` rules
/// and `CLAUDE.md` files below the working directory load when a file there is touched.)
#[test]
fn touching_a_file_adds_the_scoped_rules_that_match_it() {
    let tree = Tree::repository("r", "home");
    tree.write("r/CLAUDE.md", "Always.\n")
        .write(
            "r/.claude/rules/ts.md",
            "---\npaths:\n  - \"src/**/*.ts\"\n---\nTypeScript.\n",
        )
        .write(
            "r/.claude/rules/md.md",
            "---\npaths: \"*.md\"\n---\nMarkdown.\n",
        )
        .write("r/api/CLAUDE.md", "API.\n");
    let view = tree.view(tool("claude"), "r", "home");
    let cwd = tree.path("r");
    let touched = |path: &str| -> Vec<String> {
        let mut names: Vec<String> = view
            .touching(&cwd, Path::new(path))
            .iter()
            .map(|f| tree.relative(&f.path))
            .collect();
        names.sort();
        names
    };
    assert_eq!(touched("src/app/main.ts"), ["r/.claude/rules/ts.md"]);
    assert_eq!(touched("docs/deep/guide.md"), ["r/.claude/rules/md.md"]);
    assert_eq!(
        touched(&tree.path("r/api/handler.md").to_string_lossy()),
        ["r/.claude/rules/md.md", "r/api/CLAUDE.md"]
    );
    assert!(touched("src/main.rs").is_empty());
    // Outside the project: no rule's base holds it.
    assert!(touched(&tree.path("elsewhere/a.md").to_string_lossy()).is_empty());
    assert!(tree.entry(&view, "r/CLAUDE.md").status.is_loaded());
    assert!(matches!(
        tree.entry(&view, "r/api/CLAUDE.md").status,
        Status::Scoped { .. }
    ));
}

/// A fixture case runs through every verified host unless it names its hosts
/// (`case.json`'s `hosts`), so a new case is checked against all eight recorded tools.
#[test]
fn a_case_runs_through_the_verified_hosts_unless_it_names_some() {
    let all = Case::default();
    assert_eq!(
        all.hosts(rulebook::tools()).unwrap(),
        [
            tool("codex"),
            tool("claude"),
            tool("gemini"),
            tool("cline"),
            tool("continue"),
            tool("opencode"),
            tool("kilo-cli"),
            tool("copilot-cli"),
            tool("qwen"),
            tool("augment"),
            tool("openhands")
        ]
    );
    let named = Case {
        hosts: vec!["cursor".to_owned(), "gemini".to_owned()],
        ..Case::default()
    };
    assert_eq!(
        named.hosts(rulebook::tools()).unwrap(),
        [tool("cursor"), tool("gemini")]
    );
    let unknown = Case {
        hosts: vec!["vscode".to_owned()],
        ..Case::default()
    };
    assert!(unknown.hosts(rulebook::tools()).is_err());
}

/// A generated fixture file has exactly the size `case.json` asks for (Codex's budget cases
/// depend on it): its path on the first line, then numbered lines of its marker, cut there.
#[test]
fn generated_files_have_their_exact_size() {
    let long = generated("r/AGENTS.md", "ROOT", 64 * 1024);
    assert!(long.starts_with("# r/AGENTS.md\nROOT line 00001 of the generated file\n"));
    for bytes in [0, 5, 13, 14, 15, 100, 32 * 1024] {
        let text = generated("r/AGENTS.md", "ROOT", bytes);
        assert_eq!(text.len(), bytes);
        assert!(long.starts_with(&text), "{bytes}");
    }
}

/// Link loops in the rule directories the emulations list themselves end, in every tool's
/// view.
#[cfg(unix)]
#[test]
fn link_loops_end() {
    let dir = tempfile::tempdir().unwrap();
    let (r, h) = (dir.path().join("r"), dir.path().join("h"));
    for d in [
        r.join(".git"),
        r.join(".claude/rules"),
        r.join(".continue/rules"),
        h.clone(),
    ] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(r.join(".claude/rules/a.md"), "A\n").unwrap();
    std::fs::write(r.join(".continue/rules/b.md"), "B\n").unwrap();
    for (link, target) in [
        (".claude/rules/x", ".."),
        (".claude/rules/y", "."),
        (".continue/rules/x", ".."),
        (".continue/rules/y", "."),
    ] {
        std::os::unix::fs::symlink(target, r.join(link)).unwrap();
    }
    for &host in rulebook::tools() {
        let view = rulebook_hosts::emulate(host, &rulebook_hosts::HostOptions::new(&r, &h));
        assert!(view.files.len() < 50, "{host}: {} files", view.files.len());
    }
    let claude = rulebook_hosts::emulate(tool("claude"), &rulebook_hosts::HostOptions::new(&r, &h));
    assert_eq!(
        claude.loaded().filter(|f| f.path.ends_with("a.md")).count(),
        1
    );
}

/// A run locates its project once: every view of it takes the repository root found then
/// (here, a `.git` gone since is still the root the views walk from), and a book's views
/// take the project discovery read.
#[test]
fn the_views_of_a_run_share_the_project_located_once() {
    let tree = Tree::repository("r", "home");
    tree.write("r/AGENTS.md", "root\n").dir("r/app");
    let project = rulebook::Project::new(tree.path("r/app"), tree.path("home"));
    std::fs::remove_dir(tree.path("r/.git")).unwrap();
    let options = rulebook_hosts::HostOptions::for_project(project.clone());
    assert_eq!(options.git_root(), Some(tree.path("r").as_path()));
    for host in [tool("codex"), tool("goose")] {
        let view = rulebook_hosts::emulate(host, &options);
        assert!(
            view.files
                .iter()
                .any(|f| f.path == tree.path("r/AGENTS.md")),
            "{host}: {:?}",
            view.files
        );
    }
    // Looked up again, the root is gone: the file above the working directory is not read.
    let again = tree.view(tool("codex"), "r/app", "home");
    assert!(
        !again
            .files
            .iter()
            .any(|f| f.path == tree.path("r/AGENTS.md"))
    );

    std::fs::create_dir(tree.path("r/.git")).unwrap();
    let book = rulebook::Rulebook::discover(
        tree.path("r/app"),
        Some(&tree.path("home")),
        &rulebook::Options::new(),
    );
    assert_eq!(book.project().git_root(), Some(tree.path("r").as_path()));
    assert_eq!(book.project().cwd(), tree.path("r/app"));
}
