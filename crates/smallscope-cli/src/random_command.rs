//! `smallscope random`: directed random testing of a registered subject.

use std::time::Duration;

use smallscope::edges::FrontierBranch;
use smallscope::emit::{random_error_tests, random_regression_tests, RandomTestOptions};
use smallscope::events::{BranchTried, Branching, Flip, Input, Stop};
use smallscope::order::RandomOrder;
use smallscope::random::{FlipToConfirm, IndexPruning, RandomConfig, RandomReport};
use smallscope_args::random::RandomArgs;

use crate::engine_command::EngineCommand;
use crate::run::RunOptions;
use crate::summary::{started_or, RandomSummary, RunFacts};
use crate::writing::OutputFile;
use crate::{find_subject, program, test_files, BadInput};

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
    config.streams = args.streams;
    config.simplify = !args.no_simplify;
    config.edge_feedback = !args.no_edge_feedback;
    config.pictures = args.run.out.is_some();
    config.validate()?;
    Ok(config)
}

/// `smallscope random`, made from its arguments.
pub struct RandomCommand<'a> {
    args: &'a RandomArgs,
    order: RandomOrder,
}

impl<'a> RandomCommand<'a> {
    pub fn new(args: &'a RandomArgs) -> Result<Self, BadInput> {
        Self::made(args, false)
    }

    /// `smallscope branch`: random, then its branch phase.
    pub fn branch(args: &'a RandomArgs) -> Result<Self, BadInput> {
        Self::made(args, true)
    }

    fn made(args: &'a RandomArgs, branch: bool) -> Result<Self, BadInput> {
        test_files::check(&args.tests)?;
        find_subject(&args.subject)?;
        let config = RandomConfig { branch, ..config(args)? };
        let order = RandomOrder { subject: args.subject.clone(), config, command: Some(replay_base(args, branch)) };
        Ok(RandomCommand { args, order })
    }

    fn engine(&self) -> &'static str {
        match self.order.config.branch {
            true => "branch",
            false => "random",
        }
    }

    fn test_options(&self, command: String, ignore_failing: bool, options: &RunOptions) -> RandomTestOptions {
        RandomTestOptions {
            command,
            subject: self.args.subject.clone(),
            ignore_failing,
            hang_seconds: options.hang_seconds(),
        }
    }
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
fn replay_base(args: &RandomArgs, branch: bool) -> String {
    let engine = if branch { "branch" } else { "random" };
    let mut command = format!("{} {engine} {} --seed {}", program(), args.subject, args.seed);
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
    if args.no_edge_feedback {
        command.push_str(" --no-edge-feedback");
    }
    if let Some(operations) = &args.operations {
        command.push_str(&format!(" --operations {}", operations.join(",")));
    }
    command
}

impl EngineCommand for RandomCommand<'_> {
    type Args = RandomArgs;
    type Order = RandomOrder;
    type Summary<'a> = RandomSummary<'a>;
    const NAME: &'static str = "random";

    fn args(&self) -> &RandomArgs {
        self.args
    }
    fn order(&self) -> &RandomOrder {
        &self.order
    }
    /// The default limit too is hard, and a hang costs a tenth of it.
    fn time_limit(&self) -> Option<Duration> {
        self.order.config.effective_time_limit()
    }
    fn ended(report: &RandomReport) -> (String, Option<Stop>) {
        (report.run.clone(), report.stop)
    }

    /// The sequences committed repeat the run exactly, where a time limit would not.
    fn replay(&self, report: &RandomReport) -> String {
        let mut replay = replay_base(self.args, self.order.config.branch);
        // Streams share the limits out: the run's own repeat it (each
        // failure's replay names its stream's seed and sequences).
        let streams = self.args.streams;
        if streams > 1 {
            replay.push_str(&format!(" --streams {streams}"));
        }
        match report.sequences > 0 && streams == 1 {
            true => replay.push_str(&format!(" --sequences {}", report.sequences)),
            // Nothing was committed: the limits given repeat the run.
            false => {
                if let Some(sequences) = self.args.sequences {
                    replay.push_str(&format!(" --sequences {sequences}"));
                }
                if let Some(limit) = &self.args.time_limit {
                    replay.push_str(&format!(" --time-limit {limit}"));
                }
            }
        }
        replay
    }

    /// A branch run's flips are run again, each from scratch, in a fresh
    /// worker: a flip that does not take its side there is said to be so.
    fn follow_up(&self, report: &mut RandomReport, options: &RunOptions) -> anyhow::Result<()> {
        // In process (`--no-isolation`) there is no fresh worker to ask.
        let Some(branching) = report.branching.as_mut().filter(|_| options.isolation) else { return Ok(()) };
        let flipped: Vec<&mut BranchTried> = branching.branches.iter_mut().filter(|b| b.flip.is_some()).collect();
        if flipped.is_empty() {
            return Ok(());
        }
        let confirm = flipped
            .iter()
            .map(|b| FlipToConfirm { program: witness_program_of(b).clone(), edges: b.branch.missed_edges.clone() })
            .collect();
        let config = RandomConfig { branch: false, confirm, ..self.order.config.clone() };
        let order = RandomOrder { subject: self.order.subject.clone(), config, command: None };
        let options = RunOptions { out: None, resume: false, structures: false, ..options.clone() };
        let confirmed = crate::run::run(&order, &options)?.fold.confirmed;
        for (tried, confirmed) in
            flipped.into_iter().zip(confirmed.into_iter().map(Some).chain(std::iter::repeat(None)))
        {
            if let Some(flip) = tried.flip.as_mut() {
                flip.confirmed = confirmed;
            }
        }
        Ok(())
    }

    fn summarize<'a>(&self, report: &'a RandomReport, run: RunFacts) -> Option<RandomSummary<'a>> {
        let report = started_or(report, started(report), |r| {
            (r.name, r.seed) = (self.args.subject.clone(), self.args.seed);
        });
        Some(RandomSummary {
            engine: self.engine().into(),
            sequences_per_second: report.sequences_per_second(),
            failure_group_count: report.failure_groups.len(),
            regression_test_count: report.regression_tests.len(),
            stopped_by: run.stop_text(),
            report,
            run,
        })
    }

    fn files<'a>(
        &self,
        summary: &RandomSummary<'_>,
        report: &'a RandomReport,
        options: &RunOptions,
    ) -> anyhow::Result<Vec<OutputFile<'a>>> {
        let mut files = Vec::new();
        // Tests only of a run that started: they name its subject's type.
        if let Some(dir) = self.args.run.out.as_ref().filter(|_| started(report)) {
            let replay = &summary.run.replay;
            let command = match crate::files_implied() {
                true => replay.clone(),
                false => format!("{replay} --out {}", dir.display()),
            };
            let options = self.test_options(command, false, options);
            files.push(OutputFile::bytes("error_tests.rs", random_error_tests(report, &options).into_bytes()));
            files
                .push(OutputFile::bytes("regression_tests.rs", random_regression_tests(report, &options).into_bytes()));
            files.push(OutputFile::bytes(
                "failures.json",
                (serde_json::to_string_pretty(&report.failure_groups)? + "\n").into_bytes(),
            ));
        }
        files.push(crate::report::Page::random(summary, report).file());
        Ok(files)
    }

    fn wants_tests(&self, report: &RandomReport) -> bool {
        self.args.tests.any() && started(report)
    }

    fn write_tests(
        &self,
        summary: &RandomSummary<'_>,
        report: &RandomReport,
        options: &RunOptions,
    ) -> anyhow::Result<()> {
        // A failure's replay under a front end that chose the crate's test
        // files: they hold the whole run's tests, which a replay would cut short.
        if self.args.stop_at.is_some() && crate::files_implied() {
            crate::progress::say(
                "note: the crate's test files are left as they are: a run with --stop-at replays a failure, and its \
                 tests would replace the whole run's (give --out to keep this run's)",
            );
            return Ok(());
        }
        let command = test_files::regenerate(&self.args.tests, &summary.run.replay);
        let options = self.test_options(command, self.args.tests.ignore_failing_tests, options);
        test_files::write(
            &self.args.tests,
            summary.run.stop,
            || random_regression_tests(report, &options),
            || random_error_tests(report, &options),
        )
    }

    fn text(&self, summary: &RandomSummary<'_>, report: &RandomReport) -> String {
        text(self.engine(), self.args, summary, report)
    }

    fn found(&self, summary: &RandomSummary<'_>) -> bool {
        !summary.report.failure_groups.is_empty()
    }
}

/// Whether the run started: its subject's type is known.
fn started(report: &RandomReport) -> bool {
    !report.run.is_empty()
}

fn text(engine: &str, args: &RandomArgs, summary: &RandomSummary<'_>, report: &RandomReport) -> String {
    let body = &summary.report;
    let mut out = format!(
        "{engine} {} ({}), seed {}: {} sequences in {:.2} s ({:.0} per second); stopped by {}\n",
        args.subject,
        body.subject,
        body.seed,
        body.sequences,
        body.seconds,
        summary.sequences_per_second,
        summary.stopped_by
    );
    out.push_str(&format!(
        "  legal {}, illegal {}, redundant {} (made before, not run), stored for reuse {} (the largest value has {})\n",
        body.legal,
        body.illegal,
        body.redundant,
        body.stored,
        crate::summary::counted(body.largest_structure, "object")
    ));
    if body.edges_total > 0 {
        out.push_str(&format!(
            "  coverage: {} of the crate's {} edges ({:.0}%){}\n",
            body.edges_covered,
            body.edges_total,
            100.0 * body.edges_covered as f64 / body.edges_total as f64,
            body.coverage_story()
        ));
        out.push_str(&frontier_text(&body.frontier));
    }
    if let Some(branching) = &body.branching {
        out.push_str(&branching_text(branching));
    }
    out.push_str(&format!("  contracts: {}\n", body.contracts.join(", ")));
    for note in &body.notes {
        out.push_str(&format!("  note: {note}\n"));
    }
    out.push_str(&format!("  failure groups: {}\n", body.failure_groups.len()));
    for (i, group) in body.failure_groups.iter().enumerate() {
        let failing = crate::summary::counted(group.count, "failing sequence");
        out.push_str(&format!("  [{}] {} ({failing})\n", i + 1, group.describe()));
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
    crate::run::finish_text(&mut out, &summary.run, Some(body.seed));
    out
}

/// The witness program of a flip.
fn witness_program_of(tried: &BranchTried) -> &smallscope::sequence::Program {
    static EMPTY: smallscope::sequence::Program = smallscope::sequence::Program { calls: Vec::new(), result: None };
    match tried.flip.as_ref().map(|flip| &flip.witness.input) {
        Some(Input::Program(program)) => program,
        _ => &EMPTY,
    }
}

/// What the branch phase flipped, branch by branch, and by which strategy.
fn branching_text(branching: &Branching) -> String {
    let (targets, flipped) = branching.flip_rate();
    let others = branching.branches.iter().filter(|b| !b.expected());
    let (other_count, others_flipped) = (others.clone().count(), others.filter(|b| b.flip.is_some()).count());
    let flips: Vec<&Flip> = branching.branches.iter().filter_map(|b| b.flip.as_ref()).collect();
    let confirmed = flips.iter().filter(|f| f.confirmed == Some(true)).count();
    let confirmation = match (flips.len(), confirmed) {
        (0, _) => String::new(),
        (all, confirmed) if all == confirmed => ", each flip confirmed in a fresh worker".to_owned(),
        (all, confirmed) => format!(", {confirmed} of {all} flips confirmed in a fresh worker"),
    };
    let mut out = format!(
        "  branch phase: flipped {flipped} of {targets} frontier branches ({others_flipped} of {other_count} more that \
         no call reached, in the invariant, or whose side not taken only panics) with {} candidates in {:.2} s{confirmation}\n    \
         edges: {} before the phase, {} after\n",
        branching.candidates, branching.seconds, branching.edges_before, branching.edges_after
    );
    for tried in &branching.branches {
        let place = crate::summary::place(&tried.branch.at);
        let kind = match (tried.invariant, tried.branch.to_panic, tried.witnesses) {
            (true, _, _) => " (the invariant's)",
            (false, true, _) => " (its side not taken only panics)",
            (false, false, 0) => " (no call reached it: checks' or copies' code)",
            (false, false, _) => "",
        };
        let outcome = match &tried.flip {
            Some(flip) => {
                let confirmed = match flip.confirmed {
                    Some(true) => "",
                    Some(false) => " — NOT confirmed: run again in a fresh worker, it did not take the side",
                    None => " (not confirmed in a fresh worker)",
                };
                format!("flipped by {}: {}{confirmed}", flip.strategy.name(), flip.witness.text)
            }
            None => format!("not flipped ({} witnesses, {} candidates)", tried.witnesses, tried.candidates),
        };
        out.push_str(&format!("    {place}{kind}, line {} not taken: {outcome}\n", tried.branch.missed_lines()));
    }
    let used: Vec<String> = branching
        .strategies
        .iter()
        .filter(|t| t.candidates > 0)
        .map(|t| format!("{} {}/{}", t.strategy.name(), t.flips, t.candidates))
        .collect();
    out.push_str(&format!("    strategies (flips/candidates): {}\n", used.join(", ")));
    out
}

/// How many branches have a side not taken, and the first of them.
fn frontier_text(frontier: &[FrontierBranch]) -> String {
    const SHOWN: usize = 10;
    let (panics, branches): (Vec<&FrontierBranch>, Vec<&FrontierBranch>) = frontier.iter().partition(|b| b.to_panic);
    let mut out = format!(
        "  frontier: {} branches of the crate with a side not taken, and {} whose side not taken only panics\n",
        branches.len(),
        panics.len()
    );
    for branch in branches.iter().take(SHOWN) {
        out.push_str(&format!(
            "    {} (not taken: line {})\n",
            crate::summary::place(&branch.at),
            branch.missed_lines()
        ));
    }
    if branches.len() > SHOWN {
        out.push_str(&format!("    … and {} more (summary.json, report.html)\n", branches.len() - SHOWN));
    }
    out
}
