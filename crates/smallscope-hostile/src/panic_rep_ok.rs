//! `hostile-panic-rep-ok`: `rep_ok` panics on the value `[0, 2, 1]`.
//!
//! The in-process case: the panic is caught wherever the engine runs (a
//! worker, `--no-isolation` or library mode), so this subject's engine runs
//! are also tested in-process (`src/tests.rs`).
//!
//! - **Trigger**: `rep_ok` on the value `[0, 2, 1]` (0 on top of 2 on top of
//!   1), the value the trigger call `push(0)` on `[2, 1]` makes. On every
//!   other value `rep_ok` holds, and every call behaves as [`Stack`](crate::Stack) does.
//! - **Misbehaviour**: `rep_ok` panics with the message [`MESSAGE`].
//! - **Finding**: `panic`, during `rep-ok` (the check after the call),
//!   operation `push`, with [`MESSAGE`]. The panic is caught in the worker:
//!   no restart. BEAPI reports one failure group, "rep_ok panicked after
//!   `push`", with 1 failing sequence, keeps the other 39 structures, and
//!   the command exits with status 1.
//! - **Minimal witness** (`beapi hostile-panic-rep-ok --scope 3 --builders new,push`):
//!   [`WITNESS`](crate::WITNESS), `s0 = new(); s0.push(1); s0.push(2); s0.push(0)`:
//!   4 calls, level 4.
//! - **Before the trigger**: 13 structures at levels 1 to 3, and 15 of level
//!   4 (the pushes on the 5 stacks of length 2 made before `[2, 1]`): 28.

use crate::hostility::Hostility;

/// The panic message.
pub const MESSAGE: &str = "hostile-panic-rep-ok: refusing to check [0, 2, 1]";

/// Panics in `rep_ok` on `[0, 2, 1]`.
#[derive(Clone, Debug, Default)]
pub struct PanicInRepOk;

impl Hostility for PanicInRepOk {
    fn on_trigger_rep_ok() {
        panic!("{MESSAGE}");
    }
}
