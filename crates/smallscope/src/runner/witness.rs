//! [`returns_within`]: what a generated test of a `hang` runs its witness
//! in, so that the hang fails that test instead of stopping the test binary.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// Runs `body` on a thread of its own and panics if it has not returned
/// within `seconds`: a hang smallscope found fails its test, and the other
/// tests of the binary run on (the stuck thread is left behind, and ends
/// with the test binary). A panic in `body` is passed on.
///
/// ```
/// smallscope::runner::returns_within(10, || assert_eq!(1 + 1, 2));
/// let hung = std::panic::catch_unwind(|| smallscope::runner::returns_within(1, || loop {
///     std::thread::park();
/// }));
/// assert!(hung.is_err());
/// ```
pub fn returns_within(seconds: u64, body: impl FnOnce() + Send + 'static) {
    let (sender, receiver) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("smallscope-witness".into())
        .stack_size(super::USER_CODE_STACK)
        .spawn(move || {
            body();
            let _ = sender.send(());
        })
        .expect("spawning the witness's thread");
    match receiver.recv_timeout(Duration::from_secs(seconds)) {
        Ok(()) => {
            let _ = thread.join();
        }
        Err(RecvTimeoutError::Timeout) => {
            panic!("did not return within {seconds} s: the hang smallscope found")
        }
        Err(RecvTimeoutError::Disconnected) => {
            if let Err(payload) = thread.join() {
                std::panic::resume_unwind(payload);
            }
        }
    }
}
