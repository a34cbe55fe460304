//! What branch-directed generation did (random's branch phase): each
//! frontier branch it tried, how, and whether it was flipped.

use super::Witness;
use crate::edges::FrontierBranch;

/// The branch phase of a random run, once it ended.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Branching {
    /// The crate's edges taken when the phase began, and when it ended.
    pub edges_before: u64,
    pub edges_after: u64,
    pub seconds: f64,
    /// Candidate sequences run, each from scratch.
    pub candidates: u64,
    /// Each frontier branch tried, in the order tried.
    pub branches: Vec<BranchTried>,
    /// What each strategy tried and flipped, in [`Strategy`] order.
    pub strategies: Vec<StrategyTally>,
}

impl Branching {
    /// Branches a flip is expected for ([`BranchTried::expected`]), and those flipped.
    pub fn flip_rate(&self) -> (usize, usize) {
        let targets = self.branches.iter().filter(|b| b.expected());
        let flipped = targets.clone().filter(|b| b.flip.is_some()).count();
        (targets.count(), flipped)
    }
}

/// A frontier branch the phase tried to flip.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BranchTried {
    /// The branch as the frontier had it when it was first tried.
    pub branch: FrontierBranch,
    /// Sequences whose calls reached it (a trace leaves out the checks
    /// between calls), which candidates were made from.
    pub witnesses: u32,
    /// Candidates run for it.
    pub candidates: u64,
    pub flip: Option<Flip>,
    /// It is in the subject's invariant (`rep_ok`): the oracle's code,
    /// whose side not taken is a broken structure.
    #[serde(default)]
    pub invariant: bool,
}

impl BranchTried {
    /// Whether it is a condition of the code under test that a correct
    /// crate has an input for: a call of the API reached it (not only the
    /// checks and copies between calls: the invariant, a derived `Clone`),
    /// it is not the invariant's, and its side not taken does not only panic.
    pub fn expected(&self) -> bool {
        self.witnesses > 0 && !self.invariant && !self.branch.to_panic
    }
}

/// A sequence that took a side of a branch no sequence had taken.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Flip {
    pub strategy: Strategy,
    /// The sequence (its `input` is the program).
    pub witness: Witness,
    /// Whether the sequence, run again from scratch in a fresh worker,
    /// took the side too; `None` when not checked (no worker).
    #[serde(default)]
    pub confirmed: Option<bool>,
}

/// How a candidate was made from a witness (thesis §8.4, and the
/// comparisons' operands, which its data-flow analysis lacked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// An argument equal to one operand of the branch's comparison set to the other.
    OtherOperand,
    /// An argument set next to (±1) the other operand.
    NextToOperand,
    /// An argument a `match` was made on set to a case not taken, or past the cases.
    MatchCase,
    /// An argument equal to an operand of any comparison the witness made set to the other operand.
    OperandElsewhere,
    /// An integer argument negated (thesis).
    Negate,
    /// A constant added to an integer argument (thesis).
    AddConstant,
    /// A value replaced by another of the same type made earlier in the sequence (thesis).
    SwapVariable,
    /// An argument in which two runs that took different sides differ,
    /// bisected (a threshold compared in a way the comparisons do not show).
    Bisect,
    /// The witness's last call made on the value another sequence left: a
    /// flip's first (a branch behind another), then the stored sequences'.
    OtherValue,
}

impl Strategy {
    pub const ALL: [Strategy; 9] = [
        Strategy::OtherOperand,
        Strategy::NextToOperand,
        Strategy::MatchCase,
        Strategy::OperandElsewhere,
        Strategy::Negate,
        Strategy::AddConstant,
        Strategy::SwapVariable,
        Strategy::Bisect,
        Strategy::OtherValue,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::OtherOperand => "other-operand",
            Strategy::NextToOperand => "next-to-operand",
            Strategy::MatchCase => "match-case",
            Strategy::OperandElsewhere => "operand-elsewhere",
            Strategy::Negate => "negate",
            Strategy::AddConstant => "add-constant",
            Strategy::SwapVariable => "swap-variable",
            Strategy::Bisect => "bisect",
            Strategy::OtherValue => "other-value",
        }
    }
}

/// One strategy's candidates, and the branches it flipped first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StrategyTally {
    pub strategy: Strategy,
    pub candidates: u64,
    pub flips: u64,
}
