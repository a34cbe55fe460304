//! [`BeapiReport`]: what a run found.

use crate::api::{OperationInfo, PanicInfo};
use crate::sequence::{Output, Program, Step, StepArg};

/// One structure, with the last call of the shortest sequence that builds it.
///
/// Shortest means in BFS levels, as in the BEAPI paper: a call made at level
/// `k` takes structures made at levels below `k`. When every builder takes at
/// most one structure, the level is the number of calls; when a builder
/// combines two structures (`merge(&mut self, other: &Self)`), the rebuilding
/// program has the calls of both inputs and may be longer than the level.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Structure {
    /// The BFS level at which it was first made.
    pub level: u32,
    pub step: Step,
    /// Its canonical text, when the run recorded it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical: Option<String>,
}

/// What went wrong in a failing call.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum FailureKind {
    /// The call panicked.
    Panic { panic: PanicInfo },
    /// `rep_ok` returned false on a structure the call made.
    RepOkFalse { operation: String },
    /// `rep_ok` itself panicked.
    RepOkPanic { operation: String, panic: PanicInfo },
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FailureKind::Panic { panic } => write!(f, "panic: {panic}"),
            FailureKind::RepOkFalse { operation } => {
                write!(f, "rep_ok returned false after `{operation}`")
            }
            FailureKind::RepOkPanic { operation, panic } => {
                write!(f, "rep_ok panicked after `{operation}`: {panic}")
            }
        }
    }
}

/// Failing sequences that fail the same way, with the shortest one as witness.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FailureGroup {
    pub kind: FailureKind,
    /// How many explored sequences failed this way.
    pub count: u64,
    /// The first failing call found: its level is minimal.
    pub level: u32,
    pub op: u16,
    pub args: Vec<StepArg>,
    /// Which value of the call broke `rep_ok`; `None` when the call panicked.
    pub output: Option<Output>,
}

/// Counts for one level (sequence length).
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct LevelStats {
    pub level: u32,
    /// Structures first made at this level.
    pub structures: usize,
    /// Sequences executed at this level.
    pub explored: u64,
    pub seconds: f64,
}

/// The result of a BEAPI run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BeapiReport {
    /// The subject's Rust type.
    pub subject: String,
    pub scope: u32,
    /// The API, in declaration order; steps refer to it by index.
    pub operations: Vec<OperationInfo>,
    /// Names of the operations used to extend sequences.
    pub builders: Vec<String>,
    pub structures: Vec<Structure>,
    pub levels: Vec<LevelStats>,
    /// Sequences executed.
    pub explored: u64,
    /// Sequences dropped as API misuse.
    pub misuses: u64,
    /// Sequences dropped because a structure passed the scope.
    pub out_of_scope: u64,
    pub failures: Vec<FailureGroup>,
    pub seconds: f64,
    /// The time limit stopped the run before the last level was done.
    pub timed_out: bool,
    /// Why a [`Progress`](super::Progress) stopped the run, if it did.
    pub interrupted: Option<String>,
    /// Things the user should know, e.g. that `Clone` was shallow and replay was used.
    pub notes: Vec<String>,
}

impl BeapiReport {
    /// How many distinct structures were generated.
    pub fn structure_count(&self) -> usize {
        self.structures.len()
    }

    /// How many sequences failed, over all groups.
    pub fn failure_count(&self) -> u64 {
        self.failures.iter().map(|f| f.count).sum()
    }

    /// The calls that rebuild structure `index`.
    pub fn program(&self, index: usize) -> Program {
        Program::unroll(&self.structures[index].step, &|s| &self.structures[s as usize].step)
    }

    /// The calls that reproduce failure group `index`, ending in the failing
    /// call; its `result` is the variable holding the broken value, if any.
    pub fn failure_program(&self, index: usize) -> Program {
        let failure = &self.failures[index];
        Program::unroll_call(failure.op, &failure.args, failure.output, &|s| &self.structures[s as usize].step)
    }

    /// Which slot of its last call holds structure `index`.
    pub fn output_of(&self, index: usize) -> Output {
        self.structures[index].step.output
    }
}
