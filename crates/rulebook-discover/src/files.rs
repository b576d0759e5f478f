//! Rule files that came and went, put in place in a book without discovering again
//! ([`Rulebook::files_update`], [`Rulebook::apply_files_update`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rulebook_partition::{Placement, Rejection, partition};
use rulebook_registry::{Capability, Entry, ReadMemo, RuleCapability, Status};
use rulebook_rule::{DiagnosticCode, Rule};

use crate::{Options, ProviderTable, Rulebook};

/// The most entries of a book an update of files in place may look at, counted as files
/// made or gone times the book's entries: it weighs each file against every entry (what
/// imports it, what stands for it, where its rules go), some of that while a server holds
/// its snapshot for writing, so its work grows with both (1,000 files made at once in a
/// book of 1,001 rules: 167 ms, where discovering the book anew took 11 ms). Past it, or
/// past [`IN_PLACE_FILES`], the book is discovered anew: the same book, in a time linear
/// in it, holding nothing while it reads.
const IN_PLACE_BUDGET: usize = 1_000_000;

/// The most files made or gone an update in place takes at once, whatever the book.
const IN_PLACE_FILES: usize = 32;

/// Whether an update in place of `files` files made or gone, in a book of `entries`
/// entries, is within [`IN_PLACE_FILES`] and [`IN_PLACE_BUDGET`].
fn in_place_fits(files: usize, entries: usize) -> bool {
    files <= IN_PLACE_FILES && files.saturating_mul(entries.max(1)) <= IN_PLACE_BUDGET
}

/// Rule files created and rule files deleted, read and checked against one book, to be put
/// in place with [`Rulebook::apply_files_update`].
#[derive(Debug)]
pub struct FilesUpdate {
    /// The memo of the book the update was made for.
    memo: ReadMemo,
    /// How the new files were loaded.
    fresh: ReadMemo,
    /// The files gone.
    gone: Vec<PathBuf>,
    /// The rules of the new files: the provider, the rule and its placement.
    made: Vec<(String, Rule, Placement)>,
    /// Whether paths compare by their bytes ([`plain`]).
    bytes: bool,
}

impl FilesUpdate {
    /// The names of the rules that go away.
    pub fn removed<'a>(&'a self, book: &'a Rulebook) -> impl Iterator<Item = &'a str> + 'a {
        let compare = Compare { bytes: self.bytes };
        book.loaded
            .all
            .iter()
            .filter(move |e| self.gone.iter().any(|g| compare.same(g, &e.item.path)))
            .map(|e| e.item.name.as_str())
    }

    /// The rules that come.
    pub fn added(&self) -> impl Iterator<Item = &Rule> + '_ {
        self.made.iter().map(|(_, rule, _)| rule)
    }

    /// Whether no rule comes or goes (the files were none of a provider's).
    pub fn is_empty(&self) -> bool {
        self.made.is_empty() && self.gone.is_empty()
    }
}

/// Whether `path`'s bytes are its components joined by single separators (no empty
/// component, no `.`, no separator at the end; Unix only): two plain paths are equal, and
/// one lies below another, exactly when their bytes say so, which is cheaper to ask than
/// their components (a tenth of an update at 100,000 rules went to comparing components).
pub(crate) fn plain(path: &Path) -> bool {
    if !cfg!(unix) {
        return false;
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    let body = bytes.strip_prefix(b"/").unwrap_or(bytes);
    !body.is_empty()
        && body
            .split(|&b| b == b'/')
            .all(|c| !c.is_empty() && c != b".")
}

/// How paths are compared in one update: by their bytes when every path involved is
/// [`plain`], else by their components.
#[derive(Clone, Copy)]
struct Compare {
    bytes: bool,
}

impl Compare {
    fn same(self, a: &Path, b: &Path) -> bool {
        if self.bytes {
            a.as_os_str() == b.as_os_str()
        } else {
            a == b
        }
    }

    /// Whether `path` lies below `folder` (or is it).
    fn under(self, path: &Path, folder: &Path) -> bool {
        if !self.bytes {
            return path.starts_with(folder);
        }
        let (path, folder) = (
            path.as_os_str().as_encoded_bytes(),
            folder.as_os_str().as_encoded_bytes(),
        );
        path.starts_with(folder)
            && (path.len() == folder.len() || folder.ends_with(b"/") || path[folder.len()] == b'/')
    }

    /// Whether `path` lies in `folder` itself.
    fn in_folder(self, path: &Path, folder: &Path) -> bool {
        if !self.bytes {
            return path.parent() == Some(folder);
        }
        self.under(path, folder) && {
            let bytes = path.as_os_str().as_encoded_bytes();
            let folder = folder.as_os_str().as_encoded_bytes();
            let start = folder.len() + usize::from(!folder.ends_with(b"/"));
            start < bytes.len() && !bytes[start..].contains(&b'/')
        }
    }
}

/// Whether `rule` is, or was refused as, a TTSR trigger (the trigger registry holds those).
fn trigger(rule: &Rule) -> bool {
    !rule.condition.is_empty() || rule.ttsr_trigger.is_some()
}

impl Rulebook {
    /// The rules of this book after the files `made` were created and the files `gone`
    /// deleted, each file of a rules directory that already held rules of the same provider
    /// in the same folder: to be put in place with [`Rulebook::apply_files_update`] without
    /// walking the tree or reading any other file.
    ///
    /// Each new file is loaded by every provider as discovery would load it, the walk of
    /// its rules directory led straight to it ([`LoadContext::only`]), and goes among its
    /// provider's rules of that folder in the walk's order (by path). The update is made
    /// only when what discovery would give is certain:
    ///
    /// - no file is one whose name the walk below the working directory looks for
    ///   (`AGENTS.md`, `.cursor`, …), a skill's, one a rule imports or tried to import
    ///   (`@path` in `CLAUDE.md`: a file of that name), or one a book's finding is about,
    ///   and the book's walks were not cut short;
    /// - a new file is a plain file, found by a walk (not loaded by name), by providers
    ///   that make each rule of its file alone ([`FileLoader::content_blind`]), giving one
    ///   valid rule of a name no other rule has, no TTSR trigger, and no finding; its
    ///   provider's rules of that folder lie together in path order;
    /// - a gone file's rules were active, stood for no other rule (none shadowed by them,
    ///   none the same file), and were no TTSR trigger;
    /// - the files are few enough for the book: an update weighs each against every rule,
    ///   so past 32 files at once, or a million of those weighings (10 files at 100,000
    ///   rules), it is `None`.
    ///
    /// `options` are the ones the book was discovered with (`None` for another profile, or
    /// when the book kept no reads: [`Options::keep_reads`]). `None` otherwise: discover
    /// again then.
    ///
    /// [`LoadContext::only`]: rulebook_registry::LoadContext::only
    /// [`FileLoader::content_blind`]: rulebook_kit::FileLoader::content_blind
    pub fn files_update<T: ProviderTable>(
        &self,
        options: &Options<T>,
        made: &[PathBuf],
        gone: &[PathBuf],
    ) -> Option<FilesUpdate> {
        if options.profile != self.profile
            || !in_place_fits(made.len() + gone.len(), self.loaded.all.len())
        {
            return None;
        }
        let memo = self.memo.as_ref()?;
        let registry = options.registry();
        let names = registry.nested_names();
        let skill_names = options.skill_registry().nested_names();
        let compare = Compare {
            bytes: self.plain_paths() && made.iter().chain(gone).all(|p| plain(p)),
        };
        let said = |path: &Path| {
            self.diagnostics
                .iter()
                .any(|d| d.path.as_deref().is_some_and(|p| compare.same(p, path)))
        };
        // A cut walk may have left out the very file that comes.
        if self
            .diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::WalkFailed)
        {
            return None;
        }
        let mut all: Vec<&PathBuf> = made.iter().chain(gone).collect();
        all.sort();
        all.dedup();
        if all.len() != made.len() + gone.len() {
            return None;
        }
        // An import cut by the size budget leaves every later one unsaid.
        let imports_said: Vec<&str> = self
            .diagnostics
            .iter()
            .filter(|d| {
                matches!(
                    d.code,
                    DiagnosticCode::ImportSkipped | DiagnosticCode::ImportFailed
                )
            })
            .map(|d| d.message.as_str())
            .collect();
        if !made.is_empty()
            && imports_said
                .iter()
                .any(|m| m.contains("would add more than"))
        {
            return None;
        }
        // Most books import nothing: then no rule need be looked at for it.
        let imports = self.loaded.all.iter().any(|e| !e.item.includes.is_empty());
        for path in all {
            let name = path.file_name()?.to_str()?;
            // A file a rule imports, or tried to import: that rule changes with it.
            let imported = imports
                && self.loaded.all.iter().any(|e| {
                    e.item
                        .includes
                        .iter()
                        .any(|i| i == path || i.file_name() == path.file_name())
                })
                || imports_said.iter().any(|m| m.contains(name));
            if imported {
                return None;
            }
            let skill = name.eq_ignore_ascii_case("SKILL.md")
                || skill_names.iter().any(|n| n == name)
                || self
                    .skills
                    .all
                    .iter()
                    .any(|s| path.starts_with(s.item.folder()));
            if names.iter().any(|n| n == name) || skill || said(path) {
                return None;
            }
        }
        // The files gone: their rules leave, and nothing else changes.
        for path in gone {
            if std::fs::symlink_metadata(path).is_ok() {
                return None;
            }
            let at: Vec<usize> = (0..self.loaded.all.len())
                .filter(|&i| compare.same(&self.loaded.all[i].item.path, path))
                .collect();
            if at.is_empty() {
                if memo.loaded(path) {
                    return None;
                }
                continue;
            }
            let stands_for = self.loaded.all.iter().any(|e| match e.status {
                Status::Shadowed { by } | Status::SameFile { by } => at.contains(&by),
                _ => false,
            });
            let linked_here = self.loaded.all.iter().any(|e| {
                RuleCapability::real_path(&e.item).is_some_and(|real| compare.same(real, path))
                    && !compare.same(&e.item.path, path)
            });
            if stands_for
                || linked_here
                || at.iter().any(|&i| {
                    let entry = &self.loaded.all[i];
                    entry.status != Status::Active || trigger(&entry.item)
                })
            {
                return None;
            }
        }
        let mut update = FilesUpdate {
            memo: memo.clone(),
            fresh: ReadMemo::default(),
            gone: gone.to_vec(),
            made: Vec::new(),
            bytes: compare.bytes,
        };
        if made.is_empty() {
            return Some(update);
        }
        for path in made {
            let plain = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file());
            let plain = plain && path.is_absolute();
            // Read already, under this path or through a link to it.
            let read = |e: &Entry<Rule>| {
                compare.same(&e.item.path, path)
                    || RuleCapability::real_path(&e.item).is_some_and(|r| compare.same(r, path))
            };
            if !plain || memo.loaded(path) || self.loaded.all.iter().any(read) {
                return None;
            }
        }
        // Every enabled provider of the profile, on the new files alone.
        let mut ctx = options
            .load_context(&self.cwd, &self.home)
            .memo(update.fresh.clone())
            .only(made.iter().cloned());
        if let Some(walk) = &self.walk {
            ctx = ctx.nested_shared(Arc::clone(&walk.by_name));
        }
        let mut rules: Vec<(String, Rule)> = Vec::new();
        for info in registry.infos() {
            let Some(provider) = registry.provider(&info.id) else {
                continue;
            };
            if !provider.info().serves(self.profile) {
                continue;
            }
            let result = provider.load(&ctx).ok()?;
            if result.diagnostics.iter().any(|d| {
                d.path
                    .as_deref()
                    .is_some_and(|p| made.iter().any(|m| m == p))
            }) {
                return None;
            }
            for rule in result.items {
                if made.contains(&rule.path) {
                    rules.push((info.id.clone(), rule));
                }
            }
        }
        for path in made {
            if update.fresh.probed(path)
                || (update.fresh.loaded(path) && !update.fresh.reloadable(path))
            {
                return None;
            }
        }
        for (provider, rule) in rules {
            let taken = self.loaded.all.iter().any(|e| e.item.name == rule.name);
            if taken || trigger(&rule) || RuleCapability::validate(&rule).is_err() {
                return None;
            }
            let mut placed = partition(std::iter::once(&rule), self.profile, |_| {
                Err(Rejection::DuplicateName)
            });
            if !placed.diagnostics.is_empty() {
                return None;
            }
            let placement = placed.placements.pop()?;
            update.made.push((provider, rule, placement));
        }
        let mut seen = std::collections::HashSet::new();
        if !update
            .made
            .iter()
            .all(|(_, r, _)| seen.insert(r.name.as_str()))
        {
            return None;
        }
        // Each new rule's place: among its provider's rules of its folder, which lie
        // together in path order.
        self.places(&update, compare)?;
        Some(update)
    }

    /// Puts `update` ([`Rulebook::files_update`]) in place: the gone files' rules leave, the
    /// new ones come, every position that follows moves. `false` (nothing changed) when the
    /// update was made for another book, or a new rule's place is no longer known.
    pub fn apply_files_update(&mut self, update: FilesUpdate) -> bool {
        if self.memo.as_ref() != Some(&update.memo) {
            return false;
        }
        let compare = Compare {
            bytes: update.bytes,
        };
        // Every place is checked before anything moves: the update is all or nothing (the
        // places `files_update` found on this book, the gone files' rules left out; neither
        // their leaving nor a new rule coming before another changes a block).
        let Some(places) = self.places(&update, compare) else {
            return false;
        };
        let mut gone_at: Vec<usize> = (0..self.loaded.all.len())
            .filter(|&i| {
                let path = &self.loaded.all[i].item.path;
                update.gone.iter().any(|g| compare.same(g, path))
            })
            .collect();
        gone_at.sort_unstable();
        for &i in gone_at.iter().rev() {
            self.remove_entry(i);
        }
        for path in &update.gone {
            update.memo.forget(path);
        }
        let new_plain = update.made.iter().all(|(_, rule, _)| {
            plain(&rule.path) && RuleCapability::real_path(rule).is_none_or(plain)
        });
        // One new rule (a file created, or renamed) goes where it was placed above; of
        // several, each is placed among the rules as they are once the ones before it came.
        let one = (update.made.len() == 1).then(|| places[0]);
        for (provider, rule, placement) in update.made {
            let at = one
                .or_else(|| block(&self.loaded.all, &provider, &rule.path, &[], compare))
                .unwrap_or(self.loaded.all.len());
            self.insert_entry(
                at,
                Entry {
                    item: rule,
                    provider,
                    status: Status::Active,
                },
                placement,
            );
        }
        update.memo.absorb(&update.fresh);
        if !new_plain {
            self.plain_paths.take();
        }
        // The globs' and `rule://` indexes are built again when asked for; bytes kept of
        // the files read are stale.
        self.globs = OnceLock::new();
        self.urls = OnceLock::new();
        self.shared_reads = None;
        true
    }

    /// Whether every path of every rule and finding is [`plain`] (worked out once).
    pub(crate) fn plain_paths(&self) -> bool {
        *self.plain_paths.get_or_init(|| {
            self.loaded.all.iter().all(|e| {
                plain(&e.item.path) && RuleCapability::real_path(&e.item).is_none_or(plain)
            }) && self
                .diagnostics
                .iter()
                .all(|d| d.path.as_deref().is_none_or(plain))
        })
    }

    /// Where each new rule of `update` goes among the rules once the gone files' rules
    /// have left ([`block`]); `None` when one has no place.
    fn places(&self, update: &FilesUpdate, compare: Compare) -> Option<Vec<usize>> {
        update
            .made
            .iter()
            .map(|(provider, rule, _)| {
                block(
                    &self.loaded.all,
                    provider,
                    &rule.path,
                    &update.gone,
                    compare,
                )
            })
            .collect()
    }

    /// Removes the active entry at `i` of every rule, and its placement.
    fn remove_entry(&mut self, i: usize) {
        let entry = self.loaded.all.remove(i);
        if let Ok(active) = self.loaded.active.binary_search(&i) {
            self.loaded.active.remove(active);
            if active < self.partition.placements.len() {
                self.partition.placements.remove(active);
            }
        }
        for at in &mut self.loaded.active {
            if *at > i {
                *at -= 1;
            }
        }
        for e in &mut self.loaded.all {
            if let Status::Shadowed { by } | Status::SameFile { by } = &mut e.status {
                if *by > i {
                    *by -= 1;
                }
            }
        }
        if !self.loaded.all.iter().any(|e| e.provider == entry.provider) {
            self.loaded.providers.retain(|p| *p != entry.provider);
        }
    }

    /// Inserts `entry`, active, at `i` of every rule, with its placement.
    fn insert_entry(&mut self, i: usize, entry: Entry<Rule>, placement: Placement) {
        for at in &mut self.loaded.active {
            if *at >= i {
                *at += 1;
            }
        }
        for e in &mut self.loaded.all {
            if let Status::Shadowed { by } | Status::SameFile { by } = &mut e.status {
                if *by >= i {
                    *by += 1;
                }
            }
        }
        let active = self.loaded.active.partition_point(|&at| at < i);
        self.loaded.active.insert(active, i);
        self.partition
            .placements
            .insert(active.min(self.partition.placements.len()), placement);
        self.loaded.all.insert(i.min(self.loaded.all.len()), entry);
    }
}

/// Where a rule of `provider` read from `path` goes among `all`: its provider's rules of
/// `path`'s folder (and below) lie together in path order (the order of the walk that
/// found them), and it goes among them by its path. `None` when there are none, or they
/// do not lie so. The rules of the files `gone` are left out: the index is the one once
/// they have left.
fn block(
    all: &[Entry<Rule>],
    provider: &str,
    path: &Path,
    gone: &[PathBuf],
    compare: Compare,
) -> Option<usize> {
    let folder = path.parent()?;
    let kept = |i: usize| !gone.iter().any(|g| compare.same(g, &all[i].item.path));
    let at: Vec<usize> = (0..all.len())
        .filter(|&i| {
            all[i].provider == provider && compare.under(&all[i].item.path, folder) && kept(i)
        })
        .collect();
    let (&first, &last) = (at.first()?, at.last()?);
    if (first..=last).filter(|&i| kept(i)).count() != at.len()
        || at.windows(2).any(|w| all[w[0]].item.path >= all[w[1]].item.path)
        // One of them at least in the folder itself, found by the same walk.
        || !at.iter().any(|&i| compare.in_folder(&all[i].item.path, folder))
    {
        return None;
    }
    let at = at
        .iter()
        .find(|&&i| all[i].item.path > *path)
        .copied()
        .unwrap_or(last + 1);
    Some(at - (0..at).filter(|&i| !kept(i)).count())
}

#[cfg(test)]
mod tests {
    use super::in_place_fits;

    /// An update in place takes at most 32 files at once, and fewer in a large book: no
    /// more than a million files-times-entries (10 files at 100,000 entries).
    #[test]
    fn an_update_in_place_is_bounded_by_files_and_by_the_book() {
        assert!(in_place_fits(1, 0));
        assert!(in_place_fits(32, 31_250));
        assert!(!in_place_fits(33, 1));
        assert!(in_place_fits(10, 100_000));
        assert!(!in_place_fits(11, 100_000));
        assert!(!in_place_fits(1, 1_000_001));
        assert!(!in_place_fits(usize::MAX, usize::MAX));
    }
}
