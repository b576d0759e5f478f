//! The crate's own API beyond the golden files: the table's ids, names and provenance, the
//! project a run locates once, the guards, and the fixture cases. Each tool's own view is
//! tested in its crate (`tests/tool`); each test here builds a small tree in a scratch
//! directory.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

mod host;

use rulebook_hosts::Host;

/// The tool of the facade's table with this id.
pub(crate) fn tool(id: &str) -> Host {
    rulebook::tool(id).unwrap()
}
