//! Claude Code 2.1.332 (observed offline; `rulebook_provider_claude::host`): scopes,
//! `.claude/rules` without and with `paths:`, the AGENTS.md fallback's reasons, and the
//! notes.

use rulebook::{HostScope as Scope, HostStatus as Status};

use rulebook_test::Tree;

use crate::tool;

/// `~/.claude/CLAUDE.md` and `~/.claude/rules` are the user's, read for every project; the
/// files of the directories down to the working directory are the project's, whether
/// loaded at start or waiting for `paths:`.
#[test]
fn user_files_are_the_users_project_files_the_projects() {
    let tree = Tree::repository("r", "home");
    tree.write("home/.claude/CLAUDE.md", "User memory.\n")
        .write(
            "home/.claude/rules/mine.md",
            "---\npaths: \"*.py\"\n---\nPython.\n",
        )
        .write("r/CLAUDE.md", "Project memory.\n")
        .write(
            "r/.claude/rules/web.md",
            "---\npaths: \"*.ts\"\n---\nWeb.\n",
        );
    let view = tree.view(tool("claude"), "r", "home");
    let scope = |rel: &str| tree.entry(&view, rel).scope;
    assert_eq!(scope("home/.claude/CLAUDE.md"), Scope::User);
    assert_eq!(scope("home/.claude/rules/mine.md"), Scope::User);
    assert_eq!(scope("r/CLAUDE.md"), Scope::Project);
    assert_eq!(scope("r/.claude/rules/web.md"), Scope::Project);
    assert_eq!(
        tree.entry(&view, "home/.claude/rules/mine.md").status,
        Status::Scoped {
            base: tree.path("home"),
            globs: vec!["*.py".into()]
        }
    );
    assert!(
        view.prompt.starts_with(&format!(
            "Contents of {} (user's private global instructions for all projects):\n\nUser memory.",
            tree.path("home/.claude/CLAUDE.md").display()
        )),
        "{}",
        view.prompt
    );
}

/// A rule whose `paths:` is an empty list applies everywhere: Claude Code loads it at
/// start like a rule without `paths:`; a non-empty `paths:` list waits for a matching file
/// and keeps its globs.
#[test]
fn an_empty_paths_list_is_unconditional() {
    let tree = Tree::repository("r", "home");
    tree.write(
        "r/.claude/rules/all.md",
        "---\npaths: []\n---\nEverywhere.\n",
    )
    .write(
        "r/.claude/rules/some.md",
        "---\npaths:\n  - \"src/**\"\n  - \"tests/**\"\n---\nSome.\n",
    );
    let view = tree.view(tool("claude"), "r", "home");
    let all = tree.entry(&view, "r/.claude/rules/all.md");
    assert_eq!(all.status, Status::Loaded);
    assert_eq!(all.reason, "a rule with `paths: []` is unconditional");
    let some = tree.entry(&view, "r/.claude/rules/some.md");
    assert_eq!(
        some.status,
        Status::Scoped {
            base: tree.path("r"),
            globs: vec!["src/**".into(), "tests/**".into()]
        }
    );
    assert_eq!(
        some.reason,
        "a rule with `paths:` loads when Claude Code touches a matching file"
    );
    assert_eq!(tree.loaded(&view), ["r/.claude/rules/all.md"]);
    // One unconditional rule: its order cannot depend on the file system.
    assert!(view.notes.is_empty(), "{:?}", view.notes);
}

/// Claude Code does not sort `.claude/rules`: with two unconditional rules in one
/// directory (with `paths: []` or without `paths:`), their order is the file system's, and
/// the view says so.
#[test]
fn several_unconditional_rules_get_a_note_on_their_order() {
    let tree = Tree::repository("r", "home");
    tree.write("r/.claude/rules/a.md", "---\npaths: []\n---\nA.\n")
        .write("r/.claude/rules/b.md", "B.\n")
        .write("r/.claude/rules/c.md", "---\npaths: \"*.rs\"\n---\nC.\n");
    let view = tree.view(tool("claude"), "r", "home");
    assert_eq!(
        view.notes,
        [format!(
            "{} holds 2 unconditional rules: Claude Code loads them in the order the file system lists them (not sorted; it differs between file systems and machines), and so does this emulation",
            tree.path("r/.claude/rules").display()
        )]
    );
    let tree = Tree::repository("r", "home");
    tree.write("r/.claude/rules/a.md", "A.\n")
        .write("r/.claude/rules/b.md", "B.\n");
    assert_eq!(tree.view(tool("claude"), "r", "home").notes.len(), 1);
}

/// AGENTS.md is skipped when a non-empty CLAUDE.md is in the working directory or above;
/// the reason names that file, relative to the working directory when it lies in it
/// (fixtures `claude-agents-local`, `claude-agents-nested`).
#[test]
fn a_skipped_agents_md_names_the_claude_md_that_blocks_it() {
    let tree = Tree::repository("r", "home");
    tree.write("r/CLAUDE.local.md", "Local.\n")
        .write("r/AGENTS.md", "Agents.\n")
        .write("r/sub/AGENTS.md", "Sub agents.\n");
    let view = tree.view(tool("claude"), "r", "home");
    assert_eq!(
        tree.entry(&view, "r/AGENTS.md").reason,
        "Claude Code reads AGENTS.md only when the project has no CLAUDE.md; this project has CLAUDE.local.md"
    );
    // Above the working directory: with `..`, as every path is shown.
    let view = tree.view(tool("claude"), "r/sub", "home");
    assert_eq!(
        tree.entry(&view, "r/sub/AGENTS.md").reason,
        "Claude Code reads AGENTS.md only when the project has no CLAUDE.md; this project has ../CLAUDE.local.md"
    );
}

/// Without a CLAUDE.md, each AGENTS.md on the path is read (fixture
/// `claude-agents-fallback`), except one whose text is the same as a project file already
/// loaded; the user's own CLAUDE.md is no project file and does not count.
#[test]
fn an_agents_md_repeating_a_loaded_project_file_is_skipped() {
    let tree = Tree::repository("r", "home");
    tree.write("home/.claude/CLAUDE.md", "Same rules.\n")
        .write("r/AGENTS.md", "Same rules.\n")
        .write("r/sub/AGENTS.md", "\nSame rules.\n\n");
    let view = tree.view(tool("claude"), "r/sub", "home");
    assert_eq!(
        tree.loaded(&view),
        ["home/.claude/CLAUDE.md", "r/AGENTS.md"]
    );
    let top = tree.entry(&view, "r/AGENTS.md");
    assert_eq!(
        top.reason,
        "AGENTS.md is read because the project has no CLAUDE.md"
    );
    let sub = tree.entry(&view, "r/sub/AGENTS.md");
    assert_eq!(sub.status, Status::NotRead);
    assert_eq!(sub.reason, "its text is the same as a file already loaded");
}

/// A project file's import must resolve under the working directory: one outside is listed
/// as not read, with the importing file and why (fixture `claude-import-outside`); one
/// inside loads right after its importer, marked as imported by it.
#[test]
fn imports_say_who_imported_them() {
    let tree = Tree::repository("r", "home");
    tree.write("shared.md", "Shared.\n")
        .write("r/sub/CLAUDE.md", "Read @../../shared.md and @notes.md\n")
        .write("r/sub/notes.md", "Notes.\n");
    let view = tree.view(tool("claude"), "r/sub", "home");
    assert_eq!(tree.loaded(&view), ["r/sub/CLAUDE.md", "r/sub/notes.md"]);
    let notes = tree.entry(&view, "r/sub/notes.md");
    assert_eq!(notes.imported_by, Some(tree.path("r/sub/CLAUDE.md")));
    assert_eq!(
        notes.reason,
        format!("imported by {}", tree.path("r/sub/CLAUDE.md").display())
    );
    let outside = tree.entry(&view, "shared.md");
    assert_eq!(outside.status, Status::NotRead);
    assert_eq!(
        outside.reason,
        format!(
            "imported by {}, but outside the working directory: Claude Code drops it unless external imports are approved",
            tree.path("r/sub/CLAUDE.md").display()
        )
    );
    assert!(tree.listed(&view).contains(&"shared.md".to_string()));
}

/// An `@path` import of no file is listed as not read, with the file that imports it: Claude
/// Code leaves the mention in the text as written.
#[test]
fn an_import_of_nothing_is_said() {
    let tree = Tree::repository("r", "home");
    tree.write("r/CLAUDE.md", "See @docs/missing.md and @docs/here.md\n")
        .write("r/docs/here.md", "Here.\n");
    let view = tree.view(tool("claude"), "r", "home");
    assert_eq!(tree.loaded(&view), ["r/CLAUDE.md", "r/docs/here.md"]);
    let missing = tree.entry(&view, "r/docs/missing.md");
    assert_eq!(missing.status, Status::NotRead);
    assert_eq!(
        missing.imported_by.as_deref(),
        Some(tree.path("r/CLAUDE.md").as_path())
    );
    assert!(
        missing.reason.contains("no such file"),
        "{}",
        missing.reason
    );
}
