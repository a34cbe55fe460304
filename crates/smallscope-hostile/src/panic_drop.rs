//! `hostile-panic-drop`: `Drop` panics on the value `[2, 1]`.
//!
//! - **Trigger**: dropping the value `[2, 1]` (2 on top of 1). Dropping any
//!   other value, and every call, behaves as [`Stack`] does. It
//!   does not panic while the thread is already unwinding (that would abort).
//! - **Misbehaviour**: `drop` panics with the message [`MESSAGE`].
//! - **Finding**: `panic`, during `drop`, with no operation, with
//!   [`MESSAGE`]. BEAPI drops every user value under capture, so the panic is
//!   caught in the worker: no restart, and the run goes on to its end with
//!   all 40 structures.
//! - **Minimal witness** (`beapi hostile-panic-drop --scope 3 --builders new,push`):
//!   `s0 = new(); s0.push(1); s0.push(2); drop(s0)`. `s0 = new();
//!   s0.push(1); s0.push(2)` builds `[2, 1]` (level 3). BEAPI keeps it while
//!   level 4 extends it (each extension works on a clone, which the `push`
//!   changes) and drops it when it releases level 3's structures, after
//!   level 4 is done.
//! - **Before the trigger**: all 40 structures (levels 1 to 4: 1 + 3 + 9 +
//!   27); level 5 then explores its 81 sequences, all out of scope, and
//!   makes none.
//! - **Random** (`random hostile-panic-drop`): `panic` during `drop`; the
//!   random tester's values drop under capture too.
//! - **Library mode** and `--no-isolation`: the panic is caught there too.

use smallscope::Heap;

use crate::list::{Empty, Stack};

/// The panic message.
pub const MESSAGE: &str = "hostile-panic-drop: refusing to drop [2, 1]";

#[derive(Heap, Clone, Debug, Default)]
pub struct PanickingDrop(Stack);

impl Drop for PanickingDrop {
    fn drop(&mut self) {
        if self.0.is_trigger_value() && !std::thread::panicking() {
            panic!("{MESSAGE}");
        }
    }
}

#[smallscope::api(name = "hostile-panic-drop", rep_ok = rep_ok)]
impl PanickingDrop {
    pub fn new() -> Self {
        Self(Stack::new())
    }

    pub fn push(&mut self, x: u8) {
        self.0.push(x);
    }

    pub fn pop(&mut self) -> Result<u8, Empty> {
        self.0.pop()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn rep_ok(&self) -> bool {
        self.0.rep_ok()
    }
}
