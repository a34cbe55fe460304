//! How engines run user code, and survive it.
//!
//! User code has bugs: that is why it is being tested. This layer sits
//! between the engines and the user's code:
//!
//! - [`run_captured`] runs one piece of user code (a method, `Clone`, `Drop`,
//!   `rep_ok`), turns a panic into an [`Outcome`], and tells the
//!   [`flight`] recorder what runs;
//! - a [`Job`] is an engine run that can be started again from its last
//!   commit, stepping past the inputs that killed or hung an earlier attempt
//!   ([`Killed`]);
//! - a [`Supervisor`] runs attempts of a job, folds the events they commit,
//!   watches for calls that do not return, and restarts the job past them:
//!   it runs each new kind of death once more to confirm it (an input that
//!   then returns is a `flaky` finding, and a few of those end the run), and
//!   after a few confirmed deaths of one group it has the job quarantine
//!   the operation, so that a bug that fires on many inputs costs a few
//!   restarts, not one per input.
//!
//! In library mode (`Beapi::run`, `Random::run`, `korat::run`) an attempt is
//! a thread of this process: a hung call is survived (the thread is left
//! behind and the job goes on in a new one), but a stack overflow, an abort or
//! a runaway allocation ends the process, as it would end any test. The
//! command line runs each attempt in a worker process (`smallscope_cli`),
//! where every one of these is a finding.

mod capture;
pub mod flight;
mod killed;
pub mod memory;
pub mod resume_log;
mod share;
mod stop_flag;
mod supervise;
mod thread;
mod witness;

pub use capture::{assume_failed, drop_captured, run_captured, take_drop_panic, Outcome, PanicInfo, SafeDrop};
pub use flight::{Address, Flight, UserCode};
pub use killed::{KillGroup, Killed, OTHER_API_RUNS};
pub use share::{Share, STOP_POLL};
pub use stop_flag::StopFlag;
pub use supervise::{
    Attempt, Batch, Control, Death, Ending, Job, JobError, Launch, Next, Observer, RunError, Start, Supervisor,
    DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_REPEATS, MAX_FLAKY,
};
pub use thread::{run_in_thread, spawn_engine, thread_attempt, EngineMessage, Resumption, USER_CODE_STACK};
pub use witness::returns_within;
