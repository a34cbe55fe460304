//! The Korat search (Korat+ paper §2.1, `korat()`), and Korat+'s pruning on
//! the fields `eq_class` reads (§3, `koratPlus()`).
//!
//! The search splits into parts on a prefix of the fields `rep_ok` reads
//! first (as PKorat does); the split does not depend on the thread count,
//! and parts are reported in the order the sequential search visits them.
//! A Korat+ skip that would leave a part (past the fields the part fixes) is
//! carried to the parts after it, which are dropped as the sequential search
//! would skip them. So every thread count gives the sequential search's
//! candidates, counts and order, Korat+ included.

use std::sync::Arc;
use std::time::Instant;

use super::candidate::Candidate;
use super::space::Space;
use super::PartPosition;
use crate::events::{During, FailureKind};
use crate::runner::{flight, run_captured, Address, Killed, Outcome, StopFlag, UserCode, OTHER_API_RUNS};

mod advance;
mod parted;

pub use parted::{search_parallel, Join, PartReport, PartedSearch};

use advance::{advance, advance_past, Ending, Limits, Reachable};

/// Counts of one search.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SearchStats {
    /// Candidates on which `rep_ok` held.
    pub found: u64,
    /// Candidates `rep_ok` was run on.
    pub explored: u64,
    pub seconds: f64,
    /// The equivalence classes covered, when the invariants define `eq_class`.
    pub classes: std::collections::BTreeSet<u64>,
}

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Korat+: skip candidates whose `eq_class` fields are unchanged since
    /// the last valid one. Without it, classes are still recorded.
    pub prune_eq_classes: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { prune_eq_classes: true }
    }
}

/// What the search calls on each candidate.
pub trait Invariants {
    fn rep_ok(&self, candidate: &Candidate) -> bool;
    /// Korat+: the equivalence class of a valid candidate; `None` turns the pruning off.
    fn eq_class(&self, _candidate: &Candidate) -> Option<u64> {
        None
    }
    /// The canonical text of the API value a valid candidate stands for,
    /// when the model converts to one (a `compare` pairing's model does);
    /// `None` otherwise, or when the conversion panicked.
    fn canonical(&self, _candidate: &Candidate) -> Option<String> {
        None
    }
    /// The name of [`Invariants::check`], when there is one: only then is it run.
    fn check_name(&self) -> Option<&str> {
        None
    }
    /// A check of the code under test on a valid candidate (the methods
    /// under test, against the model): `Err` or a panic is a finding.
    fn check(&self, _candidate: &Candidate) -> Result<(), String> {
        Ok(())
    }
}

/// How many parts a search is split into (at most): enough for uneven parts
/// to balance over any core count, and the same for every thread count.
pub const PARTS: usize = 2048;

/// Candidates a part searches between two reports: a part that runs long
/// hands on what it found every this many candidates (and its caller may
/// commit it), instead of holding it until the part ends.
pub const CHUNK: u64 = 16_384;

/// Candidates between two reads of the stop flag (a divisor of [`CHUNK`]).
const STOP_CHECK: u64 = 256;

pub use super::part_record::CandidateFailure;
use super::part_record::{PartKey, PartRecord};

/// Runs Korat over `space`, calling `found` on every valid candidate.
///
/// The next candidate increments the last field `rep_ok` read that can
/// still grow, resetting the fields read after it; fields never read keep
/// their first value. A reference field ranges only over `null`, the
/// objects of its class that fields read before it point to, and one more
/// (`nonIsoMax`), so no two isomorphic candidates are both visited. When
/// `rep_ok` holds, the reachable fields it did not read are added, so
/// that no valid candidate is missed. A panic in `rep_ok` counts as `false`
/// here; [`crate::korat::run`] and the `korat` command report it.
pub fn search(space: Arc<Space>, invariants: &dyn Invariants, found: &mut dyn FnMut(&Candidate)) -> SearchStats {
    search_with(space, invariants, SearchOptions::default(), found)
}

/// [`search`] with options.
pub fn search_with(
    space: Arc<Space>,
    invariants: &dyn Invariants,
    options: SearchOptions,
    found: &mut dyn FnMut(&Candidate),
) -> SearchStats {
    let started = Instant::now();
    let mut candidate = Candidate::new(space);
    let part = PartRun { run: 0, killed: &[], opening: None, options, stop: None, chunked: false };
    let found = &mut |c: &Candidate| {
        found(c);
        None::<()>
    };
    let mut outcome = part.search(&mut candidate, 0, None, invariants, found, &mut |_, _| {});
    outcome.stats.seconds = started.elapsed().as_secs_f64();
    outcome.stats
}

/// One part of a split search: a first candidate, the fields its prefix
/// fixes (in read order), and how many.
#[derive(Debug, Clone)]
pub struct Part {
    values: Vec<u32>,
    prefix: Vec<u32>,
    /// What killed an earlier attempt in this part's probe, which ran
    /// `rep_ok` on its first candidate: the part stays whole, unprobed.
    settled: Option<Killed>,
}

impl Part {
    /// Where the part lies, as a record carries it.
    pub fn key(&self) -> PartKey {
        PartKey { prefix: self.prefix.clone(), values: self.values.clone() }
    }

    /// The part a record names (never settled: a probe's culprit stays in its process).
    pub fn from_key(key: PartKey) -> Self {
        Part { values: key.values, prefix: key.prefix, settled: None }
    }

    fn frozen(&self) -> usize {
        self.prefix.len()
    }

    /// Whether this part lies under `skip`: its prefix starts with those fields and values.
    fn under(&self, skip: &[(u32, u32)]) -> bool {
        skip.len() <= self.prefix.len()
            && skip
                .iter()
                .zip(&self.prefix)
                .all(|(&(field, value), &mine)| mine == field && self.values[field as usize] == value)
    }
}

/// What one part's search gives.
pub struct PartOutcome<R> {
    pub stats: SearchStats,
    /// What `found` kept of the valid candidates.
    pub found: Vec<R>,
    pub failures: Vec<CandidateFailure>,
    /// The search ended in this part: `rep_ok` was quarantined.
    pub halted: bool,
    ending: Ending,
}

/// What a found candidate is kept as: its value indices, and its canonical
/// text when the run records one.
pub type Kept = (Vec<u32>, Option<String>);

impl PartOutcome<Kept> {
    /// Chunk `chunk` of part `index` of `parts` (of search `search`) as a
    /// record, for another process to join; `position` as the part handed it on.
    pub fn into_record(
        self,
        search: u32,
        parts: &[Part],
        (index, chunk): (usize, u32),
        position: Option<PartPosition>,
    ) -> PartRecord {
        PartRecord {
            search,
            index: index as u64,
            parts: parts.len() as u64,
            chunk,
            key: parts[index].key(),
            next: parts.get(index + 1).map(Part::key),
            structures: self.stats.found,
            found: self.found,
            explored: self.stats.explored,
            classes: self.stats.classes.into_iter().collect(),
            failures: self.failures,
            ending: position.is_none().then_some(self.ending),
            position,
            halted: self.halted,
        }
    }

    /// A record's outcome; `None` for a rerun's failure, which has none.
    pub fn from_record(record: PartRecord) -> Option<Self> {
        if record.rerun() {
            return None;
        }
        let ending = record.ending.unwrap_or(Ending::Next);
        Some(PartOutcome {
            stats: SearchStats {
                found: record.structures,
                explored: record.explored,
                seconds: 0.0,
                classes: record.classes.into_iter().collect(),
            },
            found: record.found,
            failures: record.failures,
            halted: record.halted,
            ending,
        })
    }
}

/// A part's search: its number in addresses, the inputs to step past.
struct PartRun<'a> {
    run: u64,
    killed: &'a [Killed],
    /// What kills `rep_ok` on the first candidate, known from the probe.
    opening: Option<&'a Killed>,
    options: SearchOptions,
    /// Checked every [`STOP_CHECK`] candidates, when `chunked`.
    stop: Option<&'a StopFlag>,
    /// Hand on what was found every [`CHUNK`] candidates.
    chunked: bool,
}

/// What a part hands on at each [`CHUNK`]: what it found since the chunk
/// before, and where it is.
type ChunkSink<'s, R> = dyn FnMut(PartOutcome<R>, PartPosition) + 's;

/// What a part's thread hands on: a chunk and where the part is, or its
/// last outcome and `None`.
type Handed<R> = (PartOutcome<R>, Option<PartPosition>);

/// Where a part's search is in the current candidate, so that a panic in
/// user code, which unwinds out of the loop, is resumed from there.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// In the engine's own code: between candidates.
    Engine,
    RepOk,
    EqClass,
    Check,
}

/// A part's search state: what survives a panic in user code.
struct Walk<'r, R> {
    out: PartOutcome<R>,
    /// The fields of the current candidate in the order to advance them.
    stack: Vec<u32>,
    /// The fields `rep_ok` read when run on it again (see `recheck`).
    recheck: Vec<u32>,
    limits: Limits,
    reachable: Reachable,
    /// The fields `eq_class` read on the current candidate, when Korat+
    /// prunes on them (`eq_known`).
    eq_fields: Vec<u32>,
    eq_known: bool,
    phase: Phase,
    /// The current candidate is judged: go straight to the next one.
    judged: bool,
    /// A quarantining input was stepped past: the search ends.
    halted: bool,
    /// Candidates judged, and found valid, when the last chunk was handed on.
    sent_explored: u64,
    sent_found: u64,
    found: &'r mut dyn FnMut(&Candidate) -> Option<R>,
}

impl<R> Walk<'_, R> {
    /// What the part found since the last chunk, taken out.
    fn take_chunk(&mut self) -> PartOutcome<R> {
        let stats = &mut self.out.stats;
        let chunk = SearchStats {
            found: stats.found - self.sent_found,
            explored: stats.explored - self.sent_explored,
            seconds: 0.0,
            classes: std::mem::take(&mut stats.classes),
        };
        (self.sent_explored, self.sent_found) = (stats.explored, stats.found);
        PartOutcome {
            stats: chunk,
            found: std::mem::take(&mut self.out.found),
            failures: std::mem::take(&mut self.out.failures),
            halted: self.out.halted,
            ending: self.out.ending.clone(),
        }
    }
}

impl PartRun<'_> {
    /// Searches the candidates that share `candidate`'s values on the first
    /// `frozen` fields `rep_ok` reads, starting from `candidate` (or from
    /// `from`, a position of the same part an earlier search handed on, with
    /// `candidate` set to its values). When `chunked`, hands what it found
    /// to `chunks` every [`CHUNK`] candidates, and when asked to stop; the
    /// outcome it returns is what came after the last chunk.
    ///
    /// User code runs inside one `catch_unwind` for many candidates: a panic
    /// leaves the loop, is filed against the candidate, and the loop is
    /// entered again at the next candidate.
    fn search<R>(
        &self,
        candidate: &mut Candidate,
        frozen: usize,
        from: Option<&PartPosition>,
        invariants: &dyn Invariants,
        found: &mut dyn FnMut(&Candidate) -> Option<R>,
        chunks: &mut ChunkSink<'_, R>,
    ) -> PartOutcome<R> {
        let space = candidate.space_arc();
        let mut walk = Walk {
            out: PartOutcome {
                stats: SearchStats::default(),
                found: Vec::new(),
                failures: Vec::new(),
                halted: false,
                ending: Ending::Next,
            },
            stack: Vec::new(),
            recheck: Vec::new(),
            limits: Limits::new(&space),
            reachable: Reachable::new(&space),
            eq_fields: Vec::new(),
            eq_known: false,
            phase: Phase::Engine,
            judged: false,
            halted: false,
            sent_explored: 0,
            sent_found: 0,
            found,
        };
        if let Some(from) = from {
            walk.stack.clone_from(&from.stack);
            walk.out.stats.explored = from.explored;
            walk.sent_explored = from.explored;
        }
        loop {
            let ran = run_captured(UserCode::new(During::RepOk, 0), || {
                self.walk(&space, candidate, frozen, invariants, &mut walk)
            });
            match ran {
                Ok(Some(ending)) => {
                    walk.out.ending = ending;
                    return walk.take_chunk();
                }
                Ok(None) => {
                    let position = PartPosition {
                        values: candidate.values().to_vec(),
                        stack: walk.stack.clone(),
                        explored: walk.out.stats.explored,
                    };
                    chunks(walk.take_chunk(), position);
                    if self.stop.is_some_and(StopFlag::is_set) {
                        walk.out.ending = Ending::Stopped;
                        return walk.take_chunk();
                    }
                }
                Err(Outcome::Panicked(panic) | Outcome::AssumeFailed(panic)) => {
                    let during = match walk.phase {
                        Phase::EqClass => During::EqClass,
                        Phase::Check => During::Check,
                        _ => {
                            candidate.take_log_into(&mut walk.stack);
                            During::RepOk
                        }
                    };
                    let failure = failure_of(FailureKind::Panic, during, panic.message, panic.location, candidate);
                    walk.out.failures.push(failure);
                    walk.phase = Phase::Engine;
                    walk.judged = true;
                }
            }
        }
    }

    /// The search loop, from the current candidate; returns how the part
    /// ends, or `None` between two candidates at a chunk's end or a stop.
    fn walk<R>(
        &self,
        space: &Space,
        candidate: &mut Candidate,
        frozen: usize,
        invariants: &dyn Invariants,
        walk: &mut Walk<'_, R>,
    ) -> Option<Ending> {
        loop {
            if !std::mem::take(&mut walk.judged) {
                self.judge(space, candidate, invariants, walk);
                if walk.halted {
                    walk.out.halted = true;
                    return Some(Ending::All);
                }
            }
            // Fields below `frozen` belong to the part's definition.
            let frozen = frozen.min(walk.stack.len());
            let next = match std::mem::take(&mut walk.eq_known) {
                true => advance_past(space, &mut walk.limits, candidate, &mut walk.stack, frozen, &walk.eq_fields),
                false => match advance(space, &mut walk.limits, candidate, &mut walk.stack, frozen) {
                    true => None,
                    false => Some(Ending::Next),
                },
            };
            walk.eq_fields.clear();
            if next.is_some() {
                return next;
            }
            // The stop flag is read every few hundred candidates: less than
            // a millisecond of search, and no cost per candidate.
            let explored = walk.out.stats.explored;
            if self.chunked
                && explored % STOP_CHECK == 0
                && (explored % CHUNK == 0 || self.stop.is_some_and(StopFlag::is_set))
            {
                return None;
            }
        }
    }

    /// Runs `rep_ok` on the candidate again and files a `flaky` finding if
    /// it gives another verdict than `ok` or reads other fields than
    /// `walk.stack`: the search relies on both, so a nondeterministic
    /// `rep_ok` would otherwise lose structures without a word.
    #[cold]
    fn recheck<R>(&self, candidate: &Candidate, invariants: &dyn Invariants, ok: bool, walk: &mut Walk<'_, R>) {
        candidate.clear_log();
        walk.phase = Phase::RepOk;
        let again = invariants.rep_ok(candidate);
        walk.phase = Phase::Engine;
        candidate.take_log_into(&mut walk.recheck);
        if again != ok || walk.recheck != walk.stack {
            let message = format!(
                "`rep_ok` is nondeterministic: run again on the same candidate, it {}; the search relies on both, \
                 so it may have missed structures",
                match again == ok {
                    true => "read other fields".to_owned(),
                    false => format!("returned {again} after {ok}"),
                }
            );
            walk.out.failures.push(failure_of(FailureKind::Flaky, During::RepOk, message, None, candidate));
        }
    }

    /// Runs the invariants on the current candidate and records the verdict.
    #[inline]
    fn judge<R>(&self, space: &Space, candidate: &Candidate, invariants: &dyn Invariants, walk: &mut Walk<'_, R>) {
        let out = &mut walk.out;
        walk.eq_known = false;
        out.stats.explored += 1;
        let address = Address { run: self.run, input: out.stats.explored, detail: 0 };
        flight::step(address);
        let culprit = match self.killed.is_empty() && self.opening.is_none() {
            true => None,
            false => Killed::at(self.killed, address).or(self.opening.filter(|_| out.stats.explored == 1)),
        };
        if let Some(killed) = culprit {
            out.failures.push(failure_of(killed.kind, killed.during, killed.message.clone(), None, candidate));
            // Code that kept killing the worker: the search ends here.
            walk.halted |= killed.quarantines;
            if killed.during != During::Check {
                walk.stack.clone_from(&killed.reads);
                walk.limits.truncate(0);
                return;
            }
        }
        // A check that killed a worker: the candidate is judged without it.
        let check = culprit.is_none();
        if let Some(flaky) = ran_alone(self.killed, address) {
            // Reached the same way, it would die again on the same call of
            // the process: stepped past, its `flaky` finding already filed.
            walk.stack.clone_from(&flaky.reads);
            walk.limits.truncate(0);
            return;
        }
        candidate.clear_log();
        walk.phase = Phase::RepOk;
        let ok = invariants.rep_ok(candidate);
        walk.phase = Phase::Engine;
        if !self.killed.is_empty() {
            if let Some(first) = Killed::unconfirmed_at(self.killed, address).filter(|k| k.during != During::Check) {
                // It returned this time: confirmed it is not.
                let failure = failure_of(FailureKind::Flaky, first.during, first.flaky_message(), None, candidate);
                walk.out.failures.push(failure);
            }
        }
        candidate.take_log_into(&mut walk.stack);
        if rechecked(address) {
            self.recheck(candidate, invariants, ok, walk);
        }
        let out = &mut walk.out;
        if !ok {
            return;
        }
        out.stats.found += 1;
        walk.reachable.push_unread(space, candidate, &mut walk.stack);
        // After the stack is complete: what `found` reads changes nothing.
        out.found.extend((walk.found)(candidate));
        candidate.clear_log();
        walk.phase = Phase::EqClass;
        flight::switch(UserCode::new(During::EqClass, 0));
        let class = invariants.eq_class(candidate);
        flight::switch(UserCode::new(During::RepOk, 0));
        walk.phase = Phase::Engine;
        if let Some(class) = class {
            out.stats.classes.insert(class);
            if self.options.prune_eq_classes {
                candidate.take_log_into(&mut walk.eq_fields);
                walk.eq_known = true;
            }
        }
        candidate.clear_log();
        if check && invariants.check_name().is_some() {
            self.check(candidate, invariants, address, walk);
        }
    }

    /// Runs the check of the code under test on a valid candidate. Last in
    /// judging it: a panic here leaves the search's own state as it was.
    #[cold]
    fn check<R>(&self, candidate: &Candidate, invariants: &dyn Invariants, address: Address, walk: &mut Walk<'_, R>) {
        walk.phase = Phase::Check;
        flight::switch(UserCode::new(During::Check, 0));
        let verdict = invariants.check(candidate);
        flight::switch(UserCode::new(During::RepOk, 0));
        walk.phase = Phase::Engine;
        candidate.clear_log();
        if let Err(message) = verdict {
            walk.out.failures.push(failure_of(FailureKind::Contract, During::Check, message, None, candidate));
        }
        if let Some(first) = Killed::unconfirmed_at(self.killed, address).filter(|k| k.during == During::Check) {
            // It returned this time: confirmed it is not.
            let failure = failure_of(FailureKind::Flaky, During::Check, first.flaky_message(), None, candidate);
            walk.out.failures.push(failure);
        }
    }
}

fn failure_of(
    kind: FailureKind,
    during: During,
    message: String,
    location: Option<String>,
    candidate: &Candidate,
) -> CandidateFailure {
    CandidateFailure { kind, during, message, location, values: candidate.values().to_vec() }
}

/// The death an attempt starts by running again, if there is one: the
/// newest, when `rep_ok` died on it and it is not confirmed yet.
pub(super) fn to_rerun(killed: &[Killed]) -> Option<&Killed> {
    killed.last().filter(|k| !k.confirmed && k.during == During::RepOk)
}

/// Whether the candidate at `address` is judged twice, to tell a
/// nondeterministic `rep_ok`: one in 64, by address, so that which are is
/// the same on any thread count (and costs about 1.5% more `rep_ok` calls).
#[inline]
fn rechecked(address: Address) -> bool {
    (address.input ^ address.run.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58 == 0
}

/// The input at `address` that `rep_ok` died on, unconfirmed: it was run
/// again alone ([`rerun_alone`]) and returned, a `flaky` finding.
fn ran_alone(killed: &[Killed], address: Address) -> Option<&Killed> {
    match killed.is_empty() {
        true => None,
        false => Killed::unconfirmed_at(killed, address).filter(|k| k.during == During::RepOk),
    }
}

/// The search (of a job's several) whose candidate `killed` is.
pub(super) fn search_of(killed: &Killed) -> usize {
    ((killed.address.run & !(PROBE | OTHER_API_RUNS)) >> 32) as usize
}

/// Runs `rep_ok` once more on the candidate an earlier attempt died on,
/// first in this fresh worker and alone, rebuilt from its read log, at its
/// address: dying again confirms it (the supervisor blames the same
/// address); returning, or panicking, makes it the `flaky` finding this
/// returns. A `rep_ok` that hangs on its n-th call in a process, whatever
/// the candidate, returns here, where it could not if the candidate were
/// reached again by searching from the last commit.
pub(super) fn rerun_alone(space: Arc<Space>, invariants: &dyn Invariants, killed: &Killed) -> CandidateFailure {
    flight::position(killed.address);
    let candidate = Candidate::replaying(space, &killed.reads, &killed.values);
    candidate.clear_log();
    let _ = run_captured(UserCode::new(During::RepOk, 0), || invariants.rep_ok(&candidate));
    failure_of(FailureKind::Flaky, During::RepOk, killed.flaky_message(), None, &candidate)
}

/// The bit of the address `run` of a probe (which splits a part). Not
/// [`OTHER_API_RUNS`]: a probe runs
/// the same `rep_ok` as the search, so their deaths count together
/// towards a quarantine (a `rep_ok` that hangs on every probe ends too).
const PROBE: u64 = 1 << 62;
