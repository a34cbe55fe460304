//! `hostile-alloc-bomb`: `push(0)` on `[2, 1]` allocates without bound.
//!
//! - **Trigger**: the call `push(0)` on the value `[2, 1]` (2 on top of 1).
//!   Every other call on every other value behaves as [`Stack`](crate::Stack) does.
//! - **Misbehaviour**: the call keeps 1 MiB chunks of non-zero bytes (every
//!   page written, so resident memory grows by 1 MiB a chunk) in a local
//!   `Vec`, forever.
//! - **Finding** (with `--memory-limit-mb 64`): `out-of-memory`, during
//!   `call`, operation `push` ("memory passed the limit of 64 MiB in this
//!   call"). The worker counts its allocations and refuses the one that
//!   passes the limit, which ends the worker; the supervisor reports it and
//!   restarts the worker past that call (`restarts: 2`: once to run it again and confirm it, once past it), and the run goes on
//!   to its end. Peak memory is about 66 MiB.
//! - **Minimal witness** (`beapi hostile-alloc-bomb --scope 3 --builders new,push --memory-limit-mb 64`):
//!   [`WITNESS`](crate::WITNESS), `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`:
//!   4 calls, level 4. The run makes 39 structures: all the stacks of length
//!   at most 3 but `[0, 2, 1]`, which only the trigger call makes.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.
//! - **Random** (`random hostile-alloc-bomb --memory-limit-mb 64`):
//!   `out-of-memory` in `push`; the worker is restarted and the run ends by
//!   its time limit.
//! - **Library mode** and `--no-isolation`: the runaway allocation ends the
//!   process.

use crate::hostility::Hostility;
use crate::misbehave;

/// Allocates without bound on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct AllocBomb;

impl Hostility for AllocBomb {
    fn on_trigger_push() {
        misbehave::exhaust_memory();
    }
}
