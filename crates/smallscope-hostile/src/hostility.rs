//! The hooks each marker type fills in: what a hostile subject does wrong,
//! and when.

use std::fmt::Debug;

use crate::list::Stack;

/// What a [`HostileStack`](crate::HostileStack) does wrong. Every hook does nothing unless the
/// marker overrides it.
pub trait Hostility: Clone + Debug + Default + 'static {
    /// Runs first in every `push(x)` on `stack`; by default it runs
    /// [`on_trigger_push`](Self::on_trigger_push) on the trigger call.
    fn before_push(stack: &Stack, x: u8) {
        if stack.is_trigger_push(x) {
            Self::on_trigger_push();
        }
    }

    /// Runs first in the trigger call `push(0)` on `[2, 1]`.
    fn on_trigger_push() {}

    /// Runs first in `rep_ok` on `[0, 2, 1]`.
    fn on_trigger_rep_ok() {}
}

/// What cloning `[2, 1]` does in a [`HostileClone`](crate::HostileClone).
pub trait CloneHostility: Debug + Default + 'static {
    /// Runs first in `clone()` of `[2, 1]`.
    fn on_trigger_clone();
}
