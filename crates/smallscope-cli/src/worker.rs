//! Worker mode: the same binary, re-executed by the supervisor, runs the
//! engine on the user's code and sends what it commits over its standard
//! output.
//!
//! A worker knows it is one by `SMALLSCOPE_WORKER_DIR`, the staging folder
//! it shares with its supervisor: there it maps the flight recorder, reads
//! the committed state to carry on from and the inputs that killed the
//! attempts before it. Its standard output becomes the event pipe (what
//! user code prints goes to standard error), and it dies with its
//! supervisor.
//!
//! The pipe carries frames: a tag byte, a little-endian `u32` length, then
//! the payload. `B` is a commit's events as NDJSON, followed by `J`, its
//! journal; `F` is the job's result, `""` or an error message.

use std::fs::File;
use std::io::Write;
use std::os::fd::FromRawFd as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicU8};
use std::sync::Arc;

use smallscope::events::{write_ndjson, Event, Fold, Sink};
use smallscope::runner::{flight::SLOT_WORDS, Flight, Job, Killed, Start, StopFlag, USER_CODE_STACK};

use crate::staging::{load_committed, FLIGHT, KILLED};

/// The environment variable that makes a process a worker: the staging folder.
pub const WORKER_DIR: &str = "SMALLSCOPE_WORKER_DIR";
/// The memory limit in bytes, for the counting allocator.
pub const MEMORY_LIMIT: &str = "SMALLSCOPE_WORKER_MEMORY_LIMIT";

/// Slots of the flight recorder a worker shares: its threads, at most.
pub const FLIGHT_SLOTS: usize = 64;

pub const FRAME_EVENTS: u8 = b'B';
pub const FRAME_JOURNAL: u8 = b'J';
pub const FRAME_FINISHED: u8 = b'F';

/// The staging folder, when this process is a worker.
pub fn worker_dir() -> Option<PathBuf> {
    std::env::var_os(WORKER_DIR).map(PathBuf::from)
}

/// Runs `job` as a worker of the supervisor that shares `dir`.
pub fn serve<F: Fold + Clone + Send + 'static>(dir: &Path, job: Arc<dyn Job<Fold = F>>) -> ExitCode {
    match prepare(dir) {
        Ok((pipe, flight)) => run(dir, job, pipe, flight),
        Err(error) => {
            eprintln!("error: starting a worker: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// The event pipe (our standard output, moved), the shared flight recorder.
fn prepare(dir: &Path) -> anyhow::Result<(File, Arc<Flight>)> {
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
    if let Some(bytes) = std::env::var(MEMORY_LIMIT).ok().and_then(|v| v.parse::<u64>().ok()) {
        // The limit is on the process's memory: what it holds before any
        // allocation of the run (code, libraries) counts against it.
        let baseline = crate::memory::resident_bytes_of(std::process::id()).unwrap_or(0);
        crate::alloc::limit(bytes.saturating_sub(baseline).max(bytes / 2));
    }
    let file = std::fs::OpenOptions::new().read(true).write(true).open(dir.join(FLIGHT))?;
    // SAFETY: the file is ours and the supervisor's; it is never truncated
    // while mapped, and only accessed through atomics.
    let map = unsafe { memmap2::MmapMut::map_mut(&file)? };
    let map: &'static mut memmap2::MmapMut = Box::leak(Box::new(map));
    let words = map.len() / 8;
    anyhow::ensure!(words >= FLIGHT_SLOTS * SLOT_WORDS, "the flight file is too small");
    // SAFETY: the mapping is page-aligned, lives for the process, and
    // `AtomicU64` has the size and alignment of `u64`.
    let words: &'static [AtomicU64] = unsafe { std::slice::from_raw_parts(map.as_ptr().cast::<AtomicU64>(), words) };
    Ok((pipe, Flight::mapped(words)))
}

fn run<F: Fold + Clone + Send + 'static>(
    dir: &Path,
    job: Arc<dyn Job<Fold = F>>,
    pipe: File,
    flight: Arc<Flight>,
) -> ExitCode {
    let stop = Arc::new(AtomicU8::new(0));
    if let Err(error) = crate::signals::stop_on_interrupt(stop.clone()) {
        eprintln!("error: starting a worker: {error}");
        return ExitCode::from(2);
    }
    let committed: Option<(F, Vec<u8>)> = match load_committed(dir) {
        Ok(state) => state,
        Err(error) => {
            eprintln!("error: reading the committed state: {error:#}");
            return ExitCode::from(2);
        }
    };
    let killed: Vec<Killed> =
        std::fs::read_to_string(dir.join(KILLED)).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
    // The stack is memory too: under a limit, unbounded recursion should
    // overflow the stack, not pass the limit.
    let stack = match std::env::var(MEMORY_LIMIT).ok().and_then(|v| v.parse::<u64>().ok()) {
        Some(limit) => USER_CODE_STACK.min((limit / 4) as usize).max(8 << 20),
        None => USER_CODE_STACK,
    };
    let thread = std::thread::Builder::new().name("smallscope-engine".into()).stack_size(stack).spawn(move || {
        let _binding = flight.bind();
        let stop = StopFlag::shared(stop);
        let (fold, journal) = match &committed {
            Some((fold, journal)) => (Some(fold), &journal[..]),
            None => (None, &[][..]),
        };
        let start = Start { resume: fold, journal, killed: &killed, stop: &stop };
        let mut sink = PipeSink::new(pipe);
        let result = job.run(start, &mut sink);
        if result.is_ok() {
            sink.commit(&[]);
        }
        let message = result.err().map(|e| e.to_string()).unwrap_or_default();
        sink.finish(message)
    });
    match thread.map(|t| t.join()) {
        Ok(Ok(true)) => ExitCode::SUCCESS,
        Ok(Ok(false)) => ExitCode::from(2),
        Ok(Err(_)) => {
            eprintln!(
                "error: smallscope itself panicked in the worker (a bug: please report it with the command line)"
            );
            ExitCode::from(2)
        }
        Err(error) => {
            eprintln!("error: starting the engine's thread: {error}");
            ExitCode::from(2)
        }
    }
}

/// What the engine hands the writer: a commit, or the job's end.
enum Outgoing {
    Commit(Vec<Event>, Vec<u8>),
    Finished(String),
}

/// Sends each commit's events down the pipe. A thread of its own writes
/// them, so that the engine does not wait on serialization or the pipe.
struct PipeSink {
    pending: Vec<Event>,
    sender: std::sync::mpsc::Sender<Outgoing>,
    writer: std::thread::JoinHandle<bool>,
}

impl PipeSink {
    fn new(pipe: File) -> Self {
        let (sender, receiver) = std::sync::mpsc::channel();
        let writer = std::thread::Builder::new()
            .name("smallscope-writer".into())
            .spawn(move || write_frames(pipe, &receiver))
            .expect("spawning the writer thread");
        PipeSink { pending: Vec::new(), sender, writer }
    }

    /// Tells the job's end (an error message, or nothing); whether the
    /// supervisor got everything.
    fn finish(self, message: String) -> bool {
        let _ = self.sender.send(Outgoing::Finished(message));
        drop(self.sender);
        self.writer.join().unwrap_or(false)
    }
}

impl Sink for PipeSink {
    fn event(&mut self, event: Event) {
        self.pending.push(event);
    }

    fn commit(&mut self, journal: &[u8]) {
        if self.pending.is_empty() && journal.is_empty() {
            return;
        }
        let _ = self.sender.send(Outgoing::Commit(std::mem::take(&mut self.pending), journal.to_vec()));
    }
}

/// Writes frames until the job's end; false if the pipe broke.
fn write_frames(mut pipe: File, receiver: &std::sync::mpsc::Receiver<Outgoing>) -> bool {
    let mut frame = |tag: u8, payload: &[u8]| -> std::io::Result<()> {
        let mut header = [0u8; 5];
        header[0] = tag;
        header[1..].copy_from_slice(&(payload.len() as u32).to_le_bytes());
        pipe.write_all(&header)?;
        pipe.write_all(payload)
    };
    let mut events = Vec::new();
    for outgoing in receiver {
        let written = match outgoing {
            Outgoing::Commit(batch, journal) => {
                events.clear();
                for event in &batch {
                    write_ndjson(event, &mut events).expect("events serialize");
                }
                frame(FRAME_EVENTS, &events).and_then(|()| frame(FRAME_JOURNAL, &journal))
            }
            Outgoing::Finished(message) => return frame(FRAME_FINISHED, message.as_bytes()).is_ok(),
        };
        if written.is_err() {
            return false;
        }
    }
    false
}
