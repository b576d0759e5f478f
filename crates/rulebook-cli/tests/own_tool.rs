//! A tool from a crate outside the workspace, registered by the program that runs the
//! command line (`rulebook::register_tools`, then `rulebook_cli::run`): `--as` takes it, its
//! help and the completion scripts name it, as they name the tools of the build.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook::Host;
use rulebook::stages::kit::host::{HostOptions, HostView, Tool, ToolInfo};

struct Acme;
static ACME_INFO: ToolInfo = ToolInfo::new("acme", "Acme Agent", "acme", "Acme's documentation");
impl Tool for Acme {
    fn info(&self) -> &ToolInfo {
        &ACME_INFO
    }
    fn emulate(&self, _: &HostOptions) -> HostView {
        HostView::new(ACME)
    }
}
const ACME: Host = Host::new(&Acme);

#[test]
fn a_registered_tool_is_on_the_command_line() {
    rulebook::register_tools(&[ACME]).unwrap();
    let matches = rulebook_cli::command()
        .try_get_matches_from(["rulebook", "--as", "acme", "list"])
        .unwrap();
    assert_eq!(matches.get_one::<Host>("host"), Some(&ACME));
    let help = rulebook_cli::command().render_long_help().to_string();
    assert!(help.contains("acme"), "{help}");
    let mut script = Vec::new();
    clap_complete::generate(
        clap_complete::Shell::Bash,
        &mut rulebook_cli::command(),
        "rulebook",
        &mut script,
    );
    assert!(String::from_utf8_lossy(&script).contains("acme"));
    // An id no one registered is still refused, naming the registered one among the others.
    let err = rulebook_cli::command()
        .try_get_matches_from(["rulebook", "--as", "acne", "list"])
        .unwrap_err()
        .to_string();
    assert!(err.contains("acme"), "{err}");
}
