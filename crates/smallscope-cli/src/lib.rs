//! The smallscope command line, as a library call.
//!
//! [`main`] is the whole command line. The `smallscope` binary is that call
//! with the built-in subjects linked in; any crate can make its own binary
//! the same way, with its own subjects:
//!
//! ```no_run
//! // src/bin/smallscope.rs of a crate whose subjects carry #[smallscope::api]
//! fn main() -> std::process::ExitCode {
//!     // my_crate::link(); // a call into the crate, so its registrations are linked
//!     smallscope_cli::main()
//! }
//! ```
//!
//! ```text
//! smallscope list [--verbose]
//! smallscope beapi <subject> --scope N [options]
//! smallscope korat <subject> --scope N [--threads T] [options]
//! smallscope random <subject> (--time-limit 10s | --sequences N) --seed S [options]
//! smallscope compare <subject> --scope N [--invariant NAME] [options]
//! smallscope suite <subject> --engine korat|beapi --criterion fet|fbt-a|… --scope N [options]
//! smallscope bench beapi|korat|random|isolation
//! ```
//!
//! By default each run's engine works in a worker process: the same binary,
//! started again in worker mode (`SMALLSCOPE_WORKER_DIR` set). The supervisor (this
//! process) owns the output files, the call timeout, the memory limit and
//! Ctrl-C; a worker that dies in the code under test is reported as a
//! failure and restarted past that input.
//!
//! Exit codes: 0 for a clean run, 1 when failures were found (for
//! `compare`: when the sets differ), 2 for bad input or a run that could not
//! go on, 130 and 143 when Ctrl-C or SIGTERM stopped it.

mod alloc;
mod beapi_command;
#[cfg(feature = "builtin-subjects")]
mod bench;
mod bounds;
#[cfg(feature = "builtin-subjects")]
mod builders_bench;
mod builders_command;
mod compare_command;
mod korat_command;
mod memory;
mod process;
mod progress;
mod random_command;
mod report;
mod run;
mod signals;
mod staging;
#[cfg(feature = "builtin-subjects")]
mod suite_bench;
mod suite_command;
#[cfg(feature = "builtin-subjects")]
mod suite_quality;
mod summary;
mod test_files;
mod worker;
mod writing;

pub use summary::{BeapiSummary, BuildersSummary, CompareSummary, KoratSummary, RandomSummary, RunFacts, SuiteSummary};

use std::io::Write as _;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

/// Bounded-exhaustive test inputs for Rust heap structures.
#[derive(Parser)]
#[command(name = "smallscope", version, about, long_about = None)]
struct Cli {
    /// A call into the code under test that runs longer than this many
    /// seconds is a `hang` failure: it is stopped, and the run goes on.
    /// [default: 10, or a tenth of --time-limit when that is shorter]
    #[arg(long, global = true, value_name = "SECONDS", allow_negative_numbers = true)]
    call_timeout: Option<f64>,
    /// After this many confirmed crashes, hangs or memory runaways of one
    /// kind in one operation, that operation is quarantined: not called for
    /// the rest of the run (Korat's search ends there), with a note.
    #[arg(long, global = true, value_name = "N", default_value_t = smallscope::runner::DEFAULT_MAX_REPEATS,
          value_parser = clap::value_parser!(u32).range(1..))]
    max_repeats: u32,
    /// Run the engine in this process instead of a supervised worker: a hang
    /// is still survived, but a stack overflow, an abort or a runaway
    /// allocation in the code under test ends the run.
    #[arg(long, global = true)]
    no_isolation: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Names the registered subjects and the engines that can run them.
    List(ListArgs),
    /// Bounded-exhaustive generation from the subject's API (BEAPI).
    Beapi(Box<beapi_command::BeapiArgs>),
    /// Bounded-exhaustive generation from an invariant (Korat, Korat+).
    Korat(korat_command::KoratArgs),
    /// Directed random testing: random call sequences, checked by contracts (Randoop).
    Random(Box<random_command::RandomArgs>),
    /// Compares the structures the API builds with those an invariant admits (BEAPI vs Korat).
    Compare(compare_command::CompareArgs),
    /// Identifies builders (hill climbing or a genetic algorithm) and observers, cached for `--builders auto`.
    Builders(Box<builders_command::BuildersArgs>),
    /// A field coverage suite: the structures that add field values, field-exhaustive or transcoped.
    Suite(Box<suite_command::SuiteArgs>),
    /// Prints benchmark tables.
    #[cfg(feature = "builtin-subjects")]
    Bench(bench::BenchArgs),
}

#[derive(clap::Args)]
struct ListArgs {
    /// Also show each subject's Rust type and operations.
    #[arg(long)]
    verbose: bool,
}

/// Options every run command takes.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// Write the run's files into DIR (see the command's help); a long run
    /// also keeps what it committed there, to be resumed.
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
    /// Carry on the run kept in --out DIR, interrupted or killed before it
    /// finished; its results equal an uninterrupted run's.
    #[arg(long)]
    pub resume: bool,
    /// Stop the code under test when the worker's memory passes this many
    /// MiB: an `out-of-memory` failure (and the end of the run when the
    /// memory grew over many calls). Default: half the machine's memory (or
    /// the container's), and at most a quarter of what `ulimit -v` allows.
    #[arg(long, value_name = "MIB")]
    pub memory_limit_mb: Option<u64>,
}

/// How many structures `report.html` draws, for the commands that keep structures.
#[derive(clap::Args, Debug, Clone)]
pub struct PictureArgs {
    /// With --out, draw the first N structures in report.html.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub pictures: u32,
}

impl PictureArgs {
    /// Pictures to draw: none without `--out`, which has no report.
    pub fn drawn(&self, run: &RunArgs) -> u32 {
        if run.out.is_some() {
            self.pictures
        } else {
            0
        }
    }
}

/// Where identified builders are cached, for the commands that identify them.
#[derive(clap::Args, Debug, Clone)]
pub struct CacheArgs {
    /// Where identified builders are cached (`--builders auto` reads them there).
    #[arg(long, value_name = "DIR", default_value = ".smallscope/cache")]
    pub cache_dir: std::path::PathBuf,
    /// Identify builders afresh, neither reading nor writing the cache.
    #[arg(long)]
    pub no_cache: bool,
}

impl CacheArgs {
    /// The cache folder, unless the cache is off.
    pub fn dir(&self) -> Option<std::path::PathBuf> {
        (!self.no_cache).then(|| self.cache_dir.clone())
    }
}

/// Bad input: reported in one line, exit code 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

impl From<smallscope::ConfigError> for BadInput {
    fn from(e: smallscope::ConfigError) -> Self {
        BadInput(e.to_string())
    }
}

/// Writes to standard output. A closed or full one (`| head`, `> /dev/full`)
/// is passed over quietly: the run goes on to its end and its exit status
/// still tells what it found.
pub(crate) fn print(text: impl std::fmt::Display) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    Ok(())
}

/// The command line's definition: every command and option, for a front
/// end (`cargo smallscope`) that checks options, or turns settings into
/// them, before it builds the harness.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Environment variables this program sets for itself (its workers) or a
/// front end sets for it: not settings.
pub const INTERNAL_VARIABLES: &[&str] = &[worker::WORKER_DIR, worker::MEMORY_LIMIT, PROGRAM_VAR];

/// The whole command line: parses the arguments, runs the command and
/// returns its exit code. In a worker process, runs the worker's part.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(dir) = worker::worker_dir() {
        return serve(&dir, &cli);
    }
    match std::panic::catch_unwind(|| run(cli)) {
        Ok(Ok(code)) => code,
        Ok(Err(error)) => {
            let _ = writeln!(std::io::stderr(), "error: {error:#}");
            ExitCode::from(2)
        }
        Err(_) => {
            let _ = writeln!(
                std::io::stderr(),
                "error: smallscope itself panicked (a bug: please report it with the command line)"
            );
            ExitCode::from(2)
        }
    }
}

/// Worker mode: the engine of the command, on the staging folder `dir`.
fn serve(dir: &std::path::Path, cli: &Cli) -> ExitCode {
    let served = match &cli.command {
        Command::Beapi(args) => args.job().map(|job| worker::serve(dir, job)),
        Command::Korat(args) => args.job().map(|job| worker::serve(dir, job)),
        Command::Random(args) => args.job().map(|job| worker::serve(dir, job)),
        Command::Compare(args) => args.job().map(|job| worker::serve(dir, job)),
        Command::Builders(args) => args.job().map(|job| worker::serve(dir, job)),
        #[cfg(feature = "builtin-subjects")]
        Command::Bench(_) => Err(BadInput("this command has no worker".into())),
        // A suite's workers run `korat` or `beapi` commands.
        Command::List(_) | Command::Suite(_) => Err(BadInput("this command has no worker".into())),
    };
    served.unwrap_or_else(|error| {
        eprintln!("error: {error}");
        ExitCode::from(2)
    })
}

/// The smallest `--memory-limit-mb`: a worker's code, stacks and buffers
/// take about this much before the code under test runs.
const MIN_MEMORY_LIMIT_MB: u64 = 32;

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let options = |args: &RunArgs| -> Result<run::RunOptions, BadInput> {
        let call_timeout = match cli.call_timeout {
            Some(seconds) => smallscope::positive_seconds("--call-timeout", seconds)?,
            None => smallscope::runner::DEFAULT_CALL_TIMEOUT,
        };
        let memory_limit = match args.memory_limit_mb {
            Some(mb) if mb < MIN_MEMORY_LIMIT_MB => {
                return Err(BadInput(format!(
                    "--memory-limit-mb {mb} is too small: a worker needs {MIN_MEMORY_LIMIT_MB} MiB to start"
                )))
            }
            Some(mb) => {
                let bytes =
                    mb.checked_mul(1 << 20).ok_or_else(|| BadInput(format!("--memory-limit-mb {mb} is too large")))?;
                match memory::address_space_cap() {
                    Some(cap) if cap < bytes => {
                        eprintln!(
                            "note: --memory-limit-mb {mb} is more than the address space each process may have \
                             (ulimit -v) leaves room for: the limit is {} MiB",
                            cap >> 20
                        );
                        Some(cap)
                    }
                    _ => Some(bytes),
                }
            }
            None if cli.no_isolation => None,
            None => memory::default_limit_bytes(),
        };
        Ok(run::RunOptions {
            isolation: !cli.no_isolation,
            call_timeout: Some(call_timeout),
            call_timeout_given: cli.call_timeout.is_some(),
            max_repeats: cli.max_repeats,
            memory_limit,
            out: args.out.clone(),
            resume: args.resume,
            structures: args.out.is_some(),
            time_limit: None,
            worker_args: None,
        })
    };
    match &cli.command {
        Command::List(args) => list(args).map(|()| ExitCode::SUCCESS),
        Command::Beapi(args) => {
            let options =
                run::RunOptions { structures: args.run.out.is_some() || args.tests.any(), ..options(&args.run)? };
            beapi_command::run(args, &options)
        }
        Command::Korat(args) => korat_command::run(args, &options(&args.run)?),
        Command::Random(args) => random_command::run(args, &options(&args.run)?),
        Command::Compare(args) => compare_command::run(args, &options(&args.run)?),
        Command::Builders(args) => builders_command::run(args, &options(&args.run)?),
        Command::Suite(args) => {
            let run = RunArgs { out: None, resume: false, memory_limit_mb: args.memory_limit_mb };
            suite_command::run(args, &options(&run)?)
        }
        #[cfg(feature = "builtin-subjects")]
        Command::Bench(args) => bench::run(args).map(|()| ExitCode::SUCCESS),
    }
}

/// One line per subject: its name, then the engines that can run it.
fn list(args: &ListArgs) -> anyhow::Result<()> {
    let mut names: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut add = |name: &'static str, engine: &'static str| match names.iter_mut().find(|(n, _)| *n == name) {
        Some((_, engines)) => engines.push(engine),
        None => names.push((name, vec![engine])),
    };
    for registration in smallscope::api::registered_subjects() {
        add(registration.name, "beapi");
        add(registration.name, "random");
    }
    for registration in smallscope::korat::registered_korat_subjects() {
        add(registration.name, "korat");
    }
    for registration in smallscope::compare::registered_comparisons() {
        add(registration.name, "compare");
    }
    // `suite` runs either engine that makes structures.
    for (_, engines) in &mut names {
        if engines.iter().any(|e| *e == "beapi" || *e == "korat") {
            engines.push("suite");
        }
    }
    names.sort();
    if names.is_empty() {
        eprintln!("{NOTHING_LINKED}");
    }
    for (name, engines) in names {
        print(format_args!("{name:<28} {}", engines.join(", ")))?;
        if args.verbose {
            if let Some(registration) = smallscope::api::find_subject(name) {
                let subject = registration.subject();
                let ops: Vec<String> = subject.operations().into_iter().map(|op| op.name).collect();
                print(format_args!("{:<28} type {}; operations: {}", "", subject.type_name(), ops.join(", ")))?;
            }
        }
    }
    Ok(())
}

/// The registered subject called `name`, or an error listing the known ones.
pub(crate) fn find_subject(name: &str) -> Result<&'static smallscope::api::Registration, BadInput> {
    smallscope::api::find_subject(name).ok_or_else(|| {
        let known: Vec<&str> = smallscope::api::registered_subjects().iter().map(|r| r.name).collect();
        unknown("subject", name, &known)
    })
}

/// Why nothing is registered, when nothing is: the likely mistake.
const NOTHING_LINKED: &str = "no subjects are linked into this binary: a harness's `main` must call into the crate \
                              that registers them (e.g. `my_crate::link()`) before `smallscope_cli::main()`";

/// An unknown `what` called `name`, with the `known` ones.
pub(crate) fn unknown(what: &str, name: &str, known: &[&str]) -> BadInput {
    match known.is_empty() {
        true => BadInput(format!("unknown {what} `{name}`: {NOTHING_LINKED}")),
        false => BadInput(format!("unknown {what} `{name}`; known {what}s: {}", known.join(", "))),
    }
}

/// Whether a front end chooses the output files (see [`PROGRAM_VAR`]).
pub(crate) fn files_implied() -> bool {
    std::env::var_os(PROGRAM_VAR).is_some_and(|p| !p.is_empty())
}

/// Set by a front end that runs this program for the user (`cargo
/// smallscope`): the command the user types instead, for the commands this
/// program prints. The front end chooses the output files itself, so the
/// printed commands leave them out.
pub const PROGRAM_VAR: &str = "SMALLSCOPE_PROGRAM";

/// The name this program was started as, for the commands it prints.
pub(crate) fn program() -> String {
    if let Some(program) = std::env::var(PROGRAM_VAR).ok().filter(|p| !p.is_empty()) {
        return program;
    }
    std::env::args_os()
        .next()
        .map(std::path::PathBuf::from)
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "smallscope".into())
}
