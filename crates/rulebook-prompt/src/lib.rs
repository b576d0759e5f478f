//! The system-prompt text for a set of rules (behaviour.md §8).
//!
//! [`render`] writes, separated by one blank line:
//! 0. ([`render_with_skills`]) the skills block, when there are skills (behaviour.md §14);
//! 1. the content of every always-apply rule, raw, in bucket order;
//! 2. (Extended E3) every auto-attached rule, as an `<attached-rule>` block;
//! 3. if the rulebook is non-empty, the rules section.
//!
//! The rules section is produced by a [`SectionRenderer`]. [`ReferenceSection`] is the
//! byte-exact text of the original (one `<rule>` block per rulebook rule, a `<glob>` line
//! per glob, and an empty line before `</rule>` when a rule has no globs);
//! [`ExtendedSection`] omits that empty line, escapes `&`, `<` (and `"` in attributes)
//! so a name or description cannot break the markup, and gives each rule and skill the
//! URI that reads it (`uri="rule://src%3Aapi%3AAGENTS"`), percent-encoded so that it
//! resolves exactly as written wherever a URL parser reads it. Implement [`SectionRenderer`] to use
//! your own wording; the reference text lives only in [`REFERENCE_HEADER`] and
//! [`REFERENCE_FOOTER`].
//!
//! Depends on `rulebook-rule`. Does no I/O.
//!
//! ```
//! use rulebook_prompt::{render, AlwaysApplied, ExtendedSection, ReferenceSection};
//! # use rulebook_rule::*;
//! # let rule = |name: &str, description: &str, content: &str| Rule::new(name, "/r", content,
//! #     SourceMeta::new("native", "Native", Level::Project, "/r"))
//! #     .with_description(description).with_globs(["*.ts"]);
//! let always = rule("english", "", "Answer in English.");
//! let listed = rule("ts", "TypeScript style", "…");
//! let source = ".cursor/rules/english.mdc".to_owned();
//! let always = [AlwaysApplied { rule: &always, source }];
//! let text = render(&always, &[], &[&listed], &ReferenceSection);
//! assert_eq!(text, "Answer in English.\n\n# Rules\n\n<rules>\n\
//!     Read `rule://<name>` when working in matching domain.\n\n\
//!     <rule name=\"ts\">\nTypeScript style\n<glob>*.ts</glob>\n</rule>\n</rules>");
//! // Extended labels each always-apply rule with its name and file.
//! let text = render(&always, &[], &[], &ExtendedSection);
//! assert_eq!(text, "<always-apply-rule name=\"english\" source=\".cursor/rules/english.mdc\">\n\
//!     Answer in English.\n</always-apply-rule>");
//! ```

use std::fmt::Write;

use rulebook_rule::{Profile, Rule, Skill};

/// The start of the reference rules section, up to the first `<rule>` block.
pub const REFERENCE_HEADER: &str =
    "# Rules\n\n<rules>\nRead `rule://<name>` when working in matching domain.\n";

/// The end of the reference rules section.
pub const REFERENCE_FOOTER: &str = "</rules>";

/// The start of the skills block, up to the first `<skill>`: the original's template of the
/// same version as the rules section (behaviour.md §14).
pub const SKILLS_HEADER: &str = "<skills>\nScan descriptions vs task domain. Skill covers output? Read `skill://<name>` first.\nRelative paths in skill files resolve against the skill directory.\n";

/// The end of the skills block.
pub const SKILLS_FOOTER: &str = "</skills>";

/// The start of the extended rules section: each rule carries the URI that reads it,
/// exactly as written (`rule://src%3Aapi%3AAGENTS` for the nested `src:api:AGENTS`, which
/// `rule://<name>` spelled raw would not reach: a URL parser takes `src` for the host).
pub const EXTENDED_HEADER: &str =
    "# Rules\n\n<rules>\nRead a rule's `uri` (`rule://…`) when working in matching domain.\n";

/// The start of the extended skills block: each skill carries its `skill://` URI.
pub const EXTENDED_SKILLS_HEADER: &str = "<skills>\nScan descriptions vs task domain. Skill covers output? Read its `uri` (`skill://…`) first.\nRelative paths in skill files resolve against the skill directory.\n";

/// A rule attached because a path matched one of its globs (Extended E3).
#[derive(Debug, Clone, Copy)]
pub struct Attached<'a> {
    /// The rule.
    pub rule: &'a Rule,
    /// The glob that matched.
    pub glob: &'a str,
}

/// An always-apply rule with the source to label it with (its file, as a person would name
/// it: relative to the project, or `~/…`).
#[derive(Debug, Clone)]
pub struct AlwaysApplied<'a> {
    /// The rule.
    pub rule: &'a Rule,
    /// Where it comes from.
    pub source: String,
}

/// Writes the rules section; implement it to change the wording.
pub trait SectionRenderer {
    /// Appends one always-apply rule. The default writes its content alone, as the
    /// original does.
    fn render_always(&self, always: &AlwaysApplied<'_>, out: &mut String) {
        out.push_str(&always.rule.content);
    }

    /// Appends the section for `rules` (never called with no rules).
    fn render_section(&self, rules: &[&Rule], out: &mut String);

    /// Appends the skills block for `skills` (never called with none): the original's, one
    /// `<skill name="NAME">` with its description each, as it writes them (unescaped).
    fn render_skills(&self, skills: &[&Skill], out: &mut String) {
        out.push_str(SKILLS_HEADER);
        for skill in skills {
            let _ = write!(
                out,
                "\n<skill name=\"{}\">\n{}\n</skill>\n",
                skill.name,
                skill.description.as_deref().unwrap_or("")
            );
        }
        out.push_str(SKILLS_FOOTER);
    }

    /// Appends one auto-attached rule. The default writes
    /// `<attached-rule name="NAME" glob="GLOB">`, the content, `</attached-rule>`, escaped.
    fn render_attached(&self, attached: &Attached<'_>, out: &mut String) {
        let _ = write!(
            out,
            "<attached-rule name=\"{}\" glob=\"{}\">\n{}\n</attached-rule>",
            escape_attribute(&attached.rule.name),
            escape_attribute(attached.glob),
            attached.rule.content
        );
    }
}

/// The original's section, byte for byte (Reference profile).
#[derive(Debug, Clone, Copy, Default)]
pub struct ReferenceSection;

impl SectionRenderer for ReferenceSection {
    fn render_section(&self, rules: &[&Rule], out: &mut String) {
        out.push_str(REFERENCE_HEADER);
        for rule in rules {
            out.push('\n');
            let _ = writeln!(out, "<rule name=\"{}\">", rule.name);
            let _ = writeln!(out, "{}", rule.description.as_deref().unwrap_or(""));
            match rule.globs.as_deref() {
                Some(globs) if !globs.is_empty() => {
                    for glob in globs {
                        let _ = writeln!(out, "<glob>{glob}</glob>");
                    }
                }
                // The original's template leaves the glob line empty.
                _ => out.push('\n'),
            }
            out.push_str("</rule>\n");
        }
        out.push_str(REFERENCE_FOOTER);
    }
}

/// The reference wording with escaping, each rule's and skill's URI, no empty glob line, and
/// no trailing newlines of the description (Extended profile).
#[derive(Debug, Clone, Copy, Default)]
pub struct ExtendedSection;

impl SectionRenderer for ExtendedSection {
    /// The content inside `<always-apply-rule name="NAME" source="FILE">`, so the model
    /// (and a person reading the prompt) knows which rule says what, and where to fix it.
    fn render_always(&self, always: &AlwaysApplied<'_>, out: &mut String) {
        let _ = write!(
            out,
            "<always-apply-rule name=\"{}\" source=\"{}\">\n{}\n</always-apply-rule>",
            escape_attribute(&always.rule.name),
            escape_attribute(&always.source),
            always.rule.content
        );
    }

    /// The skills block with the name and description escaped (and the description's
    /// trailing newlines dropped, as for rules).
    fn render_skills(&self, skills: &[&Skill], out: &mut String) {
        out.push_str(EXTENDED_SKILLS_HEADER);
        for skill in skills {
            let description = skill.description.as_deref().unwrap_or("");
            let _ = write!(
                out,
                "\n<skill name=\"{}\" uri=\"skill://{}\">\n{}\n</skill>\n",
                escape_attribute(&skill.name),
                rulebook_rule::percent_encode(&skill.name),
                escape_text(description.trim_end_matches('\n'))
            );
        }
        out.push_str(SKILLS_FOOTER);
    }

    fn render_section(&self, rules: &[&Rule], out: &mut String) {
        out.push_str(EXTENDED_HEADER);
        for rule in rules {
            out.push('\n');
            let _ = writeln!(
                out,
                "<rule name=\"{}\" uri=\"rule://{}\">",
                escape_attribute(&rule.name),
                rulebook_rule::percent_encode(&rule.name)
            );
            // A block scalar (`description: |`) ends in a newline; it is not a blank line
            // the author meant to put in the prompt.
            let description = rule.description.as_deref().unwrap_or("");
            let _ = writeln!(out, "{}", escape_text(description.trim_end_matches('\n')));
            for glob in rule.globs.as_deref().unwrap_or_default() {
                let _ = writeln!(out, "<glob>{}</glob>", escape_text(glob));
            }
            out.push_str("</rule>\n");
        }
        out.push_str(REFERENCE_FOOTER);
    }
}

/// The section renderer of a profile.
pub fn section_for(profile: Profile) -> &'static dyn SectionRenderer {
    match profile {
        Profile::Reference => &ReferenceSection,
        Profile::Extended => &ExtendedSection,
    }
}

/// Renders the prompt text (see the crate docs). Empty when there is nothing to say.
pub fn render(
    always_apply: &[AlwaysApplied<'_>],
    attached: &[Attached<'_>],
    rulebook: &[&Rule],
    section: &dyn SectionRenderer,
) -> String {
    render_with_skills(&[], always_apply, attached, rulebook, section)
}

/// [`render`] with the skills block first, as the original places it before the rules
/// (behaviour.md §14); no block without skills.
///
/// ```
/// use rulebook_prompt::{render_with_skills, ReferenceSection};
/// # use rulebook_rule::*;
/// let skill = Skill::new("pdf", "/p/pdf/SKILL.md", "…",
///     SourceMeta::new("native", "Native", Level::Project, "/p/pdf/SKILL.md"))
///     .with_description("Read PDF files");
/// let text = render_with_skills(&[&skill], &[], &[], &[], &ReferenceSection);
/// assert_eq!(text, "<skills>\n\
///     Scan descriptions vs task domain. Skill covers output? Read `skill://<name>` first.\n\
///     Relative paths in skill files resolve against the skill directory.\n\n\
///     <skill name=\"pdf\">\nRead PDF files\n</skill>\n</skills>");
/// ```
pub fn render_with_skills(
    skills: &[&Skill],
    always_apply: &[AlwaysApplied<'_>],
    attached: &[Attached<'_>],
    rulebook: &[&Rule],
    section: &dyn SectionRenderer,
) -> String {
    // Sized once, from above: growing by doubling would hold the text twice while it is
    // copied (the contents of thousands of always-apply rules are megabytes), and the
    // pages reserved and never written are not resident.
    let listed = |rule: &Rule| {
        256 + rule.name.len()
            + rule.description.as_ref().map_or(0, String::len)
            + rule.path.as_os_str().len()
    };
    let capacity = always_apply
        .iter()
        .map(|a| listed(a.rule) + a.rule.content.len() + a.source.len())
        .chain(
            attached
                .iter()
                .map(|a| listed(a.rule) + a.rule.content.len() + a.glob.len()),
        )
        .chain(rulebook.iter().map(|rule| listed(rule)))
        .sum::<usize>();
    let capacity = capacity
        + skills
            .iter()
            .map(|s| 64 + s.name.len() + s.description.as_ref().map_or(0, String::len))
            .sum::<usize>();
    let mut out = String::with_capacity(capacity);
    let separate = |out: &mut String| {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
    };
    if !skills.is_empty() {
        section.render_skills(skills, &mut out);
    }
    for always in always_apply {
        separate(&mut out);
        section.render_always(always, &mut out);
    }
    for item in attached {
        separate(&mut out);
        section.render_attached(item, &mut out);
    }
    if !rulebook.is_empty() {
        separate(&mut out);
        section.render_section(rulebook, &mut out);
    }
    out
}

/// Escapes text content: `&` and `<`.
pub fn escape_text(text: &str) -> String {
    if !text.contains(['&', '<']) {
        return text.to_owned();
    }
    text.replace('&', "&amp;").replace('<', "&lt;")
}

/// Escapes an attribute value: `&`, `<` and `"`.
pub fn escape_attribute(text: &str) -> String {
    if !text.contains(['&', '<', '"']) {
        return text.to_owned();
    }
    escape_text(text).replace('"', "&quot;")
}
