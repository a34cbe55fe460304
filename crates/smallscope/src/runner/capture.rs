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
use super::memory;
use crate::events::During;

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
    let allocated = memory::allocated();
    let state = flight::enter(code, allocated);
    // A trace is of the calls: checks and copies between them are not theirs.
    let result = match code.during {
        During::Call => panic::catch_unwind(AssertUnwindSafe(f)),
        _ => crate::edges::untraced(|| panic::catch_unwind(AssertUnwindSafe(f))),
    };
    if !was {
        // Outermost user code only: nested code's memory is in it.
        memory::user_code_ended(allocated);
    }
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

thread_local! {
    /// A panic in a [`SafeDrop`]'s drop, for the engine to report.
    static DROP_PANIC: RefCell<Option<PanicInfo>> = const { RefCell::new(None) };
}

/// A value whose `Drop` runs as captured user code: a panic in it is kept
/// (see [`take_drop_panic`]) instead of unwinding through the engine. For
/// values engines share and drop in many places.
pub struct SafeDrop<T>(std::mem::ManuallyDrop<T>);

impl<T> SafeDrop<T> {
    pub fn new(value: T) -> Self {
        SafeDrop(std::mem::ManuallyDrop::new(value))
    }

    /// The value, to be dropped by its new owner.
    pub fn into_inner(self) -> T {
        let mut this = std::mem::ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped again.
        unsafe { std::mem::ManuallyDrop::take(&mut this.0) }
    }
}

impl<T> std::ops::Deref for SafeDrop<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> Drop for SafeDrop<T> {
    fn drop(&mut self) {
        let value = &mut self.0;
        // SAFETY: the value is dropped once, here, and never used again.
        let dropped = run_captured(UserCode::new(During::Drop, 0), || unsafe { std::mem::ManuallyDrop::drop(value) });
        if let Err(Outcome::Panicked(info) | Outcome::AssumeFailed(info)) = dropped {
            DROP_PANIC.with(|last| {
                last.borrow_mut().get_or_insert(info);
            });
        }
    }
}

/// The first panic in a [`SafeDrop`]'s drop on this thread since the last call.
pub fn take_drop_panic() -> Option<PanicInfo> {
    DROP_PANIC.with(|last| last.borrow_mut().take())
}
