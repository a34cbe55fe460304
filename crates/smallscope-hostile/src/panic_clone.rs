//! `hostile-panic-clone`: `Clone` panics on the value `[2, 1]`.
//!
//! - **Trigger**: `clone()` of the value `[2, 1]` (2 on top of 1). Cloning
//!   any other value, and every call, behaves as [`Stack`](crate::Stack) does.
//! - **Misbehaviour**: `clone()` panics with the message [`MESSAGE`]. BEAPI
//!   clones a stored structure to extend it, under capture as a call is.
//! - **Finding**: `panic`, during `clone`, operation `push` (the clone is of
//!   the receiver of the `push` below), with [`MESSAGE`]. The panic is
//!   caught in the worker: no restart. The engine then stops using `Clone`
//!   for this subject (a note in the summary says so) and rebuilds stored
//!   structures by replaying their sequences, so the run still makes all 40
//!   structures, `[0, 2, 1]` included.
//! - **Minimal witness** (`beapi hostile-panic-clone --scope 3 --builders new,push`):
//!   `s0 = new(); s0.push(1); s0.push(2); s0.clone()`: `[2, 1]` is built at
//!   level 3, and its first clone is for the level-4 call `s0.push(0)` on it.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.
//! - **Library mode** and `--no-isolation`: the panic is caught there too.

use crate::hostility::CloneHostility;

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
