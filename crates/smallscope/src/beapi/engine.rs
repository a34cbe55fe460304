//! The BEAPI search loop (paper Fig. 4), level by level, as a stream of events.
//!
//! Every execution has an address: the search's `run` number and its
//! ordinal (the count of executions so far). The flight recorder holds it
//! while user code runs, so an input that kills the process or hangs is
//! known to the supervisor, and the next attempt reports it and steps past it.

use std::sync::Arc;
use std::time::Instant;

use regex::Regex;

use super::skips::{merge_note, DebugFn, SkipAudit};
use super::state_graph::StateGraph;
use super::states::{StateKey, StateSet};
use super::{BeapiConfig, BeapiReport, Check, Resume};
use crate::api::{Arg, HandleValue, IntKind, Operation, OperationInfo, OtherDomains, ParamKind, Returned, Subject};
use crate::error::MAX_DOMAIN;
use crate::events::{
    Counts, During, Event, Failure, FailureGroups, FailureKind, Fingerprint, Input, LevelStats, Note, Progress,
    Rebuild, RunFinished, Sink, Stop, StructureFound, Witness,
};
use crate::heap::{shallow_clone_note, CloneAudit, Linearizer, OutOfScope, PairNumbers, Schema};
use crate::runner::memory::{self, Pressure};
use crate::runner::{drop_captured, flight, run_captured, Address, Killed, Outcome, StopFlag, UserCode};
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

/// Executions between two commits.
const COMMIT_EVERY: u64 = 4096;

/// Levels in a row that make states but no structure after which the
/// search ends as [`Stop::Unbounded`]: what changes is state the canonical
/// form leaves out (an omitted counter, arena slots only handles reach),
/// and nothing in the scope bounds it.
const BARREN_LEVELS: u32 = 8;

/// What failures are grouped by: the kind, the user code, the operation
/// (not for a panic, whose location says where), the message and location.
#[derive(Debug, Clone, PartialEq, Eq)]
struct GroupKey {
    kind: FailureKind,
    during: During,
    operation: Option<String>,
    message: String,
    location: Option<String>,
}

/// The operation a failure is grouped by: none for a panic outside `rep_ok`.
fn grouping_operation(kind: FailureKind, during: During, operation: Option<&str>) -> Option<&str> {
    operation.filter(|_| kind != FailureKind::Panic || during == During::RepOk)
}

impl GroupKey {
    fn of(failure: &Failure) -> Self {
        GroupKey {
            kind: failure.kind,
            during: failure.during,
            operation: grouping_operation(failure.kind, failure.during, failure.operation.as_deref()).map(Into::into),
            message: failure.message.clone(),
            location: failure.location.clone(),
        }
    }

    fn matches(&self, found: &Found, operation: Option<&str>) -> bool {
        self.kind == found.kind
            && self.during == found.during
            && self.operation.as_deref() == operation
            && self.message == found.message
            && self.location == found.location
    }
}

/// A failing input, before it is known whether it opens a group.
struct Found {
    kind: FailureKind,
    during: During,
    /// The operation whose call it was, or whose call left the value.
    op: Option<usize>,
    message: String,
    location: Option<String>,
}

impl Found {
    fn panic(during: During, op: Option<usize>, panic: crate::runner::PanicInfo) -> Self {
        Found { kind: FailureKind::Panic, during, op, message: panic.message, location: panic.location }
    }

    fn killed(killed: &Killed, op: Option<usize>) -> Self {
        Found { kind: killed.kind, during: killed.during, op, message: killed.message.clone(), location: None }
    }

    /// An input that killed a worker once and returned when run again.
    fn flaky(killed: &Killed, op: Option<usize>) -> Self {
        Found { kind: FailureKind::Flaky, during: killed.during, op, message: killed.flaky_message(), location: None }
    }
}

/// Who runs a search, and where its events go.
pub(super) struct Context<'a> {
    /// The search's number in addresses: 0 for the main search.
    pub run: u64,
    pub killed: &'a [Killed],
    pub stop: Option<&'a StopFlag>,
    pub out: &'a mut dyn Sink,
    /// The command that reproduces the run, for failures.
    pub replay: Option<String>,
}

/// One run's state.
pub(super) struct Search<'a, T: Subject> {
    config: &'a BeapiConfig,
    cx: Context<'a>,
    ops: Vec<Operation<T>>,
    infos: Vec<OperationInfo>,
    /// Indices of the operations used as builders.
    chosen: Vec<usize>,
    /// Indices of the operations called on each kept structure to check it.
    checked: Vec<usize>,
    /// Per operation, per parameter slot: the literals to try (empty for subject slots).
    domains: Vec<Vec<Vec<Literal>>>,
    misuse: Vec<Regex>,
    /// The canonical form, which counts structures (and checks the scope).
    lin: Linearizer,
    /// When fields are omitted from the canonical form: the state with
    /// them, which state matching keys on, so that two states with one
    /// canonical form are both extended (see `crate::heap` on hidden state).
    key_lin: Option<Linearizer>,
    /// The states kept: canonical forms, or states with omitted fields.
    states: StateSet,
    /// With `key_lin`: the canonical forms of the states kept.
    forms: StateSet,
    /// The last call of each state kept (structures, and states that only
    /// differ from one in omitted fields).
    structures: Vec<Step>,
    /// The stored value of each structure, while it may still be extended.
    objects: Vec<Option<T>>,
    source: Source,
    clone_audit: CloneAudit,
    /// Whether some builder takes two or more structures.
    keeps_all_objects: bool,
    /// Whether `rep_ok` runs on every output, not only on new structures.
    check_every_output: bool,
    counts: Counts,
    groups: FailureGroups<GroupKey>,
    level: u32,
    /// The structures the current level extends, and where its own begin.
    frontier: std::ops::Range<usize>,
    level_start: usize,
    /// Structures counted before the current level.
    level_counted: u64,
    level_explored: u64,
    level_checked: u64,
    level_seconds: f64,
    /// Levels in a row that made states but no structure, and their states.
    barren: (u32, u64),
    /// Executions up to this ordinal were done by an earlier attempt.
    done: u64,
    seconds_before: f64,
    started: Instant,
    stop: Option<Stop>,
    /// Values are forgotten instead of dropped: a `Drop` killed an earlier attempt here.
    leak: bool,
    /// Set while resuming rebuilds values: what their code does was
    /// reported by the run that first built them.
    restoring: bool,
    /// A new failure group waits for the commit after its execution.
    commit_due: bool,
    args: Vec<Arg<T>>,
    keys: Vec<Keys>,
    /// What the user should know about the run's settings, for its start.
    notes: Vec<String>,
    /// The collection fields whose bound a note told of.
    noted_collections: Vec<String>,
    /// How many collection fields the linearizers had met at the last look.
    collections_met: usize,
    /// Calls dropped by each bound that a collection passed, named as the
    /// bound is: counts of earlier attempts by name, then this one's.
    cut_before: Vec<(String, u64)>,
    cut: Vec<(&'static str, &'static str, u64)>,
    /// Set by [`Search::record_graph`].
    recording: Option<Recording>,
    /// Set by [`Search::audit_skips`].
    skips: Option<SkipAudit<T>>,
}

/// The state graph, as the search makes it.
#[derive(Default)]
struct Recording {
    graph: StateGraph,
    numbers: PairNumbers,
    /// Each kept state's number, by fingerprint.
    index_of: rustc_hash::FxHashMap<u128, u32>,
    outputs: Vec<u32>,
}

/// An output's state key, and its canonical form's when they differ.
struct Keys {
    state: StateKey,
    form: Option<StateKey>,
}

impl<'a, T: Subject> Search<'a, T> {
    pub(super) fn new(config: &'a BeapiConfig, chosen_names: &[String], cx: Context<'a>) -> Result<Self, ConfigError> {
        config.validate()?;
        let ops = T::operations();
        if !ops.iter().any(|op| op.is_constructor()) {
            return Err(ConfigError::SubjectWithoutConstructor);
        }
        let chosen = crate::api::select_operations(&ops, chosen_names)?;
        let checked = checked_operations(&ops, &config.check, &chosen)?;
        let schema = Schema::of::<T>();
        let omitted = schema.resolve_fields(&config.omit)?;
        // State matching keys on every field walked, omitted ones too, but a
        // skipped field is in no key: one key can then hold both valid and
        // broken values.
        let check_every_output = T::HAS_REP_OK && schema.skips_fields();
        let misuse = config
            .misuse_panics
            .iter()
            .map(|p| Regex::new(p).map_err(|e| ConfigError::BadPattern { pattern: p.clone(), reason: e.to_string() }))
            .collect::<Result<Vec<_>, _>>()?;
        let began = Instant::now();
        // Other subjects' structures, for the operations that take one.
        let called = || chosen.iter().chain(&checked).map(|&i| &ops[i]);
        let others = OtherDomains::of(called(), config, cx.killed, cx.stop);
        let domains = ops
            .iter()
            .map(|op| {
                (op.params.iter().enumerate())
                    .map(|(slot, &kind)| match (kind, op.other(slot)) {
                        (ParamKind::Other(_), Some(other)) => Ok(others.values(other).to_vec()),
                        _ => domain(config, kind, op.name),
                    })
                    .collect::<Result<_, _>>()
            })
            .collect::<Result<_, _>>()?;
        let keeps_all_objects =
            called().any(|op| op.params.iter().filter(|p| matches!(p, ParamKind::Subject(_))).count() > 1);
        let notes = others.notes;
        let collections = Some(config.collection_limit());
        Ok(Search {
            config,
            cx,
            infos: ops.iter().map(|op| op.info()).collect(),
            ops,
            chosen,
            checked,
            domains,
            misuse,
            key_lin: (schema.omits_fields() || !omitted.is_empty())
                .then(|| Linearizer::new(Some(config.scope)).collections(collections).every_field()),
            lin: Linearizer::new(Some(config.scope)).collections(collections).omit(omitted),
            states: StateSet::new(config.storage),
            forms: StateSet::new(config.storage),
            structures: Vec::new(),
            objects: Vec::new(),
            source: Source::Clone,
            clone_audit: CloneAudit::default(),
            keeps_all_objects,
            check_every_output,
            counts: Counts::default(),
            groups: FailureGroups::default(),
            level: 1,
            frontier: 0..0,
            level_start: 0,
            level_counted: 0,
            level_explored: 0,
            level_checked: 0,
            level_seconds: 0.0,
            barren: (0, 0),
            done: 0,
            seconds_before: 0.0,
            started: began,
            stop: None,
            leak: false,
            restoring: false,
            commit_due: false,
            args: Vec::new(),
            keys: Vec::new(),
            notes,
            noted_collections: Vec::new(),
            collections_met: 0,
            cut_before: Vec::new(),
            cut: Vec::new(),
            recording: None,
            skips: None,
        })
    }

    /// The names of the operations checked on every kept structure.
    pub(super) fn checked_names(&self) -> Vec<String> {
        self.checked.iter().map(|&op| self.ops[op].name.to_owned()).collect()
    }

    /// Says when state matching merges states that differ in a skipped
    /// field, which `debug` shows (see [`SkipAudit`]).
    pub(super) fn audit_skips(&mut self, debug: DebugFn<T>) {
        self.skips = SkipAudit::new(debug);
    }

    /// Records every call between kept states, for [`Search::run_recorded`].
    pub(super) fn record_graph(&mut self) {
        self.recording = Some(Recording::default());
    }

    /// Runs the search and returns its state graph (empty unless recorded).
    pub(super) fn run_recorded(mut self) -> (StateGraph, Stop) {
        let stop = self.search();
        let mut graph = self.recording.take().map(|recording| recording.graph).unwrap_or_default();
        graph.seal();
        (graph, stop)
    }

    /// Notes on how the search was set up (where other subjects' values
    /// came from), for the job to report after the run starts.
    pub(super) fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    pub(super) fn emit(&mut self, event: Event) {
        self.cx.out.event(event);
    }

    /// Carries on from the last commit of `report`: its structures are known,
    /// the values the search still extends are rebuilt by replaying them.
    pub(super) fn resume(&mut self, report: &BeapiReport) -> Result<(), ConfigError> {
        let resume = report.resume.clone().unwrap_or_default();
        self.structures = report.structures.iter().map(|s| s.step.clone()).collect();
        self.objects = (0..self.structures.len()).map(|_| None).collect();
        // The values the rest of the search extends.
        let keep = if self.keeps_all_objects { 0 } else { resume.frontier_start as usize };
        if let Some(skips) = &mut self.skips {
            skips.noted = resume.skips.clone();
        }
        // Canonical forms are not in the stream: with omitted fields, states
        // are linearized again, and an audit of skipped fields that goes on
        // sees them again.
        let audits = self.skips.as_ref().is_some_and(|s| !s.done(report.structures.len()));
        let by_print = matches!(self.states, StateSet::Fingerprints(_))
            && self.key_lin.is_none()
            && !audits
            && report.structures.iter().all(|s| s.fingerprint.is_some());
        self.restoring = true;
        for (index, structure) in report.structures.iter().enumerate() {
            if by_print {
                self.states.insert(StateKey::Fingerprint(structure.fingerprint.expect("checked").0));
                if index < keep {
                    continue;
                }
            }
            let value = self.replay(index as u32);
            if !by_print {
                let value = value
                    .as_ref()
                    .ok_or_else(|| ConfigError::Invalid(format!("resuming: structure {index} could not be rebuilt")))?;
                let keys = self.keys_of(value).map_err(|e| ConfigError::Invalid(e.to_string()))?;
                if let Some(skips) = self.skips.as_mut().filter(|s| !s.done(index)) {
                    skips.keep(keys.state.fingerprint(), value, structure.step.op);
                }
                self.states.insert(keys.state);
                if let Some(form) = keys.form {
                    self.forms.insert(form);
                }
            }
            match value {
                Some(value) if index < keep => self.drop_restored(value, index as u64),
                value => self.objects[index] = value,
            }
        }
        self.restoring = false;
        self.counts = Counts {
            // The level runs again from its start, skipping what was done.
            explored: resume.level_explored,
            checked: resume.level_checked,
            structures: report.structure_count() as u64,
            misuses: report.misuses,
            out_of_scope: report.out_of_scope,
            failing: report.failure_count(),
            operation_calls: report.operation_calls.clone(),
            operation_misuses: report.operation_misuses.clone(),
            ..Counts::default()
        };
        self.noted_collections = resume.collections.clone();
        self.cut_before = resume.cut.clone();
        self.groups = report.failures.iter().map(|f| (GroupKey::of(f), f.count)).collect();
        self.level = resume.level.max(1);
        self.frontier = resume.frontier_start as usize..resume.level_start as usize;
        self.level_start = resume.level_start as usize;
        self.level_counted = report.counted_structures().take_while(|(i, _)| *i < self.level_start).count() as u64;
        self.level_explored = resume.level_explored;
        self.level_checked = resume.level_checked;
        self.level_seconds = resume.level_seconds;
        self.done = report.explored + report.checked_calls;
        self.seconds_before = report.seconds;
        self.source = if resume.replay { Source::Replay } else { Source::Clone };
        self.clone_audit = CloneAudit { checks: resume.clone_checks, looked_at: resume.clones_looked_at };
        Ok(())
    }

    /// Drops a structure rebuilt only for its state while resuming; forgets
    /// it when its `Drop` killed an earlier attempt.
    fn drop_restored(&mut self, value: T, index: u64) {
        let run = self.cx.run;
        let kills = self
            .cx
            .killed
            .iter()
            .any(|k| k.during == During::Drop && k.address.run == run && k.address.detail == 1 + index);
        if kills {
            std::mem::forget(value);
        } else {
            self.discard(value, None, &|_| Input::Structure { index });
        }
    }

    /// Counts `seconds` spent before the search began (identifying its
    /// builders) in its time and time limit.
    pub(super) fn started_after(&mut self, seconds: f64) {
        self.seconds_before = seconds;
    }

    fn seconds(&self) -> f64 {
        self.seconds_before + self.started.elapsed().as_secs_f64()
    }

    /// Runs levels until one adds nothing (or a limit stops it).
    pub(super) fn run(mut self) -> Stop {
        self.search()
    }

    fn search(&mut self) -> Stop {
        let stop = loop {
            if self.config.max_length.is_some_and(|max| self.level > max) {
                break Stop::Complete;
            }
            // A stop raised before the level (while builders were identified) ends it unbegun.
            self.check_limits();
            if let Some(stop) = self.stop {
                break stop;
            }
            for i in 0..self.chosen.len() {
                let op = self.chosen[i];
                self.extend_with(op, self.frontier.clone(), false);
                if self.stop.is_some() {
                    break;
                }
            }
            // The structures this level made are checked before the next extends them.
            let made = self.level_start..self.structures.len();
            for i in 0..self.checked.len() {
                if self.stop.is_some() {
                    break;
                }
                let op = self.checked[i];
                self.extend_with(op, made.clone(), true);
            }
            // The level adds states; it reports the structures among them.
            let added = self.structures.len() - self.level_start;
            let stats = LevelStats {
                level: self.level,
                structures: (self.counts.structures - self.level_counted) as usize,
                explored: self.counts.explored - self.level_explored,
                checked: self.counts.checked - self.level_checked,
                seconds: self.seconds() - self.level_seconds,
            };
            self.cx.out.event(Event::Level(stats.clone()));
            if let Some(stop) = self.stop {
                break stop;
            }
            if added == 0 {
                break Stop::Complete;
            }
            self.barren = match stats.structures {
                0 => (self.barren.0 + 1, self.barren.1 + added as u64),
                _ => (0, 0),
            };
            if self.barren.0 >= BARREN_LEVELS {
                self.note_unbounded();
                break Stop::Unbounded;
            }
            if !self.keeps_all_objects {
                // Only the newest level is extended from here on.
                for index in self.frontier.clone() {
                    if let Some(value) = self.objects[index].take() {
                        self.forget_or_drop(value, index as u64);
                    }
                }
            }
            self.frontier = self.level_start..self.structures.len();
            self.level += 1;
            self.level_start = self.structures.len();
            self.level_counted = self.counts.structures;
            self.level_explored = self.counts.explored;
            self.level_checked = self.counts.checked;
            self.level_seconds = self.seconds();
            self.commit();
        };
        // The values still stored are dropped before the end is told: a
        // panicking `Drop` is a failure like any other.
        for index in 0..self.objects.len() {
            if let Some(value) = self.objects[index].take() {
                self.forget_or_drop(value, index as u64);
            }
        }
        if let Some(text) = self.cut_note() {
            self.cx.out.event(Event::Note(Note { text }));
        }
        self.quarantine_notes();
        let group_counts = self.groups.counts();
        self.cx.out.event(Event::RunFinished(RunFinished {
            stop,
            seconds: self.seconds(),
            counts: self.counts.clone(),
            group_counts,
        }));
        self.cx.out.commit(&[]);
        stop
    }

    /// Says why the search ended as [`Stop::Unbounded`], and what to do.
    fn note_unbounded(&mut self) {
        let (levels, states) = self.barren;
        let text = format!(
            "levels {} to {} made {states} states and no structure: each differs from a kept one only in what the \
             canonical form leaves out (a #[heap(omit)] field, or #[heap(arena)] slots that no field links to), \
             which grows without bound at this scope, so the search ended. Put what changes in the canonical form \
             (slots that only handles reach belong in a plain `Vec`, not an arena), #[heap(skip)] a counter, or \
             bound the levels with --max-length",
            self.level + 1 - levels,
            self.level,
        );
        self.cx.out.event(Event::Note(Note { text }));
    }

    /// Emits a resume point and commits what was sent. Only between
    /// executions: a resume skips every execution counted before it.
    fn commit(&mut self) {
        self.commit_due = false;
        let resume = Resume {
            level: self.level,
            level_start: self.level_start as u64,
            frontier_start: self.frontier.start as u64,
            level_explored: self.level_explored,
            level_checked: self.level_checked,
            level_seconds: self.level_seconds,
            replay: self.source == Source::Replay,
            clone_checks: self.clone_audit.checks,
            clones_looked_at: self.clone_audit.looked_at,
            collections: self.noted_collections.clone(),
            cut: self.cuts(),
            skips: self.skips.as_ref().map(|s| s.noted.clone()).unwrap_or_default(),
        };
        self.cx.out.event(Event::Progress(Progress {
            seconds: self.seconds(),
            counts: self.counts.clone(),
            group_counts: self.groups.counts(),
            resume: crate::events::Resume::Beapi(resume),
        }));
        self.cx.out.commit(&[]);
    }

    /// Executions so far, builders' and checks': the current one's number.
    fn ordinal(&self) -> u64 {
        self.counts.explored + self.counts.checked
    }

    fn address(&self, detail: u64) -> Address {
        Address { run: self.cx.run, input: self.ordinal(), detail }
    }

    /// Whether `op` is quarantined here: it kept killing the worker on
    /// inputs before this one.
    fn quarantined(&self, op: usize) -> bool {
        if self.cx.killed.is_empty() {
            return false;
        }
        let here = self.address(0);
        Killed::quarantined(self.cx.killed, here).any(|k| usize::from(k.op) == op)
    }

    /// Says which operations were quarantined, and what was not run.
    fn quarantine_notes(&mut self) {
        let here = self.address(u64::MAX);
        let quarantined: Vec<Killed> = Killed::quarantined(self.cx.killed, here).cloned().collect();
        for killed in quarantined {
            let op = usize::from(killed.op);
            let skipped = self.counts.quarantined_calls.get(op).copied().unwrap_or(0);
            let repeats = Killed::repeats_text(self.cx.killed, &killed);
            let text = format!(
                "`{}` quarantined after {repeats}: its {skipped} later calls were not made, so it is untested on \
                 the structures they would have run on",
                self.ops[op].name,
            );
            self.cx.out.event(Event::Note(Note { text }));
        }
    }

    /// Runs `op` on every tuple of inputs that has at least one structure
    /// from `frontier`: to extend the search with what it makes, or, with
    /// `check`, to check what it makes and drop it.
    fn extend_with(&mut self, op: usize, frontier: std::ops::Range<usize>, check: bool) {
        let params = self.ops[op].params.clone();
        let subject_slots: Vec<usize> =
            (0..params.len()).filter(|&p| matches!(params[p], ParamKind::Subject(_))).collect();
        if subject_slots.is_empty() && self.level > 1 {
            return; // Constructors are deterministic: their level-1 calls said all.
        }
        if !subject_slots.is_empty() && frontier.is_empty() {
            return;
        }
        let literal_slots: Vec<usize> = (0..params.len()).filter(|p| !subject_slots.contains(p)).collect();
        let mut literal_sizes: Vec<usize> = literal_slots.iter().map(|&p| self.domains[op][p].len()).collect();
        // A handle slot's domain is the handles on the receiver's chain, per receiver.
        let handle_kinds: Vec<Option<u8>> = (literal_slots.iter())
            .map(|&p| match params[p] {
                ParamKind::Handle { kind, .. } => Some(kind),
                _ => None,
            })
            .collect();
        let takes_handles = handle_kinds.iter().any(Option::is_some);
        if literal_sizes.iter().zip(&handle_kinds).any(|(&size, kind)| size == 0 && kind.is_none()) {
            return; // An empty domain: the operation cannot be called.
        }
        let mut available: Vec<Vec<u32>> = vec![Vec::new(); literal_slots.len()];
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
                if takes_handles {
                    for (k, kind) in handle_kinds.iter().enumerate() {
                        if let (Some(kind), Some(&receiver)) = (kind, structures.first()) {
                            available[k] = self.handles_of(receiver, *kind);
                            literal_sizes[k] = available[k].len();
                        }
                    }
                }
                // No handle of a kind the call takes: no call on these structures.
                let mut literal_odometer = Odometer::from_sizes(&literal_sizes);
                while !literal_sizes.contains(&0) {
                    match check {
                        false => self.counts.explored += 1,
                        true => self.counts.checked += 1,
                    }
                    if self.ordinal() > self.done {
                        let call = CallSite {
                            op,
                            subject_slots: &subject_slots,
                            structures: &structures,
                            literal_slots: &literal_slots,
                            literal_choice: literal_odometer.current(),
                            handles: if takes_handles { &available } else { &[] },
                            check,
                            level: self.level + u32::from(check),
                        };
                        match self.quarantined(op) {
                            true => bump(&mut self.counts.quarantined_calls, op),
                            false => {
                                self.count_call(op);
                                self.execute(&call);
                            }
                        }
                        if self.stop.is_some() {
                            return;
                        }
                        if self.ordinal() % COMMIT_EVERY == 0 {
                            self.check_limits();
                            if self.stop.is_some() {
                                return;
                            }
                            self.commit();
                        } else if self.commit_due {
                            self.commit();
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

    /// The structures on `index`'s chain (itself, its parent, and so on)
    /// whose last call returned a handle of `kind`, oldest first: the
    /// handles a call on `index` can take.
    fn handles_of(&self, index: u32, kind: u8) -> Vec<u32> {
        let mut found = Vec::new();
        let mut at = Some(index);
        while let Some(structure) = at {
            let step = &self.structures[structure as usize];
            // A returned handle goes with the structures in the call's slots.
            if self.ops[usize::from(step.op)].returns_handle == Some(kind) && matches!(step.output, Output::Param(_)) {
                found.push(structure);
            }
            at = step.parent();
        }
        found.reverse();
        found
    }

    fn check_limits(&mut self) {
        if let Some(reason) = self.cx.stop.and_then(StopFlag::reason) {
            self.stop = Some(reason);
        } else if self.config.time_limit.is_some_and(|limit| self.seconds() >= limit.as_secs_f64()) {
            self.stop = Some(Stop::TimeLimit);
        }
    }

    /// A value for structure `index`: a clone of the stored one, or a replay.
    /// `None` when it cannot be made (its `Clone` failed: reported).
    fn materialize(&mut self, index: u32, call: &CallSite<'_>) -> Option<T> {
        if self.source == Source::Clone {
            if let Some(stored) = &self.objects[index as usize] {
                flight::position(self.address(1 + u64::from(index)));
                let copy = run_captured(UserCode::new(During::Clone, call.op as u16), || stored.try_clone());
                flight::position(self.address(0));
                match copy {
                    Ok(Some(copy)) => {
                        let shallow = self.clone_audit.is_shallow(stored, &copy);
                        if !shallow {
                            return Some(copy);
                        }
                        self.forget_or_drop(copy, u64::from(index));
                        self.use_replay(shallow_clone_note::<T>());
                    }
                    Ok(None) => self.source = Source::Replay,
                    Err(Outcome::Panicked(panic) | Outcome::AssumeFailed(panic)) => {
                        let found = Found::panic(During::Clone, Some(call.op), panic);
                        self.file(found, &|_| Input::Structure { index: u64::from(index) });
                        self.use_replay(clone_failed_note::<T>("panicked"));
                    }
                }
            }
        }
        self.replay(index)
    }

    /// From now on, stored structures are rebuilt by replay.
    fn use_replay(&mut self, note: String) {
        self.source = Source::Replay;
        self.cx.out.event(Event::Note(Note { text: note }));
    }

    /// Rebuilds structure `index` by running its sequence from the start.
    fn replay(&mut self, index: u32) -> Option<T> {
        self.replay_collecting(index, &mut Vec::new())
    }

    /// [`Self::replay`], adding to `handles` each handle the sequence's
    /// calls returned, by the structure whose call returned it: a handle a
    /// call takes is the one this run of its chain made.
    fn replay_collecting(&mut self, index: u32, handles: &mut Vec<(u32, HandleValue)>) -> Option<T> {
        let step = self.structures[index as usize].clone();
        let mut args = Vec::with_capacity(step.args.len());
        for arg in &step.args {
            args.push(match arg {
                StepArg::Structure(s) => Arg::Subject(self.replay_collecting(*s, handles)?),
                StepArg::Literal(lit) => lit.to_arg(),
                StepArg::Handle(s) => Arg::Handle(handle_made_by(handles, *s)?),
            });
        }
        let op = &self.ops[usize::from(step.op)];
        let returned = run_captured(UserCode::call(step.op), || op.call(&mut args, false)).ok()?;
        if let (Returned::Value { handle: Some(handle), .. }, Output::Param(_)) = (&returned, step.output) {
            handles.push((index, handle.clone()));
        }
        let value = match (step.output, returned) {
            (Output::Result, Returned::Subject(value)) => Some(value),
            (Output::Param(p), _) => match std::mem::replace(&mut args[usize::from(p)], Arg::Taken) {
                Arg::Subject(value) => Some(value),
                _ => None,
            },
            _ => None,
        };
        self.discard_args(&mut args, Some(usize::from(step.op)), &|_| Input::Structure { index: u64::from(index) });
        value
    }

    /// Drops a stored structure's value, or forgets it when its `Drop` is
    /// known to kill; a panicking `Drop` is reported.
    fn forget_or_drop(&mut self, value: T, index: u64) {
        let address = self.address(1 + index);
        flight::position(address);
        if let Some(killed) = Killed::at(self.cx.killed, address).filter(|k| k.during == During::Drop).cloned() {
            std::mem::forget(value);
            self.file(Found::killed(&killed, None), &|_| Input::Structure { index });
            return;
        }
        self.discard(value, None, &|_| Input::Structure { index });
        if let Some(first) = Killed::unconfirmed_at(self.cx.killed, address).cloned() {
            self.file(Found::flaky(&first, None), &|_| Input::Structure { index });
        }
        flight::position(self.address(0));
    }

    /// Drops a value the search does not keep, which runs the user's `Drop`;
    /// a panic in it is reported with `input` as the witness, and the
    /// operation whose call left the value, if one did.
    fn discard(&mut self, value: T, op: Option<usize>, input: &dyn Fn(&Self) -> Input) {
        if self.leak {
            std::mem::forget(value);
            return;
        }
        if let Err(Outcome::Panicked(panic) | Outcome::AssumeFailed(panic)) =
            drop_captured(UserCode::new(During::Drop, op.unwrap_or(0) as u16), value)
        {
            self.file(Found::panic(During::Drop, op, panic), input);
        }
    }

    /// Drops the subject arguments left in `args`.
    fn discard_args(&mut self, args: &mut Vec<Arg<T>>, op: Option<usize>, input: &dyn Fn(&Self) -> Input) {
        for arg in args.drain(..) {
            if let Arg::Subject(value) = arg {
                self.discard(value, op, input);
            }
        }
    }

    fn execute(&mut self, call: &CallSite<'_>) {
        flight::position(self.address(0));
        let before = memory::kept_by_user_code();
        self.execute_here(call);
        match memory::pressure(before) {
            Pressure::Fine => {}
            Pressure::Stop => self.stop = Some(Stop::MemoryLimit),
            Pressure::Culprit { kept } => {
                let found = Found {
                    kind: FailureKind::OutOfMemory,
                    during: During::Call,
                    op: Some(call.op),
                    message: memory::culprit_message(kept),
                    location: None,
                };
                self.file(found, &|s| s.call_input(call, None));
                self.stop = Some(Stop::MemoryLimit);
            }
        }
    }

    fn execute_here(&mut self, call: &CallSite<'_>) {
        let killed = self.killed_here();
        if let Some(killed) = killed.as_ref().filter(|k| k.confirmed) {
            if killed.during == During::Drop {
                // The execution runs, but nothing it leaves is dropped.
                self.leak = true;
                self.run_execution(call);
                self.leak = false;
                self.file(Found::killed(killed, Some(call.op)), &|s| s.call_input(call, None));
            } else if killed.during == During::Clone {
                let index = killed.address.detail.saturating_sub(1);
                self.file(Found::killed(killed, Some(call.op)), &|_| Input::Structure { index });
                self.use_replay(clone_failed_note::<T>(killed.kind.name()));
                self.run_execution(call);
            } else {
                self.file(Found::killed(killed, Some(call.op)), &|s| s.call_input(call, None));
            }
            return;
        }
        self.run_execution(call);
        if let Some(first) = killed {
            // Unconfirmed, and it returned this time: confirmed it is not.
            self.file(Found::flaky(&first, Some(call.op)), &|s| s.call_input(call, None));
        }
    }

    /// The killed input at the current execution, if there is one:
    /// confirmed (to step past) or not (to run again).
    fn killed_here(&self) -> Option<Killed> {
        if self.cx.killed.is_empty() {
            return None;
        }
        let here = self.address(0);
        self.cx
            .killed
            .iter()
            .find(|k| {
                k.address.run == here.run && k.address.input == here.input && k.during != During::Drop
                    || k.address == here
            })
            .cloned()
    }

    fn run_execution(&mut self, call: &CallSite<'_>) {
        let op = call.op;
        // Buffers are reused across executions: this is the hot path.
        let mut args = std::mem::take(&mut self.args);
        args.clear();
        let arity = self.ops[op].params.len();
        let mut subject_k = 0;
        let mut literal_k = 0;
        // A call that takes handles gets its receiver replayed, with the
        // handles its chain returned: a handle may point into its structure.
        let mut handles = Vec::new();
        for slot in 0..arity {
            if call.subject_slots.get(subject_k) == Some(&slot) {
                let index = call.structures[subject_k];
                subject_k += 1;
                let value = match subject_k == 1 && !call.handles.is_empty() {
                    true => self.replay_collecting(index, &mut handles),
                    false => self.materialize(index, call),
                };
                let Some(value) = value else {
                    let text = format!("structure {index} could not be rebuilt; skipped");
                    self.cx.out.event(Event::Note(Note { text }));
                    self.discard_args(&mut args, Some(op), &|s| s.call_input(call, None));
                    self.args = args;
                    return;
                };
                args.push(Arg::Subject(value));
            } else {
                let arg = match self.chosen(call, literal_k) {
                    Chosen::Literal(literal) => Some(literal.to_arg()),
                    Chosen::Handle(source) => handle_made_by(&handles, source).map(Arg::Handle),
                };
                let Some(arg) = arg else {
                    let text = format!("a handle of structure {} was not returned again; skipped", call.structures[0]);
                    self.cx.out.event(Event::Note(Note { text }));
                    self.discard_args(&mut args, Some(op), &|s| s.call_input(call, None));
                    self.args = args;
                    return;
                };
                args.push(arg);
                literal_k += 1;
            }
        }
        let operation = &self.ops[op];
        let returned = match run_captured(UserCode::call(op as u16), || operation.call(&mut args, false)) {
            Ok(Returned::Misuse(_)) | Err(Outcome::AssumeFailed(_)) => {
                self.count_misuse(op);
                self.finish_call(call, args, None);
                return;
            }
            Ok(returned) if call.check => {
                self.check_outputs(call, args, returned);
                return;
            }
            Ok(returned) => returned,
            Err(Outcome::Panicked(panic)) => {
                if self.misuse.iter().any(|re| re.is_match(&panic.message)) {
                    self.count_misuse(op);
                } else {
                    // What unwinding left of the receiver (or first structure argument).
                    let left = args.iter().find_map(|arg| match arg {
                        Arg::Subject(value) => Some(value),
                        _ => None,
                    });
                    self.file_left(Found::panic(During::Call, Some(op), panic), &|s| s.call_input(call, None), left);
                }
                self.finish_call(call, args, None);
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
        let mut in_scope = true;
        for value in results.chain(result) {
            match self.keys_of(value) {
                Ok(key) => keys.push(key),
                Err(out) => {
                    self.count_cut(out);
                    in_scope = false;
                    break;
                }
            }
        }
        if !in_scope {
            self.counts.out_of_scope += 1;
            self.keys = keys;
            self.finish_call(call, args, Some(returned));
            return;
        }
        let mut keys_iter = keys.drain(..);
        // The states this call reached, when the state graph is recorded.
        let mut outputs = self.recording.as_mut().map(|r| std::mem::take(&mut r.outputs));
        let mut reached = |state: Option<u32>| {
            if let (Some(outputs), Some(state)) = (&mut outputs, state) {
                outputs.push(state);
            }
        };
        for (slot, arg) in args.drain(..).enumerate() {
            if let Arg::Subject(value) = arg {
                let key = keys_iter.next().expect("one key per output");
                reached(self.consider(call, Output::Param(slot as u8), value, key));
            }
        }
        if let Returned::Subject(value) = returned {
            let key = keys_iter.next().expect("one key per output");
            reached(self.consider(call, Output::Result, value, key));
        }
        drop(keys_iter);
        if let (Some(recording), Some(mut outputs)) = (&mut self.recording, outputs) {
            recording.graph.add_call(op, call.structures, &outputs);
            outputs.clear();
            recording.outputs = outputs;
        }
        self.args = args;
        self.keys = keys;
    }

    /// The keys of `value`, or how it passes the scope.
    fn keys_of(&mut self, value: &T) -> Result<Keys, OutOfScope> {
        let form = self.lin.linearize(value).map(|tokens| self.states.key(tokens));
        let keys = match (form, &mut self.key_lin) {
            (Err(out), _) => Err(out),
            (Ok(form), None) => Ok(Keys { state: form, form: None }),
            (Ok(form), Some(key_lin)) => {
                key_lin.linearize(value).map(|tokens| Keys { state: self.states.key(tokens), form: Some(form) })
            }
        };
        let met = self.lin.collection_fields().len() + self.key_lin.as_ref().map_or(0, |l| l.collection_fields().len());
        if met > self.collections_met {
            self.collections_met = met;
            self.note_collections();
        }
        keys
    }

    /// Tells, once per field, the bound on a collection field first met.
    fn note_collections(&mut self) {
        let met = self.lin.collection_fields().iter().chain(self.key_lin.iter().flat_map(|l| l.collection_fields()));
        let new: Vec<_> = met.filter(|c| !self.noted_collections.contains(&c.name())).copied().collect();
        for field in new {
            let name = field.name();
            if self.noted_collections.contains(&name) {
                continue;
            }
            let limit = self.config.collection_limit();
            let what = if field.string { "characters" } else { "elements" };
            let why = match self.config.collection_length {
                None => "the scope; --collection-length N to change",
                Some(_) => "--collection-length",
            };
            if !self.restoring {
                let text = format!("field `{name}` holds at most {limit} {what} ({why})");
                self.cx.out.event(Event::Note(Note { text }));
            }
            self.noted_collections.push(name);
        }
    }

    /// Counts a call dropped because a collection passed its bound.
    fn count_cut(&mut self, out: OutOfScope) {
        let Some(field) = out.field else { return };
        match self.cut.iter_mut().find(|(class, f, _)| *class == out.class && *f == field) {
            Some((_, _, calls)) => *calls += 1,
            None => self.cut.push((out.class, field, 1)),
        }
    }

    /// The calls each collection bound dropped, earlier attempts' included.
    fn cuts(&self) -> Vec<(String, u64)> {
        let mut cuts = self.cut_before.clone();
        for (class, field, calls) in &self.cut {
            let name = format!("{class}.{field}");
            match cuts.iter_mut().find(|(n, _)| *n == name) {
                Some((_, before)) => *before += calls,
                None => cuts.push((name, *calls)),
            }
        }
        cuts
    }

    /// What the collection bounds cut, when they cut something.
    fn cut_note(&self) -> Option<String> {
        let cuts = self.cuts();
        if cuts.is_empty() {
            return None;
        }
        let limit = self.config.collection_limit();
        let each: Vec<String> = cuts.iter().map(|(name, calls)| format!("`{name}` ({calls})")).collect();
        Some(format!(
            "calls dropped because a collection passed {limit} elements, by field: {}; \
             a larger --collection-length keeps them",
            each.join(", ")
        ))
    }

    /// Counts one execution of `op` (past the ones an earlier attempt did).
    fn count_call(&mut self, op: usize) {
        bump(&mut self.counts.operation_calls, op);
    }

    fn count_misuse(&mut self, op: usize) {
        self.counts.misuses += 1;
        bump(&mut self.counts.operation_misuses, op);
    }

    /// Checks what a checked call left: every structure it touched or
    /// returned must still satisfy `rep_ok`; then it is dropped.
    fn check_outputs(&mut self, call: &CallSite<'_>, mut args: Vec<Arg<T>>, returned: Returned<T>) {
        for (slot, arg) in args.drain(..).enumerate() {
            if let Arg::Subject(value) = arg {
                self.check_output(call, Output::Param(slot as u8), value);
            }
        }
        self.args = args;
        if let Returned::Subject(value) = returned {
            self.check_output(call, Output::Result, value);
        }
    }

    /// Checks one structure a checked call left, then drops it.
    fn check_output(&mut self, call: &CallSite<'_>, output: Output, value: T) {
        if let Some(found) = self.rep_ok_failure(&value, call.op) {
            self.file_left(found, &|s| s.call_input(call, Some(output)), Some(&value));
        }
        self.discard(value, Some(call.op), &|s| s.call_input(call, Some(output)));
    }

    /// How `rep_ok` fails on `value`, left by a call of `op`, if it does.
    fn rep_ok_failure(&self, value: &T, op: usize) -> Option<Found> {
        if !T::HAS_REP_OK {
            return None;
        }
        match run_captured(UserCode::new(During::RepOk, op as u16), || value.rep_ok()) {
            Ok(Some(false)) => Some(Found {
                kind: FailureKind::RepOkFalse,
                during: During::RepOk,
                op: Some(op),
                message: "rep_ok returned false".into(),
                location: None,
            }),
            Err(Outcome::Panicked(panic) | Outcome::AssumeFailed(panic)) => {
                Some(Found::panic(During::RepOk, Some(op), panic))
            }
            Ok(_) => None,
        }
    }

    /// Drops what a call left that is not kept, and returns the buffer.
    fn finish_call(&mut self, call: &CallSite<'_>, mut args: Vec<Arg<T>>, returned: Option<Returned<T>>) {
        self.discard_args(&mut args, Some(call.op), &|s| s.call_input(call, None));
        if let Some(Returned::Subject(value)) = returned {
            self.discard(value, Some(call.op), &|s| s.call_input(call, None));
        }
        self.args = args;
    }

    /// Stores `value` if it is new (or state matching is off) and passes `rep_ok`.
    /// Returns the number of the state it is, unless it failed `rep_ok`.
    fn consider(&mut self, call: &CallSite<'_>, output: Output, value: T, keys: Keys) -> Option<u32> {
        let Keys { state: key, form } = keys;
        // A state is visited only once it passed `rep_ok`: a broken value must
        // not hide a valid one with the same canonical form (hidden fields),
        // and each sequence that makes a broken value is counted.
        let new = !self.states.contains(&key);
        if new || self.check_every_output {
            if let Some(found) = self.rep_ok_failure(&value, call.op) {
                self.file_left(found, &|s| s.call_input(call, Some(output)), Some(&value));
                self.discard(value, Some(call.op), &|s| s.call_input(call, Some(output)));
                return None;
            }
        }
        if !new && self.config.state_matching {
            self.audit_merge(key.fingerprint(), &value, call.op);
            let known = self.recording.as_ref().and_then(|r| r.index_of.get(&key.fingerprint()).copied());
            self.discard(value, Some(call.op), &|s| s.call_input(call, Some(output)));
            return known;
        }
        // Only for what is kept: with exact storage it is one more hash.
        let print = key.fingerprint();
        let states = self.structures.len();
        if let Some(skips) = self.skips.as_mut().filter(|s| !s.done(states)) {
            skips.keep(print, &value, call.op as u16);
        }
        if new {
            self.states.insert(key);
        }
        // A state whose canonical form was kept before is extended, not counted.
        let variant = form.is_some_and(|form| !self.forms.insert(form));
        let canonical = if self.config.record_canonical { self.lin.text(&value).ok() } else { None };
        let step = Step { op: call.op as u16, args: self.step_args(call), output };
        let index = self.structures.len() as u64;
        let drawn = !variant && self.counts.structures < u64::from(self.config.pictures);
        let picture = drawn.then(|| crate::emit::to_dot(&value, &format!("structure {index}")));
        let graph = (self.config.graphs && !variant).then(|| self.lin.graph(&value).ok()).flatten();
        self.cx.out.event(Event::Structure(StructureFound {
            index,
            level: Some(self.level),
            fingerprint: Some(Fingerprint(print)),
            canonical,
            rebuild: Rebuild::Step(step.clone()),
            variant,
            picture,
            graph,
        }));
        if let Some(recording) = &mut self.recording {
            // Every state, variants too: a variant has its twin's pairs.
            let pairs = self.lin.graph(&value).map(|graph| recording.numbers.of(&graph)).unwrap_or_default();
            recording.graph.add_state(pairs);
            recording.index_of.insert(print, index as u32);
        }
        self.structures.push(step);
        self.objects.push(Some(value));
        self.counts.structures += u64::from(!variant);
        Some(index as u32)
    }

    /// Notes the skipped fields in which `value`, a state the search knows
    /// (by key `print`), differs from the one it kept.
    fn audit_merge(&mut self, print: u128, value: &T, op: usize) {
        let states = self.structures.len();
        let Some(skips) = self.skips.as_mut().filter(|s| !s.done(states)) else { return };
        for field in skips.merged(print, value, op as u16) {
            let text = merge_note(&field, self.ops[op].name);
            self.cx.out.event(Event::Note(Note { text }));
        }
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
                out.push(match self.chosen(call, literal_k) {
                    Chosen::Literal(literal) => StepArg::Literal(literal.clone()),
                    Chosen::Handle(source) => StepArg::Handle(source),
                });
                literal_k += 1;
            }
        }
        out
    }

    /// What `call` passes in its `k`th slot that is not a structure's.
    fn chosen<'c>(&'c self, call: &'c CallSite<'_>, k: usize) -> Chosen<'c> {
        let choice = call.literal_choice[k];
        match call.handles.get(k).filter(|sources| !sources.is_empty()) {
            Some(sources) => Chosen::Handle(sources[choice]),
            None => Chosen::Literal(&self.domains[call.op][call.literal_slots[k]][choice]),
        }
    }

    fn call_input(&self, call: &CallSite<'_>, output: Option<Output>) -> Input {
        Input::Call { level: call.level, op: call.op as u16, args: self.step_args(call), output }
    }

    /// Counts a failing input in its group; a new group is reported at once,
    /// with `input` as its witness, and committed after its execution.
    fn file(&mut self, found: Found, input: &dyn Fn(&Self) -> Input) {
        self.file_left(found, input, None);
    }

    /// [`Self::file`], for a call that failed leaving `left` (what `rep_ok`
    /// failed on, or what a panic's unwinding left): a new group draws it
    /// beside the structure before the call.
    fn file_left(&mut self, found: Found, input: &dyn Fn(&Self) -> Input, left: Option<&T>) {
        if self.restoring {
            return;
        }
        self.counts.failing += 1;
        let operation = found.op.map(|op| self.ops[op].name);
        let grouped_by = grouping_operation(found.kind, found.during, operation);
        if self.groups.count_in(|key| key.matches(&found, grouped_by)) {
            return;
        }
        let key = GroupKey {
            kind: found.kind,
            during: found.during,
            operation: grouped_by.map(Into::into),
            message: found.message.clone(),
            location: found.location.clone(),
        };
        let group = self.groups.open(key);
        let input = input(self);
        let picture = self.picture_before(&input);
        // What a failing call left may be half changed: a walk that trips on
        // it costs the picture, not the run.
        let picture_after = left.filter(|_| picture.is_some()).and_then(|value| {
            let draw = std::panic::AssertUnwindSafe(|| crate::emit::to_dot(value, "after the failing call"));
            std::panic::catch_unwind(draw).ok()
        });
        let witness = self.witness(input, found.during);
        self.cx.out.event(Event::Failure(Failure {
            operation: operation.map(Into::into),
            location: found.location,
            replay: self.cx.replay.clone(),
            picture,
            picture_after,
            ..Failure::new(group, found.kind, found.during, found.message, witness)
        }));
        self.commit_due = true;
    }

    /// A picture of the structure a failing `input` starts from: the
    /// receiver (or first structure argument) of a call, or the structure
    /// whose `Clone` or `Drop` failed; when the run draws pictures.
    fn picture_before(&self, input: &Input) -> Option<String> {
        if self.config.pictures == 0 {
            return None;
        }
        let index = match input {
            Input::Structure { index } => *index as usize,
            Input::Call { args, .. } => args.iter().find_map(|a| match a {
                StepArg::Structure(index) => Some(*index as usize),
                StepArg::Literal(_) | StepArg::Handle(_) => None,
            })?,
            Input::Program(_) | Input::Candidate(_) => return None,
        };
        let value = self.objects.get(index)?.as_ref()?;
        Some(crate::emit::to_dot(value, &format!("structure {index}, before the failing call")))
    }

    /// The witness of `input`; a structure whose `Clone` or `Drop` failed
    /// is shown built, then cloned or dropped.
    fn witness(&self, input: Input, during: During) -> Witness {
        let program = input.program(&|s| &self.structures[s as usize]);
        let mut text = program.to_text(&self.infos);
        let var = program.result.map_or("s0".to_owned(), |v| format!("s{v}"));
        match (&input, during) {
            (Input::Structure { .. }, During::Drop) => text.push_str(&format!("; drop({var})")),
            (Input::Structure { .. }, _) => text.push_str(&format!("; {var}.clone()")),
            // The value a call left, dropped.
            (Input::Call { output: Some(_), .. }, During::Drop) => text.push_str(&format!("; drop({var})")),
            _ => {}
        }
        Witness { text, calls: program.len(), input }
    }
}

fn clone_failed_note<T>(how: &str) -> String {
    format!(
        "`Clone` of {} failed ({how}), so stored structures are rebuilt by replaying their sequences",
        std::any::type_name::<T>()
    )
}

/// Which inputs one execution uses.
struct CallSite<'a> {
    op: usize,
    subject_slots: &'a [usize],
    structures: &'a [u32],
    literal_slots: &'a [usize],
    literal_choice: &'a [usize],
    /// Per non-structure slot, the structures whose handles it ranges
    /// over (empty for a literal's slot); empty when the call takes no handle.
    handles: &'a [Vec<u32>],
    /// A checked call: what it makes is checked and dropped.
    check: bool,
    /// The witness's level: a checked call follows the level of its inputs.
    level: u32,
}

/// A value a call passes in a slot that is not a structure's.
enum Chosen<'a> {
    Literal(&'a Literal),
    /// The handle the last call of this structure returned.
    Handle(u32),
}

/// The handle that the call which made structure `source` returned, as
/// `handles` collected them.
fn handle_made_by(handles: &[(u32, HandleValue)], source: u32) -> Option<HandleValue> {
    handles.iter().rev().find(|(made, _)| *made == source).map(|(_, handle)| handle.clone())
}

/// Adds one to `counts[index]`, growing it as needed.
fn bump(counts: &mut Vec<u64>, index: usize) {
    if counts.len() <= index {
        counts.resize(index + 1, 0);
    }
    counts[index] += 1;
}

/// The operations a run checks: by `check`, those that are not builders.
fn checked_operations<T>(ops: &[Operation<T>], check: &Check, builders: &[usize]) -> Result<Vec<usize>, ConfigError> {
    let named = match check {
        Check::None => return Ok(Vec::new()),
        Check::All => return Ok((0..ops.len()).filter(|i| !builders.contains(i)).collect()),
        Check::Named(names) => names,
    };
    let mut checked = Vec::new();
    for name in named {
        let Some(index) = ops.iter().position(|op| op.name == name) else {
            let known = ops.iter().map(|op| op.name).collect::<Vec<_>>().join(", ");
            return Err(ConfigError::UnknownOperation { name: name.clone(), known });
        };
        if !builders.contains(&index) && !checked.contains(&index) {
            checked.push(index);
        }
    }
    checked.sort_unstable();
    Ok(checked)
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

/// The literals a parameter of `kind` (of operation `op`) ranges over:
/// `None` and then the integers for an `Option`, and for a list every list
/// of at most `list_length` integers, shortest first.
fn domain(config: &BeapiConfig, kind: ParamKind, op: &str) -> Result<Vec<Literal>, ConfigError> {
    let ints = |int: IntKind| config.int_range().filter(move |v| int.fits(*v));
    Ok(match kind {
        // Filled in from the other subjects' structures.
        ParamKind::Subject(_) | ParamKind::Other(_) => Vec::new(),
        // The handles on the receiver's chain, per call (see `Search::handles_of`).
        ParamKind::Handle { .. } => Vec::new(),
        ParamKind::Int(int) => ints(int).map(Literal::Int).collect(),
        ParamKind::Bool => vec![Literal::Bool(false), Literal::Bool(true)],
        ParamKind::Char => config.chars.iter().copied().map(Literal::Char).collect(),
        ParamKind::Str => config.strings.iter().map(|s| Literal::Str(Arc::from(s.as_str()))).collect(),
        ParamKind::OptionInt(int) => std::iter::once(None).chain(ints(int).map(Some)).map(Literal::OptionInt).collect(),
        ParamKind::IntList(int, _) => {
            let values: Vec<i64> = ints(int).collect();
            let size = (0..=config.list_length)
                .map(|k| (values.len() as u128).saturating_pow(k))
                .fold(0u128, u128::saturating_add);
            if size > u128::from(MAX_DOMAIN) {
                return Err(ConfigError::DomainTooLarge {
                    what: format!(
                        "the lists for `{op}` (at most {} of {} integers: --list-length)",
                        config.list_length,
                        values.len()
                    ),
                    size,
                    max: MAX_DOMAIN,
                });
            }
            let mut lists: Vec<Vec<i64>> = vec![Vec::new()];
            let mut last_length = lists.clone();
            for _ in 0..config.list_length {
                last_length = last_length
                    .iter()
                    .flat_map(|list| {
                        values.iter().map(move |&v| {
                            let mut longer = list.clone();
                            longer.push(v);
                            longer
                        })
                    })
                    .collect();
                lists.extend(last_length.iter().cloned());
            }
            lists.into_iter().map(|list| Literal::IntList(list.into())).collect()
        }
    })
}
