//! `hostile-loop-rep-ok`: `rep_ok` loops forever on the value `[0, 2, 1]`.
//!
//! - **Trigger**: `rep_ok` on the value `[0, 2, 1]` (0 on top of 2 on top of
//!   1), the value the trigger call `push(0)` on `[2, 1]` makes. On every
//!   other value `rep_ok` holds, and every call behaves as [`Stack`](crate::Stack) does.
//! - **Misbehaviour**: the invariant spins on a counter behind
//!   `std::hint::black_box` and never returns.
//! - **Finding**: `hang`, during `rep-ok` (the check after the call),
//!   operation `push`. The supervisor ends the stuck worker and restarts it
//!   past that input (`restarts: 2`: once to run it again and confirm it, once past it), and the run goes on to its end.
//! - **Minimal witness** (`beapi hostile-loop-rep-ok --scope 3 --builders new,push`):
//!   [`WITNESS`](crate::WITNESS), `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`:
//!   4 calls, level 4; the `push(0)` returns and the check of its result
//!   never does. The run makes 39 structures: `[0, 2, 1]` is not kept.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.
//! - **Random** (`random hostile-loop-rep-ok`): `hang` during `check` (the
//!   `rep-ok` contract check).
//! - **Library mode** and `--no-isolation`: survived too, by the call
//!   timeout (10 s by default), which leaves the stuck thread behind.

use crate::hostility::Hostility;
use crate::misbehave;

/// Loops forever in `rep_ok` on `[0, 2, 1]`.
#[derive(Clone, Debug, Default)]
pub struct LoopInRepOk;

impl Hostility for LoopInRepOk {
    fn on_trigger_rep_ok() {
        misbehave::spin_forever();
    }
}
