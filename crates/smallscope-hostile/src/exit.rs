//! `hostile-exit`: `push(0)` on `[2, 1]` calls `std::process::exit(3)`.
//!
//! - **Trigger**: the call `push(0)` on the value `[2, 1]` (2 on top of 1).
//!   Every other call on every other value behaves as [`Stack`](crate::Stack) does.
//! - **Misbehaviour**: the process exits normally with status 3 (no signal;
//!   `smallscope` itself only uses 0, 1, 2, 130 and 143), in the middle of
//!   the run.
//! - **Finding**: `exit`, during `call`, operation `push` ("the process
//!   exited with code 3"). The exit ends the worker, not the run: the
//!   supervisor reports it and restarts the worker past that call
//!   (`restarts: 2`: once to run it again and confirm it, once past it), the run goes on to its end, and the command exits
//!   with status 1 as for any failure.
//! - **Minimal witness** (`beapi hostile-exit --scope 3 --builders new,push`):
//!   [`WITNESS`](crate::WITNESS), `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`:
//!   4 calls, level 4. The run makes 39 structures: all the stacks of length
//!   at most 3 but `[0, 2, 1]`, which only the trigger call makes.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.
//! - **Library mode** and `--no-isolation`: the exit ends the process; a
//!   guard run at exit sees a thread in user code, says so in one line
//!   ("the code under test ended the process (exit) during call") and
//!   makes the status 2, whatever status the code gave.

use crate::hostility::Hostility;

/// The exit status of the trigger call.
pub const EXIT_STATUS: i32 = 3;

/// Exits the process with [`EXIT_STATUS`] on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct Exit;

impl Hostility for Exit {
    fn on_trigger_push() {
        std::process::exit(EXIT_STATUS);
    }
}
