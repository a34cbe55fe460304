//! The BEAPI search loop (paper Fig. 4), level by level.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

use regex::Regex;

use super::states::{StateKey, StateSet};
use super::{BeapiConfig, BeapiReport, FailureGroup, FailureKind, LevelStats, Progress, Structure};
use crate::api::{run_captured, Arg, Operation, Outcome, ParamKind, Returned, Subject};
use crate::heap::{Linearizer, ObjRef, ObjectId, Prim, Schema, Visitor};
use crate::sequence::{Literal, Output, Step, StepArg};
use crate::ConfigError;

/// How a stored structure is turned back into a value to call methods on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// Clone the stored value (the fast path).
    Clone,
    /// Re-run the sequence that built it.
    Replay,
}

/// How many clones with shared objects are checked against their originals,
/// and how many clones are looked at in all before trusting `Clone`.
const CLONE_CHECKS: u32 = 64;
const CLONES_LOOKED_AT: u32 = 1024;

/// One run's state.
pub(super) struct Search<'c, T: Subject> {
    config: &'c BeapiConfig,
    ops: Vec<Operation<T>>,
    /// Indices of the operations used as builders.
    chosen: Vec<usize>,
    /// Per operation, per parameter slot: the literals to try (empty for subject slots).
    domains: Vec<Vec<Vec<Literal>>>,
    misuse: Vec<Regex>,
    lin: Linearizer,
    states: StateSet,
    report: BeapiReport,
    /// The stored value of each structure, while it may still be extended.
    objects: Vec<Option<T>>,
    source: Source,
    clone_checks: u32,
    clones_looked_at: u32,
    /// Whether some builder takes two or more structures.
    keeps_all_objects: bool,
    /// Whether `rep_ok` runs on every output, not only on new structures.
    check_every_output: bool,
    started: Instant,
    stop: bool,
    args: Vec<Arg<T>>,
    keys: Vec<StateKey>,
}

impl<'c, T: Subject> Search<'c, T> {
    pub(super) fn new(config: &'c BeapiConfig, chosen_names: &[String]) -> Result<Self, ConfigError> {
        config.validate()?;
        let ops = T::operations();
        if !ops.iter().any(|op| op.is_constructor()) {
            return Err(ConfigError::SubjectWithoutConstructor);
        }
        let known = || ops.iter().map(|op| op.name).collect::<Vec<_>>().join(", ");
        let mut chosen = Vec::new();
        for name in chosen_names {
            let index = ops
                .iter()
                .position(|op| op.name == name)
                .ok_or_else(|| ConfigError::UnknownBuilder { name: name.clone(), known: known() })?;
            if !chosen.contains(&index) {
                chosen.push(index);
            }
        }
        chosen.sort_unstable();
        if !chosen.iter().any(|&i| ops[i].is_constructor()) {
            return Err(ConfigError::NoConstructor(chosen_names.to_vec()));
        }
        let schema = Schema::of::<T>();
        let omitted = schema.resolve_fields(&config.omit)?;
        // With hidden state, one canonical form can hold both valid and broken values.
        let check_every_output = T::HAS_REP_OK && (schema.hides_fields() || !omitted.is_empty());
        let misuse = config
            .misuse_panics
            .iter()
            .map(|p| Regex::new(p).map_err(|e| ConfigError::BadPattern { pattern: p.clone(), reason: e.to_string() }))
            .collect::<Result<Vec<_>, _>>()?;
        let domains = ops.iter().map(|op| op.params.iter().map(|p| domain(config, *p)).collect()).collect();
        let keeps_all_objects =
            chosen.iter().any(|&i| ops[i].params.iter().filter(|p| matches!(p, ParamKind::Subject(_))).count() > 1);
        let report = BeapiReport {
            subject: std::any::type_name::<T>().to_owned(),
            scope: config.scope,
            operations: ops.iter().map(|op| op.info()).collect(),
            builders: chosen.iter().map(|&i| ops[i].name.to_owned()).collect(),
            structures: Vec::new(),
            levels: Vec::new(),
            explored: 0,
            misuses: 0,
            out_of_scope: 0,
            failures: Vec::new(),
            seconds: 0.0,
            timed_out: false,
            interrupted: None,
            notes: Vec::new(),
        };
        Ok(Search {
            config,
            ops,
            chosen,
            domains,
            misuse,
            lin: Linearizer::new(Some(config.scope)).omit(omitted),
            states: StateSet::new(config.storage),
            report,
            objects: Vec::new(),
            source: Source::Clone,
            clone_checks: 0,
            clones_looked_at: 0,
            keeps_all_objects,
            check_every_output,
            started: Instant::now(),
            stop: false,
            args: Vec::new(),
            keys: Vec::new(),
        })
    }

    /// Runs levels until one adds nothing (or a limit stops it).
    pub(super) fn run(mut self, progress: &mut dyn Progress) -> BeapiReport {
        let mut level = 1u32;
        let mut frontier = 0..0usize;
        loop {
            if self.config.max_length.is_some_and(|max| level > max) {
                break;
            }
            let level_started = Instant::now();
            let explored_before = self.report.explored;
            let first_new = self.report.structures.len();
            progress.level_started(level, frontier.len());
            for i in 0..self.chosen.len() {
                let op = self.chosen[i];
                self.extend_with(op, level, frontier.clone(), progress);
                if self.stop {
                    break;
                }
            }
            let stats = LevelStats {
                level,
                structures: self.report.structures.len() - first_new,
                explored: self.report.explored - explored_before,
                seconds: level_started.elapsed().as_secs_f64(),
            };
            progress.level_finished(&stats);
            let added = stats.structures;
            self.report.levels.push(stats);
            if self.stop || added == 0 {
                break;
            }
            if !self.keeps_all_objects {
                // Only the newest level is extended from here on.
                self.objects[frontier.clone()].iter_mut().for_each(|o| *o = None);
            }
            frontier = first_new..self.report.structures.len();
            level += 1;
        }
        self.report.seconds = self.started.elapsed().as_secs_f64();
        self.report
    }

    /// Runs `op` on every tuple of inputs that has at least one structure from `frontier`.
    fn extend_with(&mut self, op: usize, level: u32, frontier: std::ops::Range<usize>, progress: &mut dyn Progress) {
        crate::api::set_current_operation(self.ops[op].name);
        let params = self.ops[op].params.clone();
        let subject_slots: Vec<usize> =
            (0..params.len()).filter(|&p| matches!(params[p], ParamKind::Subject(_))).collect();
        if subject_slots.is_empty() && level > 1 {
            return; // Constructors are deterministic: their level-1 calls said all.
        }
        if !subject_slots.is_empty() && frontier.is_empty() {
            return;
        }
        let literal_slots: Vec<usize> = (0..params.len()).filter(|p| !subject_slots.contains(p)).collect();
        let literal_sizes: Vec<usize> = literal_slots.iter().map(|&p| self.domains[op][p].len()).collect();
        if literal_sizes.contains(&0) {
            return; // An empty domain: the operation cannot be called.
        }
        let mut structures = vec![0u32; subject_slots.len()];
        // Tuples with at least one frontier component: pick the first such position.
        let first_positions = if subject_slots.is_empty() { 0..1 } else { 0..subject_slots.len() };
        for first in first_positions {
            let ranges: Vec<std::ops::Range<usize>> = (0..subject_slots.len())
                .map(|k| match k.cmp(&first) {
                    std::cmp::Ordering::Less => 0..frontier.start,
                    std::cmp::Ordering::Equal => frontier.clone(),
                    std::cmp::Ordering::Greater => 0..frontier.end,
                })
                .collect();
            if ranges.iter().any(|r| r.is_empty()) {
                continue;
            }
            let mut structure_odometer = Odometer::from_ranges(&ranges);
            loop {
                for (slot, value) in structures.iter_mut().zip(structure_odometer.current()) {
                    *slot = *value as u32;
                }
                let mut literal_odometer = Odometer::from_sizes(&literal_sizes);
                loop {
                    self.execute(op, level, &subject_slots, &structures, &literal_slots, literal_odometer.current());
                    if self.report.explored % 4096 == 0 {
                        if let ControlFlow::Break(reason) =
                            progress.tick(self.report.explored, self.report.structures.len())
                        {
                            self.report.interrupted = Some(reason);
                            self.stop = true;
                            return;
                        }
                        if self.config.time_limit.is_some_and(|limit| self.started.elapsed() >= limit) {
                            self.report.timed_out = true;
                            self.stop = true;
                            return;
                        }
                    }
                    if !literal_odometer.advance() {
                        break;
                    }
                }
                if !structure_odometer.advance() {
                    break;
                }
            }
        }
    }

    /// A value for structure `index`: a clone of the stored one, or a replay.
    fn materialize(&mut self, index: u32) -> Option<T> {
        if self.source == Source::Clone {
            if let Some(stored) = &self.objects[index as usize] {
                match stored.try_clone() {
                    Some(copy) => {
                        let shallow = self.clone_checks < CLONE_CHECKS && self.clones_looked_at < CLONES_LOOKED_AT && {
                            self.clones_looked_at += 1;
                            let (ok, checked) = clone_is_deep(stored, &copy);
                            self.clone_checks += u32::from(checked);
                            !ok
                        };
                        if shallow {
                            self.source = Source::Replay;
                            self.report.notes.push(format!(
                                "`Clone` of {} shares objects with the original, so stored structures are rebuilt \
                                 by replaying their sequences (slower); implement a deep Clone to use the fast path",
                                self.report.subject
                            ));
                        } else {
                            return Some(copy);
                        }
                    }
                    None => self.source = Source::Replay,
                }
            }
        }
        self.replay(index)
    }

    /// Rebuilds structure `index` by running its sequence from the start.
    fn replay(&mut self, index: u32) -> Option<T> {
        let step = self.report.structures[index as usize].step.clone();
        let mut args = Vec::with_capacity(step.args.len());
        for arg in &step.args {
            args.push(match arg {
                StepArg::Structure(s) => Arg::Subject(self.replay(*s)?),
                StepArg::Literal(lit) => lit.to_arg(),
            });
        }
        let invoke = self.ops[usize::from(step.op)].invoke;
        let returned = run_captured(|| invoke(&mut args, false)).ok()?;
        match (step.output, returned) {
            (Output::Result, Returned::Subject(value)) => Some(value),
            (Output::Param(p), _) => match std::mem::replace(&mut args[usize::from(p)], Arg::Taken) {
                Arg::Subject(value) => Some(value),
                _ => None,
            },
            _ => None,
        }
    }

    fn execute(
        &mut self,
        op: usize,
        level: u32,
        subject_slots: &[usize],
        structures: &[u32],
        literal_slots: &[usize],
        literal_choice: &[usize],
    ) {
        self.report.explored += 1;
        let call = CallSite { op, subject_slots, structures, literal_slots, literal_choice };
        // Buffers are reused across executions: this is the hot path.
        let mut args = std::mem::take(&mut self.args);
        args.clear();
        let arity = self.ops[op].params.len();
        let mut subject_k = 0;
        let mut literal_k = 0;
        for slot in 0..arity {
            if subject_slots.get(subject_k) == Some(&slot) {
                let index = structures[subject_k];
                subject_k += 1;
                let Some(value) = self.materialize(index) else {
                    self.report.notes.push(format!("structure {index} could not be rebuilt; skipped"));
                    self.args = args;
                    return;
                };
                args.push(Arg::Subject(value));
            } else {
                args.push(self.domains[op][literal_slots[literal_k]][literal_choice[literal_k]].to_arg());
                literal_k += 1;
            }
        }
        let invoke = self.ops[op].invoke;
        let returned = match run_captured(|| invoke(&mut args, false)) {
            Ok(Returned::Misuse(_)) | Err(Outcome::AssumeFailed(_)) => {
                self.report.misuses += 1;
                self.args = args;
                return;
            }
            Ok(returned) => returned,
            Err(Outcome::Panicked(panic)) => {
                if self.misuse.iter().any(|re| re.is_match(&panic.message)) {
                    self.report.misuses += 1;
                } else {
                    let step_args = self.step_args(&call);
                    self.fail(FailureKind::Panic { panic }, level, op, step_args, None);
                }
                self.args = args;
                return;
            }
        };
        // Every structure the call leaves behind, in slot order, then the result.
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let results = args.iter().filter_map(|arg| match arg {
            Arg::Subject(value) => Some(value),
            _ => None,
        });
        let result = match &returned {
            Returned::Subject(value) => Some(value),
            _ => None,
        };
        for value in results.chain(result) {
            match self.lin.linearize(value) {
                Ok(tokens) => keys.push(self.states.key(tokens)),
                Err(_) => {
                    self.report.out_of_scope += 1;
                    self.args = args;
                    self.keys = keys;
                    return;
                }
            }
        }
        let mut keys_iter = keys.drain(..);
        for (slot, arg) in args.drain(..).enumerate() {
            if let Arg::Subject(value) = arg {
                let key = keys_iter.next().expect("one key per output");
                self.consider(&call, level, Output::Param(slot as u8), value, key);
            }
        }
        if let Returned::Subject(value) = returned {
            let key = keys_iter.next().expect("one key per output");
            self.consider(&call, level, Output::Result, value, key);
        }
        drop(keys_iter);
        self.args = args;
        self.keys = keys;
    }

    /// Stores `value` if it is new (or state matching is off) and passes `rep_ok`.
    fn consider(&mut self, call: &CallSite<'_>, level: u32, output: Output, value: T, key: StateKey) {
        // A state is visited only once it passed `rep_ok`: a broken value must
        // not hide a valid one with the same canonical form (hidden fields),
        // and each sequence that makes a broken value is counted.
        let new = !self.states.contains(&key);
        if (new || self.check_every_output) && T::HAS_REP_OK {
            let operation = self.ops[call.op].name.to_owned();
            let failure = match run_captured(|| value.rep_ok()) {
                Ok(Some(false)) => Some(FailureKind::RepOkFalse { operation }),
                Err(Outcome::Panicked(panic) | Outcome::AssumeFailed(panic)) => {
                    Some(FailureKind::RepOkPanic { operation, panic })
                }
                Ok(_) => None,
            };
            if let Some(kind) = failure {
                let step_args = self.step_args(call);
                self.fail(kind, level, call.op, step_args, Some(output));
                return;
            }
        }
        if new {
            self.states.insert(key);
        } else if self.config.state_matching {
            return;
        }
        let canonical = if self.config.record_canonical { self.lin.text(&value).ok() } else { None };
        let step = Step { op: call.op as u16, args: self.step_args(call), output };
        self.report.structures.push(Structure { level, step, canonical });
        self.objects.push(Some(value));
    }

    /// The recorded arguments of a call.
    fn step_args(&self, call: &CallSite<'_>) -> Vec<StepArg> {
        let arity = self.ops[call.op].params.len();
        let mut out = Vec::with_capacity(arity);
        let (mut subject_k, mut literal_k) = (0, 0);
        for slot in 0..arity {
            if call.subject_slots.get(subject_k) == Some(&slot) {
                out.push(StepArg::Structure(call.structures[subject_k]));
                subject_k += 1;
            } else {
                let literal = &self.domains[call.op][call.literal_slots[literal_k]][call.literal_choice[literal_k]];
                out.push(StepArg::Literal(literal.clone()));
                literal_k += 1;
            }
        }
        out
    }

    fn fail(&mut self, kind: FailureKind, level: u32, op: usize, args: Vec<StepArg>, output: Option<Output>) {
        if let Some(group) = self.report.failures.iter_mut().find(|g| g.kind == kind) {
            group.count += 1;
            return;
        }
        self.report.failures.push(FailureGroup { kind, count: 1, level, op: op as u16, args, output });
    }
}

/// Which inputs one execution uses.
struct CallSite<'a> {
    op: usize,
    subject_slots: &'a [usize],
    structures: &'a [u32],
    literal_slots: &'a [usize],
    literal_choice: &'a [usize],
}

/// Counts through every combination of positions, last position fastest.
struct Odometer {
    starts: Vec<usize>,
    ends: Vec<usize>,
    current: Vec<usize>,
}

impl Odometer {
    fn from_ranges(ranges: &[std::ops::Range<usize>]) -> Self {
        Odometer {
            starts: ranges.iter().map(|r| r.start).collect(),
            ends: ranges.iter().map(|r| r.end).collect(),
            current: ranges.iter().map(|r| r.start).collect(),
        }
    }

    fn from_sizes(sizes: &[usize]) -> Self {
        let ranges: Vec<_> = sizes.iter().map(|&n| 0..n).collect();
        Self::from_ranges(&ranges)
    }

    fn current(&self) -> &[usize] {
        &self.current
    }

    /// Moves to the next combination; false after the last.
    fn advance(&mut self) -> bool {
        for k in (0..self.current.len()).rev() {
            self.current[k] += 1;
            if self.current[k] < self.ends[k] {
                return true;
            }
            self.current[k] = self.starts[k];
        }
        false
    }
}

/// The literals a parameter of `kind` ranges over.
fn domain(config: &BeapiConfig, kind: ParamKind) -> Vec<Literal> {
    match kind {
        ParamKind::Subject(_) => Vec::new(),
        ParamKind::Int(int) => config.int_range().filter(|v| int.fits(*v)).map(Literal::Int).collect(),
        ParamKind::Bool => vec![Literal::Bool(false), Literal::Bool(true)],
        ParamKind::Char => config.chars.iter().copied().map(Literal::Char).collect(),
        ParamKind::Str => config.strings.iter().map(|s| Literal::Str(Arc::from(s.as_str()))).collect(),
    }
}

/// Whether `copy` shares no object with `original`, and whether that was
/// checked at all (a heap without addressed objects says nothing).
fn clone_is_deep<T: Subject>(original: &T, copy: &T) -> (bool, bool) {
    let theirs = addresses(original);
    if theirs.is_empty() {
        return (true, false);
    }
    let ours = addresses(copy);
    (!ours.iter().any(|a| theirs.contains(a)), true)
}

/// The identities of the shared objects (`Rc`, arena elements) reachable from `value`.
fn addresses<T: Subject>(value: &T) -> Vec<ObjectId> {
    struct Collect {
        seen: Vec<ObjectId>,
    }
    impl Visitor for Collect {
        fn field(&mut self, _: &'static crate::heap::Class, _: usize) -> bool {
            true
        }
        fn null(&mut self) {}
        fn some(&mut self) {}
        fn prim(&mut self, _: Prim<'_>) {}
        fn variant(&mut self, _: u32) {}
        fn seq_begin(&mut self, _: usize) {}
        fn seq_end(&mut self) {}
        fn inline(&mut self, _: &'static crate::heap::Class, value: &dyn crate::heap::Heap) {
            value.walk(self);
        }
        fn object(&mut self, obj: ObjRef<'_>) {
            if let Some(addr) = obj.addr {
                if self.seen.contains(&addr) {
                    return;
                }
                self.seen.push(addr);
            }
            obj.value.walk(self);
        }
        fn arena(&mut self, _: &'static str, arena: &dyn crate::heap::Arena, body: &mut dyn FnMut(&mut dyn Visitor)) {
            // A cloned arena is a new value: its elements have new identities.
            self.seen.extend((0..arena.len()).map(|i| ObjectId::in_arena(arena, i)));
            body(self);
        }
        fn arena_link(&mut self, _: &'static str, _: Option<usize>) {}
    }
    let mut collect = Collect { seen: Vec::new() };
    value.walk(&mut collect);
    collect.seen
}
