//! The incremental matcher behind `TtsrManager::feed`.

use regex_automata::hybrid::LazyStateID;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};

/// The compiled automaton for the current set of patterns.
struct Automaton {
    dfa: DFA,
    cache: Cache,
}

/// One turn's stream.
#[derive(Default)]
pub(crate) struct Stream {
    automaton: Option<Automaton>,
    /// The patterns changed since the automaton was built.
    stale: bool,
    /// Where the DFA stands after the bytes of `text` it has read.
    state: Option<LazyStateID>,
    /// The whole turn so far.
    text: String,
    /// Patterns (flat indices) seen matching this turn, reported or not.
    matched: Vec<bool>,
    /// The DFA could not go on (a Unicode word boundary next to a non-ASCII byte); the
    /// rest of the turn re-tests the whole text.
    slow: bool,
}

impl Stream {
    pub(crate) fn invalidate(&mut self) {
        self.stale = true;
    }

    pub(crate) fn reset(&mut self) {
        self.text.clear();
        self.state = None;
        self.matched.iter_mut().for_each(|m| *m = false);
        self.slow = false;
    }

    /// Appends `delta` and returns the patterns that match the whole text now but did not
    /// before, in pattern order.
    /// `patterns` are the sources of every condition; `slow(i, text)` tests pattern `i`
    /// against `text` with a compiled regex, for the slow path.
    pub(crate) fn feed(
        &mut self,
        delta: &str,
        patterns: &[&str],
        slow: impl Fn(usize, &str) -> bool,
    ) -> Vec<usize> {
        let start = self.text.len();
        self.text.push_str(delta);
        if self.stale || self.matched.len() != patterns.len() {
            self.rebuild(patterns);
            // Catch up on the whole turn with the new automaton.
            return self.advance(0, slow);
        }
        self.advance(start, slow)
    }

    fn rebuild(&mut self, patterns: &[&str]) {
        self.stale = false;
        self.state = None;
        self.slow = false;
        self.matched = vec![false; patterns.len()];
        self.automaton = build(patterns).ok();
    }

    fn advance(&mut self, from: usize, slow: impl Fn(usize, &str) -> bool) -> Vec<usize> {
        let mut newly = Vec::new();
        if !self.slow && !self.run_dfa(from, &mut newly) {
            self.slow = true;
        }
        if self.slow {
            for i in 0..self.matched.len() {
                if !self.matched[i] && slow(i, &self.text) {
                    self.matched[i] = true;
                    newly.push(i);
                }
            }
        }
        newly.sort_unstable();
        newly.dedup();
        newly
    }

    /// Runs the DFA over `text[from..]`; `false` when it cannot (no automaton, a quit byte,
    /// or a cache error).
    fn run_dfa(&mut self, from: usize, newly: &mut Vec<usize>) -> bool {
        let Some(Automaton { dfa, cache }) = self.automaton.as_mut() else {
            return false;
        };
        let mut sid = match self.state {
            Some(sid) if from > 0 => sid,
            _ => {
                let config = start::Config::new().anchored(Anchored::No);
                match dfa.start_state(cache, &config) {
                    Ok(sid) => sid,
                    Err(_) => return false,
                }
            }
        };
        for &byte in &self.text.as_bytes()[from..] {
            sid = match dfa.next_state(cache, sid, byte) {
                Ok(next) => next,
                Err(_) => return false,
            };
            if sid.is_tagged() {
                if sid.is_quit() || sid.is_unknown() {
                    return false;
                }
                if sid.is_match() {
                    record(dfa, cache, sid, &mut self.matched, newly);
                }
            }
        }
        self.state = Some(sid);
        // The end-of-input transition, on a copy: matches that end at the current end.
        match dfa.next_eoi_state(cache, sid) {
            Ok(eoi) if eoi.is_match() => record(dfa, cache, eoi, &mut self.matched, newly),
            Ok(eoi) if eoi.is_quit() => return false,
            Ok(_) => {}
            Err(_) => return false,
        }
        true
    }
}

fn record(
    dfa: &DFA,
    cache: &Cache,
    sid: LazyStateID,
    matched: &mut [bool],
    newly: &mut Vec<usize>,
) {
    for i in 0..dfa.match_len(cache, sid) {
        let pattern = dfa.match_pattern(cache, sid, i).as_usize();
        if let Some(m) = matched.get_mut(pattern) {
            if !*m {
                *m = true;
                newly.push(pattern);
            }
        }
    }
}

fn build(sources: &[&str]) -> Result<Automaton, Box<dyn std::error::Error>> {
    let dfa = DFA::builder()
        .configure(
            DFA::config()
                .match_kind(MatchKind::All)
                .unicode_word_boundary(true),
        )
        .build_many(sources)?;
    let cache = dfa.create_cache();
    Ok(Automaton { dfa, cache })
}
