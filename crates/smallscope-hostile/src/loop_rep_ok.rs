//! `hostile-loop-rep-ok`: `rep_ok` loops forever on the value `[0, 2, 1]`.
//!
//! - **Trigger**: `rep_ok` on the value `[0, 2, 1]` (0 on top of 2 on top of
//!   1), the value the trigger call `push(0)` on `[2, 1]` makes. On every
//!   other value `rep_ok` holds, and every call behaves as [`Stack`](crate::Stack) does.
//! - **Finding**: `hang`: the invariant spins on a counter behind
//!   `std::hint::black_box` and never returns. BEAPI checks it inside a
//!   captured call, so `--call-timeout` sees it (the `smallscope` binary then
//!   exits with status 2 naming `push`, "or the invariant checked after it").
//! - **Attributed to**: `rep_ok`, checked after `push`.
//! - **Minimal witness** (`beapi hostile-loop-rep-ok --scope 3 --builders new,push`):
//!   `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`: 4 calls, level 4;
//!   the `push(0)` returns and the check of its result never does.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.

use crate::hostile::Hostility;
use crate::misbehave;

/// Loops forever in `rep_ok` on `[0, 2, 1]`.
#[derive(Clone, Debug, Default)]
pub struct LoopInRepOk;

impl Hostility for LoopInRepOk {
    fn on_trigger_rep_ok() {
        misbehave::spin_forever();
    }
}
