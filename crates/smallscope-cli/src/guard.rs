//! When a supervised run must stop from outside: Ctrl-C, SIGTERM, the
//! time limit by the wall clock, and the supervisor's own memory (which
//! holds what the run found). The guard only decides; the console tells.

use std::time::{Duration, Instant};

use smallscope::events::Stop;
use smallscope::runner::{Control, Observer};

use crate::progress::Console;
use crate::signals::{Interrupts, TERMINATE_WRITING};

/// How often the supervisor's own memory is measured.
const MEMORY_CHECK_EVERY: Duration = Duration::from_millis(250);

/// How long past its time limit a run's engine has to stop by itself
/// before it is stopped (the supervisor abandons it if it does not).
const PAST_LIMIT_STOP: Duration = Duration::from_secs(1);

/// The observer that turns signals and limits into a stop.
pub struct Guard<'a> {
    console: Console,
    interrupts: &'a Interrupts,
    interrupts_seen: usize,
    /// Signals from the code under test already told.
    worker_signals_told: usize,
    started: Instant,
    /// The run's time limit, by the wall clock from `started`.
    time_limit: Option<Duration>,
    told_time_up: bool,
    /// The run's memory limit, which this process's own memory must stay
    /// under too; `None` once passed.
    memory_limit: Option<u64>,
    last_memory_check: Instant,
}

impl<'a> Guard<'a> {
    pub fn new(
        console: Console,
        interrupts: &'a Interrupts,
        time_limit: Option<Duration>,
        memory_limit: Option<u64>,
    ) -> Self {
        Guard {
            console,
            interrupts,
            interrupts_seen: 0,
            worker_signals_told: 0,
            started: Instant::now(),
            time_limit,
            told_time_up: false,
            memory_limit,
            last_memory_check: Instant::now(),
        }
    }

    /// Whether this process's memory passed the run's limit (measured
    /// every [`MEMORY_CHECK_EVERY`]); says so the first time.
    fn own_memory_full(&mut self) -> bool {
        let Some(limit) = self.memory_limit else { return false };
        if self.last_memory_check.elapsed() < MEMORY_CHECK_EVERY {
            return false;
        }
        self.last_memory_check = Instant::now();
        let full = crate::memory::resident_bytes().is_some_and(|bytes| bytes > limit);
        if full {
            self.memory_limit = None;
            self.console.line(&format!(
                "smallscope's own memory (what the run found, held for its report) passed the memory limit of {} \
                 MiB: stopping with what was found",
                limit >> 20
            ));
        }
        full
    }
}

impl Observer for Guard<'_> {
    fn poll(&mut self) -> Control {
        let from_worker = self.interrupts.sent_by_worker();
        if from_worker != self.worker_signals_told {
            self.worker_signals_told = from_worker;
            self.console.line("the code under test sent smallscope a signal (SIGINT, SIGTERM or SIGHUP): ignored");
        }
        let count = self.interrupts.count();
        if count != self.interrupts_seen {
            self.interrupts_seen = count;
            if count > 1 {
                return Control::Abandon;
            }
            self.console.line(&format!(
                "interrupted after {:.1} s: finishing and writing what was found (again to stop at once)",
                self.started.elapsed().as_secs_f64()
            ));
            return Control::Interrupt;
        }
        // SIGTERM leaves the files half its time: the engine gets the rest.
        if self.interrupts.since_terminate().is_some_and(|since| since >= TERMINATE_WRITING / 2) {
            return Control::Abandon;
        }
        if self.own_memory_full() {
            return Control::Limit(Stop::MemoryLimit);
        }
        let Some(limit) = self.time_limit else { return Control::Continue };
        if self.started.elapsed() >= limit + PAST_LIMIT_STOP {
            if !std::mem::replace(&mut self.told_time_up, true) {
                self.console.line(&format!(
                    "the time limit ({:.1} s) has passed, hangs and restarts included: stopping",
                    limit.as_secs_f64()
                ));
            }
            Control::Limit(Stop::TimeLimit)
        } else {
            Control::Continue
        }
    }
}
