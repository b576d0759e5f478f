//! `rulebook`: which rules will an agent see, and why?
//!
//! Commands: `list`, `explain [NAME]`, `prompt [--paths P...]`, `read rule://NAME`,
//! `check`, `match PATH...`, `complete [PREFIX]`. Every command takes `--cwd`, `--home`, `--profile` and
//! `--json`. Exit codes: 0 on success, 1 on a failed lookup or a failed check, 2 on a
//! usage error. Colour is used only when standard output is a terminal and `NO_COLOR` is
//! unset or empty.
//!
//! Depends on `rulebook` (the pipeline), `clap` (arguments) and `serde_json` (`--json`).

mod check;
mod output;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use rulebook::{Options, Profile, Rulebook};

use output::Out;

/// Which rules will an agent see, and why?
#[derive(Debug, Parser)]
#[command(
    name = "rulebook",
    version,
    about,
    long_about = None,
    after_help = "Exit codes: 0 success; 1 a failed lookup (read, explain NAME) or a failed check; 2 a usage error.\nColour only on a terminal, never with NO_COLOR."
)]
struct Cli {
    /// The project directory (default: the current directory).
    #[arg(long, global = true, value_name = "DIR")]
    cwd: Option<PathBuf>,

    /// The user's home directory (default: your home).
    #[arg(long, global = true, value_name = "DIR")]
    home: Option<PathBuf>,

    /// `reference` reproduces the original pipeline; `extended` closes its gaps.
    #[arg(long, global = true, value_enum, default_value_t = ProfileArg::Extended)]
    profile: ProfileArg,

    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    json: bool,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ProfileArg {
    Reference,
    Extended,
}

#[derive(Debug, Subcommand)]
#[allow(
    clippy::doc_markdown,
    reason = "doc comments are clap help text, shown verbatim"
)]
enum Command {
    /// Every rule in a bucket: name, bucket, provider, level, path.
    List,
    /// Every discovered file and what became of it, then every warning; or one rule's story.
    Explain {
        /// Explain only the rule of this name.
        name: Option<String>,
    },
    /// The rendered system-prompt text.
    Prompt {
        /// Attach the rules whose globs match these paths (Extended).
        #[arg(long, num_args = 1.., value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Print the content of a rule://NAME URL.
    Read {
        /// A URL such as rule://style.
        url: String,
    },
    /// Lint the rule files; exits 1 when any error is found.
    Check,
    /// Completions for a rule:// name prefix: the URLs `read` resolves, with descriptions.
    Complete {
        /// A name prefix, with or without rule:// (default: every name).
        #[arg(default_value = "")]
        prefix: String,
    },
    /// Which rules apply to these files by their globs.
    Match {
        /// Paths relative to the project directory.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let profile = match cli.profile {
        ProfileArg::Reference => Profile::Reference,
        ProfileArg::Extended => Profile::Extended,
    };
    let cwd = match cli.cwd.clone() {
        Some(dir) => dir,
        None => match std::env::current_dir() {
            Ok(dir) => dir,
            Err(err) => {
                eprintln!("rulebook: cannot read the current directory: {err}; pass --cwd DIR");
                return ExitCode::from(2);
            }
        },
    };
    if !cwd.is_dir() {
        eprintln!(
            "rulebook: --cwd {} is not a directory; pass the project directory",
            cwd.display()
        );
        return ExitCode::from(2);
    }
    let book = Rulebook::discover(&cwd, cli.home.clone(), &Options::new().profile(profile));
    let terminal = std::io::stdout().is_terminal();
    let color = terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut out = Out::new(&book, color, terminal);
    let code = match &cli.command {
        Command::List => out.list(cli.json),
        Command::Explain { name } => out.explain(name.as_deref(), cli.json),
        Command::Prompt { paths } => out.prompt(paths, cli.json),
        Command::Read { url } => out.read(url, cli.json),
        Command::Check => check::run(&mut out, cli.json),
        Command::Match { paths } => out.matches(paths, cli.json),
        Command::Complete { prefix } => out.complete(prefix, cli.json),
    };
    let text = out.finish();
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (`rulebook list | head`) is not an error worth a panic.
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    code
}
