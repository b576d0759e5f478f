//! End-to-end tests of rulebook live in this crate's `tests/` folder; the library is empty.
