//! `hostile-recursion`: `push(0)` on `[2, 1]` recurses without bound.
//!
//! - **Trigger**: the call `push(0)` on the value `[2, 1]` (2 on top of 1).
//!   Every other call on every other value behaves as [`Stack`](crate::Stack) does.
//! - **Finding**: `stack-overflow`. A recursive helper with no base case keeps
//!   a 512-byte array in each frame; Rust prints `thread '…' has overflowed
//!   its stack` and aborts (`SIGABRT`). The `smallscope` binary runs subjects
//!   on a worker thread with a 256 MiB stack, so the process touches about
//!   256 MiB of stack first: a memory limit below that turns this into
//!   `out-of-memory`.
//! - **Attributed to**: `push`.
//! - **Minimal witness** (`beapi hostile-recursion --scope 3 --builders new,push`):
//!   `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`: 4 calls, level 4.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.

use crate::hostile::Hostility;
use crate::misbehave;

/// Recurses without bound on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct Recursion;

impl Hostility for Recursion {
    fn on_trigger_push() {
        misbehave::overflow_stack();
    }
}
