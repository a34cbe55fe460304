//! Types written the way smallscope's users write them, not the way its
//! authors would: the fixture of the tests that try smallscope as a user.

pub mod deque;
pub mod enum_bst;
pub mod graph;
pub mod inventory;
pub mod lru;
pub mod ordered_map;

/// Does nothing. A harness binary calls it so that the linker keeps this
/// crate, and with it the subjects' registrations.
pub fn link() {}
