//! `hostile-panic-clone`: `Clone` panics on the value `[2, 1]`.
//!
//! - **Trigger**: `clone()` of the value `[2, 1]` (2 on top of 1). Cloning
//!   any other value, and every call, behaves as [`Stack`](crate::Stack) does.
//! - **Finding**: `panic`, with the message [`MESSAGE`]. BEAPI clones a
//!   stored structure to extend it *outside* the captured call, so today the
//!   panic is not caught: it unwinds the engine's thread, and the `smallscope`
//!   binary says that it panicked itself and exits with status 2. (The random
//!   tester copies values inside its captured calls and reports a failure.)
//! - **Attributed to**: `Clone` (the copy of the receiver of the `push` below).
//! - **Minimal witness** (`beapi hostile-panic-clone --scope 3 --builders new,push`):
//!   `s0 = new(); s0.push(1); s0.push(2)` builds `[2, 1]` (level 3); the
//!   first clone of it is for the level-4 call `s0.push(0)` on it, whose
//!   sequence `s0 = new(); s0.push(1); s0.push(2); s0.push(0)` never runs.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.

use crate::hostile::CloneHostility;

/// The panic message.
pub const MESSAGE: &str = "hostile-panic-clone: refusing to clone [2, 1]";

/// Panics in `clone()` of `[2, 1]`.
#[derive(Debug, Default)]
pub struct PanicInClone;

impl CloneHostility for PanicInClone {
    fn on_trigger_clone() {
        panic!("{MESSAGE}");
    }
}
