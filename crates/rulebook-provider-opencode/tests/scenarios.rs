//! The OpenCode provider alone over its fixtures (`fixtures/<scenario>/{project,home}`),
//! both profiles side by side: one snapshot per scenario (`rulebook-test`).

use rulebook_provider_opencode::OpencodeProvider;

#[test]
fn scenarios() {
    let table = rulebook_test::Only(OpencodeProvider);
    assert_eq!(rulebook_test::scenario_snapshots!(&table, "../fixtures"), 1);
}
