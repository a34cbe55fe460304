//! The skeleton every engine command shares: its arguments become an
//! order, the order runs under the supervisor, its folded events become
//! one summary, and the summary is written (`--out`), printed (text or
//! JSON) and turned into the exit status.
//!
//! A command (`beapi_command`, `korat_command`, …) says only what differs:
//! how its arguments make an order, how a finished run is summarized, the
//! files and tests it writes and its text. [`run`] does the rest, in the
//! same order for every engine, so that limits, signals and the staging
//! folder are honoured the same way by all of them.

use std::time::Duration;

use smallscope::events::Stop;
use smallscope::order::Order;
use smallscope_args::{EngineArgs, Exit, Format};

use crate::print;
use crate::run::RunOptions;
use crate::summary::{RunFacts, Summary};
use crate::writing::OutputFile;

/// What a run folds its events into, for the command that ordered it.
pub type FoldOf<C> = <<C as EngineCommand>::Order as Order>::Fold;

/// One engine's command, made from its parsed arguments.
pub trait EngineCommand: Sized {
    type Args: EngineArgs;
    type Order: Order;
    /// The JSON summary; an engine's borrows the run's report, its body.
    type Summary<'a>: Summary;

    /// `beapi`, `korat`, …: how the command is named on the command line.
    const NAME: &'static str;

    fn args(&self) -> &Self::Args;

    /// The run, as data.
    fn order(&self) -> &Self::Order;

    /// The run's wall-clock limit, which bounds its workers and writing.
    fn time_limit(&self) -> Option<Duration> {
        None
    }

    /// The run's id and why its engine stopped (if it said), from its events.
    fn ended(fold: &FoldOf<Self>) -> (String, Option<Stop>);

    /// The command that repeats the run: by default the order's.
    fn replay(&self, _fold: &FoldOf<Self>) -> String {
        self.order().command().unwrap_or_default().to_owned()
    }

    /// Work on the finished run before it is summarized (running more
    /// workers, say); by default none.
    fn follow_up(&self, _fold: &mut FoldOf<Self>, _options: &RunOptions) -> anyhow::Result<()> {
        Ok(())
    }

    /// The summary of a finished run; `None` when it stopped before it had
    /// a result to summarize.
    fn summarize<'a>(&self, fold: &'a FoldOf<Self>, facts: RunFacts) -> Option<Self::Summary<'a>>;

    /// The command's own files in `--out` (`events.ndjson` and
    /// `summary.json` are every command's).
    fn files<'a>(
        &self,
        _summary: &Self::Summary<'_>,
        _fold: &'a FoldOf<Self>,
        _options: &RunOptions,
    ) -> anyhow::Result<Vec<OutputFile<'a>>> {
        Ok(Vec::new())
    }

    /// Whether the run writes Rust test files (`--emit-tests`).
    fn wants_tests(&self, _fold: &FoldOf<Self>) -> bool {
        false
    }

    /// Writes the Rust test files asked for, after the run's own files.
    fn write_tests(
        &self,
        _summary: &Self::Summary<'_>,
        _fold: &FoldOf<Self>,
        _options: &RunOptions,
    ) -> anyhow::Result<()> {
        Ok(())
    }

    /// The summary in words, for `--format text`.
    fn text(&self, summary: &Self::Summary<'_>, fold: &FoldOf<Self>) -> String;

    /// Whether the run found something: exit status 1.
    fn found(&self, summary: &Self::Summary<'_>) -> bool;
}

/// Runs `command` and reports its run: the skeleton every engine shares.
pub fn run<C: EngineCommand>(command: C, options: &RunOptions) -> anyhow::Result<Exit> {
    let options = options.timed(command.time_limit());
    let finished = crate::run::run(command.order(), &options)?;
    report(command, finished, &options)
}

/// Summarizes a finished run, writes its files and prints it.
pub fn report<C: EngineCommand>(
    command: C,
    mut finished: crate::run::Finished<FoldOf<C>>,
    options: &RunOptions,
) -> anyhow::Result<Exit> {
    let mut fold = std::mem::take(&mut finished.fold);
    let (run, engine_stop) = C::ended(&fold);
    if finished.stopped.is_none() {
        command.follow_up(&mut fold, options)?;
    }
    let stop = finished.stop(engine_stop);
    let facts = finished.facts(run, stop, command.replay(&fold));
    let Some(summary) = command.summarize(&fold, facts.clone()) else {
        // Nothing to summarize: the staging folder is kept, to be resumed.
        let mut text = format!(
            "smallscope {} {}: stopped ({}) before a result",
            C::NAME,
            command.args().subject(),
            stop.describe()
        );
        crate::run::finish_text(&mut text, &facts, None);
        print(text)?;
        return Ok(finished.exit(false));
    };
    let files = match command.args().run().out {
        Some(_) => command.files(&summary, &fold, options)?,
        None => Vec::new(),
    };
    let summary = finished.write(command.args().run(), files, summary)?;
    if command.wants_tests(&fold) {
        finished.write_more("tests", || command.write_tests(&summary, &fold, options))?;
    }
    match command.args().format() {
        Format::Json => print(serde_json::to_string(&summary)?)?,
        Format::Text => print(command.text(&summary, &fold))?,
    }
    Ok(finished.exit(command.found(&summary)))
}
