//! The tests of `cargo smallscope`: each file a user's story on a crate outside the workspace.
//!
//! One test binary, not one per file: each binary links the crates again,
//! and `cargo test` runs binaries one after another, so that one long test
//! kept the others waiting.

mod common;
mod models;

mod branch;
mod coverage;
mod crates_io;
mod errors;
mod everyday;
mod korat_guide;
mod planted_bug;
mod readme;
