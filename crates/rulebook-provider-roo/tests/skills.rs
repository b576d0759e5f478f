//! Roo Code's skills (`SkillsManager.ts`): each `.roo/skills/<name>/SKILL.md` of the project,
//! then the user's `~/.roo/skills`; a skill without a description is passed over.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook_kit::{Level, LoadContext, Profile, Provider, SkillCapability};
use rulebook_provider_roo::SKILLS;

#[test]
fn roo_skills_of_the_project_and_the_user() {
    let dir = tempfile::tempdir().unwrap();
    let (project, home) = (dir.path().join("p"), dir.path().join("h"));
    let skill = |root: &std::path::Path, name: &str, text: &str| {
        let folder = root.join(".roo/skills").join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("SKILL.md"), text).unwrap();
    };
    std::fs::create_dir_all(project.join(".git")).unwrap();
    for name in ["api-patterns", "db-migrations", "release"] {
        skill(
            &project,
            name,
            &format!("---\nname: {name}\ndescription: The {name} skill.\n---\nSteps.\n"),
        );
    }
    skill(
        &project,
        "undescribed",
        "---\nname: undescribed\n---\nSteps.\n",
    );
    skill(
        &home,
        "react-testing",
        "---\nname: react-testing\ndescription: Test React.\n---\nSteps.\n",
    );
    let ctx = LoadContext::new(&project, &home).profile(Profile::Extended);
    let loaded = Provider::<SkillCapability>::load(&SKILLS, &ctx).unwrap();
    let names: Vec<(&str, Level)> = loaded
        .items
        .iter()
        .map(|s| (s.name.as_str(), s.source.level))
        .collect();
    assert_eq!(
        names,
        [
            ("api-patterns", Level::Project),
            ("db-migrations", Level::Project),
            ("release", Level::Project),
            ("react-testing", Level::User),
        ]
    );
}
