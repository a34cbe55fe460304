//! Branch-directed generation (Pacheco's thesis, §8.4): after random
//! generation, take the branches of the user's code with a side taken and
//! a side not (the *frontier*, [`crate::edges::frontier`]) and change the
//! sequences that reached each until one takes the other side.
//!
//! **How.** A *witness* of a branch is a stored sequence whose run (from
//! scratch, traced: [`crate::edges::traced`]) took the branching block or
//! made a comparison in it; the shortest few are kept. Candidates are small
//! changes to a witness, made by one [`Strategy`] at a time, guided first by
//! the operands of the comparison that decides the branch (set the argument
//! that was compared to what it was compared with, or next to it; a `match`
//! case not taken), then by the thesis's blind changes (negate, add a
//! constant, swap a variable), then by moving the witness's last call onto
//! a value an earlier flip made (a branch behind another). Each candidate is
//! run from scratch; it *flips* the branch when it takes a side not taken
//! before. A failing candidate is filed as random's failures are (grouped
//! and simplified at the end), and the flips become regression tests.
//!
//! The thesis found the values by a dynamic data-flow analysis and flipped
//! 65% of its frontier; the comparison operands SanitizerCoverage hands
//! over are the values themselves.
//!
//! **When to choose it.** When random testing stops taking new edges
//! (`coverage: … the last new one at sequence N`) and the frontier names
//! branches behind a key, a checksum or a length random values do not hit.
//! It needs a harness built with coverage (`cargo smallscope branch`).
//!
//! **Cost.** Generation gets half the time limit; the phase then runs up to
//! [`WITNESS_SOURCES`] stored sequences once each, traced (a lock per edge
//! and comparison), and at most [`CANDIDATES_PER_BRANCH`] candidates per
//! branch and [`CANDIDATES`] in all, each a replay from scratch with the
//! contracts: from about 50 µs (a small API) to a millisecond (a large one
//! with eight contracts) each in a coverage build, where every edge of the
//! code instantiated in the crate calls back. The time limit bounds it.

mod candidates;

use std::time::Instant;

use rustc_hash::FxHashSet;

use super::config::FlipToConfirm;
use super::execute::{CallResult, Executor};
use super::generate::{stage, Generator};
use super::simplify;
use crate::api::Subject;
use crate::edges::comparisons::{self, Observed};
use crate::edges::{self, FrontierBranch, Trace};
use crate::events::{BranchTried, Branching, Flip, Input, Strategy, StrategyTally, Witness};
use crate::heap::Heap;
use crate::sequence::Program;
use candidates::candidates;

/// Stored sequences, shortest first, that are run to find witnesses.
pub const WITNESS_SOURCES: usize = 2048;
/// Witnesses of one branch that candidates are made from.
pub const WITNESSES: usize = 4;
/// Candidates run for one branch before it is given up.
pub const CANDIDATES_PER_BRANCH: u64 = 1000;
/// Candidates run in all: the phase's bound when the run has no time
/// limit (a candidate of a large API, run with its contracts, costs up
/// to a millisecond in a coverage build).
pub const CANDIDATES: u64 = 20_000;
/// Values of other sequences the witness's last call is moved onto.
const HOSTS: usize = 256;
/// Runs that reached a branch, shortest first, whose pairs are bisected.
const BISECTED_RUNS: usize = 16;
/// Rounds: each tries the branches a flip brought to the frontier.
const ROUNDS: usize = 8;
/// Lines above a branch whose comparisons count as deciding it, when none
/// is in its block (a `match` on `a.cmp(&b)` compares in the block before).
const DECIDING_LINES: u32 = 2;

/// A branch being tried: where its record is, and its witnesses.
struct Target {
    index: usize,
    witnesses: Vec<WitnessRun>,
}

/// A witness, and the comparisons its run made: those that decide the
/// branch, and the others.
struct WitnessRun {
    program: Program,
    deciding: Vec<Observed>,
    elsewhere: Vec<Observed>,
}

/// A program run from scratch with what it met.
struct Traced {
    program: Program,
    trace: Trace,
}

impl Traced {
    /// Whether its run reached `branch`: took its block or compared in it.
    fn reached(&self, branch: &FrontierBranch) -> bool {
        let took = |edge: &u32| self.trace.edges.binary_search(edge).is_ok();
        branch.edge.as_ref().is_some_and(took)
            || branch.sides_taken.iter().any(took)
            || self.trace.comparisons.iter().any(|o| in_block(o, branch))
    }
}

fn in_block(observed: &Observed, branch: &FrontierBranch) -> bool {
    (branch.block.0..branch.block.1).contains(&observed.site)
}

/// Whether `observed` decides `branch`: in its block, or just above it.
fn deciding(observed: &Observed, branch: &FrontierBranch, near: bool) -> bool {
    match near {
        false => in_block(observed, branch),
        true => comparisons::site(observed.site).is_some_and(|site| {
            site.file == branch.at.file
                && (branch.at.line.saturating_sub(DECIDING_LINES)..=branch.at.line).contains(&site.line)
        }),
    }
}

/// The branch phase, over a generator whose generation ended.
pub(super) struct Director<'g, 'a, T> {
    generator: &'g mut Generator<'a, T>,
    exec: &'g Executor<'a, T>,
    /// Seconds of the run (as the generator counts them) to stop at.
    deadline: Option<f64>,
    pool: Vec<Traced>,
    flips: Vec<Program>,
    tried: Vec<BranchTried>,
    tallies: Vec<StrategyTally>,
    candidates: u64,
}

impl<'g, 'a, T: Subject> Director<'g, 'a, T> {
    pub(super) fn new(generator: &'g mut Generator<'a, T>, exec: &'g Executor<'a, T>, deadline: Option<f64>) -> Self {
        let tallies =
            Strategy::ALL.iter().map(|&strategy| StrategyTally { strategy, candidates: 0, flips: 0 }).collect();
        Director {
            generator,
            exec,
            deadline,
            pool: Vec::new(),
            flips: Vec::new(),
            tried: Vec::new(),
            tallies,
            candidates: 0,
        }
    }

    /// Whether the phase must end: asked to, past its time, or out of candidates.
    fn out_of_time(&self) -> bool {
        self.generator.stop_asked().is_some()
            || self.candidates >= CANDIDATES
            || self.deadline.is_some_and(|d| self.generator.seconds() >= d)
    }

    /// Tries every frontier branch, round after round; what it did, and the flips.
    pub(super) fn run(mut self) -> (Branching, Vec<Program>) {
        let started = Instant::now();
        let edges_before = edges::covered();
        self.trace_sources();
        let mut tried_blocks = FxHashSet::default();
        'rounds: for _ in 0..ROUNDS {
            // A branch flipped to one side comes again for the others.
            let mut targets: Vec<FrontierBranch> = edges::frontier()
                .into_iter()
                .filter(|b| !tried_blocks.contains(&(b.block, b.missed_edges.clone())))
                .collect();
            // The invariant's branches, and those whose side not taken only panics, last.
            targets.sort_by_key(|b| b.to_panic || self.in_invariant(b));
            if targets.is_empty() {
                break;
            }
            let mut round = Vec::new();
            for branch in targets {
                tried_blocks.insert((branch.block, branch.missed_edges.clone()));
                round.push(self.target(branch));
            }
            // Each strategy over every branch before the next: the guided
            // changes are few and the likeliest, the blind ones many.
            for strategy in Strategy::ALL {
                for target in &round {
                    if self.out_of_time() {
                        break 'rounds;
                    }
                    self.try_strategy(strategy, target);
                }
            }
        }
        let branching = Branching {
            edges_before,
            edges_after: edges::covered(),
            seconds: started.elapsed().as_secs_f64(),
            candidates: self.candidates,
            branches: self.tried,
            strategies: self.tallies,
        };
        (branching, self.flips)
    }

    /// Whether `branch` is in the subject's invariant.
    fn in_invariant(&self, branch: &FrontierBranch) -> bool {
        T::REP_OK_METHOD
            .is_some_and(|method| branch.function == method || branch.function.ends_with(&format!("::{method}")))
    }

    /// Runs the shortest stored sequences, traced, as the first witnesses.
    fn trace_sources(&mut self) {
        let mut sources: Vec<_> = self.generator.components.iter().map(|c| c.seq.clone()).collect();
        sources.sort_by_key(|seq| seq.len());
        for seq in sources.into_iter().take(WITNESS_SOURCES) {
            if self.out_of_time() {
                return;
            }
            let program = seq.flatten();
            let trace = self.run_traced(&program);
            self.pool.push(Traced { program, trace });
        }
    }

    /// Runs `program` from scratch, traced; files it if it fails.
    fn run_traced(&mut self, program: &Program) -> Trace {
        self.exec.locate_next(stage::BRANCH);
        let (replay, trace) = edges::traced(|| self.exec.replay(program, false));
        if let Some((index, CallResult::Failed(broken))) = replay.stopped {
            let mut witness = program.clone();
            witness.calls.truncate(index + 1);
            self.generator.file_program(broken, witness);
        }
        trace
    }

    /// A branch to try: recorded as tried, with its witnesses and the
    /// comparisons each made, told apart as deciding it or not.
    fn target(&mut self, branch: FrontierBranch) -> Target {
        let mut witnesses: Vec<&Traced> = self.pool.iter().filter(|t| t.reached(&branch)).collect();
        witnesses.sort_by_key(|t| t.program.calls.len());
        witnesses.truncate(WITNESSES);
        let near = !witnesses.iter().any(|w| w.trace.comparisons.iter().any(|o| in_block(o, &branch)));
        let witnesses: Vec<WitnessRun> = witnesses
            .iter()
            .map(|w| {
                let (deciding, elsewhere) =
                    w.trace.comparisons.iter().cloned().partition(|o| deciding(o, &branch, near));
                WitnessRun { program: w.program.clone(), deciding, elsewhere }
            })
            .collect();
        let index = self.tried.len();
        let invariant = self.in_invariant(&branch);
        let tried = BranchTried { branch, witnesses: witnesses.len() as u32, candidates: 0, flip: None, invariant };
        self.tried.push(tried);
        Target { index, witnesses }
    }

    /// Runs `strategy`'s candidates for `target` until it is flipped or its
    /// candidates run out.
    fn try_strategy(&mut self, strategy: Strategy, target: &Target) {
        let index = target.index;
        let spent = |director: &Self| {
            let tried = &director.tried[index];
            tried.flip.is_some() || tried.candidates >= CANDIDATES_PER_BRANCH || director.out_of_time()
        };
        if spent(self) {
            return;
        }
        if strategy == Strategy::Bisect {
            self.bisect(index);
            return;
        }
        let params = params_of(self.exec.ops);
        let infos = self.generator.infos.clone();
        // The value a sequence leaves: what its last call changed, or made.
        let receiver_of = |program: &Program| {
            program.last_mutated(&infos).or_else(|| program.calls.iter().rev().find_map(|call| call.binds))
        };
        // Flips first: a branch behind another is reached from its flip.
        let hosts: Vec<Program> = match strategy {
            Strategy::OtherValue => {
                self.flips.iter().chain(self.pool.iter().map(|t| &t.program)).take(HOSTS).cloned().collect()
            }
            _ => Vec::new(),
        };
        let hosts: Vec<&Program> = hosts.iter().collect();
        for run in &target.witnesses {
            let witness = candidates::Witness {
                program: &run.program,
                deciding: run.deciding.iter().collect(),
                elsewhere: run.elsewhere.iter().collect(),
            };
            for candidate in candidates(strategy, &witness, &params, &hosts, &receiver_of) {
                if spent(self) {
                    return;
                }
                self.tried[index].candidates += 1;
                self.run_candidate(candidate, strategy);
            }
        }
    }

    /// Bisects an argument two runs that reached branch `index` and took
    /// different sides differ in, until the side between them is taken;
    /// whether the branch was flipped.
    fn bisect(&mut self, index: usize) -> bool {
        let branch = self.tried[index].branch.clone();
        let sides: Vec<u32> = branch.sides_taken.iter().chain(&branch.missed_edges).copied().collect();
        let side_of = |trace: &Trace| sides.iter().copied().find(|e| trace.edges.binary_search(e).is_ok());
        let params = params_of(self.exec.ops);
        // The shortest runs that took a side, by their place in the pool
        // (which grows as candidates run).
        let mut reached: Vec<(usize, u32)> =
            self.pool.iter().enumerate().filter_map(|(i, t)| Some((i, side_of(&t.trace)?))).collect();
        reached.sort_by_key(|&(i, _)| self.pool[i].program.calls.len());
        reached.truncate(BISECTED_RUNS);
        for (i, &(low, low_side)) in reached.iter().enumerate() {
            for &(high, high_side) in &reached[i + 1..] {
                let apart = candidates::one_int_apart(&self.pool[low].program, &self.pool[high].program, &params);
                let Some((at, high_value)) = apart.filter(|_| low_side != high_side) else {
                    continue;
                };
                let low = self.pool[low].program.clone();
                let (mut below, mut above) = (at.value, high_value);
                while below.abs_diff(above) > 1 {
                    if self.tried[index].flip.is_some() {
                        return true;
                    }
                    if self.tried[index].candidates >= CANDIDATES_PER_BRANCH || self.out_of_time() {
                        return false;
                    }
                    let middle = below + (above - below) / 2;
                    let Some(candidate) = candidates::with_int(&low, at, middle) else { break };
                    self.tried[index].candidates += 1;
                    let trace = self.run_candidate(candidate, Strategy::Bisect);
                    match side_of(&trace) {
                        Some(side) if side == low_side => below = middle,
                        Some(_) => above = middle,
                        None => break,
                    }
                }
            }
        }
        self.tried[index].flip.is_some()
    }

    /// Runs a candidate; the branches tried so far whose side it took are flipped by it.
    fn run_candidate(&mut self, candidate: Program, strategy: Strategy) -> Trace {
        let covered = edges::covered();
        let trace = self.run_traced(&candidate);
        self.candidates += 1;
        let tally = self.tallies.iter_mut().find(|t| t.strategy == strategy).expect("every strategy has a tally");
        tally.candidates += 1;
        let mut flipped = false;
        for tried in self.tried.iter_mut().filter(|t| t.flip.is_none()) {
            if tried.branch.missed_edges.iter().any(|edge| trace.edges.binary_search(edge).is_ok()) {
                let program = simplify::renumber(candidate.clone());
                let text = program.to_text(&self.generator.infos);
                let calls = program.calls.len();
                let witness = Witness { text, calls, input: Input::Program(program) };
                tried.flip = Some(Flip { strategy, witness, confirmed: None });
                tally.flips += 1;
                flipped = true;
            }
        }
        if flipped {
            self.flips.push(candidate.clone());
        }
        // A candidate that took a new edge may reach branches not tried yet.
        if flipped || edges::covered() > covered {
            self.pool.push(Traced { program: candidate, trace: trace.clone() });
        }
        trace
    }
}

/// The parameters of each operation, by its number.
fn params_of<'o, T>(ops: &'o [crate::api::Operation<T>]) -> impl Fn(u16) -> &'o [crate::api::ParamKind] {
    move |op| &ops[usize::from(op)].params
}

/// Whether each flip's sequence, run from scratch, takes one of its edges.
pub(super) fn confirm<T: Heap>(exec: &Executor<'_, T>, flips: &[FlipToConfirm]) -> Vec<bool> {
    flips
        .iter()
        .map(|flip| {
            exec.locate_next(stage::BRANCH);
            let (_, trace) = edges::traced(|| exec.replay(&flip.program, false));
            flip.edges.iter().any(|edge| trace.edges.binary_search(edge).is_ok())
        })
        .collect()
}
