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
//! smallscope branch <subject> [random's options]   (in a harness built with coverage)
//! smallscope compare <subject> --scope N [--invariant NAME] [options]
//! smallscope suite <subject> --engine korat|beapi --criterion fet|fbt-a|… --scope N [options]
//! smallscope bench beapi|korat|random|isolation
//! ```
//!
//! By default each run's engine works in a worker process: the same binary,
//! started again in worker mode (`SMALLSCOPE_WORKER_DIR` set) with no
//! arguments, its job handed over as data (a [`smallscope::order::JobOrder`]). The supervisor (this
//! process) owns the output files, the call timeout, the memory limit and
//! Ctrl-C; a worker that dies in the code under test is reported as a
//! failure and restarted past that input.
//!
//! Exit codes are [`Exit`]'s: 0 for a clean run, 1 when failures were found
//! (for `compare`: when the sets differ), 2 for bad input or a run that
//! could not go on, 130 and 143 when Ctrl-C or SIGTERM stopped it.
//!
//! The commands' arguments are `smallscope-args`' (clap alone, which `cargo
//! smallscope` checks options against); each `*_command` module here turns
//! its command's arguments into an engine run.

mod alloc;
mod beapi_command;
#[cfg(feature = "builtin-subjects")]
mod bench;
mod bench_child;
mod bounds;
#[cfg(feature = "builtin-subjects")]
mod builders_bench;
mod builders_command;
mod cluster;
#[cfg(feature = "builtin-subjects")]
mod cluster_bench;
mod compare_command;
mod engine_command;
mod guard;
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

pub use smallscope_args::{command, CacheArgs, PictureArgs, RunArgs, INTERNAL_VARIABLES, PROGRAM_VAR};
pub use summary::{BeapiSummary, BuildersSummary, CompareSummary, KoratSummary, RandomSummary, RunFacts, SuiteSummary};

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;
use smallscope_args::{Cli, Command, Exit, ListArgs};

use beapi_command::BeapiCommand;
use builders_command::BuildersCommand;
use compare_command::CompareCommand;
use korat_command::KoratCommand;
use random_command::RandomCommand;

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

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

/// The whole command line: parses the arguments, runs the command and
/// returns its exit code. In a worker process, runs the worker's part.
pub fn main() -> ExitCode {
    if let Some(crate_dir) = std::env::var_os(smallscope_args::COVERAGE_VAR) {
        // Before any code under test runs, in workers too.
        if let Err(error) = smallscope::edges::enable(std::path::Path::new(&crate_dir)) {
            let _ = writeln!(std::io::stderr(), "error: coverage: {error}");
            return Exit::Fault.into();
        }
    }
    if let Some(dir) = worker::worker_dir() {
        return worker::serve(&dir);
    }
    let cli = Cli::parse();
    let exit = match std::panic::catch_unwind(|| run(cli)) {
        Ok(Ok(exit)) => exit,
        Ok(Err(error)) => {
            let _ = writeln!(std::io::stderr(), "error: {error:#}");
            match error.is::<BadInput>() {
                true => Exit::BadInput,
                false => Exit::Fault,
            }
        }
        Err(_) => {
            let _ = writeln!(
                std::io::stderr(),
                "error: smallscope itself panicked (a bug: please report it with the command line)"
            );
            Exit::Fault
        }
    };
    exit.into()
}

/// The smallest `--memory-limit-mb`: a worker's code, stacks and buffers
/// take about this much before the code under test runs.
const MIN_MEMORY_LIMIT_MB: u64 = 32;

fn run(cli: Cli) -> anyhow::Result<Exit> {
    let options = |args: &RunArgs| -> Result<run::RunOptions, BadInput> {
        let call_timeout = match &cli.call_timeout {
            Some(timeout) => smallscope::parse_duration("--call-timeout", timeout)?,
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
            cluster: cluster::Cluster::from_args(&cli.cluster)?,
        })
    };
    match &cli.command {
        Command::List(args) => list(args).map(|()| Exit::Clean),
        Command::Beapi(args) => {
            let options =
                run::RunOptions { structures: args.run.out.is_some() || args.tests.any(), ..options(&args.run)? };
            engine(BeapiCommand::new(args)?, &options)
        }
        Command::Korat(args) => engine(KoratCommand::new(args)?, &options(&args.run)?),
        Command::Random(args) => engine(RandomCommand::new(args)?, &options(&args.run)?),
        Command::Branch(args) => engine(RandomCommand::branch(args)?, &options(&args.run)?),
        Command::Compare(args) => engine(CompareCommand::new(args)?, &options(&args.run)?),
        Command::Builders(args) => engine(BuildersCommand::new(args)?, &options(&args.run)?),
        Command::Suite(args) => {
            if cli.cluster.hostfile.is_some() {
                return Err(BadInput("`suite` has no cluster mode yet: run it without --hostfile".into()).into());
            }
            let run = RunArgs { out: None, resume: false, memory_limit_mb: args.memory_limit_mb };
            suite_command::run(args, &options(&run)?)
        }
        #[cfg(feature = "builtin-subjects")]
        Command::Bench(args) => bench::run(args).map(|()| Exit::Clean),
    }
}

/// Runs an engine's command on this process, or as this process's part of a cluster.
fn engine<C: engine_command::EngineCommand>(command: C, options: &run::RunOptions) -> anyhow::Result<Exit> {
    match &options.cluster {
        Some(cluster) => cluster::run(command, cluster, options),
        None => engine_command::run(command, options),
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
        // Branch-directed generation needs a harness built with coverage.
        if smallscope::edges::instrumented() {
            add(registration.name, "branch");
        }
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
    if let Some(edges) = smallscope::edges::count() {
        print(format_args!(
            "coverage: {} edges in the crate's code ({} instrumented)",
            edges.user, edges.instrumented
        ))?;
        if args.verbose {
            for (file, edges) in smallscope::edges::files() {
                print(format_args!("  {file}: {edges} edges"))?;
            }
        }
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

/// The defaults `smallscope-args` writes again, without the engine, are the engine's.
#[cfg(test)]
mod defaults_agree_with_the_engine {
    use clap::Parser as _;
    use smallscope_args::{Cli, Command};

    fn parse(args: &[&str]) -> Cli {
        Cli::try_parse_from(std::iter::once("smallscope").chain(args.iter().copied())).unwrap()
    }

    #[test]
    fn max_repeats() {
        assert_eq!(smallscope_args::DEFAULT_MAX_REPEATS, smallscope::runner::DEFAULT_MAX_REPEATS);
        assert_eq!(parse(&["list"]).max_repeats, smallscope::runner::DEFAULT_MAX_REPEATS);
    }

    #[test]
    fn criteria_are_named_as_the_engine_names_them() {
        let engine: Vec<&str> = smallscope::coverage::Criterion::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(smallscope_args::suite::CRITERIA.to_vec(), engine);
        for name in engine {
            let Command::Suite(args) =
                parse(&["suite", "bst", "--engine", "beapi", "--scope", "3", "--criterion", name]).command
            else {
                unreachable!("a suite command line")
            };
            assert_eq!(crate::suite_command::criterion(&args).name(), name);
        }
    }

    /// `compare --builder-scope` and `beapi` identify builders at the same scope by default.
    #[test]
    fn compare_builder_scope() {
        let Command::Compare(args) = parse(&["compare", "bst", "--scope", "3"]).command else {
            unreachable!("a compare command line")
        };
        assert_eq!(args.builder_scope, smallscope::BeapiConfig::default().builder_scope);
    }

    /// One spelling per kind of value, in every command: durations as
    /// `10s`, integer domains as `A..B`.
    #[test]
    fn every_command_spells_durations_and_integer_domains_alike() {
        let cli = smallscope_args::command();
        let mut seen = Vec::new();
        for command in std::iter::once(&cli).chain(cli.get_subcommands()) {
            for arg in command.get_arguments() {
                let expected = match arg.get_long() {
                    Some("time-limit" | "call-timeout") => "DURATION",
                    Some("ints") => "A..B",
                    _ => continue,
                };
                let names: Vec<&str> = arg.get_value_names().unwrap_or_default().iter().map(|n| n.as_str()).collect();
                assert_eq!(names, [expected], "{} --{}", command.get_name(), arg.get_long().unwrap());
                seen.push(format!("{} --{}", command.get_name(), arg.get_long().unwrap()));
            }
        }
        // Every engine has a time limit, and both integer options are there.
        for option in
            ["beapi --time-limit", "korat --time-limit", "random --time-limit", "random --ints", "beapi --ints"]
        {
            assert!(seen.iter().any(|s| s == option), "{option}: {seen:?}");
        }
        // Each reads the spellings its help gives, in every command.
        for text in ["10s", "1.5s", "500ms", "2m", "90"] {
            assert!(smallscope::parse_duration("--time-limit", text).is_ok(), "{text}");
        }
        assert_eq!(crate::random_command::seed_ints(&["0..3".into(), "100".into()]).unwrap(), [0, 1, 2, 100]);
    }

    /// The config file's keys are the options' names; the older spellings are read, with a note.
    #[test]
    fn config_file_keys_are_spelled_as_the_options() {
        let file = smallscope::beapi::ConfigFile::parse(
            "scope = 3\nlist-length = 1\ncollection-length = 2\nmisuse-panic = [\"x\"]\nbuilder-scope = 2\n\
             state-matching = true\nmax-length = 4\ntime-limit = \"1m\"\n",
        )
        .unwrap();
        assert!(file.old_spellings.is_empty());
        let options: Vec<String> = (smallscope_args::command().find_subcommand("beapi").unwrap().get_arguments())
            .filter_map(|a| a.get_long().map(str::to_owned))
            .collect();
        for key in ["list-length", "collection-length", "misuse-panic", "builder-scope", "max-length", "time-limit"] {
            assert!(options.iter().any(|o| o == key), "--{key}");
        }
        let mut config = smallscope::BeapiConfig::default();
        file.apply(&mut config).unwrap();
        assert_eq!((config.list_length, config.time_limit), (1, Some(std::time::Duration::from_secs(60))));
        let old = smallscope::beapi::ConfigFile::parse("list_length = 1\ntime_limit_seconds = 30\n").unwrap();
        let note = old.old_spellings_note().unwrap();
        assert!(note.contains("`list_length` as `list-length`") && note.contains("`time-limit`"), "{note}");
    }

    /// An option's help text: `arg` of `command` (`""` for the top level).
    fn help(command: &str, arg: &str) -> String {
        let cli = smallscope_args::command();
        let command = if command.is_empty() { &cli } else { cli.find_subcommand(command).unwrap() };
        let arg = command.get_arguments().find(|a| a.get_id() == arg).unwrap();
        arg.get_help().unwrap().to_string()
    }

    /// The defaults the help texts give are the engine's.
    #[test]
    fn defaults_in_the_help() {
        let call_timeout = smallscope::runner::DEFAULT_CALL_TIMEOUT.as_secs();
        assert!(help("", "call_timeout").contains(&format!("[default: {call_timeout}s, ")));
        let beapi = smallscope::BeapiConfig::default();
        assert!(help("beapi", "list_length").contains(&format!("(default {})", beapi.list_length)));
        let random = smallscope::random::RandomConfig::default();
        assert!(help("random", "list_length").contains(&format!("(default {})", random.list_length)));
        assert!(help("random", "other_scope").contains(&format!("(default {})", random.other_scope)));
    }
}
