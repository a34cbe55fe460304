//! Running user code: panics are caught, silenced and classified, and the
//! flight recorder says what runs.
//!
//! A panic hook installed once records each panic's message and location in
//! a thread-local while smallscope is running user code, and prints nothing;
//! outside [`run_captured`] it defers to the hook that was there before.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use super::flight::{self, UserCode};

/// A panic caught while running user code.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

/// Runs the user code `f`, turning a panic into an [`Outcome`] without
/// printing anything; `code` says what it is, for the flight recorder.
#[inline]
pub fn run_captured<R>(code: UserCode, f: impl FnOnce() -> R) -> Result<R, Outcome> {
    install_hook();
    let was = CAPTURING.with(|c| c.replace(true));
    let state = flight::enter(code);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    flight::exit(state);
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

/// Drops `value`, which runs the user's `Drop`, catching a panic in it.
#[inline]
pub fn drop_captured<T>(code: UserCode, value: T) -> Result<(), Outcome> {
    run_captured(code, move || drop(value))
}
