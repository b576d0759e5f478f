//! Cursor as its documentation says it loads rules (`rulebook_provider_cursor::host`,
//! behaviour.md §13): the rule types, the reasons and the prompt (the loaded texts, blank
//! ones left out, joined by blank lines, as every documented view renders it).

use rulebook::HostStatus as Status;

use rulebook_test::Tree;

use crate::tool;

/// Cursor's rule types (docs "Rules"): `alwaysApply: true` loads at start, `globs` attach
/// the rule to matching files (a comma-separated list, as Cursor writes it, split as the
/// provider splits it: a comma inside `{…}` is the glob's own), a
/// `description` lets the agent request it, and a rule with none is manual (@-mentioned).
#[test]
fn cursor_rule_types() {
    let tree = Tree::repository("r", "home");
    tree.write(
        "r/.cursor/rules/always.mdc",
        "---\nalwaysApply: true\n---\nAlways.  \n",
    )
    .write(
        "r/.cursor/rules/globs.mdc",
        "---\nglobs: src/**/*.{ts,tsx}, docs/*.md\n---\nGlobs.\n",
    )
    .write(
        "r/.cursor/rules/asked.mdc",
        "---\ndescription: When writing SQL\n---\nAsked.\n",
    )
    .write(
        "r/.cursor/rules/manual.mdc",
        "---\ndescription: \"  \"\n---\nManual.\n",
    );
    let view = tree.view(tool("cursor"), "r", "home");
    assert_eq!(tree.loaded(&view), ["r/.cursor/rules/always.mdc"]);
    assert_eq!(
        tree.entry(&view, "r/.cursor/rules/globs.mdc").status,
        Status::Scoped {
            base: tree.path("r"),
            globs: vec!["src/**/*.{ts,tsx}".into(), "docs/*.md".into()]
        }
    );
    let asked = tree.entry(&view, "r/.cursor/rules/asked.mdc");
    assert_eq!(asked.status, Status::OnRequest);
    assert_eq!(
        asked.reason,
        "agent requested: the model sees its description and may read it"
    );
    let manual = tree.entry(&view, "r/.cursor/rules/manual.mdc");
    assert_eq!(manual.status, Status::OnRequest);
    assert_eq!(manual.reason, "manual: only when @-mentioned");
    assert_eq!(view.prompt, "Always.");
    assert_eq!(
        view.notes,
        [
            "Cursor: documented, not verified (the tool cannot be run here); the wrapping of the text is not known, so the prompt is the loaded texts joined by blank lines"
        ]
    );
}

/// The prompt of a documented host is the loaded texts in order, each without trailing
/// white space, joined by blank lines; a blank file (here a legacy `.cursorrules`) adds
/// nothing, not even a separator.
#[test]
fn documented_prompts_join_the_non_blank_texts() {
    let tree = Tree::repository("r", "home");
    tree.write(
        "r/.cursor/rules/a.mdc",
        "---\nalwaysApply: true\n---\nRule A.\n\n",
    )
    .write("r/.cursorrules", " \n\n")
    .write("r/AGENTS.md", "Agents.\n");
    let view = tree.view(tool("cursor"), "r", "home");
    assert_eq!(
        tree.loaded(&view),
        ["r/.cursor/rules/a.mdc", "r/.cursorrules", "r/AGENTS.md"]
    );
    assert_eq!(view.prompt, "Rule A.\n\nAgents.");
}
