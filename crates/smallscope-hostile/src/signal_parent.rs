//! `hostile-signal-parent`: `push(0)` on `[2, 1]` sends SIGTERM to the
//! process's parent, then carries on as [`Stack`](crate::Stack) does.
//!
//! - **Under isolation** the parent is the supervisor: the signal comes
//!   from its worker, not from a person, so it stops nothing. The run says
//!   so in one line and ends as it would have (all 40 stacks at scope 3
//!   with `--builders new,push`, exit 0).
//! - **Before**: the supervisor took it for the user's SIGTERM, stopped
//!   the run early and exited 143.

use crate::hostility::Hostility;

/// Sends SIGTERM to the parent process on the trigger call.
#[derive(Clone, Debug, Default)]
pub struct SignalParent;

impl Hostility for SignalParent {
    fn on_trigger_push() {
        // SAFETY: kill(2) and getppid(2), no memory involved.
        unsafe {
            libc::kill(libc::getppid(), libc::SIGTERM);
        }
        // Time for the signal to arrive before the run could end.
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}
