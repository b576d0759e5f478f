//! Synthetic rule trees for benchmarks: `cargo xtask gen-tree --rules N --out DIR`.
//!
//! N rules spread over the four providers (native 25%, Cursor 35%, Windsurf 25%, Cline
//! 15%), at project and user level, some in subdirectories, with a realistic mix of
//! frontmatter: about 10% broken YAML (unquoted `globs: *.ts,*.tsx`), 20% TTSR conditions,
//! 40% glob lists, 10% always-apply, 5% names that clash across providers, and bodies of
//! 0.5–3 KB. A fixed seed makes every tree of one size identical.

use std::fmt::Write;
use std::fs;
use std::path::Path;

/// A small deterministic PRNG (SplitMix64): benchmarks must not depend on a crate's
/// random stream changing between versions.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n.max(1)).unwrap_or(u64::MAX);
        usize::try_from(self.next() % n).unwrap_or(0)
    }

    /// True with probability `percent`%.
    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const WORDS: &[&str] = &[
    "always",
    "prefer",
    "avoid",
    "use",
    "the",
    "module",
    "function",
    "error",
    "handling",
    "tests",
    "before",
    "commit",
    "typed",
    "interfaces",
    "components",
    "state",
    "async",
    "database",
    "queries",
    "migrations",
    "logging",
    "security",
    "inputs",
    "validate",
    "naming",
    "files",
    "small",
    "pure",
    "functions",
    "document",
    "public",
    "APIs",
];

const EXTENSIONS: &[&str] = &["ts", "tsx", "py", "rs", "go", "md", "css", "sql", "json"];
const DIRS: &[&str] = &["src", "lib", "api", "web", "db", "docs", "tests", "scripts"];

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(WORDS[rng.below(WORDS.len())]);
    }
    s
}

fn body(rng: &mut Rng) -> String {
    let target = 500 + rng.below(2500);
    let mut text = String::from("# Guidelines\n\n");
    while text.len() < target {
        let words = 6 + rng.below(10);
        let _ = writeln!(text, "- {}.", sentence(rng, words));
        if rng.chance(10) {
            text.push_str("\n```ts\nexport function example(input: string): string {\n  return input.trim();\n}\n```\n\n");
        }
    }
    text
}

fn glob(rng: &mut Rng) -> String {
    let ext = EXTENSIONS[rng.below(EXTENSIONS.len())];
    match rng.below(3) {
        0 => format!("*.{ext}"),
        1 => format!("{}/**/*.{ext}", DIRS[rng.below(DIRS.len())]),
        _ => format!("{}/*.{ext}", DIRS[rng.below(DIRS.len())]),
    }
}

/// Which tools' folders a tree's rules go to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mix {
    /// The four providers, as the module says.
    Mixed,
    /// Cursor's `.cursor/rules` alone (project 80%, user 20%): a tree only the tools that
    /// read Cursor's files see.
    CursorOnly,
}

/// Writes the tree; returns (rule files, bytes).
pub(crate) fn write_tree(
    out: &Path,
    rules: usize,
    seed: u64,
    mix: Mix,
) -> std::io::Result<(usize, u64)> {
    let mut rng = Rng::new(seed);
    let _ = fs::remove_dir_all(out);
    let project = out.join("project");
    let home = out.join("home");
    fs::create_dir_all(&project)?;
    fs::create_dir_all(&home)?;
    let mut bytes = 0u64;
    for i in 0..rules {
        let roll = match mix {
            Mix::Mixed => rng.below(100),
            Mix::CursorOnly => 25 + rng.below(35),
        };
        let user = rng.chance(20);
        let (dir, ext) = match roll {
            0..25 if user => (home.join(".xcsh/agent/rules"), "md"),
            0..25 => (
                project.join(".xcsh/rules"),
                if rng.chance(30) { "mdc" } else { "md" },
            ),
            25..60 if user => (home.join(".cursor/rules"), "mdc"),
            25..60 => (project.join(".cursor/rules"), "mdc"),
            60..85 => (project.join(".windsurf/rules"), "md"),
            _ => (project.join(".clinerules"), "md"),
        };
        let dir = if rng.chance(15) {
            dir.join(format!("group-{}", rng.below(8)))
        } else {
            dir
        };
        fs::create_dir_all(&dir)?;
        let name = if rng.chance(5) && i > 10 {
            format!("rule-{}", rng.below(i)) // a clash with an earlier rule
        } else {
            format!("rule-{i}")
        };
        let mut text = String::from("---\n");
        if !rng.chance(8) {
            let _ = writeln!(text, "description: {}", sentence(&mut rng, 5));
        }
        if rng.chance(10) {
            text.push_str("globs: *.ts,*.tsx\n"); // broken YAML, as Cursor writes it
        } else if rng.chance(44) {
            let n = 1 + rng.below(3);
            let globs: Vec<String> = (0..n).map(|_| format!("\"{}\"", glob(&mut rng))).collect();
            let _ = writeln!(text, "globs: [{}]", globs.join(", "));
        }
        if rng.chance(20) {
            let _ = writeln!(text, "condition: \"forbidden_{}\\\\(\"", rng.below(1000));
        }
        if rng.chance(10) {
            text.push_str("alwaysApply: true\n");
        }
        text.push_str("---\n\n");
        text.push_str(&body(&mut rng));
        let mut path = dir.join(format!("{name}.{ext}"));
        if path.exists() {
            // A clash inside one directory would overwrite a file: keep every rule.
            path = dir.join(format!("rule-{i}.{ext}"));
        }
        bytes += text.len() as u64;
        fs::write(path, text)?;
    }
    Ok((rules, bytes))
}

/// A monorepo for the E11 walk benchmark: `files` source files under `apps/*` and
/// `packages/*` in deep trees, a `node_modules` and git-ignored `dist/` build directories
/// of their own, and `nested` nested `.cursor/rules` directories of two rules each (one
/// at the root too). A `.git` directory marks the root; `.gitignore` names `dist/` and
/// `node_modules/` (so a plain `fd` skips them as rulebook does). Returns the files
/// written.
/// A tree of `skills` skills (`out/project`, `out/home`): folders with a `SKILL.md` in the
/// tools' skills folders (`.agents/skills`, `.claude/skills`, `.xcsh/skills`, the user's
/// `.xcsh/agent/skills`), a name each (a few shared, so some are shadowed), a description
/// and a body. Returns the files written and their bytes.
pub(crate) fn write_skills(out: &Path, skills: usize, seed: u64) -> std::io::Result<(usize, u64)> {
    let mut rng = Rng::new(seed);
    let _ = fs::remove_dir_all(out);
    let project = out.join("project");
    let home = out.join("home");
    fs::create_dir_all(&project)?;
    fs::create_dir_all(&home)?;
    let mut bytes = 0u64;
    for i in 0..skills {
        let root = match rng.below(100) {
            0..40 => project.join(".agents/skills"),
            40..70 => project.join(".claude/skills"),
            70..90 => project.join(".xcsh/skills"),
            _ => home.join(".xcsh/agent/skills"),
        };
        // One in twenty reuses an earlier name: shadowed in the union view.
        let name = if i > 0 && rng.chance(5) {
            format!("skill-{}", rng.below(i))
        } else {
            format!("skill-{i}")
        };
        let dir = root.join(&name);
        fs::create_dir_all(&dir)?;
        let words = 8 + rng.below(20);
        let description = sentence(&mut rng, words);
        let text = format!(
            "---\nname: {name}\ndescription: {description}\n---\n{}",
            body(&mut rng)
        );
        bytes += text.len() as u64;
        fs::write(dir.join("SKILL.md"), text)?;
    }
    Ok((skills, bytes))
}

pub(crate) fn write_monorepo(dir: &Path, files: usize, nested: usize) -> std::io::Result<usize> {
    let mut rng = Rng::new(7);
    let root = dir.join("project");
    if root.exists() {
        fs::remove_dir_all(&root)?;
    }
    fs::create_dir_all(root.join(".git"))?;
    fs::create_dir_all(dir.join("home"))?;
    fs::write(root.join(".gitignore"), "dist/\nnode_modules/\n")?;
    let mut written = 0;
    let packages = 100;
    let per_package = files / packages;
    for p in 0..packages {
        let kind = if p % 2 == 0 { "apps" } else { "packages" };
        let base = root.join(kind).join(format!("pkg{p}"));
        for f in 0..per_package {
            // Deep trees: src/a{n}/b{m}/c{k}/file.ext
            let sub = format!("src/a{}/b{}/c{}", f % 7, (f / 7) % 5, (f / 35) % 4);
            let ext = EXTENSIONS[rng.below(EXTENSIONS.len())];
            let path = base.join(sub).join(format!("file{f}.{ext}"));
            fs::create_dir_all(path.parent().unwrap_or(&base))?;
            fs::write(&path, "x")?;
            written += 1;
        }
        // Build output and dependencies that must be skipped.
        for d in ["dist", "node_modules/dep"] {
            let skip = base.join(d).join(".cursor/rules");
            fs::create_dir_all(&skip)?;
            fs::write(
                skip.join("skipped.mdc"),
                "---\nalwaysApply: true\n---\nMust not load.\n",
            )?;
        }
    }
    let rules_at = |dir: &Path, tag: &str| -> std::io::Result<()> {
        let rules = dir.join(".cursor/rules");
        fs::create_dir_all(&rules)?;
        fs::write(
            rules.join(format!("{tag}-style.mdc")),
            "---\ndescription: Style\nglobs: \"*.ts\"\n---\nUse strict mode.\n",
        )?;
        fs::write(
            rules.join(format!("{tag}-always.mdc")),
            "---\nalwaysApply: true\n---\nConventions of this package.\n",
        )
    };
    rules_at(&root, "root")?;
    for n in 0..nested {
        let kind = if n % 2 == 0 { "apps" } else { "packages" };
        rules_at(&root.join(kind).join(format!("pkg{n}")), &format!("n{n}"))?;
    }
    Ok(written)
}
