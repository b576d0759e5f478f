//! An agent's use of rulebook with the facade alone (`rulebook` in its manifest, nothing
//! else of rulebook's): discover a project's rules, render the prompt text, read a rule's
//! body by `rule://`, run TTSR on a stream, and add a provider of its own. Every step checks
//! what it gets; the process fails on the first surprise.

use rulebook::{
    FileLoader, Level, LoadContext, LoadResult, Options, Provider, ProviderError, ProviderMeta,
    Rule, RuleCapability, Rulebook,
};

/// A provider of the agent's own: `.acme/rules/*.md` of the project.
struct Acme;

static ACME: ProviderMeta = ProviderMeta::new("acme", "Acme", "Acme rules: .acme/rules", 10);

impl Provider<RuleCapability> for Acme {
    fn info(&self) -> &ProviderMeta {
        &ACME
    }

    fn load(&self, ctx: &LoadContext) -> Result<LoadResult<Rule>, ProviderError> {
        let loader = FileLoader::new(ctx, "acme", "Acme", rulebook_policy());
        let mut out = LoadResult::default();
        let dir = ctx.cwd.join(".acme/rules");
        loader.load_dir(&dir, &["md"], Level::Project, Some(&ctx.cwd), &mut out);
        Ok(out)
    }
}

fn rulebook_policy() -> rulebook::stages::kit::coerce::FieldPolicy {
    use rulebook::stages::kit::coerce::{
        AlwaysApplyPolicy, DescriptionPolicy, FieldPolicy, GlobsPolicy,
    };
    FieldPolicy::new(
        DescriptionPolicy::StringOnly,
        AlwaysApplyPolicy::Boolean,
        GlobsPolicy::StringsOnly,
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let project = dir.path().join("project");
    let write = |rel: &str, text: &str| -> std::io::Result<()> {
        let path = project.join(rel);
        std::fs::create_dir_all(path.parent().unwrap_or(&project))?;
        std::fs::write(path, text)
    };
    write(".git/HEAD", "ref: refs/heads/main\n")?;
    write(
        ".cursor/rules/ts.mdc",
        "---\ndescription: TypeScript style\nglobs: \"*.ts\"\n---\nUse strict mode.",
    )?;
    write(
        ".cursor/rules/always.mdc",
        "---\nalwaysApply: true\n---\nAnswer in English.",
    )?;
    write(
        ".xcsh/rules/no-log.md",
        "---\ncondition: \"console\\\\.log\"\n---\nUse the logger.",
    )?;
    write(
        ".acme/rules/house.md",
        "---\nalwaysApply: true\n---\nThe house style.",
    )?;
    let home = dir.path().join("home");

    // 1. Discover, with a provider of the agent's own.
    let options = Options::new().provider(Acme);
    let mut book = Rulebook::discover(&project, Some(&home), &options);
    let names: Vec<String> = book.items().map(|r| r.name.clone()).collect();
    for expected in ["ts", "always", "no-log", "house"] {
        if !names.iter().any(|n| n == expected) {
            return Err(format!("`{expected}` not discovered: {names:?}").into());
        }
    }
    // 2. The prompt text.
    let prompt = book.system_prompt_section();
    if !prompt.contains("Answer in English.") || !prompt.contains("The house style.") {
        return Err(format!("the prompt lacks an always-apply rule:\n{prompt}").into());
    }
    // 3. A rule's body by its URI.
    let body = book.resolve("rule://ts")?.content;
    if body != "Use strict mode." {
        return Err(format!("rule://ts is {body:?}").into());
    }
    // 4. TTSR on a stream: the rule fires once its condition is complete.
    if !book.ttsr_mut().feed("let x = 1; console.").is_empty() {
        return Err("TTSR fired before its condition matched".into());
    }
    let fired: Vec<String> = book
        .ttsr_mut()
        .feed("log(x)")
        .iter()
        .map(|f| f.name.to_string())
        .collect();
    if fired != ["no-log"] {
        return Err(format!("TTSR fired {fired:?}").into());
    }
    // 5. What one real tool loads here.
    let cursor = rulebook::tool("cursor").ok_or("no cursor in the table of tools")?;
    let view = rulebook::emulate(cursor, &rulebook::HostOptions::new(book.cwd(), book.home()));
    println!(
        "{} rules; prompt of {} bytes; Cursor loads {} file(s) at start",
        names.len(),
        prompt.len(),
        view.loaded().count()
    );
    Ok(())
}
