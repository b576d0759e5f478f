//! `cargo xtask new-provider NAME` and `--check`: a provider crate and its wiring into the workspace and the facade.

use std::fs;
use std::path::PathBuf;

use super::{USAGE, cargo, root, run};
use crate::generated::{
    LIST, append, append_tool, drift, read_list, type_name_of, write as write_generated,
};

/// The generated files are what `providers.txt` gives, and every provider crate is listed.
pub(crate) fn check_providers() -> Result<(), String> {
    let list = read_list()?;
    let problems = drift(&list)?;
    if problems.is_empty() {
        eprintln!(
            "xtask: == providers: {} provider crates, the generated files as {LIST} gives",
            list.len()
        );
        Ok(())
    } else {
        Err(format!(
            "the default providers have drifted; edit {LIST} and run `cargo xtask new-provider --write` (or `cargo xtask new-provider NAME` for a new one):\n  {}",
            problems.join("\n  ")
        ))
    }
}

pub(crate) fn new_provider(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--check") {
        return check_providers();
    }
    if args.iter().any(|a| a == "--write") {
        let written = write_generated(&read_list()?)?;
        eprintln!(
            "xtask: {} as {LIST} gives{}",
            if written.is_empty() {
                "the generated files are already"
            } else {
                "wrote"
            },
            if written.is_empty() {
                String::new()
            } else {
                format!(": {}", written.join(", "))
            }
        );
        return Ok(());
    }
    let name = args
        .first()
        .ok_or("new-provider needs a NAME (lower-case, e.g. `zed`), or --check")?;
    if name == "--help" || name == "-h" {
        println!("{USAGE}");
        return Ok(());
    }
    if !name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        || name.ends_with('-')
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(format!(
            "`{name}`: a provider name starts with a lower-case letter and holds lower-case letters, digits and `-`"
        ));
    }
    let krate = format!("rulebook-provider-{name}");
    let dir = root().join("crates").join(&krate);
    let ident = name.replace('-', "_");
    let type_name = type_name_of(name);
    let write = |path: PathBuf, text: String| -> Result<(), String> {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    if !dir.exists() {
        write(
            dir.join("Cargo.toml"),
            format!(
                r#"[package]
name = "{krate}"
description = "The {type_name} rules provider of rulebook: `.{name}/rules/*.md`."
version.workspace = true
edition.workspace = true
rust-version.workspace = true
license.workspace = true
publish.workspace = true
readme = "README.md"

[dependencies]
rulebook-kit = {{ workspace = true }}

[dev-dependencies]
rulebook-test = {{ workspace = true }}
tempfile = {{ workspace = true }}

[lints]
workspace = true
"#
            ),
        )?;
        write(
            dir.join("README.md"),
            format!(
                "# {krate}\n\nThe {type_name} rules provider of rulebook: `.{name}/rules/*.md` in the project, then\n`~/.{name}/rules/*.md`. See the crate docs.\n"
            ),
        )?;
        write(
            dir.join("src/lib.rs"),
            format!(
                r#"//! The {type_name} rules provider: `<cwd>/.{name}/rules/*.md` (project) and
//! `~/.{name}/rules/*.md` (user), project first. Fields follow [`FIELD_POLICY`]; change
//! its rows if the tool reads its frontmatter differently, and [`KNOWN_KEYS`] if it reads
//! other keys.
//!
//! It is one of the facade's default providers (cargo feature `{name}`); to use it
//! elsewhere, `rulebook::Options::new().provider({type_name}Provider)`.
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_{ident}::{{{type_name}Provider, LoadContext, Provider}};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".{name}/rules"))?;
//! std::fs::write(dir.path().join(".{name}/rules/a.md"), "---\ndescription: A\n---\nBody.")?;
//! let loaded = {type_name}Provider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "a");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{{LoadContext, Provider}};

use rulebook_kit::coerce::{{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy,
}};
use rulebook_kit::{{
    FileLoader, KnownKey, Level, LoadResult, ProviderError, ProviderMeta, Rule, RuleCapability,
}};

/// {type_name}'s field coercion.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOrScalarText,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::ScalarElementsAsText,
);

/// The keys {type_name} rules may set.
pub const KNOWN_KEYS: &[KnownKey] = COMMON_KEYS;

pub mod host;

/// {type_name}, for the table of tools: `--as {name}` is its [`host::emulate`].
pub const TOOL: rulebook_kit::host::Host = rulebook_kit::host::Host::new(&host::{type_name});

/// The {type_name} provider (id `{name}`, priority 30).
#[derive(Debug, Clone, Copy, Default)]
pub struct {type_name}Provider;

/// What the provider is: [`Provider::info`].
pub static INFO: ProviderMeta = ProviderMeta::new(
    "{name}",
    "{type_name}",
    "{type_name} rules: .{name}/rules/*.md (project, then user)",
    30,
)
.with_known_keys(KNOWN_KEYS);

impl Provider<RuleCapability> for {type_name}Provider {{
    fn info(&self) -> &ProviderMeta {{
        &INFO
    }}

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {{
        let loader = FileLoader::new(ctx, "{name}", "{type_name}", FIELD_POLICY);
        let mut out = LoadResult::default();
        let dir = ".{name}/rules";
        let project = ctx.cwd.join(dir);
        loader.load_dir(&project, &["md"], Level::Project, Some(&ctx.cwd), &mut out);
        if let Some(user) = ctx.in_home(dir) {{
            loader.load_dir(&user, &["md"], Level::User, None, &mut out);
        }}
        Ok(out)
    }}
}}
"#
            ),
        )?;
        write(
            dir.join("src/host.rs"),
            format!(
                r#"//! {type_name} as the tool itself loads its rules (`--as {name}`), from its documentation:
//! until it is checked against the real tool, the view says "documented, not verified".
//! Write here what the tool does (its order, its cuts, its scoped rules) and the source
//! that says so; mark [`TOOL_INFO`] verified when goldens recorded from the real tool hold it.

use rulebook_kit::host::documented::{{render, rule_files, start}};
use rulebook_kit::host::{{HostOptions, HostView, Scope, Status, Tool, ToolInfo, util}};

/// {type_name}: every `.{name}/rules/*.md` of the project, whole, at start.
pub fn emulate(options: &HostOptions) -> HostView {{
    let mut view = start(crate::TOOL);
    let mut bodies = Vec::new();
    for path in rule_files(&options.cwd().join(".{name}/rules"), &["md"]) {{
        let Some(text) = util::read_text(&path) else {{
            continue;
        }};
        let (_, body) = util::frontmatter(&text);
        view.push(path, Scope::Project, Status::Loaded, "a rule file, loaded at start");
        bodies.push(body);
    }}
    render(&mut view, &bodies);
    view
}}

/// {type_name} as a [`Tool`]: its metadata, its view ([`emulate`]) and its lints.
#[derive(Debug, Clone, Copy, Default)]
pub struct {type_name};

/// What the tool is: [`Tool::info`]. Add `.verified("VERSION")` once goldens recorded
/// from the real tool hold the view.
pub static TOOL_INFO: ToolInfo =
    ToolInfo::new("{name}", "{type_name}", "{name}", "{type_name}'s documentation");

impl Tool for {type_name} {{
    fn info(&self) -> &ToolInfo {{
        &TOOL_INFO
    }}

    fn emulate(&self, options: &HostOptions) -> HostView {{
        emulate(options)
    }}

    /// Findings of `check --as {name}` about forms this tool misreads: none yet.
    fn lints(&self, rules: &[&rulebook_kit::Rule]) -> Vec<rulebook_kit::Diagnostic> {{
        let _ = rules;
        Vec::new()
    }}
}}
"#
            ),
        )?;
        write(
            dir.join("tests/scenarios.rs"),
            format!(
                r#"//! The {type_name} provider alone over its fixtures (`fixtures/<scenario>/{{project,home}}`),
//! both profiles side by side: one snapshot per scenario (`rulebook-test`).

use rulebook_provider_{ident}::{type_name}Provider;

#[test]
fn scenarios() {{
    let table = rulebook_test::Only({type_name}Provider);
    assert_eq!(rulebook_test::scenario_snapshots!(&table, "../fixtures"), 1);
}}
"#
            ),
        )?;
        write(
            dir.join(format!("fixtures/example/project/.{name}/rules/example.md")),
            "---\ndescription: An example rule\n---\nReplace me.\n".to_owned(),
        )?;
        write(dir.join("fixtures/example/home/.keep"), String::new())?;
        // What the scenario harness writes for the example under either profile.
        let summary = format!(
            "  providers:\n    - {name}\n  rules:\n    - name: example\n      provider: {name}\n      level: project\n      path: project/.{name}/rules/example.md\n      bucket: rulebook\n      description: An example rule\n      content: Replace me.\n  shadowed: []\n  invalid: []\n  diagnostics: []\n"
        );
        write(
            dir.join("tests/snapshots/scenario@example.snap"),
            format!(
                "---\nsource: crates/{krate}/tests/scenarios.rs\nexpression: both\n---\nreference:\n{summary}extended:\n{summary}"
            ),
        )?;
    }
    // The wiring: a line of the list, and the files generated from it.
    append(name, &format!("{type_name}: `.{name}/rules/*.md`."))?;
    append_tool(name)?;
    write_generated(&read_list()?)?;
    run("fmt", cargo().args(["fmt", "--all"]))?;
    eprintln!(
        "xtask: {krate} is created and wired (workspace dependency, facade feature `{name}` on by default, the default providers table, `--as {name}` in the table of tools). Next: `cargo test -p {krate}`, review the snapshot, and `cargo xtask ci`."
    );
    Ok(())
}
