//! The BEAPI search loop (paper Fig. 4), level by level, as a stream of events.
//!
//! Every execution has an address: the search's `run` number and its
//! ordinal (the count of executions so far). The flight recorder holds it
//! while user code runs, so an input that kills the process or hangs is
//! known to the supervisor, and the next attempt reports it and steps past it.
//!
//! This module holds the search's state and its level loop; `calls` runs
//! one execution, `values` stores structures and brings them back (clone or
//! replay), `findings` files failures, quarantines and notes, and `measure`
//! runs the calls of chosen structures instead of a search.

use std::sync::Arc;
use std::time::Instant;

use regex::Regex;

use super::skips::{DebugFn, SkipAudit};
use super::state_graph::StateGraph;
use super::states::{StateKey, StateSet};
use super::{BeapiConfig, BeapiReport, Check, Resume};
use crate::api::{Arg, IntKind, Operation, OperationInfo, OtherDomains, ParamKind, Subject};
use crate::error::MAX_DOMAIN;
use crate::events::{
    Counts, During, Event, Failure, FailureGroups, FailureKind, LevelStats, Note, Progress, RunFinished, Sink, Stop,
};
use crate::heap::{CloneAudit, Linearizer, PairNumbers, Schema};
use crate::runner::{Address, JobError, Killed, StopFlag};
use crate::sequence::{Literal, Step};
use crate::ConfigError;

mod calls;
mod findings;
mod measure;
mod values;

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
pub(super) struct Found {
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
    pub(super) fn resume(&mut self, report: &BeapiReport) -> Result<(), JobError> {
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
                    .ok_or_else(|| JobError::Fault(format!("resuming: structure {index} could not be rebuilt")))?;
                let keys = self.keys_of(value).map_err(|e| JobError::Fault(format!("resuming: {e}")))?;
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
            let structures = (self.counts.structures - self.level_counted) as usize;
            self.cx.out.event(Event::Level(LevelStats {
                level: self.level,
                structures,
                explored: self.counts.explored - self.level_explored,
                checked: self.counts.checked - self.level_checked,
                seconds: self.seconds() - self.level_seconds,
            }));
            if let Some(stop) = self.stop {
                break stop;
            }
            if added == 0 {
                break Stop::Complete;
            }
            self.barren = match structures {
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
        self.finish(stop, Vec::new())
    }

    /// Ends the run: the values still stored dropped, the notes told, and
    /// `RunFinished` with `edges` (a measuring run's).
    fn finish(&mut self, stop: Stop, edges: Vec<u32>) -> Stop {
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
            edge_gains: Vec::new(),
            frontier: Vec::new(),
            branching: None,
            confirmed: Vec::new(),
            edges,
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
            edge_gains: Vec::new(),
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

    fn check_limits(&mut self) {
        if let Some(reason) = self.cx.stop.and_then(StopFlag::reason) {
            self.stop = Some(reason);
        } else if self.config.time_limit.is_some_and(|limit| self.seconds() >= limit.as_secs_f64()) {
            self.stop = Some(Stop::TimeLimit);
        }
    }
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

/// Which inputs one execution uses.
pub(super) struct CallSite<'a> {
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

pub(super) fn clone_failed_note<T>(how: &str) -> String {
    format!(
        "`Clone` of {} failed ({how}), so stored structures are rebuilt by replaying their sequences",
        std::any::type_name::<T>()
    )
}
