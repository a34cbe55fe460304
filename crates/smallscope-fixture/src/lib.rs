//! Types written the way smallscope's users write them, not the way its
//! authors would: the fixture of the tests that try smallscope as a user.

pub mod deque;
pub mod enum_bst;
pub mod handle_arena;
pub mod inventory;
pub mod ordered_map;
pub mod ring;

/// The LRU cache and the graph live in a crate of their own, which the
/// tests of `cargo smallscope` copy as a user's crate.
pub use lru_graph::{graph, lru};

/// Does nothing. A harness binary calls it so that the linker keeps this
/// crate, and with it the subjects' registrations.
pub fn link() {}
