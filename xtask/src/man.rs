//! `cargo xtask man`: the man pages, from the CLI's clap definition.

use std::env;
use std::path::PathBuf;

use super::{cargo, flag, root, run};

/// The man pages, rendered by the binary itself (`clap_mangen`) so they never drift from
/// `--help`: `rulebook.1` and one page per subcommand, which its SUBCOMMANDS section names.
pub(crate) fn man(args: &[String]) -> Result<(), String> {
    let target =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let dir = flag(args, "--dir").map_or_else(|| target.join("man"), PathBuf::from);
    run(
        "write the man pages",
        cargo()
            .args([
                "run",
                "--quiet",
                "--locked",
                "-p",
                "rulebook-cli",
                "--",
                "man",
                "--dir",
            ])
            .arg(&dir),
    )?;
    let page = dir.join("rulebook.1");
    eprintln!(
        "xtask: wrote {} and a page per subcommand (view it with `man {}`)",
        page.display(),
        page.display()
    );
    Ok(())
}
