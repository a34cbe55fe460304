//! [`BeapiReport`]: what a run found, folded from its events.

use super::{BeapiConfig, MeasureEdges, Resume};
use crate::api::OperationInfo;
use crate::events::{Configuration, Event, Failure, Fingerprint, Fold, LevelStats, Rebuild, Stop};
use crate::sequence::{Output, Program, Step, StepArg};

/// One structure, with the last call of the shortest sequence that builds it.
///
/// Shortest means in BFS levels, as in the BEAPI paper: a call made at level
/// `k` takes structures made at levels below `k`. When every builder takes at
/// most one structure, the level is the number of calls; when a builder
/// combines two structures (`merge(&mut self, other: &Self)`), the rebuilding
/// program has the calls of both inputs and may be longer than the level.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Structure {
    /// The BFS level at which it was first made.
    pub level: u32,
    pub step: Step,
    /// Its canonical text, when the run recorded it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical: Option<String>,
    /// The fingerprint of its state key.
    #[serde(skip)]
    pub fingerprint: Option<Fingerprint>,
    /// It differs from an earlier structure only in fields omitted from the
    /// canonical form: the search extended it, but it is not counted, and
    /// no test is generated for it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub variant: bool,
    /// Its picture (Graphviz DOT), when the run drew it.
    #[serde(skip)]
    pub picture: Option<String>,
}

/// The result of a BEAPI run: a fold over its events.
///
/// Serialized, it is the body of the run's JSON summary (`summary.json`,
/// `--format json`), named as the summary names it: the bulk (structures,
/// the API, the settings) stays out, and what the summary adds is what no
/// report holds (how the run ended, the command line's view of the API).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct BeapiReport {
    /// The run's id (see [`RunStarted::run`](crate::events::RunStarted::run)).
    #[serde(skip)]
    pub run: String,
    /// The subject's registered name.
    #[serde(rename = "subject")]
    pub name: String,
    /// The subject's Rust type.
    #[serde(rename = "type")]
    pub subject: String,
    pub scope: u32,
    /// The settings it ran with (builders resolved).
    #[serde(skip)]
    pub config: Option<BeapiConfig>,
    /// The command that repeats the run, when it came from one.
    #[serde(skip)]
    pub command: Option<String>,
    /// The API, in declaration order; steps refer to it by index.
    #[serde(skip)]
    pub operations: Vec<OperationInfo>,
    /// Names of the operations used to extend sequences.
    pub builders: Vec<String>,
    /// Names of the operations called on every kept structure to check it.
    #[serde(default)]
    pub checked: Vec<String>,
    #[serde(skip)]
    pub structures: Vec<Structure>,
    /// Structures made, as the counts say: a fold that skips structure
    /// events (a supervisor that does not write them) still knows how many.
    #[serde(skip)]
    pub counted: u64,
    pub levels: Vec<LevelStats>,
    /// Sequences executed.
    pub explored: u64,
    /// Calls of the checked operations.
    #[serde(default)]
    pub checked_calls: u64,
    /// Calls of each operation, by its index in `operations`, builders'
    /// and checks' (shorter when the last ones were not called).
    #[serde(skip)]
    pub operation_calls: Vec<u64>,
    /// Calls of each operation dropped as misuse, indexed as `operation_calls`.
    #[serde(skip)]
    pub operation_misuses: Vec<u64>,
    /// Sequences dropped as API misuse.
    pub misuses: u64,
    /// Sequences dropped because a structure passed the scope.
    pub out_of_scope: u64,
    /// Failure groups, each with its first (minimal-level) witness.
    #[serde(rename = "failure_groups")]
    pub failures: Vec<Failure>,
    pub seconds: f64,
    /// Why the run stopped; `None` while it runs.
    #[serde(skip)]
    pub stop: Option<Stop>,
    /// Things the user should know, e.g. that `Clone` was shallow and replay was used.
    pub notes: Vec<String>,
    /// Where the run was at its last commit.
    #[serde(skip)]
    pub resume: Option<Resume>,
    /// A run that measured edges ([`BeapiConfig::measure`]): the user's edges its calls took.
    #[serde(skip)]
    pub edges: Vec<u32>,
}

impl Fold for BeapiReport {
    fn stopped_early(&mut self, stop: Stop) {
        self.stop.get_or_insert(stop);
    }

    fn operation_name(&self, op: u16) -> Option<&str> {
        self.operations.get(usize::from(op)).map(|info| info.name.as_str())
    }

    fn apply(&mut self, event: Event) {
        match event {
            Event::RunStarted(started) => {
                self.run = started.run;
                self.name = started.subject;
                self.subject = started.type_name;
                self.operations = started.operations;
                self.command = started.command;
                if let Configuration::Beapi(config) = started.configuration {
                    self.scope = config.scope;
                    if let super::Builders::Named(names) = &config.builders {
                        self.builders = names.clone();
                    }
                    if let super::Check::Named(names) = &config.check {
                        self.checked = names.clone();
                    }
                    self.config = Some(config);
                }
            }
            Event::Structure(found) => {
                let Rebuild::Step(step) = found.rebuild else { return };
                self.structures.push(Structure {
                    level: found.level.unwrap_or(0),
                    step,
                    canonical: found.canonical,
                    fingerprint: found.fingerprint,
                    variant: found.variant,
                    picture: found.picture,
                });
            }
            Event::Failure(failure) => failure.fold_into(&mut self.failures),
            Event::Level(level) => {
                // A stopped level reports what it did; resumed, it runs
                // again from its start and reports the whole of it.
                if self.levels.last().is_some_and(|last| last.level == level.level) {
                    self.levels.pop();
                }
                self.levels.push(level);
            }
            Event::Progress(progress) => {
                self.take_counts(&progress.counts, &progress.group_counts, progress.seconds);
                let crate::events::Resume::Beapi(resume) = progress.resume else { return };
                self.resume = Some(resume);
            }
            Event::Note(note) => self.notes.push(note.text),
            Event::RunFinished(finished) => {
                self.take_counts(&finished.counts, &finished.group_counts, finished.seconds);
                self.stop = Some(finished.stop);
                self.edges = finished.edges;
            }
            Event::RegressionTest(_)
            | Event::Difference(_)
            | Event::Compared(_)
            | Event::Identified(_)
            | Event::Part(_)
            | Event::Stream(_) => {}
        }
    }
}

impl BeapiReport {
    fn take_counts(&mut self, counts: &crate::events::Counts, groups: &[u64], seconds: f64) {
        self.explored = counts.explored;
        self.checked_calls = counts.checked;
        self.operation_calls = counts.operation_calls.clone();
        self.operation_misuses = counts.operation_misuses.clone();
        self.counted = counts.structures;
        self.misuses = counts.misuses;
        self.out_of_scope = counts.out_of_scope;
        self.seconds = seconds;
        Failure::take_counts(&mut self.failures, groups);
    }

    /// How many distinct structures were generated (by canonical form).
    pub fn structure_count(&self) -> usize {
        self.counted_structures().count().max(self.counted as usize)
    }

    /// The structures counted, with their indices: states that differ from
    /// an earlier one only in omitted fields left out.
    pub fn counted_structures(&self) -> impl Iterator<Item = (usize, &Structure)> {
        self.structures.iter().enumerate().filter(|(_, s)| !s.variant)
    }

    /// How many sequences failed, over all groups.
    pub fn failure_count(&self) -> u64 {
        self.failures.iter().map(|f| f.count).sum()
    }

    /// Calls of operation `op` (by index), and how many were misuse.
    pub fn calls_of(&self, op: usize) -> (u64, u64) {
        let at = |counts: &[u64]| counts.get(op).copied().unwrap_or(0);
        (at(&self.operation_calls), at(&self.operation_misuses))
    }

    /// Whether the run stopped before it was done (time or memory limit, an interrupt).
    pub fn stopped_early(&self) -> bool {
        self.stop.is_some_and(Stop::is_early)
    }

    /// The calls that rebuild structure `index`.
    pub fn program(&self, index: usize) -> Program {
        Program::unroll(&self.structures[index].step, &|s| &self.structures[s as usize].step)
    }

    /// The calls that reproduce failure group `index`, ending in the failing
    /// call; its `result` is the variable holding the broken value, if any.
    /// For a failing `Clone` or `Drop`, the calls that build the structure.
    pub fn failure_program(&self, index: usize) -> Program {
        self.failures[index].witness.input.program(&|s| &self.structures[s as usize].step)
    }

    /// A run that measures the edges of structures `kept` (indices here)
    /// and their calls: the steps they need, numbered afresh, oldest first.
    pub fn measure_edges(&self, kept: impl IntoIterator<Item = usize>) -> MeasureEdges {
        let kept: Vec<usize> = kept.into_iter().collect();
        // Every structure a kept one's calls start from, found backwards.
        let mut needed = vec![false; self.structures.len()];
        let mut waiting = kept.clone();
        while let Some(index) = waiting.pop() {
            if std::mem::replace(&mut needed[index], true) {
                continue;
            }
            for arg in &self.structures[index].step.args {
                if let StepArg::Structure(s) | StepArg::Handle(s) = arg {
                    waiting.push(*s as usize);
                }
            }
        }
        let mut number = vec![0u32; self.structures.len()];
        let mut structures = Vec::new();
        for index in (0..self.structures.len()).filter(|&i| needed[i]) {
            number[index] = structures.len() as u32;
            let mut step = self.structures[index].step.clone();
            for arg in &mut step.args {
                if let StepArg::Structure(s) | StepArg::Handle(s) = arg {
                    *s = number[*s as usize];
                }
            }
            structures.push(step);
        }
        MeasureEdges { structures, kept: kept.iter().map(|&index| number[index]).collect() }
    }

    /// Which slot of its last call holds structure `index`.
    pub fn output_of(&self, index: usize) -> Output {
        self.structures[index].step.output
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(level: u32, structures: usize, explored: u64) -> Event {
        Event::Level(LevelStats { level, structures, explored, checked: 0, seconds: 1.0 })
    }

    /// A run stopped inside level 3 reports what it did of it; resumed,
    /// the level runs again from its start and reports all of it.
    #[test]
    fn a_resumed_level_replaces_the_row_its_stop_reported() {
        let mut report = BeapiReport::default();
        for event in [level(1, 1, 1), level(2, 3, 4), level(3, 5, 9), level(3, 12, 20), level(4, 30, 60)] {
            report.apply(event);
        }
        let rows: Vec<(u32, usize, u64)> = report.levels.iter().map(|l| (l.level, l.structures, l.explored)).collect();
        assert_eq!(rows, [(1, 1, 1), (2, 3, 4), (3, 12, 20), (4, 30, 60)]);
    }
}
