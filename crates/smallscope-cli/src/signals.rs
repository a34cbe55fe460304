//! Signals: Ctrl-C, SIGTERM and SIGHUP for the supervisor (stop, then stop at once)
//! and the worker (stop generating, finish), and the marks a dying worker
//! leaves in its flight slot to say which thread brought it down.

use std::sync::atomic::{AtomicI32, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use smallscope::runner::flight;
use smallscope_args::Exit;

/// The running worker's process id (0: none), which the handlers tell
/// apart from the user's signals by.
static WORKER: AtomicI32 = AtomicI32::new(0);

/// Notes the worker now running (`None`: none), whose signals are not the user's.
pub fn set_worker(pid: Option<u32>) {
    WORKER.store(pid.map_or(0, |pid| pid as i32), Ordering::Relaxed);
}

/// After a second signal the process is gone within this, whatever it was doing.
const SECOND_SIGNAL_EXIT: Duration = Duration::from_millis(900);
/// After SIGTERM the process is gone within this.
const TERMINATE_EXIT: Duration = Duration::from_millis(1900);
/// What is left of [`TERMINATE_EXIT`] for the files: SIGTERM cuts writing
/// after this, so that the summary can still say so.
pub const TERMINATE_WRITING: Duration = Duration::from_millis(1000);

/// The interrupts the supervisor has received: SIGINT, SIGTERM and SIGHUP are
/// counted instead of killing it, and a watcher thread makes sure the
/// process ends soon after a second signal or a SIGTERM even if the run
/// does not get to (its committed state stays in `--out` to be resumed).
pub struct Interrupts {
    count: Arc<AtomicUsize>,
    /// The last signal received.
    last: Arc<AtomicUsize>,
    /// Signals the running worker (the code under test) sent: not the
    /// user's, so they stop nothing.
    from_worker: Arc<AtomicUsize>,
    /// When the watcher saw each signal, in order.
    seen: Mutex<Vec<(i32, Instant)>>,
}

impl Interrupts {
    /// The process's interrupts, counted from the first call on (one set
    /// for the process: a suite's runs share it, so Ctrl-C stops them all).
    pub fn install() -> std::io::Result<&'static Self> {
        static INSTALLED: OnceLock<Interrupts> = OnceLock::new();
        if let Some(installed) = INSTALLED.get() {
            return Ok(installed);
        }
        let count = Arc::new(AtomicUsize::new(0));
        let last = Arc::new(AtomicUsize::new(0));
        let from_worker = Arc::new(AtomicUsize::new(0));
        // A file size limit (`ulimit -f`) makes a write fail, said in one
        // line, instead of killing the run without a word.
        // SAFETY: setting a signal's disposition to "ignore".
        unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            let (count, last, from_worker) = (count.clone(), last.clone(), from_worker.clone());
            // SAFETY: the action only reads the signal's sender and stores
            // to atomics, which is async-signal-safe.
            unsafe {
                signal_hook_registry::register_sigaction(signal, move |info: &libc::siginfo_t| {
                    let sender = info.si_pid();
                    if sender != 0 && sender == WORKER.load(Ordering::Relaxed) {
                        from_worker.fetch_add(1, Ordering::Relaxed);
                        return;
                    }
                    last.store(signal as usize, Ordering::Relaxed);
                    count.fetch_add(1, Ordering::Relaxed);
                })?;
            }
        }
        let installed = INSTALLED.get_or_init(|| Interrupts { count, last, from_worker, seen: Mutex::new(Vec::new()) });
        std::thread::Builder::new().name("smallscope-signals".into()).spawn(|| installed.watch())?;
        Ok(installed)
    }

    pub fn count(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }

    /// Signals the code under test sent this process (and were ignored).
    pub fn sent_by_worker(&self) -> usize {
        self.from_worker.load(Ordering::Relaxed)
    }

    /// The last signal received, if any.
    pub fn signal(&self) -> Option<i32> {
        (self.count() > 0).then(|| self.last.load(Ordering::Relaxed) as i32)
    }

    /// How long ago the first SIGTERM (or SIGHUP: the terminal is gone)
    /// came, if one did.
    pub fn since_terminate(&self) -> Option<Duration> {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.iter().find(|(signal, _)| terminates(*signal)).map(|(_, at)| at.elapsed())
    }

    /// Notes when each signal came, and ends the process at once when the
    /// run has not ended in time after a second signal or a SIGTERM.
    fn watch(&self) {
        let mut exit_at: Option<(Instant, i32)> = None;
        loop {
            std::thread::sleep(Duration::from_millis(10));
            let count = self.count();
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            while seen.len() < count {
                let signal = self.last.load(Ordering::Relaxed) as i32;
                seen.push((signal, Instant::now()));
                let within = match seen.len() {
                    1 if terminates(signal) => TERMINATE_EXIT,
                    1 => continue,
                    _ => SECOND_SIGNAL_EXIT,
                };
                let at = Instant::now() + within;
                if exit_at.is_none_or(|(earlier, _)| at < earlier) {
                    exit_at = Some((at, signal));
                }
            }
            drop(seen);
            if let Some((_, signal)) = exit_at.filter(|(at, _)| Instant::now() >= *at) {
                let line = "\nsmallscope: stopped at once (with --out, --resume carries the run on)\n";
                // SAFETY: write(2) and _exit(2) on a process that must end now;
                // nothing is flushed or dropped on the way, by design.
                unsafe {
                    libc::write(2, line.as_ptr().cast(), line.len());
                    libc::_exit(Exit::Signal(signal).code().into());
                }
            }
        }
    }
}

/// Whether `signal` asks the process to end soon (not Ctrl-C's "finish").
fn terminates(signal: i32) -> bool {
    signal == libc::SIGTERM || signal == libc::SIGHUP
}

/// In a worker: SIGINT, SIGTERM and SIGHUP set `stop` (the engine stops
/// generating and finishes), instead of killing the process.
pub fn stop_on_interrupt(stop: Arc<AtomicU8>) -> std::io::Result<()> {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let stop = stop.clone();
        // SAFETY: the action only stores to an atomic.
        unsafe {
            signal_hook::low_level::register(signal, move || stop.store(1, Ordering::Relaxed))?;
        }
    }
    Ok(())
}

const FATAL: [libc::c_int; 5] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE, libc::SIGABRT];

/// The handlers that were there before ours, by the index of the signal in `FATAL`.
static mut PREVIOUS: [Option<libc::sigaction>; 5] = [None; 5];

/// In a worker: a fatal signal marks the flight slot of the thread it hits
/// (a stack overflow, an abort), then goes on as before (Rust's stack
/// overflow message, then death).
pub fn mark_fatal_signals() {
    for (index, &signal) in FATAL.iter().enumerate() {
        // SAFETY: installing a handler with `sigaction`; `PREVIOUS` is
        // written here, before the handler can run, and only read after.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_fatal as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, &action, &mut previous) == 0 {
                (*std::ptr::addr_of_mut!(PREVIOUS))[index] = Some(previous);
            }
        }
    }
}

extern "C" fn on_fatal(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    flight::mark(signal as u64);
    let index = FATAL.iter().position(|&s| s == signal).unwrap_or(0);
    // SAFETY: `PREVIOUS` was set before this handler was installed; the
    // previous handler is called as it was registered.
    unsafe {
        match (*std::ptr::addr_of!(PREVIOUS))[index] {
            Some(previous) if previous.sa_sigaction != libc::SIG_DFL && previous.sa_sigaction != libc::SIG_IGN => {
                if previous.sa_flags & libc::SA_SIGINFO != 0 {
                    let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                        std::mem::transmute(previous.sa_sigaction);
                    handler(signal, info, context);
                } else {
                    let handler: extern "C" fn(libc::c_int) = std::mem::transmute(previous.sa_sigaction);
                    handler(signal);
                }
            }
            _ => {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
        }
    }
}
