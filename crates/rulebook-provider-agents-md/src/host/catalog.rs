//! Codex's skills catalog under its budget (behaviour.md §14), as `codex-rs/core-skills/src/
//! render.rs` renders it (upstream 9e552e9, read through the search tool's mirror of a fork;
//! the constants and the three stages below are that file's): every line
//! `- NAME: DESCRIPTION (file: PATH)`, costing its characters and a newline.

/// The budget when the model's context window is unknown (`DEFAULT_SKILL_METADATA_CHAR_BUDGET`).
pub const DEFAULT_BUDGET_CHARS: usize = 8_000;

/// The share of a known context window the catalog may take, in per cent.
pub const CONTEXT_WINDOW_PERCENT: usize = 2;

/// Descriptions longer than this are cut to `MAX_DESCRIPTION - 3` characters and `...`
/// before any budget is applied.
pub const MAX_DESCRIPTION: usize = 1_024;

/// `SKILLS_INTRO_WITH_ABSOLUTE_PATHS`: the catalog's intro when paths are written whole.
const INTRO_ABSOLUTE: &str = "A skill is a set of instructions provided through a `SKILL.md` source. Below is the list of skills that can be used. Each entry includes a name, description, and source locator. `file` locators are on the host filesystem, `environment resource` locators are owned by an execution environment, `orchestrator resource` locators are opaque non-filesystem resources, and `custom resource` locators use their provider's access mechanism.";

/// `SKILLS_INTRO_WITH_ALIASES`: the intro when paths are `rN/…` of a roots table.
const INTRO_ALIASES: &str = "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.";

/// One skill as the catalog lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its name.
    pub name: String,
    /// Its description, whitespace collapsed.
    pub description: String,
    /// The path shown (`/abs/SKILL.md`, or `r0/pdf/SKILL.md` under a roots table).
    pub path: String,
}

/// What became of one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Listed with its whole description (after the 1,024-character pre-cut).
    Whole,
    /// Listed with its description cut to this many characters (0: none left).
    Shortened(usize),
    /// Not listed: even the line without a description did not fit.
    Omitted,
}

/// The catalog: the lines written, in order, and each entry's fate (in the entries' order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    /// The roots table (lines such as ``- `r0` = `/abs` ``), empty when paths are written whole.
    pub roots: Vec<String>,
    /// The lines, without their newlines.
    pub lines: Vec<String>,
    /// Each entry's fate.
    pub fates: Vec<Fate>,
}

impl Catalog {
    fn included(&self) -> usize {
        self.fates.iter().filter(|f| **f != Fate::Omitted).count()
    }

    /// The description characters the budget took away (Codex's `truncated_description_chars`).
    fn truncated(&self, entries: &[Entry]) -> usize {
        entries
            .iter()
            .zip(&self.fates)
            .map(|(e, f)| match f {
                Fate::Whole => 0,
                Fate::Shortened(n) => e.description.chars().count() - n,
                Fate::Omitted => e.description.chars().count(),
            })
            .sum()
    }
}

/// The catalog's body as Codex writes it around the lines (`render_available_skills_body`).
fn body(roots: &[String], lines: &[String]) -> String {
    let mut all = vec!["## Skills".to_owned()];
    if roots.is_empty() {
        all.push(INTRO_ABSOLUTE.to_owned());
    } else {
        all.push(INTRO_ALIASES.to_owned());
        all.push("### Skill roots".to_owned());
        all.extend(roots.iter().cloned());
    }
    all.push("### Available skills".to_owned());
    all.extend(lines.iter().cloned());
    format!("\n{}\n", all.join("\n"))
}

/// What a roots table costs over writing paths whole (`aliased_metadata_overhead_cost`).
fn table_cost(roots: &[String], in_tokens: bool) -> usize {
    cost(&body(roots, &[]), in_tokens).saturating_sub(cost(&body(&[], &[]), in_tokens))
}

/// The catalog Codex writes (`render_available_skills`): paths whole when everything fits
/// whole; else also with the roots table (`roots`, the lines' paths in `aliased`), which is
/// kept when it lists more skills, or cuts fewer description characters, or costs less.
pub fn render_best(
    entries: &[Entry],
    aliased: &[Entry],
    roots: &[String],
    limit: usize,
    in_tokens: bool,
) -> Catalog {
    let absolute = render(entries, limit, in_tokens);
    if absolute.fates.iter().all(|f| *f == Fate::Whole) {
        return absolute;
    }
    let extra = table_cost(roots, in_tokens);
    if roots.is_empty() || extra >= limit {
        return absolute;
    }
    let mut with_roots = render(aliased, limit - extra, in_tokens);
    with_roots.roots = roots.to_vec();
    let spent = |c: &Catalog| {
        (if c.roots.is_empty() { 0 } else { extra })
            + c.lines
                .iter()
                .map(|l| line_cost(l, in_tokens))
                .sum::<usize>()
    };
    let better = match with_roots.included().cmp(&absolute.included()) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => {
            match with_roots
                .truncated(aliased)
                .cmp(&absolute.truncated(entries))
            {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Greater => false,
                std::cmp::Ordering::Equal => spent(&with_roots) < spent(&absolute),
            }
        }
    };
    if better { with_roots } else { absolute }
}

/// The budget for a context window of `tokens` (None: unknown): 2% of it in tokens, at
/// least one, else 8,000 characters. Returned as `(limit, in_tokens)`.
pub fn budget(context_window: Option<usize>) -> (usize, bool) {
    match context_window {
        Some(window) if window > 0 => ((window * CONTEXT_WINDOW_PERCENT / 100).max(1), true),
        _ => (DEFAULT_BUDGET_CHARS, false),
    }
}

/// The cost of `text` in the budget's unit: characters, or tokens as Codex counts them
/// (UTF-8 bytes / 4, rounded up).
fn cost(text: &str, in_tokens: bool) -> usize {
    if in_tokens {
        text.len().div_ceil(4)
    } else {
        text.chars().count()
    }
}

/// `description` cut as Codex cuts it before any budget: over 1,024 characters, the first
/// 1,021 and `...`.
pub fn precut(description: &str) -> String {
    if description.chars().count() > MAX_DESCRIPTION {
        let mut cut: String = description.chars().take(MAX_DESCRIPTION - 3).collect();
        cut.push_str("...");
        cut
    } else {
        description.to_owned()
    }
}

/// A line's cost with its newline (`line_cost`).
fn line_cost(line: &str, in_tokens: bool) -> usize {
    cost(&format!("{line}\n"), in_tokens)
}

fn line(entry: &Entry, description: &str) -> String {
    if description.is_empty() {
        format!("- {}: (file: {})", entry.name, entry.path)
    } else {
        format!("- {}: {} (file: {})", entry.name, description, entry.path)
    }
}

/// Renders `entries` (in catalog order, descriptions already pre-cut) within `limit`:
/// 1. every line whole if they all fit;
/// 2. else, if every line without its description fits, every skill is kept and the rest
///    of the budget is shared among the descriptions a character a round, in order (a
///    description's first character also pays for the space before it), cut without an
///    ellipsis;
/// 3. else no description at all, and each bare line is kept while it fits (a line that
///    does not fit is left out and the next ones still tried).
pub fn render(entries: &[Entry], limit: usize, in_tokens: bool) -> Catalog {
    let whole: Vec<String> = entries.iter().map(|e| line(e, &e.description)).collect();
    let whole_cost: usize = whole.iter().map(|l| line_cost(l, in_tokens)).sum();
    if whole_cost <= limit {
        return Catalog {
            roots: Vec::new(),
            lines: whole,
            fates: vec![Fate::Whole; entries.len()],
        };
    }
    let bare: Vec<String> = entries.iter().map(|e| line(e, "")).collect();
    let bare_cost: usize = bare.iter().map(|l| line_cost(l, in_tokens)).sum();
    if bare_cost <= limit {
        let chars: Vec<Vec<char>> = entries
            .iter()
            .map(|e| e.description.chars().collect())
            .collect();
        let mut taken = vec![0usize; entries.len()];
        let mut costs: Vec<usize> = bare.iter().map(|l| line_cost(l, in_tokens)).collect();
        let mut total = bare_cost;
        loop {
            let mut changed = false;
            for (i, entry) in entries.iter().enumerate() {
                if taken[i] >= chars[i].len() {
                    continue;
                }
                let next: String = chars[i][..=taken[i]].iter().collect();
                let next_cost = line_cost(&line(entry, &next), in_tokens);
                if total - costs[i] + next_cost <= limit {
                    total = total - costs[i] + next_cost;
                    costs[i] = next_cost;
                    taken[i] += 1;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut lines = Vec::new();
        let mut fates = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            let description: String = chars[i][..taken[i]].iter().collect();
            lines.push(line(entry, &description));
            fates.push(if taken[i] == chars[i].len() {
                Fate::Whole
            } else {
                Fate::Shortened(taken[i])
            });
        }
        return Catalog {
            roots: Vec::new(),
            lines,
            fates,
        };
    }
    let mut lines = Vec::new();
    let mut fates = Vec::new();
    let mut used = 0;
    for (i, entry) in entries.iter().enumerate() {
        let c = line_cost(&bare[i], in_tokens);
        if used + c <= limit {
            used += c;
            lines.push(bare[i].clone());
            fates.push(if entry.description.is_empty() {
                Fate::Whole
            } else {
                Fate::Shortened(0)
            });
        } else {
            fates.push(Fate::Omitted);
        }
    }
    Catalog {
        roots: Vec::new(),
        lines,
        fates,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, description: &str) -> Entry {
        Entry {
            name: name.to_owned(),
            description: description.to_owned(),
            path: "p".to_owned(),
        }
    }

    /// Codex's own test (`render.rs`): two six-character descriptions with six characters
    /// of budget over the bare lines get three each, the first paying for its space.
    #[test]
    fn descriptions_share_the_rest_a_character_a_round() {
        let entries = [entry("a", "abcdef"), entry("u", "uvwxyz")];
        let bare: usize = entries
            .iter()
            .map(|e| line(e, "").chars().count() + 1)
            .sum();
        let catalog = render(&entries, bare + 6, false);
        assert_eq!(catalog.lines, ["- a: ab (file: p)", "- u: uv (file: p)"]);
        assert_eq!(catalog.fates, [Fate::Shortened(2), Fate::Shortened(2)]);
    }

    #[test]
    fn everything_whole_when_it_fits() {
        let entries = [entry("a", "x"), entry("b", "y")];
        let catalog = render(&entries, 10_000, false);
        assert_eq!(catalog.lines, ["- a: x (file: p)", "- b: y (file: p)"]);
        assert_eq!(catalog.fates, [Fate::Whole, Fate::Whole]);
    }

    /// Stage 3: no descriptions; a line that does not fit is left out and the scan goes
    /// on, so a later shorter line can still be listed.
    #[test]
    fn bare_lines_are_kept_while_they_fit() {
        let entries = [
            entry("a", "x"),
            entry("a-much-longer-name", "y"),
            entry("b", "z"),
        ];
        let limit = "- a: (file: p)\n".len() + "- b: (file: p)\n".len();
        let catalog = render(&entries, limit, false);
        assert_eq!(catalog.lines, ["- a: (file: p)", "- b: (file: p)"]);
        assert_eq!(
            catalog.fates,
            [Fate::Shortened(0), Fate::Omitted, Fate::Shortened(0)]
        );
    }

    #[test]
    fn long_descriptions_are_cut_first() {
        let long = "d".repeat(2_000);
        let cut = precut(&long);
        assert_eq!(cut.chars().count(), 1_024);
        assert!(cut.ends_with("d..."));
        assert_eq!(precut("short"), "short");
    }

    #[test]
    fn the_budget_is_two_per_cent_of_a_known_window() {
        assert_eq!(budget(Some(200_000)), (4_000, true));
        assert_eq!(budget(Some(10)), (1, true));
        assert_eq!(budget(None), (8_000, false));
        assert_eq!(cost("abcde", true), 2);
    }
}
