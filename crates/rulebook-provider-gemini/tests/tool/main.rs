//! Gemini CLI's provider (GEMINI.md in the union view) and its own view (`--as gemini`),
//! each test on a scratch tree.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

mod rules;
mod view;

/// The tool of the facade's table with this id.
#[allow(dead_code, reason = "not every part of the suite looks up a tool")]
fn tool(id: &str) -> rulebook::Host {
    rulebook::tool(id).unwrap()
}
