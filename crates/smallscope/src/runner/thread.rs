//! An attempt as a thread of this process: library mode and `--no-isolation`.
//!
//! The job runs on a thread with a large stack; its commits reach the
//! supervising thread over a channel. A call that does not return leaves
//! the thread behind (it cannot be stopped), and the job goes on in a new
//! one. A stack overflow, an abort or a runaway allocation in the job's
//! thread ends the process.

use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use super::flight::Flight;
use super::supervise::{Attempt, Batch, Job, Next, Observer, RunError, Start, StopFlag, Supervisor};
use crate::events::{Event, Fold, Sink};
use crate::ConfigError;

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
    supervisor.max_restarts = 16;
    supervisor.run(&mut |s| thread_attempt(job.clone(), s), observer)?;
    Ok(supervisor.fold)
}

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

enum Message {
    Batch(Batch),
    Finished(Result<(), ConfigError>),
}

struct ThreadAttempt {
    receiver: mpsc::Receiver<Message>,
    flight: Arc<Flight>,
    stop: StopFlag,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ThreadAttempt {
    fn start<F: Fold + Clone + Send + 'static>(
        job: Arc<dyn Job<Fold = F>>,
        supervisor: &Supervisor<F>,
    ) -> Result<Self, RunError> {
        let (sender, receiver) = mpsc::channel();
        // A slot for the engine's thread and for each thread it may start.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let flight = Flight::in_memory(1 + threads, super::flight::SLOT_WORDS);
        let stop = StopFlag::new();
        let resume = supervisor.committed.then(|| supervisor.fold.clone());
        let journal = supervisor.journal.clone().unwrap_or_default();
        let killed = supervisor.killed.clone();
        let (thread_flight, thread_stop) = (flight.clone(), stop.clone());
        let thread = std::thread::Builder::new()
            .name("smallscope-engine".into())
            .stack_size(USER_CODE_STACK)
            .spawn(move || {
                let _binding = thread_flight.bind();
                let mut sink = ChannelSink { sender, pending: Batch::default() };
                let start = Start { resume: resume.as_ref(), journal: &journal, killed: &killed, stop: &thread_stop };
                let result = job.run(start, &mut sink);
                if result.is_ok() {
                    sink.commit(&[]);
                }
                let _ = sink.sender.send(Message::Finished(result));
            })
            .map_err(|e| RunError::Launch(e.to_string()))?;
        Ok(ThreadAttempt { receiver, flight, stop, thread: Some(thread) })
    }
}

impl Attempt for ThreadAttempt {
    fn next(&mut self, wait: Duration) -> Next {
        match self.receiver.recv_timeout(wait) {
            Ok(Message::Batch(batch)) => Next::Batch(batch),
            Ok(Message::Finished(result)) => {
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
    sender: mpsc::Sender<Message>,
    pending: Batch,
}

impl Sink for ChannelSink {
    fn event(&mut self, event: Event) {
        self.pending.events.push(event);
    }

    fn commit(&mut self, journal: &[u8]) {
        let mut batch = std::mem::take(&mut self.pending);
        batch.journal.extend_from_slice(journal);
        if !batch.events.is_empty() || !batch.journal.is_empty() {
            let _ = self.sender.send(Message::Batch(batch));
        }
    }
}
