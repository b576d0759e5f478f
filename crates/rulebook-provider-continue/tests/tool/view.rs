//! Continue CLI (`cn`) 1.5.47 (`src/systemMessage.ts`; `rulebook_provider_continue::host`):
//! which `.continue/rules` files are rules, which load at start, and the reasons of the
//! others.

use rulebook::HostStatus as Status;

use rulebook_test::Tree;

use crate::tool;

/// Only `*.md` files are rules, in the rules directory and its subdirectories (its own
/// files first); other files there are not listed at all.
#[test]
fn only_md_files_are_rules() {
    let tree = Tree::repository("r", "home");
    tree.write("r/.continue/rules/b.md", "B.\n")
        .write("r/.continue/rules/a.txt", "Not a rule.\n")
        .write("r/.continue/rules/README", "Not a rule.\n")
        .write("r/.continue/rules/deep/c.md", "C.\n");
    let view = tree.view(tool("continue"), "r", "home");
    assert_eq!(
        tree.listed(&view),
        ["r/.continue/rules/b.md", "r/.continue/rules/deep/c.md"]
    );
    assert_eq!(
        view.prompt,
        "<context name=\"userRules\">\nB.\n\n\nC.\n\n</context>"
    );
}

/// A rule with `regex:` and no `alwaysApply` is not loaded at start (module doc: a rule
/// loads when it has none of `alwaysApply`, `globs`, `regex`), and says so; `regex: null`
/// is no regex.
#[test]
fn a_regex_rule_waits() {
    let tree = Tree::repository("r", "home");
    tree.write(
        "r/.continue/rules/re.md",
        "---\nregex: \"TODO\"\n---\nTodos.\n",
    )
    .write(
        "r/.continue/rules/null.md",
        "---\nregex: null\n---\nNull.\n",
    );
    let view = tree.view(tool("continue"), "r", "home");
    let re = tree.entry(&view, "r/.continue/rules/re.md");
    assert_eq!(re.status, Status::NotRead);
    assert_eq!(re.reason, "regex without alwaysApply: not loaded at start");
    let null = tree.entry(&view, "r/.continue/rules/null.md");
    assert_eq!(null.status, Status::Loaded);
    assert_eq!(
        null.reason,
        "no alwaysApply, globs nor regex: loads at start"
    );
}

/// `globs:` without `alwaysApply` attaches the rule to matching files: scoped, its globs
/// relative to the directory holding `.continue`. A rule that does not load for another
/// reason (`alwaysApply: false`, `invokable: true`) is not scoped, even with globs.
#[test]
fn only_a_globs_rule_is_scoped() {
    let tree = Tree::repository("r", "home");
    tree.write(
        "r/.continue/rules/ts.md",
        "---\nglobs: \"src/**/*.ts\"\n---\nTypeScript.\n",
    )
    .write(
        "r/.continue/rules/off.md",
        "---\nalwaysApply: false\n---\nOff.\n",
    )
    .write(
        "r/.continue/rules/prompt.md",
        "---\ninvokable: true\nglobs: \"*.ts\"\n---\nA prompt.\n",
    );
    let view = tree.view(tool("continue"), "r", "home");
    assert!(tree.loaded(&view).is_empty());
    let ts = tree.entry(&view, "r/.continue/rules/ts.md");
    assert_eq!(
        ts.status,
        Status::Scoped {
            base: tree.path("r"),
            globs: vec!["src/**/*.ts".into()]
        }
    );
    assert_eq!(
        ts.reason,
        "globs without alwaysApply: cn attaches it only to matching files, not at start"
    );
    let off = tree.entry(&view, "r/.continue/rules/off.md");
    assert_eq!(off.status, Status::NotRead);
    assert_eq!(
        off.reason,
        "alwaysApply: false: cn does not load it at start"
    );
    let prompt = tree.entry(&view, "r/.continue/rules/prompt.md");
    assert_eq!(prompt.status, Status::NotRead);
    assert_eq!(
        prompt.reason,
        "`invokable: true` makes it a prompt, not a rule"
    );
}
