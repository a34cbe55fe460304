//! The example crate's tests: what its guides promise.
//!
//! One test binary, not one per file: each binary links the crates again,
//! and `cargo test` runs binaries one after another, so that one long test
//! kept the others waiting.

mod generate;
mod korat_model;
mod random_contract;
