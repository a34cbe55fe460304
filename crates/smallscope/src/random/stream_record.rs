//! What one stream of a random run found: data the events carry, below the
//! engine (the events name it; it names their leaves only).

use super::{GroupKey, RegressionTest};
use crate::events::{Counts, Failure, Stop};

/// A stream of a random run, done (see `smallscope::random`'s streams):
/// its counts, each failure group's key and final report (the simplified
/// witness), and its regression tests, in the order it made them.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StreamRecord {
    /// The stream's number, from 0.
    pub stream: u32,
    /// Why it ended: its own limits, or what ended the run early.
    pub stop: Stop,
    pub seconds: f64,
    pub counts: Counts,
    pub groups: Vec<StreamGroup>,
    pub regression_tests: Vec<RegressionTest>,
    pub notes: Vec<String>,
}

/// A failure group of a stream: its key, which tells it apart across streams.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StreamGroup {
    pub key: GroupKey,
    pub failure: Failure,
}
