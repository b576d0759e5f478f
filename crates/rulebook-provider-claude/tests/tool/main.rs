//! Claude Code's provider (what the union view reads of its files) and its own view (`--as claude`),
//! each test on a scratch tree.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

mod rules;
mod view;

/// The tool of the facade's table with this id.
#[allow(dead_code, reason = "not every part of the suite looks up a tool")]
fn tool(id: &str) -> rulebook::Host {
    rulebook::tool(id).unwrap()
}
