//! TTSR registration, repeat policies, and the equivalence of `feed` with `check`.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use proptest::prelude::*;
use rulebook_ttsr::{RegisterError, RepeatPolicy, TtsrManager, TtsrRule};

fn names(fired: &[rulebook_ttsr::Fired<'_>]) -> Vec<String> {
    fired.iter().map(|f| f.name.to_owned()).collect()
}

#[test]
fn match_across_a_delta_boundary() {
    let mut m = TtsrManager::new();
    m.register(TtsrRule::new("log", ["console\\.log"], "no logs"))
        .unwrap();
    assert!(m.feed("call console").is_empty());
    assert!(m.feed(".lo").is_empty());
    assert_eq!(names(&m.feed("g(1)")), ["log"]);
}

#[test]
fn two_rules_in_one_delta_in_registration_order() {
    let mut m = TtsrManager::new();
    m.register(TtsrRule::new("b", ["beta"], "")).unwrap();
    m.register(TtsrRule::new("a", ["alpha", "zeta"], ""))
        .unwrap();
    let fired = m.feed("zeta alpha beta");
    assert_eq!(names(&fired), ["b", "a"]);
    // The first condition of the rule that matched is reported.
    assert_eq!(fired[1].condition, "alpha");
}

#[test]
fn end_anchors_and_empty_matches() {
    let mut m = TtsrManager::new();
    m.register(TtsrRule::new("end", ["done$"], "")).unwrap();
    m.register(TtsrRule::new("start", ["^hello"], "")).unwrap();
    assert_eq!(names(&m.feed("hello ... done")), ["end", "start"]);
    let mut m = TtsrManager::new();
    m.register(TtsrRule::new("start", ["^hello"], "")).unwrap();
    assert!(m.feed("say hello").is_empty());
}

#[test]
fn once_policy() {
    let mut m = TtsrManager::new();
    m.register(TtsrRule::new("x", ["x"], "")).unwrap();
    assert_eq!(names(&m.check("x")), ["x"]);
    assert!(m.check("x x").is_empty());
    m.next_turn();
    assert!(m.check("x").is_empty());
    assert!(m.feed("x").is_empty());
}

#[test]
fn after_gap_policy_counts_turns() {
    let mut m = TtsrManager::new().with_default_repeat(RepeatPolicy::AfterGap(2));
    m.register(TtsrRule::new("x", ["x"], "")).unwrap();
    assert_eq!(names(&m.feed("x")), ["x"]); // turn 0
    assert!(m.feed("x").is_empty()); // same turn: never twice
    m.next_turn(); // turn 1: gap 1 < 2
    assert!(m.feed("x").is_empty());
    m.next_turn(); // turn 2: gap 2
    assert_eq!(names(&m.feed("x")), ["x"]);
    m.next_turn(); // turn 3: gap 1 since turn 2
    assert!(m.check("x").is_empty());
}

#[test]
fn per_rule_policy_overrides_default() {
    let mut m = TtsrManager::new();
    m.register(TtsrRule::new("again", ["x"], "").repeat(RepeatPolicy::AfterGap(1)))
        .unwrap();
    m.register(TtsrRule::new("once", ["x"], "")).unwrap();
    assert_eq!(names(&m.check("x")), ["again", "once"]);
    m.next_turn();
    assert_eq!(names(&m.check("x")), ["again"]);
}

#[test]
fn registration_errors() {
    let mut m = TtsrManager::new();
    m.register(TtsrRule::new("a", ["x"], "")).unwrap();
    assert_eq!(
        m.register(TtsrRule::new("a", ["y"], "")),
        Err(RegisterError::DuplicateName("a".into()))
    );
    let err = m
        .register(TtsrRule::new("bad", ["(unclosed"], ""))
        .unwrap_err();
    assert!(
        matches!(err, RegisterError::InvalidCondition { .. }),
        "{err}"
    );
    assert_eq!(
        m.register(TtsrRule::new("empty", [""], "")),
        Err(RegisterError::NoCondition("empty".into()))
    );
    assert_eq!(m.rules().len(), 1);
}

#[test]
fn rule_registered_mid_turn_catches_up() {
    let mut m = TtsrManager::new();
    m.register(TtsrRule::new("a", ["alpha"], "")).unwrap();
    assert!(m.feed("beta ").is_empty());
    m.register(TtsrRule::new("b", ["beta"], "")).unwrap();
    assert_eq!(names(&m.feed("gamma")), ["b"]);
}

#[test]
fn unicode_word_boundary_on_non_ascii_text() {
    let mut fast = TtsrManager::new();
    fast.register(TtsrRule::new("word", ["\\bनियम\\b"], ""))
        .unwrap();
    let mut slow = TtsrManager::new();
    slow.register(TtsrRule::new("word", ["\\bनियम\\b"], ""))
        .unwrap();
    let text = "यह नियमों नहीं, यह नियम है";
    let mut fed = Vec::new();
    for piece in text.split_inclusive(' ') {
        fed.extend(names(&fast.feed(piece)));
    }
    assert_eq!(fed, names(&slow.check(text)));
    assert_eq!(fed, ["word"]);
}

fn patterns() -> impl Strategy<Value = Vec<String>> {
    let pattern = prop_oneof![
        Just("ab".to_owned()),
        Just("a+b".to_owned()),
        Just("^ba".to_owned()),
        Just("b$".to_owned()),
        Just("(?m)^a".to_owned()),
        Just("\\bab\\b".to_owned()),
        Just("a.{2,3}b".to_owned()),
        Just("[^a]{3}".to_owned()),
        Just("(?i)AB".to_owned()),
        Just("é".to_owned()),
        Just("\\s\\n".to_owned()),
        "[ab]{1,3}",
    ];
    prop::collection::vec(pattern, 1..6)
}

proptest! {
    /// Random streams split at random points: after every delta, `feed` reports exactly
    /// the rules `check` on the whole buffer reports.
    #[test]
    fn feed_equals_check_on_the_whole_buffer(
        conditions in patterns(),
        stream in "[ab \\néx]{0,60}",
        cuts in prop::collection::vec(0usize..60, 0..8),
    ) {
        let mut fed = TtsrManager::new();
        let mut checked = TtsrManager::new();
        for (i, c) in conditions.iter().enumerate() {
            let rule = TtsrRule::new(format!("r{i}"), [c.clone()], "");
            fed.register(rule.clone()).unwrap();
            checked.register(rule).unwrap();
        }
        let mut points: Vec<usize> = cuts
            .into_iter()
            .map(|c| c.min(stream.len()))
            .filter(|&c| stream.is_char_boundary(c))
            .collect();
        points.push(stream.len());
        points.sort_unstable();
        let mut last = 0;
        for point in points {
            let from_feed = names(&fed.feed(&stream[last..point]));
            let from_check = names(&checked.check(&stream[..point]));
            prop_assert_eq!(from_feed, from_check, "at {} of {:?}", point, stream);
            last = point;
        }
    }
}

#[test]
fn a_rule_fires_on_the_conditions_that_compile() {
    // The original registers a condition list with the patterns that compile (behaviour.md §12).
    let mut ttsr = TtsrManager::new();
    let registration = ttsr
        .register(TtsrRule::new("partial", ["(bad", "console\\.log"], "c"))
        .unwrap();
    assert_eq!(registration.dropped.len(), 1);
    assert!(registration.dropped[0].to_string().contains("(bad"));
    assert_eq!(ttsr.get("partial").unwrap().conditions, ["console\\.log"]);
    assert_eq!(ttsr.feed("console.log(1)")[0].name, "partial");
    // None compiles: refused, with the first error.
    let err = ttsr
        .register(TtsrRule::new("none", ["(bad", "[z-a]"], "c"))
        .unwrap_err();
    assert!(err.to_string().contains("(bad"), "{err}");
}

#[test]
fn validation_refuses_what_matching_could_not_build() {
    // Passed a forward-NFA check under the 10 MiB limit, then failed to compile when
    // matched: a trigger that could never fire. Now it is refused at registration, fast.
    let huge = r"(?:\w+){500}";
    let started = std::time::Instant::now();
    let why = rulebook_ttsr::validate_condition(huge).unwrap_err();
    assert!(why.to_string().contains("KiB allowed"), "{why}");
    // Not a timing assertion: a bound only a full compile (tens of ms each) would approach.
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // Everything that validates compiles with the matching engines' limit.
    for ok in [r"(?:\w+){20}", r"\bfoo\b", r"(?i)console\.(log|debug)"] {
        rulebook_ttsr::validate_condition(ok).unwrap();
        regex::Regex::new(ok).unwrap();
    }
}

/// Feeds `len` bytes of `unit` repeated, in 64-byte deltas, then `tail`; returns what fired
/// on the tail. Not a timing assertion: the bound is one only a re-scan of the whole turn
/// per delta (quadratic: minutes at these sizes) would break.
fn feed_long(ttsr: &mut TtsrManager, unit: &str, len: usize, tail: &str) -> Vec<String> {
    let text = unit.repeat(len / unit.len());
    let started = std::time::Instant::now();
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let mut cut = rest.len().min(64);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        assert!(ttsr.feed(&rest[..cut]).is_empty());
        rest = &rest[cut..];
    }
    let fired = names(&ttsr.feed(tail));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "feed took {:?}",
        started.elapsed()
    );
    fired
}

#[test]
fn feed_stays_linear_with_a_unicode_word_boundary_and_non_ascii_text() {
    let mut ttsr = TtsrManager::new();
    ttsr.register(TtsrRule::new("word", [r"\bneedle\b"], "c"))
        .unwrap();
    ttsr.register(TtsrRule::new("plain", ["haystack-end"], "c"))
        .unwrap();
    let fired = feed_long(&mut ttsr, "naïve café 日本語 text ", 2 << 20, " needle ");
    assert_eq!(fired, ["word"]);
    // `check` agrees: a word boundary next to a non-ASCII letter is not one.
    let mut check = TtsrManager::new();
    check
        .register(TtsrRule::new("word", [r"\bneedle\b"], "c"))
        .unwrap();
    assert!(check.feed("éneedle").is_empty());
    assert_eq!(names(&check.feed(" needle")), ["word"]);
}

#[test]
fn feed_stays_linear_with_thousands_of_triggers() {
    // ~3,800 triggers did not fit the lazy DFA's default cache: it was not built, and every
    // delta re-scanned the whole turn.
    let mut ttsr = TtsrManager::new();
    for i in 0..4_000 {
        ttsr.register(TtsrRule::new(
            format!("t{i}"),
            [format!(r"call_{i}\(\w+\)")],
            "c",
        ))
        .unwrap();
    }
    let fired = feed_long(&mut ttsr, "let x = compute(y); ", 256 << 10, "call_3999(z)");
    assert_eq!(fired, ["t3999"]);
}

/// Turns count from 0, one per `next_turn`; the manager's debug output names its rules.
#[test]
fn turns_count_and_debug_names_the_rules() {
    let mut manager = rulebook_ttsr::TtsrManager::new();
    assert_eq!(manager.turn(), 0);
    manager.next_turn();
    manager.next_turn();
    assert_eq!(manager.turn(), 2);
    manager
        .register(rulebook_ttsr::TtsrRule::new(
            "no-console",
            ["console\\.log"],
            "x",
        ))
        .unwrap();
    let debug = format!("{manager:?}");
    assert!(
        debug.contains("TtsrManager") && debug.contains("no-console"),
        "{debug}"
    );
}

/// A refused condition says what is wrong in the parser's words; only a pattern over the
/// compile budget gets the budget's explanation.
#[test]
fn why_a_condition_is_refused() {
    let syntax = rulebook_ttsr::validate_condition("(unclosed")
        .unwrap_err()
        .to_string();
    assert!(syntax.contains("unclosed group"), "{syntax}");
    let big = rulebook_ttsr::validate_condition("(?:\\w+){500}")
        .unwrap_err()
        .to_string();
    assert!(big.contains("KiB allowed for one TTSR condition"), "{big}");
    let count = rulebook_ttsr::validate_condition("a{99999999999}")
        .unwrap_err()
        .to_string();
    assert!(!count.contains("KiB allowed"), "{count}");
    // Too deep a nesting "exceeds" a maximum, but it is the parser's limit, not the budget.
    let deep = format!("{}a{}", "(".repeat(300), ")".repeat(300));
    let deep = rulebook_ttsr::validate_condition(&deep)
        .unwrap_err()
        .to_string();
    assert!(
        deep.contains("nested parentheses") && !deep.contains("KiB allowed"),
        "{deep}"
    );
}

/// A rule registered while a turn is being fed takes part from the next delta on.
#[test]
fn a_rule_registered_mid_turn_fires() {
    let mut manager = rulebook_ttsr::TtsrManager::new();
    manager
        .register(rulebook_ttsr::TtsrRule::new("first", ["alpha"], "a"))
        .unwrap();
    assert!(manager.feed("nothing here ").is_empty());
    manager
        .register(rulebook_ttsr::TtsrRule::new("second", ["beta"], "b"))
        .unwrap();
    let fired: Vec<String> = manager
        .feed("then beta and alpha")
        .into_iter()
        .map(|f| f.name.to_owned())
        .collect();
    assert_eq!(fired.len(), 2, "{fired:?}");
    assert!(fired.contains(&"second".to_owned()) && fired.contains(&"first".to_owned()));
}

fn fire(manager: &mut rulebook_ttsr::TtsrManager, delta: &str) -> Vec<String> {
    manager
        .feed(delta)
        .into_iter()
        .map(|f| f.name.to_owned())
        .collect()
}

/// A rule registered mid-turn fires on text fed earlier in the turn too (the stream reads
/// the turn again from its start), whichever engine runs its condition.
#[test]
fn a_rule_registered_mid_turn_sees_the_turn_so_far() {
    for condition in ["beta", "\\bbeta\\b"] {
        let mut manager = rulebook_ttsr::TtsrManager::new();
        manager
            .register(rulebook_ttsr::TtsrRule::new("first", ["alpha"], "a"))
            .unwrap();
        assert!(fire(&mut manager, "xx beta xx").is_empty());
        manager
            .register(rulebook_ttsr::TtsrRule::new("second", [condition], "b"))
            .unwrap();
        assert_eq!(fire(&mut manager, " yy"), ["second"], "{condition}");
        assert!(
            fire(&mut manager, " beta again").is_empty(),
            "once per turn"
        );
    }
}

/// `\b` is a Unicode word boundary: `é` is a word character.
#[test]
fn word_boundaries_are_unicode() {
    let mut manager = rulebook_ttsr::TtsrManager::new();
    manager
        .register(rulebook_ttsr::TtsrRule::new("foo", ["\\bfoo\\b"], "f"))
        .unwrap();
    assert!(fire(&mut manager, "éfoo ").is_empty());
    assert!(fire(&mut manager, "fooé").is_empty());
    assert_eq!(fire(&mut manager, " fo"), Vec::<String>::new());
    assert_eq!(
        fire(&mut manager, "o."),
        ["foo"],
        "a match split across deltas"
    );
}

/// A match split across deltas fires when its last byte arrives, with either engine.
#[test]
fn a_match_split_across_deltas_fires_once_complete() {
    for condition in ["console\\.log", "\\bconsole\\.log\\b"] {
        let mut manager = rulebook_ttsr::TtsrManager::new();
        manager
            .register(rulebook_ttsr::TtsrRule::new("log", [condition], "l"))
            .unwrap();
        assert!(fire(&mut manager, "x = cons").is_empty());
        assert!(fire(&mut manager, "ole.lo").is_empty());
        assert_eq!(fire(&mut manager, "g(1)"), ["log"], "{condition}");
    }
}

/// A new turn starts afresh: the start of a match in the last turn does not complete one.
#[test]
fn a_new_turn_forgets_the_last_ones_text() {
    for condition in ["console\\.log", "\\bconsole\\.log\\b"] {
        let mut manager = rulebook_ttsr::TtsrManager::new();
        manager
            .register(rulebook_ttsr::TtsrRule::new("log", [condition], "l"))
            .unwrap();
        assert!(fire(&mut manager, "x = console.").is_empty());
        manager.next_turn();
        assert!(fire(&mut manager, "log(1) ").is_empty(), "{condition}");
        assert_eq!(fire(&mut manager, "console.log"), ["log"], "{condition}");
    }
}

/// Validation is bounded for each condition and for all of them: a counted repetition of a
/// large class is refused from its parse, with no compile at all; conditions that must be
/// compiled to be decided spend at most the total budget, and the ones met after it are
/// refused and say why.
#[test]
fn validation_work_is_bounded_per_condition_and_in_total() {
    use rulebook_ttsr::{CONDITION_SIZE_LIMIT, TOTAL_CONDITION_BUDGET};
    let mut ttsr = TtsrManager::new();
    for i in 0..400 {
        let refused = ttsr
            .register(TtsrRule::new(
                format!("huge{i}"),
                [format!(r"(?:\w+){{500}}r{i}")],
                "c",
            ))
            .unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("KiB allowed for one TTSR condition"),
            "{refused}"
        );
    }
    assert_eq!(
        ttsr.validation_work(),
        0,
        "refused from the parse, never compiled"
    );
    // Ordinary conditions are decided from their parse too.
    for i in 0..1_000 {
        ttsr.register(TtsrRule::new(
            format!("word{i}"),
            [format!(r"\bcall_{i}\(\w+\)")],
            "c",
        ))
        .unwrap();
    }
    assert_eq!(ttsr.validation_work(), 0);
    // Heavy conditions (each compiles to most of a condition's budget) are compiled until
    // the total budget is spent; the rest are refused with the reason.
    let (mut taken, mut refused) = (0, 0);
    for i in 0..400 {
        match ttsr.register(TtsrRule::new(
            format!("heavy{i}"),
            [format!(r"(?:\w+){{45}}h{i}")],
            "c",
        )) {
            Ok(_) => taken += 1,
            Err(e) => {
                assert!(
                    e.to_string().contains("budget of all TTSR conditions"),
                    "{e}"
                );
                refused += 1;
            }
        }
    }
    assert!(taken > 0 && refused > 0, "taken {taken}, refused {refused}");
    assert!(ttsr.validation_work() <= TOTAL_CONDITION_BUDGET + CONDITION_SIZE_LIMIT);
    // A short literal is still taken once the budget is spent.
    ttsr.register(TtsrRule::new("literal", ["TODO: fix"], "c"))
        .unwrap();
}
