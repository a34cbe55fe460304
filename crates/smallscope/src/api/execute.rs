//! Running user code: panics are caught, silenced and classified.
//!
//! A panic hook installed once records each panic's message and location in
//! a thread-local while smallscope is running user code, and prints nothing;
//! outside [`run_captured`] it defers to the hook that was there before.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, Once};

/// A panic caught while running user code.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PanicInfo {
    pub message: String,
    /// `file:line:column` where it panicked.
    pub location: Option<String>,
}

impl std::fmt::Display for PanicInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.location {
            Some(location) => write!(f, "{} at {location}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// How a call ended when it did not return.
#[derive(Debug)]
pub enum Outcome {
    /// `smallscope::assume!` failed: a precondition, so misuse.
    AssumeFailed(PanicInfo),
    /// Any other panic.
    Panicked(PanicInfo),
}

/// The payload of a failed `smallscope::assume!`.
struct AssumeFailed(&'static str);

/// Panics with the payload that marks misuse; called by `smallscope::assume!`.
#[doc(hidden)]
pub fn assume_failed(condition: &'static str) -> ! {
    panic::panic_any(AssumeFailed(condition))
}

thread_local! {
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<(PanicInfo, bool)>> = const { RefCell::new(None) };
}

fn install_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CAPTURING.with(Cell::get) {
                previous(info);
                return;
            }
            let payload = info.payload();
            let (message, assumed) = if let Some(a) = payload.downcast_ref::<AssumeFailed>() {
                (format!("assumption failed: {}", a.0), true)
            } else if let Some(s) = payload.downcast_ref::<&str>() {
                ((*s).to_owned(), false)
            } else if let Some(s) = payload.downcast_ref::<String>() {
                (s.clone(), false)
            } else {
                ("panic with a non-string payload".to_owned(), false)
            };
            let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            LAST_PANIC.with(|last| *last.borrow_mut() = Some((PanicInfo { message, location }, assumed)));
        }));
    });
}

/// Calls into user code started so far, and whether one is running: a
/// watchdog thread reads them to tell a call that never returns.
static CALLS_STARTED: AtomicU64 = AtomicU64::new(0);
static IN_CALL: AtomicBool = AtomicBool::new(false);
static OPERATION: Mutex<&'static str> = Mutex::new("");

/// Names the operation the following calls run, for [`call_watch`].
pub fn set_current_operation(name: &'static str) {
    *OPERATION.lock().unwrap_or_else(|e| e.into_inner()) = name;
}

/// A snapshot of user-code calls: how many started, whether one is running,
/// and the operation last named. Sampled twice a while apart, an unchanged
/// count with a call running means that call has not returned since.
pub fn call_watch() -> (u64, bool, &'static str) {
    let operation = *OPERATION.lock().unwrap_or_else(|e| e.into_inner());
    (CALLS_STARTED.load(Ordering::Relaxed), IN_CALL.load(Ordering::Relaxed), operation)
}

/// Runs `f`, turning a panic into an [`Outcome`] without printing anything.
pub fn run_captured<R>(f: impl FnOnce() -> R) -> Result<R, Outcome> {
    install_hook();
    let was = CAPTURING.with(|c| c.replace(true));
    // Plain load and store, not a locked add: a lost update from another
    // thread still changes the count, which is all a watchdog reads.
    CALLS_STARTED.store(CALLS_STARTED.load(Ordering::Relaxed).wrapping_add(1), Ordering::Relaxed);
    IN_CALL.store(true, Ordering::Relaxed);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    IN_CALL.store(false, Ordering::Relaxed);
    CAPTURING.with(|c| c.set(was));
    result.map_err(|payload| {
        let recorded = LAST_PANIC.with(|last| last.borrow_mut().take());
        let (info, assumed) = recorded.unwrap_or_else(|| {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".to_owned());
            (PanicInfo { message, location: None }, false)
        });
        // Dropping a payload can itself panic; forget it instead.
        std::mem::forget(payload);
        if assumed {
            Outcome::AssumeFailed(info)
        } else {
            Outcome::Panicked(info)
        }
    })
}
