//! One provider crate alone (`rulebook-provider-cursor` in the manifest, no other rulebook
//! crate): load a project's Cursor rules. The crate re-exports what using it alone needs
//! (`LoadContext`, `Provider`).

use rulebook_provider_cursor::{CursorProvider, LoadContext, Provider};

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let dir = tempfile::tempdir()?;
    std::fs::create_dir_all(dir.path().join(".cursor/rules"))?;
    std::fs::write(
        dir.path().join(".cursor/rules/ts.mdc"),
        "---\ndescription: TypeScript style\nglobs: *.ts\n---\nUse strict mode.",
    )?;
    let loaded = CursorProvider.load(&LoadContext::new(dir.path(), ""))?;
    let rule = loaded.items.first().ok_or("no rule loaded")?;
    if rule.name != "ts" || rule.globs.as_deref() != Some(&["*.ts".to_owned()][..]) {
        return Err(format!("unexpected rule: {} {:?}", rule.name, rule.globs).into());
    }
    println!(
        "{} rule(s): {} ({})",
        loaded.items.len(),
        rule.name,
        rulebook_provider_cursor::TOOL.display_name()
    );
    Ok(())
}
