//! The TTSR manager (behaviour.md §10): rules that interrupt a model's output stream when it
//! matches one of their conditions.
//!
//! - [`TtsrManager::register`] takes a rule with a non-empty `condition`. A condition that
//!   does not compile as a Rust [`regex`] (syntax, or the compile budget of
//!   [`validate_condition`]) is dropped, and the rule fires on its others (the original
//!   does so); a name already registered, or a rule none of whose conditions compiles, is
//!   refused with a [`RegisterError`] (the partition stage turns it into a warning and
//!   lets the rule fall through to the other buckets). Registration only validates (a
//!   forward NFA within the budget, dropped); the regexes `check` needs are compiled on
//!   first use, so discovering hundreds of TTSR rules stays cheap in time and memory.
//! - [`TtsrManager::check`] tests a whole buffer, as the original does on every delta.
//! - [`TtsrManager::feed`] takes the stream one delta at a time and reports exactly what
//!   `check` on the whole buffer so far would, at a total cost linear in the stream.
//! - Repeat policy: [`RepeatPolicy::Once`] (the default: a rule fires once per manager) or
//!   [`RepeatPolicy::AfterGap`] (again once `N` turns have passed since it last fired). A
//!   rule fires at most once per turn; [`TtsrManager::next_turn`] starts a new turn and a
//!   new stream.
//!
//! # How `feed` stays linear
//! Every condition of every rule is compiled into one multi-pattern lazy DFA
//! (`regex-automata`'s hybrid DFA, unanchored, [`MatchKind::All`] so every pattern that
//! matches is seen). `feed` advances the DFA's state over the new bytes only; a pattern
//! matches the stream so far exactly when a match state naming it was crossed, or when the
//! end-of-input transition from the current state names it (a DFA reports matches one
//! byte late, and `$`-like assertions need the end). That transition is taken on a copy
//! of the state, so the stream can go on. Each byte is one transition; each delta adds one
//! end-of-input probe: O(stream + deltas). The whole turn is also kept, so that a rule
//! registered mid-turn can be caught up.
//!
//! The DFA is built to work whatever the size of the trigger set: a set whose automaton
//! does not fit the cache runs with the minimum cache, clearing it as it goes (slower per
//! byte, still linear). The lazy DFA cannot evaluate a Unicode word boundary (`\b` with
//! Unicode on) next to a non-ASCII byte, so the conditions that have one are followed by an
//! incremental NFA simulation instead (a Pike VM without captures, O(NFA size) per byte),
//! which reads each byte once too. No input makes `feed` re-scan the turn.
//!
//! Depends on `regex` and `regex-automata` (the engines), `rulebook-rule`, `serde`,
//! `thiserror`.
//!
//! ```
//! use rulebook_ttsr::{TtsrManager, TtsrRule};
//!
//! let mut ttsr = TtsrManager::new();
//! ttsr.register(TtsrRule::new("no-console", ["console\\.log"], "Use the logger.")).unwrap();
//! assert!(ttsr.feed("let x = 1; cons").is_empty());
//! let fired = ttsr.feed("ole.log(x)");
//! assert_eq!(fired[0].name, "no-console");
//! // `once`: never again.
//! ttsr.next_turn();
//! assert!(ttsr.feed("console.log(y)").is_empty());
//! ```

mod nfa_stream;
mod stream;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use regex::Regex;
use rulebook_rule::Rule;
use serde::Serialize;

pub use regex_automata::MatchKind;

/// When a rule may fire again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepeatPolicy {
    /// At most once for the life of the manager.
    #[default]
    Once,
    /// Again once this many turns have passed since it last fired (at least one).
    AfterGap(u32),
}

/// A rule as the TTSR manager keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TtsrRule {
    /// The rule's name (unique among registered rules).
    pub name: String,
    /// The conditions; the rule fires when any of them matches.
    pub conditions: Vec<String>,
    /// What to inject when it fires (shared with the rule it came from).
    pub content: std::sync::Arc<str>,
    /// Where it came from, if from a file.
    pub path: Option<PathBuf>,
    /// Its repeat policy; `None` uses the manager's default.
    pub repeat: Option<RepeatPolicy>,
}

impl TtsrRule {
    /// A rule from its parts.
    pub fn new<I, S>(
        name: impl Into<String>,
        conditions: I,
        content: impl Into<std::sync::Arc<str>>,
    ) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            name: name.into(),
            conditions: conditions.into_iter().map(Into::into).collect(),
            content: content.into(),
            path: None,
            repeat: None,
        }
    }

    /// The TTSR view of a discovered rule.
    pub fn from_rule(rule: &Rule) -> Self {
        Self {
            name: rule.name.clone(),
            conditions: rule.condition.clone(),
            content: rule.content.clone(),
            path: Some(rule.path.clone()),
            repeat: None,
        }
    }

    /// Sets the repeat policy of this rule.
    #[must_use]
    pub fn repeat(mut self, policy: RepeatPolicy) -> Self {
        self.repeat = Some(policy);
        self
    }
}

/// Why a rule was not registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegisterError {
    /// A rule of that name is registered already (the first one stays).
    #[error("a TTSR rule named `{0}` is registered already")]
    DuplicateName(String),
    /// The rule has no non-empty condition.
    #[error("TTSR rule `{0}` has no condition")]
    NoCondition(String),
    /// A condition is not a valid regex.
    #[error("condition {condition:?} is not a valid regex: {message}")]
    InvalidCondition {
        /// The condition as written.
        condition: String,
        /// The regex compiler's message.
        message: String,
    },
}

/// The regex crate's message without its multi-line caret drawing: `error: unclosed group`
/// becomes `unclosed group`.
fn one_line(error: &dyn std::fmt::Display) -> String {
    let text = error.to_string();
    text.lines()
        .rev()
        .find_map(|l| l.strip_prefix("error: "))
        .map_or_else(
            || text.split_whitespace().collect::<Vec<_>>().join(" "),
            str::to_owned,
        )
}

/// A rule that fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fired<'a> {
    /// The rule's name.
    pub name: &'a str,
    /// The first of its conditions that matched.
    pub condition: &'a str,
    /// What to inject.
    pub content: &'a str,
    /// The rule.
    #[serde(skip)]
    pub rule: &'a TtsrRule,
}

struct Registered {
    rule: TtsrRule,
    /// Compiled on first use by `check` (or `feed`'s slow path): registering hundreds of
    /// rules must not cost hundreds of compiled regexes (≈20 KB each) up front.
    regexes: OnceLock<Vec<Option<Regex>>>,
    last_fired: Option<u64>,
}

impl Registered {
    fn regexes(&self) -> &[Option<Regex>] {
        self.regexes.get_or_init(|| {
            // Validated at registration; a failure here (it should not happen) never matches.
            self.rule
                .conditions
                .iter()
                .map(|c| {
                    regex::RegexBuilder::new(c)
                        .size_limit(REGEX_SIZE_LIMIT)
                        .build()
                        .ok()
                })
                .collect()
        })
    }

    /// The index of the first condition that matches `text`.
    fn first_match(&self, text: &str) -> Option<usize> {
        self.regexes()
            .iter()
            .position(|re| re.as_ref().is_some_and(|re| re.is_match(text)))
    }
}

/// Checks that `pattern` compiles under the `regex` crate's syntax, within a compile budget
/// ([`CONDITION_SIZE_LIMIT`], a tenth of the size limit the matching regexes are built
/// with), without keeping the compiled program: only a forward NFA is built, and dropped.
/// `Err` is the reason on one line (`unclosed group`). This is the check
/// [`TtsrManager::register`] makes.
///
/// The budget does two things. It bounds the cost of validating any pattern (the NFA
/// builder stops as soon as the budget is spent, so a `(?:\w+){500}` is refused in
/// microseconds, not compiled for 60 ms at every discovery), and it leaves a tenfold margin
/// under the limit of every engine that later matches the pattern (the `regex` crate's
/// forward and reverse programs, the stream's automaton), so a pattern that validates can
/// always be matched: validation never accepts a trigger that could not fire.
pub fn validate_condition(pattern: &str) -> Result<(), ConditionError> {
    if is_short_literal(pattern) {
        // Always valid and far under the budget: no compile needed to know it.
        return Ok(());
    }
    compile_within_budget(pattern)
}

/// [`validate_condition`]'s answer, from the budgeted compile itself.
fn compile_within_budget(pattern: &str) -> Result<(), ConditionError> {
    compiled_size(pattern).map(drop).map_err(|(error, _)| error)
}

/// The bytes of compile work spent validating `pattern` (0 when its parse alone decides),
/// or why it does not compile and the work spent finding that out. From its parse, a
/// pattern has bounds on the size of its forward NFA ([`size_bounds`]): one whose least
/// size passes [`CONDITION_SIZE_LIMIT`] is refused and one whose most size stays within it
/// is taken, both without a compile (a compile of a counted repetition of a large class
/// runs until the budget is spent: milliseconds each); only a pattern between the two is
/// compiled within the budget.
fn compiled_size(pattern: &str) -> Result<usize, (ConditionError, usize)> {
    use regex_automata::nfa::thompson;
    if let Ok(hir) = regex_syntax::ParserBuilder::new()
        .nest_limit(250)
        .build()
        .parse(pattern)
    {
        let (least, most) = size_bounds(&hir);
        if least > CONDITION_SIZE_LIMIT as u64 {
            return Err((too_large(), 0));
        }
        if most <= CONDITION_SIZE_LIMIT as u64 {
            return Ok(0);
        }
    }
    thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .nfa_size_limit(Some(CONDITION_SIZE_LIMIT))
                .shrink(false),
        )
        .build(pattern)
        .map(|nfa| nfa.memory_usage())
        .map_err(|e| {
            // The build error says "error parsing regex"; the parser's error, its source,
            // says what is wrong.
            let mut deepest: &dyn std::error::Error = &e;
            while let Some(source) = deepest.source() {
                deepest = source;
            }
            let message = one_line(&deepest);
            if message.contains("exceed") && message.contains("limit") {
                (too_large(), CONDITION_SIZE_LIMIT)
            } else {
                (ConditionError(message), 0)
            }
        })
}

/// A condition past [`CONDITION_SIZE_LIMIT`].
fn too_large() -> ConditionError {
    ConditionError(format!(
        "it compiles to more than the {} KiB allowed for one TTSR condition (a large counted repetition of a Unicode class, such as `(?:\\w+){{500}}`, does this)",
        CONDITION_SIZE_LIMIT / 1024
    ))
}

/// Bounds on the bytes of the forward NFA of `hir`, from its parse alone: (fewer than it
/// takes, more than it takes). In units of what compiles to a state or a transition: a
/// literal byte, a class range (at least), the bytes of the UTF-8 sequences of a Unicode
/// class (at most), one for each look-around, empty match, alternative, capture and
/// repeated copy; a counted repetition multiplies its part by the copies it compiles
/// (`x{500}` compiles `x` 500 times). A unit is at least 4 bytes (a compiled range is a
/// transition of 8) and at most 64 (a state of the largest kind with its transition), plus
/// 1 KiB for the NFA's own tables; `tests/ttsr.rs` holds the bounds against compiled NFAs.
/// Saturating: an absurd repetition is huge, not wrapped.
fn size_bounds(hir: &regex_syntax::hir::Hir) -> (u64, u64) {
    let (least, most) = units(hir);
    (
        least.saturating_mul(4),
        most.saturating_mul(64).saturating_add(1024),
    )
}

/// [`size_bounds`] in units: (least, most).
fn units(hir: &regex_syntax::hir::Hir) -> (u64, u64) {
    use regex_syntax::hir::{Class, HirKind};
    let sum = |parts: &[regex_syntax::hir::Hir]| {
        parts.iter().fold((0u64, 0u64), |(l, m), part| {
            let (pl, pm) = units(part);
            (l.saturating_add(pl), m.saturating_add(pm).saturating_add(1))
        })
    };
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => (0, 1),
        HirKind::Literal(literal) => (literal.0.len() as u64, literal.0.len() as u64),
        HirKind::Class(Class::Unicode(class)) => {
            let most = class.ranges().iter().fold(1u64, |sum, range| {
                regex_syntax::utf8::Utf8Sequences::new(range.start(), range.end())
                    .fold(sum, |sum, sequence| {
                        sum.saturating_add(sequence.as_slice().len() as u64)
                    })
            });
            (class.ranges().len() as u64, most)
        }
        HirKind::Class(Class::Bytes(class)) => {
            (class.ranges().len() as u64, class.ranges().len() as u64 + 1)
        }
        HirKind::Repetition(repetition) => {
            let (least, most) = units(&repetition.sub);
            let copies = u64::from(repetition.max.unwrap_or(repetition.min).max(1));
            let most_copies = u64::from(
                repetition
                    .max
                    .unwrap_or_else(|| repetition.min.saturating_add(1))
                    .max(1),
            );
            (
                least.saturating_mul(copies),
                most.saturating_add(1).saturating_mul(most_copies),
            )
        }
        HirKind::Capture(capture) => {
            let (least, most) = units(&capture.sub);
            (least, most.saturating_add(2))
        }
        HirKind::Concat(parts) | HirKind::Alternation(parts) => sum(parts),
    }
}

/// Whether `pattern` is a literal no longer than 1,000 bytes: letters, digits and the ASCII
/// punctuation that means itself outside a class, with the meta characters escaped
/// (`console\.log\(`). Such a pattern always parses, and compiles to one NFA state per byte,
/// far under [`CONDITION_SIZE_LIMIT`].
fn is_short_literal(pattern: &str) -> bool {
    if pattern.len() > 1_000 {
        return false;
    }
    let mut bytes = pattern.bytes();
    while let Some(b) = bytes.next() {
        let literal = match b {
            b'\\' => bytes
                .next()
                .is_some_and(|e| b"\\.+*?()|[]{}^$".contains(&e)),
            b'.' | b'+' | b'*' | b'?' | b'(' | b')' | b'|' | b'[' | b']' | b'{' | b'}' | b'^'
            | b'$' => false,
            b' '..=b'~' => true,
            _ => false,
        };
        if !literal {
            return false;
        }
    }
    true
}

/// Why a condition does not compile, on one line (`unclosed group`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConditionError(String);

impl ConditionError {
    /// Whether the condition was refused because the total budget of a [`Validator`] was
    /// spent, not for anything of its own.
    pub fn budget_spent(&self) -> bool {
        self.0.starts_with(BUDGET_SPENT)
    }
}

/// The compile budget of one condition's forward NFA: a tenth of the 10 MiB size limit the
/// matching regexes are built with (the `regex` crate's default).
pub const CONDITION_SIZE_LIMIT: usize = REGEX_SIZE_LIMIT / 10;

/// The compile budget of all the conditions one manager validates, together: 32 times
/// [`CONDITION_SIZE_LIMIT`] (thousands of ordinary conditions; every short literal is free).
/// A condition met once it is spent is refused, and says so, so that no set of rule files
/// can make discovery validate for seconds.
pub const TOTAL_CONDITION_BUDGET: usize = 32 * CONDITION_SIZE_LIMIT;

/// Validates many conditions as one run: each distinct condition once, and all of them
/// within [`TOTAL_CONDITION_BUDGET`] of compile work together (a short literal, and a
/// condition its parse decides, cost none). [`TtsrManager::register`] validates with one;
/// a linter checking every rule of a project should too.
///
/// ```
/// let mut validator = rulebook_ttsr::Validator::new();
/// assert!(validator.validate(r"console\.log\(").is_ok());
/// assert!(validator.validate(r"(?:\w+){500}").is_err());
/// assert_eq!(validator.work(), 0, "both decided without a compile");
/// ```
#[derive(Debug, Default)]
pub struct Validator {
    /// What validation said of each distinct condition that is not a short literal (those
    /// are valid without a compile, see `is_short_literal`): a condition repeated across
    /// rules (the same rule kept for two tools) is compiled once.
    verdicts: HashMap<String, Result<(), ConditionError>>,
    /// The bytes of compile work spent, against [`TOTAL_CONDITION_BUDGET`].
    spent: usize,
}

impl Validator {
    /// A validator that has spent nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether `condition` compiles (as [`validate_condition`] says), or why not; once the
    /// total budget is spent, a condition that would need a compile to be decided is
    /// refused, and [`ConditionError::budget_spent`] says it was for that.
    pub fn validate(&mut self, condition: &str) -> Result<(), ConditionError> {
        if is_short_literal(condition) {
            return Ok(());
        }
        if let Some(verdict) = self.verdicts.get(condition) {
            return verdict.clone();
        }
        if self.spent >= TOTAL_CONDITION_BUDGET {
            return Err(ConditionError(format!(
                "{BUDGET_SPENT} ({} MiB) was spent on the conditions before it; only short literals are still taken",
                TOTAL_CONDITION_BUDGET >> 20
            )));
        }
        let (verdict, cost) = match compiled_size(condition) {
            Ok(size) => (Ok(()), size),
            Err((error, cost)) => (Err(error), cost),
        };
        self.spent = self.spent.saturating_add(cost);
        self.verdicts.insert(condition.to_owned(), verdict.clone());
        verdict
    }

    /// The bytes of compile work spent so far: the NFAs built to decide. It passes
    /// [`TOTAL_CONDITION_BUDGET`] by at most one condition's [`CONDITION_SIZE_LIMIT`].
    pub fn work(&self) -> usize {
        self.spent
    }
}

/// How a refusal for the spent total budget begins.
const BUDGET_SPENT: &str = "the compile budget of all TTSR conditions together";

/// The size limit of every regex a condition is matched with (the `regex` crate's default).
const REGEX_SIZE_LIMIT: usize = 10 * (1 << 20);

/// What registering a rule did beyond registering it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Registration {
    /// Conditions that do not compile, dropped: the rule fires on the others.
    pub dropped: Vec<RegisterError>,
}

/// Registered TTSR rules and the state of the current turn's stream.
pub struct TtsrManager {
    rules: Vec<Registered>,
    by_name: HashMap<String, usize>,
    /// Every condition of every rule, flattened: (rule index, condition index).
    patterns: Vec<(usize, usize)>,
    default_repeat: RepeatPolicy,
    turn: u64,
    stream: stream::Stream,
    /// Validates every condition registered, as one run.
    validator: Validator,
}

impl std::fmt::Debug for TtsrManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TtsrManager")
            .field(
                "rules",
                &self.rules.iter().map(|r| &r.rule.name).collect::<Vec<_>>(),
            )
            .field("default_repeat", &self.default_repeat)
            .field("turn", &self.turn)
            .finish_non_exhaustive()
    }
}

impl Default for TtsrManager {
    fn default() -> Self {
        Self::new()
    }
}

impl TtsrManager {
    /// An empty manager whose rules fire once.
    pub fn new() -> Self {
        Self {
            rules: Vec::new(),
            by_name: HashMap::new(),
            patterns: Vec::new(),
            default_repeat: RepeatPolicy::Once,
            turn: 0,
            stream: stream::Stream::default(),
            validator: Validator::new(),
        }
    }

    /// Sets the repeat policy of rules that do not set their own.
    #[must_use]
    pub fn with_default_repeat(mut self, policy: RepeatPolicy) -> Self {
        self.default_repeat = policy;
        self
    }

    /// Registers a rule; see [`RegisterError`] for what is refused. Conditions that do not
    /// compile are dropped (each is in [`Registration::dropped`]) and the rule fires on the
    /// others, as the original does; a rule none of whose conditions compiles is refused
    /// with the first one's error.
    pub fn register(&mut self, rule: TtsrRule) -> Result<Registration, RegisterError> {
        if self.by_name.contains_key(&rule.name) {
            return Err(RegisterError::DuplicateName(rule.name));
        }
        let mut rule = rule;
        rule.conditions.retain(|c| !c.is_empty());
        if rule.conditions.is_empty() {
            return Err(RegisterError::NoCondition(rule.name));
        }
        let mut registration = Registration::default();
        let validator = &mut self.validator;
        rule.conditions.retain(|c| {
            let verdict = validator.validate(c);
            match verdict {
                Ok(()) => true,
                Err(error) => {
                    registration.dropped.push(RegisterError::InvalidCondition {
                        condition: c.clone(),
                        message: error.to_string(),
                    });
                    false
                }
            }
        });
        if rule.conditions.is_empty() {
            return Err(registration.dropped.swap_remove(0));
        }
        let index = self.rules.len();
        self.by_name.insert(rule.name.clone(), index);
        self.patterns
            .extend((0..rule.conditions.len()).map(|c| (index, c)));
        self.rules.push(Registered {
            rule,
            regexes: OnceLock::new(),
            last_fired: None,
        });
        self.stream.invalidate();
        Ok(registration)
    }

    /// The bytes of compile work validation has spent so far: the NFAs it had to build to
    /// decide (a condition its parse decides, and a short literal, cost none). It never
    /// passes [`TOTAL_CONDITION_BUDGET`] by more than one condition's
    /// [`CONDITION_SIZE_LIMIT`].
    pub fn validation_work(&self) -> usize {
        self.validator.work()
    }

    /// The registered rules, in registration order.
    pub fn rules(&self) -> impl ExactSizeIterator<Item = &TtsrRule> + '_ {
        self.rules.iter().map(|r| &r.rule)
    }

    /// A registered rule by name.
    pub fn get(&self, name: &str) -> Option<&TtsrRule> {
        self.by_name.get(name).map(|&i| &self.rules[i].rule)
    }

    /// The current turn (0 until [`TtsrManager::next_turn`]).
    pub fn turn(&self) -> u64 {
        self.turn
    }

    /// Starts a new turn: a new stream, and rules with `after-gap` may fire again.
    pub fn next_turn(&mut self) {
        self.turn += 1;
        self.stream.reset();
    }

    fn eligible(&self, i: usize) -> bool {
        let r = &self.rules[i];
        match (r.last_fired, r.rule.repeat.unwrap_or(self.default_repeat)) {
            (None, _) => true,
            (Some(_), RepeatPolicy::Once) => false,
            (Some(last), RepeatPolicy::AfterGap(gap)) => {
                last != self.turn && self.turn - last >= u64::from(gap.max(1))
            }
        }
    }

    fn fire(&mut self, matched: &[(usize, usize)]) -> Vec<Fired<'_>> {
        let mut fired_rules = Vec::new();
        for &(rule, condition) in matched {
            if self.eligible(rule) && !fired_rules.iter().any(|&(r, _)| r == rule) {
                fired_rules.push((rule, condition));
            }
        }
        for &(rule, _) in &fired_rules {
            self.rules[rule].last_fired = Some(self.turn);
        }
        fired_rules
            .into_iter()
            .map(|(rule, condition)| {
                let r = &self.rules[rule].rule;
                Fired {
                    name: &r.name,
                    condition: &r.conditions[condition],
                    content: &r.content,
                    rule: r,
                }
            })
            .collect()
    }

    /// Every eligible rule whose condition matches `buffer`, in registration order; marks
    /// them fired. This is the original's method (called on the whole buffer per delta).
    pub fn check(&mut self, buffer: &str) -> Vec<Fired<'_>> {
        let matched: Vec<(usize, usize)> = (0..self.rules.len())
            .filter(|&i| self.eligible(i))
            .filter_map(|i| self.rules[i].first_match(buffer).map(|c| (i, c)))
            .collect();
        self.fire(&matched)
    }

    /// Appends `delta` to this turn's stream; returns the eligible rules whose condition
    /// now matches the stream, in registration order, and marks them fired. Reports
    /// exactly what [`TtsrManager::check`] on the whole stream so far would.
    pub fn feed(&mut self, delta: &str) -> Vec<Fired<'_>> {
        let Self {
            rules,
            patterns,
            stream,
            ..
        } = self;
        let sources: Vec<&str> = patterns
            .iter()
            .map(|&(r, c)| rules[r].rule.conditions[c].as_str())
            .collect();
        let matched = stream.feed(delta, &sources);
        // Report each rule once, with its first matching condition.
        let mut by_rule: Vec<(usize, usize)> = Vec::new();
        for pattern in matched {
            let (rule, condition) = self.patterns[pattern];
            match by_rule.iter_mut().find(|(r, _)| *r == rule) {
                Some(entry) => entry.1 = entry.1.min(condition),
                None => by_rule.push((rule, condition)),
            }
        }
        by_rule.sort_unstable();
        self.fire(&by_rule)
    }
}

#[cfg(test)]
mod bound_tests {
    #![allow(clippy::unwrap_used, reason = "tests fail loudly")]
    use super::size_bounds;
    use regex_automata::nfa::thompson;

    /// The bounds from a parse hold against the NFA each pattern compiles to: every kind of
    /// node, wide and narrow classes, nested and counted repetitions.
    #[test]
    fn size_bounds_hold_against_compiled_nfas() {
        for pattern in [
            r"\w",
            r"\w+",
            r"\d",
            "[a-z]",
            ".",
            "(?s).",
            r"\pL",
            "[^a]",
            "abc",
            "(?i)abc",
            r"(?:\w+){10}",
            r"\W",
            r"\s",
            r"(?i)\w{3}",
            r"\p{Greek}",
            "(?:^){100}",
            "(?:a?){100}",
            "(a|b|c){50}",
            "(?:x|yy|zzz)+",
            r"\b\w+\b",
            r"(?-u:[\x00-\x7f]){50}",
            "(?s:.){300}",
            "[^\n]{100}",
            "(?:(?:a?){10}){10}",
            "a{2,}",
            "(?:)",
            r"\bTODO\b",
            "x*y+z?",
            r"[\u{80}-\u{10FFFF}]{20}",
            "(?i)[a-z\u{100}-\u{17F}]{30}",
            "(?:a|b)*c{3,5}",
        ] {
            let hir = regex_syntax::ParserBuilder::new()
                .build()
                .parse(pattern)
                .unwrap();
            let (least, most) = size_bounds(&hir);
            let nfa = thompson::Compiler::new()
                .configure(thompson::Config::new().shrink(false))
                .build(pattern)
                .unwrap();
            let size = nfa.memory_usage() as u64;
            assert!(
                least <= size && size <= most,
                "{pattern}: {least} <= {size} <= {most}"
            );
        }
    }
}

#[cfg(test)]
mod literal_tests {
    use super::{compile_within_budget, is_short_literal, validate_condition};
    use proptest::prelude::*;

    #[test]
    fn literals_are_known_valid_without_a_compile() {
        for literal in [
            "console\\.log\\(",
            "forbidden_1\\(",
            "TODO: fix",
            "a-b~c#d&e",
            "\\$\\{x\\}",
        ] {
            assert!(is_short_literal(literal), "{literal}");
        }
        for other in [
            "a.b", "\\d", "\\bx", "(x)", "x+", "x{3}", "a|b", "^a$", "é", "a\tb", "\\",
        ] {
            assert!(!is_short_literal(other), "{other}");
        }
        assert!(is_short_literal(&"x".repeat(1_000)));
        assert!(!is_short_literal(&"x".repeat(1_001)));
    }

    /// A literal too long for the compile budget is refused as any pattern is: only short
    /// literals skip the compile.
    #[test]
    fn a_literal_past_the_budget_is_refused() {
        assert!(validate_condition(&"x".repeat(200_000)).is_err());
        assert!(validate_condition(&"x".repeat(1_001)).is_ok());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5_000))]

        /// What the literal check accepts, the budgeted compile accepts too.
        #[test]
        fn every_short_literal_compiles(pattern in "([ -~]|\\\\[ -~])*") {
            if is_short_literal(&pattern) {
                prop_assert!(compile_within_budget(&pattern).is_ok(), "{pattern}");
            }
        }
    }
}
