//! Running calls: each call is classified (ok, misuse, failure) and the
//! contracts are checked on the values it touched.
//!
//! Variables hold `Arc<T>`: a stored sequence's final values are shared
//! with every sequence built on it, and a call takes its own copy (by
//! `Clone`) only of the values it uses. When a value is not shared, as in a
//! replay from scratch, it is moved without a copy.

use std::cell::RefCell;
use std::sync::Arc;

use regex::Regex;
use rustc_hash::FxHashSet;

use super::Contract;
use crate::api::{run_captured, set_current_operation, Access, Arg, Operation, Outcome, ParamKind, Returned};
use crate::beapi::fingerprint;
use crate::heap::{Heap, Linearizer};
use crate::sequence::{Call, Operand, Program};

/// A broken contract or an unexpected panic, after one call.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Failure {
    /// The contract's name; `no-panic` for a call that panicked.
    pub contract: String,
    /// The call after which it broke.
    pub op: u16,
    /// Where it panicked, for panics (in a call or in a contract check).
    pub location: Option<String>,
    pub message: String,
    /// The variables the failed check looked at (none for a panicking call).
    pub vars: Vec<u32>,
}

/// What failures are grouped by (MinUnit, thesis §8.2.1): the contract, the
/// last call and, for panics, where it panicked. A law over two or three
/// values (`Hash` agreeing with `==`, say) breaks because of how the values
/// differ, not because of the call that happened to come last, so those
/// failures are grouped without the call (`op` is `None`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupKey {
    pub contract: String,
    pub op: Option<u16>,
    pub location: Option<String>,
}

impl Failure {
    pub fn group_key(&self) -> GroupKey {
        let op = (self.vars.len() < 2).then_some(self.op);
        GroupKey { contract: self.contract.clone(), op, location: self.location.clone() }
    }
}

/// How one call went.
#[derive(Debug)]
pub enum CallResult {
    /// It returned normally and every contract holds. `int` is the integer
    /// it returned, `rendered` its `Debug` rendering when asked for.
    Ok {
        int: Option<i64>,
        rendered: Option<String>,
    },
    /// API misuse (an `Err`, a failed `assume!`, a panic declared as misuse)
    /// or an invalid use of variables: the sequence is dropped.
    Illegal,
    Failed(Failure),
}

/// How many untouched values a call's contracts compare the touched ones with.
const VALUES_AT_HAND: usize = 4;

/// The subject values of a sequence, by variable; `None` once moved.
pub type Values<T> = Vec<Option<Arc<T>>>;

/// Runs calls of one subject's operations and checks its contracts.
pub struct Executor<'a, T> {
    pub ops: &'a [Operation<T>],
    pub contracts: &'a [Box<dyn Contract<T>>],
    pub misuse: &'a [Regex],
    /// The subject's `Clone`, to copy a shared value.
    pub clone: Option<fn(&T) -> T>,
    /// When set, one-value checks are skipped for a value whose canonical
    /// form passed them before (state matching, as in BEAPI): they would
    /// see an isomorphic heap. Replays leave it off and check everything.
    pub checked: Option<RefCell<CheckedStates>>,
}

/// Canonical forms whose values passed every one-value check.
#[derive(Default)]
pub struct CheckedStates {
    lin: Option<Linearizer>,
    passed: FxHashSet<u128>,
    /// The fingerprints of the last call's touched values, for index pruning.
    pub last: Vec<(u32, u128)>,
}

impl CheckedStates {
    /// The fingerprint of `value`'s canonical form.
    fn fingerprint<T: Heap>(&mut self, value: &T) -> u128 {
        let lin = self.lin.get_or_insert_with(|| Linearizer::new(None));
        fingerprint(lin.linearize(value).expect("no object limit"))
    }
}

/// How a replayed program went: the index and result of the call that
/// stopped it, if one did, and each call's rendering.
#[derive(Debug)]
pub struct Replay {
    pub stopped: Option<(usize, CallResult)>,
    pub rendered: Vec<Option<String>>,
}

impl Replay {
    pub fn failure(&self) -> Option<&Failure> {
        match &self.stopped {
            Some((_, CallResult::Failed(f))) => Some(f),
            _ => None,
        }
    }
}

impl<'a, T> Executor<'a, T> {
    /// An executor that checks every contract on every call (for replays).
    pub fn new(
        ops: &'a [Operation<T>],
        contracts: &'a [Box<dyn Contract<T>>],
        misuse: &'a [Regex],
        clone: Option<fn(&T) -> T>,
    ) -> Self {
        Executor { ops, contracts, misuse, clone, checked: None }
    }

    /// The same executor, skipping one-value checks on canonical forms that
    /// passed them before, and fingerprinting every value a call touches.
    pub fn memoized(&self) -> Self {
        Executor { checked: Some(Default::default()), ..*self }
    }
}

impl<T: Heap> Executor<'_, T> {
    /// Runs `call` on `values`, then checks the contracts on what it touched.
    /// `touched` receives the variables the call used or bound.
    pub fn call(&self, values: &mut Values<T>, call: &Call, render: bool, touched: &mut Vec<u32>) -> CallResult {
        let op = &self.ops[usize::from(call.op)];
        touched.clear();
        let mut args = Vec::with_capacity(call.operands.len());
        // Values shared with stored sequences, copied inside the captured
        // call: `Clone` is user code too, and a panic in it is a failure.
        let mut shared: Vec<(usize, Arc<T>)> = Vec::new();
        for (operand, kind) in call.operands.iter().zip(&op.params) {
            match operand {
                Operand::Var(v) => {
                    let Some(value) = values.get_mut(*v as usize).and_then(Option::take) else {
                        return CallResult::Illegal; // moved before, or used twice in one call
                    };
                    match Arc::try_unwrap(value) {
                        Ok(owned) => args.push(Arg::Subject(owned)),
                        Err(value) if self.clone.is_some() => {
                            shared.push((args.len(), value));
                            args.push(Arg::Taken);
                        }
                        Err(_) => return CallResult::Illegal,
                    }
                    if !matches!(kind, ParamKind::Subject(Access::Owned)) {
                        touched.push(*v);
                    }
                }
                Operand::Literal(literal) => args.push(literal.to_arg()),
            }
        }
        set_current_operation(op.name);
        let outcome = run_captured(|| {
            if let Some(clone) = self.clone {
                for (slot, value) in &shared {
                    args[*slot] = Arg::Subject(clone(value));
                }
            }
            (op.invoke)(&mut args, render)
        });
        for (operand, arg) in call.operands.iter().zip(args) {
            if let (Operand::Var(v), Arg::Subject(value)) = (operand, arg) {
                values[*v as usize] = Some(Arc::new(value));
            }
        }
        let (int, rendered) = match outcome {
            Err(Outcome::AssumeFailed(_)) | Ok(Returned::Misuse(_)) => return CallResult::Illegal,
            Err(Outcome::Panicked(info)) => {
                if self.misuse.iter().any(|m| m.is_match(&info.message)) {
                    return CallResult::Illegal;
                }
                return CallResult::Failed(Failure {
                    contract: "no-panic".into(),
                    op: call.op,
                    location: info.location,
                    message: info.message,
                    vars: Vec::new(),
                });
            }
            Ok(Returned::Subject(value)) => {
                let var = call.binds.expect("a call returning a subject binds a variable") as usize;
                if values.len() <= var {
                    values.resize_with(var + 1, || None);
                }
                values[var] = Some(Arc::new(value));
                touched.push(var as u32);
                (None, None)
            }
            Ok(Returned::Value { rendered, int }) => (int, rendered),
            Ok(Returned::Unit) => (None, None),
        };
        match self.check(values, touched, call.op) {
            Some(failure) => CallResult::Failed(failure),
            None => CallResult::Ok { int, rendered },
        }
    }

    /// Checks every contract on the touched values, the pairs and the
    /// triples of live values that include one; the first break wins.
    fn check(&self, values: &Values<T>, touched: &[u32], op: u16) -> Option<Failure> {
        if let Some(checked) = &self.checked {
            checked.borrow_mut().last.clear();
        }
        if touched.is_empty() {
            return None;
        }
        // The values at hand: the touched ones and the most recent others,
        // so that checking pairs and triples stays cheap in long sequences.
        let mut live: Vec<u32> = (0..values.len() as u32)
            .rev()
            .filter(|&v| values[v as usize].is_some() && !touched.contains(&v))
            .take(VALUES_AT_HAND)
            .collect();
        live.extend_from_slice(touched);
        live.sort_unstable();
        let value = |v: u32| values[v as usize].as_deref().expect("live");
        // Touched values whose canonical form already passed the one-value checks.
        let mut fresh: Vec<(u32, u128)> = Vec::new();
        let mut known: Vec<u32> = Vec::new();
        if let Some(checked) = &self.checked {
            let mut checked = checked.borrow_mut();
            for &t in touched {
                let print = checked.fingerprint(value(t));
                checked.last.push((t, print));
                if checked.passed.contains(&print) {
                    known.push(t);
                } else {
                    fresh.push((t, print));
                }
            }
        }
        let failure = self.check_contracts(values, touched, &known, &live, op);
        if failure.is_none() {
            if let Some(checked) = &self.checked {
                checked.borrow_mut().passed.extend(fresh.into_iter().map(|(_, print)| print));
            }
        }
        failure
    }

    fn check_contracts(
        &self,
        values: &Values<T>,
        touched: &[u32],
        known: &[u32],
        live: &[u32],
        op: u16,
    ) -> Option<Failure> {
        let value = |v: u32| values[v as usize].as_deref().expect("live");
        let is_touched = |v: u32| touched.contains(&v);
        for contract in self.contracts {
            let mut looking_at: ([u32; 3], usize) = ([0; 3], 0);
            let verdict = run_captured(|| {
                for &t in touched.iter().filter(|t| !known.contains(t)) {
                    looking_at = ([t, 0, 0], 1);
                    contract.check_value(value(t))?;
                }
                for (i, &a) in live.iter().enumerate() {
                    for &b in &live[i + 1..] {
                        if is_touched(a) || is_touched(b) {
                            looking_at = ([a, b, 0], 2);
                            contract.check_pair(value(a), value(b))?;
                        }
                    }
                }
                if live.len() >= 3 {
                    for &a in live {
                        for &b in live {
                            for &c in live {
                                if a != b && b != c && a != c && (is_touched(a) || is_touched(b) || is_touched(c)) {
                                    looking_at = ([a, b, c], 3);
                                    contract.check_triple(value(a), value(b), value(c))?;
                                }
                            }
                        }
                    }
                }
                Ok::<(), String>(())
            });
            let (message, location) = match verdict {
                Ok(Ok(())) => continue,
                Ok(Err(message)) => (message, None),
                Err(Outcome::AssumeFailed(info) | Outcome::Panicked(info)) => {
                    (format!("the check panicked: {}", info.message), info.location)
                }
            };
            let vars = looking_at.0[..looking_at.1].to_vec();
            return Some(Failure { contract: contract.name().to_owned(), op, location, message, vars });
        }
        None
    }

    /// Whether every pair contract holds on `a` and `b` (a panic counts as a break).
    pub fn pair_holds(&self, a: &T, b: &T) -> bool {
        self.contracts.iter().all(|contract| matches!(run_captured(|| contract.check_pair(a, b)), Ok(Ok(()))))
    }

    /// Runs `program` from nothing, stopping at the first call that is not ok.
    pub fn replay(&self, program: &Program, render: bool) -> Replay {
        let mut values: Values<T> = Vec::new();
        let mut touched = Vec::new();
        let mut rendered = Vec::with_capacity(program.calls.len());
        for (index, call) in program.calls.iter().enumerate() {
            match self.call(&mut values, call, render, &mut touched) {
                CallResult::Ok { rendered: r, .. } => rendered.push(r),
                other => return Replay { stopped: Some((index, other)), rendered },
            }
        }
        Replay { stopped: None, rendered }
    }
}
