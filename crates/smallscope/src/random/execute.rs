//! Running calls: each call is classified (ok, misuse, failure) and the
//! contracts are checked on the values it touched.
//!
//! Variables hold `Arc<T>`: a stored sequence's final values are shared
//! with every sequence built on it, and a call takes its own copy (by
//! `Clone`) only of the values it uses. When a value is not shared, as in a
//! replay from scratch, it is moved without a copy.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use regex::Regex;
use rustc_hash::FxHashSet;

use super::{Contract, GroupKey};
use crate::api::{Access, Arg, HandleValue, Operation, ParamKind, Returned};
use crate::beapi::fingerprint;
use crate::events::{During, FailureKind};
use crate::heap::{CloneAudit, Heap, Linearizer};
use crate::runner::{flight, run_captured, Address, Killed, Outcome, SafeDrop, UserCode};
use crate::sequence::{Call, Operand, Program};

/// A broken contract, an unexpected panic, or user code that killed or hung
/// an earlier attempt, after one call.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Broken {
    /// How it broke: `Panic` for a panic (in a call or a check), `Contract`
    /// for a check that failed, or what killed the process.
    pub kind: FailureKind,
    /// The user code that broke.
    pub during: During,
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

impl Broken {
    pub fn group_key(&self) -> GroupKey {
        let op = (self.vars.len() < 2).then_some(self.op);
        let contract = match self.kind {
            FailureKind::Panic | FailureKind::Contract | FailureKind::RepOkFalse => self.contract.clone(),
            // What killed the process names the group, with the code it was in.
            kind => format!("{}-in-{}", kind.name(), self.during.name()),
        };
        GroupKey { contract, op, location: self.location.clone() }
    }

    /// A break of the call of `op` itself (no contract), with no values looked at.
    pub fn of_call(kind: FailureKind, during: During, op: u16, message: String, location: Option<String>) -> Broken {
        Broken { kind, during, contract: "no-panic".into(), op, location, message, vars: Vec::new() }
    }

    /// A break recorded for an input that killed an earlier attempt.
    pub fn killed(killed: &Killed, contracts: &[String]) -> Broken {
        let contract = match killed.during {
            During::Check => contract_of(killed.address.detail)
                .and_then(|i| contracts.get(i).cloned())
                .unwrap_or_else(|| "a contract".into()),
            _ => "no-panic".into(),
        };
        Broken {
            kind: killed.kind,
            during: killed.during,
            contract,
            op: killed.op,
            location: None,
            message: killed.message.clone(),
            vars: Vec::new(),
        }
    }

    /// An input that killed an earlier attempt and returned when run again.
    pub fn flaky(killed: &Killed, contracts: &[String]) -> Broken {
        Broken { kind: FailureKind::Flaky, message: killed.flaky_message(), ..Broken::killed(killed, contracts) }
    }
}

/// The detail of an address: the index of the call in its flattened
/// sequence, and for a check, which contract ran (+1) in the high half.
pub fn detail(call: usize, contract: Option<usize>) -> u64 {
    call as u64 | contract.map_or(0, |c| (c as u64 + 1) << 32)
}

/// The call index of an address's detail.
pub fn call_of(detail: u64) -> usize {
    (detail & 0xffff_ffff) as usize
}

fn contract_of(detail: u64) -> Option<usize> {
    (detail >> 32).checked_sub(1).map(|c| c as usize)
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
    Failed(Broken),
    /// A shared value's `Clone` was found to share objects with it (a
    /// derived `Clone` over `Rc`s): a call on the copy would change the
    /// stored value too. Cloning is now off; run the sequence again, by replay.
    ShallowClone,
}

/// Attempts a contract may kill (each on a value of its own) before it is
/// switched off for the rest of the run.
pub const KILLS_TO_SWITCH_OFF: usize = 2;

/// How many untouched values a call's contracts compare the touched ones with.
const VALUES_AT_HAND: usize = 4;

/// The subject's `Clone`, as a function.
pub type CloneFn<T> = fn(&T) -> T;

/// A subject value shared between sequences; its `Drop` is captured.
pub type Shared<T> = Arc<SafeDrop<T>>;

/// The subject values of a sequence, by variable; `None` once moved.
pub type Values<T> = Vec<Option<Shared<T>>>;

/// The handles a sequence's calls returned, by the call's index in the
/// flattened sequence (see [`ParamKind::Handle`]).
pub type Handles = Vec<Option<HandleValue>>;

/// Runs calls of one subject's operations and checks its contracts.
pub struct Executor<'a, T> {
    pub ops: &'a [Operation<T>],
    pub contracts: &'a [Box<dyn Contract<T>>],
    pub misuse: &'a [Regex],
    /// The subject's `Clone`, to copy a shared value; switched off when it
    /// killed an earlier attempt.
    pub clone: Cell<Option<CloneFn<T>>>,
    /// Checks the first copies for objects shared with their originals.
    clone_audit: Cell<CloneAudit>,
    /// Where the next calls are, for the flight recorder: the run and input
    /// of the address; each call adds its index as the detail.
    pub at: Cell<Address>,
    /// Inputs that killed an earlier attempt: a replay stops there.
    pub killed: &'a [Killed],
    /// Fingerprints of values whose checks killed an earlier attempt.
    pub poisoned: RefCell<Vec<(u128, Broken)>>,
    /// Contracts not checked any more: each killed [`KILLS_TO_SWITCH_OFF`]
    /// earlier attempts (a derived `Debug` on a cyclic heap overflows the
    /// stack on every cyclic value; one restart per value would never end).
    pub switched_off: Vec<usize>,
    /// Replays so far, numbering their addresses.
    replays: Cell<u64>,
    /// Added to every stage's run number in addresses (see [`Executor::numbered_from`]).
    run_base: u64,
    /// When set, one-value checks are skipped for a value whose canonical
    /// form passed them before (state matching, as in BEAPI): they would
    /// see an isomorphic heap. Replays leave it off and check everything.
    pub checked: Option<RefCell<CheckedStates>>,
    /// The vectors each call fills, kept from one call to the next: a call
    /// is a few hundred instructions, and each allocation and free about 80.
    buffers: Cell<CallBuffers<T>>,
}

/// See [`Executor::buffers`]; all empty between calls.
struct CallBuffers<T> {
    args: Vec<Arg<T>>,
    live: Vec<u32>,
    single: Vec<(u32, Option<u128>)>,
}

impl<T> Default for CallBuffers<T> {
    fn default() -> Self {
        CallBuffers { args: Vec::new(), live: Vec::new(), single: Vec::new() }
    }
}

/// States (canonical forms with omitted fields) whose values passed every one-value check.
#[derive(Default)]
pub struct CheckedStates {
    lin: Option<Linearizer>,
    pub passed: FxHashSet<u128>,
    /// Passed since the last commit, for the journal.
    pub new_passed: Vec<u128>,
    /// The prints of the last call's touched values, for index pruning.
    pub last: Vec<TouchedPrint>,
}

/// The vectors a generator fills as it runs one sequence's calls, kept from
/// one sequence to the next.
#[derive(Default)]
pub struct SequenceBuffers {
    /// The variables the last call used or bound.
    pub touched: Vec<u32>,
    /// Those of every new call.
    pub all_touched: Vec<u32>,
    /// Integers the new calls returned.
    pub returned_ints: Vec<i64>,
    /// Canonical-form fingerprints of touched values, latest last.
    pub prints: Vec<TouchedPrint>,
}

impl SequenceBuffers {
    pub fn clear(&mut self) {
        self.touched.clear();
        self.all_touched.clear();
        self.returned_ints.clear();
        self.prints.clear();
    }
}

/// A touched value's state fingerprint, and its size.
#[derive(Debug, Clone, Copy)]
pub struct TouchedPrint {
    pub var: u32,
    pub print: u128,
    /// Objects reachable from the value, itself included.
    pub objects: u32,
}

impl CheckedStates {
    /// The fingerprint of `value`'s state (its canonical form with the
    /// `#[heap(omit)]` fields, so that values differing there are not
    /// merged), and its object count.
    fn fingerprint<T: Heap>(&mut self, value: &T) -> (u128, u32) {
        let lin = self.lin.get_or_insert_with(|| Linearizer::new(None).every_field());
        let print = fingerprint(lin.linearize(value).expect("no object limit"));
        (print, lin.objects())
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
    pub fn failure(&self) -> Option<&Broken> {
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
        clone: Option<CloneFn<T>>,
        killed: &'a [Killed],
    ) -> Self {
        Executor {
            ops,
            contracts,
            misuse,
            clone: Cell::new(clone),
            clone_audit: Cell::new(CloneAudit::default()),
            at: Cell::new(Address::default()),
            killed,
            poisoned: RefCell::new(Vec::new()),
            switched_off: (0..contracts.len())
                .filter(|&c| {
                    let kills =
                        killed.iter().filter(|k| k.during == During::Check && contract_of(k.address.detail) == Some(c));
                    kills.count() >= KILLS_TO_SWITCH_OFF
                })
                .collect(),
            replays: Cell::new(0),
            run_base: 0,
            checked: None,
            buffers: Cell::default(),
        }
    }

    /// The same executor, skipping one-value checks on canonical forms that
    /// passed them before, and fingerprinting every value a call touches.
    pub fn memoized(&self) -> Self {
        let mut exec = Self::new(self.ops, self.contracts, self.misuse, self.clone.get(), self.killed);
        exec.checked = Some(Default::default());
        exec.run_base = self.run_base;
        exec
    }

    /// Numbers its addresses' runs from `base`, so that a random run inside
    /// another engine's job (observer detection) has addresses of its own.
    pub fn numbered_from(mut self, base: u64) -> Self {
        self.run_base = base;
        self
    }

    /// Later calls are at `run` and `input` in addresses.
    pub fn locate(&self, run: u64, input: u64) {
        self.at.set(Address { run: self.run_base + run, input, detail: 0 });
    }

    /// Later calls are those of the next replay of stage `run`.
    pub fn locate_next(&self, run: u64) {
        self.replays.set(self.replays.get() + 1);
        self.locate(run, self.replays.get());
    }

    /// The address of call `index` (and contract `contract`, for a check).
    fn address(&self, index: usize, contract: Option<usize>) -> Address {
        Address { detail: detail(index, contract), ..self.at.get() }
    }

    /// The names of the contracts, by index.
    pub fn contract_names(&self) -> Vec<String> {
        self.contracts.iter().map(|c| c.name().to_owned()).collect()
    }

    /// The name of the contract that `killed` switched off: the contract it
    /// killed in, when this was the last kill that switching it off counts.
    pub fn switched_off_by(&self, killed: &Killed) -> Option<&str> {
        let contract = contract_of(killed.address.detail).filter(|c| self.switched_off.contains(c))?;
        let last = self
            .killed
            .iter()
            .rfind(|k| k.during == During::Check && contract_of(k.address.detail) == Some(contract))?;
        std::ptr::eq(last, killed).then(|| self.contracts[contract].name())
    }

    /// The input at call `index` killed an earlier attempt, if it did:
    /// confirmed (to step past) or not (to run again).
    pub fn killed_at(&self, index: usize, confirmed: bool) -> Option<&'a Killed> {
        if self.killed.is_empty() {
            return None;
        }
        let here = self.address(index, None);
        self.killed.iter().find(|k| {
            k.confirmed == confirmed
                && k.address.run == here.run
                && k.address.input == here.input
                && call_of(k.address.detail) == index
        })
    }

    /// Whether operation `op` is quarantined in sequences after the
    /// `input`th of stage `run`: it kept killing the worker before.
    pub fn quarantined(&self, op: u16, run: u64, input: u64) -> bool {
        self.quarantined_at(op, Address { run: self.run_base + run, input, detail: 0 })
    }

    fn quarantined_at(&self, op: u16, here: Address) -> bool {
        !self.killed.is_empty() && Killed::quarantined(self.killed, here).any(|k| k.op == op)
    }
}

impl<T: Heap> Executor<'_, T> {
    /// Runs `call`, call `index` of its sequence, on `values` and the
    /// `handles` calls before it returned (adding the one it returns), then
    /// checks the contracts on what it touched. `touched` receives the
    /// variables the call used or bound.
    pub fn call(
        &self,
        values: &mut Values<T>,
        handles: &mut Handles,
        call: &Call,
        index: usize,
        render: bool,
        touched: &mut Vec<u32>,
    ) -> CallResult {
        let op = &self.ops[usize::from(call.op)];
        touched.clear();
        let mut buffers = self.buffers.take();
        let mut args = std::mem::take(&mut buffers.args);
        // Values shared with stored sequences, copied inside the captured
        // call: `Clone` is user code too, and a panic in it is a failure.
        let mut shared: Vec<(usize, Shared<T>)> = Vec::new();
        for (operand, kind) in call.operands.iter().zip(&op.params) {
            match operand {
                Operand::Var(v) => {
                    let Some(value) = values.get_mut(*v as usize).and_then(Option::take) else {
                        return CallResult::Illegal; // moved before, or used twice in one call
                    };
                    match Arc::try_unwrap(value) {
                        Ok(owned) => args.push(Arg::Subject(owned.into_inner())),
                        Err(value) if self.clone.get().is_some() => {
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
                Operand::Returned(from) => match handles.get(*from as usize).cloned().flatten() {
                    Some(handle) => args.push(Arg::Handle(handle)),
                    None => return CallResult::Illegal,
                },
            }
        }
        flight::position(self.address(index, None));
        if let Some(clone) = self.clone.get().filter(|_| !shared.is_empty()) {
            // `Clone` is user code too: a panic in it is a failure of its own.
            let copied = run_captured(UserCode::new(During::Clone, call.op), || {
                for (slot, value) in &shared {
                    args[*slot] = Arg::Subject(clone(value));
                }
            });
            if let Err(Outcome::Panicked(info) | Outcome::AssumeFailed(info)) = copied {
                let broken = Broken::of_call(FailureKind::Panic, During::Clone, call.op, info.message, info.location);
                return CallResult::Failed(broken);
            }
            if self.copies_share_objects(&shared, &args) {
                self.clone.set(None);
                // The copies' `Drop` could free what the originals still use.
                std::mem::forget(args);
                return CallResult::ShallowClone;
            }
        }
        let outcome = run_captured(UserCode::call(call.op), || op.call(&mut args, render));
        for (operand, arg) in call.operands.iter().zip(args.drain(..)) {
            if let (Operand::Var(v), Arg::Subject(value)) = (operand, arg) {
                values[*v as usize] = Some(Arc::new(SafeDrop::new(value)));
            }
        }
        // An early return leaves the buffers to the allocator: the rare paths.
        buffers.args = args;
        self.buffers.set(buffers);
        let (int, rendered) = match outcome {
            Err(Outcome::AssumeFailed(_)) | Ok(Returned::Misuse(_)) => return CallResult::Illegal,
            Err(Outcome::Panicked(info)) => {
                if self.misuse.iter().any(|m| m.is_match(&info.message)) {
                    return CallResult::Illegal;
                }
                return CallResult::Failed(Broken::of_call(
                    FailureKind::Panic,
                    During::Call,
                    call.op,
                    info.message,
                    info.location,
                ));
            }
            Ok(Returned::Subject(value)) => {
                let var = call.binds.expect("a call returning a subject binds a variable") as usize;
                if values.len() <= var {
                    values.resize_with(var + 1, || None);
                }
                values[var] = Some(Arc::new(SafeDrop::new(value)));
                touched.push(var as u32);
                (None, None)
            }
            Ok(Returned::Value { rendered, int, handle }) => {
                if let Some(handle) = handle {
                    if handles.len() <= index {
                        handles.resize(index + 1, None);
                    }
                    handles[index] = Some(handle);
                }
                (int, rendered)
            }
            Ok(Returned::Unit) => (None, None),
        };
        match self.check(values, touched, call.op, index) {
            Some(failure) => CallResult::Failed(failure),
            None => CallResult::Ok { int, rendered },
        }
    }

    /// Checks every contract on the touched values, the pairs and the
    /// triples of live values that include one; the first break wins.
    fn check(&self, values: &Values<T>, touched: &[u32], op: u16, index: usize) -> Option<Broken> {
        if let Some(checked) = &self.checked {
            checked.borrow_mut().last.clear();
        }
        if touched.is_empty() {
            return None;
        }
        // The values at hand: the touched ones and the most recent others,
        // so that checking pairs and triples stays cheap in long sequences.
        let mut buffers = self.buffers.take();
        let mut live = std::mem::take(&mut buffers.live);
        live.extend(
            (0..values.len() as u32)
                .rev()
                .filter(|&v| values[v as usize].is_some() && !touched.contains(&v))
                .take(VALUES_AT_HAND),
        );
        live.extend_from_slice(touched);
        live.sort_unstable();
        let value = |v: u32| -> &T { values[v as usize].as_deref().expect("live") };
        // The touched values the one-value checks still have to see, with
        // their canonical print when checks are memoized: a print that
        // passed before is not checked again.
        let mut single = std::mem::take(&mut buffers.single);
        match &self.checked {
            None => single.extend(touched.iter().map(|&t| (t, None))),
            Some(checked) => {
                let mut checked = checked.borrow_mut();
                for &t in touched {
                    let (print, objects) = checked.fingerprint(value(t));
                    checked.last.push(TouchedPrint { var: t, print, objects });
                    if let Some((_, broken)) = self.poisoned.borrow().iter().find(|(p, _)| *p == print) {
                        // Its checks killed an earlier attempt: not again.
                        return Some(Broken { op, vars: vec![t], ..broken.clone() });
                    }
                    if !checked.passed.contains(&print) {
                        single.push((t, Some(print)));
                    }
                }
            }
        }
        let failure = self.check_contracts(values, touched, &live, op, index, &single);
        if failure.is_none() {
            if let Some(checked) = &self.checked {
                let mut checked = checked.borrow_mut();
                for print in single.iter().filter_map(|&(_, print)| print) {
                    if checked.passed.insert(print) {
                        checked.new_passed.push(print);
                    }
                }
            }
        }
        live.clear();
        single.clear();
        self.buffers.set(CallBuffers { live, single, ..buffers });
        failure
    }

    fn check_contracts(
        &self,
        values: &Values<T>,
        touched: &[u32],
        live: &[u32],
        op: u16,
        index: usize,
        single: &[(u32, Option<u128>)],
    ) -> Option<Broken> {
        let value = |v: u32| -> &T { values[v as usize].as_deref().expect("live") };
        let is_touched = |v: u32| touched.contains(&v);
        for (c, contract) in self.contracts.iter().enumerate() {
            if self.switched_off.contains(&c) {
                continue;
            }
            let mut looking_at: ([u32; 3], usize) = ([0; 3], 0);
            flight::position(self.address(index, Some(c)));
            let verdict = run_captured(UserCode::new(During::Check, op), || {
                for &(t, print) in single {
                    looking_at = ([t, 0, 0], 1);
                    if let Some(print) = print {
                        flight::set_print(print);
                    }
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
            let (kind, message, location) = match verdict {
                Ok(Ok(())) => continue,
                Ok(Err(message)) => (FailureKind::Contract, message, None),
                Err(Outcome::AssumeFailed(info) | Outcome::Panicked(info)) => {
                    (FailureKind::Panic, format!("the check panicked: {}", info.message), info.location)
                }
            };
            let vars = looking_at.0[..looking_at.1].to_vec();
            let contract = contract.name().to_owned();
            return Some(Broken { kind, during: During::Check, contract, op, location, message, vars });
        }
        None
    }

    /// Whether every pair contract holds on `a` and `b` (a panic counts as a break).
    pub fn pair_holds(&self, a: &T, b: &T, op: u16) -> bool {
        self.contracts.iter().all(|contract| {
            matches!(run_captured(UserCode::new(During::Check, op), || contract.check_pair(a, b)), Ok(Ok(())))
        })
    }

    /// Whether a copy in `args` shares objects with its original in `shared`
    /// (only the first copies are looked at: [`CloneAudit`]).
    fn copies_share_objects(&self, shared: &[(usize, Shared<T>)], args: &[Arg<T>]) -> bool {
        let mut audit = self.clone_audit.get();
        let shallow = shared.iter().any(|(slot, original)| match &args[*slot] {
            Arg::Subject(copy) => audit.is_shallow(&***original, copy),
            _ => false,
        });
        self.clone_audit.set(audit);
        shallow
    }

    /// Runs `program` from nothing, stopping at the first call that is not
    /// ok, or before a call that killed an earlier attempt (as a failure).
    pub fn replay(&self, program: &Program, render: bool) -> Replay {
        let mut values: Values<T> = Vec::new();
        let mut handles: Handles = Vec::new();
        let mut touched = Vec::new();
        let mut rendered = Vec::with_capacity(program.calls.len());
        let names = if self.killed.is_empty() { Vec::new() } else { self.contract_names() };
        for (index, call) in program.calls.iter().enumerate() {
            if let Some(killed) = self.killed_at(index, true) {
                let broken = Broken::killed(killed, &names);
                return Replay { stopped: Some((index, CallResult::Failed(broken))), rendered };
            }
            if self.quarantined_at(call.op, self.address(index, None)) {
                // It kept killing the worker: the replay cannot go on.
                return Replay { stopped: Some((index, CallResult::Illegal)), rendered };
            }
            match self.call(&mut values, &mut handles, call, index, render, &mut touched) {
                CallResult::Ok { rendered: r, .. } => rendered.push(r),
                other => return Replay { stopped: Some((index, other)), rendered },
            }
        }
        Replay { stopped: None, rendered }
    }
}
