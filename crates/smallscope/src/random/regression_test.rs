//! A regression test a random run keeps: data the events carry, below the
//! engine (the events name it; it names only the sequences it holds).

use crate::sequence::Program;

/// A legal sequence and what its calls returned, to be checked again later.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RegressionTest {
    pub sequence: String,
    /// Per call, the `Debug` rendering of its result when it is a value that
    /// renders the same in every execution.
    pub observations: Vec<Option<String>>,
    /// How many of the last calls are observers added to check the final state.
    pub final_observers: usize,
    pub program: Program,
}
