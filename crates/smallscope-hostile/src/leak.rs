//! `hostile-leak`: every `push` onto a non-empty stack leaks 1 MiB.
//!
//! Unlike the other subjects this one has no single trigger: memory grows
//! steadily with the number of calls, which is what a memory limit must catch.
//!
//! - **Trigger**: every call `push(x)` on a non-empty value leaks 1 MiB of
//!   non-zero bytes (every page written, so resident memory grows by 1 MiB a
//!   call) and then pushes as [`Stack`] does. `push` on the
//!   empty stack, `pop` and `len` leak nothing. The results are correct.
//! - **Finding** (with `--memory-limit-mb 64`): `out-of-memory`, during
//!   `call`, operation `push`. The engines look at memory between inputs;
//!   past 85% of the limit, the input that kept much of it is the failure
//!   ("memory reached 85% of the limit, and this input kept 1024 KiB of it:
//!   memory grows with each call (a leak?)"), and the run stops there
//!   (`stop: memory-limit`) with what it found. The worker is not restarted.
//!   Peak memory is about 62 MiB. Without a memory limit there is no
//!   finding: the run ends normally.
//! - **Witness**: the input that crossed 85% of the limit; no minimal one.
//!   The first leaking call is the third of `s0 = new(); s0.push(0);
//!   s0.push(0)` (level 3).
//! - **Before the trigger** (`beapi hostile-leak --scope 3 --builders new,push`):
//!   levels 1 and 2 make 4 structures and leak nothing. Level 3 makes 9
//!   pushes (9 MiB leaked by its end), level 4 makes 27 (36 MiB), and level
//!   5 makes 81 pushes on the stacks of length 3, whose results are out of
//!   scope (117 MiB). Without a limit the run then ends with its 40
//!   structures and exit status 0, having leaked 117 MiB.
//! - **Random** (`random hostile-leak --memory-limit-mb 64`):
//!   `out-of-memory` in `push` and `stop: memory-limit`. Failures found
//!   after a memory stop are not simplified, and no regression tests are
//!   made.

use crate::hostility::Hostility;
use crate::list::Stack;
use crate::misbehave;

/// Leaks 1 MiB in every push onto a non-empty stack.
#[derive(Clone, Debug, Default)]
pub struct Leak;

impl Hostility for Leak {
    fn before_push(stack: &Stack, _x: u8) {
        if !stack.is_empty() {
            misbehave::leak_mib();
        }
    }
}
