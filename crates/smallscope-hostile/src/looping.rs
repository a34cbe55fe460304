//! `hostile-loop`: `push(0)` on `[2, 1]` loops forever.
//!
//! - **Trigger**: the call `push(0)` on the value `[2, 1]` (2 on top of 1).
//!   Every other call on every other value behaves as [`Stack`](crate::Stack) does.
//! - **Misbehaviour**: the call spins on a counter behind
//!   `std::hint::black_box`, using one core and no memory, and never returns.
//! - **Finding**: `hang`, during `call`, operation `push` ("did not return
//!   within 2 s (the call timeout)" with `--call-timeout 2`). The supervisor
//!   ends the stuck worker and restarts it past that call (`restarts: 2`: once to run it again and confirm it, once past it),
//!   and the run goes on to its end: it takes the call timeout plus well
//!   under a second.
//! - **Minimal witness** (`beapi hostile-loop --scope 3 --builders new,push`):
//!   [`WITNESS`](crate::WITNESS), `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`:
//!   4 calls, level 4. The run makes 39 structures: all the stacks of length
//!   at most 3 but `[0, 2, 1]`, which only the trigger call makes.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.
//! - **Random** (`random hostile-loop`): `hang` in `push`.
//! - **Library mode** and `--no-isolation`: survived too. The call timeout
//!   (10 s by default) reports the `hang`, leaves the stuck thread behind
//!   (spinning on its core) and goes on in a new one.

use crate::hostility::Hostility;
use crate::misbehave;

/// Loops forever on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct Loop;

impl Hostility for Loop {
    fn on_trigger_push() {
        misbehave::spin_forever();
    }
}
