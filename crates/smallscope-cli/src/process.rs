//! A worker process as an [`Attempt`]: spawned with the supervisor's own
//! command line, read through its pipe, and, when it dies, told apart by
//! what killed it.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::AtomicU64;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use smallscope::emit::write_atomically;
use smallscope::events::{FailureKind, Stop};
use smallscope::runner::flight::{MARK_OUT_OF_MEMORY, SLOT_WORDS};
use smallscope::runner::{Attempt, Batch, Death, Flight, JobError, Killed, Next, RunError};
use smallscope::ConfigError;
use smallscope_args::{WORKER_DIR_VAR, WORKER_MEMORY_LIMIT_VAR};

use crate::progress::Console;
use crate::staging::{map_flight, FLIGHT, KILLED};
use crate::worker::{FINISHED_BAD_INPUT, FLIGHT_SLOTS, FRAME_EVENTS, FRAME_FINISHED, FRAME_JOURNAL};

/// What the pipe carries, read by a thread of its own.
enum Frame {
    Batch(Batch),
    /// The job's result.
    Finished(Result<(), JobError>),
    /// The pipe broke mid-frame or a frame did not parse.
    Garbled(String),
}

/// The last this many bytes of a worker's standard error are kept to tell
/// how it died.
const STDERR_TAIL: usize = 64 * 1024;

/// A resident-memory limit this much above `--memory-limit-mb` kills the
/// worker even if the counting allocator did not see the memory.
const RESIDENT_MARGIN: f64 = 1.5;

/// Processes a worker's group may hold, the worker included: more, and
/// the code under test is forking without bound (a fork bomb?); the group
/// is killed, and the call is a finding.
pub const MAX_PROCESSES: usize = 64;

pub struct ProcessAttempt {
    // Dropped before the child is reaped: nothing reads the mapping then.
    flight: Arc<Flight>,
    child: Child,
    frames: mpsc::Receiver<Frame>,
    stderr: Option<std::thread::JoinHandle<()>>,
    tail: Arc<Mutex<Vec<u8>>>,
    memory_limit: Option<u64>,
    killed_for_memory: bool,
    /// The worker's process group passed [`MAX_PROCESSES`] and was killed.
    killed_for_processes: bool,
    /// This process killed the worker (its pipe broke): its SIGKILL is ours.
    killed_here: bool,
    last_memory_check: Instant,
    last_process_check: Instant,
    /// Reaped: the child's pid may belong to another process now.
    done: bool,
    /// The largest peak resident set size of the run's workers, in bytes.
    peak: Arc<AtomicU64>,
}

impl ProcessAttempt {
    /// Starts a worker on the staging folder `dir`, running the order
    /// written there past the `killed` inputs. Without `structures`, structure
    /// events are staged but not parsed: the run writes no file of them.
    pub fn start(
        dir: &Path,
        memory_limit: Option<u64>,
        killed: &[Killed],
        structures: bool,
        console: &Console,
        peak: Arc<AtomicU64>,
    ) -> Result<Self, RunError> {
        let launch = |e: std::io::Error| RunError::Launch(e.to_string());
        write_atomically(&dir.join(KILLED), serde_json::to_string(killed).expect("killed inputs serialize").as_bytes())
            .map_err(launch)?;
        // A new file each time: every slot starts at zero.
        let path = dir.join(FLIGHT);
        let _ = std::fs::remove_file(&path);
        let file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&path).map_err(launch)?;
        file.set_len((FLIGHT_SLOTS * SLOT_WORDS * 8) as u64).map_err(launch)?;
        let flight = map_flight(&file).map_err(launch)?;
        let mut command = worker_command().map_err(launch)?;
        command.env(WORKER_DIR_VAR, dir).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(bytes) = memory_limit {
            command.env(WORKER_MEMORY_LIMIT_VAR, bytes.to_string());
        }
        // A group of its own: what the code under test forks is counted
        // (`check_processes`) and killed with the worker.
        command.process_group(0);
        let mut child = command.spawn().map_err(launch)?;
        crate::signals::set_worker(Some(child.id()));
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let (sender, frames) = mpsc::channel();
        std::thread::Builder::new()
            .name("smallscope-pipe".into())
            .spawn(move || read_frames(stdout, structures, &sender))
            .map_err(launch)?;
        let tail = Arc::new(Mutex::new(Vec::new()));
        let (their_tail, console) = (tail.clone(), console.clone());
        let stderr = std::thread::Builder::new()
            .name("smallscope-stderr".into())
            .spawn(move || forward_stderr(stderr, &their_tail, &console))
            .map_err(launch)?;
        Ok(ProcessAttempt {
            flight,
            child,
            frames,
            stderr: Some(stderr),
            tail,
            memory_limit,
            killed_for_memory: false,
            killed_for_processes: false,
            killed_here: false,
            last_memory_check: Instant::now(),
            last_process_check: Instant::now(),
            done: false,
            peak,
        })
    }

    /// Reaps the worker and tells how it ended.
    fn ended(&mut self) -> Next {
        let status = self.reap();
        if let Some(handle) = self.stderr.take() {
            let _ = handle.join();
        }
        let tail = String::from_utf8_lossy(&self.tail.lock().unwrap_or_else(|e| e.into_inner())).into_owned();
        if self.killed_for_processes {
            let message = format!("the code under test started more than {MAX_PROCESSES} processes (a fork bomb?)");
            return Next::Died(Death { kind: FailureKind::Crash, message, culprit: None });
        }
        if !self.killed_for_memory && !self.killed_here && status.and_then(|s| s.signal()) == Some(libc::SIGKILL) {
            return Next::Lost("SIGKILL, which smallscope did not send: the system's out-of-memory killer?".into());
        }
        classify(status, &tail, self.killed_for_memory, self.memory_limit, &self.flight)
    }

    /// Waits for the worker to end and notes its peak memory: `wait4` gives
    /// that child's own usage, where `RUSAGE_CHILDREN` would also hold what
    /// a process that exec'ed this one had reaped (`cargo run` does).
    fn reap(&mut self) -> Option<ExitStatus> {
        if self.done {
            return None;
        }
        self.done = true;
        crate::signals::set_worker(None);
        let pid = self.child.id() as libc::pid_t;
        loop {
            let mut status = 0;
            // SAFETY: waits for our own unreaped child, filling the two
            // out-parameters it is given.
            let (reaped, usage) = unsafe {
                let mut usage: libc::rusage = std::mem::zeroed();
                (libc::wait4(pid, &mut status, 0, &mut usage), usage)
            };
            if reaped == pid {
                // What the code under test forked goes with it.
                kill_group(pid);
                let bytes = u64::try_from(usage.ru_maxrss).unwrap_or(0).saturating_mul(1024);
                self.peak.fetch_max(bytes, std::sync::atomic::Ordering::Relaxed);
                return Some(ExitStatus::from_raw(status));
            }
            if reaped == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return None;
        }
    }

    /// Kills the worker's group if it holds more than [`MAX_PROCESSES`]
    /// (checked as often as memory).
    fn check_processes(&mut self) {
        if self.done || self.killed_for_processes || self.last_process_check.elapsed() < Duration::from_millis(50) {
            return;
        }
        self.last_process_check = Instant::now();
        let group = self.child.id() as libc::pid_t;
        if processes_in_group(group) > MAX_PROCESSES {
            self.killed_for_processes = true;
            // SAFETY: a signal to the process group made for the worker; its
            // stragglers are killed again once it is reaped.
            unsafe { libc::killpg(group, libc::SIGKILL) };
        }
    }

    /// Kills the worker if its resident memory is far past the limit (memory
    /// the counting allocator does not see, as from C code).
    fn check_memory(&mut self) {
        let Some(limit) = self.memory_limit else { return };
        if self.last_memory_check.elapsed() < Duration::from_millis(50) {
            return;
        }
        self.last_memory_check = Instant::now();
        if crate::memory::resident_bytes_of(self.child.id())
            .is_some_and(|rss| rss as f64 > limit as f64 * RESIDENT_MARGIN)
        {
            self.killed_for_memory = true;
            let _ = self.child.kill();
        }
    }
}

impl Attempt for ProcessAttempt {
    fn next(&mut self, wait: Duration) -> Next {
        if self.done {
            return Next::Finished(Ok(()));
        }
        match self.frames.recv_timeout(wait) {
            Ok(Frame::Batch(batch)) => Next::Batch(batch),
            Ok(Frame::Finished(message)) => {
                self.reap();
                Next::Finished(message)
            }
            Ok(Frame::Garbled(why)) => {
                self.killed_here = true;
                let _ = self.child.kill();
                match self.ended() {
                    Next::Died(death) => Next::Died(death),
                    _ => Next::Died(Death {
                        kind: FailureKind::Crash,
                        message: format!("the worker's pipe broke: {why}"),
                        culprit: None,
                    }),
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                self.check_memory();
                self.check_processes();
                Next::Idle
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => self.ended(),
        }
    }

    fn flight(&self) -> &Flight {
        &self.flight
    }

    fn paused(&self) -> bool {
        // The state in /proc/PID/stat, after the command's closing parenthesis.
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        let state = stat.rsplit_once(") ").and_then(|(_, rest)| rest.chars().next());
        !self.done && matches!(state, Some('T' | 't'))
    }

    fn interrupt(&mut self) {
        if self.done {
            return;
        }
        // SAFETY: a signal to our own child, which has not been reaped.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
    }

    fn abandon(&mut self) {
        if !self.done {
            let _ = self.child.kill();
            self.reap();
        }
    }
}

impl Drop for ProcessAttempt {
    fn drop(&mut self) {
        if !self.done {
            let _ = self.child.kill();
            self.reap();
        }
    }
}

/// This very program, to start as a worker. Through `/proc/self/exe` on
/// Linux: it stays this binary when a rebuild replaces the file mid-run.
/// The worker keeps our `argv[0]`, so the commands it prints name us.
fn worker_command() -> std::io::Result<Command> {
    use std::os::unix::fs::MetadataExt as _;
    use std::os::unix::process::CommandExt as _;
    let proc_exe = Path::new("/proc/self/exe");
    let same_file = |a: &Path, b: &Path| match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    };
    let mut command = match std::env::current_exe() {
        // Under valgrind `/proc/self/exe` is valgrind's tool (the path,
        // read through valgrind, is this program's): start the path.
        Ok(path) if path.is_file() && proc_exe.exists() && !same_file(&path, proc_exe) => Command::new(path),
        _ if proc_exe.exists() => Command::new(proc_exe),
        _ => Command::new(std::env::current_exe()?),
    };
    if let Some(arg0) = std::env::args_os().next() {
        command.arg0(arg0);
    }
    Ok(command)
}

/// How a worker that did not finish died, from its exit status, the end of
/// what it printed and the marks in its flight slots.
fn classify(
    status: Option<ExitStatus>,
    tail: &str,
    killed_for_memory: bool,
    limit: Option<u64>,
    flight: &Flight,
) -> Next {
    let marked = flight.claimed().into_iter().find(|s| s.mark != 0);
    let out_of_memory = killed_for_memory
        || marked.as_ref().is_some_and(|s| s.mark == MARK_OUT_OF_MEMORY)
        || tail.contains("memory allocation of");
    let culprit = marked.map(|s| s.slot);
    if out_of_memory {
        let megabytes = limit.map_or(0, |l| l >> 20);
        // The thread whose allocation passed the limit, or the one in user code.
        let Some(slot) = flight.blamed(culprit) else {
            // The run's own memory reached the limit: it ends with what it has.
            return Next::Ended(Stop::MemoryLimit);
        };
        // Memory that was mostly there before the call is the run's own (the
        // engines stop between inputs before it comes to this): the run ends.
        let grew_here = limit.is_none_or(|limit| (slot.allocated as f64) < limit as f64 * 0.75);
        if !grew_here {
            return Next::Ended(Stop::MemoryLimit);
        }
        return Next::Died(Death {
            kind: FailureKind::OutOfMemory,
            message: format!("memory passed the limit of {megabytes} MiB in this call"),
            culprit: Some(slot.slot),
        });
    }
    let (kind, message) = if tail.contains("has overflowed its stack") {
        (FailureKind::StackOverflow, "the stack overflowed (unbounded recursion?)".to_owned())
    } else if tail.contains("IO Safety violation") {
        let message = "a file descriptor the worker owns was closed under it: does the code under test close \
                       descriptors it does not own?";
        (FailureKind::Abort, message.to_owned())
    } else if let (true, Some(code)) = (tail.contains(crate::worker::EXIT_OUTSIDE_CALLS), status.and_then(|s| s.code()))
    {
        (
            FailureKind::Exit,
            format!("exit({code}) was called outside any call: by a thread the code under test started?"),
        )
    } else {
        match status.and_then(|s| s.signal()) {
            Some(libc::SIGABRT) => (FailureKind::Abort, "the process aborted (SIGABRT)".to_owned()),
            Some(signal) => {
                (FailureKind::Crash, format!("the process was killed by signal {signal} ({})", signal_name(signal)))
            }
            None => match status.and_then(|s| s.code()) {
                Some(code) => (FailureKind::Exit, format!("the process exited with code {code}")),
                None => (FailureKind::Crash, "the process ended without an exit status".to_owned()),
            },
        }
    };
    Next::Died(Death { kind, message, culprit })
}

/// The processes whose group is `group`, from `/proc`.
fn processes_in_group(group: libc::pid_t) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
    let group = group.to_string();
    entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_str().is_some_and(|name| name.bytes().all(|b| b.is_ascii_digit())))
        .filter(|entry| {
            // After the command's closing parenthesis: state, parent, group.
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            stat.rsplit_once(") ").and_then(|(_, rest)| rest.split(' ').nth(2)) == Some(group.as_str())
        })
        .count()
}

/// Kills every process of `group` until none is left (a fork bomb forks
/// while it is being killed); gives up after a second.
fn kill_group(group: libc::pid_t) {
    let began = Instant::now();
    // SAFETY: signals to a process group this process made for its worker.
    while unsafe { libc::killpg(group, libc::SIGKILL) } == 0 && began.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        _ => "a signal",
    }
}

/// Reads frames until the pipe closes; a commit is sent once its journal
/// arrived too. Without `structures`, structure events are left unparsed.
fn read_frames(mut pipe: impl Read, structures: bool, sender: &mpsc::Sender<Frame>) {
    let mut pending: Option<Batch> = None;
    loop {
        let mut header = [0u8; 5];
        match pipe.read_exact(&mut header) {
            Ok(()) => {}
            Err(_) => return,
        }
        let len = u32::from_le_bytes(header[1..].try_into().expect("4 bytes")) as usize;
        let mut payload = vec![0u8; len];
        if let Err(e) = pipe.read_exact(&mut payload) {
            let _ = sender.send(Frame::Garbled(format!("a frame was cut short: {e}")));
            return;
        }
        let frame = match header[0] {
            FRAME_EVENTS => match parse_events(&payload, structures) {
                Ok(events) => {
                    pending = Some(Batch { events, journal: Vec::new(), ndjson: payload });
                    continue;
                }
                Err(e) => Frame::Garbled(format!("an event did not parse: {e}")),
            },
            FRAME_JOURNAL => match pending.take() {
                Some(batch) => Frame::Batch(Batch { journal: payload, ..batch }),
                None => Frame::Garbled("a journal without events".into()),
            },
            FRAME_FINISHED => Frame::Finished(match payload.split_first() {
                None => Ok(()),
                Some((&FINISHED_BAD_INPUT, message)) => {
                    Err(JobError::Input(ConfigError::Invalid(String::from_utf8_lossy(message).into_owned())))
                }
                Some((_, message)) => Err(JobError::Fault(String::from_utf8_lossy(message).into_owned())),
            }),
            other => Frame::Garbled(format!("an unknown frame `{}`", other as char)),
        };
        let last = !matches!(frame, Frame::Batch(_));
        if sender.send(frame).is_err() || last {
            return;
        }
    }
}

/// The events of a commit's NDJSON, structure events left out unless asked for.
fn parse_events(ndjson: &[u8], structures: bool) -> Result<Vec<smallscope::events::Event>, String> {
    const STRUCTURE: &[u8] = b"{\"event\":\"structure\"";
    ndjson
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty() && (structures || !line.starts_with(STRUCTURE)))
        .map(|line| serde_json::from_slice(line).map_err(|e| e.to_string()))
        .collect()
}

/// Shows what the worker prints (user code's output too), keeping the end
/// of it to tell how the worker died.
fn forward_stderr(stderr: impl Read, tail: &Mutex<Vec<u8>>, console: &Console) {
    for line in BufReader::new(stderr).split(b'\n') {
        let Ok(line) = line else { return };
        {
            let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
            tail.extend_from_slice(&line);
            tail.push(b'\n');
            if tail.len() > STDERR_TAIL {
                let cut = tail.len() - STDERR_TAIL;
                tail.drain(..cut);
            }
        }
        console.line(&String::from_utf8_lossy(&line));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The result a frame `F` carries: nothing, bad input or a fault.
    fn finished(payload: &[u8]) -> Result<(), JobError> {
        let mut bytes = vec![FRAME_FINISHED];
        bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        bytes.extend_from_slice(payload);
        let (sender, receiver) = mpsc::channel();
        read_frames(&bytes[..], false, &sender);
        match receiver.try_recv() {
            Ok(Frame::Finished(result)) => result,
            _ => panic!("no result frame"),
        }
    }

    /// A worker's end tells bad input from a smallscope fault, as the run's exit does.
    #[test]
    fn a_jobs_end_keeps_its_kind_across_the_pipe() {
        assert_eq!(finished(b""), Ok(()));
        let input = finished(b"Iscope must be at least 1");
        assert!(matches!(&input, Err(JobError::Input(e)) if e.to_string() == "scope must be at least 1"), "{input:?}");
        assert_eq!(
            finished(b"Xresuming: structure 3 could not be rebuilt"),
            Err(JobError::Fault("resuming: structure 3 could not be rebuilt".into()))
        );
        let fault: RunError = JobError::Fault("x".into()).into();
        assert!(matches!(fault, RunError::Fault(_)), "{fault}");
    }
}
