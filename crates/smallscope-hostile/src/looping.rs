//! `hostile-loop`: `push(0)` on `[2, 1]` loops forever.
//!
//! - **Trigger**: the call `push(0)` on the value `[2, 1]` (2 on top of 1).
//!   Every other call on every other value behaves as [`Stack`](crate::Stack) does.
//! - **Finding**: `hang`: the call spins on a counter behind
//!   `std::hint::black_box`, using one core and no memory, and never returns.
//!   It runs inside the engine's captured call, so `--call-timeout` sees it
//!   (the `smallscope` binary then exits with status 2 naming `push`).
//! - **Attributed to**: `push`.
//! - **Minimal witness** (`beapi hostile-loop --scope 3 --builders new,push`):
//!   `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`: 4 calls, level 4.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.

use crate::hostile::Hostility;
use crate::misbehave;

/// Loops forever on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct Loop;

impl Hostility for Loop {
    fn on_trigger_push() {
        misbehave::spin_forever();
    }
}
