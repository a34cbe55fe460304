//! What a random run reports: its counts, failure groups and regression tests.

use crate::api::OperationInfo;
use crate::sequence::Program;

/// One failure group: a broken contract after one operation, with the
/// smallest failing sequence found, simplified.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FailureGroup {
    pub contract: String,
    pub operation: String,
    /// Where it panicked, for panics.
    pub location: Option<String>,
    pub message: String,
    /// Failing sequences found in this group.
    pub count: u64,
    /// Calls of the first failing sequence found in this group.
    pub first_calls: usize,
    /// Calls of the smallest failing sequence, before and after simplification.
    pub calls_before: usize,
    pub calls_after: usize,
    /// The simplified sequence as one line, e.g. `s0 = new(); s0.add(1)`.
    pub sequence: String,
    /// Rust statements that fail on the final values (empty for a panic).
    pub assertion: Vec<String>,
    #[serde(skip)]
    pub program: Program,
}

/// A legal sequence and what its calls returned, to be checked again later.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RegressionTest {
    pub sequence: String,
    /// Per call, the `Debug` rendering of its result when it is a value that
    /// renders the same in two executions.
    pub observations: Vec<Option<String>>,
    /// How many of the last calls are observers added to check the final state.
    pub final_observers: usize,
    #[serde(skip)]
    pub program: Program,
}

/// What a random run did and found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RandomReport {
    /// The subject's Rust type.
    pub subject: String,
    pub engine: &'static str,
    pub seed: u64,
    /// New sequences executed.
    pub sequences: u64,
    /// Executed sequences that misused the API.
    pub illegal: u64,
    /// Assembled sequences dropped unexecuted, made before.
    pub redundant: u64,
    pub legal: u64,
    /// Sequences kept in the component set for reuse.
    pub stored: usize,
    pub failure_groups: Vec<FailureGroup>,
    pub regression_tests: Vec<RegressionTest>,
    pub seconds: f64,
    pub sequences_per_second: f64,
    /// `time limit`, `sequence limit`, `stuck` or why it was interrupted.
    pub stopped_by: String,
    pub contracts: Vec<String>,
    pub operations: Vec<OperationInfo>,
}
