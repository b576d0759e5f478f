//! `cargo xtask new-provider NAME` and `--check`: a provider crate and its wiring into the workspace and the facade.

use std::fs;
use std::path::{Path, PathBuf};

use super::{USAGE, cargo, root, run};

/// The lines that wire a provider crate into the workspace and the facade's defaults, and
/// the files they go in. `new-provider` writes them; `new-provider --check` fails when a
/// provider crate lacks one (the generated wiring drifted).
fn wiring(name: &str, type_name: &str) -> Vec<(&'static str, String)> {
    let krate = format!("rulebook-provider-{name}");
    let ident = name.replace('-', "_");
    vec![
        (
            "Cargo.toml",
            format!(r#"{krate} = {{ path = "crates/{krate}", version = "0.1.0" }}"#),
        ),
        (
            "crates/rulebook/Cargo.toml",
            format!(r#"{name} = ["dep:{krate}"]"#),
        ),
        (
            "crates/rulebook/Cargo.toml",
            format!("{krate} = {{ workspace = true, optional = true }}"),
        ),
        (
            "crates/rulebook/src/lib.rs",
            format!("Box::new(rulebook_provider_{ident}::{type_name}Provider"),
        ),
    ]
}

fn type_name_of(name: &str) -> String {
    name.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// Inserts `line` into `file` after the last line containing `after` (keeping the
/// indentation of that line), unless it is there already.
fn insert_after(file: &Path, after: &str, line: &str) -> Result<(), String> {
    let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    if text.contains(line) {
        return Ok(());
    }
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let at = lines
        .iter()
        .rposition(|l| l.contains(after))
        .ok_or_else(|| format!("{}: no line with `{after}` to insert after", file.display()))?;
    let indent: String = lines[at]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    lines.insert(at + 1, format!("{indent}{line}"));
    let mut out = lines.join("\n");
    out.push('\n');
    fs::write(file, out).map_err(|e| format!("{}: {e}", file.display()))
}

/// Every provider crate's wiring is in place.
pub(crate) fn check_providers() -> Result<(), String> {
    let mut missing = Vec::new();
    let entries = fs::read_dir(root().join("crates")).map_err(|e| e.to_string())?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_prefix("rulebook-provider-"))
                .map(str::to_owned)
        })
        .collect();
    names.sort();
    for name in &names {
        for (file, line) in wiring(name, &type_name_of(name)) {
            let text = fs::read_to_string(root().join(file)).unwrap_or_default();
            if !text.contains(&line) {
                missing.push(format!("{file}: `{line}`"));
            }
        }
    }
    if missing.is_empty() {
        eprintln!(
            "xtask: == providers: {} provider crates, all wired",
            names.len()
        );
        Ok(())
    } else {
        Err(format!(
            "provider wiring has drifted; run `cargo xtask new-provider NAME` for the provider (it only adds what is missing), or restore:\n  {}",
            missing.join("\n  ")
        ))
    }
}

pub(crate) fn new_provider(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--check") {
        return check_providers();
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
repository.workspace = true
publish.workspace = true
readme = "README.md"

[dependencies]
rulebook-kit = {{ workspace = true }}

[dev-dependencies]
insta = {{ workspace = true }}

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
//! use rulebook_kit::{{LoadContext, Provider}};
//! use rulebook_provider_{ident}::{type_name}Provider;
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".{name}/rules"))?;
//! std::fs::write(dir.path().join(".{name}/rules/a.md"), "---\ndescription: A\n---\nBody.")?;
//! let loaded = {type_name}Provider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "a");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

use rulebook_kit::coerce::{{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy,
}};
use rulebook_kit::{{
    FileLoader, KnownKey, Level, LoadContext, LoadResult, Provider, ProviderError, ProviderMeta,
    Rule, RuleCapability,
}};

/// {type_name}'s field coercion.
pub const FIELD_POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOrScalarText,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::ScalarElementsAsText,
);

/// The keys {type_name} rules may set.
pub const KNOWN_KEYS: &[KnownKey] = COMMON_KEYS;

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
            dir.join("tests/provider.rs"),
            format!(
                r#"//! The provider over its fixture.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::Path;

use rulebook_kit::{{LoadContext, Provider}};
use rulebook_provider_{ident}::{type_name}Provider;

#[test]
fn loads_the_fixture() {{
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/provider-{name}");
    let ctx = LoadContext::new(root.join("project"), root.join("home"));
    let loaded = {type_name}Provider.load(&ctx).unwrap();
    let names: Vec<String> = loaded
        .items
        .iter()
        .map(|r| format!("{{}}: {{:?}}", r.name, r.description))
        .collect();
    insta::assert_yaml_snapshot!(names);
}}
"#
            ),
        )?;
        write(
            root().join(format!(
                "fixtures/provider-{name}/project/.{name}/rules/example.md"
            )),
            "---\ndescription: An example rule\n---\nReplace me.\n".to_owned(),
        )?;
        write(
            dir.join("tests/snapshots/provider__loads_the_fixture.snap"),
            "---\nsource: crates/".to_owned()
                + &krate
                + "/tests/provider.rs\nexpression: names\n---\n- \"example: Some(\\\"An example rule\\\")\"\n",
        )?;
        // tempfile for the doc example.
        let cargo = dir.join("Cargo.toml");
        let text = fs::read_to_string(&cargo).map_err(|e| e.to_string())?;
        fs::write(
            &cargo,
            text.replace(
                "insta = { workspace = true }\n",
                "insta = { workspace = true }\ntempfile = { workspace = true }\n",
            ),
        )
        .map_err(|e| e.to_string())?;
    }
    // The wiring: one line each, only what is missing.
    let wires = wiring(name, &type_name);
    insert_after(
        &root().join("Cargo.toml"),
        "rulebook-provider-",
        &wires[0].1,
    )?;
    let facade = root().join("crates/rulebook/Cargo.toml");
    insert_after(&facade, "= [\"dep:rulebook-provider-", &wires[1].1)?;
    insert_after(&facade, "rulebook-provider-", &wires[2].1)?;
    let text = fs::read_to_string(&facade).map_err(|e| e.to_string())?;
    if let Some(line) = text.lines().find(|l| l.starts_with("default = [")) {
        if !line.contains(&format!("\"{name}\"")) {
            let updated = line.replacen(']', &format!(", \"{name}\"]"), 1);
            fs::write(&facade, text.replace(line, &updated)).map_err(|e| e.to_string())?;
        }
    }
    let lib = root().join("crates/rulebook/src/lib.rs");
    insert_after(
        &lib,
        "Box::new(rulebook_provider_",
        &format!("#[cfg(feature = \"{name}\")]"),
    )?;
    let text = fs::read_to_string(&lib).map_err(|e| e.to_string())?;
    let cfg = format!("#[cfg(feature = \"{name}\")]");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    if !text.contains(&wires[3].1) {
        if let Some(at) = lines.iter().rposition(|l| l.trim() == cfg) {
            let indent: String = lines[at]
                .chars()
                .take_while(|c| c.is_whitespace())
                .collect();
            lines.insert(at + 1, format!("{indent}{}),", wires[3].1));
            fs::write(&lib, lines.join("\n") + "\n").map_err(|e| e.to_string())?;
        }
    }
    run("fmt", cargo().args(["fmt", "--all"]))?;
    eprintln!(
        "xtask: {krate} is created and wired (workspace dependency, facade feature `{name}` on by default, the default providers table). Next: `cargo test -p {krate}`, review the snapshot, and `cargo xtask ci`."
    );
    Ok(())
}
