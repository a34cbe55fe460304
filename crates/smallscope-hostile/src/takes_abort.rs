//! `hostile-takes-abort`: a subject whose builder takes a
//! `&HostileStack<Abort>`, whose code aborts while smallscope makes the
//! stacks that the parameter ranges over.
//!
//! - **Trigger**: before the run, BEAPI makes `hostile-abort`'s structures
//!   at the run's scope, and one of its calls is `push(0)` on `[2, 1]`.
//! - **Misbehaviour**: the process dies of `SIGABRT` in the other subject's code.
//! - **What happens**: the supervisor restarts the worker (`restarts: 2`: once to run it again and confirm it, once past it);
//!   the stacks' run steps past the trigger call and ends with every stack
//!   but `[0, 2, 1]`. The abort is in the other subject's code, so it is not
//!   a finding of this run: a note says that the stacks' run found a failure
//!   and to run BEAPI on it.
//! - **Structures** (`beapi hostile-takes-abort --scope 3`): the shelf
//!   records a stack's length, 0 to 3: 4 structures.

use smallscope::Heap;

use crate::abort::Abort;
use crate::hostile::HostileStack;

/// How long the last stack put on the shelf was.
#[derive(Heap, Clone, Debug, Default)]
pub struct Shelf {
    length: u8,
}

#[smallscope::api(name = "hostile-takes-abort")]
impl Shelf {
    pub fn new() -> Self {
        Shelf::default()
    }

    pub fn measure(&mut self, stack: &HostileStack<Abort>) {
        self.length = stack.len() as u8;
    }
}
