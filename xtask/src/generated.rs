//! The files generated from the list of default providers (`crates/rulebook/providers.txt`):
//! the facade's `src/table.rs` whole, its `[features]` table whole, and the provider lines
//! of the facade's and the workspace's dependency tables.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use super::root;

/// The list, relative to the repository root.
pub(crate) const LIST: &str = "crates/rulebook/providers.txt";

/// One default provider: its name and what it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) reads: String,
    /// The crate also provides skills (`SKILLS`, or the native provider itself).
    pub(crate) skills: bool,
}

impl Entry {
    fn krate(&self) -> String {
        format!("rulebook-provider-{}", self.name)
    }

    fn ident(&self) -> String {
        format!("rulebook_provider_{}", self.name.replace('-', "_"))
    }

    fn type_name(&self) -> String {
        type_name_of(&self.name)
    }
}

/// `agents-md` → `AgentsMd`.
pub(crate) fn type_name_of(name: &str) -> String {
    name.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// Reads the list: `NAME | what it reads` a line, `| skills` after it when the crate also
/// provides skills; `#` comments and blank lines skipped.
pub(crate) fn read_list() -> Result<Vec<Entry>, String> {
    let path = root().join(LIST);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut entries: Vec<Entry> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("tool ") {
            continue;
        }
        let (name, reads) = line
            .split_once('|')
            .ok_or_else(|| format!("{LIST}:{}: expected `NAME | what it reads`", n + 1))?;
        let (reads, skills) = match reads.rsplit_once('|') {
            Some((reads, flag)) if flag.trim() == "skills" => (reads, true),
            Some(_) => {
                return Err(format!(
                    "{LIST}:{}: the third column is `skills` or nothing",
                    n + 1
                ));
            }
            None => (reads, false),
        };
        let entry = Entry {
            name: name.trim().to_owned(),
            reads: reads.trim().to_owned(),
            skills,
        };
        if entries.iter().any(|e| e.name == entry.name) {
            return Err(format!(
                "{LIST}:{}: `{}` is listed twice",
                n + 1,
                entry.name
            ));
        }
        entries.push(entry);
    }
    Ok(entries)
}

/// The providers whose crates hold a tool's own view (`tool NAME` lines of the list), in
/// the order `--as` lists the tools. Each must be a listed provider.
pub(crate) fn read_tools(list: &[Entry]) -> Result<Vec<String>, String> {
    let path = root().join(LIST);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut tools: Vec<String> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(name) = line.trim().strip_prefix("tool ") else {
            continue;
        };
        let name = name.trim().to_owned();
        if !list.iter().any(|e| e.name == name) {
            return Err(format!(
                "{LIST}:{}: `tool {name}` names no provider of the list",
                n + 1
            ));
        }
        if tools.contains(&name) {
            return Err(format!("{LIST}:{}: `tool {name}` is listed twice", n + 1));
        }
        tools.push(name);
    }
    Ok(tools)
}

/// Appends `tool NAME` to the list (unless it is there): the provider's crate holds a tool's
/// own view, listed last by `--as`.
pub(crate) fn append_tool(name: &str) -> Result<(), String> {
    if read_tools(&read_list()?)?.iter().any(|t| t == name) {
        return Ok(());
    }
    let path = root().join(LIST);
    let mut text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&format!("tool {name}\n"));
    fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Appends a provider to the list (unless it is there).
pub(crate) fn append(name: &str, reads: &str) -> Result<(), String> {
    if read_list()?.iter().any(|e| e.name == name) {
        return Ok(());
    }
    let path = root().join(LIST);
    let mut text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&format!("{name} | {reads}\n"));
    fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The facade's `src/table.rs`, formatted by rustfmt.
fn table_rs(list: &[Entry]) -> Result<String, String> {
    let mut tools = String::new();
    for name in read_tools(list)? {
        let ident = format!("rulebook_provider_{}", name.replace('-', "_"));
        tools.push_str(&format!("#[cfg(feature = \"{name}\")]\n{ident}::TOOL,\n"));
    }
    let mut reexports = String::new();
    let mut boxes = String::new();
    let mut known = String::new();
    for e in list.iter().filter(|e| e.name != "native") {
        known.push_str(&format!("\"{}\",\n", e.name));
    }
    let mut skills = String::new();
    for e in list.iter().filter(|e| e.skills) {
        let (ident, name) = (e.ident(), &e.name);
        if name == "native" {
            skills.push_str(&format!(
                "#[cfg(feature = \"native\")]\nBox::new({ident}::NativeProvider::new(self.native.clone())),\n"
            ));
        } else {
            skills.push_str(&format!(
                "#[cfg(feature = \"{name}\")]\nBox::new({ident}::SKILLS),\n"
            ));
        }
    }
    for e in list {
        let (ident, ty, name) = (e.ident(), e.type_name(), &e.name);
        if name == "native" {
            reexports.push_str(&format!(
                "#[cfg(feature = \"native\")]\npub use {ident}::{{NativeConfig, NativeProvider}};\n"
            ));
            boxes.push_str(&format!(
                "#[cfg(feature = \"native\")]\nBox::new({ident}::NativeProvider::new(self.native.clone())),\n"
            ));
        } else {
            reexports.push_str(&format!(
                "#[cfg(feature = \"{name}\")]\npub use {ident}::{ty}Provider;\n"
            ));
            boxes.push_str(&format!(
                "#[cfg(feature = \"{name}\")]\nBox::new({ident}::{ty}Provider),\n"
            ));
        }
    }
    let text = format!(
        r#"//! The table of default providers, generated by `cargo xtask new-provider` from
//! `crates/rulebook/providers.txt`: edit that list (or run `cargo xtask new-provider
//! NAME`), not this file. `cargo xtask new-provider --check`, run by CI, compares this
//! file whole.

use rulebook_discover::ProviderTable;
use rulebook_hosts::Host;
use rulebook_registry::{{Provider, RuleCapability, SkillCapability}};

/// The tools with their own view (`--as TOOL`), each its provider crate's `TOOL` behind
/// the crate's feature, in the order `--as` lists them (the `tool` lines of
/// `providers.txt`).
pub(crate) static TOOLS: &[Host] = &[
{tools}];

/// The default providers, for callers that build their own
/// [`Registry`](crate::stages::registry::Registry).
pub mod providers {{
{reexports}}}

/// The default providers: one line each, each behind its cargo feature, registered in
/// this order (the registry then orders them by priority). Adding a provider to the
/// defaults is its crate, a line of `providers.txt` and the files generated from it
/// (`cargo xtask new-provider NAME` writes all of it). Set the native provider's
/// configuration with `Options::new().table(DefaultProviders::with_native(config))`.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct DefaultProviders {{
    /// The native provider's directory names, id and display name.
    #[cfg(feature = "native")]
    pub native: rulebook_provider_native::NativeConfig,
}}

impl DefaultProviders {{
    /// The defaults with this configuration of the native provider.
    #[cfg(feature = "native")]
    pub fn with_native(native: rulebook_provider_native::NativeConfig) -> Self {{
        Self {{ native }}
    }}
}}

impl ProviderTable for DefaultProviders {{
    fn providers(&self) -> Vec<Box<dyn Provider<RuleCapability>>> {{
        vec![
{boxes}        ]
    }}

    fn skill_providers(&self) -> Vec<Box<dyn Provider<SkillCapability>>> {{
        vec![
{skills}        ]
    }}

    fn known_ids(&self) -> &'static [&'static str] {{
        &[
{known}        ]
    }}
}}
"#
    );
    rustfmt(&text)
}

/// `text` through `rustfmt` (edition 2024), as `cargo fmt` leaves it.
fn rustfmt(text: &str) -> Result<String, String> {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run rustfmt: {e}"))?;
    child
        .stdin
        .take()
        .ok_or("rustfmt has no input")?
        .write_all(text.as_bytes())
        .map_err(|e| format!("rustfmt: {e}"))?;
    let out = child
        .wait_with_output()
        .map_err(|e| format!("rustfmt: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "rustfmt refused the generated table: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("rustfmt: {e}"))
}

/// `text` with its `[features]` table (to the next table) replaced by the generated one.
fn with_features(text: &str, list: &[Entry]) -> Result<String, String> {
    let mut table = String::from("[features]\ndefault = [");
    table.push_str(
        &list
            .iter()
            .map(|e| format!("\"{}\"", e.name))
            .collect::<Vec<_>>()
            .join(", "),
    );
    table.push_str("]\n");
    for e in list {
        table.push_str(&format!(
            "## {}\n{} = [\"dep:{}\"]\n",
            e.reads,
            e.name,
            e.krate()
        ));
    }
    table.push('\n');
    let start = text
        .find("\n[features]\n")
        .map(|i| i + 1)
        .ok_or("crates/rulebook/Cargo.toml has no [features] table")?;
    let end = text[start + 1..]
        .find("\n[")
        .map_or(text.len(), |i| start + 1 + i + 1);
    Ok(format!("{}{table}{}", &text[..start], &text[end..]))
}

/// `text` with its run of `rulebook-provider-…` lines replaced by one line per provider.
fn with_provider_lines(
    text: &str,
    file: &str,
    list: &[Entry],
    line: impl Fn(&Entry) -> String,
) -> Result<String, String> {
    let lines: Vec<&str> = text.lines().collect();
    let is_provider = |l: &&str| l.starts_with("rulebook-provider-");
    let first = lines
        .iter()
        .position(is_provider)
        .ok_or_else(|| format!("{file}: no `rulebook-provider-…` line"))?;
    let last = lines
        .iter()
        .rposition(is_provider)
        .ok_or_else(|| format!("{file}: no `rulebook-provider-…` line"))?;
    if lines[first..=last].iter().any(|l| !is_provider(l)) {
        return Err(format!(
            "{file}: the `rulebook-provider-…` lines must stand together (lines {} to {})",
            first + 1,
            last + 1
        ));
    }
    let mut out: Vec<String> = lines[..first].iter().map(|l| (*l).to_owned()).collect();
    out.extend(list.iter().map(line));
    out.extend(lines[last + 1..].iter().map(|l| (*l).to_owned()));
    let mut out = out.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

/// Each generated file (a path from the root) with the text it must have.
pub(crate) fn generated(list: &[Entry]) -> Result<Vec<(&'static str, String)>, String> {
    let read =
        |file: &str| fs::read_to_string(root().join(file)).map_err(|e| format!("{file}: {e}"));
    let facade = "crates/rulebook/Cargo.toml";
    let workspace = "Cargo.toml";
    let facade_text =
        with_provider_lines(&with_features(&read(facade)?, list)?, facade, list, |e| {
            format!("{} = {{ workspace = true, optional = true }}", e.krate())
        })?;
    let workspace_text = with_provider_lines(&read(workspace)?, workspace, list, |e| {
        format!(
            "{krate} = {{ path = \"crates/{krate}\", version = \"0.1.0\" }}",
            krate = e.krate()
        )
    })?;
    Ok(vec![
        ("crates/rulebook/src/table.rs", table_rs(list)?),
        (facade, facade_text),
        (workspace, workspace_text),
    ])
}

/// Writes the generated files that differ; their paths.
pub(crate) fn write(list: &[Entry]) -> Result<Vec<&'static str>, String> {
    let mut written = Vec::new();
    for (file, text) in generated(list)? {
        let path = root().join(file);
        if fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            fs::write(&path, text).map_err(|e| format!("{file}: {e}"))?;
            written.push(file);
        }
    }
    Ok(written)
}

/// The generated files that differ from what the list gives, and the provider crates the
/// list lacks (or lists without a crate).
pub(crate) fn drift(list: &[Entry]) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    for (file, text) in generated(list)? {
        let on_disk = fs::read_to_string(root().join(file)).unwrap_or_default();
        if on_disk != text {
            let line = on_disk
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .map_or_else(
                    || on_disk.lines().count().min(text.lines().count()) + 1,
                    |i| i + 1,
                );
            problems.push(format!(
                "{file} differs from what {LIST} gives (from line {line})"
            ));
        }
    }
    let crates = root().join("crates");
    let mut on_disk: Vec<String> = fs::read_dir(&crates)
        .map_err(|e| format!("{}: {e}", crates.display()))?
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_prefix("rulebook-provider-"))
                .map(str::to_owned)
        })
        .collect();
    on_disk.sort();
    for name in &on_disk {
        if !list.iter().any(|e| &e.name == name) {
            problems.push(format!("crates/rulebook-provider-{name} is not in {LIST}"));
        }
    }
    for e in list {
        if !Path::new(&crates.join(e.krate())).is_dir() {
            problems.push(format!("{LIST} lists `{}`, which has no crate", e.name));
        }
    }
    Ok(problems)
}
