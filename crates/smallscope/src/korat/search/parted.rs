//! The candidate space split into parts (the parallel Korat of PKorat):
//! parts searched on threads, and joined in the order the sequential
//! search would meet them, Korat+'s skips carried across.

use super::advance::{Ending, Limits};
use super::{
    ran_alone, Handed, Invariants, Part, PartOutcome, PartPosition, PartRun, SearchOptions, SearchStats, PARTS, PROBE,
};
use crate::events::During;
use crate::korat::candidate::Candidate;
use crate::korat::space::Space;
use crate::runner::{flight, run_captured, Address, Killed, Share, StopFlag, UserCode};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// A split search, run on threads and reported in order.
pub struct PartedSearch<'a> {
    pub space: Arc<Space>,
    pub invariants: &'a (dyn Invariants + Sync),
    pub options: SearchOptions,
    /// Threads (0: every core).
    pub threads: usize,
    pub killed: &'a [Killed],
    /// Parts already done: the search starts after them.
    pub parts_done: usize,
    /// A Korat+ skip carried from the parts already done.
    pub skip: Option<Vec<(u32, u32)>>,
    /// Where the first part to search was when its last chunk was handed
    /// on, if it was: it carries on from there.
    pub position: Option<PartPosition>,
    /// Checked between candidates: a stop hands on the head part's last
    /// chunk, with its position.
    pub stop: Option<&'a StopFlag>,
    /// Added to every address `run` of this search, so that several
    /// searches in one job (an ascending run's sizes) tell their inputs apart.
    pub run_base: u64,
}

/// What [`PartedSearch::run`] tells its caller after each part, and after
/// each [`CHUNK`] of the part all before it are reported for, in order.
pub struct PartReport<R> {
    /// The part's number; parts before it are reported.
    pub index: usize,
    pub parts: usize,
    /// `None` for a part the sequential search skips (Korat+).
    pub outcome: Option<PartOutcome<R>>,
    /// The Korat+ skip carried into the next part (while the part goes
    /// on: the one carried into it).
    pub skip: Option<Vec<(u32, u32)>>,
    /// `Some` while the part goes on: where it is, after what `outcome`
    /// holds; `None` when the part is done.
    pub position: Option<PartPosition>,
}

/// What a share run hands each chunk to: the parts, the chunk's part, what
/// it found, and where the part is after it (`None`: the part is done).
pub type ShareSink<'s, R> = dyn FnMut(&[Part], usize, PartOutcome<R>, Option<PartPosition>) + 's;

impl PartedSearch<'_> {
    /// Runs the parts after `parts_done` and calls `report` for each, in
    /// order; stops early (between parts) when `stop` is set.
    pub fn run<R: Send>(
        &self,
        found: &(dyn Fn(&Candidate) -> Option<R> + Sync),
        report: &mut dyn FnMut(PartReport<R>),
    ) {
        let parts = split(&self.space, self.invariants, PARTS, self.killed, self.run_base);
        let mut join = Join::new(self.parts_done, self.skip.clone());
        self.search_parts(&parts, self.parts_done, &|_| true, found, &mut |index, outcome, position| {
            join.push(&parts, parts.len(), index, (outcome, position), report)
        });
    }

    /// Cluster mode: searches the parts `share` holds, but for those in
    /// `done`, and hands on each chunk as it comes (`each(parts, index,
    /// outcome, position)`, the part's last with no position), in any order
    /// between parts. A part a stop cuts short has handed on its chunks.
    pub fn run_share<R: Send>(
        &self,
        share: Share,
        done: &BTreeSet<usize>,
        found: &(dyn Fn(&Candidate) -> Option<R> + Sync),
        each: &mut ShareSink<'_, R>,
    ) {
        let parts = split(&self.space, self.invariants, PARTS, self.killed, self.run_base);
        let wanted = |index: usize| share.holds(index) && !done.contains(&index);
        self.search_parts(&parts, 0, &wanted, found, &mut |index, outcome, position| {
            each(&parts, index, outcome, position)
        });
    }

    /// Searches the `wanted` parts from `first` on, on threads, handing on
    /// each chunk and each part's last outcome as they come, in any order.
    fn search_parts<R: Send>(
        &self,
        parts: &[Part],
        first: usize,
        wanted: &(dyn Fn(usize) -> bool + Sync),
        found: &(dyn Fn(&Candidate) -> Option<R> + Sync),
        handed: &mut dyn FnMut(usize, PartOutcome<R>, Option<PartPosition>),
    ) {
        let count = parts.len();
        let threads = match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
        .min(count.saturating_sub(first).max(1));
        let next = AtomicUsize::new(first);
        // The first part whose search was halted: later ones are not searched.
        let ended = AtomicUsize::new(usize::MAX);
        let flight = flight::current();
        let (sender, receiver) = mpsc::channel::<(usize, PartOutcome<R>, Option<PartPosition>)>();
        std::thread::scope(|scope| {
            for t in 0..threads {
                let (sender, next, ended, flight) = (sender.clone(), &next, &ended, flight.clone());
                std::thread::Builder::new()
                    .name(format!("smallscope-korat-{t}"))
                    .stack_size(crate::runner::USER_CODE_STACK)
                    .spawn_scoped(scope, move || {
                        let _binding = flight.as_ref().and_then(|f| f.bind());
                        loop {
                            if self.stop.is_some_and(StopFlag::is_set) {
                                return;
                            }
                            let index = next.fetch_add(1, Ordering::Relaxed);
                            let Some(part) = parts.get(index) else { return };
                            if index > ended.load(Ordering::Relaxed) {
                                return; // A part before it ended the search.
                            }
                            if !wanted(index) {
                                continue;
                            }
                            let from = self.position.as_ref().filter(|_| index == self.parts_done);
                            let mut candidate = Candidate::new(self.space.clone());
                            candidate.set_values(from.map_or(&part.values, |p| &p.values));
                            // Killed inputs of this part only: the search looks them up at every candidate.
                            let run_number = self.run_base + index as u64;
                            let killed: Vec<Killed> =
                                self.killed.iter().filter(|k| k.address.run == run_number).cloned().collect();
                            let run = PartRun {
                                run: run_number,
                                killed: &killed,
                                opening: part.settled.as_ref(),
                                options: self.options,
                                stop: self.stop,
                                chunked: true,
                            };
                            let chunks = &mut |chunk, position| {
                                let _ = sender.send((index, chunk, Some(position)));
                            };
                            let outcome = run.search(
                                &mut candidate,
                                part.frozen(),
                                from,
                                self.invariants,
                                &mut |c| found(c),
                                chunks,
                            );
                            if outcome.ending == Ending::Stopped {
                                return;
                            }
                            if outcome.halted {
                                ended.fetch_min(index, Ordering::Relaxed);
                            }
                            if sender.send((index, outcome, None)).is_err() {
                                return;
                            }
                        }
                    })
                    .expect("spawning a search thread");
            }
            drop(sender);
            for (index, outcome, position) in receiver {
                handed(index, outcome, position);
            }
        });
    }
}

/// The parts of a search as a join looks them up: all of them in one
/// process, those that have arrived in cluster mode.
pub trait PartList {
    fn part(&self, index: usize) -> Option<&Part>;
}

impl PartList for Vec<Part> {
    fn part(&self, index: usize) -> Option<&Part> {
        self.get(index)
    }
}

impl PartList for BTreeMap<usize, Part> {
    fn part(&self, index: usize) -> Option<&Part> {
        self.get(&index)
    }
}

/// Part outcomes, handed on in any order, told in the order the sequential
/// search meets them, with Korat+'s skips carried from part to part.
pub struct Join<R> {
    /// The next part to tell.
    expected: usize,
    skip: Option<Vec<(u32, u32)>>,
    /// Korat+ found no field to advance: the parts after are dropped.
    over: bool,
    waiting: BTreeMap<usize, VecDeque<Handed<R>>>,
}

impl<R> Join<R> {
    /// A join that starts after `parts_done`, with the skip carried from them.
    pub fn new(parts_done: usize, skip: Option<Vec<(u32, u32)>>) -> Self {
        Join { expected: parts_done, skip, over: false, waiting: BTreeMap::new() }
    }

    /// The next part to tell: those before it are told.
    pub fn expected(&self) -> usize {
        self.expected
    }

    /// Takes a chunk (with `position`) or a part's last outcome (without),
    /// and tells `report` all that is now in order. `parts` must hold the
    /// told part and the one after it, if there is one.
    pub fn push(
        &mut self,
        parts: &dyn PartList,
        count: usize,
        index: usize,
        handed: Handed<R>,
        report: &mut dyn FnMut(PartReport<R>),
    ) {
        self.waiting.entry(index).or_default().push_back(handed);
        while let Some((outcome, position)) = self.waiting.get_mut(&self.expected).and_then(VecDeque::pop_front) {
            let expected = self.expected;
            let part = parts.part(expected).expect("a told part is known");
            let kept = match &self.skip {
                _ if self.over => false,
                Some(prefix) if part.under(prefix) => false,
                _ => true,
            };
            if position.is_some() {
                let outcome = kept.then_some(outcome);
                report(PartReport { index: expected, parts: count, outcome, skip: self.skip.clone(), position });
                continue;
            }
            let outcome = kept.then(|| {
                let ending = match &outcome.ending {
                    Ending::Carry(eq) => carried(part, parts.part(expected + 1), eq),
                    other => other.clone(),
                };
                self.skip = match ending {
                    Ending::Next | Ending::Carry(_) | Ending::Stopped => None,
                    Ending::Skip(p) => Some(part.prefix[..=p].iter().map(|&f| (f, part.values[f as usize])).collect()),
                    Ending::All => {
                        self.over = true;
                        None
                    }
                };
                outcome
            });
            report(PartReport { index: expected, parts: count, outcome, skip: self.skip.clone(), position: None });
            self.waiting.remove(&expected);
            self.expected += 1;
        }
    }
}

/// How the sequential search goes on after `part` ended with
/// [`Ending::Carry`]: into `next` if a prefix field it changes to get there
/// is an `eq_class` field, else past the last `eq_class` field before them.
pub(super) fn carried(part: &Part, next: Option<&Part>, eq: &[bool]) -> Ending {
    let Some(next) = next else { return Ending::Next };
    // The first prefix field whose value the move to `next` changes.
    let changed = (0..part.frozen())
        .find(|&i| {
            next.prefix.get(i) != Some(&part.prefix[i]) || {
                let field = part.prefix[i] as usize;
                next.values[field] != part.values[field]
            }
        })
        .unwrap_or(part.frozen());
    if eq[changed..].iter().any(|&e| e) {
        return Ending::Next;
    }
    match eq[..changed].iter().rposition(|&e| e) {
        Some(p) => Ending::Skip(p),
        None => Ending::All,
    }
}

/// Runs the search on `threads` threads (0: all cores), splitting it on a
/// prefix of the fields `rep_ok` reads first. Counts and the order in which
/// valid candidates are reported equal the sequential search's.
pub fn search_parallel<F, R>(
    space: Arc<Space>,
    invariants: &(dyn Invariants + Sync),
    options: SearchOptions,
    threads: usize,
    found: F,
) -> (SearchStats, Vec<R>)
where
    F: Fn(&Candidate) -> Option<R> + Sync,
    R: Send,
{
    let started = Instant::now();
    let search = PartedSearch {
        space,
        invariants,
        options,
        threads,
        killed: &[],
        parts_done: 0,
        skip: None,
        position: None,
        stop: None,
        run_base: 0,
    };
    let mut stats = SearchStats::default();
    let mut all = Vec::new();
    search.run(&found, &mut |report| {
        if let Some(outcome) = report.outcome {
            stats.found += outcome.stats.found;
            stats.explored += outcome.stats.explored;
            stats.classes.extend(outcome.stats.classes);
            all.extend(outcome.found);
        }
    });
    stats.seconds = started.elapsed().as_secs_f64();
    (stats, all)
}

/// Splits the search into at most about `target` parts where it can.
/// Probing which field comes next runs `rep_ok` outside the counted search;
/// a probe that killed an earlier attempt leaves its part whole and
/// unprobed in every later round, so each culprit costs one restart here.
pub(super) fn split(
    space: &Arc<Space>,
    invariants: &dyn Invariants,
    target: usize,
    killed: &[Killed],
    run_base: u64,
) -> Vec<Part> {
    let mut parts = vec![Part { values: vec![0; space.slots.len()], prefix: Vec::new(), settled: None }];
    let mut probe = Candidate::new(space.clone());
    let mut probes = 0u64;
    for _ in 0..64 {
        let mut next = Vec::new();
        let mut grew = false;
        let total = parts.len();
        for (index, part) in parts.into_iter().enumerate() {
            // Children are made only while the total stays within the target.
            if part.settled.is_some() || next.len() + (total - index) >= target {
                next.push(part);
                continue;
            }
            probes += 1;
            let address = Address { run: PROBE | run_base | probes, input: 1, detail: 0 };
            if let Some(culprit) = Killed::at(killed, address) {
                next.push(Part { settled: Some(culprit.clone()), ..part });
                continue;
            }
            if ran_alone(killed, address).is_some() || killed.iter().any(|k| k.quarantines) {
                // `rep_ok` kept killing the worker, or died here and not
                // when run alone: no more probes, or not this one.
                next.push(part);
                continue;
            }
            flight::position(address);
            probe.set_values(&part.values);
            probe.clear_log();
            let _ = run_captured(UserCode::new(During::RepOk, 0), || invariants.rep_ok(&probe));
            let stack = probe.take_log();
            // Within the part, the field read after the prefix is always the same.
            let Some(&field) = stack.get(part.frozen()) else {
                next.push(part);
                continue;
            };
            let max = Limits::new(space).max(&space.codes, &part.values, &part.prefix, field as usize);
            let first = part.values[field as usize];
            if next.len() + (max - first) as usize + (total - index) > target {
                next.push(part);
                continue;
            }
            for value in first..=max {
                let mut values = part.values.clone();
                values[field as usize] = value;
                let mut prefix = part.prefix.clone();
                prefix.push(field);
                next.push(Part { values, prefix, settled: None });
            }
            grew |= max > first;
        }
        parts = next;
        if !grew {
            break;
        }
    }
    parts
}
