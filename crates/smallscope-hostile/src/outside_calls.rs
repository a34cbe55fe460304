//! Two subjects that end or break the worker outside any call: the harm is
//! done by the trigger call `push(0)` on `[2, 1]`, and shows later.
//!
//! - `hostile-thread-exit` ([`ThreadExit`]): the trigger call starts a
//!   thread that calls `exit(0)` a moment later, whatever the run is doing.
//! - `hostile-closes-fds` ([`ClosesFds`]): the trigger call closes every file
//!   descriptor above standard error, the worker's event pipe among them.
//! - **What a run does** (`beapi <subject> --scope 3 --out D`): the worker
//!   dies between calls, with no input to blame. The run ends with one line
//!   that names what happened (a thread of the code under test called
//!   `exit`; the event pipe was closed under the worker), not as a
//!   smallscope bug; what it committed is in `D`, and the exit status is 2.

use std::time::Duration;

use crate::hostility::Hostility;

/// Starts a thread that exits the process with status 0.
#[derive(Clone, Debug, Default)]
pub struct ThreadExit;

impl Hostility for ThreadExit {
    fn on_trigger_push() {
        std::thread::spawn(|| {
            std::thread::sleep(Duration::from_millis(20));
            std::process::exit(0);
        });
    }
}

/// Closes every descriptor from 3 to 1023.
#[derive(Clone, Debug, Default)]
pub struct ClosesFds;

impl Hostility for ClosesFds {
    fn on_trigger_push() {
        for fd in 3..1024 {
            // SAFETY: closing descriptors is the misbehaviour under test.
            unsafe { libc::close(fd) };
        }
    }
}
