//! The generation loop (thesis §5.5 and §7.5): assemble a new sequence
//! from stored ones, reject it if made before, run it, and keep it for
//! reuse when it is legal and made a value not seen before.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};
use std::sync::Arc;
use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use rustc_hash::{FxHashMap, FxHashSet};

use super::execute::{
    Broken, CallResult, Executor, GroupKey, Handles, Shared, TouchedPrint, Values, KILLS_TO_SWITCH_OFF,
};
use super::journal::{Delta, GroupState, Prints, SampledState, StoredComponent};
use super::sequence::Sequence;
use super::{IndexPruning, RandomConfig, Resume};
use crate::api::{Access, IntKind, Operation, OperationInfo, OtherDomains, ParamKind, ReturnKind, StdTraitTable};
use crate::events::{Counts, During, Event, Failure, FailureKind, Input, Note, Progress, Sink, Stop, Witness};
use crate::heap::{shallow_clone_note, Heap};
use crate::runner::memory::{self, Pressure};
use crate::runner::{run_captured, take_drop_panic, StopFlag, UserCode};
use crate::sequence::{Call, Literal, Operand, Program};

/// Addresses' `run` numbers: which part of a random run user code ran in.
pub(super) mod stage {
    /// Generation: the input is the sequence's number, the detail its call.
    pub const GENERATE: u64 = 0;
    /// Simplifying failures: the input counts replays.
    pub const SIMPLIFY: u64 = 1;
    /// Checking regression tests: the input counts replays.
    pub const REGRESSION: u64 = 2;
    /// Replaying two sequences whose values are equal (the input is the sequence's number).
    pub const MEET: u64 = 3;
    /// Replaying a failing sequence from scratch (the input is its number).
    pub const REFILE: u64 = 4;
    /// Rebuilding stored values when resuming (the input is the component).
    pub const REBUILD: u64 = 5;
}

/// Sequences between two commits.
pub(super) const COMMIT_EVERY: u64 = 16_384;

/// Values of sequences up to this long are matched with equal ones: short
/// sequences make most of the small values, and the matching stays cheap.
const MEET_EQUAL_MAX_CALLS: usize = 16;

/// A sampled sequence; its key orders the sample (larger is kept).
struct Sampled {
    key: f64,
    /// When it was made: breaks ties, and orders the final sample.
    serial: u64,
    seq: Arc<Sequence>,
}

impl PartialEq for Sampled {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for Sampled {}
impl PartialOrd for Sampled {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Sampled {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.total_cmp(&other.key).then(self.serial.cmp(&other.serial))
    }
}

/// Stored values in `Ord` order.
struct EqualIndex<T> {
    cmp: fn(&T, &T) -> std::cmp::Ordering,
    keys: BTreeSet<OrdKey<T>>,
}

/// A value ordered by the subject's `Ord`, with the sequence that made it.
struct OrdKey<T> {
    value: Shared<T>,
    cmp: fn(&T, &T) -> std::cmp::Ordering,
    seq: Arc<Sequence>,
}

impl<T> PartialEq for OrdKey<T> {
    fn eq(&self, other: &Self) -> bool {
        (self.cmp)(&self.value, &other.value).is_eq()
    }
}
impl<T> Eq for OrdKey<T> {}
impl<T> PartialOrd for OrdKey<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for OrdKey<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.cmp)(&self.value, &other.value)
    }
}

/// Calls after the constructor in the seeding sequences, and how many
/// sequences seeding runs at most.
const BOOTSTRAP_DEPTH: usize = 2;
const BOOTSTRAP_SEQUENCES: u64 = 20_000;

/// Other subjects' structures tried per parameter when seeding.
const BOOTSTRAP_OTHER_VALUES: usize = 8;

/// Most argument combinations tried per operation when seeding.
const BOOTSTRAP_COMBINATIONS: usize = 64;

/// A stored legal sequence, its final values and which of them may be reused.
pub(super) struct Component<T> {
    pub seq: Arc<Sequence>,
    /// The components it starts with, by index.
    parts: Vec<u32>,
    values: Values<T>,
    /// The handles its calls returned, kept with `values`.
    handles: Handles,
    pub reusable: Vec<u32>,
    /// The calls that return a handle, by index in the flattened sequence, and its kind.
    handle_calls: Vec<(u32, u8)>,
}

/// The stored sequences a new one starts with, as it is assembled.
#[derive(Default)]
struct Picked {
    parts: Vec<usize>,
    /// Where each part's variables, and its calls, start in the new sequence.
    var_at: Vec<u32>,
    call_at: Vec<u32>,
    /// Variables and calls of the parts so far.
    vars: u32,
    calls: u32,
}

impl Picked {
    /// Adds component `c`, whose sequence is `seq`; returns where its
    /// variables and its calls start in the new sequence.
    fn add(&mut self, c: usize, seq: &Sequence) -> (u32, u32) {
        let starts = (self.vars, self.calls);
        self.parts.push(c);
        self.var_at.push(self.vars);
        self.call_at.push(self.calls);
        self.vars += seq.vars();
        self.calls += seq.len() as u32;
        starts
    }
}

/// The smallest failing sequence of one group so far.
#[derive(Clone)]
pub(super) struct Group {
    pub count: u64,
    /// Flattened and cut after the failing call.
    pub smallest: Program,
    /// Calls of the first failing sequence found in the group.
    pub first_calls: usize,
    /// Sequences explored when the group was found: a run of that many
    /// finds it again (its replay command stops there).
    pub first_at: u64,
    pub failure: Broken,
}

/// Where a generator's events go and what steers it.
pub(super) struct Outlet<'a> {
    pub out: &'a mut dyn Sink,
    pub stop: Option<&'a StopFlag>,
    /// The run's command, for replay commands (`--sequences N` is added).
    pub command: Option<String>,
    pub seconds_before: f64,
}

pub(super) struct Generator<'a, T> {
    config: &'a RandomConfig,
    pub exec: Executor<'a, T>,
    outlet: Outlet<'a>,
    started: Instant,
    traits: StdTraitTable<T>,
    rng: XorShiftRng,
    /// A second stream for sampling regression tests, so that their number
    /// does not change what is generated.
    sample_rng: XorShiftRng,
    pub components: Vec<Component<T>>,
    /// By handle kind: the components with a call returning one (Randoop's
    /// rule: a handle argument is a value the sequence returned before).
    handle_components: Vec<Vec<u32>>,
    ints: Vec<i64>,
    int_seen: FxHashSet<i64>,
    made: FxHashSet<u128>,
    seen_heaps: FxHashSet<u128>,
    seen_equal: FxHashMap<u64, Vec<Shared<T>>>,
    pub groups: Vec<Group>,
    group_of: FxHashMap<GroupKey, usize>,
    regression_pool: BinaryHeap<Reverse<Sampled>>,
    /// Stored values ordered by `Ord`, to meet equal ones (when `T: Ord + PartialEq`).
    equal_index: Option<EqualIndex<T>>,
    pub counts: Counts,
    attempts_without_new: u32,
    /// Why generation must stop now, when something other than a limit says so.
    halt: Option<Stop>,
    /// A failure group opened since the last commit: committed after its
    /// sequence, so that a hang or a stop soon after does not lose it.
    new_group: bool,
    constructors: Vec<u16>,
    /// The operations' signatures, for printing sequences.
    pub infos: Vec<OperationInfo>,
    /// What was added since the last commit, for the journal.
    added: Delta,
    /// Components at the last commit.
    committed_components: usize,
    /// Other subjects' structures, for parameters of their types.
    pub others: OtherDomains,
}

impl<'a, T: Heap> Generator<'a, T> {
    /// A generator running `exec`, which must be [`Executor::memoized`]:
    /// index pruning uses the fingerprints it takes.
    pub fn new(
        config: &'a RandomConfig,
        exec: Executor<'a, T>,
        traits: StdTraitTable<T>,
        outlet: Outlet<'a>,
        others: OtherDomains,
    ) -> Self {
        assert!(exec.checked.is_some(), "the generator needs a memoized executor");
        let infos = exec.ops.iter().map(|op| op.info()).collect();
        let constructors =
            exec.ops.iter().enumerate().filter(|(_, op)| op.is_constructor()).map(|(i, _)| i as u16).collect();
        Generator {
            config,
            exec,
            outlet,
            started: Instant::now(),
            traits,
            rng: XorShiftRng::seed_from_u64(config.seed),
            sample_rng: XorShiftRng::seed_from_u64(config.seed ^ 0x5EED_5A3F_1E00_0001),
            components: Vec::new(),
            handle_components: Vec::new(),
            ints: Vec::new(),
            int_seen: FxHashSet::default(),
            made: FxHashSet::default(),
            seen_heaps: FxHashSet::default(),
            seen_equal: FxHashMap::default(),
            groups: Vec::new(),
            group_of: FxHashMap::default(),
            regression_pool: BinaryHeap::new(),
            equal_index: match (traits.ord, traits.partial_eq) {
                (Some(cmp), Some(_)) => Some(EqualIndex { cmp, keys: BTreeSet::new() }),
                _ => None,
            },
            counts: Counts::default(),
            attempts_without_new: 0,
            halt: None,
            new_group: false,
            constructors,
            infos,
            added: Delta::default(),
            committed_components: 0,
            others,
        }
    }

    pub fn seconds(&self) -> f64 {
        self.outlet.seconds_before + self.started.elapsed().as_secs_f64()
    }

    pub fn emit(&mut self, event: Event) {
        self.outlet.out.event(event);
    }

    /// Commits the events emitted so far without a resume point: a run
    /// restarted from it starts generating afresh.
    pub fn commit_start(&mut self) {
        self.outlet.out.commit(&[]);
    }

    /// The command that repeats the run up to sequence `sequences` and
    /// stops there: the same limits (they shape the generation), stopped
    /// at that sequence.
    pub fn replay(&self, sequences: u64) -> Option<String> {
        let limit = self.config.sequence_limit.map(|n| format!(" --sequences {n}")).unwrap_or_default();
        self.outlet.command.as_ref().map(|command| format!("{command}{limit} --stop-at {sequences}"))
    }

    /// Generates until a limit is reached or the run is asked to stop. A
    /// resumed generator carries on where its journal ends; a fresh one
    /// seeds its component set first.
    pub fn run(&mut self, resumed: bool) -> Stop {
        let time_limit = self.config.effective_time_limit().map(|t| t.as_secs_f64());
        if !resumed {
            self.bootstrap();
        }
        loop {
            if self.config.last_sequence().is_some_and(|last| self.counts.explored >= last) {
                return Stop::SequenceLimit;
            }
            if let Some(reason) = self.halt.or_else(|| self.outlet.stop.and_then(StopFlag::reason)) {
                return reason;
            }
            if (self.counts.explored % 256 == 0 || self.attempts_without_new > 0)
                && time_limit.is_some_and(|t| self.seconds() >= t)
            {
                return Stop::TimeLimit;
            }
            if self.step() {
                self.attempts_without_new = 0;
                // A new sequence was executed: each multiple is passed once.
                if self.counts.explored % COMMIT_EVERY == 0 || std::mem::take(&mut self.new_group) {
                    self.commit();
                }
            } else {
                self.attempts_without_new += 1;
                // Every sequence the generator can assemble was made already.
                if self.attempts_without_new >= 100_000 {
                    return Stop::Stuck;
                }
            }
        }
    }

    /// The counts so far, in the events' terms.
    pub fn event_counts(&self) -> Counts {
        Counts { structures: self.components.len() as u64, ..self.counts.clone() }
    }

    pub fn group_counts(&self) -> Vec<u64> {
        self.groups.iter().map(|g| g.count).collect()
    }

    /// Emits a resume point and commits it with what changed since the last.
    fn commit(&mut self) {
        let progress = Progress {
            seconds: self.seconds(),
            counts: self.event_counts(),
            group_counts: self.group_counts(),
            resume: crate::events::Resume::Random(Resume { sequences: self.counts.explored }),
        };
        self.emit(Event::Progress(progress));
        let delta = self.take_delta();
        let bytes = postcard::to_stdvec(&delta).expect("journal entries serialize");
        self.outlet.out.commit(&bytes);
    }

    /// What changed since the last commit.
    fn take_delta(&mut self) -> Delta {
        let mut delta = std::mem::take(&mut self.added);
        delta.counts = self.counts.clone();
        delta.rng = Some(self.rng.clone());
        delta.sample_rng = Some(self.sample_rng.clone());
        delta.attempts_without_new = self.attempts_without_new;
        delta.clone_off = self.exec.clone.get().is_none();
        delta.equal_index_off = self.equal_index.is_none();
        delta.components = self.components[self.committed_components..]
            .iter()
            .map(|c| StoredComponent {
                parts: c.parts.clone(),
                calls: c.seq.own_calls().to_vec(),
                reusable: c.reusable.clone(),
            })
            .collect();
        self.committed_components = self.components.len();
        if let Some(checked) = &self.exec.checked {
            delta.passed = Prints::from(std::mem::take(&mut checked.borrow_mut().new_passed));
        }
        delta.groups = self
            .groups
            .iter()
            .map(|g| GroupState {
                count: g.count,
                smallest: g.smallest.clone(),
                first_calls: g.first_calls,
                first_at: g.first_at,
                broken: g.failure.clone(),
            })
            .collect();
        delta.sample = self
            .regression_pool
            .iter()
            .map(|Reverse(s)| SampledState { key: s.key, serial: s.serial, program: s.seq.flatten() })
            .collect();
        delta
    }

    /// Restores the state a journal describes, then rebuilds the stored
    /// values by running each stored sequence's own calls again.
    pub fn restore(&mut self, journal: &[u8]) -> Result<(), String> {
        let mut rest = journal;
        let mut components: Vec<StoredComponent> = Vec::new();
        let mut seen_equal: Vec<(u32, u32)> = Vec::new();
        while !rest.is_empty() {
            let (delta, tail): (Delta, &[u8]) =
                postcard::take_from_bytes(rest).map_err(|e| format!("reading the journal: {e}"))?;
            rest = tail;
            self.counts = delta.counts;
            if let Some(rng) = delta.rng {
                self.rng = rng;
            }
            if let Some(rng) = delta.sample_rng {
                self.sample_rng = rng;
            }
            self.attempts_without_new = delta.attempts_without_new;
            if delta.clone_off {
                self.exec.clone.set(None);
            }
            if delta.equal_index_off {
                self.equal_index = None;
            }
            self.made.extend(delta.made.iter());
            self.seen_heaps.extend(delta.seen_heaps.iter());
            if let Some(checked) = &self.exec.checked {
                checked.borrow_mut().passed.extend(delta.passed.iter());
            }
            for v in delta.ints {
                if self.int_seen.insert(v) {
                    self.ints.push(v);
                }
            }
            components.extend(delta.components);
            seen_equal.extend(delta.seen_equal);
            self.groups = delta
                .groups
                .into_iter()
                .map(|g| Group {
                    count: g.count,
                    smallest: g.smallest,
                    first_calls: g.first_calls,
                    first_at: g.first_at,
                    failure: g.broken,
                })
                .collect();
            self.regression_pool = delta
                .sample
                .into_iter()
                .map(|s| {
                    Reverse(Sampled {
                        key: s.key,
                        serial: s.serial,
                        seq: Arc::new(Sequence::new(Vec::new(), s.program.calls)),
                    })
                })
                .collect();
        }
        self.group_of = self.groups.iter().enumerate().map(|(i, g)| (g.failure.group_key(), i)).collect();
        for (index, stored) in components.into_iter().enumerate() {
            let parts: Vec<Arc<Sequence>> =
                stored.parts.iter().map(|&p| self.components[p as usize].seq.clone()).collect();
            let seq = Arc::new(Sequence::new(parts, stored.calls));
            let (values, handles) = self.rebuild_values(index, &stored.parts, &seq)?;
            // Values are kept only while `Clone` is trusted; without them
            // there is nothing to index (as when the run made them).
            if seq.len() <= MEET_EQUAL_MAX_CALLS {
                for &v in &stored.reusable {
                    if let Some(Some(value)) = values.get(v as usize) {
                        self.index_equal(value.clone(), &seq);
                    }
                }
            }
            let handle_calls = self.handle_calls(&stored.parts, &seq);
            let (parts, reusable) = (stored.parts, stored.reusable);
            self.store(Component { seq, parts, values, handles, reusable, handle_calls });
        }
        self.committed_components = self.components.len();
        for (component, var) in seen_equal {
            let value = self.components[component as usize].values.get(var as usize).cloned().flatten();
            if let (Some(value), Some(hash)) = (value, self.traits.hash) {
                let _ = run_captured(UserCode::new(During::Check, 0), || {
                    self.seen_equal.entry(hash(&value)).or_default().push(value.clone())
                });
            }
        }
        self.added = Delta::default();
        Ok(())
    }

    /// The final values of stored component `index`, made again from its
    /// parts' values (empty when values are not kept: no usable `Clone`).
    fn rebuild_values(&mut self, index: usize, parts: &[u32], seq: &Sequence) -> Result<(Values<T>, Handles), String> {
        if self.exec.clone.get().is_none() {
            return Ok((Vec::new(), Vec::new()));
        }
        let parts: Vec<usize> = parts.iter().map(|&p| p as usize).collect();
        let (mut values, mut handles) = self.part_values(&parts);
        self.exec.locate(stage::REBUILD, index as u64);
        let mut touched = Vec::new();
        let skipped = seq.len() - seq.own_calls().len();
        for (i, call) in seq.own_calls().iter().enumerate() {
            match self.exec.call(&mut values, &mut handles, call, skipped + i, false, &mut touched) {
                CallResult::Ok { .. } => {}
                // As in the run before: from here on, values are replayed.
                CallResult::ShallowClone => return Ok((Vec::new(), Vec::new())),
                _ => {
                    return Err(format!(
                        "resuming: stored sequence {index} did not run as before: is the code deterministic?"
                    ))
                }
            }
        }
        Ok((values, handles))
    }

    /// The final values of `parts`, in order, and the handles their calls
    /// returned, numbered as in the sequence they start (none, and no
    /// memory, for an API without handles).
    fn part_values(&self, parts: &[usize]) -> (Values<T>, Handles) {
        let mut values = Vec::new();
        let mut handles = Vec::new();
        for &part in parts {
            let component = &self.components[part];
            values.extend(component.values.iter().cloned());
            if !self.handle_components.is_empty() {
                let first = handles.len();
                handles.extend(component.handles.iter().cloned());
                handles.resize(first + component.seq.len(), None);
            }
        }
        (values, handles)
    }

    /// The calls of `seq`, made of `parts` and its own calls, that return a
    /// handle (every call of a stored sequence returned normally), by index
    /// in the flattened sequence, with the handle's kind.
    fn handle_calls(&self, parts: &[u32], seq: &Sequence) -> Vec<(u32, u8)> {
        let mut calls = Vec::new();
        let mut first = 0;
        for &part in parts {
            let component = &self.components[part as usize];
            calls.extend(component.handle_calls.iter().map(|&(c, kind)| (first + c, kind)));
            first += component.seq.len() as u32;
        }
        let own = seq.own_calls().iter().enumerate();
        calls.extend(
            own.filter_map(|(i, call)| Some((first + i as u32, self.exec.ops[usize::from(call.op)].returns_handle?))),
        );
        calls
    }

    /// Adds a stored sequence, and indexes the handles it offers.
    fn store(&mut self, component: Component<T>) {
        let index = self.components.len() as u32;
        for &(_, kind) in &component.handle_calls {
            let kind = usize::from(kind);
            if self.handle_components.len() <= kind {
                self.handle_components.resize_with(kind + 1, Vec::new);
            }
            if self.handle_components[kind].last() != Some(&index) {
                self.handle_components[kind].push(index);
            }
        }
        self.components.push(component);
    }

    /// Seeds the component set with every sequence of a constructor and at
    /// most two more calls on its value, over the seed domains: at most
    /// [`BOOTSTRAP_SEQUENCES`] of them, and at most a quarter of a sequence
    /// limit, so that random generation keeps most of the budget. Random
    /// picks rarely land on these short sequences once the set is large, yet
    /// they are the best replacements when simplifying (§6.1).
    fn bootstrap(&mut self) {
        let budget = self.config.sequence_limit.map_or(BOOTSTRAP_SEQUENCES, |n| (n / 4).min(BOOTSTRAP_SEQUENCES));
        let budget = budget.min(self.config.stop_at.unwrap_or(u64::MAX));
        let ops = self.exec.ops;
        for (index, op) in ops.iter().enumerate() {
            if !op.is_constructor() {
                continue;
            }
            for operands in self.literal_operands(op, None) {
                let call = Call { op: index as u16, operands, binds: Some(0) };
                self.try_sequence(Vec::new(), vec![call]);
            }
        }
        // One more call on each value, breadth-first. Within a level, calls
        // go round-robin over operations and then over values, so that a
        // budget running out cuts every value and operation short alike
        // (rather than leaving the values made last, by the last
        // operations, never extended).
        let mut templates: Vec<(u16, Vec<Vec<Operand>>)> = Vec::new();
        for (index, op) in ops.iter().enumerate() {
            let subjects = op.params.iter().filter(|p| matches!(p, ParamKind::Subject(_))).count();
            if subjects == 1 && matches!(op.params.first(), Some(ParamKind::Subject(_))) {
                templates.push((index as u16, self.literal_operands(op, Some(0))));
            }
        }
        let widest = templates.iter().map(|(_, combos)| combos.len()).max().unwrap_or(0);
        let calls: Vec<(u16, &[Operand])> = (0..widest)
            .flat_map(|k| templates.iter().filter_map(move |(op, combos)| Some((*op, combos.get(k)?.as_slice()))))
            .collect();
        let mut level = 0..self.components.len();
        for _ in 0..BOOTSTRAP_DEPTH {
            let start = self.components.len();
            for &(op, template) in &calls {
                for root in level.clone() {
                    if self.counts.explored >= budget {
                        return;
                    }
                    let var = self.components[root].reusable[0];
                    let mut operands = template.to_vec();
                    operands[0] = Operand::Var(var);
                    let binds = (ops[usize::from(op)].returns == ReturnKind::Subject)
                        .then_some(self.components[root].seq.vars());
                    self.try_sequence(vec![root], vec![Call { op, operands, binds }]);
                }
            }
            level = start..self.components.len();
        }
    }

    /// The seed integers that fit `kind`.
    fn seed_ints(&self, kind: IntKind) -> impl Iterator<Item = i64> + '_ {
        self.config.ints.iter().copied().filter(move |&v| kind.fits(v))
    }

    /// Every combination of seed literals for `params` (at most
    /// [`BOOTSTRAP_COMBINATIONS`]), with `receiver` in slot 0 when given.
    fn literal_operands(&self, op: &Operation<T>, receiver: Option<u32>) -> Vec<Vec<Operand>> {
        let mut combos: Vec<Vec<Operand>> = vec![Vec::new()];
        for (slot, kind) in op.params.iter().enumerate() {
            let choices: Vec<Operand> = match *kind {
                ParamKind::Subject(_) => vec![Operand::Var(receiver.unwrap_or(0))],
                ParamKind::Int(int) => self.seed_ints(int).map(|v| Operand::Literal(Literal::Int(v))).collect(),
                ParamKind::Bool => [false, true].map(|b| Operand::Literal(Literal::Bool(b))).to_vec(),
                ParamKind::Char => self.config.chars.iter().map(|&c| Operand::Literal(Literal::Char(c))).collect(),
                ParamKind::Str => {
                    self.config.strings.iter().map(|s| Operand::Literal(Literal::Str(s.clone()))).collect()
                }
                ParamKind::OptionInt(int) => std::iter::once(None)
                    .chain(self.seed_ints(int).map(Some))
                    .map(|v| Operand::Literal(Literal::OptionInt(v)))
                    .collect(),
                // The empty list and one list per seed integer: lengths grow in the random phase.
                ParamKind::IntList(int, _) => std::iter::once(Arc::from([]))
                    .chain(self.seed_ints(int).map(|v| Arc::from([v])))
                    .map(|list| Operand::Literal(Literal::IntList(list)))
                    .collect(),
                // Handles come from earlier calls, which bootstrap sequences do not have.
                ParamKind::Handle { .. } => Vec::new(),
                // The smallest structures of the other subject.
                ParamKind::Other(_) => self
                    .other_values(op, slot)
                    .iter()
                    .take(BOOTSTRAP_OTHER_VALUES)
                    .map(|value| Operand::Literal(value.clone()))
                    .collect(),
            };
            combos = combos
                .iter()
                .flat_map(|prefix| {
                    choices.iter().map(move |c| {
                        let mut next = prefix.clone();
                        next.push(c.clone());
                        next
                    })
                })
                .take(BOOTSTRAP_COMBINATIONS)
                .collect();
        }
        combos
    }

    /// Runs the sequence `parts` + `calls` unless a limit is reached.
    fn try_sequence(&mut self, parts: Vec<usize>, calls: Vec<Call>) {
        if self.halt.is_none() && self.config.last_sequence().is_none_or(|last| self.counts.explored < last) {
            self.run_new(&parts, calls);
        }
    }

    /// Assembles and runs one new sequence; false when it was made before.
    fn step(&mut self) -> bool {
        match self.assemble() {
            Some((parts, calls)) => self.run_new(&parts, calls),
            None => false,
        }
    }

    /// Runs `parts` + `calls` unless that sequence was made before (§7.3:
    /// redundant); false if it was.
    fn run_new(&mut self, parts: &[usize], calls: Vec<Call>) -> bool {
        let seq = Arc::new(Sequence::new(parts.iter().map(|&c| self.components[c].seq.clone()).collect(), calls));
        if !self.made.insert(seq.key()) {
            self.counts.redundant += 1;
            return false;
        }
        self.added.made.push(seq.key());
        self.counts.explored += 1;
        let before = memory::kept_by_user_code();
        self.execute(parts, seq.clone());
        let op = seq.own_calls().last().map_or(0, |c| c.op);
        if let Some(panic) = take_drop_panic() {
            // A value the sequence left was dropped, and its `Drop` panicked.
            let broken = Broken::of_call(FailureKind::Panic, During::Drop, op, panic.message, panic.location);
            self.counts.failing += 1;
            self.file_program(broken, seq.flatten());
        }
        match memory::pressure(before) {
            Pressure::Fine => {}
            Pressure::Stop => self.halt = Some(Stop::MemoryLimit),
            Pressure::Culprit { kept } => {
                let message = memory::culprit_message(kept);
                let broken = Broken::of_call(FailureKind::OutOfMemory, During::Call, op, message, None);
                self.counts.failing += 1;
                self.file_program(broken, seq.flatten());
                self.halt = Some(Stop::MemoryLimit);
            }
        }
        true
    }

    /// Picks an operation and its arguments (§7.5): each subject argument is
    /// a variable of a sequence already picked, or of a new one picked from
    /// the component set.
    fn assemble(&mut self) -> Option<(Vec<usize>, Vec<Call>)> {
        let ops = self.exec.ops;
        let mut op_index = self.rng.random_range(0..ops.len()) as u16;
        // The sequence is run, and its calls addressed, as the next one explored.
        let quarantined = |op: u16| self.exec.quarantined(op, stage::GENERATE, self.counts.explored + 1);
        if quarantined(op_index) {
            // It kept killing the worker: one of the others instead.
            let others: Vec<u16> = (0..ops.len() as u16).filter(|&op| !quarantined(op)).collect();
            op_index = *others.get(self.rng.random_range(0..others.len().max(1)))?;
        }
        let needs_subject = |op: &Operation<T>| op.params.iter().any(|p| matches!(p, ParamKind::Subject(_)));
        if self.components.is_empty() && needs_subject(&ops[usize::from(op_index)]) {
            if self.constructors.is_empty() {
                return None;
            }
            op_index = self.constructors[self.rng.random_range(0..self.constructors.len())];
        }
        let op = &ops[usize::from(op_index)];
        let mut picked = Picked::default();
        let mut operands = Vec::with_capacity(op.params.len());
        let mut consumes = false;
        for (slot, kind) in op.params.iter().enumerate() {
            let operand = match *kind {
                ParamKind::Subject(access) => {
                    consumes |= access == Access::Owned;
                    let reuse = !picked.parts.is_empty() && self.rng.random_bool(0.5);
                    let mut chosen = None;
                    if reuse {
                        let p = self.rng.random_range(0..picked.parts.len());
                        let component = &self.components[picked.parts[p]];
                        let v = component.reusable[self.rng.random_range(0..component.reusable.len())];
                        let var = picked.var_at[p] + v;
                        if !operands.contains(&Operand::Var(var)) {
                            chosen = Some(var);
                        }
                    }
                    let var = match chosen {
                        Some(var) => var,
                        None => {
                            let c = self.rng.random_range(0..self.components.len());
                            let component = &self.components[c];
                            let v = component.reusable[self.rng.random_range(0..component.reusable.len())];
                            picked.add(c, &component.seq).0 + v
                        }
                    };
                    Operand::Var(var)
                }
                ParamKind::Int(int) => Operand::Literal(Literal::Int(self.pick_int(int))),
                ParamKind::Bool => Operand::Literal(Literal::Bool(self.rng.random_bool(0.5))),
                ParamKind::Char => {
                    let chars = &self.config.chars;
                    Operand::Literal(Literal::Char(chars[self.rng.random_range(0..chars.len())]))
                }
                ParamKind::Str => {
                    let strings = &self.config.strings;
                    Operand::Literal(Literal::Str(strings[self.rng.random_range(0..strings.len())].clone()))
                }
                ParamKind::OptionInt(int) => {
                    // `None` is one value of the domain, as likely as each seed integer.
                    let none = 1.0 / (1 + self.seed_ints(int).count()) as f64;
                    let value = (!self.rng.random_bool(none)).then(|| self.pick_int(int));
                    Operand::Literal(Literal::OptionInt(value))
                }
                ParamKind::IntList(int, _) => {
                    let length = self.rng.random_range(0..=self.config.list_length);
                    let list: Vec<i64> = (0..length).map(|_| self.pick_int(int)).collect();
                    Operand::Literal(Literal::IntList(list.into()))
                }
                ParamKind::Handle { kind, .. } => {
                    // A handle a part already picked returned, or, half the time or when
                    // none did, one a new part returned (Randoop's rule).
                    let offered: Vec<u32> = (picked.parts.iter().zip(&picked.call_at))
                        .flat_map(|(&p, &at)| {
                            let calls = &self.components[p].handle_calls;
                            calls.iter().filter(|(_, k)| *k == kind).map(move |(c, _)| at + c)
                        })
                        .collect();
                    let holders = self.handle_components.get(usize::from(kind)).map_or(0, Vec::len);
                    if holders > 0 && (offered.is_empty() || self.rng.random_bool(0.5)) {
                        let c = self.handle_components[usize::from(kind)][self.rng.random_range(0..holders)] as usize;
                        let component = &self.components[c];
                        let calls: Vec<u32> =
                            component.handle_calls.iter().filter(|(_, k)| *k == kind).map(|(c, _)| *c).collect();
                        let call = calls[self.rng.random_range(0..calls.len())];
                        Operand::Returned(picked.add(c, &component.seq).1 + call)
                    } else if !offered.is_empty() {
                        Operand::Returned(offered[self.rng.random_range(0..offered.len())])
                    } else {
                        return None; // no sequence returned a handle of this kind yet
                    }
                }
                ParamKind::Other(_) => {
                    let count = self.other_values(op, slot).len();
                    if count == 0 {
                        return None; // the other subject has no structures
                    }
                    let pick = self.rng.random_range(0..count);
                    Operand::Literal(self.other_values(op, slot)[pick].clone())
                }
            };
            operands.push(operand);
        }
        // Repetition (§7.5): sometimes the same call, several times over;
        // only for calls that change values in place, not ones making new values.
        let binds_result = op.returns == ReturnKind::Subject;
        let times = if !consumes && !binds_result && self.rng.random_bool(self.config.repeat_probability) {
            self.rng.random_range(1..=self.config.max_repeat.max(1))
        } else {
            1
        };
        let calls = (0..times)
            .map(|i| Call { op: op_index, operands: operands.clone(), binds: binds_result.then_some(picked.vars + i) })
            .collect();
        Some((picked.parts, calls))
    }

    /// The structures of the other subject that `op` takes in `slot`.
    fn other_values(&self, op: &Operation<T>, slot: usize) -> &[Literal] {
        op.other(slot).map_or(&[], |other| self.others.values(other))
    }

    /// A seed integer or, half the time, one a call returned before; it must fit `kind`.
    fn pick_int(&mut self, kind: IntKind) -> i64 {
        if !self.ints.is_empty() && self.rng.random_bool(0.5) {
            let v = self.ints[self.rng.random_range(0..self.ints.len())];
            if kind.fits(v) {
                return v;
            }
        }
        let domain = &self.config.ints;
        let v = domain[self.rng.random_range(0..domain.len())];
        if kind.fits(v) {
            v
        } else {
            domain.iter().copied().find(|&d| kind.fits(d)).unwrap_or(0)
        }
    }

    /// Runs the new calls of `seq` and files the result.
    fn execute(&mut self, parts: &[usize], seq: Arc<Sequence>) {
        self.exec.locate(stage::GENERATE, self.counts.explored);
        let mut values: Values<T>;
        let mut touched = Vec::new();
        let mut all_touched: Vec<u32> = Vec::new();
        let mut returned_ints = Vec::new();
        let mut observes = false;
        // Canonical-form fingerprints of touched values, latest last.
        let mut prints: Vec<TouchedPrint> = Vec::new();
        let new_calls = seq.own_calls();
        let replayed;
        let mut handles: Handles;
        let calls: &[Call] = if self.exec.clone.get().is_some() {
            // The fast path: start from the parts' stored final values.
            (values, handles) = self.part_values(parts);
            new_calls
        } else {
            // Without `Clone`, a stored value cannot be shared: replay everything.
            values = Vec::new();
            handles = Vec::new();
            replayed = seq.flatten();
            &replayed.calls
        };
        let first_new = calls.len() - new_calls.len();
        // The index of a call in the flattened sequence.
        let skipped = seq.len() - calls.len();
        for (index, call) in calls.iter().enumerate() {
            if let Some(killed) = self.exec.killed_at(skipped + index, true) {
                self.step_past(killed, &seq, skipped + index);
                return;
            }
            let result = self.exec.call(&mut values, &mut handles, call, skipped + index, false, &mut touched);
            if let Some(first) = self.exec.killed_at(skipped + index, false) {
                // It returned this time: confirmed it is not.
                self.counts.failing += 1;
                let mut program = seq.flatten();
                program.calls.truncate(skipped + index + 1);
                self.file_program(Broken::flaky(first, &self.exec.contract_names()), program);
            }
            match result {
                CallResult::Ok { int, .. } => {
                    if index >= first_new {
                        all_touched.extend_from_slice(&touched);
                        if let Some(checked) = &self.exec.checked {
                            prints.extend_from_slice(&checked.borrow().last);
                        }
                        returned_ints.extend(int);
                        observes |= self.exec.ops[usize::from(call.op)].returns == ReturnKind::Value;
                    }
                }
                CallResult::Illegal => {
                    self.counts.misuses += 1;
                    return;
                }
                CallResult::Failed(failure) => {
                    self.counts.failing += 1;
                    self.file_failure(failure, seq);
                    return;
                }
                CallResult::ShallowClone => {
                    self.emit(Event::Note(Note { text: shallow_clone_note::<T>() }));
                    // Cloning is off now: the same sequence again, replayed.
                    return self.execute(parts, seq);
                }
            }
        }
        for v in returned_ints {
            if v.abs() <= self.config.large_int_limit && self.int_seen.insert(v) {
                self.ints.push(v);
                self.added.ints.push(v);
            }
        }
        if observes {
            self.sample_regression(&seq);
        }
        all_touched.sort_unstable();
        all_touched.dedup();
        let storable = seq.len() <= self.config.max_length;
        let reusable: Vec<u32> =
            all_touched.into_iter().filter(|&v| values.get(v as usize).is_some_and(|x| x.is_some())).collect();
        let mut largest = 0;
        let reusable: Vec<u32> = reusable
            .into_iter()
            .filter(|&v| {
                let print = prints.iter().rev().find(|p| p.var == v);
                let print = print.expect("a memoized executor fingerprints what it touches");
                let new = self.is_new(&values, v, print.print, storable);
                if new {
                    largest = largest.max(u64::from(print.objects));
                }
                new
            })
            .collect();
        if !reusable.is_empty() && storable {
            self.counts.largest_structure = self.counts.largest_structure.max(largest);
            if seq.len() <= MEET_EQUAL_MAX_CALLS {
                for &v in &reusable {
                    let value = values[v as usize].clone().expect("live");
                    self.meet_equal(value, &seq);
                }
            }
            if self.exec.clone.get().is_none() {
                values.clear();
                handles.clear();
            }
            let parts: Vec<u32> = parts.iter().map(|&c| c as u32).collect();
            let handle_calls = self.handle_calls(&parts, &seq);
            self.store(Component { seq, parts, values, handles, reusable, handle_calls });
        }
    }

    /// Reports the input at call `index` of `seq`, which killed or hung an
    /// earlier attempt, without running it; what it broke is not trusted again.
    fn step_past(&mut self, killed: &crate::runner::Killed, seq: &Sequence, index: usize) {
        self.counts.failing += 1;
        let broken = Broken::killed(killed, &self.exec.contract_names());
        match (killed.during, killed.print) {
            (During::Clone, _) => {
                self.exec.clone.set(None);
                let text = format!(
                    "`Clone` failed ({}): from here on every sequence is replayed from scratch",
                    killed.kind.name()
                );
                self.emit(Event::Note(Note { text }));
            }
            (During::Check, print) => {
                if let Some(print) = print {
                    self.exec.poisoned.borrow_mut().push((print.0, broken.clone()));
                }
                if let Some(contract) = self.exec.switched_off_by(killed) {
                    let text = format!(
                        "contract `{contract}` killed the worker on {KILLS_TO_SWITCH_OFF} values ({}): it is not \
                         checked again in this run",
                        killed.kind.name()
                    );
                    self.emit(Event::Note(Note { text }));
                }
            }
            _ => {}
        }
        if killed.quarantines {
            let repeats = crate::runner::Killed::repeats_text(self.exec.killed, killed);
            let text = format!(
                "`{}` quarantined after {repeats}: later sequences do not call it, so it is untested past this \
                 point",
                self.exec.ops[usize::from(killed.op)].name,
            );
            self.emit(Event::Note(Note { text }));
        }
        let mut program = seq.flatten();
        program.calls.truncate(index + 1);
        self.file_program(broken, program);
        // Past it now: should the next input kill the worker too, the
        // restart starts here, with this finding, not from the last commit.
        self.commit();
    }

    /// Pairs a new value with an equal one made by another sequence, if
    /// there is one, and checks the pair contracts on the two: a new heap
    /// that is `==` to an old one is where `Hash`, `Ord` and `==` itself can
    /// disagree. Equal values are found through `Ord`, which must agree with
    /// `==` (a contract of its own), not through `Hash`, which is under test.
    fn meet_equal(&mut self, value: Shared<T>, seq: &Arc<Sequence>) {
        let Some((old_value, old_seq)) = self.index_equal(value.clone(), seq) else { return };
        if self.exec.pair_holds(&old_value, &value, 0) {
            return;
        }
        // Both sequences, one after the other: the replay finds the broken pair.
        let both = Sequence::new(vec![old_seq, seq.clone()], Vec::new());
        let mut program = both.flatten();
        self.exec.locate(stage::MEET, self.counts.explored);
        if let Some((index, CallResult::Failed(failure))) = self.exec.replay(&program, false).stopped {
            program.calls.truncate(index + 1);
            self.counts.failing += 1;
            self.file_program(failure, program);
        }
    }

    /// Adds `value` to the index of values by `Ord`, unless an equal one is
    /// there: then that one is returned, with the sequence that made it.
    fn index_equal(&mut self, value: Shared<T>, seq: &Arc<Sequence>) -> Option<(Shared<T>, Arc<Sequence>)> {
        let index = self.equal_index.as_mut()?;
        let key = OrdKey { value, cmp: index.cmp, seq: seq.clone() };
        // A panicking `cmp` is the ord contracts' business; here it only ends the matching.
        let met = run_captured(UserCode::new(During::Check, 0), || match index.keys.get(&key) {
            Some(old) => Some((old.value.clone(), old.seq.clone())),
            None => {
                index.keys.insert(key);
                None
            }
        });
        match met {
            Ok(met) => met,
            Err(_) => {
                self.equal_index = None;
                None
            }
        }
    }

    /// Index pruning (§7.4): whether the value of `var` was not seen before.
    /// `print` is the fingerprint of its canonical form. A value is
    /// remembered only if its sequence is `storable` (kept for reuse).
    fn is_new(&mut self, values: &Values<T>, var: u32, print: u128, storable: bool) -> bool {
        let value = values[var as usize].as_ref().expect("live");
        let equality = match (self.traits.hash, self.traits.partial_eq) {
            (Some(hash), Some(eq)) if self.config.index_pruning == IndexPruning::Equality => Some((hash, eq)),
            _ => None,
        };
        match (self.config.index_pruning, equality) {
            (IndexPruning::Off, _) => true,
            (_, Some((hash, eq))) => {
                // A panicking `hash` or `==` is the contracts' business: reuse the value.
                let seen_equal = &mut self.seen_equal;
                let new = run_captured(UserCode::new(During::Check, 0), || {
                    let bucket = seen_equal.entry(hash(value)).or_default();
                    if bucket.iter().any(|seen| eq(seen, value)) {
                        false
                    } else {
                        if storable {
                            bucket.push(value.clone());
                        }
                        true
                    }
                })
                .unwrap_or(true);
                if new && storable {
                    self.added.seen_equal.push((self.components.len() as u32, var));
                }
                new
            }
            _ => {
                let new = self.seen_heaps.insert(print);
                if new {
                    self.added.seen_heaps.push(print);
                }
                new
            }
        }
    }

    /// Files a failure under its group. The fast path checks contracts only
    /// after the new calls, so a replay from scratch says which call failed
    /// first: that is the failure a generated test reproduces.
    fn file_failure(&mut self, failure: Broken, seq: Arc<Sequence>) {
        let mut program = seq.flatten();
        self.exec.locate(stage::REFILE, self.counts.explored);
        let failure = match self.exec.replay(&program, false).stopped {
            Some((index, CallResult::Failed(replayed))) => {
                program.calls.truncate(index + 1);
                replayed
            }
            _ => failure,
        };
        self.file_program(failure, program);
    }

    fn file_program(&mut self, failure: Broken, program: Program) {
        let key = failure.group_key();
        match self.group_of.get(&key) {
            Some(&g) => {
                let group = &mut self.groups[g];
                group.count += 1;
                if program.calls.len() < group.smallest.calls.len() {
                    group.smallest = program;
                    group.failure = failure;
                }
            }
            None => {
                let group = self.groups.len();
                self.group_of.insert(key, group);
                let first_at = self.counts.explored;
                let event = failure_event(group as u32, &failure, &program, 1, &self.infos, self.replay(first_at));
                let first_calls = program.calls.len();
                self.groups.push(Group { count: 1, first_calls, first_at, smallest: program, failure });
                self.emit(Event::Failure(event));
                self.new_group = true;
            }
        }
    }

    /// Weighted reservoir sampling (Efraimidis and Spirakis' A-Res) over
    /// legal sequences that observe a value, favouring short ones (weight
    /// 1/length): a short test is easier to read, and more of its calls
    /// act on small values, where a change in behaviour shows.
    fn sample_regression(&mut self, seq: &Arc<Sequence>) {
        let k = self.config.regression_tests;
        if k == 0 {
            return;
        }
        let weight = 1.0 / seq.len() as f64;
        let u: f64 = self.sample_rng.random_range(f64::MIN_POSITIVE..1.0);
        let sampled = Sampled { key: u.ln() / weight, serial: self.counts.explored, seq: seq.clone() };
        if self.regression_pool.len() < k {
            self.regression_pool.push(Reverse(sampled));
        } else if self.regression_pool.peek().is_some_and(|Reverse(least)| sampled > *least) {
            self.regression_pool.pop();
            self.regression_pool.push(Reverse(sampled));
        }
    }

    /// The sampled sequences, in the order they were made.
    pub fn regression_sample(&self) -> Vec<Arc<Sequence>> {
        let mut sample: Vec<&Sampled> = self.regression_pool.iter().map(|Reverse(s)| s).collect();
        sample.sort_by_key(|s| s.serial);
        sample.into_iter().map(|s| s.seq.clone()).collect()
    }
}

/// A failure group as an event: `broken` with `program` as its witness.
pub(super) fn failure_event(
    group: u32,
    broken: &Broken,
    program: &Program,
    count: u64,
    infos: &[OperationInfo],
    replay: Option<String>,
) -> Failure {
    let witness =
        Witness { text: program.to_text(infos), calls: program.len(), input: Input::Program(program.clone()) };
    Failure {
        operation: infos.get(usize::from(broken.op)).map(|op| op.name.clone()),
        contract: Some(broken.contract.clone()),
        location: broken.location.clone(),
        count,
        replay,
        ..Failure::new(group, broken.kind, broken.during, broken.message.clone(), witness)
    }
}
