//! What one run of chosen code did: the user's edges it took and the
//! comparisons it made, for branch-directed generation to pick witnesses
//! and to check flips (see `smallscope::random`'s branch phase).
//!
//! **Cost while on.** A lock and a push per user's edge taken, and what
//! [`super::comparisons`] costs while recording: for replays of chosen
//! sequences, not for a whole run.

use super::comparisons::{self, Observed};
use super::guards;

/// The user's edges (by number, each once) and comparison sites one traced run met.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    pub edges: Vec<u32>,
    pub comparisons: Vec<Observed>,
}

/// Runs `code` with the user's edges and comparisons written down, and
/// returns what it returned with what it met. What was met before is dropped.
pub fn traced<R>(code: impl FnOnce() -> R) -> (R, Trace) {
    guards::take_trace();
    comparisons::take();
    let result = {
        let _on = Switched::to(true);
        code()
    };
    (result, Trace { edges: guards::take_trace(), comparisons: comparisons::take() })
}

/// Runs `code` with tracing off, if it was on, and turns it back on after:
/// for the checks and copies an engine runs between the calls it traces,
/// which are not the code under test's doing.
pub fn untraced<R>(code: impl FnOnce() -> R) -> R {
    if !guards::tracing() {
        return code();
    }
    let _off = Switched::to(false);
    code()
}

/// Tracing switched on or off until dropped, then back (a panic out of
/// the code included).
struct Switched(bool);

impl Switched {
    fn to(on: bool) -> Switched {
        switch(on);
        Switched(on)
    }
}

impl Drop for Switched {
    fn drop(&mut self) {
        switch(!self.0);
    }
}

fn switch(on: bool) {
    guards::trace(on);
    comparisons::record(on);
}
