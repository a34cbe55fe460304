//! Failures: what kind, during which user code, the input that shows it
//! (a witness to replay), and the groups an engine counts them in.

use super::{During, FailureKind};
use crate::sequence::{Output, Program, Step, StepArg};

/// A failure group: inputs that fail the same way, with the smallest witness.
///
/// One type for every engine. An engine reports a group when it first finds
/// it; it may report the same `group` again with a smaller witness (random
/// testing simplifies its witnesses at the end), and the last report wins.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Failure {
    /// The group's number in the stream, from 0.
    pub group: u32,
    pub kind: FailureKind,
    pub during: During,
    /// The operation the failing input ended with (the call that panicked,
    /// or after which a check failed), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// The broken contract (random testing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    pub message: String,
    /// `file:line:column` of a panic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Failing inputs found in this group so far.
    pub count: u64,
    pub witness: Witness,
    /// The command that reproduces the failure, when the run came from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
    /// Random testing: sizes of the witness as first found, smallest found and simplified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shrink: Option<Shrink>,
    /// Rust statements that fail on the witness's final values (random
    /// testing; empty for panics).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assertion: Vec<String>,
    /// A picture (Graphviz DOT) of the structure just before the failing
    /// call, or of the structure whose `Clone` or `Drop` failed, when the
    /// run draws pictures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
    /// A picture of what the failing call left, to set beside `picture`:
    /// the structure `rep_ok` failed on after the call, or what a panic in
    /// the call left of its receiver.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture_after: Option<String>,
}

impl Failure {
    /// The first report of group `group`: one failing input, `witness`. The
    /// engine fills in what else it knows.
    pub fn new(group: u32, kind: FailureKind, during: During, message: String, witness: Witness) -> Self {
        Failure {
            group,
            kind,
            during,
            operation: None,
            contract: None,
            message,
            location: None,
            count: 1,
            witness,
            replay: None,
            shrink: None,
            assertion: Vec::new(),
            picture: None,
            picture_after: None,
        }
    }

    /// Adds this report to `groups`: a new group, or a later report of a
    /// known one (a smaller witness), which replaces it.
    pub fn fold_into(self, groups: &mut Vec<Failure>) {
        match groups.get_mut(self.group as usize) {
            Some(known) => *known = self,
            None => groups.push(self),
        }
    }

    /// Sets each group's count from a progress or finish event's counts.
    pub fn take_counts(groups: &mut [Failure], counts: &[u64]) {
        for (failure, count) in groups.iter_mut().zip(counts) {
            failure.count = *count;
        }
    }

    /// The BFS level of a BEAPI witness call.
    pub fn level(&self) -> Option<u32> {
        match self.witness.input {
            Input::Call { level, .. } => Some(level),
            _ => None,
        }
    }

    /// What failed, without the message: ``panic in `add` `` or
    /// ``rep_ok returned false after `remove` ``.
    pub fn headline(&self) -> String {
        // Checks of a value name the call that made it.
        let (code, after_call) = match self.during {
            During::Call => (self.operation.as_ref().map_or("a call".to_owned(), |op| format!("`{op}`")), false),
            During::Clone => ("`Clone`".to_owned(), false),
            During::Drop => ("`Drop`".to_owned(), false),
            During::RepOk => ("rep_ok".to_owned(), true),
            During::EqClass => ("eq_class".to_owned(), false),
            // A contract's name is kebab case; a Korat check is a Rust function.
            During::Check => match self.contract.as_deref() {
                Some(name) if !name.contains('-') => (format!("`{name}`"), true),
                name => (format!("the {} check", name.unwrap_or("contract")), true),
            },
            During::Convert => ("the conversion of a candidate".to_owned(), false),
        };
        let after = match (&self.operation, after_call) {
            (Some(op), true) => format!(" after `{op}`"),
            _ => String::new(),
        };
        match (self.kind, self.during) {
            (FailureKind::RepOkFalse, _) => format!("rep_ok returned false{after}"),
            (FailureKind::Contract, _) => format!("{} broken{after}", self.contract.as_deref().unwrap_or("a contract")),
            (FailureKind::Panic, During::Call) => format!("panic in {code}"),
            (FailureKind::Panic, _) => format!("{code} panicked{after}"),
            (kind, _) => format!("{kind} in {code}{after}"),
        }
    }

    /// The failure on one line, e.g. ``panic in `add`: index out of
    /// bounds at src/x.rs:3:5`` or ``rep_ok returned false after `remove` ``.
    pub fn describe(&self) -> String {
        let what = self.headline();
        let message = self.message.lines().next().unwrap_or("");
        let location = self.location.as_deref().map(|l| format!(" at {l}")).unwrap_or_default();
        match self.kind {
            FailureKind::RepOkFalse => what,
            _ => format!("{what}: {message}{location}"),
        }
    }
}

/// How far a witness was shrunk (random testing), in calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shrink {
    pub first: usize,
    pub smallest: usize,
    pub simplified: usize,
}

/// The input that shows a failure.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Witness {
    /// The input on one line: `s0 = new(); s0.add(1)`, or a candidate's fields.
    pub text: String,
    /// Calls in it (0 for a candidate).
    pub calls: usize,
    pub input: Input,
}

/// A witness input, in the form its engine rebuilds it from.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    /// BEAPI: a call at `level` on earlier structures (by index) and
    /// literals; `output` names the value that broke, if one did.
    Call { level: u32, op: u16, args: Vec<StepArg>, output: Option<Output> },
    /// BEAPI: a structure itself, whose `Clone` or `Drop` failed.
    Structure { index: u64 },
    /// Straight-line calls (random testing).
    Program(Program),
    /// A Korat candidate's field values, as in [`Rebuild::Candidate`](super::Rebuild::Candidate).
    Candidate(Vec<Option<i64>>),
}

impl Input {
    /// The calls that make this input, given the last step of each BEAPI
    /// structure (none for a Korat candidate). For a failing call, its
    /// `result` is the variable of the broken value, if any.
    pub fn program<'a>(&'a self, step_of: &dyn Fn(u32) -> &'a Step) -> Program {
        match self {
            Input::Call { op, args, output, .. } => Program::unroll_call(*op, args, *output, step_of),
            Input::Structure { index } => Program::unroll(step_of(*index as u32), step_of),
            Input::Program(program) => program.clone(),
            Input::Candidate(_) => Program::default(),
        }
    }
}

/// Failing inputs as an engine counts them, in groups of one key each; a
/// group's number is its place in the order the groups were opened.
#[derive(Debug, Clone)]
pub struct FailureGroups<K> {
    groups: Vec<(K, u64)>,
}

impl<K> Default for FailureGroups<K> {
    fn default() -> Self {
        FailureGroups { groups: Vec::new() }
    }
}

impl<K> FailureGroups<K> {
    /// Counts one more input in the group `matches` picks; false if none
    /// does (then [`open`](Self::open) one). Nothing is built for an input
    /// of a known group.
    pub fn count_in(&mut self, matches: impl Fn(&K) -> bool) -> bool {
        match self.groups.iter_mut().find(|(key, _)| matches(key)) {
            Some((_, count)) => {
                *count += 1;
                true
            }
            None => false,
        }
    }

    /// Opens a group of one input; its number.
    pub fn open(&mut self, key: K) -> u32 {
        self.groups.push((key, 1));
        self.groups.len() as u32 - 1
    }

    /// Each group's count, in group order (as [`Progress::group_counts`]).
    pub fn counts(&self) -> Vec<u64> {
        self.groups.iter().map(|(_, count)| *count).collect()
    }
}

impl<K> FromIterator<(K, u64)> for FailureGroups<K> {
    fn from_iter<I: IntoIterator<Item = (K, u64)>>(groups: I) -> Self {
        FailureGroups { groups: groups.into_iter().collect() }
    }
}
