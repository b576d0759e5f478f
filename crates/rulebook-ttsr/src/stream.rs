//! The incremental matcher behind `TtsrManager::feed`.
//!
//! Two engines share the patterns, and both read each byte of the stream once:
//! - a multi-pattern lazy DFA (regex-automata's hybrid DFA) for every pattern it can follow,
//!   the fast path;
//! - an incremental NFA simulation ([`NfaStream`]) for the patterns with a Unicode word
//!   boundary (`\b` with Unicode on), which the lazy DFA cannot evaluate next to a
//!   non-ASCII byte, and for every pattern should the DFA fail (it should not: its cache
//!   may not fit the patterns, so it is built to work with the minimum cache and clears it
//!   as it goes, slower per byte but still linear).
//!
//! Neither path ever re-scans the turn, so `feed` is linear in the stream in every case.

use regex_automata::hybrid::LazyStateID;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};

use crate::nfa_stream::NfaStream;

/// The lazy DFA's cache: enough for hundreds of triggers without clearing; a set that needs
/// more still works (see the module docs).
const DFA_CACHE_CAPACITY: usize = 8 * (1 << 20);

/// The lazy DFA over some of the patterns.
struct Automaton {
    dfa: DFA,
    cache: Cache,
    /// The flat index of each of its patterns.
    patterns: Vec<usize>,
    /// Where it stands after the bytes of the turn it has read.
    state: Option<LazyStateID>,
}

/// The NFA simulation over the other patterns.
struct Fallback {
    nfa: NfaStream,
    /// The flat index of each of its patterns.
    patterns: Vec<usize>,
    /// How many bytes of the turn it has read.
    consumed: usize,
}

/// One turn's stream.
#[derive(Default)]
pub(crate) struct Stream {
    dfa: Option<Automaton>,
    nfa: Option<Fallback>,
    /// The patterns changed since the engines were built.
    stale: bool,
    /// The sources of the patterns the engines were built from.
    sources: Vec<String>,
    /// The whole turn so far.
    text: String,
    /// Patterns (flat indices) seen matching this turn, reported or not.
    matched: Vec<bool>,
}

impl Stream {
    pub(crate) fn invalidate(&mut self) {
        self.stale = true;
    }

    pub(crate) fn reset(&mut self) {
        self.text.clear();
        self.matched.iter_mut().for_each(|m| *m = false);
        if let Some(dfa) = &mut self.dfa {
            dfa.state = None;
        }
        if let Some(nfa) = &mut self.nfa {
            nfa.nfa.reset();
            nfa.consumed = 0;
        }
    }

    /// Appends `delta` and returns the patterns that match the whole text now but did not
    /// before, in pattern order. `patterns` are the sources of every condition.
    pub(crate) fn feed(&mut self, delta: &str, patterns: &[&str]) -> Vec<usize> {
        let start = self.text.len();
        self.text.push_str(delta);
        if self.stale || self.matched.len() != patterns.len() {
            self.rebuild(patterns);
            // Catch up on the whole turn with the new engines.
            return self.advance(0);
        }
        self.advance(start)
    }

    fn rebuild(&mut self, patterns: &[&str]) {
        self.stale = false;
        self.matched = vec![false; patterns.len()];
        self.sources = patterns.iter().map(|&p| p.to_owned()).collect();
        let (fast, slow): (Vec<usize>, Vec<usize>) =
            (0..patterns.len()).partition(|&i| !has_unicode_word_boundary(patterns[i]));
        self.dfa = None;
        let mut slow = slow;
        if !fast.is_empty() {
            let sources: Vec<&str> = fast.iter().map(|&i| patterns[i]).collect();
            match build_dfa(&sources) {
                Some((dfa, cache)) => {
                    self.dfa = Some(Automaton {
                        dfa,
                        cache,
                        patterns: fast,
                        state: None,
                    });
                }
                None => slow.extend(fast),
            }
        }
        slow.sort_unstable();
        self.nfa = build_fallback(&self.sources, slow);
    }

    fn advance(&mut self, from: usize) -> Vec<usize> {
        let mut newly = Vec::new();
        let dfa_failed = match &mut self.dfa {
            Some(automaton) => !automaton.run(&self.text, from, &mut self.matched, &mut newly),
            None => false,
        };
        if dfa_failed {
            // Not expected (no quit bytes, no cache limit); hand its patterns to the NFA,
            // which reads the turn once from the start and is linear from then on.
            if let Some(automaton) = self.dfa.take() {
                let mut slow = automaton.patterns;
                if let Some(fallback) = self.nfa.take() {
                    slow.extend(fallback.patterns);
                }
                slow.sort_unstable();
                self.nfa = build_fallback(&self.sources, slow);
            }
        }
        if let Some(fallback) = &mut self.nfa {
            let Fallback {
                nfa,
                patterns,
                consumed,
            } = fallback;
            let matched = &mut self.matched;
            nfa.advance(&self.text, *consumed, &mut |local| {
                let pattern = patterns[local];
                if !matched[pattern] {
                    matched[pattern] = true;
                    newly.push(pattern);
                }
            });
            *consumed = self.text.len();
        }
        newly.sort_unstable();
        newly.dedup();
        newly
    }
}

impl Automaton {
    /// Runs the DFA over `text[from..]`, recording matches; `false` when it cannot go on (a
    /// quit byte or a cache error: neither is expected with its configuration).
    fn run(
        &mut self,
        text: &str,
        from: usize,
        matched: &mut [bool],
        newly: &mut Vec<usize>,
    ) -> bool {
        let Self {
            dfa,
            cache,
            patterns,
            state,
        } = self;
        let mut sid = match *state {
            Some(sid) if from > 0 => sid,
            _ => {
                let config = start::Config::new().anchored(Anchored::No);
                match dfa.start_state(cache, &config) {
                    Ok(sid) => sid,
                    Err(_) => return false,
                }
            }
        };
        let mut record = |cache: &Cache, sid: LazyStateID| {
            for i in 0..dfa.match_len(cache, sid) {
                let local = dfa.match_pattern(cache, sid, i).as_usize();
                if let Some(&pattern) = patterns.get(local) {
                    if !matched[pattern] {
                        matched[pattern] = true;
                        newly.push(pattern);
                    }
                }
            }
        };
        for &byte in &text.as_bytes()[from..] {
            sid = match dfa.next_state(cache, sid, byte) {
                Ok(next) => next,
                Err(_) => return false,
            };
            if sid.is_tagged() {
                if sid.is_quit() || sid.is_unknown() {
                    return false;
                }
                if sid.is_match() {
                    record(cache, sid);
                }
            }
        }
        *state = Some(sid);
        // The end-of-input transition, on a copy: matches that end at the current end.
        match dfa.next_eoi_state(cache, sid) {
            Ok(eoi) if eoi.is_match() => record(cache, eoi),
            Ok(eoi) if eoi.is_quit() => return false,
            Ok(_) => {}
            Err(_) => return false,
        }
        true
    }
}

/// Whether `pattern` has a Unicode word boundary, which the lazy DFA cannot evaluate next to
/// a non-ASCII byte. A pattern that does not parse has none (it was validated before).
fn has_unicode_word_boundary(pattern: &str) -> bool {
    regex_syntax::Parser::new().parse(pattern).is_ok_and(|hir| {
        let looks = hir.properties().look_set();
        looks.contains_word_unicode()
    })
}

/// The DFA and its cache; `None` when it cannot be built (its patterns then go to the NFA).
fn build_dfa(sources: &[&str]) -> Option<(DFA, Cache)> {
    let dfa = DFA::builder()
        .configure(
            DFA::config()
                .match_kind(MatchKind::All)
                .unicode_word_boundary(true)
                .cache_capacity(DFA_CACHE_CAPACITY)
                // A set too large for the cache still works with the minimum cache.
                .skip_cache_capacity_check(true),
        )
        .build_many(sources)
        .ok()?;
    let cache = dfa.create_cache();
    Some((dfa, cache))
}

fn build_fallback(sources: &[String], patterns: Vec<usize>) -> Option<Fallback> {
    if patterns.is_empty() {
        return None;
    }
    let selected: Vec<&str> = patterns.iter().map(|&i| sources[i].as_str()).collect();
    // Every pattern was validated alone; together they need no size limit.
    let nfa = NfaStream::new(&selected, None).ok()?;
    Some(Fallback {
        nfa,
        patterns,
        consumed: 0,
    })
}
