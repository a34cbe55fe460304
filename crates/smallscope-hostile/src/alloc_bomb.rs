//! `hostile-alloc-bomb`: `push(0)` on `[2, 1]` allocates without bound.
//!
//! - **Trigger**: the call `push(0)` on the value `[2, 1]` (2 on top of 1).
//!   Every other call on every other value behaves as [`Stack`](crate::Stack) does.
//! - **Finding**: `out-of-memory`. The call keeps 1 MiB chunks of non-zero
//!   bytes (every page written, so resident memory grows by 1 MiB a chunk)
//!   in a local `Vec`, forever. Under an address-space limit (`RLIMIT_AS`)
//!   an allocation fails and Rust prints `memory allocation of 1048576 bytes
//!   failed` and aborts (`SIGABRT`); under a resident-memory limit the
//!   supervisor or the kernel's OOM killer ends it (`SIGKILL`).
//! - **Attributed to**: `push`.
//! - **Minimal witness** (`beapi hostile-alloc-bomb --scope 3 --builders new,push`):
//!   `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`: 4 calls, level 4.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.

use crate::hostile::Hostility;
use crate::misbehave;

/// Allocates without bound on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct AllocBomb;

impl Hostility for AllocBomb {
    fn on_trigger_push() {
        misbehave::exhaust_memory();
    }
}
