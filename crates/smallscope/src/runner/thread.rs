//! An attempt as a thread of this process: library mode and `--no-isolation`.
//!
//! The job runs on a thread with a large stack; its commits reach the
//! supervising thread over a channel. A call that does not return leaves
//! the thread behind (it cannot be stopped), and the job goes on in a new
//! one. A stack overflow, an abort or a runaway allocation in the job's
//! thread ends the process.

use std::io::Write as _;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use super::flight::Flight;
use super::killed::Killed;
use super::supervise::{Attempt, Batch, Ending, Job, JobError, Next, Observer, RunError, Start, Supervisor};
use super::StopFlag;
use crate::events::{Event, Fold, Note, Sink, Stop};

/// Runs `job` on threads of this process until it finishes, surviving calls
/// that do not return within `call_timeout`: each is reported by the job as
/// a `hang` failure, and the job goes on past it in a new thread (the stuck
/// one is left behind).
pub fn run_in_thread<F: Fold + Clone + Send + 'static>(
    job: Arc<dyn Job<Fold = F>>,
    call_timeout: Option<Duration>,
    observer: &mut dyn Observer,
) -> Result<F, RunError> {
    let mut supervisor = Supervisor::<F>::new(call_timeout);
    // Each hang leaves a thread behind, spinning: give up after a few.
    supervisor.max_restarts = MAX_THREADS_LEFT;
    let ending = supervisor.run(&mut |s| thread_attempt(job.clone(), s), observer);
    // What was committed is the caller's, however the run ended.
    let stop = match ending {
        Ok(Ending::Finished) => None,
        Ok(Ending::Abandoned) => Some(Stop::Interrupted),
        Ok(Ending::Stopped(stop)) => Some(stop),
        Err(RunError::TooManyRestarts(_)) => Some(Stop::TooManyHangs),
        Err(error) => return Err(error),
    };
    if let Some(stop) = stop {
        if let Some(killed) = supervisor.unreported() {
            let text = killed.unreported_message(supervisor.fold.operation_name(killed.op));
            supervisor.fold.apply(Event::Note(Note { text }));
        }
        supervisor.fold.stopped_early(stop);
    }
    Ok(supervisor.fold)
}

/// Hangs after which an in-process run ends ([`Stop::TooManyHangs`]): each
/// leaves a thread spinning.
pub const MAX_THREADS_LEFT: u32 = 16;

/// An attempt of `job` on a thread of this process, carrying on from what
/// `supervisor` committed.
pub fn thread_attempt<F: Fold + Clone + Send + 'static>(
    job: Arc<dyn Job<Fold = F>>,
    supervisor: &Supervisor<F>,
) -> Result<Box<dyn Attempt>, RunError> {
    Ok(Box::new(ThreadAttempt::start(job, supervisor)?))
}

/// Stack for threads that run user code: deep recursion (a recursive drop of
/// a long list) should not end the run.
pub const USER_CODE_STACK: usize = 256 << 20;

/// What an engine thread sends: each commit, then the job's result.
pub enum EngineMessage {
    Batch(Batch),
    Finished(Result<(), JobError>),
}

/// Where an engine thread starts: what was committed before it, and the
/// inputs that killed the attempts before it.
pub struct Resumption<F> {
    pub fold: Option<F>,
    pub journal: Vec<u8>,
    pub killed: Vec<Killed>,
}

/// Runs `job` on a new thread of `stack` bytes, bound to `flight`: its
/// commits and then its result come out of the receiver. When the thread
/// ends without a result, the job panicked (joining the handle tells).
pub fn spawn_engine<F: Fold + Clone + Send + 'static>(
    job: Arc<dyn Job<Fold = F>>,
    from: Resumption<F>,
    flight: Arc<Flight>,
    stop: StopFlag,
    stack: usize,
) -> std::io::Result<(mpsc::Receiver<EngineMessage>, std::thread::JoinHandle<()>)> {
    let (sender, receiver) = mpsc::channel();
    let thread = std::thread::Builder::new().name("smallscope-engine".into()).stack_size(stack).spawn(move || {
        let _binding = flight.bind();
        let mut sink = ChannelSink { sender, pending: Batch::default() };
        let start = Start { resume: from.fold.as_ref(), journal: &from.journal, killed: &from.killed, stop: &stop };
        let result = job.run(start, &mut sink);
        if result.is_ok() {
            sink.commit(&[]);
        }
        let _ = sink.sender.send(EngineMessage::Finished(result));
    })?;
    Ok((receiver, thread))
}

struct ThreadAttempt {
    receiver: mpsc::Receiver<EngineMessage>,
    flight: Arc<Flight>,
    stop: StopFlag,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// The flight of the in-process attempt running now, for [`exit_guard`].
static RUNNING: Mutex<Option<Arc<Flight>>> = Mutex::new(None);

/// Run at `exit()`: when a thread of the running in-process attempt is in
/// user code, the code under test ended the process (in a worker, the
/// supervisor would report it and go on). Says so, and exits with 2
/// instead of the status it gave, often 0, which would read as success.
extern "C" fn exit_guard() {
    let Ok(running) = RUNNING.try_lock() else { return };
    let Some(slot) = running.as_ref().and_then(|flight| flight.claimed().into_iter().find(|s| s.in_user_code)) else {
        return;
    };
    let _ = writeln!(
        std::io::stderr(),
        "error: the code under test ended the process (exit) during {} (operation {}, input {}): a run in this \
         process cannot go on past that; in a worker process (the command line without --no-isolation) it is a \
         finding",
        slot.code.during.name(),
        slot.code.op,
        slot.address
    );
    // SAFETY: `_exit` ends the process at once; nothing runs after it.
    unsafe { libc::_exit(2) }
}

/// Makes `flight` the one [`exit_guard`] reads, registering the guard once.
fn guard_exit(flight: &Arc<Flight>) {
    static REGISTER: std::sync::Once = std::sync::Once::new();
    // SAFETY: `exit_guard` is a plain `extern "C" fn()` that never unwinds.
    REGISTER.call_once(|| unsafe {
        libc::atexit(exit_guard);
    });
    *RUNNING.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(flight.clone());
}

impl Drop for ThreadAttempt {
    fn drop(&mut self) {
        // An abandoned thread stays in user code: it must not read as an exit later.
        let mut running = RUNNING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if running.as_ref().is_some_and(|flight| Arc::ptr_eq(flight, &self.flight)) {
            *running = None;
        }
    }
}

impl ThreadAttempt {
    fn start<F: Fold + Clone + Send + 'static>(
        job: Arc<dyn Job<Fold = F>>,
        supervisor: &Supervisor<F>,
    ) -> Result<Self, RunError> {
        // A slot for the engine's thread and for each thread it may start.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let flight = Flight::in_memory(1 + threads, super::flight::SLOT_WORDS);
        let stop = StopFlag::new();
        let from = Resumption {
            fold: supervisor.committed.then(|| supervisor.fold.clone()),
            journal: supervisor.journal.clone().unwrap_or_default(),
            killed: supervisor.killed.clone(),
        };
        guard_exit(&flight);
        let (receiver, thread) = spawn_engine(job, from, flight.clone(), stop.clone(), USER_CODE_STACK)
            .map_err(|e| RunError::Launch(e.to_string()))?;
        Ok(ThreadAttempt { receiver, flight, stop, thread: Some(thread) })
    }
}

impl Attempt for ThreadAttempt {
    fn next(&mut self, wait: Duration) -> Next {
        match self.receiver.recv_timeout(wait) {
            Ok(EngineMessage::Batch(batch)) => Next::Batch(batch),
            Ok(EngineMessage::Finished(result)) => {
                if let Some(thread) = self.thread.take() {
                    let _ = thread.join();
                }
                Next::Finished(result)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => Next::Idle,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // The engine itself panicked: that is a bug to surface as it is.
                match self.thread.take().map(std::thread::JoinHandle::join) {
                    Some(Err(payload)) => std::panic::resume_unwind(payload),
                    _ => Next::Finished(Ok(())),
                }
            }
        }
    }

    fn flight(&self) -> &Flight {
        &self.flight
    }

    fn interrupt(&mut self) {
        self.stop.stop();
    }

    fn abandon(&mut self) {
        self.stop.stop();
        // The thread is stuck in user code; it is left to run, detached.
        self.thread = None;
    }
}

/// Sends each commit's events to the supervising thread.
struct ChannelSink {
    sender: mpsc::Sender<EngineMessage>,
    pending: Batch,
}

impl Sink for ChannelSink {
    fn event(&mut self, event: Event) {
        self.pending.events.push(event);
    }

    fn commit(&mut self, journal: &[u8]) {
        // The next batch is about as long as this one: room for it now
        // spares copying a growing vector of large events.
        let room = Vec::with_capacity(self.pending.events.len());
        let mut batch = std::mem::take(&mut self.pending);
        self.pending.events = room;
        batch.journal = journal.to_vec();
        if !batch.events.is_empty() || !batch.journal.is_empty() {
            let _ = self.sender.send(EngineMessage::Batch(batch));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;
    use crate::events::During;
    use crate::runner::{flight, run_captured, Address, UserCode};

    /// Lets the threads the test leaves behind end with it.
    static RELEASE: AtomicBool = AtomicBool::new(false);

    /// Inputs 1, 2, ...: each hangs in its own operation (so no group is
    /// quarantined) unless an earlier attempt died on it; each committed
    /// input is a note.
    struct HangsOnEveryInput;

    #[derive(Debug, Clone, Default)]
    struct Notes {
        notes: Vec<String>,
        stop: Option<Stop>,
    }

    impl Fold for Notes {
        fn apply(&mut self, event: Event) {
            if let Event::Note(note) = event {
                self.notes.push(note.text);
            }
        }
        fn stopped_early(&mut self, stop: Stop) {
            self.stop.get_or_insert(stop);
        }
    }

    impl Job for HangsOnEveryInput {
        type Fold = Notes;
        fn run(&self, start: Start<'_, Notes>, sink: &mut dyn Sink) -> Result<(), JobError> {
            let from = start.resume.map_or(0, |notes| notes.notes.len() as u64);
            for input in from + 1..=1000 {
                let address = Address { run: 0, input, detail: 0 };
                if Killed::at(start.killed, address).is_none() {
                    flight::position(address);
                    let _ = run_captured(UserCode::new(During::Call, input as u16), || {
                        while !RELEASE.load(Ordering::Relaxed) {
                            std::thread::sleep(Duration::from_millis(2));
                        }
                    });
                }
                sink.event(Event::Note(Note { text: format!("input {input}") }));
                sink.commit(&[]);
            }
            Ok(())
        }
    }

    #[test]
    fn an_in_process_run_that_keeps_hanging_ends_with_what_it_committed() {
        let fold = run_in_thread(Arc::new(HangsOnEveryInput), Some(Duration::from_millis(40)), &mut ());
        RELEASE.store(true, Ordering::Relaxed);
        let fold = fold.expect("the run ends with its fold, not an error");
        assert_eq!(fold.stop, Some(Stop::TooManyHangs));
        // Each input hangs twice (once to confirm it) before it is stepped past.
        let inputs: Vec<String> = (1..=MAX_THREADS_LEFT / 2).map(|input| format!("input {input}")).collect();
        assert_eq!(fold.notes[..inputs.len()], inputs[..]);
        // The last hang, not confirmed, is told.
        let last = &fold.notes[inputs.len()..];
        assert!(last.len() == 1 && last[0].starts_with("the run stopped on a hang during call"), "{last:?}");
    }
}
