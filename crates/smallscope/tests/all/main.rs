//! The library's tests: engines, heap walks and supervision, through the public API.
//!
//! One test binary, not one per file: each binary links the crates again,
//! and `cargo test` runs binaries one after another, so that one long test
//! kept the others waiting.

mod api_shapes;
mod engine;
mod heap_shapes;
mod import_cycles;
mod linearize;
mod other_subjects;
mod picture;
mod random;
mod supervision;
mod whole_api;
