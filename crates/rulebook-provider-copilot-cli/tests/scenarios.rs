//! The GitHub Copilot CLI provider alone over its fixtures
//! (`fixtures/<scenario>/{project,home}`), both profiles side by side: one snapshot per
//! scenario (`rulebook-test`).

use rulebook_provider_copilot_cli::CopilotCliProvider;

#[test]
fn scenarios() {
    let table = rulebook_test::Only(CopilotCliProvider);
    assert_eq!(rulebook_test::scenario_snapshots!(&table, "../fixtures"), 1);
}
