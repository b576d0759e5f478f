//! End-to-end tests of rulebook live in this crate's `tests/` folder: they run the built
//! `rulebook` binary over `fixtures/` and snapshot what a person sees. The library is
//! empty.
