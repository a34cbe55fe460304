//! The tests on the fixture types: Rust written the way people write it, not for the tool.
//!
//! One test binary, not one per file: each binary links the crates again,
//! and `cargo test` runs binaries one after another, so that one long test
//! kept the others waiting.

mod beapi_forms;
mod model_search;

mod api_errors;
mod deque;
mod emitted_files;
mod enum_bst;
mod graph;
mod handle_arena;
mod hang_witnesses;
mod inventory;
mod lru;
mod node_handles;
mod ordered_map;
