//! `cargo smallscope`: smallscope's engines on your own crate, from cargo.
//!
//! ```text
//! cargo smallscope init                        # a harness in smallscope/
//! cargo smallscope list                        # the crate's subjects and their engines
//! cargo smallscope beapi <subject> --scope 4   # any engine, with any `smallscope` option
//! cargo smallscope settings                    # every setting, and where it can be given
//! ```
//!
//! `init` writes a small crate in `smallscope/` whose `smallscope` binary is
//! `smallscope_cli::main` with the user's crate linked in (and with it
//! every `#[smallscope::api]`, `#[derive(Korat)]` and comparison it
//! registers). A run builds that harness in release mode, runs the engine
//! in supervised workers, and writes:
//! - `tests/smallscope_<subject>.rs` (and the folder beside it): generated
//!   tests, one module per engine run (`beapi`, `random`);
//! - `target/smallscope/<subject>/<engine>/`: `report.html`,
//!   `events.ndjson`, `summary.json` and the engine's other files.
//!
//! Settings come in layers (see [`settings`]); every failure prints its seed
//! and a command that reproduces it. Exit codes are the `smallscope`
//! command's: 0 clean, 1 failures found, 2 bad input, 130/143 interrupted.

pub mod coverage;
pub mod harness;
pub mod project;
pub mod settings;
pub mod test_targets;

use std::ffi::OsString;
use std::io::Write as _;
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use clap::{Parser, Subcommand};
use smallscope_args::Exit;

use crate::harness::Outcome;
use crate::project::{CargoOptions, Project};
use crate::settings::{option_given, option_value, scalar_text, Settings, ENGINES, FAILING_TESTS};
use crate::test_targets::{FailingTests, TestTargets};

/// Something the user can fix, said in one line; exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Problem(String);

impl Problem {
    pub fn new(text: impl Into<String>) -> Problem {
        Problem(text.into())
    }
}

/// smallscope's engines on your own crate.
#[derive(Parser)]
#[command(name = "cargo smallscope", bin_name = "cargo smallscope", version)]
#[command(after_help = "Run options are the `smallscope` command's: see `cargo smallscope beapi --help`.\n\
                        Settings can also come from Cargo.toml, smallscope.toml and SMALLSCOPE_* variables: \
                        see `cargo smallscope settings`.")]
struct Cli {
    #[command(flatten)]
    cargo: CargoOptions,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Sets up the harness in `smallscope/`: a crate whose binary runs the
    /// engines with this crate's subjects. Safe to run again.
    Init,
    /// Names the crate's subjects, their types and the engines each can run.
    List,
    /// Lists every setting: its key, the engines that take it, what it does.
    Settings {
        /// As the Markdown table of docs/configuration.md.
        #[arg(long)]
        markdown: bool,
    },
    /// beapi, korat, random, branch, compare, suite or builders, with the `smallscope` command's options.
    #[command(external_subcommand)]
    Run(Vec<OsString>),
}

/// The whole command: `cargo smallscope …` (cargo passes `smallscope` first)
/// or `cargo-smallscope …`.
pub fn main() -> ExitCode {
    coverage::wrap_rustc_if_asked();
    let mut args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "smallscope") {
        args.remove(1);
    }
    let cli = Cli::parse_from(args);
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "error: {error:#}");
            ExitCode::from(Exit::BadInput)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Init => init(&cli.cargo),
        Command::List => {
            let project = Project::find(&cli.cargo)?;
            let binary = harness::build(&project, &cli.cargo)?;
            let mut list = std::process::Command::new(binary);
            coverage::pass_on(&mut list, &cli.cargo, &project);
            let status = list.args(["list", "--verbose"]).status()?;
            Ok(exit_code(status))
        }
        Command::Settings { markdown } => {
            print_settings(markdown)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Run(words) => {
            let words: Vec<String> = words
                .into_iter()
                .map(|w| w.into_string().map_err(|w| Problem::new(format!("{w:?} is not UTF-8"))))
                .collect::<Result<_, _>>()?;
            run_engine(cli.cargo, words)
        }
    }
}

fn init(options: &CargoOptions) -> anyhow::Result<ExitCode> {
    let added = project::add_dependency(options)?;
    let project = Project::find(options)?;
    let mut out = std::io::stdout().lock();
    if let Some(source) = added {
        let manifest = project.show(&project.dir.join("Cargo.toml"));
        writeln!(out, "added the smallscope dependency to {manifest} (path {})", source.display())?;
    }
    for (path, outcome) in harness::init(&project)? {
        let path = project.show(&path);
        match outcome {
            Outcome::Created => writeln!(out, "created {path}")?,
            Outcome::UpToDate => writeln!(out, "up to date: {path}")?,
            Outcome::Kept => writeln!(out, "kept {path}: it differs from what init writes (remove it to start over)")?,
        }
    }
    writeln!(out, "next: cargo smallscope list, then cargo smallscope beapi <subject> --scope 3")?;
    Ok(ExitCode::SUCCESS)
}

fn print_settings(markdown: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if markdown {
        write!(out, "{}", settings_markdown())?;
        return Ok(());
    }
    for row in settings::table() {
        writeln!(out, "{:<22} {:<28} {}", row.key, row.engines.join(", "), row.help)?;
    }
    Ok(())
}

/// The table of every setting, as `docs/configuration.md` holds it.
pub fn settings_markdown() -> String {
    let mut text = String::from("| key | engines | what it does |\n|---|---|---|\n");
    for row in settings::table() {
        text.push_str(&format!("| `{}` | {} | {} |\n", row.key, row.engines.join(", "), row.help.replace('|', "\\|")));
    }
    text
}

/// Options `cargo smallscope` takes wherever they are on the line.
const CARGO_OPTIONS: &[&str] =
    &["--manifest-path", "-p", "--package", "-F", "--features", "--target-dir", "--failing-tests"];
/// Flags (no value) `cargo smallscope` takes wherever they are on the line.
const CARGO_FLAGS: &[&str] = &["--no-overflow-checks", "--coverage"];

/// `cargo smallscope <engine> <subject> [options]`.
fn run_engine(mut cargo: CargoOptions, words: Vec<String>) -> anyhow::Result<ExitCode> {
    let (engine, rest) = words.split_first().expect("clap gives the subcommand's name");
    if !ENGINES.contains(&engine.as_str()) {
        return Err(Problem::new(format!(
            "no command `{engine}`: the commands are init, list, settings, {}",
            ENGINES.join(", ")
        ))
        .into());
    }
    let (taken, mut args) = take_options(rest);
    let mut failing_flag = None;
    for (name, value) in taken {
        match name.as_str() {
            "--manifest-path" => cargo.manifest_path = Some(value.into()),
            "-p" | "--package" => cargo.package = Some(value),
            "-F" | "--features" => cargo.features.push(value),
            "--target-dir" => cargo.target_dir = Some(value.into()),
            "--no-overflow-checks" => cargo.no_overflow_checks = true,
            "--coverage" => cargo.coverage = true,
            _ => failing_flag = Some(value),
        }
    }
    // The options are checked before the (slow) build; --help is answered here.
    let mut check = vec!["smallscope".to_owned(), engine.clone()];
    check.extend(args.iter().cloned());
    let matches = match smallscope_args::command().try_get_matches_from(&check) {
        Ok(matches) => matches,
        Err(error) => {
            error.print()?;
            return Ok(ExitCode::from(if error.use_stderr() { Exit::BadInput } else { Exit::Clean }));
        }
    };
    let subject: String = matches
        .subcommand()
        .and_then(|(_, m)| m.get_one::<String>("subject").cloned())
        .expect("clap requires the subject");
    let project = Project::find(&cargo)?;
    let file = settings_file(&project)?;
    let settings = Settings::gather(
        project.settings.as_ref(),
        file.as_ref().map(|(p, t)| (p.as_path(), t)),
        std::env::vars(),
        engine,
        &subject,
    )?;
    let failing = match failing_flag.or_else(|| settings.get(FAILING_TESTS).and_then(|s| scalar_text(&s.value))) {
        None => FailingTests::default(),
        Some(text) => FailingTests::parse(&text)
            .ok_or_else(|| Problem::new(format!("failing-tests is `ignore` or `separate`, not `{text}`")))?,
    };
    let mut harness_args = settings.to_args(engine, &args)?;
    harness_args.append(&mut args);
    let out = match option_value(&harness_args, "out") {
        Some(given) => project.dir.join(given),
        None => {
            let out = project.out_dir(&subject, engine);
            harness_args.push(format!("--out={}", out.display()));
            out
        }
    };
    let targets = TestTargets::new(&project.dir, &subject);
    // Test files the user names are theirs: the test targets are left alone.
    let named_files = ["emit-tests", "emit-failing-tests"].iter().any(|o| option_given(&harness_args, o));
    let writes_tests = matches!(engine.as_str(), "beapi" | "random" | "branch" | "suite") && !named_files;
    if writes_tests {
        harness_args.extend(targets.args(engine, failing));
    }
    if matches!(engine.as_str(), "beapi" | "compare" | "suite" | "builders")
        && !option_given(&harness_args, "cache-dir")
    {
        harness_args.push(format!("--cache-dir={}", project.target_dir.join("smallscope").join("cache").display()));
    }
    if cargo.coverage && !matches!(engine.as_str(), "random" | "branch" | "suite") {
        eprintln!(
            "note: --coverage: only `random`, `branch` and `suite` count the crate's edges so far; this {engine} run \
             does not"
        );
    }
    // What repeats the run, as typed: `branch` needs no `--coverage`.
    let mut program = vec!["cargo".to_owned(), "smallscope".to_owned()];
    program.extend(cargo.words());
    // Branch-directed generation reads the comparisons: it needs coverage.
    cargo.coverage |= engine == "branch";
    let binary = harness::build(&project, &cargo)?;
    // In a process group of its own: each signal reaches it once, through
    // this process, whether it came from a terminal's Ctrl-C or `kill`.
    // File times tick coarser than the clock: a margin keeps a file written at once from reading as older.
    let started = std::time::SystemTime::now() - std::time::Duration::from_millis(100);
    let mut child = std::process::Command::new(binary);
    coverage::pass_on(&mut child, &cargo, &project);
    let mut child = child
        .arg(engine)
        .args(&harness_args)
        .env(smallscope_args::PROGRAM_VAR, program.join(" "))
        .current_dir(&project.dir)
        .process_group(0)
        .spawn()?;
    let status = wait_passing_signals(&mut child)?;
    // A run refused as bad input (an unknown subject, a wrong option) wrote
    // no tests: the roots stay as they were, and no `tests:` line is said.
    if writes_tests && targets.written_since(engine, failing, started) {
        let roots = targets.finish(engine, failing)?;
        for root in roots {
            eprintln!("tests: {}", project.show(&root));
        }
    }
    let report = out.join("report.html");
    if report.is_file() {
        eprintln!("report: {}", project.show(&report));
    }
    Ok(exit_code(status))
}

/// Takes `cargo smallscope`'s own options out of `words`, wherever they are.
fn take_options(words: &[String]) -> (Vec<(String, String)>, Vec<String>) {
    let mut taken = Vec::new();
    let mut rest = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        if let Some((name, value)) = word.split_once('=').filter(|(n, _)| CARGO_OPTIONS.contains(n)) {
            taken.push((name.to_owned(), value.to_owned()));
        } else if CARGO_FLAGS.contains(&word.as_str()) {
            taken.push((word.clone(), String::new()));
        } else if CARGO_OPTIONS.contains(&word.as_str()) {
            match words.next() {
                Some(value) => taken.push((word.clone(), value.clone())),
                None => rest.push(word.clone()),
            }
        } else {
            rest.push(word.clone());
        }
    }
    (taken, rest)
}

/// `smallscope.toml` beside the crate's Cargo.toml, read, when it is there.
fn settings_file(project: &Project) -> Result<Option<(PathBuf, toml::Table)>, Problem> {
    let path = project.dir.join("smallscope.toml");
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(None) };
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let line = e.span().map_or(1, |span| text[..span.start].matches('\n').count() + 1);
        let message: Vec<&str> = e.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        Problem::new(format!("{}:{line}: {}", path.display(), message.join("; ")))
    })?;
    Ok(Some((path, table)))
}

/// Waits for the harness, passing on each SIGINT, SIGTERM and SIGHUP this
/// process receives (the harness has a process group of its own, so a
/// terminal's Ctrl-C reaches it only this way, once); this process outlives
/// it, to put its test files in place.
fn wait_passing_signals(child: &mut std::process::Child) -> anyhow::Result<std::process::ExitStatus> {
    let signals = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
    let received: Vec<Arc<AtomicUsize>> = signals.iter().map(|_| Arc::new(AtomicUsize::new(0))).collect();
    for (&signal, count) in signals.iter().zip(&received) {
        let count = Arc::clone(count);
        // SAFETY: the action only adds to an atomic, which is async-signal-safe.
        unsafe { signal_hook::low_level::register(signal, move || _ = count.fetch_add(1, Ordering::SeqCst))? };
    }
    let mut passed = vec![0; signals.len()];
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        for ((&signal, count), passed) in signals.iter().zip(&received).zip(&mut passed) {
            while *passed < count.load(Ordering::SeqCst) {
                *passed += 1;
                // SAFETY: kill(2) with the child's id, not yet reaped, and a valid signal.
                unsafe { libc::kill(child.id() as libc::pid_t, signal) };
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// The harness's exit code as ours; a harness killed by a signal is 128 + it.
fn exit_code(status: std::process::ExitStatus) -> ExitCode {
    use std::os::unix::process::ExitStatusExt as _;
    match (status.code(), status.signal()) {
        (Some(code), _) => ExitCode::from(code as u8),
        (None, Some(signal)) => ExitCode::from(Exit::Signal(signal)),
        (None, None) => ExitCode::from(Exit::Fault),
    }
}

#[cfg(test)]
mod tests {
    use super::take_options;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn cargo_options_and_flags_are_taken_wherever_they_are() {
        let (taken, rest) =
            take_options(&words("bst --no-overflow-checks --scope 3 -p=mine --target-dir t --check all"));
        let taken: Vec<(&str, &str)> = taken.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(taken, [("--no-overflow-checks", ""), ("-p", "mine"), ("--target-dir", "t")]);
        assert_eq!(rest, words("bst --scope 3 --check all"));
    }
}
