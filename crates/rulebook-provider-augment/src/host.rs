//! Augment as it loads rules (`--as augment`), from its documentation and the Auggie CLI's
//! bundle (read, not run): the view says "documented, not verified" (behaviour.md §13).

use rulebook_kit::frontmatter::Value;
use rulebook_kit::host::documented::{render, rule_files, scoped_below, start, whole};
use rulebook_kit::host::{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util};

/// Augment: `AGENTS.md` and `CLAUDE.md` at the workspace root, `.augment-guidelines`,
/// `.augment/rules/**` by type, `~/.augment/rules/**` always, the user guidelines;
/// `AGENTS.md`/`CLAUDE.md` of a subdirectory when work touches it.
pub fn emulate(options: &HostOptions) -> HostView {
    let mut view = start(crate::TOOL);
    view.notes.push(
        "Augment sends its rules to its server, which builds the prompt: the order and wrapping are not known".to_owned(),
    );
    let mut bodies = Vec::new();
    let root = options.cwd();
    for name in ["AGENTS.md", "CLAUDE.md"] {
        whole(
            &mut view,
            &mut bodies,
            root.join(name),
            Scope::Project,
            "a shared rule file at the workspace root (its type in .augment/rules/settings.json, always by default)",
        );
    }
    whole(
        &mut view,
        &mut bodies,
        root.join(".augment-guidelines"),
        Scope::Project,
        "the workspace guidelines",
    );
    for path in rule_files(&root.join(".augment/rules"), &["md", "mdc"]) {
        let Some(text) = util::read_text(&path) else {
            continue;
        };
        let (fm, body) = util::frontmatter(&text);
        let kind = fm
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase);
        let described = fm
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| !d.is_empty());
        match kind.as_deref() {
            Some("manual") => view.push(
                path,
                Scope::Project,
                Status::OnRequest,
                "type: manual: only when attached",
            ),
            Some("agent_requested") => view.push(
                path,
                Scope::Project,
                Status::OnRequest,
                "type: agent_requested: the model picks it by description",
            ),
            Some("always_apply") => {
                view.push(path, Scope::Project, Status::Loaded, "type: always_apply");
                bodies.push(body);
            }
            _ if fm.get("alwaysApply") == Some(&Value::Bool(true)) => {
                view.push(path, Scope::Project, Status::Loaded, "alwaysApply: true");
                bodies.push(body);
            }
            _ if described => view.push(
                path,
                Scope::Project,
                Status::OnRequest,
                "a description and no type: agent_requested",
            ),
            _ => {
                view.push(path, Scope::Project, Status::Loaded, "no type: always");
                bodies.push(body);
            }
        }
    }
    for path in rule_files(&options.home().join(".augment/rules"), &["md", "mdc"]) {
        whole(
            &mut view,
            &mut bodies,
            path,
            Scope::User,
            "a user rule: always applied",
        );
    }
    whole(
        &mut view,
        &mut bodies,
        options.home().join(".augment/user-guidelines.md"),
        Scope::User,
        "the user guidelines",
    );
    scoped_below(
        &mut view,
        root,
        &["AGENTS.md", "CLAUDE.md"],
        "a subdirectory's rule file: added once work touches a path there",
    );
    render(&mut view, &bodies);
    view
}

/// Augment as a [`Tool`]: its metadata and its view ([`emulate`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Augment;

/// What the tool is: [`Tool::info`].
pub static TOOL_INFO: ToolInfo = ToolInfo::new(
    "augment",
    "Augment",
    "augment",
    "Augment's documentation and the Auggie CLI's bundle (read, not run)",
);

impl Tool for Augment {
    fn info(&self) -> &ToolInfo {
        &TOOL_INFO
    }

    fn emulate(&self, options: &HostOptions) -> HostView {
        emulate(options)
    }
}
