//! The smallscope command line's arguments: clap definitions, shared
//! flags, and their defaults.
//!
//! `smallscope-cli` parses and runs them; `cargo smallscope` checks a
//! user's options against them, and turns settings into flags, before it
//! builds the harness. This crate depends on clap alone, so that front end
//! installs without the engines.
//!
//! Where an option's default is the engine's (`--max-repeats`, a
//! criterion's name), it is written here again, and `smallscope-cli`'s tests
//! check that the two agree.

pub mod beapi;
#[cfg(feature = "bench")]
pub mod bench;
pub mod bounds;
pub mod builders;
pub mod cluster;
pub mod compare;
mod exit;
pub mod korat;
pub mod random;
pub mod suite;
pub mod test_files;

pub use exit::Exit;

use clap::{Parser, Subcommand};

/// Bounded-exhaustive test inputs for Rust heap structures.
#[derive(Parser)]
// `about` is the `smallscope` binary's package description (smallscope-cli's), not this crate's.
#[command(name = "smallscope", version, about = "The smallscope command-line tool", long_about = None)]
pub struct Cli {
    /// A call into the code under test that runs longer than this (`10s`,
    /// `500ms`; a plain number is seconds) is a `hang` failure: it is
    /// stopped, and the run goes on.
    /// [default: 10s, or a tenth of --time-limit when that is shorter]
    #[arg(long, global = true, value_name = "DURATION", allow_negative_numbers = true)]
    pub call_timeout: Option<String>,
    /// After this many confirmed crashes, hangs or memory runaways of one
    /// kind in one operation, that operation is quarantined: not called for
    /// the rest of the run (Korat's search ends there), with a note.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_REPEATS,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_repeats: u32,
    /// Run the engine in this process instead of a supervised worker: a hang
    /// is still survived, but a stack overflow, an abort or a runaway
    /// allocation in the code under test ends the run.
    #[arg(long, global = true)]
    pub no_isolation: bool,
    #[command(flatten)]
    pub cluster: cluster::ClusterArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Names the registered subjects and the engines that can run them.
    List(ListArgs),
    /// Bounded-exhaustive generation from the subject's API (BEAPI).
    Beapi(Box<beapi::BeapiArgs>),
    /// Bounded-exhaustive generation from an invariant (Korat, Korat+).
    Korat(korat::KoratArgs),
    /// Directed random testing: random call sequences, checked by contracts (Randoop).
    Random(Box<random::RandomArgs>),
    /// Branch-directed generation: random, then changes to the sequences that reached each branch
    /// left half-taken, guided by what its comparison compared (in a harness built with coverage:
    /// `cargo smallscope branch`).
    Branch(Box<random::RandomArgs>),
    /// Compares the structures the API builds with those an invariant admits (BEAPI vs Korat).
    Compare(compare::CompareArgs),
    /// Identifies builders (hill climbing or a genetic algorithm) and observers, cached for `--builders auto`.
    Builders(Box<builders::BuildersArgs>),
    /// A field coverage suite: the structures that add field values, field-exhaustive or transcoped.
    Suite(Box<suite::SuiteArgs>),
    /// Prints benchmark tables.
    #[cfg(feature = "bench")]
    Bench(bench::BenchArgs),
}

#[derive(clap::Args)]
pub struct ListArgs {
    /// Also show each subject's Rust type and operations.
    #[arg(long)]
    pub verbose: bool,
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

/// Where identified builders are cached unless a command is told otherwise.
pub const DEFAULT_CACHE_DIR: &str = ".smallscope/cache";

/// Where identified builders are cached, for the commands that identify them.
#[derive(clap::Args, Debug, Clone)]
pub struct CacheArgs {
    /// Where identified builders are cached (`--builders auto` reads them there).
    #[arg(long, value_name = "DIR", default_value = DEFAULT_CACHE_DIR)]
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

/// What the arguments of every command that runs one engine hold.
pub trait EngineArgs {
    /// The registered name to run.
    fn subject(&self) -> &str;
    fn run(&self) -> &RunArgs;
    fn format(&self) -> Format;
}

macro_rules! engine_args {
    ($($args:ty),*) => {$(
        impl EngineArgs for $args {
            fn subject(&self) -> &str {
                &self.subject
            }
            fn run(&self) -> &RunArgs {
                &self.run
            }
            fn format(&self) -> Format {
                self.format
            }
        }
    )*};
}

engine_args!(beapi::BeapiArgs, builders::BuildersArgs, compare::CompareArgs, korat::KoratArgs, random::RandomArgs);

/// `--format`: how a run command prints its summary.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `--max-repeats`' default: the engine's `smallscope::runner::DEFAULT_MAX_REPEATS`.
pub const DEFAULT_MAX_REPEATS: u32 = 3;

/// The command line's definition: every command and option, for a front
/// end (`cargo smallscope`) that checks options, or turns settings into
/// them, before it builds the harness.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Set by a front end that runs this program for the user (`cargo
/// smallscope`): the command the user types instead, for the commands this
/// program prints. The front end chooses the output files itself, so the
/// printed commands leave them out.
pub const PROGRAM_VAR: &str = "SMALLSCOPE_PROGRAM";

/// Set by `cargo smallscope --coverage` for a harness built with coverage:
/// the folder of the crate under test, whose edges the run counts.
pub const COVERAGE_VAR: &str = "SMALLSCOPE_COVERAGE";

/// The environment variable that makes a process a worker: the staging folder.
pub const WORKER_DIR_VAR: &str = "SMALLSCOPE_WORKER_DIR";

/// A worker's memory limit in bytes, for the counting allocator.
pub const WORKER_MEMORY_LIMIT_VAR: &str = "SMALLSCOPE_WORKER_MEMORY_LIMIT";

/// Environment variables this program sets for itself (its workers) or a
/// front end sets for it: not settings.
pub const INTERNAL_VARIABLES: &[&str] = &[WORKER_DIR_VAR, WORKER_MEMORY_LIMIT_VAR, PROGRAM_VAR];
