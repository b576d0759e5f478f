//! The `rulebook` binary: [`rulebook_cli::run`] on this process's command line.

fn main() -> std::process::ExitCode {
    rulebook_cli::run()
}
