//! What a random run reports, folded from its events: counts, failure
//! groups and regression tests.

use std::collections::BTreeMap;

use super::{RandomConfig, RegressionTest, Resume, StreamRecord};
use crate::api::OperationInfo;
use crate::edges::FrontierBranch;
use crate::events::{Branching, Configuration, Counts, EdgeGain, Event, Failure, Fold, Input, Stop};
use crate::sequence::Program;

/// What a random run did and found.
///
/// Serialized, it is the body of the run's JSON summary, named as the
/// summary names it (see [`BeapiReport`](crate::BeapiReport)).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct RandomReport {
    /// The run's id.
    #[serde(skip)]
    pub run: String,
    /// The subject's registered name.
    #[serde(rename = "subject")]
    pub name: String,
    /// The subject's Rust type.
    #[serde(rename = "type")]
    pub subject: String,
    pub seed: u64,
    #[serde(skip)]
    pub config: Option<RandomConfig>,
    /// New sequences executed.
    pub sequences: u64,
    /// Executed sequences that misused the API.
    pub illegal: u64,
    /// Assembled sequences dropped unexecuted, made before.
    pub redundant: u64,
    /// Executed sequences that neither misused the API nor failed.
    pub legal: u64,
    /// Sequences kept in the component set for reuse.
    pub stored: u64,
    /// Objects in the largest value those sequences keep, its root included.
    #[serde(default)]
    pub largest_structure: u64,
    pub failure_groups: Vec<Failure>,
    /// In a harness built with coverage (`cargo smallscope --coverage`):
    /// edges of the crate under test the run took, and all of them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub edges_covered: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub edges_total: u64,
    /// Each time the edges taken grew: after which sequence, and to how many.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges_over_time: Vec<EdgeGain>,
    /// The crate's branches with a side taken and a side not, at the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frontier: Vec<FrontierBranch>,
    /// The branch phase (`branch`): the branches it tried, its flips, and
    /// the edges before and after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branching: Option<Branching>,
    /// A run that confirms flips: whether each took its side.
    #[serde(skip)]
    pub confirmed: Vec<bool>,
    #[serde(skip)]
    pub regression_tests: Vec<RegressionTest>,
    pub seconds: f64,
    /// Why it stopped; `None` while it runs.
    #[serde(skip)]
    pub stop: Option<Stop>,
    pub contracts: Vec<String>,
    #[serde(skip)]
    pub operations: Vec<OperationInfo>,
    pub notes: Vec<String>,
    /// Where the run was at its last commit.
    #[serde(skip)]
    pub resume: Option<Resume>,
    /// A run of several streams: those done, by number.
    #[serde(skip)]
    pub streams: BTreeMap<u32, StreamRecord>,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
}

impl RandomReport {
    /// New sequences executed per second.
    pub fn sequences_per_second(&self) -> f64 {
        self.sequences as f64 / self.seconds.max(1e-9)
    }

    /// When the sequences took their last new edge, and how many the run
    /// took besides (simplifying failures, making regression tests), as
    /// `, the last new one at sequence 9954 (1 more after the sequences)`.
    pub fn coverage_story(&self) -> String {
        let by_sequences = self.edges_over_time.last().map_or(0, |gain| gain.edges);
        let mut story =
            self.edges_over_time.last().map(|gain| format!(", the last new one at sequence {}", gain.sequences));
        if self.edges_covered > by_sequences {
            let after = format!(" ({} more after the sequences)", self.edges_covered - by_sequences);
            story.get_or_insert_default().push_str(&after);
        }
        story.unwrap_or_default()
    }

    fn take_counts(&mut self, counts: &Counts, groups: &[u64], seconds: f64) {
        self.sequences = counts.explored;
        self.illegal = counts.misuses;
        self.redundant = counts.redundant;
        self.legal = counts.explored.saturating_sub(counts.misuses + counts.failing);
        self.stored = counts.structures;
        self.largest_structure = counts.largest_structure;
        self.edges_covered = counts.edges_covered;
        self.edges_total = counts.edges_total;
        self.seconds = seconds;
        Failure::take_counts(&mut self.failure_groups, groups);
    }
}

impl Fold for RandomReport {
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
                self.seed = started.seed.unwrap_or(0);
                self.operations = started.operations;
                self.contracts = started.contracts;
                if let Configuration::Random(config) = started.configuration {
                    self.config = Some(config);
                }
            }
            Event::Failure(failure) => failure.fold_into(&mut self.failure_groups),
            Event::Progress(progress) => {
                self.take_counts(&progress.counts, &progress.group_counts, progress.seconds);
                self.edges_over_time.extend(progress.edge_gains);
                if let crate::events::Resume::Random(resume) = progress.resume {
                    self.resume = Some(resume);
                }
            }
            Event::RegressionTest(test) => self.regression_tests.push(test),
            Event::Stream(record) => {
                self.streams.insert(record.stream, record);
            }
            Event::Note(note) => self.notes.push(note.text),
            Event::RunFinished(finished) => {
                self.take_counts(&finished.counts, &finished.group_counts, finished.seconds);
                self.edges_over_time.extend(finished.edge_gains);
                self.frontier = finished.frontier;
                self.branching = finished.branching;
                self.confirmed = finished.confirmed;
                self.stop = Some(finished.stop);
            }
            Event::Structure(_)
            | Event::Level(_)
            | Event::Difference(_)
            | Event::Compared(_)
            | Event::Identified(_)
            | Event::Part(_) => {}
        }
    }
}

/// The straight-line program of a random failure's witness.
pub fn witness_program(failure: &Failure) -> &Program {
    static EMPTY: Program = Program { calls: Vec::new(), result: None };
    match &failure.witness.input {
        Input::Program(program) => program,
        _ => &EMPTY,
    }
}
