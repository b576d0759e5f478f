//! `rulebook`: which rules will an agent see, and why?
//!
//! Commands: `list`, `skills`, `explain [NAME]`, `prompt [--paths P...]`, `read
//! rule://NAME`, `check`, `match PATH...`, `compare`, `budget`, `complete [PREFIX]`,
//! `completions SHELL`, `mcp` (the MCP server on standard input and output), `man`; and
//! `--as TOOL` with list, explain, prompt, match and check. Every command takes
//! `-C/--cwd`, `--home`, `--profile`, `--json`, `--color`, and `--providers` /
//! `--no-provider` (the provider ids come from the registry, not from a list here). Exit codes: 0 on success, 1 on
//! a failed lookup, a failed check or a failed write, 2 on a usage error. Colour is used
//! with `--color always`, or (`auto`) when standard output is a terminal and `NO_COLOR` is
//! unset or empty, or when `CLICOLOR_FORCE` is set to anything but `0`.
//!
//! Text output escapes control characters of names, descriptions, paths and messages (a
//! rule file cannot move the cursor, set the window title or the clipboard of the person
//! reading); `read` and `prompt` print content exactly, as they are meant for programs.
//!
//! Depends on `rulebook` (the pipeline), `rulebook-check` (the lint), `clap` (arguments,
//! completions, the man page) and `serde`/`serde_json` (`--json`).

mod commands;
mod json;
mod memory;
mod printer;
mod shell;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use rulebook::{Host, Options, Profile, Rulebook};

use printer::Printer;

/// Which rules will an agent see, and why?
#[derive(Debug, Parser)]
#[command(
    name = "rulebook",
    version,
    about,
    long_about = None,
    after_help = "Exit codes: 0 success; 1 a failed lookup (read, explain NAME), a failed check or a failed write; 2 a usage error.\nColour: --color auto (default) colours a terminal unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it."
)]
pub(crate) struct Cli {
    /// The project directory (default: the current directory).
    #[arg(short = 'C', long, global = true, value_name = "DIR")]
    cwd: Option<PathBuf>,

    /// The project root (default: the nearest directory above the project holding `.git`,
    /// else the project directory).
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,

    /// A provider's option, as `PROVIDER.KEY=VALUE` (repeatable), e.g.
    /// `claude.allow_external_imports=true` or `agents-md.fallback_filenames=TEAM.md`.
    #[arg(long = "option", global = true, value_name = "PROVIDER.KEY=VALUE")]
    options: Vec<String>,

    /// Read only the rule directories from the project root down to the project
    /// directory, not those nested below it.
    #[arg(long = "no-nested", global = true)]
    no_nested: bool,

    /// The user's home directory (default: your home).
    #[arg(long, global = true, value_name = "DIR")]
    home: Option<PathBuf>,

    /// `reference` reproduces the original pipeline; `extended` closes its gaps.
    #[arg(long, global = true, value_enum, default_value_t = ProfileArg::Extended)]
    profile: ProfileArg,

    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    json: bool,

    /// Load only these providers (comma-separated ids, e.g. cursor,windsurf).
    #[arg(long, global = true, value_delimiter = ',', value_name = "ID,...",
          value_parser = shell::Known(shell::providers), hide_possible_values = true)]
    providers: Vec<String>,

    /// Never load this provider (repeatable, or comma-separated ids).
    #[arg(
        long = "no-provider",
        global = true,
        value_delimiter = ',',
        value_name = "ID",
        value_parser = shell::Known(shell::providers),
        hide_possible_values = true
    )]
    no_provider: Vec<String>,

    /// Answer as one real tool would load the rules here (list, explain, prompt, match,
    /// check); the tools are listed from the table of tools (see `command`).
    #[arg(long = "as", global = true, value_name = "TOOL", value_parser = shell::HostParser,
          hide_possible_values = true)]
    host: Option<Host>,

    /// With --as: show the prompt even when it holds the text of a file the tool reaches
    /// through a link out of the project (reported either way; withheld by default).
    #[arg(long, global = true)]
    show_outside: bool,

    /// When to colour the output.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    color: ColorArg,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ProfileArg {
    Reference,
    Extended,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ShellArg {
    Bash,
    Zsh,
    Fish,
    Powershell,
    Elvish,
}

#[derive(Debug, Subcommand)]
#[allow(
    clippy::doc_markdown,
    reason = "doc comments are clap help text, shown verbatim"
)]
enum Command {
    /// Every rule in a bucket: name, bucket, provider, level, path.
    List,
    /// Every skill (a folder with SKILL.md): name, provider, level, path, description; then
    /// the ones shadowed, the same file twice, or invalid.
    Skills,
    /// Every discovered file and what became of it, then every warning; or one rule's story.
    Explain {
        /// Explain only the rule of this name.
        name: Option<String>,
        /// Show only the files that landed in this bucket (ttsr, always-apply, rulebook,
        /// manual, none).
        #[arg(long, value_name = "BUCKET")]
        bucket: Option<String>,
        /// Show only the files of this provider (its id, e.g. cursor).
        #[arg(long, value_name = "ID")]
        provider: Option<String>,
    },
    /// The rendered system-prompt text.
    Prompt {
        /// Attach the rules whose globs match these paths (Extended).
        #[arg(long, num_args = 1.., value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Print the content of a rule://NAME URL, ending in a newline (--json: the exact content).
    Read {
        /// A URL such as rule://style.
        url: String,
    },
    /// Lint the rule files; exits 1 when any error (or, with --strict, warning) is found.
    Check(commands::check::CheckArgs),
    /// Completions for a rule:// name prefix: the URLs `read` resolves, with descriptions;
    /// --names: the names `explain` takes (every rule file's name and every skill's).
    Complete {
        /// A name prefix, with or without rule:// (default: every name).
        #[arg(default_value = "")]
        prefix: String,
        /// The names `explain` takes, as written, one a line, instead of `rule://` URLs.
        #[arg(long)]
        names: bool,
    },
    /// Which rules apply to these files: always-apply rules, and rules whose globs match.
    Match {
        /// Paths relative to the project directory (or absolute under it); `-` reads them
        /// from standard input, one per line.
        #[arg(required_unless_present = "stdin")]
        paths: Vec<PathBuf>,
        /// Read the paths from standard input, one per line.
        #[arg(long)]
        stdin: bool,
    },
    /// One table: rows = rule files, columns = tools, cell = loaded / cut / scoped /
    /// on-request / not read. Which of my files does each of my team's tools see?
    Compare {
        /// Only these rule files (default: every file any tool reads here).
        files: Vec<PathBuf>,
        /// Only these tools (comma-separated ids).
        #[arg(long, value_delimiter = ',', value_parser = shell::HostParser, value_name = "TOOL,...",
              hide_possible_values = true)]
        hosts: Vec<Host>,
        /// Print each cell's reason below the table.
        #[arg(long)]
        reasons: bool,
    },
    /// What each tool puts in front of the model at start: bytes and estimated tokens of
    /// its rule text and of its skills catalog, and its biggest files.
    Budget {
        /// Only these tools (comma-separated ids).
        #[arg(long, value_delimiter = ',', value_parser = shell::HostParser, value_name = "TOOL,...",
              hide_possible_values = true)]
        hosts: Vec<Host>,
    },
    /// Print a shell completion script: `rulebook completions bash > ~/.local/share/bash-completion/completions/rulebook`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: ShellArg,
    },
    /// Serve the rules over the Model Context Protocol on stdin/stdout: every rule as
    /// rule://NAME, the `rules` prompt, the tools rules_for_paths, explain and check; live
    /// as the rule files change. Register it in an agent as the command `rulebook mcp`.
    Mcp {
        /// Milliseconds the rule files must be quiet before a change is served.
        #[arg(long, default_value_t = 200, value_name = "MS")]
        debounce_ms: u64,
        /// Do not watch the rule files (serve the rules as discovered at start).
        #[arg(long)]
        no_watch: bool,
    },
    /// Print the man page (roff), or with --dir write it and a page per subcommand
    /// (rulebook-list.1, …, the pages its SUBCOMMANDS section names): `rulebook man --dir
    /// ~/.local/share/man/man1` installs them for `man rulebook`.
    Man {
        /// Write rulebook.1 and every subcommand's page into this directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// The commands that answer from the tools' own views alone (`compare`, `budget`, and
/// `--as TOOL` with list, explain, prompt and match), in the located project.
fn views(cli: &Cli, place: &commands::host::Place<'_>, match_paths: &[PathBuf]) -> ExitCode {
    if let Command::Compare {
        files,
        hosts,
        reasons,
    } = &cli.command
    {
        let text = commands::host::compare(place, hosts, files, *reasons, cli.json);
        return emit(text.as_bytes(), ExitCode::SUCCESS);
    }
    if let Command::Budget { hosts } = &cli.command {
        let text = commands::host::budget(place, hosts, cli.json);
        return emit(text.as_bytes(), ExitCode::SUCCESS);
    }
    if let (Some(host), false) = (cli.host, matches!(cli.command, Command::Check(_))) {
        let text = match &cli.command {
            Command::List => commands::host::list(place, host, cli.json),
            Command::Explain { name: Some(_), .. }
            | Command::Explain {
                bucket: Some(_), ..
            }
            | Command::Explain {
                provider: Some(_), ..
            } => {
                eprintln!(
                    "rulebook: explain --as TOOL explains every file; drop NAME, --bucket and --provider"
                );
                return ExitCode::from(2);
            }
            Command::Explain { .. } => commands::host::explain(place, host, cli.json),
            Command::Prompt { paths } if !paths.is_empty() => {
                eprintln!(
                    "rulebook: prompt --as TOOL renders what the tool loads at start; use match --as TOOL PATH for the files it adds"
                );
                return ExitCode::from(2);
            }
            Command::Prompt { .. } => commands::host::prompt(place, host, cli.json),
            Command::Match { .. } => commands::host::matches(place, host, match_paths, cli.json),
            _ => {
                eprintln!("rulebook: --as works with list, explain, prompt and match");
                return ExitCode::from(2);
            }
        };
        return emit(text.as_bytes(), ExitCode::SUCCESS);
    }
    eprintln!("rulebook: --as works with list, explain, prompt and match");
    ExitCode::from(2)
}

/// The command line: the derived one, with the help of `--as` naming the tools of the
/// table this build holds.
fn command() -> clap::Command {
    Cli::command().mut_arg("host", |arg| arg.help(shell::as_help()))
}

fn main() -> ExitCode {
    let cli = match command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    // Commands that need no discovery.
    match &cli.command {
        Command::Completions { shell } => {
            let mut command = command();
            let shell = match shell {
                ShellArg::Bash => clap_complete::Shell::Bash,
                ShellArg::Zsh => clap_complete::Shell::Zsh,
                ShellArg::Fish => clap_complete::Shell::Fish,
                ShellArg::Powershell => clap_complete::Shell::PowerShell,
                ShellArg::Elvish => clap_complete::Shell::Elvish,
            };
            let out = shell::script(shell, &mut command);
            return emit(&out, ExitCode::SUCCESS);
        }
        Command::Man { dir: Some(dir) } => {
            if let Err(err) =
                std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(command(), dir))
            {
                eprintln!(
                    "rulebook: cannot write the man pages to {}: {err}",
                    printer::escape(&dir.display().to_string())
                );
                return ExitCode::FAILURE;
            }
            return ExitCode::SUCCESS;
        }
        Command::Man { dir: None } => {
            let mut out = Vec::new();
            if let Err(err) = clap_mangen::Man::new(command()).render(&mut out) {
                eprintln!("rulebook: cannot render the man page: {err}");
                return ExitCode::FAILURE;
            }
            return emit(&out, ExitCode::SUCCESS);
        }
        _ => {}
    }
    let profile = match cli.profile {
        ProfileArg::Reference => Profile::Reference,
        ProfileArg::Extended => Profile::Extended,
    };
    let cwd = match cli.cwd.clone() {
        Some(dir) => dir,
        None => match std::env::current_dir() {
            Ok(dir) => dir,
            Err(err) => {
                eprintln!("rulebook: cannot read the current directory: {err}; pass -C DIR");
                return ExitCode::from(2);
            }
        },
    };
    if !cwd.is_dir() {
        eprintln!(
            "rulebook: --cwd {} is not a directory; pass the project directory",
            printer::escape(&cwd.display().to_string())
        );
        return ExitCode::from(2);
    }
    if let Command::Prompt { paths } = &cli.command {
        if profile == Profile::Reference && !paths.is_empty() {
            eprintln!(
                "rulebook: --paths attaches rules by glob, which the reference profile never does; drop --paths, or use --profile extended"
            );
            return ExitCode::from(2);
        }
    }
    let mut options = Options::new().profile(profile);
    let known: Vec<String> = options
        .registry()
        .infos()
        .into_iter()
        .map(|i| i.id)
        .collect();
    if let Some(unknown) = cli
        .providers
        .iter()
        .chain(&cli.no_provider)
        .find(|id| !known.contains(id))
    {
        eprintln!(
            "rulebook: unknown provider `{}`: use one of {}",
            printer::escape(unknown),
            known.join(", ")
        );
        return ExitCode::from(2);
    }
    if !cli.providers.is_empty() {
        options = options.allow_providers(cli.providers.iter().cloned());
    }
    options = options.deny_providers(cli.no_provider.iter().cloned());
    if let Some(root) = &cli.root {
        if !root.is_dir() {
            eprintln!(
                "rulebook: --root {} is not a directory; pass the project root (a directory holding the working directory)",
                printer::escape(&root.display().to_string())
            );
            return ExitCode::from(2);
        }
        options = options.project_root(root);
    }
    options = options.descendants(!cli.no_nested);
    // Each provider declares the options it reads (`ProviderMeta::with_options`).
    let registry = options.registry();
    for option in &cli.options {
        let parsed = option
            .split_once('=')
            .and_then(|(name, value)| name.split_once('.').map(|(p, k)| (p, k, value)));
        match parsed {
            Some((provider, key, value)) if !provider.is_empty() && !key.is_empty() => {
                if let Err(why) = registry.check_option(provider, key, value) {
                    eprintln!(
                        "rulebook: --option {}: {}",
                        printer::escape(option),
                        printer::escape(&why.to_string())
                    );
                    return ExitCode::from(2);
                }
                options = options.provider_option(provider, key, value);
            }
            _ => {
                eprintln!(
                    "rulebook: --option {}: write PROVIDER.KEY=VALUE, e.g. claude.allow_external_imports=true",
                    printer::escape(option)
                );
                return ExitCode::from(2);
            }
        }
    }
    if let Command::Mcp {
        debounce_ms,
        no_watch,
    } = &cli.command
    {
        let mut serve = rulebook_mcp::ServeOptions::new(&cwd)
            .options(options)
            .watch(!no_watch)
            .after_refresh(memory::give_back)
            .debounce(std::time::Duration::from_millis(*debounce_ms));
        if let Some(home) = &cli.home {
            serve = serve.home(home);
        }
        memory::for_a_long_life();
        return match rulebook_mcp::serve_stdio(serve) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("rulebook mcp: {err}");
                ExitCode::FAILURE
            }
        };
    }
    if cli.host.is_some()
        && !matches!(
            cli.command,
            Command::List
                | Command::Explain { .. }
                | Command::Prompt { .. }
                | Command::Match { .. }
                | Command::Check(_)
        )
    {
        eprintln!(
            "rulebook: --as works with list, explain, prompt, match and check (and `compare` shows every tool)"
        );
        return ExitCode::from(2);
    }
    // `match`'s paths: the arguments, and standard input for `-` or `--stdin`.
    let match_paths = match &cli.command {
        Command::Match { paths, stdin } => match commands::matches::paths(paths, *stdin) {
            Ok(paths) => paths,
            Err(err) => {
                eprintln!("rulebook: cannot read paths from standard input: {err}");
                return ExitCode::from(2);
            }
        },
        _ => Vec::new(),
    };
    // The tools' own views need the directories alone: `compare`, `budget` and `--as`
    // (but `check --as`, which lints the rules too) locate the project and discover nothing.
    let views_only = matches!(
        cli.command,
        Command::Compare { .. } | Command::Budget { .. }
    ) || (cli.host.is_some() && !matches!(cli.command, Command::Check(_)));
    if views_only {
        let here = rulebook::Located::new(&cwd, cli.home.as_ref(), profile);
        let place = commands::host::Place {
            cwd: &here.cwd,
            home: &here.home,
            project: &here.project,
            show_outside: cli.show_outside,
        };
        return views(&cli, &place, &match_paths);
    }
    let book = Rulebook::discover(&cwd, cli.home.as_deref(), &options);
    let terminal = std::io::stdout().is_terminal();
    let color = match cli.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            let set = |name| std::env::var_os(name).is_some_and(|v| !v.is_empty());
            let forced =
                std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
            !set("NO_COLOR") && (forced || terminal)
        }
    };
    let mut out = Printer::new(&book, color, cli.json);
    let code = match &cli.command {
        Command::List => commands::list::run(&mut out),
        Command::Skills => commands::skills::run(&mut out),
        Command::Explain {
            name,
            bucket,
            provider,
        } => commands::explain::run(
            &mut out,
            name.as_deref(),
            bucket.as_deref(),
            provider.as_deref(),
        ),
        Command::Prompt { paths } => commands::prompt::run(&mut out, paths),
        Command::Read { url } => commands::read::run(&mut out, url),
        Command::Check(args) => commands::check::run(&mut out, args, cli.host),
        Command::Match { .. } => commands::matches::run(&mut out, &match_paths),
        Command::Complete { prefix, names } => commands::complete::run(&mut out, prefix, *names),
        Command::Completions { .. }
        | Command::Man { .. }
        | Command::Mcp { .. }
        | Command::Compare { .. }
        | Command::Budget { .. } => ExitCode::SUCCESS,
    };
    let (bytes, streamed) = out.finish();
    // The process ends here: the OS takes back the rules' memory at once, where dropping
    // them one by one would cost a sixth of a 10,000-rule `list --json`.
    std::mem::forget(book);
    match streamed {
        None => {}
        Some(err) if err.kind() == std::io::ErrorKind::BrokenPipe => return code,
        Some(err) => {
            eprintln!("rulebook: cannot write to standard output: {err}");
            return ExitCode::FAILURE;
        }
    }
    emit(&bytes, code)
}

/// Writes the output. A closed pipe (`rulebook list | head`) ends quietly, as ripgrep does;
/// any other write error (a full disk, `> /dev/full`) is an error exit, never silent.
fn emit(bytes: &[u8], code: ExitCode) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => code,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => code,
        Err(err) => {
            eprintln!("rulebook: cannot write to standard output: {err}");
            ExitCode::FAILURE
        }
    }
}

/// A usage error in the one style of every error of the CLI (`rulebook: …`, exit 2); help
/// and version go to standard output as clap prints them.
fn usage_error(err: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = err.print();
        return if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    let rendered = err.render().to_string();
    let text = rendered.strip_prefix("error: ").unwrap_or(&rendered);
    eprint!("rulebook: {text}");
    if !text.ends_with('\n') {
        eprintln!();
    }
    ExitCode::from(2)
}

#[cfg(test)]
mod module_doc_tests {
    /// The module docs name every command the command line has.
    #[test]
    fn the_module_docs_name_every_command() {
        let docs: String = include_str!("main.rs")
            .lines()
            .take_while(|l| l.starts_with("//!") || l.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        for command in super::command().get_subcommands() {
            let name = command.get_name();
            assert!(
                docs.contains(&format!("`{name}`")) || docs.contains(&format!("`{name} ")),
                "the module docs do not name `{name}`"
            );
        }
    }
}
