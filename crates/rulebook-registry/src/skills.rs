//! Skills as a [`Capability`]: keyed by name, valid with a name and a path (the original's
//! check); the same `SKILL.md` reached through a link is the same file.

use std::path::Path;

use rulebook_rule::{InvalidSkill, Skill, validate_skill};

use crate::Capability;

/// The skills capability (`skills`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SkillCapability;

impl Capability for SkillCapability {
    type Item = Skill;
    const ID: &'static str = "skills";

    fn key(skill: &Skill) -> &str {
        &skill.name
    }

    type Invalid = InvalidSkill;

    fn validate(skill: &Skill) -> Result<(), InvalidSkill> {
        validate_skill(skill)
    }

    fn location(skill: &Skill) -> Option<&Path> {
        Some(&skill.path)
    }

    fn real_path(skill: &Skill) -> Option<&Path> {
        skill.source.real_path.as_deref()
    }
}
