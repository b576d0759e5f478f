//! The Goose provider alone over its fixtures (`fixtures/<scenario>/{project,home}`),
//! both profiles side by side: one snapshot per scenario (`rulebook-test`).

use rulebook_provider_goose::GooseProvider;

#[test]
fn scenarios() {
    let table = rulebook_test::Only(GooseProvider);
    assert_eq!(rulebook_test::scenario_snapshots!(&table, "../fixtures"), 1);
}
