//! Signals: Ctrl-C and SIGTERM for the supervisor (stop, then stop at once)
//! and the worker (stop generating, finish), and the marks a dying worker
//! leaves in its flight slot to say which thread brought it down.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;

use smallscope::runner::flight;

/// Interrupts the supervisor has received.
pub struct Interrupts {
    count: Arc<AtomicUsize>,
    /// The last signal received.
    last: Arc<AtomicUsize>,
}

impl Interrupts {
    /// Counts SIGINT and SIGTERM from now on, instead of dying of them.
    pub fn install() -> std::io::Result<Self> {
        let count = Arc::new(AtomicUsize::new(0));
        let last = Arc::new(AtomicUsize::new(0));
        for signal in [libc::SIGINT, libc::SIGTERM] {
            let (count, last) = (count.clone(), last.clone());
            // SAFETY: the action only stores to atomics, which is async-signal-safe.
            unsafe {
                signal_hook::low_level::register(signal, move || {
                    last.store(signal as usize, Ordering::Relaxed);
                    count.fetch_add(1, Ordering::Relaxed);
                })?;
            }
        }
        Ok(Interrupts { count, last })
    }

    pub fn count(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }

    /// The last signal received, if any.
    pub fn signal(&self) -> Option<i32> {
        (self.count() > 0).then(|| self.last.load(Ordering::Relaxed) as i32)
    }
}

/// The exit code of a run stopped by `signal`: 128 + its number, as shells do.
pub fn exit_code(signal: i32) -> u8 {
    (128 + signal).clamp(0, 255) as u8
}

/// In a worker: SIGINT and SIGTERM set `stop` (the engine stops generating
/// and finishes), instead of killing the process.
pub fn stop_on_interrupt(stop: Arc<AtomicU8>) -> std::io::Result<()> {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let stop = stop.clone();
        // SAFETY: the action only stores to an atomic.
        unsafe {
            signal_hook::low_level::register(signal, move || stop.store(1, Ordering::Relaxed))?;
        }
    }
    Ok(())
}

const FATAL: [libc::c_int; 5] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE, libc::SIGABRT];

/// The handlers that were there before ours, by the index of the signal in `FATAL`.
static mut PREVIOUS: [Option<libc::sigaction>; 5] = [None; 5];

/// In a worker: a fatal signal marks the flight slot of the thread it hits
/// (a stack overflow, an abort), then goes on as before (Rust's stack
/// overflow message, then death).
pub fn mark_fatal_signals() {
    for (index, &signal) in FATAL.iter().enumerate() {
        // SAFETY: installing a handler with `sigaction`; `PREVIOUS` is
        // written here, before the handler can run, and only read after.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_fatal as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, &action, &mut previous) == 0 {
                (*std::ptr::addr_of_mut!(PREVIOUS))[index] = Some(previous);
            }
        }
    }
}

extern "C" fn on_fatal(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    flight::mark(signal as u64);
    let index = FATAL.iter().position(|&s| s == signal).unwrap_or(0);
    // SAFETY: `PREVIOUS` was set before this handler was installed; the
    // previous handler is called as it was registered.
    unsafe {
        match (*std::ptr::addr_of!(PREVIOUS))[index] {
            Some(previous) if previous.sa_sigaction != libc::SIG_DFL && previous.sa_sigaction != libc::SIG_IGN => {
                if previous.sa_flags & libc::SA_SIGINFO != 0 {
                    let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                        std::mem::transmute(previous.sa_sigaction);
                    handler(signal, info, context);
                } else {
                    let handler: extern "C" fn(libc::c_int) = std::mem::transmute(previous.sa_sigaction);
                    handler(signal);
                }
            }
            _ => {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
        }
    }
}
