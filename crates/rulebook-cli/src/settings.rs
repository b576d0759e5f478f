//! The command line resolved once (the high-level settings, as ripgrep turns its low-level
//! arguments into high-level ones): every directory, provider id, provider option and
//! combination of flags is checked here, in one place, and the result is what the commands
//! run with. A usage error is its message; `main` prints it and exits 2.

use std::io::IsTerminal;
use std::path::PathBuf;

use rulebook::{Host, Options, Profile};

use crate::args::{Cli, ColorArg, Command, ProfileArg};
use crate::{commands, printer};

/// What a run of the command line does, resolved from its arguments.
pub(crate) struct Settings {
    /// The command, as parsed.
    pub(crate) command: Command,
    /// The project directory: `-C`, else the current directory (a directory).
    pub(crate) cwd: PathBuf,
    /// `--home`, when given (else discovery takes the user's).
    pub(crate) home: Option<PathBuf>,
    /// The behaviour profile.
    pub(crate) profile: Profile,
    /// Discovery's options: profile, providers, root, nesting and provider options.
    pub(crate) options: Options,
    /// `--as TOOL`.
    pub(crate) host: Option<Host>,
    /// `--show-outside`.
    pub(crate) show_outside: bool,
    /// `--json`.
    pub(crate) json: bool,
    /// Whether the output is coloured (`--color`, `NO_COLOR`, `CLICOLOR_FORCE`, a terminal).
    pub(crate) color: bool,
    /// `match`'s paths: its arguments and, for `-` or `--stdin`, standard input's lines.
    pub(crate) match_paths: Vec<PathBuf>,
}

impl Settings {
    /// Resolves the arguments, or says what is wrong with them.
    pub(crate) fn resolve(cli: Cli) -> Result<Self, String> {
        let escape = |path: &PathBuf| printer::escape(&path.display().to_string()).into_owned();
        let profile = match cli.profile {
            ProfileArg::Reference => Profile::Reference,
            ProfileArg::Extended => Profile::Extended,
        };
        let cwd = match cli.cwd {
            Some(dir) => dir,
            None => std::env::current_dir()
                .map_err(|err| format!("cannot read the current directory: {err}; pass -C DIR"))?,
        };
        if !cwd.is_dir() {
            return Err(format!(
                "--cwd {} is not a directory; pass the project directory",
                escape(&cwd)
            ));
        }
        if let Command::Prompt { paths } = &cli.command {
            if profile == Profile::Reference && !paths.is_empty() {
                return Err("--paths attaches rules by glob, which the reference profile never does; drop --paths, or use --profile extended".to_owned());
            }
        }
        let mut options = providers(
            &cli.providers,
            &cli.no_provider,
            Options::new().profile(profile),
        )?;
        if let Some(root) = &cli.root {
            if !root.is_dir() {
                return Err(format!(
                    "--root {} is not a directory; pass the project root (a directory holding the working directory)",
                    escape(root)
                ));
            }
            options = options.project_root(root);
        }
        let options = provider_options(&cli.options, options.descendants(!cli.no_nested))?;
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
            return Err("--as works with list, explain, prompt, match and check (and `compare` shows every tool)".to_owned());
        }
        if cli.host.is_some() {
            match &cli.command {
                Command::Explain {
                    name,
                    bucket,
                    provider,
                } if name.is_some() || bucket.is_some() || provider.is_some() => {
                    return Err(
                        "explain --as TOOL explains every file; drop NAME, --bucket and --provider"
                            .to_owned(),
                    );
                }
                Command::Prompt { paths } if !paths.is_empty() => {
                    return Err("prompt --as TOOL renders what the tool loads at start; use match --as TOOL PATH for the files it adds".to_owned());
                }
                _ => {}
            }
        }
        let match_paths = match &cli.command {
            Command::Match { paths, stdin } => commands::matches::paths(paths, *stdin)
                .map_err(|err| format!("cannot read paths from standard input: {err}"))?,
            _ => Vec::new(),
        };
        let color = match cli.color {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => {
                let set = |name| std::env::var_os(name).is_some_and(|v| !v.is_empty());
                let forced =
                    std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
                !set("NO_COLOR") && (forced || std::io::stdout().is_terminal())
            }
        };
        Ok(Self {
            command: cli.command,
            cwd,
            home: cli.home,
            profile,
            options,
            host: cli.host,
            show_outside: cli.show_outside,
            json: cli.json,
            color,
            match_paths,
        })
    }

    /// Whether the command answers from the tools' own views alone (`compare`, `budget`,
    /// and `--as` but with `check`, which lints the rules too): it locates the project and
    /// discovers nothing.
    pub(crate) fn views_only(&self) -> bool {
        matches!(
            self.command,
            Command::Compare { .. } | Command::Budget { .. }
        ) || (self.host.is_some() && !matches!(self.command, Command::Check(_)))
    }
}

/// `--providers` and `--no-provider` checked against the registry and applied.
fn providers(allow: &[String], deny: &[String], mut options: Options) -> Result<Options, String> {
    let known: Vec<String> = options
        .registry()
        .infos()
        .into_iter()
        .map(|i| i.id)
        .collect();
    if let Some(unknown) = allow.iter().chain(deny).find(|id| !known.contains(id)) {
        return Err(format!(
            "unknown provider `{}`: use one of {}",
            printer::escape(unknown),
            known.join(", ")
        ));
    }
    if !allow.is_empty() {
        options = options.allow_providers(allow.iter().cloned());
    }
    Ok(options.deny_providers(deny.iter().cloned()))
}

/// `--option`s checked against the registry (each provider declares the options it reads:
/// `ProviderMeta::with_options`) and applied.
fn provider_options(given: &[String], mut options: Options) -> Result<Options, String> {
    let registry = options.registry();
    for option in given {
        let parsed = option
            .split_once('=')
            .and_then(|(name, value)| name.split_once('.').map(|(p, k)| (p, k, value)));
        match parsed {
            Some((provider, key, value)) if !provider.is_empty() && !key.is_empty() => {
                registry.check_option(provider, key, value).map_err(|why| {
                    format!(
                        "--option {}: {}",
                        printer::escape(option),
                        printer::escape(&why.to_string())
                    )
                })?;
                options = options.provider_option(provider, key, value);
            }
            _ => {
                return Err(format!(
                    "--option {}: write PROVIDER.KEY=VALUE, e.g. claude.allow_external_imports=true",
                    printer::escape(option)
                ));
            }
        }
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use clap::FromArgMatches;

    use super::Settings;
    use crate::args::{Cli, command};

    fn resolve(args: &[&str]) -> Result<Settings, String> {
        let matches = command()
            .try_get_matches_from(std::iter::once("rulebook").chain(args.iter().copied()))
            .map_err(|err| err.to_string())?;
        Settings::resolve(Cli::from_arg_matches(&matches).map_err(|err| err.to_string())?)
    }

    /// Every mistake of directories, providers, options and combinations is found when the
    /// arguments are resolved, before any command runs, and said in one line.
    #[test]
    fn each_mistake_is_found_when_the_arguments_are_resolved() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path().to_str().unwrap();
        let missing = dir.path().join("missing");
        let missing = missing.to_str().unwrap();
        let cases: [(&[&str], &str); 9] = [
            (
                &["-C", missing, "list"],
                "is not a directory; pass the project directory",
            ),
            (&["-C", cwd, "--root", missing, "list"], "--root"),
            (
                &["-C", cwd, "--no-provider", "cursr", "list"],
                "unknown provider `cursr`",
            ),
            (
                &["-C", cwd, "--option", "claude.nope=1", "list"],
                "`claude` has no option `nope`",
            ),
            (
                &["-C", cwd, "--option", "claude", "list"],
                "write PROVIDER.KEY=VALUE",
            ),
            (
                &[
                    "-C",
                    cwd,
                    "--profile",
                    "reference",
                    "prompt",
                    "--paths",
                    "a.rs",
                ],
                "reference profile",
            ),
            (
                &["-C", cwd, "--as", "claude", "skills"],
                "--as works with list, explain",
            ),
            (
                &["-C", cwd, "--as", "claude", "explain", "style"],
                "explain --as TOOL explains every file",
            ),
            (
                &["-C", cwd, "--as", "claude", "prompt", "--paths", "a.rs"],
                "use match --as TOOL PATH",
            ),
        ];
        for (args, expected) in cases {
            let Err(why) = resolve(args) else {
                panic!("{args:?} resolved");
            };
            assert!(why.contains(expected), "{args:?}: {why}");
            assert!(!why.contains('\n'), "{args:?}: {why}");
        }
    }

    /// What resolves is what the commands run with: the directory, the tool, the options.
    #[test]
    fn settings_carry_what_the_commands_need() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path().to_str().unwrap();
        let settings = resolve(&[
            "-C",
            cwd,
            "--color",
            "never",
            "--option",
            "claude.allow_external_imports=true",
            "--as",
            "claude",
            "list",
        ])
        .unwrap();
        assert_eq!(settings.cwd, dir.path());
        assert_eq!(settings.host.map(rulebook::Host::id), Some("claude"));
        assert!(settings.views_only());
        assert!(!settings.color);
        let ctx = settings.options.load_context(dir.path(), dir.path());
        assert_eq!(ctx.option("claude", "allow_external_imports"), Some("true"));
        let check = resolve(&["-C", cwd, "--as", "claude", "check"]).unwrap();
        assert!(!check.views_only());
    }
}
