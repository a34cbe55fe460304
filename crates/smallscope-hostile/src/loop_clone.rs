//! `hostile-loop-clone`: `Clone` loops forever on the value `[2, 1]`.
//!
//! - **Trigger**: `clone()` of the value `[2, 1]` (2 on top of 1). Cloning
//!   any other value, and every call, behaves as [`Stack`](crate::Stack) does.
//! - **Finding**: `hang`. BEAPI clones a stored structure to extend it, and
//!   it does so *outside* the captured call: the engine's current operation
//!   is still named `push`, but no call is running, so `--call-timeout` never
//!   fires and only a supervisor's own timeout ends the run. (The random
//!   tester copies values inside its captured calls, where the timeout sees it.)
//! - **Attributed to**: `Clone` (the copy of the receiver of the `push` below).
//! - **Minimal witness** (`beapi hostile-loop-clone --scope 3 --builders new,push`):
//!   `s0 = new(); s0.push(1); s0.push(2)` builds `[2, 1]` (level 3); the
//!   first clone of it is for the level-4 call `s0.push(0)` on it, whose
//!   sequence `s0 = new(); s0.push(1); s0.push(2); s0.push(0)` never runs.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.

use crate::hostile::CloneHostility;
use crate::misbehave;

/// Loops forever in `clone()` of `[2, 1]`.
#[derive(Debug, Default)]
pub struct LoopInClone;

impl CloneHostility for LoopInClone {
    fn on_trigger_clone() {
        misbehave::spin_forever();
    }
}
