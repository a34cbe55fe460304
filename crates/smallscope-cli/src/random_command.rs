//! `smallscope random`: directed random testing of a registered subject.

use smallscope::emit::{random_error_tests, random_regression_tests, RandomTestOptions};
use smallscope::order::RandomOrder;
use smallscope::random::{IndexPruning, RandomConfig, RandomReport};
use smallscope_args::random::RandomArgs;
use smallscope_args::{Exit, Format};

use crate::run::RunOptions;
use crate::summary::RandomSummary;
use crate::writing::OutputFile;
use crate::{find_subject, print, program, test_files, BadInput};

fn config(args: &RandomArgs) -> Result<RandomConfig, BadInput> {
    let mut config = RandomConfig { seed: args.seed, ..RandomConfig::default() };
    config.time_limit =
        args.time_limit.as_deref().map(|t| smallscope::parse_duration("--time-limit", t)).transpose()?;
    config.sequence_limit = args.sequences;
    config.stop_at = args.stop_at;
    if let Some(ints) = &args.ints {
        config.ints = seed_ints(ints)?;
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
    if let Some(n) = args.list_length {
        config.list_length = n;
    }
    if let Some(n) = args.other_scope {
        config.other_scope = n;
    }
    config.misuse_panics = args.misuse_panics.clone();
    config.operations = args.operations.clone();
    if let Some(n) = args.regression_tests {
        config.regression_tests = n;
    }
    config.simplify = !args.no_simplify;
    config.pictures = args.run.out.is_some();
    config.validate()?;
    Ok(config)
}

/// The run as data: what the supervisor runs, and its workers.
pub fn order(args: &RandomArgs) -> Result<RandomOrder, BadInput> {
    find_subject(&args.subject)?;
    Ok(RandomOrder { subject: args.subject.clone(), config: config(args)?, command: Some(replay_base(args)) })
}

/// `--ints`' items: ranges `A..B` (B excluded), as `beapi` takes them, and single values.
pub(crate) fn seed_ints(items: &[String]) -> Result<Vec<i64>, BadInput> {
    let mut ints = Vec::new();
    for item in items {
        match item.contains("..") {
            true => ints.extend(smallscope::beapi::parse_int_range(item)?),
            false => ints.push(item.trim().parse().map_err(|_| {
                BadInput(format!("cannot read `{item}` in --ints: write `A..B` (B excluded) or values like `-1,7`"))
            })?),
        }
    }
    Ok(ints)
}

/// The command that repeats this run without its sequence count; with
/// `--sequences N` it repeats it exactly, where a time limit would not.
fn replay_base(args: &RandomArgs) -> String {
    let mut command = format!("{} random {} --seed {}", program(), args.subject, args.seed);
    if let Some(ints) = &args.ints {
        command.push_str(&format!(" --ints={}", ints.join(",")));
    }
    if args.index_pruning != "heap" {
        command.push_str(&format!(" --index-pruning {}", args.index_pruning));
    }
    for (flag, value) in [
        ("--repeat-probability", args.repeat_probability.map(|v| v.to_string())),
        ("--max-repeat", args.max_repeat.map(|v| v.to_string())),
        ("--max-length", args.max_length.map(|v| v.to_string())),
        ("--list-length", args.list_length.map(|v| v.to_string())),
        ("--other-scope", args.other_scope.map(|v| v.to_string())),
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
    if let Some(operations) = &args.operations {
        command.push_str(&format!(" --operations {}", operations.join(",")));
    }
    command
}

pub fn run(args: &RandomArgs, options: &RunOptions) -> anyhow::Result<Exit> {
    test_files::check(&args.tests)?;
    let order = order(args)?;
    // The default limit too is hard, and a hang costs a tenth of it.
    let options = options.timed(order.config.effective_time_limit());
    let hang_seconds = options.hang_seconds();
    let mut finished = crate::run::run(&order, &options)?;
    let report = std::mem::take(&mut finished.fold);
    let stop = finished.stop(report.stop);
    // Tests only of a run that started: they name its subject's type.
    let started = !report.run.is_empty();
    let mut replay = replay_base(args);
    match report.sequences > 0 {
        true => replay.push_str(&format!(" --sequences {}", report.sequences)),
        // Nothing was committed: the limits given repeat the run.
        false => {
            if let Some(sequences) = args.sequences {
                replay.push_str(&format!(" --sequences {sequences}"));
            }
            if let Some(limit) = &args.time_limit {
                replay.push_str(&format!(" --time-limit {limit}"));
            }
        }
    }
    let facts = finished.facts(report.run.clone(), stop, replay.clone());
    let summary = RandomSummary {
        subject: args.subject.clone(),
        type_name: report.subject.clone(),
        engine: "random".into(),
        seed: args.seed,
        sequences: report.sequences,
        sequences_per_second: report.sequences_per_second(),
        illegal: report.illegal,
        redundant: report.redundant,
        legal: report.legal,
        stored: report.stored,
        largest_structure: report.largest_structure,
        failure_groups: report.failure_groups.clone(),
        failure_group_count: report.failure_groups.len(),
        regression_test_count: report.regression_tests.len(),
        seconds: report.seconds,
        stopped_by: facts.stop_text(),
        contracts: report.contracts.clone(),
        notes: report.notes.clone(),
        run: facts,
    };
    let mut files = Vec::new();
    if let Some(dir) = args.run.out.as_ref().filter(|_| started) {
        let command = match crate::files_implied() {
            true => replay.clone(),
            false => format!("{replay} --out {}", dir.display()),
        };
        let options = RandomTestOptions { command, subject: args.subject.clone(), ignore_failing: false, hang_seconds };
        files.push(OutputFile::bytes("error_tests.rs", random_error_tests(&report, &options).into_bytes()));
        files.push(OutputFile::bytes("regression_tests.rs", random_regression_tests(&report, &options).into_bytes()));
        files.push(OutputFile::bytes(
            "failures.json",
            (serde_json::to_string_pretty(&report.failure_groups)? + "\n").into_bytes(),
        ));
    }
    if args.run.out.is_some() {
        files.push(crate::report::Page::random(&summary, &report).file());
    }
    let summary = finished.write(&args.run, files, summary, |s| &mut s.run)?;
    if started {
        let options = RandomTestOptions {
            command: test_files::regenerate(&args.tests, &replay),
            subject: args.subject.clone(),
            ignore_failing: args.tests.ignore_failing_tests,
            hang_seconds,
        };
        finished.write_more("tests", || {
            test_files::write(
                &args.tests,
                stop,
                || random_regression_tests(&report, &options),
                || random_error_tests(&report, &options),
            )
        })?;
    }
    match args.format {
        Format::Json => print(serde_json::to_string_pretty(&summary)?)?,
        Format::Text => print(text(args, &summary, &report))?,
    }
    Ok(finished.exit(!report.failure_groups.is_empty()))
}

fn text(args: &RandomArgs, summary: &RandomSummary, report: &RandomReport) -> String {
    let mut out = format!(
        "random {} ({}), seed {}: {} sequences in {:.2} s ({:.0} per second); stopped by {}\n",
        args.subject,
        summary.type_name,
        summary.seed,
        summary.sequences,
        summary.seconds,
        summary.sequences_per_second,
        summary.stopped_by
    );
    out.push_str(&format!(
        "  legal {}, illegal {}, redundant {}, stored for reuse {} (the largest value has {} objects)\n",
        summary.legal, summary.illegal, summary.redundant, summary.stored, summary.largest_structure
    ));
    out.push_str(&format!("  contracts: {}\n", summary.contracts.join(", ")));
    for note in &summary.notes {
        out.push_str(&format!("  note: {note}\n"));
    }
    out.push_str(&format!("  failure groups: {}\n", summary.failure_groups.len()));
    for (i, group) in summary.failure_groups.iter().enumerate() {
        out.push_str(&format!("  [{}] {} ({} failing sequences)\n", i + 1, group.describe(), group.count));
        let shrink = group.shrink.map_or(format!("{}", group.witness.calls), |s| {
            format!("{} first found, {} smallest found, {} simplified", s.first, s.smallest, s.simplified)
        });
        out.push_str(&format!("      calls: {shrink}: {}\n", group.witness.text));
        if let Some(replay) = &group.replay {
            out.push_str(&format!("      replay: {replay}\n"));
        }
    }
    out.push_str(&format!("  regression tests: {}", report.regression_tests.len()));
    if let Some(dir) = &args.run.out {
        out.push_str(&format!("\n  wrote {}", dir.display()));
    }
    crate::run::finish_text(&mut out, &summary.run, Some(summary.seed));
    out
}
