//! E11 on `fixtures/monorepo`, shaped like the real monorepo where rulebook saw 1 of 12
//! Cursor rules: root rules, rules nested in `apps/api`, `apps/web` and `packages`, and
//! rule directories inside `node_modules` and a git-ignored `dist/` that must not load.
//! From the root and from `apps/api`, under both profiles: which rules, where they apply,
//! and which rules a dozen real-looking paths get (as Cursor attaches them).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::fmt::Write;
use std::path::{Path, PathBuf};

use rulebook::{Options, Profile, RuleBucket, Rulebook};

fn fixture() -> PathBuf {
    std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/monorepo"))
        .unwrap()
}

const PATHS: &[&str] = &[
    "apps/api/src/rest/middleware/scope.ts",
    "apps/api/src/index.ts",
    "apps/api/README.md",
    "apps/api/test/handlers.test.ts",
    "apps/web/src/App.tsx",
    "apps/web/src/util.ts",
    "packages/ui/button.tsx",
    "packages/core/index.ts",
    "src/root.ts",
    "docs/guide.md",
    "node_modules/pkg/index.ts",
    "dist/out.ts",
];

fn report(cwd_rel: &str, profile: Profile, nested: bool) -> String {
    let root = fixture();
    let project = root.join("project");
    let cwd = project.join(cwd_rel);
    let book = Rulebook::discover(
        &cwd,
        Some(&root.join("home")),
        &Options::new()
            .profile(profile)
            .project_root(&project)
            .descendants(nested),
    );
    let rel = |p: &Path| {
        p.strip_prefix(&project)
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
    };
    let mut out = String::new();
    for (rule, placement) in book.placements() {
        let bucket = placement.bucket.map_or("none", RuleBucket::as_str);
        write!(out, "{:<22} {:<12} {}", rule.name, bucket, rel(&rule.path)).unwrap();
        if let Some(globs) = &rule.globs {
            write!(out, "  globs {globs:?}").unwrap();
        }
        if let Some(glob_root) = &rule.glob_root {
            write!(out, " under {}/", rel(glob_root)).unwrap();
        }
        out.push('\n');
    }
    for (loser, winner) in book.shadowed() {
        writeln!(
            out,
            "shadowed: {} ({}) by {}",
            loser.name,
            rel(&loser.path),
            rel(&winner.path)
        )
        .unwrap();
    }
    out.push_str("match (paths from the project root):\n");
    for path in PATHS {
        let mut names: Vec<String> = book
            .bucket(RuleBucket::AlwaysApply)
            .iter()
            .map(|r| format!("{} (always)", r.name))
            .collect();
        names.extend(book.matches(project.join(path)).into_iter().map(|m| m.name));
        writeln!(out, "  {path:<40} {}", names.join(", ")).unwrap();
    }
    for d in book.diagnostics() {
        writeln!(
            out,
            "diagnostic: {}",
            d.message
                .replace(&project.display().to_string(), "<project>")
        )
        .unwrap();
    }
    out
}

#[test]
fn from_the_root() {
    let text = format!(
        "== reference ==\n{}\n== extended ==\n{}\n== extended, --no-nested ==\n{}",
        report("", Profile::Reference, true),
        report("", Profile::Extended, true),
        report("", Profile::Extended, false),
    );
    insta::assert_snapshot!(text);
}

#[test]
fn from_apps_api() {
    let text = format!(
        "== reference ==\n{}\n== extended ==\n{}",
        report("apps/api", Profile::Reference, true),
        report("apps/api", Profile::Extended, true),
    );
    insta::assert_snapshot!(text);
}

/// Cline's `paths` are anchored at the workspace root (`*.md` is the
/// root's Markdown files only); its other cases are in the `cline-extended` and
/// `cwd-subdir` scenarios.
#[test]
fn cline_paths_are_anchored_at_the_workspace() {
    let root = std::fs::canonicalize(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rulebook-provider-cline/fixtures/cline-extended"),
    )
    .unwrap();
    let project = root.join("project");
    let book = Rulebook::discover(
        &project,
        Some(&root.join("home")),
        &Options::new().project_root(&project),
    );
    let names =
        |path: &str| -> Vec<String> { book.matches(path).into_iter().map(|m| m.name).collect() };
    assert_eq!(names("README.md"), ["root-markdown"]);
    assert!(names("docs/a.md").is_empty());
    assert_eq!(names("src/deep/x.ts"), ["scoped"]);
    // `paths: []`: never attached, even where a glob would match.
    assert!(book.items().any(|r| r.name == "off"));
    assert!(
        !book
            .system_prompt_section_for(["src/a.ts"])
            .contains("Turned off.")
    );
}
