//! The memory a run may use, as engines see it.
//!
//! A process that limits its memory (a worker given `--memory-limit-mb`)
//! counts its allocations (see `smallscope_cli`'s allocator) and says so
//! here. Engines look after each input: past [`SOFT_SHARE`] of the limit,
//! the run stops, keeping what it found. An input whose own calls kept a
//! large part of the memory (a leak) is reported as an `out-of-memory`
//! failure; memory the engine itself holds (the structures it stores, the
//! tables it grows) just ends the run. What an input kept is counted in
//! user code only ([`kept_by_user_code`]), so that an engine's table that
//! doubles after a call is not taken for that call's leak. A single call that runs away hits the hard limit inside
//! the call: the process dies there, and the supervisor reports it.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

/// The share of the limit at which a run stops between inputs.
pub const SOFT_SHARE: f64 = 0.85;

/// Kept by an input, as a share of the limit, that makes it the culprit.
pub const CULPRIT_SHARE: f64 = 0.01;

static COUNTER: OnceLock<fn() -> u64> = OnceLock::new();
static LIMIT: AtomicU64 = AtomicU64::new(0);

/// Installs the counter of allocated bytes (once per process; later
/// counters are ignored) and the limit they may reach (again whenever it
/// changes).
pub fn limit_with(counter: fn() -> u64, limit: u64) {
    let _ = COUNTER.set(counter);
    LIMIT.store(limit, Relaxed);
}

/// Bytes allocated, when a limit counts them; else 0.
pub fn allocated() -> u64 {
    COUNTER.get().map_or(0, |count| count())
}

thread_local! {
    /// Bytes this thread's user code allocated less what it freed.
    static KEPT_BY_USER_CODE: Cell<i64> = const { Cell::new(0) };
}

/// Bytes the user code run on this thread so far has kept: allocated less
/// freed while in it, when a limit counts them; else 0.
pub fn kept_by_user_code() -> i64 {
    KEPT_BY_USER_CODE.with(Cell::get)
}

/// Adds what user code that began with `before` bytes allocated kept.
pub(crate) fn user_code_ended(before: u64) {
    let kept = allocated() as i64 - before as i64;
    KEPT_BY_USER_CODE.with(|total| total.set(total.get() + kept));
}

/// What an engine should do after an input that began with `before`
/// bytes kept by user code ([`kept_by_user_code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pressure {
    /// Within the limit.
    Fine,
    /// Past the soft limit: stop, keeping what was found.
    Stop,
    /// Past the soft limit, and this input kept much of it: a failure.
    Culprit { kept: u64 },
}

/// Whether memory allows another input (see [`Pressure`]).
#[inline]
pub fn pressure(before: i64) -> Pressure {
    let limit = LIMIT.load(Relaxed);
    if limit == 0 {
        return Pressure::Fine;
    }
    if (allocated() as f64) < limit as f64 * SOFT_SHARE {
        return Pressure::Fine;
    }
    let kept = (kept_by_user_code() - before).max(0) as u64;
    if kept as f64 >= limit as f64 * CULPRIT_SHARE {
        Pressure::Culprit { kept }
    } else {
        Pressure::Stop
    }
}

/// The message of an input that kept too much memory.
pub fn culprit_message(kept: u64) -> String {
    format!(
        "memory reached {:.0}% of the limit, and this input kept {} KiB of it: memory grows with each call (a leak?)",
        SOFT_SHARE * 100.0,
        kept >> 10
    )
}
