//! The Firebase Studio rules provider (behaviour.md §13, the `firebase` row), Extended only.
//!
//! Firebase Studio (formerly Project IDX) gives Gemini in its chat the workspace's `.idx/airules.md`, whole, with no frontmatter (Firebase Studio documentation, `studio/set-up-gemini`). An order between `airules.md`, `GEMINI.md` and `AGENTS.md` is reported second-hand only and is not reproduced.
//!
//! This provider reads `.idx/airules.md` at the project root: one always-apply rule named `airules`,
//! its text trimmed (no frontmatter). The crate is a declaration
//! ([`rulebook_kit::declare_context_files!`]): the file, the metadata, and the view's words.
//!
//! [`host`] is the tool's own view (`--as firebase`): documented, not verified (the tool cannot
//! be run here).
//!
//! Depends on `rulebook-kit`.
//!
//! ```
//! use rulebook_provider_firebase::{FirebaseProvider, LoadContext, Provider};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join(".idx"))?;
//! std::fs::write(dir.path().join(".idx/airules.md"), "Use pnpm.\n")?;
//! let loaded = FirebaseProvider.load(&LoadContext::new(dir.path(), ""))?;
//! assert_eq!(loaded.items[0].name, "airules");
//! assert_eq!(&*loaded.items[0].content, "Use pnpm.");
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

/// What using this crate alone needs, besides its provider: the context a provider
/// loads in and the trait it implements (both from `rulebook-kit`).
pub use rulebook_kit::{LoadContext, Provider};

rulebook_kit::declare_context_files! {
    /// The Firebase Studio provider (id `firebase`, priority 17).
    provider FirebaseProvider {
        id: "firebase",
        name: "Firebase Studio",
        description: "Firebase Studio: .idx/airules.md at the project root (Extended)",
        priority: 17,
        files: [".idx/airules.md"],
    }
    /// Firebase Studio as a [`Tool`]: its metadata and its view ([`emulate`]).
    tool Firebase {
        source: "Firebase Studio's documentation (AI rules)",
        reason: "the workspace's AI rules, given to Gemini in Firebase Studio's chat",
        notes: [
            "Firebase Studio's order between .idx/airules.md, GEMINI.md and AGENTS.md is reported second-hand only; this view shows airules.md alone",
        ],
    }
}
