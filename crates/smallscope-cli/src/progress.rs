//! What a person sees while a run goes: a progress line on a terminal,
//! each failure as soon as it is committed, and each restart of a worker.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use smallscope::events::{Event, Failure, Stop};
use smallscope::runner::{Batch, Control, Killed, Observer};

use crate::signals::{Interrupts, TERMINATE_WRITING};
use crate::staging::Staging;

/// Standard error, shared by the progress line and the lines printed under it.
#[derive(Clone)]
pub struct Console {
    bar: Arc<ProgressBar>,
}

impl Console {
    pub fn new() -> Self {
        // indicatif draws nothing when standard error is not a terminal.
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("valid template"));
        Console { bar: Arc::new(bar) }
    }

    /// Prints a line above the progress line (or alone, off a terminal).
    pub fn line(&self, text: &str) {
        if self.bar.is_hidden() {
            say(text);
        } else {
            self.bar.println(text);
        }
    }

    fn status(&self, text: String) {
        self.bar.set_message(text);
        self.bar.tick();
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Prints a line on standard error; one that is gone (a closed terminal
/// after SIGHUP) does not stop the run.
pub fn say(text: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// The observer of a supervised run on the command line: it stages each
/// commit, shows progress and failures, and turns Ctrl-C into a stop.
pub struct Watch<'a> {
    pub console: Console,
    pub staging: &'a mut Staging,
    pub interrupts: &'a Interrupts,
    /// Failures already told, by what they are.
    told: HashSet<String>,
    interrupts_seen: usize,
    /// Signals from the code under test already told.
    worker_signals_told: usize,
    started: Instant,
    /// Attempts run in worker processes (else in threads of this one).
    isolated: bool,
    /// A staging write failed: the run stops, and says why.
    pub error: Option<anyhow::Error>,
    /// The run's time limit, by the wall clock from `started`.
    pub time_limit: Option<Duration>,
    told_time_up: bool,
    /// The run's memory limit, which this process's own memory (what the
    /// run found, held for its report) must stay under too.
    pub memory_limit: Option<u64>,
    last_memory_check: Instant,
}

/// How often the supervisor's own memory is measured.
const MEMORY_CHECK_EVERY: Duration = Duration::from_millis(250);

/// How long past its time limit a run's engine has to stop by itself
/// before it is stopped (the supervisor abandons it if it does not).
const PAST_LIMIT_STOP: Duration = Duration::from_secs(1);

impl<'a> Watch<'a> {
    pub fn new(console: Console, staging: &'a mut Staging, interrupts: &'a Interrupts, isolated: bool) -> Self {
        Watch {
            isolated,
            console,
            staging,
            interrupts,
            told: HashSet::new(),
            interrupts_seen: 0,
            worker_signals_told: 0,
            started: Instant::now(),
            error: None,
            time_limit: None,
            told_time_up: false,
            memory_limit: None,
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

    fn tell(&mut self, failure: &Failure) {
        let what = failure.describe();
        if self.told.insert(what.clone()) {
            self.console.line(&format!("found: {what}: {}", failure.witness.text));
        }
    }
}

impl Observer for Watch<'_> {
    fn batch(&mut self, batch: &Batch) {
        if let Err(error) = self.staging.append(batch) {
            self.error.get_or_insert(error);
        }
        for event in &batch.events {
            match event {
                Event::Failure(failure) => self.tell(failure),
                Event::Progress(progress) => {
                    let c = &progress.counts;
                    self.console.status(format!(
                        "{} explored, {} kept, {} failing ({:.0} s)",
                        c.explored, c.structures, c.failing, progress.seconds
                    ));
                }
                Event::Level(level) => self.console.status(format!(
                    "level {} done: {} new structures, {} explored",
                    level.level, level.structures, level.explored
                )),
                _ => {}
            }
        }
    }

    fn killed(&mut self, killed: &Killed) {
        if let Err(error) = self.staging.save() {
            self.error.get_or_insert(error);
        }
        // In a thread, only a hang comes here: the thread is left behind.
        let what = if self.isolated { "the worker died" } else { "the engine's thread was left behind" };
        let next = match (killed.confirmed, killed.quarantines) {
            (false, _) => "running that input again in a fresh worker, to confirm it",
            (true, false) => "restarting past that input",
            (true, true) => "restarting past that input; its operation is quarantined from here on",
        };
        self.console.line(&format!("{what} ({}: {}); {next}", killed.kind, killed.message));
    }

    fn poll(&mut self) -> Control {
        if self.error.is_some() {
            return Control::Abandon;
        }
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
