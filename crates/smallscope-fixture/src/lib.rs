//! Types written the way smallscope's users write them, not the way its
//! authors would: the fixture of the tests that try smallscope as a user.

pub mod inventory;
pub mod lru;
