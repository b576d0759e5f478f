//! `rulebook`: which rules will an agent see, and why?
//!
//! Commands: `list`, `skills`, `explain [NAME]`, `prompt [--paths P...]`, `read
//! rule://NAME`, `check`, `match PATH...`, `compare`, `budget`, `complete [PREFIX]`,
//! `completions SHELL`, `mcp` (the MCP server on standard input and output), `lsp` (the
//! language server on standard input and output), `man`; and
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
//! The binary is [`run`]; a program with a tool of its own registers it
//! (`rulebook::register_tools`) and calls [`run`], and its `--as`, help, completion and
//! `compare` list the tool.
//!
//! Depends on `rulebook` (the pipeline), `rulebook-check` (the lint), `rulebook-mcp` (the
//! MCP server), `rulebook-lsp` (the language server), `rulebook-report` (the report model), `clap` (arguments, completions, the man
//! page) and `serde`/`serde_json` (`--json`).

mod args;
mod commands;
mod json;
mod memory;
mod printer;
mod settings;
mod shell;
mod terminal;

pub use args::command;

use std::io::Write;
use std::process::ExitCode;

use clap::FromArgMatches;
use rulebook::Rulebook;
use rulebook_check::ToolViews;

use args::{Cli, Command, ShellArg};
use printer::Printer;
use settings::Settings;

/// Runs the command line of this process (`std::env::args`): what the `rulebook` binary
/// does, with the table of tools as it stands (`rulebook::register_tools` adds a tool of
/// your own before).
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     // rulebook::register_tools(&[my_tool::TOOL]).expect("a new id");
///     rulebook_cli::run()
/// }
/// ```
pub fn run() -> ExitCode {
    let cli = match command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    if let Some(code) = without_a_project(&cli.command) {
        return code;
    }
    let settings = match Settings::resolve(cli) {
        Ok(settings) => settings,
        Err(why) => {
            eprintln!("rulebook: {why}");
            return ExitCode::from(2);
        }
    };
    if let Command::Mcp { .. } = settings.command {
        return mcp(settings);
    }
    if let Command::Lsp { .. } = settings.command {
        return lsp(settings);
    }
    if settings.views_only() {
        return views(&settings);
    }
    book(&settings)
}

/// The commands that need no project (completions, the man page), run; `None` for the others.
fn without_a_project(command: &Command) -> Option<ExitCode> {
    match command {
        Command::Completions { shell } => {
            let shell = match shell {
                ShellArg::Bash => clap_complete::Shell::Bash,
                ShellArg::Zsh => clap_complete::Shell::Zsh,
                ShellArg::Fish => clap_complete::Shell::Fish,
                ShellArg::Powershell => clap_complete::Shell::PowerShell,
                ShellArg::Elvish => clap_complete::Shell::Elvish,
            };
            let out = shell::script(shell, &mut args::command());
            Some(emit(&out, ExitCode::SUCCESS))
        }
        Command::Man { dir: Some(dir) } => {
            if let Err(err) = std::fs::create_dir_all(dir)
                .and_then(|()| clap_mangen::generate_to(args::command(), dir))
            {
                eprintln!(
                    "rulebook: cannot write the man pages to {}: {err}",
                    printer::escape(&dir.display().to_string())
                );
                return Some(ExitCode::FAILURE);
            }
            Some(ExitCode::SUCCESS)
        }
        Command::Man { dir: None } => {
            let mut out = Vec::new();
            if let Err(err) = clap_mangen::Man::new(args::command()).render(&mut out) {
                eprintln!("rulebook: cannot render the man page: {err}");
                return Some(ExitCode::FAILURE);
            }
            Some(emit(&out, ExitCode::SUCCESS))
        }
        _ => None,
    }
}

/// `mcp`: the server on standard input and output, until the client leaves.
fn mcp(settings: Settings) -> ExitCode {
    let Command::Mcp {
        debounce_ms,
        no_watch,
    } = settings.command
    else {
        return ExitCode::from(2);
    };
    let mut serve = rulebook_mcp::ServeOptions::new(&settings.cwd)
        .options(settings.options)
        .watch(!no_watch)
        .after_refresh(memory::give_back)
        .debounce(std::time::Duration::from_millis(debounce_ms));
    if let Some(home) = &settings.home {
        serve = serve.home(home);
    }
    memory::for_a_long_life();
    match rulebook_mcp::serve_stdio(serve) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("rulebook mcp: {err}");
            ExitCode::FAILURE
        }
    }
}

fn lsp(settings: Settings) -> ExitCode {
    let Command::Lsp { debounce_ms } = settings.command else {
        return ExitCode::from(2);
    };
    let mut serve = rulebook_lsp::ServeOptions::new(&settings.cwd)
        .options(settings.options)
        .debounce(std::time::Duration::from_millis(debounce_ms));
    if let Some(home) = &settings.home {
        serve = serve.home(home);
    }
    memory::for_a_long_life();
    match rulebook_lsp::serve_stdio(serve) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("rulebook lsp: {err}");
            ExitCode::FAILURE
        }
    }
}

/// The commands that answer from the tools' own views alone (`compare`, `budget`, and
/// `--as TOOL` with list, explain, prompt and match), in the project located once.
fn views(settings: &Settings) -> ExitCode {
    let here = rulebook::Located::new(&settings.cwd, settings.home.as_ref(), settings.profile);
    let place = commands::host::Place {
        project: &here.project,
        show_outside: settings.show_outside,
    };
    let json = settings.json;
    let text = match (&settings.command, settings.host) {
        (
            Command::Compare {
                files,
                hosts,
                reasons,
            },
            _,
        ) => commands::host::compare(&place, hosts, files, *reasons, json, terminal::width()),
        (Command::Budget { hosts }, _) => commands::host::budget(&place, hosts, json),
        (Command::List, Some(host)) => commands::host::list(&place, host, json),
        (Command::Explain { .. }, Some(host)) => commands::host::explain(&place, host, json),
        (Command::Prompt { .. }, Some(host)) => commands::host::prompt(&place, host, json),
        (Command::Match { .. }, Some(host)) => {
            commands::host::matches(&place, host, &settings.match_paths, json)
        }
        _ => {
            eprintln!("rulebook: --as works with list, explain, prompt and match");
            return ExitCode::from(2);
        }
    };
    emit(text.as_bytes(), ExitCode::SUCCESS)
}

/// The commands that answer from discovery: the book of rules, then the command on it.
fn book(settings: &Settings) -> ExitCode {
    // `check` reads the tools' views beside discovery and its lint, on another core: they
    // read the tree on their own, not through the book.
    std::thread::scope(|scope| {
        let views = check_views(settings)
            .map(|(project, hosts)| scope.spawn(move || ToolViews::read(&project, &hosts)));
        run_on_book(settings, views)
    })
}

/// Discovers, then runs the command on the book; `views`, for `check`, are being read
/// beside it.
fn run_on_book(
    settings: &Settings,
    views: Option<std::thread::ScopedJoinHandle<'_, ToolViews>>,
) -> ExitCode {
    let book = Rulebook::discover(&settings.cwd, settings.home.as_deref(), &settings.options);
    let mut out = Printer::new(&book, settings.color, settings.json);
    let code = match &settings.command {
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
        Command::Check(args) => commands::check::run(&mut out, args, settings.host, views),
        Command::Match { .. } => commands::matches::run(&mut out, &settings.match_paths),
        Command::Complete { prefix, names } => commands::complete::run(&mut out, prefix, *names),
        Command::Completions { .. }
        | Command::Man { .. }
        | Command::Mcp { .. }
        | Command::Lsp { .. }
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

/// For `check`, the project (located as discovery locates it) and the tools whose views it
/// reads, as far as the command line says (`check::run` makes them again if the project's
/// `rulebook.toml` asks for others).
fn check_views(settings: &Settings) -> Option<(rulebook::Project, Vec<rulebook::Host>)> {
    let Command::Check(args) = &settings.command else {
        return None;
    };
    let hosts = match settings.host {
        Some(host) => vec![host],
        None if args.runs_views() => rulebook::tools().to_vec(),
        None => return None,
    };
    let here = rulebook::Located::new(&settings.cwd, settings.home.as_ref(), settings.profile);
    Some((here.project, hosts))
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
        let docs: String = include_str!("lib.rs")
            .lines()
            .take_while(|l| l.starts_with("//!") || l.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        for command in crate::args::command().get_subcommands() {
            let name = command.get_name();
            assert!(
                docs.contains(&format!("`{name}`")) || docs.contains(&format!("`{name} ")),
                "the module docs do not name `{name}`"
            );
        }
    }
}
