//! The shared API of the subjects, registered once per marker type (as the
//! built-in subjects register their planted bugs):
//!
//! - [`HostileStack<H>`](HostileStack): `push` or `rep_ok` misbehaves as the
//!   marker `H` says; `Clone` and `Debug` are derived, and there is no `Drop`;
//! - [`HostileClone<C>`](HostileClone): `Clone`, written by hand, misbehaves
//!   as the marker `C` says; the operations are the plain stack's.
//!
//! The one subject that misbehaves in `Drop` is a newtype of its own,
//! [`PanickingDrop`](crate::panic_drop::PanickingDrop).

use std::fmt::Debug;
use std::marker::PhantomData;

use smallscope::Heap;

use crate::hostility::{CloneHostility, Hostility};
use crate::list::{Empty, Stack};
use crate::{
    abort, alloc_bomb, exit, forks, leak, loop_clone, loop_rep_ok, looping, outside_calls, panic_clone, panic_rep_ok,
    recursion, signal_parent,
};

/// A stack whose `push` or `rep_ok` misbehaves as `H` says.
#[derive(Heap, Clone, Debug, Default)]
pub struct HostileStack<H: Hostility> {
    stack: Stack,
    #[heap(skip)]
    hostility: PhantomData<H>,
}

#[smallscope::api(
    rep_ok = rep_ok,
    register(
        "hostile-recursion" = HostileStack<recursion::Recursion>,
        "hostile-abort" = HostileStack<abort::Abort>,
        "hostile-exit" = HostileStack<exit::Exit>,
        "hostile-signal-parent" = HostileStack<signal_parent::SignalParent>,
        "hostile-loop" = HostileStack<looping::Loop>,
        "hostile-loop-rep-ok" = HostileStack<loop_rep_ok::LoopInRepOk>,
        "hostile-alloc-bomb" = HostileStack<alloc_bomb::AllocBomb>,
        "hostile-leak" = HostileStack<leak::Leak>,
        "hostile-panic-rep-ok" = HostileStack<panic_rep_ok::PanicInRepOk>,
        "hostile-thread-exit" = HostileStack<outside_calls::ThreadExit>,
        "hostile-closes-fds" = HostileStack<outside_calls::ClosesFds>,
        "hostile-forks" = HostileStack<forks::Forks>,
    )
)]
impl<H: Hostility> HostileStack<H> {
    pub fn new() -> Self {
        HostileStack { stack: Stack::new(), hostility: PhantomData }
    }

    pub fn push(&mut self, x: u8) {
        H::before_push(&self.stack, x);
        self.stack.push(x);
    }

    pub fn pop(&mut self) -> Result<u8, Empty> {
        self.stack.pop()
    }

    pub fn len(&self) -> usize {
        self.stack.len()
    }

    pub fn rep_ok(&self) -> bool {
        if self.stack.is_trigger_after_push() {
            H::on_trigger_rep_ok();
        }
        self.stack.rep_ok()
    }
}

/// A stack whose `Clone` misbehaves on `[2, 1]` as `C` says.
#[derive(Heap, Debug, Default)]
pub struct HostileClone<C: CloneHostility> {
    stack: Stack,
    #[heap(skip)]
    hostility: PhantomData<C>,
}

impl<C: CloneHostility> Clone for HostileClone<C> {
    fn clone(&self) -> Self {
        if self.stack.is_trigger_value() {
            C::on_trigger_clone();
        }
        HostileClone { stack: self.stack.clone(), hostility: PhantomData }
    }
}

#[smallscope::api(
    rep_ok = rep_ok,
    register(
        "hostile-loop-clone" = HostileClone<loop_clone::LoopInClone>,
        "hostile-panic-clone" = HostileClone<panic_clone::PanicInClone>,
    )
)]
impl<C: CloneHostility> HostileClone<C> {
    pub fn new() -> Self {
        HostileClone { stack: Stack::new(), hostility: PhantomData }
    }

    pub fn push(&mut self, x: u8) {
        self.stack.push(x);
    }

    pub fn pop(&mut self) -> Result<u8, Empty> {
        self.stack.pop()
    }

    pub fn len(&self) -> usize {
        self.stack.len()
    }

    pub fn rep_ok(&self) -> bool {
        self.stack.rep_ok()
    }
}
