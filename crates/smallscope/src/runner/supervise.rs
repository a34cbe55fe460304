//! [`Supervisor`]: runs attempts of a [`Job`] until one finishes, restarting
//! it past every input that killed or hung the one before.
//!
//! An attempt sends its events in batches, one per commit, so everything the
//! supervisor has folded is final: when an attempt dies, the next one starts
//! from that fold, with the [`Killed`] inputs to report and step past.

use std::time::{Duration, Instant};

use super::flight::Flight;
use super::killed::Killed;
use super::StopFlag;
use crate::events::{Event, FailureKind, Fold, Sink, Stop};
use crate::ConfigError;

/// How long one call into user code may run before it counts as a hang.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// Confirmed deaths of one group (kind, user code, operation) after which
/// its operation is quarantined.
pub const DEFAULT_MAX_REPEATS: u32 = 3;

/// How long an attempt asked to stop has to finish before it is abandoned.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// `flaky` findings after which a run stops: the code under test is
/// nondeterministic, and restarting past it would go on forever.
pub const MAX_FLAKY: u32 = 3;

/// What a job is given each time it starts.
pub struct Start<'a, F> {
    /// The committed state of an earlier attempt to carry on from.
    pub resume: Option<&'a F>,
    /// The engine's journal up to that commit.
    pub journal: &'a [u8],
    /// Inputs that killed or hung an earlier attempt: report them when
    /// reached, and do not run them.
    pub killed: &'a [Killed],
    pub stop: &'a StopFlag,
}

impl<F> Clone for Start<'_, F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F> Copy for Start<'_, F> {}

/// An engine run that can be started again from its last commit.
pub trait Job: Send + Sync + 'static {
    /// What its events fold into: its report, and what it resumes from.
    type Fold: Fold + Clone + Send + 'static;
    fn run(&self, start: Start<'_, Self::Fold>, sink: &mut dyn Sink) -> Result<(), JobError>;
}

/// Why a job ended without its result: what it was given, or smallscope.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JobError {
    /// Its settings or subject cannot be run: bad input.
    #[error(transparent)]
    Input(#[from] ConfigError),
    /// The engine could not go on (a resume whose journal does not fit its
    /// events, a structure that cannot be rebuilt): a smallscope fault.
    #[error("{0}")]
    Fault(String),
}

/// The events of one commit.
#[derive(Debug, Default)]
pub struct Batch {
    pub events: Vec<Event>,
    pub journal: Vec<u8>,
    /// The events as the NDJSON a worker process sent (empty from a thread).
    pub ndjson: Vec<u8>,
}

/// How an attempt went when asked.
pub enum Next {
    Batch(Batch),
    /// Nothing new yet.
    Idle,
    /// The job returned.
    Finished(Result<(), JobError>),
    /// The process running it died.
    Died(Death),
    /// The process ran out of memory outside the code under test: the run
    /// ends with what it committed.
    Ended(Stop),
    /// The process was killed from outside (SIGKILL we did not send: the
    /// system's out-of-memory killer, most likely): not the code under
    /// test's doing, so the run ends with what it committed, to be resumed.
    Lost(String),
}

/// How an attempt died.
#[derive(Debug, Clone)]
pub struct Death {
    pub kind: FailureKind,
    pub message: String,
    /// The flight slot of the thread that caused it, when known.
    pub culprit: Option<usize>,
}

/// One run of a job: a thread, or a worker process.
pub trait Attempt {
    /// The next commit, or how the attempt ended; waits at most `wait`.
    fn next(&mut self, wait: Duration) -> Next;
    fn flight(&self) -> &Flight;
    /// Asks the job to stop early and finish.
    fn interrupt(&mut self);
    /// Gives up at once: a process is killed, a thread left behind.
    fn abandon(&mut self);
    /// Whether the attempt is stopped from outside (SIGSTOP, a debugger):
    /// its time in a call then does not count towards a hang.
    fn paused(&self) -> bool {
        false
    }
}

/// What the supervisor should do next, as its observer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// Ask the job to stop early and finish (a first Ctrl-C).
    Interrupt,
    /// A limit of the run passed outside its engine: the time limit by the
    /// wall clock (hangs and restarts, which the engine's own clock leaves
    /// out, included) or the memory limit by the supervising process's own
    /// memory (what the run found, held for its report). Stop as
    /// [`Control::Interrupt`] does, the run's stop being that limit
    /// ([`Stop::TimeLimit`] or [`Stop::MemoryLimit`]).
    Limit(Stop),
    /// Stop at once, keeping only what is committed (a second Ctrl-C).
    Abandon,
}

/// Hears what a supervised run does.
pub trait Observer {
    /// A commit, before it is folded.
    fn batch(&mut self, _batch: &Batch) {}
    /// An attempt died on `killed`; the next starts past it.
    fn killed(&mut self, _killed: &Killed) {}
    /// Called between batches, at least every `poll` interval.
    fn poll(&mut self) -> Control {
        Control::Continue
    }
}

impl Observer for () {}

/// How a supervised run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The job returned.
    Finished,
    /// Stopped at once: only the committed events are folded.
    Abandoned,
    /// Ended early for this reason: only the committed events are folded.
    Stopped(Stop),
}

/// Why a run could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("smallscope could not go on: {0}")]
    Fault(String),
    #[error("starting a worker: {0}")]
    Launch(String),
    #[error(
        "the worker died outside any call of the code under test ({0}); what the run committed is kept. Unless \
         the code under test starts threads or closes descriptors, this is a smallscope bug: please report it"
    )]
    OutsideUserCode(String),
    #[error("the input at {address:?} brought the worker down again ({kind}) after it was stepped past: {message}")]
    Again { address: super::Address, kind: FailureKind, message: String },
    #[error("stopped after {0} restarts: the code under test keeps killing the worker")]
    TooManyRestarts(u32),
    #[error("the worker was killed from outside ({0}): what the run committed is kept, and --resume carries it on")]
    Lost(String),
}

impl From<JobError> for RunError {
    fn from(error: JobError) -> Self {
        match error {
            JobError::Input(error) => RunError::Config(error),
            JobError::Fault(why) => RunError::Fault(why),
        }
    }
}

/// Starts an attempt that carries on from what a supervisor committed.
pub type Launch<'a, F> = dyn FnMut(&Supervisor<F>) -> Result<Box<dyn Attempt>, RunError> + 'a;

/// Runs attempts of a job, folding what they commit.
pub struct Supervisor<F> {
    /// The committed events, folded.
    pub fold: F,
    /// The committed journal, kept for attempts that are handed it (in-thread
    /// ones); `None` when attempts read it from elsewhere.
    pub journal: Option<Vec<u8>>,
    /// Whether anything was committed (so an attempt resumes).
    pub committed: bool,
    pub killed: Vec<Killed>,
    /// `None`: calls may run forever.
    pub call_timeout: Option<Duration>,
    pub max_restarts: u32,
    /// Confirmed deaths of one group after which its operation is quarantined.
    pub max_repeats: u32,
    /// Attempts started after the first.
    restarts: u32,
    /// `flaky` findings committed.
    flaky: u32,
    /// The last death, until a commit follows it: the attempt after a death
    /// confirms or reports its input, so a run that stops before then ends
    /// with it unreported.
    unsettled: Option<Killed>,
}

impl<F: Fold> Supervisor<F> {
    pub fn new(call_timeout: Option<Duration>) -> Self {
        Supervisor {
            fold: F::default(),
            journal: Some(Vec::new()),
            committed: false,
            killed: Vec::new(),
            call_timeout,
            max_restarts: 1000,
            max_repeats: DEFAULT_MAX_REPEATS,
            restarts: 0,
            flaky: 0,
            unsettled: None,
        }
    }

    /// Restarts so far: one per death (a confirmation's included).
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    /// A death the run stopped before it could confirm and report: the
    /// command tells it, since no finding does.
    pub fn unreported(&self) -> Option<&Killed> {
        self.unsettled.as_ref()
    }

    /// Starts `launch`ed attempts until one finishes.
    pub fn run(&mut self, launch: &mut Launch<'_, F>, observer: &mut dyn Observer) -> Result<Ending, RunError> {
        // Why and since when the run is being stopped from outside.
        let mut stopping: Option<(Stop, Instant)> = None;
        loop {
            let mut attempt = launch(self)?;
            let mut watch = HangWatch::new(self.call_timeout);
            let mut interrupted: Option<Instant> = None;
            let killed = loop {
                if let Some(ending) = self.heed(observer.poll(), &mut stopping) {
                    attempt.abandon();
                    return Ok(ending);
                }
                if let Some((_, since)) = stopping {
                    // A stop waits for the first commit after a death (at most
                    // `settle_time`): a hang found just before a time limit
                    // or a Ctrl-C is reported, not lost.
                    let settled = self.unsettled.is_none() || since.elapsed() >= self.settle_time();
                    if interrupted.is_none() && settled {
                        interrupted = Some(Instant::now());
                        attempt.interrupt();
                        // A call that does not return holds the stop up: give it little time.
                        let grace = Duration::from_secs(2);
                        watch.timeout = Some(watch.timeout.map_or(grace, |t| t.min(grace)));
                    }
                }
                if interrupted.is_some_and(|at| at.elapsed() >= STOP_GRACE) {
                    attempt.abandon();
                    return Ok(stopped_from_outside(stopping));
                }
                match attempt.next(watch.poll_interval()) {
                    Next::Batch(batch) => {
                        observer.batch(&batch);
                        self.committed = true;
                        self.unsettled = None;
                        if let Some(journal) = &mut self.journal {
                            journal.extend_from_slice(&batch.journal);
                        }
                        for event in batch.events {
                            self.flaky += u32::from(is_flaky(&event));
                            self.fold.apply(event);
                        }
                        if self.flaky >= MAX_FLAKY {
                            // What is committed holds the findings; going on would restart forever.
                            attempt.abandon();
                            return Ok(Ending::Stopped(Stop::Flaky));
                        }
                    }
                    Next::Idle => {}
                    Next::Finished(result) => {
                        result?;
                        return Ok(match stopping {
                            Some((stop, _)) if stop != Stop::Interrupted => Ending::Stopped(stop),
                            _ => Ending::Finished,
                        });
                    }
                    Next::Ended(stop) => return Ok(Ending::Stopped(stop)),
                    Next::Lost(why) => return Err(RunError::Lost(why)),
                    Next::Died(death) => break self.blame(attempt.flight(), death)?,
                }
                if attempt.paused() {
                    watch.pause();
                } else if let Some(slot) = watch.hung(attempt.flight()) {
                    attempt.abandon();
                    let message = match (interrupted, watch.timeout) {
                        (Some(_), Some(grace)) => format!(
                            "had not returned when the run was stopped, nor within {} s after",
                            grace.as_secs_f64()
                        ),
                        _ => format!(
                            "did not return within {} s (the call timeout)",
                            self.call_timeout.map_or(0.0, |t| t.as_secs_f64())
                        ),
                    };
                    let death = Death { kind: FailureKind::Hang, message, culprit: Some(slot) };
                    break self.blame(attempt.flight(), death)?;
                }
            };
            self.unsettled = Some(killed.clone());
            if interrupted.is_some() {
                // Stopping: what the dead attempt committed is what there is.
                return Ok(stopped_from_outside(stopping));
            }
            observer.killed(&killed);
            self.restarts += 1;
            if self.restarts > self.max_restarts {
                return Err(RunError::TooManyRestarts(self.max_restarts));
            }
            // No restart for a run that is over, but to report what it found.
            if let Some(ending) = self.heed(observer.poll(), &mut stopping) {
                return Ok(ending);
            }
            if stopping.is_some_and(|(_, since)| since.elapsed() >= self.settle_time()) {
                return Ok(stopped_from_outside(stopping));
            }
        }
    }

    /// Notes a stop the observer asks for; the ending when it must be at once.
    fn heed(&self, control: Control, stopping: &mut Option<(Stop, Instant)>) -> Option<Ending> {
        match control {
            Control::Continue => None,
            Control::Interrupt => {
                stopping.get_or_insert((Stop::Interrupted, Instant::now()));
                None
            }
            Control::Limit(stop) => {
                stopping.get_or_insert((stop, Instant::now()));
                None
            }
            Control::Abandon => Some(stopped_from_outside(*stopping)),
        }
    }

    /// How long a stop waits for the input of a death to be confirmed and
    /// reported: a call timeout to run it again, and as long to go past it.
    fn settle_time(&self) -> Duration {
        2 * self.call_timeout.unwrap_or(Duration::ZERO) + STOP_GRACE
    }

    /// Records the input a death is blamed on (the culprit's, or the one
    /// thread's in user code) and returns it as recorded: new and to be
    /// confirmed by a second run, confirmed by dying on that second run, or
    /// confirmed at once when its group already is.
    fn blame(&mut self, flight: &Flight, death: Death) -> Result<Killed, RunError> {
        let Some(slot) = flight.blamed(death.culprit) else {
            return Err(RunError::OutsideUserCode(format!("{}: {}", death.kind, death.message)));
        };
        let index = match self.killed.iter().position(|k| k.address == slot.address) {
            Some(index) if self.killed[index].confirmed => {
                let before = &self.killed[index];
                return Err(RunError::Again { address: before.address, kind: death.kind, message: death.message });
            }
            Some(index) => {
                self.killed[index].confirmed = true;
                index
            }
            None => {
                let killed = Killed::from_flight(&slot, death.kind, death.message);
                let confirmed = self.killed.iter().any(|k| k.confirmed && k.group() == killed.group());
                self.killed.push(Killed { confirmed, ..killed });
                self.killed.len() - 1
            }
        };
        self.quarantine_if_repeated(index);
        Ok(self.killed[index].clone())
    }

    /// Marks the confirmed input `index` as quarantining its group in its
    /// run when the group has `max_repeats` confirmed inputs in the runs
    /// over the same API (an earlier phase's count too: the run has met
    /// the bug itself, so it reports it) and none quarantines in this run yet.
    fn quarantine_if_repeated(&mut self, index: usize) {
        let this = &self.killed[index];
        let quarantined_here =
            self.killed.iter().any(|k| k.quarantines && k.group() == this.group() && k.address.run == this.address.run);
        let confirmed = Killed::repeats(&self.killed, this);
        if this.confirmed && !quarantined_here && confirmed as u32 >= self.max_repeats.max(1) {
            self.killed[index].quarantines = true;
        }
    }
}

/// How a run stopped from outside before its job returned ends: at its
/// time or memory limit, or abandoned (interrupted).
fn stopped_from_outside(stopping: Option<(Stop, Instant)>) -> Ending {
    match stopping {
        Some((stop, _)) if stop != Stop::Interrupted => Ending::Stopped(stop),
        _ => Ending::Abandoned,
    }
}

/// Whether `event` files a `flaky` finding.
fn is_flaky(event: &Event) -> bool {
    matches!(event, Event::Failure(failure) if failure.kind == FailureKind::Flaky)
}

/// Tells a call that has not returned within the timeout.
struct HangWatch {
    timeout: Option<Duration>,
    /// Per slot: the serial last seen in user code, and since when.
    seen: Vec<Option<(u64, Instant)>>,
}

impl HangWatch {
    fn new(timeout: Option<Duration>) -> Self {
        HangWatch { timeout, seen: Vec::new() }
    }

    fn poll_interval(&self) -> Duration {
        self.timeout.map_or(Duration::from_millis(200), |t| {
            (t / 10).clamp(Duration::from_millis(5), Duration::from_millis(200))
        })
    }

    /// Forgets when calls began: a paused attempt's time is not theirs.
    fn pause(&mut self) {
        self.seen.clear();
    }

    /// The slot whose call has run past the timeout, if one has.
    fn hung(&mut self, flight: &Flight) -> Option<usize> {
        let timeout = self.timeout?;
        self.seen.resize(flight.slots(), None);
        let now = Instant::now();
        for (slot, seen) in self.seen.iter_mut().enumerate() {
            let (serial, in_user_code) = flight.pulse(slot);
            if !in_user_code {
                *seen = None;
                continue;
            }
            match seen {
                Some((last, since)) if *last == serial => {
                    if now.duration_since(*since) >= timeout {
                        return Some(slot);
                    }
                }
                _ => *seen = Some((serial, now)),
            }
        }
        None
    }
}
