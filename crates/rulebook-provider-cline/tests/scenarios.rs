//! The Cline provider alone over its fixtures (`fixtures/<scenario>/{project,home}`),
//! both profiles side by side: one snapshot per scenario (`rulebook-test`).

use rulebook_provider_cline::ClineProvider;

#[test]
fn scenarios() {
    let table = rulebook_test::Only(ClineProvider);
    assert_eq!(rulebook_test::scenario_snapshots!(&table, "../fixtures"), 5);
}
