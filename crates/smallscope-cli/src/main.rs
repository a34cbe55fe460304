//! `smallscope`: generate every small structure of a type through its API.
//!
//! ```text
//! smallscope list
//! smallscope beapi <subject> --scope N [--ints A..B] [--config FILE] [--builders auto|all|m1,m2] [--format text|json]
//! smallscope random <subject> (--time-limit 10s | --sequences N) --seed S [--out DIR] [--format text|json]
//! smallscope compare <subject> --scope N [--invariant NAME] [--format text|json] [--out DIR]
//! smallscope bench beapi [--limit SECONDS]
//! ```
//!
//! Exit codes: 0 for a clean run, 1 when failures were found (for `compare`:
//! when the sets differ), 2 for bad input.

mod beapi_command;
mod bench;
mod compare_command;
mod korat_command;
mod memory;
mod partial;
mod progress;
mod random_command;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Bounded-exhaustive test inputs for Rust heap structures.
#[derive(Parser)]
#[command(name = "smallscope", version, about, long_about = None)]
struct Cli {
    /// Stop with an error when one call into the subject's code runs longer
    /// than this many seconds (an infinite loop); 0 disables the check.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 60.0)]
    call_timeout: f64,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Names the registered subjects.
    List(ListArgs),
    /// Bounded-exhaustive generation from the subject's API (BEAPI).
    Beapi(Box<beapi_command::BeapiArgs>),
    /// Bounded-exhaustive generation from an invariant (Korat, Korat+).
    Korat(korat_command::KoratArgs),
    /// Directed random testing: random call sequences, checked by contracts (Randoop).
    Random(Box<random_command::RandomArgs>),
    /// Compares the structures the API builds with those an invariant admits (BEAPI vs Korat).
    Compare(compare_command::CompareArgs),
    /// Prints benchmark tables.
    Bench(bench::BenchArgs),
}

#[derive(clap::Args)]
struct ListArgs {
    /// Also show each subject's Rust type and operations.
    #[arg(long)]
    verbose: bool,
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

fn main() -> ExitCode {
    smallscope_subjects::ensure_linked();
    let cli = Cli::parse();
    if cli.call_timeout > 0.0 && cli.call_timeout.is_finite() {
        watch_calls(std::time::Duration::from_secs_f64(cli.call_timeout));
    }
    // User code runs on a thread with a large stack: deep recursion in a
    // subject (a recursive drop of a long list) should not end the run.
    let worker = std::thread::Builder::new()
        .name("smallscope".into())
        .stack_size(256 << 20)
        .spawn(move || run(cli))
        .expect("spawning the worker thread");
    worker.join().unwrap_or_else(|_| {
        eprintln!("error: smallscope itself panicked (a bug: please report it with the command line)");
        ExitCode::from(2)
    })
}

/// Exits with a clear error if one call into user code does not return in time.
fn watch_calls(timeout: std::time::Duration) {
    let tick = std::time::Duration::from_millis(250).min(timeout);
    std::thread::spawn(move || {
        let mut last = smallscope::api::call_watch().0;
        let mut stuck = std::time::Duration::ZERO;
        loop {
            std::thread::sleep(tick);
            let (started, in_call, operation) = smallscope::api::call_watch();
            if in_call && started == last {
                stuck += tick;
                if stuck >= timeout {
                    eprintln!(
                        "error: a call into the subject's code (operation `{operation}`, or the invariant checked \
                         after it) has not returned in {:.0} s: it may loop forever. Stopped; set --call-timeout \
                         to allow longer calls.",
                        timeout.as_secs_f64()
                    );
                    if let Some(found) = partial::report() {
                        eprintln!("{found}");
                    }
                    std::process::exit(2);
                }
            } else {
                stuck = std::time::Duration::ZERO;
                last = started;
            }
        }
    });
}

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::List(args) => list(&args).map(|()| ExitCode::SUCCESS),
        Command::Beapi(args) => beapi_command::run(&args),
        Command::Korat(args) => korat_command::run(&args),
        Command::Random(args) => random_command::run(&args),
        Command::Compare(args) => compare_command::run(&args),
        Command::Bench(args) => bench::run(&args).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
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
    names.sort();
    for (name, engines) in names {
        println!("{name:<28} {}", engines.join(", "));
        if args.verbose {
            if let Some(registration) = smallscope::api::find_subject(name) {
                let subject = registration.subject();
                let ops: Vec<&str> = subject.operations().iter().map(|op| op.name).collect();
                println!("{:<28} type {}; operations: {}", "", subject.type_name(), ops.join(", "));
            }
        }
    }
    Ok(())
}

/// The registered subject called `name`, or an error listing the known ones.
pub fn find_subject(name: &str) -> Result<&'static smallscope::api::Registration, BadInput> {
    smallscope::api::find_subject(name).ok_or_else(|| {
        let known: Vec<&str> = smallscope::api::registered_subjects().iter().map(|r| r.name).collect();
        BadInput(format!("unknown subject `{name}`; known subjects: {}", known.join(", ")))
    })
}
