//! `hostile-abort`: `push(0)` on `[2, 1]` calls `std::process::abort()`.
//!
//! - **Trigger**: the call `push(0)` on the value `[2, 1]` (2 on top of 1).
//!   Every other call on every other value behaves as [`Stack`](crate::Stack) does.
//! - **Finding**: `abort`: the process dies of `SIGABRT` at once, printing nothing.
//! - **Attributed to**: `push`.
//! - **Minimal witness** (`beapi hostile-abort --scope 3 --builders new,push`):
//!   `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`: 4 calls, level 4.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.

use crate::hostile::Hostility;

/// Aborts the process on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct Abort;

impl Hostility for Abort {
    fn on_trigger_push() {
        std::process::abort();
    }
}
