//! Counts of the built-in subjects against closed forms, brute force and published tables.
//!
//! One test binary, not one per file: each binary links the crates again,
//! and `cargo test` runs binaries one after another, so that one long test
//! kept the others waiting.

mod builders_and_bugs;
mod korat_counts;
mod korat_exact;
mod korat_heaps;
mod korat_plus;
mod list_counts;
mod monotone;
mod std_traits;
mod tree_counts;
