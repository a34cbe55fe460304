//! `hostile-abort`: `push(0)` on `[2, 1]` calls `std::process::abort()`.
//!
//! - **Trigger**: the call `push(0)` on the value `[2, 1]` (2 on top of 1).
//!   Every other call on every other value behaves as [`Stack`](crate::Stack) does.
//! - **Misbehaviour**: the process dies of `SIGABRT` at once, printing nothing.
//! - **Finding**: `abort`, during `call`, operation `push`. The abort kills
//!   the worker; the supervisor reports it and restarts the worker past that
//!   call (`restarts: 2`: once to run it again and confirm it, once past it), and the run goes on to its end.
//! - **Minimal witness** (`beapi hostile-abort --scope 3 --builders new,push`):
//!   [`WITNESS`](crate::WITNESS), `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`:
//!   4 calls, level 4. The run makes 39 structures: all the stacks of length
//!   at most 3 but `[0, 2, 1]`, which only the trigger call makes.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.
//! - **Random** (`random hostile-abort`): `abort` in `push`.
//! - **Library mode** and `--no-isolation`: the abort ends the process.

use crate::hostility::Hostility;

/// Aborts the process on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct Abort;

impl Hostility for Abort {
    fn on_trigger_push() {
        std::process::abort();
    }
}
