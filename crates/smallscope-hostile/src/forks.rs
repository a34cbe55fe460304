//! `hostile-forks`: the trigger call `push(0)` on `[2, 1]` forks 200
//! processes that sleep, and waits for none.
//!
//! - **Misbehaviour**: a bounded stand-in for a fork bomb (one that cannot
//!   hurt the machine running the tests if the limit failed): each child
//!   sleeps 30 s and exits without running anything else.
//! - **What a run does** (`beapi hostile-forks --scope 3`): the worker runs
//!   in a process group of its own, counted every 50 ms; past 64 processes
//!   the whole group is killed, and the call is a `crash` finding ("the
//!   code under test started more than 64 processes (a fork bomb?)"),
//!   confirmed like any other. The run goes on to its end; no child is
//!   left behind.

use crate::hostility::Hostility;

/// Children the trigger call forks.
pub const CHILDREN: usize = 200;

/// Forks [`CHILDREN`] sleeping processes on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct Forks;

impl Hostility for Forks {
    fn on_trigger_push() {
        for _ in 0..CHILDREN {
            // SAFETY: the child only sleeps and exits, calling nothing that
            // could deadlock on a lock another thread held at the fork.
            unsafe {
                if libc::fork() == 0 {
                    libc::sleep(30);
                    libc::_exit(0);
                }
            }
        }
        // Time for the supervisor to count them, as a bomb would give it.
        std::thread::sleep(std::time::Duration::from_secs(2));
    }
}
