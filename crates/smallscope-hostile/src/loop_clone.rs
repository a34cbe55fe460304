//! `hostile-loop-clone`: `Clone` loops forever on the value `[2, 1]`.
//!
//! - **Trigger**: `clone()` of the value `[2, 1]` (2 on top of 1). Cloning
//!   any other value, and every call, behaves as [`Stack`](crate::Stack) does.
//! - **Misbehaviour**: `clone()` spins on a counter behind
//!   `std::hint::black_box` and never returns. BEAPI clones a stored
//!   structure to extend it, and the clone is watched by the call timeout as
//!   a call is.
//! - **Finding**: `hang`, during `clone`, operation `push` (the clone is of
//!   the receiver of the `push` below). The supervisor ends the stuck worker
//!   and restarts it past that clone (`restarts: 2`: once to run it again and confirm it, once past it). The engine then stops
//!   using `Clone` for this subject (a note in the summary says so) and
//!   rebuilds stored structures by replaying their sequences, so the run
//!   still makes all 40 structures, `[0, 2, 1]` included.
//! - **Minimal witness** (`beapi hostile-loop-clone --scope 3 --builders new,push`):
//!   `s0 = new(); s0.push(1); s0.push(2); s0.clone()`: `[2, 1]` is built at
//!   level 3, and its first clone is for the level-4 call `s0.push(0)` on it.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.
//! - **Random** (`random hostile-loop-clone`): `hang` during `clone`. The
//!   random tester copies shared values in a captured call of its own, then
//!   stops cloning and replays sequences from scratch.
//! - **Library mode** and `--no-isolation`: survived too, by the call
//!   timeout (10 s by default), which leaves the stuck thread behind.

use crate::hostility::CloneHostility;
use crate::misbehave;

/// Loops forever in `clone()` of `[2, 1]`.
#[derive(Debug, Default)]
pub struct LoopInClone;

impl CloneHostility for LoopInClone {
    fn on_trigger_clone() {
        misbehave::spin_forever();
    }
}
