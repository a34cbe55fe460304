//! `hostile-recursion`: `push(0)` on `[2, 1]` recurses without bound.
//!
//! - **Trigger**: the call `push(0)` on the value `[2, 1]` (2 on top of 1).
//!   Every other call on every other value behaves as [`Stack`](crate::Stack) does.
//! - **Misbehaviour**: a recursive helper with no base case keeps a 512-byte
//!   array in each frame until the thread's stack overflows; Rust prints
//!   `thread '…' has overflowed its stack` and aborts (`SIGABRT`).
//! - **Finding**: `stack-overflow`, during `call`, operation `push` ("the
//!   stack overflowed (unbounded recursion?)"). The overflow kills the worker; the supervisor
//!   reports it and restarts the worker past that call (`restarts: 2`: once to run it again and confirm it, once past it), and
//!   the run goes on to its end. The worker's engine thread has a 256 MiB
//!   stack, or under `--memory-limit-mb` a quarter of the limit (at least
//!   8 MiB, at most 256 MiB), so the overflow stays a `stack-overflow`
//!   within the limit.
//! - **Minimal witness** (`beapi hostile-recursion --scope 3 --builders new,push`):
//!   [`WITNESS`](crate::WITNESS), `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`:
//!   4 calls, level 4. The run makes 39 structures: all the stacks of length
//!   at most 3 but `[0, 2, 1]`, which only the trigger call makes.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.
//! - **Random** (`random hostile-recursion`): `stack-overflow` in `push`.
//! - **Library mode** and `--no-isolation`: the overflow ends the process.

use crate::hostility::Hostility;
use crate::misbehave;

/// Recurses without bound on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct Recursion;

impl Hostility for Recursion {
    fn on_trigger_push() {
        misbehave::overflow_stack();
    }
}
