//! The provider kit's extension points, proven by two providers defined outside the
//! workspace's list, as an outside author would write them against `rulebook-kit` alone:
//! - one of per-directory instruction files (an GUIDE.md-like format): raw bodies, rules
//!   named `<dir key>:<stem>` so siblings never shadow each other, directory-scoped globs;
//! - one of rules with `paths:` matched in the anchored dialect against the project root
//!   (a `.scoped/rules`-like format), which declares the keys it reads.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::Path;

use rulebook::stages::kit::coerce::{
    AlwaysApplyPolicy, COMMON_KEYS, DescriptionPolicy, FieldPolicy, GlobsPolicy,
};
use rulebook::stages::kit::{
    FileLoader, GlobDialect, KnownKey, Level, LoadContext, LoadResult, ProviderError,
    RuleCapability, Value, dir_scoped_name, walk_rules_dir,
};
use rulebook::{Profile, Provider, ProviderMeta, Rule, RuleBucket, Rulebook, Status};

const POLICY: FieldPolicy = FieldPolicy::new(
    DescriptionPolicy::StringOnly,
    AlwaysApplyPolicy::Boolean,
    GlobsPolicy::StringsOnly,
);

/// `GUIDE.md` in the project root and every directory below it.
struct Instructions;

impl Provider<RuleCapability> for Instructions {
    fn info(&self) -> &ProviderMeta {
        static INFO: ProviderMeta = ProviderMeta::new(
            "instructions",
            "Instructions",
            "GUIDE.md in every directory",
            60,
        );
        &INFO
    }
    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "instructions", "Instructions", POLICY).raw(true);
        let mut out = LoadResult::default();
        let root = ctx.project_root.clone();
        for path in walk_rules_dir(&root, &["md"]).files {
            if path.file_name().is_none_or(|n| n != "GUIDE.md") {
                continue;
            }
            let dir = path.parent().unwrap();
            let name = dir_scoped_name(dir, "GUIDE", &root, &ctx.home);
            let Some(i) = loader.load_file(&path, &name, Level::Project, Some(&root), &mut out)
            else {
                continue;
            };
            let rule = &mut out.items[i];
            if dir == root {
                rule.always_apply = Some(true);
            } else {
                // Directory-scoped: applies under its directory.
                let rel = dir.strip_prefix(&root).unwrap().to_string_lossy();
                rule.globs = Some(vec![format!("{rel}/**")]);
                rule.glob_root = Some(root.clone());
                rule.description = Some(format!("Instructions for folder '{rel}'"));
            }
        }
        Ok(out)
    }
}

/// `.scoped/rules/*.md` at the project root; `paths:` are anchored at the root.
struct PathRules;

const PATH_RULE_KEYS: &[KnownKey] = &[
    COMMON_KEYS[0],
    KnownKey::new(
        "paths",
        "files the rule applies to, anchored at the project root",
    ),
];

impl Provider<RuleCapability> for PathRules {
    fn info(&self) -> &ProviderMeta {
        static INFO: ProviderMeta = ProviderMeta::new(
            "path-rules",
            "Path rules",
            ".scoped/rules/*.md with paths:",
            65,
        )
        .with_known_keys(PATH_RULE_KEYS);
        &INFO
    }
    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "path-rules", "Path rules", POLICY);
        let mut out = LoadResult::default();
        let dir = ctx.project_root.join(".scoped/rules");
        loader.load_dir(
            &dir,
            &["md"],
            Level::Project,
            Some(&ctx.project_root),
            &mut out,
        );
        for rule in &mut out.items {
            match rule.frontmatter.get("paths") {
                Some(Value::List(items)) => {
                    rule.globs = Some(
                        items
                            .iter()
                            .filter_map(|v| v.as_str().map(str::to_owned))
                            .collect(),
                    );
                    rule.glob_dialect = GlobDialect::Anchored;
                    rule.glob_root = Some(ctx.project_root.clone());
                }
                _ => rule.always_apply = Some(true),
            }
        }
        Ok(out)
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn discover(cwd: &Path, home: &Path) -> Rulebook {
    let options = rulebook::Options::new()
        .provider(Instructions)
        .provider(PathRules);
    Rulebook::discover(cwd, Some(home), &options)
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    write(
        &root,
        "GUIDE.md",
        "---\nnot: frontmatter\n---\nRoot instructions.\n",
    );
    write(&root, "frontend/GUIDE.md", "Frontend instructions.\n");
    write(&root, "backend/GUIDE.md", "Backend instructions.\n");
    write(
        &root,
        ".scoped/rules/style.md",
        "---\ndescription: TS style\npaths:\n  - \"pkg/src/*.ts\"\n  - \"!pkg/src/gen.ts\"\n---\nStyle.\n",
    );
    write(
        &root,
        ".scoped/rules/docs.md",
        "---\ndescription: Root docs\npaths: [\"*.md\"]\n---\nDocs.\n",
    );
    dir
}

#[test]
fn per_directory_files_are_named_by_directory_and_never_shadow_each_other() {
    let dir = project();
    let root = dir.path().join("repo");
    let book = discover(&root, &dir.path().join("home"));
    let names: Vec<&str> = book
        .items()
        .filter(|r| r.source.provider == "instructions")
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(names, ["GUIDE", "backend:GUIDE", "frontend:GUIDE"]);
    assert_eq!(book.shadowed().count(), 0);
    // Raw bodies: a leading `---` block is content.
    let root_rule = book.items().find(|r| r.name == "GUIDE").unwrap();
    assert!(root_rule.content.starts_with("---\nnot: frontmatter"));
    assert!(root_rule.frontmatter.is_empty());
    // `rule://` round-trips the names; completion offers them, percent-encoded (valid URIs).
    let resource = book.resolve("rule://frontend:GUIDE").unwrap();
    assert_eq!(&*resource.content, "Frontend instructions.\n");
    assert!(
        book.complete("rule://back")
            .iter()
            .any(|c| c.url == "rule://backend%3AGUIDE")
    );
    // Directory scope: a file under frontend/ gets frontend's instructions only.
    let hits: Vec<String> = book
        .matches("frontend/app.tsx")
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(hits, ["frontend:GUIDE"]);
}

#[test]
fn anchored_paths_match_from_the_project_root_whatever_the_working_directory() {
    let dir = project();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(root.join("pkg/src")).unwrap();
    let names = |book: &Rulebook, path: &str| -> Vec<String> {
        book.matches(path).into_iter().map(|m| m.name).collect()
    };
    // From the root.
    let book = discover(&root, &dir.path().join("home"));
    assert!(names(&book, "pkg/src/a.ts").contains(&"style".to_owned()));
    // Negation: `!pkg/src/gen.ts` vetoes the rule for that file.
    assert!(!names(&book, "pkg/src/gen.ts").contains(&"style".to_owned()));
    // Anchored: a slashless pattern is the root only.
    assert!(names(&book, "README.md").contains(&"docs".to_owned()));
    assert!(!names(&book, "pkg/README.md").contains(&"docs".to_owned()));
    // From a subdirectory, paths given relative to it are made relative to the root.
    let book = discover(&root.join("pkg"), &dir.path().join("home"));
    assert!(names(&book, "src/a.ts").contains(&"style".to_owned()));
    assert!(!names(&book, "src/gen.ts").contains(&"style".to_owned()));
    // The keys the provider declares are known to it.
    let info = book
        .providers()
        .iter()
        .find(|p| p.id == "path-rules")
        .unwrap();
    assert!(info.known_keys.iter().any(|k| k.key == "paths"));
}

#[cfg(unix)]
#[test]
fn the_same_file_under_two_names_is_one_rule() {
    let dir = project();
    let root = dir.path().join("repo");
    // A link to the root's file (as `CLAUDE.md -> GUIDE.md` is common): one file, one rule.
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::os::unix::fs::symlink(root.join("GUIDE.md"), root.join("docs/GUIDE.md")).unwrap();
    let book = discover(&root, &dir.path().join("home"));
    let same: Vec<(&str, &str)> = book
        .all()
        .iter()
        .filter_map(|e| match e.status {
            Status::SameFile { by } => {
                Some((e.item.name.as_str(), book.all()[by].item.name.as_str()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(same, [("docs:GUIDE", "GUIDE")]);
    let always = book.bucket(RuleBucket::AlwaysApply);
    assert_eq!(
        always
            .iter()
            .filter(|r| r.content.contains("Root instructions."))
            .count(),
        1
    );
    // Reference keeps both (the original has no notion of a real path).
    let options = rulebook::Options::new()
        .profile(Profile::Reference)
        .provider(Instructions);
    let reference = Rulebook::discover(&root, Some(&dir.path().join("home")), &options);
    assert!(
        reference
            .all()
            .iter()
            .all(|e| !matches!(e.status, Status::SameFile { .. }))
    );
    assert!(reference.items().any(|r| r.name == "docs:GUIDE"));
}
