//! Types written the way smallscope's users write them, not the way its
//! authors would: the fixture of the tests that try smallscope as a user.

pub mod enum_bst;
pub mod lru;
pub mod ordered_map;
