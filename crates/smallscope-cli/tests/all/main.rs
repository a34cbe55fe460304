//! The tests of the `smallscope` command line, run as a user runs it.
//!
//! One test binary, not one per file: each binary links the crates again,
//! and `cargo test` runs binaries one after another, so that one long test
//! kept the others waiting.

mod common;

mod battery;
mod builders;
mod cli;
mod cluster;
mod compare;
mod emitted_tests;
mod interrupt;
mod random;
mod report;
mod suite;
mod unchanged;
mod valgrind;
