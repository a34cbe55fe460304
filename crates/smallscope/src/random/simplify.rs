//! Replacement-based simplification (thesis §6.1).
//!
//! A failing sequence from random generation is long and mostly beside the
//! point. Simplifying keeps its failure class (same contract, same last
//! operation, same panic location) and shrinks it in three phases:
//! 1. **removal**: drop blocks of calls whose removal keeps the failure,
//!    halving the block size down to single calls, until none can go;
//! 2. **replacement**: replace the call that makes a value, together with
//!    the calls that only fed it, by a shorter stored sequence making a value
//!    of the same type, trying shorter and simpler (more general)
//!    replacements first; here removal alone is stuck, because the value is
//!    needed;
//! 3. **literals**: replace each integer argument by a simpler one from the
//!    domain (0 first), `Some(x)` by `None`, and a list by a shorter one or
//!    one with simpler elements, which makes the test easier to read. Only
//!    values the parameter's type holds are tried (never `-1` for a `u8`).
//!
//! Every candidate is replayed from scratch; the failure decides.

use super::execute::Executor;
use super::generate::Component;
use super::GroupKey;
use crate::api::OtherDomains;
use crate::api::{Access, ParamKind};
use crate::sequence::{Call, Literal, Operand, Program};

/// A stored sequence offered as a replacement: its calls and the variables
/// it may hand over.
pub struct Replacement {
    pub program: Program,
    pub vars: Vec<u32>,
}

/// How many replacements are tried for one call at most.
const REPLACEMENTS_PER_CALL: usize = 300;

pub struct Simplifier<'a, T> {
    pub exec: &'a Executor<'a, T>,
    pub target: GroupKey,
    /// Ordered: shorter first, then simpler.
    pub replacements: &'a [Replacement],
    /// Integer literals to try, simplest first.
    pub ints: &'a [i64],
    /// Other subjects' structures, smallest first.
    pub others: &'a OtherDomains,
}

impl<T: crate::heap::Heap> Simplifier<'_, T> {
    /// The simplified program; `program` must fail with the target class.
    pub fn simplify(&self, program: Program) -> Program {
        let mut program = self.keeps_failure(program.clone()).unwrap_or(program);
        // Each phase can open the way for another; a few rounds settle it.
        for _ in 0..3 {
            let before = program.clone();
            program = self.remove(program);
            program = self.replace(program);
            program = self.simplify_literals(program);
            if program == before {
                break;
            }
        }
        renumber(program)
    }

    /// `program`, cut after its failing call, if it still fails the same way.
    fn keeps_failure(&self, mut program: Program) -> Option<Program> {
        self.exec.locate_next(super::generate::stage::SIMPLIFY);
        let replay = self.exec.replay(&program, false);
        let (index, _) = replay.stopped.as_ref()?;
        let failure = replay.failure()?;
        if failure.group_key() != self.target {
            return None;
        }
        program.calls.truncate(index + 1);
        Some(program)
    }

    /// The removal phase: drops blocks of consecutive calls, halving the
    /// block size down to single calls (as delta debugging does), from the
    /// end backwards, until nothing more can go. Blocks matter when calls
    /// only fail together, like a pair of inserts that cancel out.
    fn remove(&self, mut program: Program) -> Program {
        loop {
            let before = program.calls.len();
            let mut size = (before / 2).max(1);
            loop {
                let mut end = program.calls.len().saturating_sub(1);
                while end >= size {
                    let start = end - size;
                    match without_calls(&program, start..end).and_then(|candidate| self.keeps_failure(candidate)) {
                        Some(kept) => {
                            program = kept;
                            end = start.min(program.calls.len().saturating_sub(1));
                        }
                        None => end -= 1,
                    }
                }
                if size == 1 {
                    break;
                }
                size /= 2;
            }
            if program.calls.len() == before {
                return program;
            }
        }
    }

    /// The replacement phase. The thesis replaces the call that makes a
    /// value; Rust APIs mostly build a value by calls that change it in
    /// place (`new`, then `add`s), so here the placeholder is a variable *as
    /// it is used by one call*: everything that only served to build it up
    /// to that call goes, and a shorter stored sequence supplies the value.
    /// After each success the scan starts again from the end; every success
    /// makes the program shorter, so it ends.
    fn replace(&self, mut program: Program) -> Program {
        'restart: loop {
            for at in (0..program.calls.len()).rev() {
                let mut used: Vec<u32> = vars_of(&program.calls[at]).collect();
                used.dedup();
                for placeholder in used {
                    if let Some(shorter) = self.replace_at(&program, at, placeholder) {
                        program = shorter;
                        continue 'restart;
                    }
                }
            }
            return program;
        }
    }

    /// Tries to supply `placeholder`, as used from call `at` on, from a
    /// shorter stored sequence; more general (shorter, simpler) ones first.
    fn replace_at(&self, program: &Program, at: usize, placeholder: u32) -> Option<Program> {
        // Handles tie calls to their places: such programs are only shrunk by removal.
        if program.calls.iter().flat_map(|c| &c.operands).any(|o| matches!(o, Operand::Returned(_))) {
            return None;
        }
        let given = program.calls.iter().filter_map(|c| c.binds).max().map_or(0, |m| m + 1);
        let mut renamed = program.clone();
        for call in &mut renamed.calls[at..] {
            *call = call.renamed(|v| if v == placeholder { given } else { v });
        }
        let kept = self.needed(&renamed);
        let removed = program.calls.len() - kept.len();
        let fresh = given + 1;
        let candidates = self
            .replacements
            .iter()
            .filter(|r| r.program.calls.len() < removed)
            .flat_map(|r| r.vars.iter().map(move |&v| (r, v)))
            .take(REPLACEMENTS_PER_CALL);
        for (replacement, var) in candidates {
            let mut calls: Vec<Call> = replacement.program.calls.iter().map(|c| c.renamed(|v| v + fresh)).collect();
            let with = var + fresh;
            calls.extend(kept.iter().map(|&i| renamed.calls[i].renamed(|v| if v == given { with } else { v })));
            if let Some(shorter) = self.keeps_failure(Program { calls, result: None }) {
                return Some(shorter);
            }
        }
        None
    }

    /// Indices of the calls the last call depends on: those that make or
    /// change a variable it (transitively) uses.
    fn needed(&self, program: &Program) -> Vec<usize> {
        let calls = &program.calls;
        let last = calls.len() - 1;
        let mut needed: Vec<u32> = vars_of(&calls[last]).collect();
        let mut keep = vec![last];
        for i in (0..last).rev() {
            let call = &calls[i];
            let params = &self.exec.ops[usize::from(call.op)].params;
            let binds_needed = call.binds.is_some_and(|v| needed.contains(&v));
            let changes_needed = call.operands.iter().zip(params).any(|(o, p)| {
                matches!((o, p), (Operand::Var(v), ParamKind::Subject(Access::Mut | Access::Owned)) if needed.contains(v))
            });
            if binds_needed || changes_needed {
                keep.push(i);
                needed.extend(vars_of(call));
            }
        }
        keep.reverse();
        keep
    }

    /// Replaces each literal by a simpler one that keeps the failure: an
    /// integer by one nearer 0, `Some(x)` by `None`, a list by a shorter one
    /// or one with simpler elements.
    fn simplify_literals(&self, mut program: Program) -> Program {
        for call_index in 0..program.calls.len() {
            for operand_index in 0..program.calls[call_index].operands.len() {
                let Operand::Literal(current) = &program.calls[call_index].operands[operand_index] else {
                    continue;
                };
                let mut current = current.clone();
                // Only values the parameter's type holds: the witness is Rust source too.
                let param = self.exec.ops[usize::from(program.calls[call_index].op)].params.get(operand_index).copied();
                'simpler: loop {
                    for simpler in self.simpler_literals(&current) {
                        if param.is_some_and(|kind| !simpler.fits(kind)) {
                            continue;
                        }
                        let mut candidate = program.clone();
                        candidate.calls[call_index].operands[operand_index] = Operand::Literal(simpler.clone());
                        let Some(kept) = self.keeps_failure(candidate) else { continue };
                        if kept.calls.len() != program.calls.len() {
                            continue;
                        }
                        program = kept;
                        // Candidates come simplest first, except that a shorter list may shrink again.
                        let again = matches!(simpler, Literal::IntList(_));
                        current = simpler;
                        if again {
                            continue 'simpler;
                        }
                        break 'simpler;
                    }
                    break;
                }
            }
        }
        program
    }

    /// The literals simpler than `current`, simplest first.
    fn simpler_literals(&self, current: &Literal) -> Vec<Literal> {
        let simpler_ints = |v: i64| self.ints.iter().copied().filter(move |&c| (c.abs(), c < 0) < (v.abs(), v < 0));
        match current {
            Literal::Int(v) => simpler_ints(*v).map(Literal::Int).collect(),
            Literal::OptionInt(Some(v)) => std::iter::once(Literal::OptionInt(None))
                .chain(simpler_ints(*v).map(|c| Literal::OptionInt(Some(c))))
                .collect(),
            Literal::IntList(values) => {
                let shorter = (0..values.len()).map(|i| {
                    let mut list = values.to_vec();
                    list.remove(i);
                    Literal::IntList(list.into())
                });
                let simpler_elements = (0..values.len()).flat_map(|i| {
                    simpler_ints(values[i]).map(move |c| {
                        let mut list = values.to_vec();
                        list[i] = c;
                        Literal::IntList(list.into())
                    })
                });
                shorter.chain(simpler_elements).collect()
            }
            // Structures of another subject: the ones made before it, which are no larger.
            Literal::Other(value) => {
                let pool = self.others.values_of(&value.type_name);
                pool.iter().take_while(|other| *other != current).cloned().collect()
            }
            Literal::OptionInt(None) | Literal::Bool(_) | Literal::Char(_) | Literal::Str(_) => Vec::new(),
        }
    }
}

fn vars_of(call: &Call) -> impl Iterator<Item = u32> + '_ {
    call.operands.iter().filter_map(|o| match o {
        Operand::Var(v) => Some(*v),
        Operand::Literal(_) | Operand::Returned(_) => None,
    })
}

/// `program` without the calls in `removed`, the handles later calls take
/// renumbered; `None` when a later call uses a variable or a handle one of
/// them made (so they cannot go alone).
fn without_calls(program: &Program, removed: std::ops::Range<usize>) -> Option<Program> {
    let (start, end) = (removed.start as u32, removed.end as u32);
    let later = &program.calls[removed.end..];
    let binds_used = program.calls[removed.clone()].iter().filter_map(|c| c.binds).any(|v| uses(later, v));
    let handle_used =
        later.iter().flat_map(|c| &c.operands).any(|o| matches!(o, Operand::Returned(c) if (start..end).contains(c)));
    if binds_used || handle_used {
        return None;
    }
    let mut calls = program.calls[..removed.start].to_vec();
    calls.extend(later.iter().map(|c| c.renumbered(|v| v, |c| if c >= end { c - (end - start) } else { c })));
    Some(Program { calls, result: program.result })
}

fn uses(calls: &[Call], var: u32) -> bool {
    calls.iter().any(|c| vars_of(c).any(|v| v == var))
}

/// How many stored sequences may serve as replacements, and how long.
const REPLACEMENT_SET_SIZE: usize = 2_000;
const REPLACEMENT_MAX_CALLS: usize = 8;

/// Short stored sequences, shortest and simplest first (§6.1: more general
/// replacements are tried first).
pub(super) fn replacement_set<T>(components: &[Component<T>]) -> Vec<Replacement> {
    let mut candidates: Vec<(usize, u32, usize)> = components
        .iter()
        .enumerate()
        .filter(|(_, c)| c.seq.len() <= REPLACEMENT_MAX_CALLS)
        .map(|(i, c)| (c.seq.len(), literal_weight(&c.seq.flatten()), i))
        .collect();
    candidates.sort_unstable();
    candidates.truncate(REPLACEMENT_SET_SIZE);
    candidates
        .into_iter()
        .map(|(_, _, i)| {
            let component = &components[i];
            Replacement { program: component.seq.flatten(), vars: component.reusable.clone() }
        })
        .collect()
}

/// How far a program's literals are from the simplest ones.
fn literal_weight(program: &Program) -> u32 {
    program
        .calls
        .iter()
        .flat_map(|c| &c.operands)
        .map(|o| match o {
            Operand::Literal(Literal::Int(v)) => v.unsigned_abs().min(1_000) as u32,
            Operand::Literal(Literal::OptionInt(Some(v))) => 1 + v.unsigned_abs().min(1_000) as u32,
            Operand::Literal(Literal::IntList(values)) => {
                values.iter().map(|v| 1 + v.unsigned_abs().min(1_000) as u32).sum::<u32>() + 1
            }
            Operand::Literal(_) => 1,
            Operand::Var(_) | Operand::Returned(_) => 0,
        })
        .sum()
}

/// Variables numbered 0, 1, .. in the order they are bound.
pub fn renumber(program: Program) -> Program {
    let mut map = rustc_hash::FxHashMap::default();
    for call in &program.calls {
        if let Some(v) = call.binds {
            let next = map.len() as u32;
            map.entry(v).or_insert(next);
        }
    }
    let calls = program.calls.iter().map(|c| c.renamed(|v| map.get(&v).copied().unwrap_or(v))).collect();
    Program { calls, result: program.result.map(|v| map.get(&v).copied().unwrap_or(v)) }
}
