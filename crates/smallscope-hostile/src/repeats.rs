//! Subjects whose misbehaviour repeats on many inputs: one operation, not a
//! builder, that loops or allocates without bound on **every** stack of 3
//! or more numbers. Each such stack is an input of the same failure group,
//! so a run that restarted its worker once per input would take the call
//! timeout (or the memory limit) once per stack.
//!
//! - **API**: `new`, `push(x: u8)`, `pop`, `len` and `inspect`, which reads
//!   the stack and misbehaves when it holds 3 or more numbers. Hill climbing
//!   picks `new, push` as builders; BEAPI's default `--check all` then calls
//!   `inspect` (and `pop`, `len`) on every structure it keeps.
//! - **What a run does** (`beapi <subject> --scope 4`, defaults otherwise):
//!   the first `inspect` on a stack of 3 numbers kills (or hangs) the worker;
//!   the supervisor runs that input again in a fresh worker to confirm it,
//!   and after `--max-repeats` (3) confirmed findings of the group
//!   (`hang` or `out-of-memory`, during `call`, operation `inspect`) it
//!   quarantines `inspect`: the run goes on without calling it, says so in
//!   a note, keeps every structure (1 + 4 + 16 + 64 + 256 stacks at scope 4
//!   with the numbers 0..4... as the domain gives them) and exits with 1.
//! - [`hostile-repeat-loop`](LoopsOnLong): `inspect` spins forever.
//! - [`hostile-repeat-alloc`](AllocatesOnLong): `inspect` allocates 1 MiB
//!   chunks until the memory limit (1 GiB by default under isolation).

use std::fmt::Debug;
use std::marker::PhantomData;

use smallscope::Heap;

use crate::list::{Empty, Stack};
use crate::misbehave;

/// How many numbers a stack holds before `inspect` misbehaves on it.
pub const LONG: usize = 3;

/// What `inspect` does on a stack of [`LONG`] or more numbers.
pub trait OnLong: Clone + Debug + Default + 'static {
    fn misbehave() -> !;
}

/// `inspect` spins forever.
#[derive(Clone, Debug, Default)]
pub struct LoopsOnLong;

impl OnLong for LoopsOnLong {
    fn misbehave() -> ! {
        misbehave::spin_forever()
    }
}

/// `inspect` allocates without bound.
#[derive(Clone, Debug, Default)]
pub struct AllocatesOnLong;

impl OnLong for AllocatesOnLong {
    fn misbehave() -> ! {
        misbehave::exhaust_memory()
    }
}

/// A stack whose `inspect` misbehaves on every stack of [`LONG`] or more numbers.
#[derive(Heap, Clone, Debug, Default)]
pub struct RepeatStack<R: OnLong> {
    stack: Stack,
    #[heap(skip)]
    on_long: PhantomData<R>,
}

#[smallscope::api(
    rep_ok = rep_ok,
    register(
        "hostile-repeat-loop" = RepeatStack<LoopsOnLong>,
        "hostile-repeat-alloc" = RepeatStack<AllocatesOnLong>,
    )
)]
impl<R: OnLong> RepeatStack<R> {
    pub fn new() -> Self {
        RepeatStack { stack: Stack::new(), on_long: PhantomData }
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

    /// The sum of the numbers; misbehaves on a stack of [`LONG`] or more.
    pub fn inspect(&self) -> u32 {
        if self.stack.len() >= LONG {
            R::misbehave();
        }
        self.stack.values().map(u32::from).sum()
    }

    pub fn rep_ok(&self) -> bool {
        self.stack.rep_ok()
    }
}
