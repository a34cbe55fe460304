//! `smallscope`: generate every small structure of a type through its API.
//!
//! ```text
//! smallscope list
//! smallscope beapi <subject> --scope N [--ints A..B] [--config FILE] [--builders auto|all|m1,m2] [--format text|json]
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
mod progress;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Bounded-exhaustive test inputs for Rust heap structures.
#[derive(Parser)]
#[command(name = "smallscope", version, about, long_about = None)]
struct Cli {
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
    let result = match cli.command {
        Command::List(args) => list(&args).map(|()| ExitCode::SUCCESS),
        Command::Beapi(args) => beapi_command::run(&args),
        Command::Korat(args) => korat_command::run(&args),
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
