//! Time-boxed random testing ("fuzzing" without a nightly toolchain): `rulebook-bench fuzz
//! <frontmatter|protocol|ttsr> <seconds> [corpus]`. Inputs are random mutations of real
//! rule files and of hostile token soups; each run catches panics and checks invariants,
//! and the run ends with the count of executions and of findings.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::{Duration, Instant};

use rulebook_frontmatter::{Outcome, ParseOptions, Recovery, parse_frontmatter};
use rulebook_ttsr::{TtsrManager, TtsrRule};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n.max(1)).unwrap_or(u64::MAX);
        usize::try_from(self.next() % n).unwrap_or(0)
    }

    fn pick(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }
}

const TOKENS: &[&str] = &[
    "---",
    "\n",
    "\r\n",
    "\r",
    "<!--",
    "-->",
    "\t",
    ": ",
    "*",
    "&a ",
    "*a",
    "\"",
    "'",
    "\\",
    "\\.",
    "- ",
    "[",
    "]",
    "{",
    "}",
    "|",
    ">",
    "#",
    "@",
    "`",
    "é",
    "\u{feff}",
    "\0",
    "%",
    "globs: ",
    "description: ",
    "alwaysApply: ",
    "condition: ",
    "true",
    "TRUE",
    "yes",
    "~",
    "!!str ",
    "? ",
    "...",
    "\u{2028}",
];

fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut text: Vec<char> = seed.chars().collect();
    for _ in 0..=rng.below(8) {
        let at = rng.below(text.len() + 1);
        match rng.below(4) {
            0 => {
                let token: Vec<char> = rng.pick(TOKENS).chars().collect();
                text.splice(at..at, token);
            }
            1 if !text.is_empty() => {
                let end = (at + rng.below(16)).min(text.len());
                text.drain(at.min(end)..end);
            }
            2 => text.truncate(at),
            _ => {
                let c =
                    char::from_u32(u32::try_from(rng.below(0x11_0000)).unwrap_or(0)).unwrap_or('x');
                text.insert(at.min(text.len()), c);
            }
        }
    }
    text.into_iter().collect()
}

fn seeds(corpus: Option<&Path>) -> Vec<String> {
    let mut seeds: Vec<String> = vec![
        "---\ndescription: x\nglobs: *.ts\nalwaysApply: false\n---\nbody".into(),
        "---\n---\n".into(),
        String::new(),
    ];
    if let Some(dir) = corpus {
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if let Ok(bytes) = std::fs::read(&path) {
                    // Keep seeds small: the frontmatter and the start of the body.
                    let text = String::from_utf8_lossy(&bytes);
                    seeds.push(text.chars().take(2048).collect());
                }
            }
        }
    }
    seeds
}

/// Runs `one` on random inputs until `seconds` pass; returns (executions, findings).
fn run(seconds: u64, mut one: impl FnMut(&mut Rng) -> Result<(), String>) -> (u64, Vec<String>) {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut rng = Rng(0x5EED);
    let mut executions = 0u64;
    let mut findings = Vec::new();
    while Instant::now() < deadline {
        for _ in 0..64 {
            executions += 1;
            let outcome = catch_unwind(AssertUnwindSafe(|| one(&mut rng)));
            match outcome {
                Ok(Ok(())) => {}
                Ok(Err(problem)) => findings.push(problem),
                Err(panic) => findings.push(format!(
                    "panic: {}",
                    panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(ToString::to_string))
                        .unwrap_or_default()
                )),
            }
            if findings.len() > 20 {
                return (executions, findings);
            }
        }
    }
    (executions, findings)
}

fn frontmatter(seconds: u64, corpus: Option<&Path>) -> (u64, Vec<String>) {
    let seeds = seeds(corpus);
    run(seconds, |rng| {
        let seed = rng_pick_owned(rng, &seeds);
        let input = mutate(rng, seed);
        for recovery in [Recovery::LineParser, Recovery::QuoteValues] {
            let parsed = parse_frontmatter(&input, &ParseOptions::new().recovery(recovery));
            if parsed.outcome == Outcome::Absent && !parsed.frontmatter.is_empty() {
                return Err(format!("absent frontmatter with keys: {input:?}"));
            }
            if parse_frontmatter(&input, &ParseOptions::new().recovery(recovery)) != parsed
                && !format!("{parsed:?}").contains("NaN")
            {
                return Err(format!("non-deterministic parse: {input:?}"));
            }
        }
        Ok(())
    })
}

fn rng_pick_owned<'a>(rng: &mut Rng, seeds: &'a [String]) -> &'a str {
    seeds[rng.below(seeds.len())].as_str()
}

fn protocol(seconds: u64) -> (u64, Vec<String>) {
    const PIECES: &[&str] = &[
        "rule://", "RULE://", "rule:", "//", "/", "?", "#", "%", "%2", "%2F", "%C3%BC", "%E0%A4%A",
        "%FF", "name", "a.b", "@", ":", "+", "~", "..", " ", "é", "\0", "\n",
    ];
    run(seconds, |rng| {
        let mut url = String::new();
        for _ in 0..rng.below(8) {
            url.push_str(rng.pick(PIECES));
        }
        match rulebook::RuleUrl::parse(&url) {
            Ok(parsed) => {
                let lower = url.to_ascii_lowercase();
                if !lower.starts_with("rule://") {
                    return Err(format!("accepted a non-rule URL: {url:?}"));
                }
                if parsed.name.is_empty() {
                    return Err(format!("empty name accepted: {url:?}"));
                }
            }
            Err(err) => {
                let _ = err.to_string();
            }
        }
        Ok(())
    })
}

fn ttsr(seconds: u64) -> (u64, Vec<String>) {
    const PATTERNS: &[&str] = &[
        "ab",
        "a+b",
        "^ba",
        "b$",
        "(?m)^a",
        "\\bab\\b",
        "a.{2,3}b",
        "[^a]{3}",
        "(?i)AB",
        "é",
        "\\s\\n",
        "(a+)+$",
        "a|b|é",
        "\\Bb",
        "x*",
        "(?-u:\\b)a",
    ];
    const ALPHABET: &[&str] = &["a", "b", " ", "\n", "é", "x", "日", "."];
    run(seconds, |rng| {
        let mut fed = TtsrManager::new();
        let mut checked = TtsrManager::new();
        for i in 0..=rng.below(5) {
            let rule = TtsrRule::new(format!("r{i}"), [rng.pick(PATTERNS).to_string()], "");
            let _ = fed.register(rule.clone());
            let _ = checked.register(rule);
        }
        let mut stream = String::new();
        for _ in 0..rng.below(80) {
            stream.push_str(rng.pick(ALPHABET));
        }
        let mut last = 0;
        while last < stream.len() {
            let mut next = (last + 1 + rng.below(12)).min(stream.len());
            while !stream.is_char_boundary(next) {
                next += 1;
            }
            let a: Vec<String> = fed
                .feed(&stream[last..next])
                .iter()
                .map(|f| f.name.to_owned())
                .collect();
            let b: Vec<String> = checked
                .check(&stream[..next])
                .iter()
                .map(|f| f.name.to_owned())
                .collect();
            if a != b {
                return Err(format!("feed {a:?} != check {b:?} at {next} of {stream:?}"));
            }
            last = next;
        }
        Ok(())
    })
}

/// Entry point of `rulebook-bench fuzz`.
pub(crate) fn main(args: &[String]) -> std::process::ExitCode {
    let target = args.first().map_or("", String::as_str);
    let seconds = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let corpus = args.get(2).map(Path::new);
    let start = Instant::now();
    let (executions, findings) = match target {
        "frontmatter" => frontmatter(seconds, corpus),
        "protocol" => protocol(seconds),
        "ttsr" => ttsr(seconds),
        other => {
            eprintln!("unknown fuzz target `{other}`: frontmatter, protocol or ttsr");
            return std::process::ExitCode::from(2);
        }
    };
    println!(
        "fuzz {target}: {executions} executions in {:.0} s, {} finding(s)",
        start.elapsed().as_secs_f64(),
        findings.len()
    );
    for f in &findings {
        println!("  {f}");
    }
    if findings.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
