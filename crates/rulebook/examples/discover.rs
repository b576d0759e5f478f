//! Discovers the rules for a project and prints every bucket, what was left out, and the
//! warnings: `cargo run -p rulebook --example discover -- <cwd> [home] [reference|extended]`.

use std::path::PathBuf;
use std::process::ExitCode;

use rulebook::{Options, Profile, RuleBucket, Rulebook};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(cwd) = args.next() else {
        eprintln!("usage: discover <cwd> [home] [reference|extended]");
        return ExitCode::from(2);
    };
    let home = args.next().map(PathBuf::from);
    let profile = match args.next().as_deref() {
        None | Some("extended") => Profile::Extended,
        Some("reference") => Profile::Reference,
        Some(other) => {
            eprintln!("unknown profile `{other}`: expected reference or extended");
            return ExitCode::from(2);
        }
    };
    let book = Rulebook::discover(cwd, home.as_deref(), &Options::new().profile(profile));
    for bucket in [
        RuleBucket::Ttsr,
        RuleBucket::AlwaysApply,
        RuleBucket::Rulebook,
        RuleBucket::Manual,
    ] {
        let rules = book.bucket(bucket);
        if rules.is_empty() {
            continue;
        }
        println!("{}:", bucket.as_str());
        for rule in rules {
            println!(
                "  {:<24} {:<9} {}",
                rule.name,
                rule.source.provider,
                rule.path.display()
            );
        }
    }
    for (rule, reason) in book.unbucketed() {
        println!("not in any bucket: {} ({reason})", rule.name);
    }
    for (loser, winner) in book.shadowed() {
        println!(
            "shadowed: {} ({}) by {}",
            loser.name,
            loser.path.display(),
            winner.path.display()
        );
    }
    for diagnostic in book.diagnostics() {
        println!("warning: {diagnostic}");
    }
    ExitCode::SUCCESS
}
