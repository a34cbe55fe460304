//! Runs a job as the command line does: in worker processes under a
//! supervisor (or, with `--no-isolation`, on a thread of this one),
//! staging every commit, resuming from `--out` with `--resume`, and
//! stopping cleanly on Ctrl-C.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use smallscope::events::{Fold as _, Stop};
use smallscope::order::Order;
use smallscope::runner::{
    thread_attempt, Attempt, Batch, Control, Ending, Job, Killed, Observer, RunError, Supervisor,
};

use crate::guard::Guard;
use crate::process::ProcessAttempt;
use crate::progress::{Console, Progress};
use crate::signals::Interrupts;
use crate::staging::{Keeper, Staging};
use crate::summary::{RunFacts, Summary};
use crate::writing::{write_outputs, Budget, OutputFile, WRITING_GRACE};
use crate::{BadInput, RunArgs};
use smallscope_args::Exit;

/// How to run, from the command line's options.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Run the engine in worker processes (the default).
    pub isolation: bool,
    pub call_timeout: Option<Duration>,
    /// `--call-timeout` was given (else a time limit may shorten it).
    pub call_timeout_given: bool,
    /// Confirmed deaths of one group after which its operation is quarantined.
    pub max_repeats: u32,
    /// Bytes a worker may allocate.
    pub memory_limit: Option<u64>,
    pub out: Option<PathBuf>,
    pub resume: bool,
    /// The command needs every structure event (it writes files of them).
    pub structures: bool,
    /// The whole run's time limit by the wall clock; the files get
    /// [`WRITING_GRACE`] more.
    pub time_limit: Option<Duration>,
    /// This process's place in a cluster (`--hostfile`), if it is in one.
    pub cluster: Option<crate::cluster::Cluster>,
}

impl RunOptions {
    /// These options with the run's time limit. Unless `--call-timeout` was
    /// given, a call may take at most a tenth of it: an operation that hangs
    /// is then found, confirmed and quarantined (four timeouts at the
    /// default `--max-repeats`) within the limit, not cut off by it.
    /// The call timeout in whole seconds (at least 1), for the generated
    /// test of a hang to wait as long.
    pub fn hang_seconds(&self) -> Option<u64> {
        self.call_timeout.map(|timeout| (timeout.as_secs_f64().ceil() as u64).max(1))
    }

    pub fn timed(&self, time_limit: Option<Duration>) -> RunOptions {
        let call_timeout = match (self.call_timeout, time_limit) {
            (Some(timeout), Some(limit)) if !self.call_timeout_given => Some(timeout.min(limit / 10)),
            (timeout, _) => timeout,
        };
        RunOptions { time_limit, call_timeout, ..self.clone() }
    }
}

/// How a run ended, and what it found.
pub struct Finished<F> {
    /// Every committed event, folded.
    pub fold: F,
    /// Why the run stopped before the engine said so, if it did.
    pub stopped: Option<Stop>,
    /// What may cut the writing of its files short.
    pub budget: Budget<'static>,
    /// A problem that ended the run (a smallscope bug, a worker that keeps dying).
    pub trouble: Option<String>,
    pub restarts: u32,
    /// The worker's peak memory (in process: this process's).
    pub peak_memory: Option<u64>,
    /// This process's own peak, when the run had workers: it holds what
    /// the run found.
    pub supervisor_peak_memory: Option<u64>,
    /// The memory limit the run was held to, if any.
    pub memory_limit: Option<u64>,
    /// Seconds since this invocation began, up to the run's end: hangs,
    /// restarts and builders identification included.
    pub wall_seconds: f64,
    pub staging: Staging,
    /// A death the run stopped before it could confirm and report, described.
    pub unreported: Option<String>,
}

/// The command line that names this run, for `--resume` to check: each
/// option given, in the order the command defines them (so that the order
/// they are typed in does not matter), `--out` as a plain path, and
/// without those that do not change what the run finds (so that a run can
/// be resumed with more memory, another timeout or thread count).
fn identity() -> Vec<String> {
    const FREE: [&str; 7] =
        ["memory_limit_mb", "call_timeout", "threads", "workers", "format", "no_isolation", "resume"];
    let command = crate::command();
    let Ok(matches) = command.clone().try_get_matches_from(std::env::args_os()) else {
        return std::env::args().skip(1).collect();
    };
    let mut kept = Vec::new();
    // The options of `command`, not its groups (a flattened struct is one).
    let given = |command: &clap::Command, matches: &clap::ArgMatches, kept: &mut Vec<String>| {
        for id in command.get_arguments().map(|a| a.get_id().as_str()).filter(|id| !FREE.contains(id)) {
            if matches.value_source(id) != Some(clap::parser::ValueSource::CommandLine) {
                continue;
            }
            let values: Vec<String> = match matches.get_raw(id) {
                Some(values) => values.map(|v| v.to_string_lossy().into_owned()).collect(),
                None => Vec::new(),
            };
            let values = match id {
                "out" => values.iter().map(|v| plain_path(v)).collect(),
                _ => values,
            };
            kept.push(format!("{id}={}", values.join("\u{1f}")));
        }
    };
    given(&command, &matches, &mut kept);
    if let Some((name, sub)) = matches.subcommand() {
        kept.push(name.to_owned());
        if let Some(subcommand) = command.find_subcommand(name) {
            given(subcommand, sub, &mut kept);
        }
    }
    kept
}

/// `path` without `.` parts and repeated separators: `./D/` is `D`.
fn plain_path(path: &str) -> String {
    let plain: std::path::PathBuf =
        std::path::Path::new(path).components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect();
    plain.to_string_lossy().into_owned()
}

/// Runs `order` and returns its folded events once it stops.
pub fn run<O: Order>(order: &O, options: &RunOptions) -> anyhow::Result<Finished<O::Fold>> {
    run_observed(order, options, &mut ())
}

/// [`run`], with `observer` hearing every commit too and able to stop the
/// run (as a field coverage criterion does).
pub fn run_observed<O: Order>(
    order: &O,
    options: &RunOptions,
    observer: &mut dyn Observer,
) -> anyhow::Result<Finished<O::Fold>> {
    let job: Arc<dyn Job<Fold = O::Fold>> = order.job().map_err(BadInput::from)?;
    run_job(order, job, options, observer)
}

/// [`run_observed`] with the job made already (a cluster's process 0
/// joins what arrives instead of running the order's engine). `order` is
/// still what the staging folder keeps and workers read.
pub fn run_job<O: Order>(
    order: &O,
    job: Arc<dyn Job<Fold = O::Fold>>,
    options: &RunOptions,
    observer: &mut dyn Observer,
) -> anyhow::Result<Finished<O::Fold>> {
    let started = Instant::now();
    let mut staging = Staging::open(options.out.as_deref(), options.resume, &identity())?;
    // Workers read the run from the staging folder, not from a command line.
    staging.write_order(&order.clone().into())?;
    if let (false, Some(bytes)) = (options.isolation, options.memory_limit) {
        // In process, the limit is this process's: passing it ends the run.
        crate::alloc::limit_resident(bytes)?;
    }
    let interrupts = Interrupts::install()?;
    let writing_deadline = options.time_limit.map(|limit| started + limit + WRITING_GRACE);
    let console = Console::new();
    let mut supervisor = Supervisor::<O::Fold>::new(options.call_timeout);
    supervisor.max_repeats = options.max_repeats;
    // A worker reads the journal from the staging folder.
    supervisor.journal = (!options.isolation).then(Vec::new);
    if let Some((fold, journal)) = staging.load::<O::Fold>()? {
        console.line(&format!("resuming the run kept in {}", staging.dir().display()));
        supervisor.fold = fold;
        supervisor.journal = supervisor.journal.map(|_| journal);
        supervisor.committed = true;
    }
    let dir = staging.dir().to_owned();
    if staging.finished()? {
        // The engine was done: only the files are left to write, whole
        // (what `--resume` is for after a time limit cut them).
        return Ok(Finished {
            fold: supervisor.fold,
            stopped: None,
            budget: Budget::new(interrupts, None),
            trouble: None,
            restarts: 0,
            peak_memory: None,
            supervisor_peak_memory: None,
            memory_limit: None,
            wall_seconds: started.elapsed().as_secs_f64(),
            staging,
            unreported: None,
        });
    }
    let mut keeper = Keeper::new(&mut staging);
    let mut progress = Progress::new(console.clone(), options.isolation);
    // In process, the allocator holds the whole process to the limit.
    let own_memory_limit = options.memory_limit.filter(|_| options.isolation);
    let mut guard = Guard::new(console.clone(), interrupts, options.time_limit, own_memory_limit);
    let worker_peak = Arc::new(AtomicU64::new(0));
    let mut launch = |s: &Supervisor<O::Fold>| -> Result<Box<dyn Attempt>, RunError> {
        if options.isolation {
            let attempt = ProcessAttempt::start(
                &dir,
                options.memory_limit,
                &s.killed,
                options.structures,
                &console,
                worker_peak.clone(),
            )?;
            Ok(Box::new(attempt))
        } else {
            thread_attempt(job.clone(), s)
        }
    };
    // The commit is kept before anyone else hears of it, and a failed
    // write stops the run before a signal or a limit would.
    let result = supervisor.run(&mut launch, &mut Observers(vec![&mut keeper, &mut guard, &mut progress, observer]));
    console.finish();
    let staging_error = keeper.error.take();
    let (stopped, trouble) = match result {
        Ok(Ending::Finished) => (None, None),
        Ok(Ending::Abandoned) => (Some(Stop::Interrupted), None),
        Ok(Ending::Stopped(stop)) => (Some(stop), None),
        Err(RunError::Config(error)) => return Err(BadInput(error.to_string()).into()),
        Err(error) => (Some(Stop::Interrupted), Some(error.to_string())),
    };
    let trouble = trouble.or(staging_error.map(|e| format!("writing the run's files: {e:#}")));
    let peak_memory = match options.isolation {
        true => Some(worker_peak.load(Ordering::Relaxed)).filter(|&bytes| bytes > 0),
        false => crate::memory::peak_memory_bytes(),
    };
    let restarts = supervisor.restarts();
    let unreported = supervisor.unreported().map(|killed| {
        let own_api = killed.address.run & smallscope::runner::OTHER_API_RUNS == 0;
        killed.unreported_message(supervisor.fold.operation_name(killed.op).filter(|_| own_api))
    });
    Ok(Finished {
        fold: supervisor.fold,
        stopped,
        budget: Budget::new(interrupts, writing_deadline),
        trouble,
        restarts,
        peak_memory,
        supervisor_peak_memory: crate::memory::peak_memory_bytes().filter(|_| options.isolation),
        memory_limit: options.memory_limit,
        wall_seconds: started.elapsed().as_secs_f64(),
        staging,
        unreported,
    })
}

impl<F> Finished<F> {
    /// Why the run stopped: what the engine said, or why it was stopped
    /// from outside before it could.
    pub fn stop(&self, engine: Option<Stop>) -> Stop {
        match (engine, self.stopped) {
            // A limit passed outside the engine (the wall clock, the
            // supervisor's memory): the engine was only told to stop.
            (Some(Stop::Interrupted), Some(outside @ (Stop::TimeLimit | Stop::MemoryLimit))) => outside,
            (Some(stop), _) => stop,
            (None, Some(outside)) => outside,
            (None, None) => Stop::Interrupted,
        }
    }

    /// The facts every summary holds; `replay` repeats the run.
    pub fn facts(&self, run: String, stop: Stop, replay: String) -> RunFacts {
        let mut facts = RunFacts::new(run, stop, self.restarts, self.peak_memory, replay);
        // A run stopped by its memory limit is kept too, to be resumed with
        // a larger one; the same command would only stop again.
        if stop == Stop::Interrupted {
            facts.resume = self.resume_command();
        }
        facts.unreported = self.unreported.clone();
        facts.supervisor_peak_memory_bytes = self.supervisor_peak_memory;
        facts.memory_limit_bytes = self.memory_limit;
        facts.wall_seconds = Some(self.wall_seconds);
        facts
    }

    /// The command that carries this run on, when it kept its state in `--out`.
    fn resume_command(&self) -> Option<String> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        if !args.iter().any(|a| a == "--out" || a.starts_with("--out=")) {
            return None;
        }
        // Under `cargo smallscope` the test files are implied: it passes them again.
        let implied = crate::test_files::implied_by_front_end;
        let mut words = vec![crate::program()];
        words.extend(args.iter().filter(|a| *a != "--resume" && !implied(a)).map(|a| shell_word(a)));
        words.push("--resume".into());
        Some(words.join(" "))
    }

    /// Writes the run's files into `--out` (with `events.ndjson` and
    /// `summary.json`) within the run's budget, and closes the staging
    /// folder: gone when the run is over and its files whole, kept when it
    /// can be resumed or its files were cut short. Returns the summary as
    /// written.
    pub fn write<S: Summary>(
        &mut self,
        args: &RunArgs,
        mut files: Vec<OutputFile<'_>>,
        mut summary: S,
    ) -> anyhow::Result<S> {
        let stop = summary.facts().stop;
        let mut partial = Vec::new();
        if let Some(out) = &args.out {
            let (events, len) = self.staging.events();
            files.push(OutputFile::written("events.ndjson", events, len));
            if files.iter().any(|f| f.name == "structures.jsonl") {
                crate::progress::say(&format!("writing the files into {}", out.display()));
            }
            let resume = self.resume_command();
            partial = write_outputs(out, files, &self.budget, |written, partial| {
                let facts = summary.facts();
                facts.files = written;
                facts.partial = partial.to_vec();
                if !partial.is_empty() {
                    facts.resume = resume;
                }
                Ok((serde_json::to_string_pretty(&summary)? + "\n").into_bytes())
            })?;
        }
        let keep = resumable(stop) || self.trouble.is_some() || !partial.is_empty();
        self.staging.close(!keep)?;
        Ok(summary)
    }

    /// The signal that stopped the run (or its writing), if one did.
    pub fn signal(&self) -> Option<i32> {
        self.budget.signal()
    }

    /// Writes files outside `--out` (tests) with `write`, unless the budget
    /// is spent; then says which were left out.
    pub fn write_more(&self, what: &str, write: impl FnOnce() -> anyhow::Result<()>) -> anyhow::Result<()> {
        match self.budget.cut() {
            Some(why) => {
                crate::progress::say(&format!("{what} not written: {why} came first"));
                Ok(())
            }
            None => write(),
        }
    }

    /// How the run ends: a fault when it could not go on, the signal that
    /// stopped it, else findings when it found failures (or stopped on one
    /// before it could report it).
    pub fn exit(&self, failures: bool) -> Exit {
        if let Some(trouble) = &self.trouble {
            crate::progress::say(&format!("error: {trouble}"));
            return Exit::Fault;
        }
        match self.budget.signal() {
            Some(signal) => Exit::Signal(signal),
            None => Exit::found(failures || self.unreported.is_some()),
        }
    }
}

/// Observers in turn: each hears everything; the first control that is
/// not `Continue` is the run's.
struct Observers<'a>(Vec<&'a mut dyn Observer>);

impl Observer for Observers<'_> {
    fn batch(&mut self, batch: &Batch) {
        self.0.iter_mut().for_each(|observer| observer.batch(batch));
    }
    fn killed(&mut self, killed: &Killed) {
        self.0.iter_mut().for_each(|observer| observer.killed(killed));
    }
    fn poll(&mut self) -> Control {
        let mut controls = self.0.iter_mut().map(|observer| observer.poll());
        controls.find(|control| *control != Control::Continue).unwrap_or(Control::Continue)
    }
}

/// Whether a run that stopped this way can be carried on.
fn resumable(stop: Stop) -> bool {
    matches!(stop, Stop::Interrupted | Stop::MemoryLimit)
}

/// `word`, quoted for a shell when it needs it.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Ends a text summary with the commands that repeat and resume the run.
pub fn finish_text(text: &mut String, facts: &RunFacts, seed: Option<u64>) {
    match seed {
        Some(seed) => text.push_str(&format!("\nseed {seed}; replay: {}", facts.replay)),
        None => text.push_str(&format!("\nreplay: {}", facts.replay)),
    }
    if let (Some(seconds), restarts @ 1..) = (facts.wall_seconds, facts.restarts) {
        text.push_str(&format!(
            "\nnote: {seconds:.1} s in all: the worker was restarted {restarts} time{} (after each hang, a call \
             timeout), which the engine's seconds leave out",
            if restarts == 1 { "" } else { "s" }
        ));
    }
    if let Some(unreported) = &facts.unreported {
        text.push_str(&format!("\nnote: {unreported}"));
    }
    for file in &facts.partial {
        text.push_str(&format!("\nnote: {}", file.describe()));
    }
    if let Some(resume) = &facts.resume {
        text.push_str(&format!("\nresume: {resume}"));
    }
}
