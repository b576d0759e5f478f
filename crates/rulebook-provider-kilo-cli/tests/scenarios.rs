//! The Kilo Code CLI provider alone over its fixtures (`fixtures/<scenario>/{project,home}`),
//! both profiles side by side: one snapshot per scenario (`rulebook-test`).

use rulebook_provider_kilo_cli::KiloCliProvider;

#[test]
fn scenarios() {
    let table = rulebook_test::Only(KiloCliProvider);
    assert_eq!(rulebook_test::scenario_snapshots!(&table, "../fixtures"), 1);
}
