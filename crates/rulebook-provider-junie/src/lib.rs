//! The Junie rules provider (behaviour.md §13, the `junie` row), Extended only.
//!
//! Junie (the JetBrains IDE plugin) adds one file to every task: `.junie/guidelines.md` at the project root by default, whole, with no frontmatter; another file (`AGENTS.md`) only when the IDE's "Guidelines path" setting names it (JetBrains' Junie documentation, `junie/customize-guidelines`).
//!
//! This provider reads `.junie/guidelines.md` at the project root: one always-apply rule named `guidelines`,
//! its text trimmed (no frontmatter). The crate is a declaration
//! ([`rulebook_kit::declare_context_files!`]): the file, the metadata, and the view's words.
//!
//! [`host`] is the tool's own view (`--as junie`): documented, not verified (the tool cannot
//! be run here).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_junie::{JunieProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".junie"))?;
//! std::fs::write(dir.path().join(".junie/guidelines.md"), "Use pnpm.\n")?;
//! let loaded = JunieProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "guidelines");
//! assert_eq!(&*loaded.items[0].content, "Use pnpm.");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

rulebook_kit::declare_context_files! {
    /// The Junie provider (id `junie`, priority 23).
    provider JunieProvider {
        id: "junie",
        name: "Junie",
        description: "JetBrains Junie: .junie/guidelines.md at the project root (Extended)",
        priority: 23,
        files: [".junie/guidelines.md"],
    }
    /// Junie as a [`Tool`]: its metadata and its view ([`emulate`]).
    tool Junie {
        source: "Junie's documentation (guidelines)",
        reason: "the project's guidelines, added to every task",
        notes: [
            "another guidelines file (AGENTS.md) is used only when the IDE's Guidelines path setting names it, which this view cannot see",
        ],
    }
}
