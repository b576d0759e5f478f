//! The command line as clap parses it (the low-level arguments): [`crate::settings`] resolves
//! them once into what the commands run with.

use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use rulebook::Host;

use crate::{commands, shell};

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
    pub(crate) cwd: Option<PathBuf>,

    /// The project root (default: the nearest directory above the project holding `.git`,
    /// else the project directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) root: Option<PathBuf>,

    /// A provider's option, as `PROVIDER.KEY=VALUE` (repeatable), e.g.
    /// `claude.allow_external_imports=true` or `agents-md.fallback_filenames=TEAM.md`.
    #[arg(long = "option", global = true, value_name = "PROVIDER.KEY=VALUE")]
    pub(crate) options: Vec<String>,

    /// Read only the rule directories from the project root down to the project
    /// directory, not those nested below it.
    #[arg(long = "no-nested", global = true)]
    pub(crate) no_nested: bool,

    /// The user's home directory (default: your home).
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) home: Option<PathBuf>,

    /// `reference` reproduces the original pipeline; `extended` closes its gaps.
    #[arg(long, global = true, value_enum, default_value_t = ProfileArg::Extended)]
    pub(crate) profile: ProfileArg,

    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    pub(crate) json: bool,

    /// Load only these providers (comma-separated ids, e.g. cursor,windsurf).
    #[arg(long, global = true, value_delimiter = ',', value_name = "ID,...",
          value_parser = shell::Known(shell::providers), hide_possible_values = true)]
    pub(crate) providers: Vec<String>,

    /// Never load this provider (repeatable, or comma-separated ids).
    #[arg(
        long = "no-provider",
        global = true,
        value_delimiter = ',',
        value_name = "ID",
        value_parser = shell::Known(shell::providers),
        hide_possible_values = true
    )]
    pub(crate) no_provider: Vec<String>,

    /// Answer as one real tool would load the rules here (list, explain, prompt, match,
    /// check); the tools are listed from the table of tools (see `command`).
    #[arg(long = "as", global = true, value_name = "TOOL", value_parser = shell::HostParser,
          hide_possible_values = true)]
    pub(crate) host: Option<Host>,

    /// With --as: show the prompt even when it holds the text of a file the tool reaches
    /// through a link out of the project (reported either way; withheld by default).
    #[arg(long, global = true)]
    pub(crate) show_outside: bool,

    /// When to colour the output.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub(crate) color: ColorArg,

    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ProfileArg {
    Reference,
    Extended,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ShellArg {
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
pub(crate) enum Command {
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
    /// Serve a Language Server on stdin/stdout for the editor: check's findings on each
    /// rule file as you type, which tools load it and how (hover), where imports and
    /// rule:// links lead, frontmatter completion and quick fixes. Register it in an editor
    /// as the command `rulebook lsp`.
    Lsp {
        /// Milliseconds the buffers must be quiet before they are analysed again.
        #[arg(long, default_value_t = 200, value_name = "MS")]
        debounce_ms: u64,
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

/// The command line: the derived one, with the help of `--as` naming the tools of the
/// table (this build's and those registered with `rulebook::register_tools`).
pub fn command() -> clap::Command {
    Cli::command().mut_arg("host", |arg| arg.help(shell::as_help()))
}
