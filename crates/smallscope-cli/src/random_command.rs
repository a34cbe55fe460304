//! `smallscope random`: directed random testing of a registered subject.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use smallscope::emit::{random_error_tests, random_regression_tests, RandomTestOptions};
use smallscope::random::{IndexPruning, RandomConfig, RandomReport};

use crate::beapi_command::Format;
use crate::progress::Bar;
use crate::{find_subject, BadInput};

#[derive(clap::Args)]
pub struct RandomArgs {
    /// A registered subject (see `smallscope list`).
    pub subject: String,
    /// Stop after this long: `10s`, `1.5s`, `500ms`, `2m` (default 10s when no limit is given).
    #[arg(long, value_name = "DURATION")]
    pub time_limit: Option<String>,
    /// Stop after executing this many new sequences; with a seed, this repeats a run exactly.
    #[arg(long, value_name = "N")]
    pub sequences: Option<u64>,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write `error_tests.rs`, `regression_tests.rs` and `failures.json` into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Seed values for integer arguments, separated by commas.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, value_name = "N,N,..")]
    pub ints: Option<Vec<i64>>,
    /// When a value counts as seen before: `heap` (same canonical form), `equality` (`==`) or `off`.
    #[arg(long, default_value = "heap")]
    pub index_pruning: String,
    /// Probability of repeating a chosen call several times.
    #[arg(long, value_name = "P")]
    pub repeat_probability: Option<f64>,
    /// Most repetitions of one call.
    #[arg(long, value_name = "N")]
    pub max_repeat: Option<u32>,
    /// Longer sequences are not kept for reuse.
    #[arg(long, value_name = "CALLS")]
    pub max_length: Option<usize>,
    /// Count panics whose message matches REGEX as misuse (repeatable).
    #[arg(long = "misuse-panic", value_name = "REGEX")]
    pub misuse_panics: Vec<String>,
    /// How many regression tests to write.
    #[arg(long, value_name = "N")]
    pub regression_tests: Option<usize>,
    /// Keep failing sequences as found, without simplifying them.
    #[arg(long)]
    pub no_simplify: bool,
    /// Stop, keeping what was found, when resident memory passes this many MiB.
    #[arg(long, value_name = "MIB")]
    pub memory_limit_mb: Option<u64>,
}

/// `10s`, `1.5s`, `500ms`, `2m`, or plain seconds.
pub fn parse_duration(text: &str) -> Result<Duration, BadInput> {
    let text = text.trim();
    let bad = || BadInput(format!("cannot read the time limit `{text}`: write it like `10s`, `500ms` or `2m`"));
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(bad()),
    };
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(bad());
    }
    if seconds == 0.0 {
        return Err(BadInput(format!("the time limit must be more than zero (got `{text}`)")));
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn config(args: &RandomArgs) -> Result<RandomConfig, BadInput> {
    let mut config = RandomConfig { seed: args.seed, ..RandomConfig::default() };
    config.time_limit = args.time_limit.as_deref().map(parse_duration).transpose()?;
    config.sequence_limit = args.sequences;
    if let Some(ints) = &args.ints {
        config.ints = ints.clone();
    }
    config.index_pruning = args.index_pruning.parse::<IndexPruning>()?;
    if let Some(p) = args.repeat_probability {
        config.repeat_probability = p;
    }
    if let Some(m) = args.max_repeat {
        config.max_repeat = m;
    }
    if let Some(m) = args.max_length {
        config.max_length = m;
    }
    config.misuse_panics = args.misuse_panics.clone();
    if let Some(n) = args.regression_tests {
        config.regression_tests = n;
    }
    config.simplify = !args.no_simplify;
    config.validate()?;
    Ok(config)
}

/// The command that repeats this run exactly: the sequence count pins it
/// down where a time limit would not.
fn replay_command(args: &RandomArgs, report: &RandomReport) -> String {
    format!("{} --sequences {}", replay_base(args), report.sequences)
}

/// The replay command without its sequence count.
fn replay_base(args: &RandomArgs) -> String {
    let mut command = format!("smallscope random {} --seed {}", args.subject, args.seed);
    if let Some(ints) = &args.ints {
        let ints: Vec<String> = ints.iter().map(i64::to_string).collect();
        command.push_str(&format!(" --ints={}", ints.join(",")));
    }
    if args.index_pruning != "heap" {
        command.push_str(&format!(" --index-pruning {}", args.index_pruning));
    }
    for (flag, value) in [
        ("--repeat-probability", args.repeat_probability.map(|v| v.to_string())),
        ("--max-repeat", args.max_repeat.map(|v| v.to_string())),
        ("--max-length", args.max_length.map(|v| v.to_string())),
        ("--regression-tests", args.regression_tests.map(|v| v.to_string())),
    ] {
        if let Some(value) = value {
            command.push_str(&format!(" {flag} {value}"));
        }
    }
    for pattern in &args.misuse_panics {
        command.push_str(&format!(" --misuse-panic {pattern:?}"));
    }
    if args.no_simplify {
        command.push_str(" --no-simplify");
    }
    command
}

pub fn run(args: &RandomArgs) -> anyhow::Result<ExitCode> {
    let registration = find_subject(&args.subject)?;
    let config = config(args)?;
    let subject = registration.subject();
    crate::partial::start(replay_base(args));
    let mut bar = Bar::for_random(args.memory_limit_mb.map(|mb| mb * 1024 * 1024));
    let report = subject.random(&config, &mut bar).map_err(BadInput::from)?;
    bar.finish();
    let replay = replay_command(args, &report);
    if let Some(dir) = &args.out {
        write_outputs(dir, args, &report, &replay)?;
    }
    let mut stdout = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            let mut summary = serde_json::to_value(&report)?;
            summary["subject"] = args.subject.clone().into();
            summary["type"] = report.subject.clone().into();
            summary["failure_group_count"] = report.failure_groups.len().into();
            summary["regression_test_count"] = report.regression_tests.len().into();
            summary["replay"] = replay.clone().into();
            summary.as_object_mut().expect("an object").remove("regression_tests");
            serde_json::to_writer_pretty(&mut stdout, &summary)?;
            writeln!(stdout)?;
        }
        Format::Text => print_text(&mut stdout, args, &report, &replay)?,
    }
    Ok(if report.failure_groups.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn print_text(
    out: &mut impl std::io::Write,
    args: &RandomArgs,
    report: &RandomReport,
    replay: &str,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "random {} ({}), seed {}: {} sequences in {:.2} s ({:.0} per second); stopped by {}",
        args.subject,
        report.subject,
        report.seed,
        report.sequences,
        report.seconds,
        report.sequences_per_second,
        report.stopped_by
    )?;
    writeln!(
        out,
        "  legal {}, illegal {}, redundant {}, stored for reuse {}",
        report.legal, report.illegal, report.redundant, report.stored
    )?;
    writeln!(out, "  contracts: {}", report.contracts.join(", "))?;
    writeln!(out, "  failure groups: {}", report.failure_groups.len())?;
    for (i, group) in report.failure_groups.iter().enumerate() {
        let place = group.location.as_deref().map(|l| format!(" at {l}")).unwrap_or_default();
        writeln!(
            out,
            "  [{}] {} after `{}` ({} failing sequences): {}{place}",
            i + 1,
            group.contract,
            group.operation,
            group.count,
            group.message.lines().next().unwrap_or("")
        )?;
        writeln!(
            out,
            "      calls: {} first found, {} smallest found, {} simplified: {}",
            group.first_calls, group.calls_before, group.calls_after, group.sequence
        )?;
    }
    writeln!(out, "  regression tests: {}", report.regression_tests.len())?;
    if let Some(dir) = &args.out {
        writeln!(out, "  wrote {}", dir.display())?;
    }
    writeln!(out, "seed {}; replay: {replay}", report.seed)?;
    Ok(())
}

fn write_outputs(dir: &Path, args: &RandomArgs, report: &RandomReport, replay: &str) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let options =
        RandomTestOptions { command: format!("{replay} --out {}", dir.display()), subject: args.subject.clone() };
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    };
    write("error_tests.rs", random_error_tests(report, &options))?;
    write("regression_tests.rs", random_regression_tests(report, &options))?;
    write("failures.json", serde_json::to_string_pretty(&report.failure_groups)? + "\n")?;
    Ok(())
}
