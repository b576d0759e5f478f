//! An incremental Thompson-NFA simulation (a Pike VM without captures): the linear fallback
//! for streams the lazy DFA cannot follow (a Unicode word boundary next to a non-ASCII byte).
//!
//! # How it works
//! All patterns are compiled into one multi-pattern [`NFA`]. The stream keeps the set of
//! NFA states reached by byte transitions into the current position (the *pending* set,
//! before its epsilon closure). For each new byte at position `p`:
//!
//! 1. the epsilon closure at `p` is taken from the pending set (threads that consumed at
//!    least one byte) and then from the anchored start state (a match starting at `p`: this
//!    is what makes the search unanchored). Look-around assertions are evaluated with
//!    [`LookMatcher::matches`] on the whole text, so their look-behind is exact, and their
//!    look-ahead (one character at most) is known because `p` is before the end;
//! 2. every `Match` state reached names a pattern that matches the text;
//! 3. the byte at `p` moves the closure's threads to the pending set of `p + 1`.
//!
//! At the current end of the text the look-ahead is not known yet (`$`, `\b`, … depend on
//! what comes next), so the closure there is deferred to the next delta. To find the matches
//! that end exactly at the current end, the closure at the end is taken once as if the text
//! ended there (an end-of-input probe); its result is thrown away and the pending set is kept.
//!
//! # Cost
//! Every byte of the stream is read once: one closure and one step, each touching every NFA
//! state at most once (O(number of NFA states) per byte; a `Sparse` state scans its
//! transitions). Each delta adds one end-of-input probe, another closure. The closure uses an
//! explicit stack, so a huge NFA cannot overflow the call stack. Threads that can only lead
//! to patterns already matched this turn are dropped, and once every pattern has matched the
//! rest of the turn costs nothing.
//!
//! # Empty matches inside a character
//! Some ASCII-only assertions (`(?-u:\B)`, `(?-u:\b{start-half})`, …) can hold between the
//! bytes of a multi-byte character. Like the `regex` crate (UTF-8 mode), an empty match there
//! does not count: an empty match is accepted only at a character boundary. Non-empty matches
//! always cover whole characters (UTF-8 mode only compiles valid UTF-8 sequences).

use regex_automata::nfa::thompson::{self, NFA, State, WhichCaptures};
use regex_automata::util::look::{Look, LookMatcher};
use regex_automata::util::primitives::{PatternID, StateID};

/// The patterns a thread in an NFA state can still lead to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// No `Match` state is reachable: the thread is dead.
    Nothing,
    /// Only the `Match` state of this pattern is reachable.
    One(PatternID),
    /// The `Match` states of two patterns or more are reachable.
    Many,
}

impl Reach {
    /// What a state reaches when one of its successors reaches `other` too.
    fn merge(self, other: Self) -> Self {
        match (self, other) {
            (Self::Nothing, x) | (x, Self::Nothing) => x,
            (Self::One(a), Self::One(b)) if a == b => self,
            _ => Self::Many,
        }
    }
}

/// A set of NFA states with O(1) insertion, membership and clearing, iterated in insertion
/// order (the classic sparse set; `sparse` may hold stale slots, which `dense` disproves).
#[derive(Debug, Clone)]
struct SparseSet {
    /// The members, in insertion order.
    dense: Vec<StateID>,
    /// For each state, its slot in `dense` if it is a member.
    sparse: Vec<usize>,
}

impl SparseSet {
    /// An empty set for states `0..capacity`.
    fn new(capacity: usize) -> Self {
        Self {
            dense: Vec::with_capacity(capacity),
            sparse: vec![0; capacity],
        }
    }

    /// Empties the set.
    fn clear(&mut self) {
        self.dense.clear();
    }

    /// Adds `id`; `false` when it was a member already.
    fn insert(&mut self, id: StateID) -> bool {
        let slot = self.sparse[id.as_usize()];
        if self.dense.get(slot) == Some(&id) {
            return false;
        }
        self.sparse[id.as_usize()] = self.dense.len();
        self.dense.push(id);
        true
    }

    /// The members, in insertion order.
    fn as_slice(&self) -> &[StateID] {
        &self.dense
    }

    /// Whether the set is empty.
    fn is_empty(&self) -> bool {
        self.dense.is_empty()
    }
}

/// The compiled patterns: the NFA and, for each of its states, what a thread there can reach.
#[derive(Debug)]
struct Program {
    /// The multi-pattern NFA; pattern `i` is the `i`-th source.
    nfa: NFA,
    /// Indexed by state ID.
    reach: Vec<Reach>,
}

impl Program {
    /// Whether a thread in `sid` can still lead to a pattern not matched yet.
    fn alive(&self, sid: StateID, matched: &Matched) -> bool {
        match self.reach[sid.as_usize()] {
            Reach::Nothing => false,
            Reach::One(pid) => !matched.flags[pid.as_usize()],
            Reach::Many => true,
        }
    }
}

/// The patterns matched this turn.
#[derive(Debug, Clone)]
struct Matched {
    /// Indexed by pattern.
    flags: Vec<bool>,
    /// How many flags are still `false`.
    remaining: usize,
}

impl Matched {
    /// Nothing matched, for `len` patterns.
    fn new(len: usize) -> Self {
        Self {
            flags: vec![false; len],
            remaining: len,
        }
    }

    /// Records that `pid` matches; reports it the first time.
    fn record(&mut self, pid: PatternID, on_match: &mut dyn FnMut(usize)) {
        let flag = &mut self.flags[pid.as_usize()];
        if !*flag {
            *flag = true;
            self.remaining -= 1;
            on_match(pid.as_usize());
        }
    }
}

/// The look-around assertions at one position, each evaluated at most once.
struct Looks<'h> {
    /// The NFA's matcher.
    matcher: &'h LookMatcher,
    /// The whole text so far.
    haystack: &'h [u8],
    /// The position.
    at: usize,
    /// The assertions evaluated so far (bits of [`Look::as_repr`]).
    known: u32,
    /// Those of them that hold.
    holds: u32,
}

impl<'h> Looks<'h> {
    /// No assertion evaluated yet at `at` in `haystack`.
    fn new(matcher: &'h LookMatcher, haystack: &'h [u8], at: usize) -> Self {
        Self {
            matcher,
            haystack,
            at,
            known: 0,
            holds: 0,
        }
    }

    /// Whether `look` holds here.
    fn holds(&mut self, look: Look) -> bool {
        let bit = look.as_repr();
        if self.known & bit == 0 {
            self.known |= bit;
            // Unicode word boundaries need the `unicode-word-boundary` feature of
            // regex-automata, which the `regex` crate (a dependency of this crate) enables.
            if self.matcher.matches(look, self.haystack, self.at) {
                self.holds |= bit;
            }
        }
        self.holds & bit != 0
    }
}

/// One epsilon closure in progress.
struct Closure<'a> {
    /// The compiled patterns.
    program: &'a Program,
    /// The patterns matched so far.
    matched: &'a mut Matched,
    /// The assertions at the closure's position.
    looks: Looks<'a>,
    /// The states of the closure.
    set: &'a mut SparseSet,
    /// The depth-first stack.
    stack: &'a mut Vec<StateID>,
    /// Called for each pattern matched for the first time.
    on_match: &'a mut dyn FnMut(usize),
}

impl Closure<'_> {
    /// Adds `seed` and everything reachable from it by epsilon transitions to the set;
    /// `Match` states reached are recorded when `may_match` (false only for empty matches
    /// inside a character).
    fn explore(&mut self, seed: StateID, may_match: bool) {
        self.stack.push(seed);
        while let Some(mut sid) = self.stack.pop() {
            // Follow the first alternative in place, push the others.
            loop {
                if !self.program.alive(sid, self.matched) || !self.set.insert(sid) {
                    break;
                }
                match *self.program.nfa.state(sid) {
                    State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) | State::Fail => {
                        break;
                    }
                    State::Match { pattern_id } => {
                        if may_match {
                            self.matched.record(pattern_id, self.on_match);
                        }
                        break;
                    }
                    State::Look { look, next } => {
                        if !self.looks.holds(look) {
                            break;
                        }
                        sid = next;
                    }
                    State::Union { ref alternates } => {
                        let Some((&first, rest)) = alternates.split_first() else {
                            break;
                        };
                        self.stack.extend(rest.iter().rev());
                        sid = first;
                    }
                    State::BinaryUnion { alt1, alt2 } => {
                        self.stack.push(alt2);
                        sid = alt1;
                    }
                    State::Capture { next, .. } => sid = next,
                }
            }
        }
    }
}

/// The state of one turn's stream in the NFA of a set of patterns.
#[derive(Debug)]
pub(crate) struct NfaStream {
    /// The compiled patterns.
    program: Program,
    /// The states reached by byte transitions into position `pos`, before their epsilon
    /// closure (which needs the look-ahead at `pos`).
    pending: SparseSet,
    /// The epsilon closure being built or stepped (scratch).
    closure: SparseSet,
    /// The closure's depth-first stack (scratch).
    stack: Vec<StateID>,
    /// How many bytes of the stream were read.
    pos: usize,
    /// The patterns matched this turn.
    matched: Matched,
}

impl NfaStream {
    /// Compiles `patterns` (regex crate syntax, Unicode on, same as `regex::Regex::new`) into
    /// one multi-pattern NFA; pattern `i` keeps index `i`. `size_limit` bounds the NFA's heap
    /// size in bytes (`None`: no limit).
    #[allow(
        clippy::result_large_err,
        reason = "built once per change of the pattern set, off the per-byte path"
    )]
    pub(crate) fn new(
        patterns: &[&str],
        size_limit: Option<usize>,
    ) -> Result<Self, thompson::BuildError> {
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    .nfa_size_limit(size_limit)
                    .shrink(false)
                    .which_captures(WhichCaptures::None),
            )
            .build_many(patterns)?;
        let states = nfa.states().len();
        let reach = reach_table(&nfa);
        let matched = Matched::new(nfa.pattern_len());
        Ok(Self {
            program: Program { nfa, reach },
            pending: SparseSet::new(states),
            closure: SparseSet::new(states),
            stack: Vec::new(),
            pos: 0,
            matched,
        })
    }

    /// Forgets the stream (a new turn): empty state set, nothing matched.
    pub(crate) fn reset(&mut self) {
        self.pending.clear();
        self.pos = 0;
        self.matched = Matched::new(self.matched.flags.len());
    }

    /// Advances over `text[consumed..]`, where `text` is the whole stream so far (valid UTF-8,
    /// complete characters) and `consumed` is its length at the previous call (0 after
    /// [`reset`](Self::reset)). Calls `on_match(i)` once for each pattern `i` that matches
    /// `text` (anywhere, `is_match` semantics) and had not matched before in this turn, in the
    /// order they are found. Each pattern is reported at most once per turn.
    ///
    /// If `consumed` is not the number of bytes this stream has read (a stream built
    /// mid-turn, say), the whole `text` is read again from its start; patterns matched
    /// already stay matched.
    pub(crate) fn advance(&mut self, text: &str, consumed: usize, on_match: &mut dyn FnMut(usize)) {
        if consumed != self.pos || self.pos > text.len() {
            self.pending.clear();
            self.pos = 0;
        }
        let haystack = text.as_bytes();
        while self.pos < haystack.len() && self.matched.remaining > 0 {
            let at = self.pos;
            self.close(haystack, at, text.is_char_boundary(at), on_match);
            self.step(haystack[at]);
            self.pos += 1;
        }
        self.pos = haystack.len();
        if self.matched.remaining > 0 {
            // The end-of-input probe: the closure at the end as if the text ended here. The
            // pending set stays as it is; the next delta takes the closure at this position
            // again, with the look-ahead known.
            self.close(haystack, haystack.len(), true, on_match);
        }
    }

    /// Takes the epsilon closure at `at` of the pending set and of the start state into
    /// `self.closure`, recording the patterns whose `Match` state it reaches.
    /// `char_boundary`: whether `at` is a character boundary (empty matches count only there).
    fn close(
        &mut self,
        haystack: &[u8],
        at: usize,
        char_boundary: bool,
        on_match: &mut dyn FnMut(usize),
    ) {
        self.closure.clear();
        let mut closure = Closure {
            program: &self.program,
            matched: &mut self.matched,
            looks: Looks::new(self.program.nfa.look_matcher(), haystack, at),
            set: &mut self.closure,
            stack: &mut self.stack,
            on_match,
        };
        // Threads that consumed a byte first: a `Match` state they reach ends a non-empty
        // match. Then a match starting here: a `Match` state reached only from the start
        // state ends an empty match.
        for &seed in self.pending.as_slice() {
            closure.explore(seed, true);
        }
        closure.explore(self.program.nfa.start_anchored(), char_boundary);
    }

    /// Moves the threads of `self.closure` over `byte` into `self.pending`.
    fn step(&mut self, byte: u8) {
        self.pending.clear();
        if self.closure.is_empty() {
            return;
        }
        for &sid in self.closure.as_slice() {
            let next = match *self.program.nfa.state(sid) {
                State::ByteRange { ref trans } => trans.matches_byte(byte).then_some(trans.next),
                State::Sparse(ref sparse) => sparse.matches_byte(byte),
                State::Dense(ref dense) => dense.matches_byte(byte),
                State::Look { .. }
                | State::Union { .. }
                | State::BinaryUnion { .. }
                | State::Capture { .. }
                | State::Fail
                | State::Match { .. } => None,
            };
            if let Some(next) = next {
                if self.program.alive(next, &self.matched) {
                    self.pending.insert(next);
                }
            }
        }
    }
}

/// The targets of the transitions out of `state` (epsilon or not), into `out`.
fn successors(state: &State, out: &mut Vec<StateID>) {
    out.clear();
    match *state {
        State::ByteRange { ref trans } => out.push(trans.next),
        State::Sparse(ref sparse) => out.extend(sparse.transitions.iter().map(|t| t.next)),
        State::Dense(ref dense) => {
            out.extend(dense.transitions.iter().filter(|&&t| t != StateID::ZERO));
            out.dedup();
        }
        State::Look { next, .. } | State::Capture { next, .. } => out.push(next),
        State::Union { ref alternates } => out.extend(alternates.iter()),
        State::BinaryUnion { alt1, alt2 } => out.extend([alt1, alt2]),
        State::Fail | State::Match { .. } => {}
    }
}

/// For each state of `nfa`, the patterns whose `Match` state it reaches: a backward
/// traversal from the `Match` states, in which a state's label changes at most twice
/// (`Nothing` → `One` → `Many`), so O(states + transitions).
fn reach_table(nfa: &NFA) -> Vec<Reach> {
    let states = nfa.states();
    let n = states.len();
    let mut out = Vec::new();
    // The predecessors of each state, as one flat array (`starts[t]..starts[t + 1]`).
    let mut starts = vec![0usize; n + 1];
    for state in states {
        successors(state, &mut out);
        for &t in &out {
            starts[t.as_usize() + 1] += 1;
        }
    }
    for i in 0..n {
        starts[i + 1] += starts[i];
    }
    let mut fill = starts.clone();
    let mut preds = vec![0usize; starts[n]];
    for (s, state) in states.iter().enumerate() {
        successors(state, &mut out);
        for &t in &out {
            preds[fill[t.as_usize()]] = s;
            fill[t.as_usize()] += 1;
        }
    }
    let mut reach = vec![Reach::Nothing; n];
    let mut work = Vec::new();
    for (s, state) in states.iter().enumerate() {
        if let State::Match { pattern_id } = *state {
            reach[s] = Reach::One(pattern_id);
            work.push(s);
        }
    }
    while let Some(t) = work.pop() {
        for &p in &preds[starts[t]..starts[t + 1]] {
            let merged = reach[p].merge(reach[t]);
            if merged != reach[p] {
                reach[p] = merged;
                work.push(p);
            }
        }
    }
    reach
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests")]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use regex::Regex;

    /// Feeds `text` cut at `cuts` (ascending char boundaries, the last one `text.len()`) and
    /// checks after each delta that the patterns reported so far are exactly those that
    /// `Regex::is_match` finds in some prefix fed so far.
    fn check(stream: &mut NfaStream, regexes: &[Regex], text: &str, cuts: &[usize]) {
        stream.reset();
        let mut reported = vec![false; regexes.len()];
        let mut expected = vec![false; regexes.len()];
        let mut consumed = 0;
        for &cut in cuts {
            let prefix = &text[..cut];
            let mut newly = Vec::new();
            stream.advance(prefix, consumed, &mut |i| newly.push(i));
            consumed = cut;
            for i in newly {
                assert!(
                    !reported[i],
                    "pattern {:?} reported twice",
                    regexes[i].as_str()
                );
                reported[i] = true;
            }
            for (i, re) in regexes.iter().enumerate() {
                expected[i] = expected[i] || re.is_match(prefix);
                assert_eq!(
                    reported[i],
                    expected[i],
                    "pattern {:?}, text {text:?}, cuts {cuts:?}, after prefix {prefix:?}",
                    re.as_str(),
                );
            }
        }
    }

    /// The char boundaries of `text`, from 0 to its length.
    fn boundaries(text: &str) -> Vec<usize> {
        text.char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect()
    }

    const PATTERNS: &[&str] = &[
        "",
        "foo",
        "foo|bar",
        "[a-c]+x",
        r"a.b",
        r"(?s)a.b",
        r"x*",
        r"\bfoo\b",
        r"\Bfoo",
        r"foo\B",
        r"\b",
        r"\B",
        r"(?-u:\b)foo(?-u:\b)",
        r"(?-u:\b)",
        r"(?-u:\B)",
        r"(?-u:\B)é",
        r"\b{start}\w+",
        r"\w+\b{end}",
        r"\b{start}",
        r"\b{end}",
        r"\b{start-half}é",
        r"é\b{end-half}",
        r"\b{start-half}\b{end-half}",
        r"(?-u:\b{start})a",
        r"a(?-u:\b{end})",
        r"(?-u:\b{start-half})é",
        r"é(?-u:\b{end-half})",
        "^",
        "$",
        "^$",
        "^foo",
        "foo$",
        r"(?m)^foo$",
        r"(?m)^$",
        r"(?m)^b",
        r"(?m)foo$",
        r"(?Rm)^foo$",
        r"(?Rm)^$",
        r"(?Rm)$",
        r"(?Rm)^",
        r"(?m)$\n?^b",
        r"\Afoo",
        r"foo\z",
        r"\A\z",
        r"\w+",
        r"\W",
        r"\bnaïve\b",
        r"\bna",
        r"ïve\b",
        r"\b日本\b",
        r"\b日本語\b",
        r"\bé",
        r"é\b",
        r"\Bé",
        r"é\B",
        r"\p{Han}+",
        r"[^\x00-\x7F]",
        "😀",
        r"\b😀",
        r"😀\B",
        r"(?i)CAFÉ",
        r"café\b",
        r"\bcafé",
        r"\d+$",
        r"\b\w+\b \b\w+\b",
        r"(foo|é)+\b",
        r"[aé日]{2}\b",
        r"\s+$",
    ];

    const TEXTS: &[&str] = &[
        "",
        "foo",
        "foo bar",
        "foobar",
        "barfoo",
        "a foo b",
        "é",
        "éfoo",
        "fooé",
        "foo é",
        "naïve",
        "a naïve café",
        "naïvefoo",
        "日本語",
        "日本 語",
        "日本語foo",
        "x😀y",
        "😀",
        " 😀 ",
        "line1\nfoo\nbar",
        "foo\r\nbar",
        "\r\n",
        "\n",
        "\r",
        "a\r\nfoo\r\n",
        "CAFÉ café",
        "123",
        "12 ",
        "aéb",
        "abx",
        "a\nb",
        "axb",
        "a\u{e9}\u{301}",
        "é日😀a_1 -\r\n",
    ];

    fn regexes(patterns: &[&str]) -> Vec<Regex> {
        patterns.iter().map(|p| Regex::new(p).unwrap()).collect()
    }

    #[test]
    fn each_pattern_alone_every_split() {
        for &pattern in PATTERNS {
            let res = regexes(&[pattern]);
            let mut stream = NfaStream::new(&[pattern], None).unwrap();
            for &text in TEXTS {
                let bounds = boundaries(text);
                // One character per delta, starting with an empty delta.
                check(&mut stream, &res, text, &bounds);
                // Every cut in two.
                for &cut in &bounds {
                    check(&mut stream, &res, text, &[cut, text.len()]);
                }
            }
        }
    }

    #[test]
    fn all_patterns_together() {
        let res = regexes(PATTERNS);
        let mut stream = NfaStream::new(PATTERNS, None).unwrap();
        for &text in TEXTS {
            let bounds = boundaries(text);
            check(&mut stream, &res, text, &bounds);
            check(&mut stream, &res, text, &[text.len()]);
        }
    }

    #[test]
    fn empty_match_inside_a_character_does_not_count() {
        // `(?-u:\B)` holds only between the two bytes of "é" in "aéb": not a match.
        let mut stream = NfaStream::new(&[r"(?-u:\B)"], None).unwrap();
        stream.advance("aéb", 0, &mut |_| {
            panic!("an empty match inside a character")
        });
        // Here `aéb` matches as a literal. (`regex` 1.13 says no: its search finds the empty
        // match inside "é" first, rejects it, and resumes one byte after the start, past the
        // start of `aéb`.)
        let mut stream = NfaStream::new(&[r"(?-u:\B)|aéb"], None).unwrap();
        let mut seen = Vec::new();
        stream.advance("aéb", 0, &mut |i| seen.push(i));
        assert_eq!(seen, [0]);
    }

    #[test]
    fn reports_once_per_turn_and_again_after_reset() {
        let mut stream = NfaStream::new(&["foo", r"\bbar\b"], None).unwrap();
        let mut seen = Vec::new();
        stream.advance("foo", 0, &mut |i| seen.push(i));
        stream.advance("foo foo", 3, &mut |i| seen.push(i));
        stream.advance("foo foo bar", 7, &mut |i| seen.push(i));
        stream.advance("foo foo bar bar", 11, &mut |i| seen.push(i));
        assert_eq!(seen, [0, 1]);
        stream.reset();
        seen.clear();
        stream.advance("ba", 0, &mut |i| seen.push(i));
        assert!(seen.is_empty());
        stream.advance("bar", 2, &mut |i| seen.push(i));
        assert_eq!(seen, [1]);
    }

    #[test]
    fn deferred_look_ahead_at_the_end() {
        // `foo\b` holds at the end of "foo" but not once "d" follows; the probe reports the
        // former, the stream must not keep a stale `\b` for the latter.
        let mut stream = NfaStream::new(&[r"foo\bd", r"foo\Bd", r"é\b"], None).unwrap();
        let mut seen = Vec::new();
        stream.advance("foo", 0, &mut |i| seen.push(i));
        stream.advance("food", 3, &mut |i| seen.push(i));
        assert_eq!(seen, [1]);
        stream.advance("foodé", 4, &mut |i| seen.push(i));
        assert_eq!(seen, [1, 2]);
    }

    #[test]
    fn catches_up_when_consumed_disagrees() {
        let mut stream = NfaStream::new(&["ab"], None).unwrap();
        let mut seen = Vec::new();
        // A stream built mid-turn, told that 3 bytes were read: it reads the text again.
        stream.advance("xab yz", 3, &mut |i| seen.push(i));
        assert_eq!(seen, [0]);
    }

    #[test]
    fn no_patterns_and_size_limit() {
        let mut stream = NfaStream::new(&[], None).unwrap();
        stream.advance("anything", 0, &mut |_| panic!("no pattern"));
        assert!(NfaStream::new(&[r"\w{1000}"], Some(1000)).is_err());
        assert!(NfaStream::new(&["("], None).is_err());
    }

    #[test]
    fn one_mebibyte_in_64_byte_deltas() {
        let unit = "naïve café 日本語 foobar 😀 _foo ";
        let mut text = String::new();
        while text.len() < 1 << 20 {
            text.push_str(unit);
        }
        text.push_str("foo");
        let patterns = [r"\bfoo\b", r"\bzzz\b", r"\bcafé\b"];
        let mut stream = NfaStream::new(&patterns, None).unwrap();
        let mut seen = Vec::new();
        let mut consumed = 0;
        let mut deltas = 0;
        while consumed < text.len() {
            let mut cut = (consumed + 64).min(text.len());
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            let before = seen.len();
            stream.advance(&text[..cut], consumed, &mut |i| seen.push(i));
            if seen.len() > before && seen.contains(&0) {
                // `\bfoo\b` only at the very end.
                assert_eq!(cut, text.len());
            }
            consumed = cut;
            deltas += 1;
        }
        assert!(deltas > 16_000);
        assert_eq!(seen, [2, 0]);
        assert!(Regex::new(patterns[0]).unwrap().is_match(&text));
        assert!(!Regex::new(patterns[1]).unwrap().is_match(&text));
    }

    /// Pieces of random patterns.
    const PIECES: &[&str] = &[
        "a",
        "b",
        "é",
        "日",
        "😀",
        " ",
        r"\n",
        r"\r",
        ".",
        r"\w",
        r"\W",
        r"\d",
        r"\s",
        "[aé]",
        "[^a]",
        "a*",
        "(?:a|é)+",
        "b?",
        r"\w*",
        r"\b",
        r"\B",
        r"(?-u:\b)",
        r"\b{start}",
        r"\b{end}",
        r"\b{start-half}",
        r"\b{end-half}",
        r"(?-u:\b{start})",
        r"(?-u:\b{end})",
        "^",
        "$",
        "(?m:^)",
        "(?m:$)",
        "(?Rm:^)",
        "(?Rm:$)",
        r"\A",
        r"\z",
        "(?i:É)",
    ];

    /// Characters of random texts.
    const CHARS: &[char] = &[
        'a', 'b', 'é', '日', '😀', ' ', '\n', '\r', '1', '_', '-', 'A', 'É',
    ];

    fn pattern() -> impl Strategy<Value = String> {
        let concat = prop::collection::vec(prop::sample::select(PIECES), 1..5)
            .prop_map(|pieces| pieces.concat());
        prop::collection::vec(concat, 1..3).prop_map(|alts| alts.join("|"))
    }

    proptest! {
        #[test]
        fn random_patterns_and_splits(
            patterns in prop::collection::vec(pattern(), 1..4),
            chars in prop::collection::vec((prop::sample::select(CHARS), any::<bool>()), 0..16),
        ) {
            let text: String = chars.iter().map(|&(c, _)| c).collect();
            let mut cuts = vec![0];
            let mut at = 0;
            for &(c, cut) in &chars {
                at += c.len_utf8();
                if cut {
                    cuts.push(at);
                }
            }
            cuts.push(text.len());
            cuts.dedup();
            let sources: Vec<&str> = patterns.iter().map(String::as_str).collect();
            let res = regexes(&sources);
            let mut stream = NfaStream::new(&sources, None).unwrap();
            check(&mut stream, &res, &text, &cuts);
            check(&mut stream, &res, &text, &boundaries(&text));
        }
    }
}
