//! The generation loop (thesis §5.5 and §7.5): assemble a new sequence
//! from stored ones, reject it if made before, run it, and keep it for
//! reuse when it is legal and made a value not seen before.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};
use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;
use rand_xorshift::XorShiftRng;
use rustc_hash::{FxHashMap, FxHashSet};

use super::execute::{Broken, Executor, Handles, SequenceBuffers, Shared, Values};
use super::journal::Delta;
use super::sequence::Sequence;
use super::GroupKey;
use super::{RandomConfig, Resume};
use crate::api::{OperationInfo, OtherDomains, StdTraitTable};
use crate::events::{Counts, EdgeGain, Event, Failure, Input, Progress, Sink, Stop, Witness};
use crate::heap::Heap;
use crate::runner::StopFlag;
use crate::sequence::Program;

mod assemble;
mod feedback;
mod journaling;

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
    /// Branch-directed generation: the input counts replays.
    pub const BRANCH: u64 = 6;
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
    /// With coverage: the crate's edges taken after the last gain, and
    /// the gains not emitted yet.
    edges_seen: u64,
    edge_gains: Vec<EdgeGain>,
    sequence_buffers: SequenceBuffers,
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
            edges_seen: 0,
            edge_gains: Vec::new(),
            sequence_buffers: Default::default(),
        }
    }

    /// Why the run is asked to stop, if it is.
    pub fn stop_asked(&self) -> Option<Stop> {
        self.outlet.stop.and_then(StopFlag::reason)
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
        let time_limit = self.config.generation_time_limit().map(|t| t.as_secs_f64());
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
        Counts {
            structures: self.components.len() as u64,
            edges_covered: crate::edges::covered(),
            edges_total: crate::edges::count().map_or(0, |count| count.user as u64),
            ..self.counts.clone()
        }
    }

    /// Records a gain when the crate's edges grew since the last: called
    /// after each sequence.
    fn note_edges(&mut self) {
        let edges = crate::edges::covered();
        if edges > self.edges_seen {
            self.edges_seen = edges;
            self.edge_gains.push(EdgeGain { sequences: self.counts.explored, edges });
        }
    }

    /// The gains since the last call, for a progress event. Edges taken
    /// after the sequences (simplifying failures, making regression tests)
    /// are in the counts, not here.
    pub fn take_edge_gains(&mut self) -> Vec<EdgeGain> {
        std::mem::take(&mut self.edge_gains)
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
            edge_gains: self.take_edge_gains(),
            resume: crate::events::Resume::Random(Resume { sequences: self.counts.explored }),
        };
        self.emit(Event::Progress(progress));
        let delta = self.take_delta();
        let bytes = postcard::to_stdvec(&delta).expect("journal entries serialize");
        self.outlet.out.commit(&bytes);
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
