//! Worker mode: the same binary, re-executed by the supervisor, runs the
//! engine on the user's code and sends what it commits over its standard
//! output.
//!
//! A worker knows it is one by `SMALLSCOPE_WORKER_DIR`, the staging folder
//! it shares with its supervisor: there it reads its job (`order.json`, a
//! [`JobOrder`]: no command line), maps the flight recorder, reads
//! the committed state to carry on from and the inputs that killed the
//! attempts before it. Its standard output becomes the event pipe (what
//! user code prints goes to standard error), and it dies with its
//! supervisor.
//!
//! The pipe carries frames: a tag byte, a little-endian `u32` length, then
//! the payload. `B` is a commit's events as NDJSON, followed by `J`, its
//! journal; `F` is the job's result: empty when it ran to its end, else
//! `I` (bad input) or `X` (a fault) and the message.

use std::fs::File;
use std::io::Write;
use std::os::fd::FromRawFd as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicU8;
use std::sync::{mpsc, Arc};

use anyhow::Context as _;
use smallscope::events::{write_ndjson, Fold};
use smallscope::order::{JobOrder, Order as _};
use smallscope::runner::{
    spawn_engine, EngineMessage, Flight, Job, JobError, Killed, Resumption, StopFlag, USER_CODE_STACK,
};
use smallscope_args::{Exit, WORKER_DIR_VAR, WORKER_MEMORY_LIMIT_VAR};

use crate::staging::{load_committed, map_flight, FLIGHT, KILLED, ORDER};

/// Slots of the flight recorder a worker shares: its threads, at most.
pub const FLIGHT_SLOTS: usize = 64;

pub const FRAME_EVENTS: u8 = b'B';
pub const FRAME_JOURNAL: u8 = b'J';
pub const FRAME_FINISHED: u8 = b'F';
/// The first byte of an `F` frame that carries an error: bad input, or a fault.
pub const FINISHED_BAD_INPUT: u8 = b'I';
pub const FINISHED_FAULT: u8 = b'X';

/// The staging folder, when this process is a worker.
pub fn worker_dir() -> Option<PathBuf> {
    std::env::var_os(WORKER_DIR_VAR).map(PathBuf::from)
}

/// What a worker prints when `exit()` ends it before its job is done and
/// no thread is in a call (a thread the code under test started).
pub const EXIT_OUTSIDE_CALLS: &str = "smallscope worker: exit() was called before the job's end";

/// Set once the job's thread has ended: an `exit()` before is not ours.
static JOB_ENDED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Run at `exit()`: tells the supervisor an exit came before the job's end.
extern "C" fn exit_before_the_end() {
    if !JOB_ENDED.load(std::sync::atomic::Ordering::Relaxed) {
        let _ = writeln!(std::io::stderr(), "{EXIT_OUTSIDE_CALLS}");
    }
}

/// Runs the order in `dir` as a worker of the supervisor that shares that
/// folder. The order is the whole job: a worker reads no command line.
pub fn serve(dir: &Path) -> ExitCode {
    let path = dir.join(ORDER);
    let read = || -> anyhow::Result<JobOrder> { Ok(serde_json::from_str(&std::fs::read_to_string(&path)?)?) };
    let order = match read().with_context(|| format!("reading {}", path.display())) {
        Ok(order) => order,
        Err(error) => return cannot_start(dir, &error),
    };
    let served = match order {
        JobOrder::Beapi(order) => order.job().map(|job| serve_job(dir, job)),
        JobOrder::Korat(order) => order.job().map(|job| serve_job(dir, job)),
        JobOrder::Random(order) => order.job().map(|job| serve_job(dir, job)),
        JobOrder::Compare(order) => order.job().map(|job| serve_job(dir, job)),
        JobOrder::Builders(order) => order.job().map(|job| serve_job(dir, job)),
    };
    served.unwrap_or_else(|error| {
        eprintln!("error: {error}");
        ExitCode::from(Exit::Fault)
    })
}

/// Why this process, started as a worker, cannot work.
fn cannot_start(dir: &Path, error: &anyhow::Error) -> ExitCode {
    eprintln!(
        "error: {WORKER_DIR_VAR}={} is set, so this runs as a smallscope worker, but it cannot start: {error:#}\n\
         (the variable is for smallscope's own workers: unset it to run smallscope)",
        dir.display()
    );
    ExitCode::from(Exit::Fault)
}

/// Runs `job` as a worker of the supervisor that shares `dir`.
fn serve_job<F: Fold + Clone + Send + 'static>(dir: &Path, job: Arc<dyn Job<Fold = F>>) -> ExitCode {
    let memory_limit = std::env::var(WORKER_MEMORY_LIMIT_VAR).ok().and_then(|v| v.parse::<u64>().ok());
    match prepare(dir, memory_limit) {
        Ok((pipe, flight)) => run(dir, job, pipe, flight, memory_limit),
        Err(error) => cannot_start(dir, &error),
    }
}

/// The event pipe (our standard output, moved), the shared flight recorder.
fn prepare(dir: &Path, memory_limit: Option<u64>) -> anyhow::Result<(File, Arc<Flight>)> {
    // SAFETY: plain system calls on this process's own descriptors: the
    // pipe keeps standard output's descriptor, standard output becomes
    // standard error, so that what user code prints cannot corrupt the pipe.
    let pipe = unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        let fd = libc::dup(1);
        anyhow::ensure!(fd >= 0 && libc::dup2(2, 1) >= 0, "moving standard output");
        File::from_raw_fd(fd)
    };
    crate::signals::mark_fatal_signals();
    if let Some(bytes) = memory_limit {
        crate::alloc::limit_resident(bytes)?;
    }
    let file = std::fs::OpenOptions::new().read(true).write(true).open(dir.join(FLIGHT))?;
    let flight = map_flight(&file)?;
    anyhow::ensure!(flight.slots() >= FLIGHT_SLOTS, "the flight file is too small");
    Ok((pipe, flight))
}

fn run<F: Fold + Clone + Send + 'static>(
    dir: &Path,
    job: Arc<dyn Job<Fold = F>>,
    pipe: File,
    flight: Arc<Flight>,
    memory_limit: Option<u64>,
) -> ExitCode {
    let stop = Arc::new(AtomicU8::new(0));
    if let Err(error) = crate::signals::stop_on_interrupt(stop.clone()) {
        eprintln!("error: starting a worker: {error}");
        return ExitCode::from(Exit::Fault);
    }
    let (fold, journal) = match load_committed::<F>(dir) {
        Ok(Some((fold, journal))) => (Some(fold), journal),
        Ok(None) => (None, Vec::new()),
        Err(error) => {
            eprintln!("error: reading the committed state: {error:#}");
            return ExitCode::from(Exit::Fault);
        }
    };
    let killed: Vec<Killed> =
        std::fs::read_to_string(dir.join(KILLED)).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
    // The stack is memory too: under a limit, unbounded recursion should
    // overflow the stack, not pass the limit.
    let stack = match memory_limit {
        Some(limit) => USER_CODE_STACK.min((limit / 4) as usize).max(8 << 20),
        None => USER_CODE_STACK,
    };
    let from = Resumption { fold, journal, killed };
    let (receiver, thread) = match spawn_engine(job, from, flight, StopFlag::shared(stop), stack) {
        Ok(engine) => engine,
        Err(error) => {
            eprintln!("error: starting the engine's thread: {error}");
            return ExitCode::from(Exit::Fault);
        }
    };
    // SAFETY: registers a plain `extern "C" fn()` that never unwinds.
    unsafe { libc::atexit(exit_before_the_end) };
    // This thread serializes and writes while the engine goes on.
    let delivered = write_frames(pipe, &receiver);
    let joined = thread.join();
    JOB_ENDED.store(true, std::sync::atomic::Ordering::Relaxed);
    match joined {
        Ok(()) if delivered => ExitCode::SUCCESS,
        Ok(()) => ExitCode::from(Exit::Fault),
        Err(_) => {
            eprintln!(
                "error: smallscope itself panicked in the worker (a bug: please report it with the command line)"
            );
            ExitCode::from(Exit::Fault)
        }
    }
}

/// Writes frames until the job's end; whether the supervisor got all of it.
fn write_frames(mut pipe: File, receiver: &mpsc::Receiver<EngineMessage>) -> bool {
    fn frame(out: &mut Vec<u8>, tag: u8, payload: impl FnOnce(&mut Vec<u8>)) {
        out.push(tag);
        let at = out.len();
        out.extend_from_slice(&[0; 4]);
        payload(out);
        let len = (out.len() - at - 4) as u32;
        out[at..at + 4].copy_from_slice(&len.to_le_bytes());
    }
    let mut out = Vec::new();
    for message in receiver {
        out.clear();
        let finished = match message {
            EngineMessage::Batch(batch) => {
                frame(&mut out, FRAME_EVENTS, |out| {
                    for event in &batch.events {
                        write_ndjson(event, out).expect("events serialize");
                    }
                });
                frame(&mut out, FRAME_JOURNAL, |out| out.extend_from_slice(&batch.journal));
                false
            }
            EngineMessage::Finished(result) => {
                frame(&mut out, FRAME_FINISHED, |out| match result {
                    Ok(()) => {}
                    Err(JobError::Input(error)) => {
                        out.push(FINISHED_BAD_INPUT);
                        out.extend_from_slice(error.to_string().as_bytes());
                    }
                    Err(JobError::Fault(why)) => {
                        out.push(FINISHED_FAULT);
                        out.extend_from_slice(why.as_bytes());
                    }
                });
                true
            }
        };
        // One write per commit.
        if pipe.write_all(&out).is_err() {
            return false;
        }
        if finished {
            return true;
        }
    }
    // The engine's thread ended without a result: it panicked.
    false
}
