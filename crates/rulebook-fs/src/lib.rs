//! Finding and reading rule files, shared by every provider (behaviour.md §2 and §4).
//!
//! - [`walk_rules_dir`]: every file with one of the given extensions (case-sensitive) at any
//!   depth under a directory, in a deterministic depth-first order with siblings sorted
//!   byte-wise (`a/a.md`, `a/x.md`, `a-b.md`, `a.md`). Hidden entries below the root,
//!   `node_modules` and `.git` are skipped; `.gitignore` is respected inside a git
//!   repository and `.ignore` everywhere (the `ignore` crate's walker). Symlinked files are
//!   followed and reported under the link's path; symlinked directories are not descended;
//!   broken links are skipped with a warning. A missing or unreadable root yields nothing.
//! - [`read_rule_file`]: the text of one file: one leading BOM stripped, invalid UTF-8
//!   decoded lossily with a warning, a read error as the warning
//!   `Failed to read file: <path>`, the size cap (Extended E9) and the project boundary
//!   (Extended E10) enforced. [`RuleReader`] reads a run of files the same way into one
//!   reused buffer, for a caller that keeps only part of each text.
//!
//! - [`find_upward`] and [`find_named`]: the nearest named entry upward (Cline's
//!   `.clinerules`), and the one nested walk below the working directory for every
//!   provider's names (E11).
//!
//! - [`Overlay`]: unsaved text an editor holds, read in place of a file's (the language
//!   server's buffers).
//!
//! One module each: `walk`, `read`, `find`, `overlay`. The provider kit (`rulebook-kit`) builds rules
//! on these.
//!
//! Depends on `ignore` (the walker) and `rulebook-rule` (diagnostics and rule building).
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join("a"))?;
//! for file in ["a.md", "a-b.md", "a/x.md", "a/a.md", "skip.txt"] {
//!     std::fs::write(dir.path().join(file), "body")?;
//! }
//! let walked = rulebook_fs::walk_rules_dir(dir.path(), &["md"]);
//! let names: Vec<_> = walked
//!     .files
//!     .iter()
//!     .map(|p| p.strip_prefix(dir.path()).unwrap().to_str().unwrap().replace('\\', "/"))
//!     .collect();
//! assert_eq!(names, ["a/a.md", "a/x.md", "a-b.md", "a.md"]);
//! # Ok(())
//! # }
//! ```

mod find;
mod overlay;
mod read;
mod walk;

pub use find::{Found, find_dirs, find_named, find_upward, owned_by_another_user};
pub use overlay::Overlay;
pub use read::{
    ReadOptions, ReadRule, ReadText, RuleReader, holding_folders, normalize_lexically, read_bytes,
    read_bytes_inside, read_prefix, read_prefix_into, read_prefix_shared, read_rule,
    read_rule_file, same_bytes,
};
pub use rulebook_rule::DEFAULT_MAX_FILE_SIZE;
pub use walk::{
    MAX_NESTED_ENTRIES, MAX_WALK_DEPTH, MAX_WALK_ENTRIES, Walked, lists_extension, walk_rules_dir,
    walk_rules_dir_only,
};
