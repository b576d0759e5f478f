//! `Rulebook::rediscover` reads the rules again over the walk of the book it is called on:
//! after edits to files already read, its result is a fresh discovery's, nested rules
//! included; a directory created since is not seen (the walk is reused, which is the
//! point), so a caller that sees one discovers anew.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fmt::Write;
use std::path::Path;

use rulebook::{Options, Profile, Rulebook};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Every rule with its content and fate, and every diagnostic: what two books must share.
fn summary(book: &Rulebook) -> String {
    let mut out = String::new();
    for file in book.files() {
        writeln!(
            out,
            "{} {} {:?} {:?}",
            file.rule.name,
            file.rule.path.display(),
            &*file.rule.content,
            file.fate
        )
        .unwrap();
    }
    for d in book.diagnostics() {
        writeln!(out, "{d:?}").unwrap();
    }
    out
}

#[test]
fn after_edits_it_finds_what_a_fresh_discovery_finds() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    let top = root.join(".cursor/rules/style.mdc");
    let nested = root.join("apps/api/.cursor/rules/api.mdc");
    let agents = root.join("apps/web/AGENTS.md");
    write(&top, "---\nalwaysApply: true\n---\nTabs.\n");
    write(&nested, "---\nglobs: src/**\n---\nREST.\n");
    write(&agents, "Web.\n");
    for profile in [Profile::Extended, Profile::Reference] {
        let options = Options::new().profile(profile);
        let book = Rulebook::discover(&root, Some(&root.join("home")), &options);
        // The reference profile reads no nested rules (E11 is the extended profile's).
        let nested_read = profile == Profile::Extended;
        assert_eq!(summary(&book).contains("\"REST.\""), nested_read);

        write(
            &top,
            "---\nalwaysApply: false\ndescription: house style\n---\nSpaces.\n",
        );
        write(&nested, "---\nglobs: [unclosed\n---\nGraphQL.\n");
        write(&agents, "Web, again.\n");
        let again = book.rediscover(&options);
        let fresh = Rulebook::discover(&root, Some(&root.join("home")), &options);
        assert_eq!(summary(&again), summary(&fresh), "{profile:?}");
        assert!(summary(&again).contains("Spaces."), "{}", summary(&again));
        assert_eq!(summary(&again).contains("GraphQL."), nested_read);
        assert!(!summary(&again).contains("REST."), "{}", summary(&again));

        // A directory created since: a fresh discovery finds it, the reused walk does not.
        let new = root.join("apps/cli/.cursor/rules/cli.mdc");
        write(&new, "---\nalwaysApply: true\n---\nCLI.\n");
        assert!(!summary(&again.rediscover(&options)).contains("CLI."));
        let fresh = Rulebook::discover(&root, Some(&root.join("home")), &options);
        assert_eq!(summary(&fresh).contains("CLI."), nested_read);
        std::fs::remove_dir_all(root.join("apps/cli")).unwrap();
        write(&top, "---\nalwaysApply: true\n---\nTabs.\n");
        write(&nested, "---\nglobs: src/**\n---\nREST.\n");
    }
}

/// A save that changed a rule's text alone is put in place: the book then says what a fresh
/// discovery says. Any other save (a frontmatter change, a file whose provider reads the
/// text once loaded, a TTSR trigger) gives no update, and the caller discovers again.
#[test]
fn a_text_alone_changed_is_updated_in_place_and_anything_else_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    let home = root.join("home");
    let cursor = root.join(".cursor/rules/style.mdc");
    let nested = root.join("apps/api/.cursor/rules/api.mdc");
    let windsurf = root.join(".windsurf/rules/flow.md");
    let native = root.join(".xcsh/rules/own.md");
    let trigger = root.join(".xcsh/rules/trigger.md");
    let agents = root.join("AGENTS.md");
    write(&cursor, "---\nalwaysApply: true\n---\nTabs.\n");
    write(&nested, "---\nglobs: src/**\n---\nREST.\n");
    write(&windsurf, "---\ntrigger: always_on\n---\nFlow.\n");
    write(&native, "---\ndescription: own\n---\nOwn.\n");
    write(&trigger, "---\ncondition: \"eval\\\\(\"\n---\nNo eval.\n");
    write(&agents, "Agents.\n");
    for profile in [Profile::Extended, Profile::Reference] {
        let options = Options::new().profile(profile).keep_reads(true);
        let mut book = Rulebook::discover(&root, Some(&home), &options);
        write(&cursor, "---\nalwaysApply: true\n---\nSpaces.\n");
        write(&nested, "---\nglobs: src/**\n---\nGraphQL.\n");
        write(&windsurf, "---\ntrigger: always_on\n---\nFlow, again.\n");
        write(&native, "---\ndescription: own\n---\nOwn, again.\n");
        // The reference profile reads no nested rules: a file the book never read gives
        // no update (it may be new).
        let mut changed = vec![cursor.clone(), windsurf.clone(), native.clone()];
        assert_eq!(
            book.content_update(std::slice::from_ref(&nested)).is_some(),
            profile == Profile::Extended
        );
        if profile == Profile::Extended {
            changed.push(nested.clone());
        }
        let update = book.content_update(&changed).expect("texts alone changed");
        assert!(!update.is_empty());
        let replaced: Vec<String> = update.replaced().map(|(_, new)| new.to_string()).collect();
        assert!(replaced.contains(&"Spaces.".to_owned()), "{replaced:?}");
        let mut copy = Rulebook::discover(&root, Some(&home), &options);
        assert!(book.apply_content_update(update));
        let fresh = Rulebook::discover(&root, Some(&home), &options);
        assert_eq!(summary(&book), summary(&fresh), "{profile:?}");
        assert!(
            summary(&book).contains("Flow, again."),
            "{}",
            summary(&book)
        );

        // Updated in place, the book keeps its reads up to date: a save back is an update too.
        write(&cursor, "---\nalwaysApply: true\n---\nTabs.\n");
        let back = book
            .content_update(std::slice::from_ref(&cursor))
            .expect("a text alone");
        assert!(book.apply_content_update(back));
        assert_eq!(
            summary(&book),
            summary(&Rulebook::discover(&root, Some(&home), &options))
        );
        // An update made for another book changes nothing.
        let stale = book.content_update(std::slice::from_ref(&cursor)).unwrap();
        assert!(!copy.apply_content_update(stale));

        // Refused: a frontmatter change, a file a provider reads the text of once loaded
        // (AGENTS.md: its chain is cut by size), a TTSR trigger, a file never read.
        write(
            &cursor,
            "---\nalwaysApply: false\ndescription: d\n---\nTabs.\n",
        );
        assert!(book.content_update(std::slice::from_ref(&cursor)).is_none());
        write(&cursor, "---\nalwaysApply: true\n---\nTabs.\n");
        write(&agents, "Agents, again.\n");
        assert!(book.content_update(std::slice::from_ref(&agents)).is_none());
        write(&agents, "Agents.\n");
        write(
            &trigger,
            "---\ncondition: \"eval\\\\(\"\n---\nNever eval.\n",
        );
        assert!(
            book.content_update(std::slice::from_ref(&trigger))
                .is_none()
        );
        write(&trigger, "---\ncondition: \"eval\\\\(\"\n---\nNo eval.\n");
        assert!(book.content_update(&[root.join("README.md")]).is_none());
        // Without kept reads, no update.
        let plain = Rulebook::discover(&root, Some(&home), &Options::new().profile(profile));
        assert!(
            plain
                .content_update(std::slice::from_ref(&cursor))
                .is_none()
        );
        drop(copy);
        write(&windsurf, "---\ntrigger: always_on\n---\nFlow.\n");
        write(&native, "---\ndescription: own\n---\nOwn.\n");
        write(&nested, "---\nglobs: src/**\n---\nREST.\n");
    }
}

/// Every rule whole (every field), its fate, and every diagnostic.
fn whole(book: &Rulebook) -> String {
    let mut out = String::new();
    for file in book.files() {
        writeln!(out, "{:?} {:?}", file.rule, file.fate).unwrap();
    }
    for d in book.diagnostics() {
        writeln!(out, "{d:?}").unwrap();
    }
    // What `rule://` resolves, in its order, and to what.
    for rule in book.resolvable() {
        let read = book.resolve(&rulebook::stages::protocol::rule_uri(&rule.name));
        writeln!(out, "{} {:?}", rule.name, read.map(|r| r.content)).unwrap();
    }
    out
}

/// Copies the directory `from` into `to` (links as links).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(&source).unwrap(), &target).unwrap();
        } else if kind.is_dir() {
            copy_tree(&source, &target);
        } else {
            std::fs::copy(&source, &target).unwrap();
        }
    }
}

/// Each fixture tree with a project and a home, copied into a folder of its own (dropped
/// with the first of the pair), and that folder's real path.
fn fixture_copies() -> impl Iterator<Item = (tempfile::TempDir, std::path::PathBuf)> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    std::fs::read_dir(fixtures).unwrap().filter_map(|fixture| {
        let fixture = fixture.unwrap().path();
        if !fixture.join("project").is_dir() || !fixture.join("home").is_dir() {
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        copy_tree(&fixture, &root);
        Some((dir, root))
    })
}

/// A frontmatter edited in every rule file of every fixture tree, one file at a time, then
/// taken back: each update made in place leaves the book as a fresh discovery finds it,
/// in both profiles. This holds the providers run again on one file alone to what they
/// make of it among all the others.
#[test]
fn every_update_in_place_of_the_fixtures_is_what_a_fresh_discovery_finds() {
    let mut in_place = 0;
    for (_dir, root) in fixture_copies() {
        let (project, home) = (root.join("project"), root.join("home"));
        for profile in [Profile::Extended, Profile::Reference] {
            let options = Options::new().profile(profile).keep_reads(true);
            let mut book = Rulebook::discover(&project, Some(&home), &options);
            let paths: Vec<std::path::PathBuf> = book
                .all()
                .iter()
                .map(|e| e.item.path.clone())
                .filter(|p| p.starts_with(&root))
                .collect();
            for path in paths {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                let Some(rest) = text.strip_prefix("---\n") else {
                    continue;
                };
                let edits = [
                    format!("---\nowner: rulebook\n{rest}"),
                    format!("---\nalwaysApply: true\n{rest}"),
                    text.clone(),
                ];
                for edit in edits {
                    std::fs::write(&path, &edit).unwrap();
                    if let Some(update) = book.file_update(&options, std::slice::from_ref(&path)) {
                        in_place += usize::from(update.reshaped().next().is_some());
                        assert!(book.apply_content_update(update));
                        let fresh = Rulebook::discover(&project, Some(&home), &options);
                        assert_eq!(
                            whole(&book),
                            whole(&fresh),
                            "{} {profile:?}",
                            path.display()
                        );
                    } else {
                        book = Rulebook::discover(&project, Some(&home), &options);
                    }
                }
            }
        }
    }
    eprintln!("{in_place} updates in place");
    assert!(in_place > 20, "only {in_place} updates in place");
}

/// Puts the files `made` and `gone` in place in `book` when it can be done, else discovers
/// anew; checks that the book then says what a fresh discovery says. Whether it was done
/// in place.
fn files_changed(
    book: &mut Rulebook,
    options: &Options,
    (project, home): (&Path, &Path),
    made: &[std::path::PathBuf],
    gone: &[std::path::PathBuf],
) -> bool {
    let fresh = Rulebook::discover(project, Some(home), options);
    let Some(update) = book.files_update(options, made, gone) else {
        *book = fresh;
        return false;
    };
    assert!(book.apply_files_update(update));
    assert_eq!(
        whole(book),
        whole(&fresh),
        "made {made:?}, gone {gone:?} ({:?})",
        book.profile()
    );
    true
}

/// Every rule file of every fixture tree deleted and written again, a new file written
/// beside it (first and last of its folder) and deleted, and the file renamed: each change
/// put in place leaves the book as a fresh discovery finds it, in both profiles. This holds
/// the providers run on a new file alone to what they make of it among all the others,
/// and its place among their rules to the walk's.
#[test]
fn every_file_created_or_deleted_in_place_of_the_fixtures_is_what_a_fresh_discovery_finds() {
    let (mut in_place, mut changes) = (0, 0);
    for (_dir, root) in fixture_copies() {
        let (project, home) = (root.join("project"), root.join("home"));
        let at = (project.as_path(), home.as_path());
        for profile in [Profile::Extended, Profile::Reference] {
            let options = Options::new().profile(profile).keep_reads(true);
            let mut book = Rulebook::discover(&project, Some(&home), &options);
            let mut paths: Vec<std::path::PathBuf> = book
                .all()
                .iter()
                .map(|e| e.item.path.clone())
                .filter(|p| p.starts_with(&root))
                .collect();
            paths.dedup();
            for path in paths {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                if std::fs::symlink_metadata(&path)
                    .unwrap()
                    .file_type()
                    .is_symlink()
                {
                    continue;
                }
                let one = |p: &Path| vec![p.to_path_buf()];
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                // Deleted, then written again.
                std::fs::remove_file(&path).unwrap();
                in_place += usize::from(files_changed(&mut book, &options, at, &[], &one(&path)));
                std::fs::write(&path, &text).unwrap();
                in_place += usize::from(files_changed(&mut book, &options, at, &one(&path), &[]));
                // A new file before and after every other of its folder, then gone.
                for new in [format!("0-new-{name}"), format!("~new-{name}")] {
                    let new = path.with_file_name(new);
                    std::fs::write(&new, &text).unwrap();
                    in_place +=
                        usize::from(files_changed(&mut book, &options, at, &one(&new), &[]));
                    std::fs::remove_file(&new).unwrap();
                    in_place +=
                        usize::from(files_changed(&mut book, &options, at, &[], &one(&new)));
                }
                // Renamed, and back.
                let renamed = path.with_file_name(format!("renamed-{name}"));
                std::fs::rename(&path, &renamed).unwrap();
                in_place += usize::from(files_changed(
                    &mut book,
                    &options,
                    at,
                    &one(&renamed),
                    &one(&path),
                ));
                std::fs::rename(&renamed, &path).unwrap();
                in_place += usize::from(files_changed(
                    &mut book,
                    &options,
                    at,
                    &one(&path),
                    &one(&renamed),
                ));
                changes += 8;
            }
        }
    }
    eprintln!("{in_place} of {changes} changes in place");
    assert!(
        in_place > changes / 4,
        "only {in_place} of {changes} in place"
    );
}

/// A rule file another rule imports (`@.cursor/rules/b.md` in `CLAUDE.md`) changes that
/// rule when it goes, and a missing file so imported changes it when it comes: the book
/// then says what a fresh discovery says (the tree is discovered anew, the change is not
/// put in place). A file no rule imports is put in place.
#[test]
fn a_rule_file_another_imports_changes_the_importer_when_it_comes_or_goes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let rules = project.join(".cursor/rules");
    write(&rules.join("a.md"), "---\nalwaysApply: true\n---\nA.\n");
    write(&rules.join("b.md"), "---\nalwaysApply: true\n---\nB.\n");
    write(
        &project.join("CLAUDE.md"),
        "Read @.cursor/rules/b.md and @.cursor/rules/c.md\n",
    );
    for profile in [Profile::Extended, Profile::Reference] {
        let options = Options::new().profile(profile).keep_reads(true);
        let at = (project.as_path(), home.as_path());
        let mut book = Rulebook::discover(&project, Some(&home), &options);
        // The reference profile expands no import.
        let imports = book.all().iter().any(|e| !e.item.includes.is_empty());
        assert_eq!(imports, profile == Profile::Extended);
        let (b, c, d) = (rules.join("b.md"), rules.join("c.md"), rules.join("d.md"));
        let text = "---\nalwaysApply: true\n---\nNew.\n";
        std::fs::remove_file(&b).unwrap();
        let gone = files_changed(&mut book, &options, at, &[], std::slice::from_ref(&b));
        assert_eq!(gone, !imports);
        write(&b, text);
        let made = files_changed(&mut book, &options, at, std::slice::from_ref(&b), &[]);
        assert_eq!(made, !imports);
        write(&c, text);
        let made = files_changed(&mut book, &options, at, std::slice::from_ref(&c), &[]);
        assert_eq!(made, !imports);
        std::fs::remove_file(&c).unwrap();
        let gone = files_changed(&mut book, &options, at, &[], std::slice::from_ref(&c));
        assert_eq!(gone, !imports);
        write(&d, text);
        let in_place = files_changed(&mut book, &options, at, std::slice::from_ref(&d), &[]);
        assert!(in_place, "{profile:?}");
        std::fs::remove_file(&d).unwrap();
        assert!(files_changed(
            &mut book,
            &options,
            at,
            &[],
            std::slice::from_ref(&d)
        ));
    }
}

/// Many files at once in a large book are not put in place (each is weighed against every
/// rule): the book is discovered anew; the same files one at a time are put in place.
#[test]
fn many_files_at_once_in_a_large_book_are_discovered_anew() {
    let dir = tempfile::tempdir().unwrap();
    let (project, home) = (dir.path().join("project"), dir.path().join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let folder = project.join(".cursor/rules");
    let rule = |i: usize| format!("---\ndescription: rule {i}\n---\nBody {i}.\n");
    for i in 0..1001 {
        write(&folder.join(format!("r{i:05}.mdc")), &rule(i));
    }
    let options = Options::new().keep_reads(true);
    let book = Rulebook::discover(&project, Some(&home), &options);
    assert_eq!(book.all().len(), 1001);
    let made: Vec<std::path::PathBuf> = (1001..2001)
        .map(|i| {
            let path = folder.join(format!("r{i:05}.mdc"));
            write(&path, &rule(i));
            path
        })
        .collect();
    assert!(
        book.files_update(&options, &made, &[]).is_none(),
        "1,000 files at once in a book of 1,001 rules are discovered anew"
    );
    let mut one = book;
    let at = (project.as_path(), home.as_path());
    for path in &made[..3] {
        for other in &made {
            if other != path {
                let _ = std::fs::remove_file(other);
            }
        }
        write(path, "---\ndescription: alone\n---\nAlone.\n");
        assert!(
            files_changed(&mut one, &options, at, std::slice::from_ref(path), &[]),
            "one file is put in place"
        );
        std::fs::remove_file(path).unwrap();
        assert!(files_changed(
            &mut one,
            &options,
            at,
            &[],
            std::slice::from_ref(path)
        ));
    }
}
