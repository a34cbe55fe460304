//! Making a new sequence (thesis §5.5): the bootstrap of short sequences,
//! then components picked at random and joined by a call whose arguments
//! they supply.

use super::{stage, Generator};
use crate::api::{Access, IntKind, Operation, ParamKind, ReturnKind};
use crate::events::{During, FailureKind, Stop};
use crate::heap::Heap;
use crate::random::execute::Broken;
use crate::random::sequence::Sequence;
use crate::runner::memory::{self, Pressure};
use crate::runner::take_drop_panic;
use crate::sequence::{Call, Literal, Operand};
use rand::RngExt;
use std::sync::Arc;

impl<'a, T: Heap> Generator<'a, T> {
    /// Seeds the component set with every sequence of a constructor and at
    /// most two more calls on its value, over the seed domains: at most
    /// [`BOOTSTRAP_SEQUENCES`] of them, and at most a quarter of a sequence
    /// limit, so that random generation keeps most of the budget. Random
    /// picks rarely land on these short sequences once the set is large, yet
    /// they are the best replacements when simplifying (§6.1).
    pub(super) fn bootstrap(&mut self) {
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
    pub(super) fn seed_ints(&self, kind: IntKind) -> impl Iterator<Item = i64> + '_ {
        self.config.ints.iter().copied().filter(move |&v| kind.fits(v))
    }

    /// Every combination of seed literals for `params` (at most
    /// [`BOOTSTRAP_COMBINATIONS`]), with `receiver` in slot 0 when given.
    pub(super) fn literal_operands(&self, op: &Operation<T>, receiver: Option<u32>) -> Vec<Vec<Operand>> {
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
    pub(super) fn try_sequence(&mut self, parts: Vec<usize>, calls: Vec<Call>) {
        if self.halt.is_none() && self.config.last_sequence().is_none_or(|last| self.counts.explored < last) {
            self.run_new(&parts, calls);
        }
    }

    /// Assembles and runs one new sequence; false when it was made before.
    pub(super) fn step(&mut self) -> bool {
        match self.assemble() {
            Some((parts, calls)) => self.run_new(&parts, calls),
            None => false,
        }
    }

    /// Runs `parts` + `calls` unless that sequence was made before (§7.3:
    /// redundant); false if it was.
    pub(super) fn run_new(&mut self, parts: &[usize], calls: Vec<Call>) -> bool {
        let seq = Arc::new(Sequence::new(parts.iter().map(|&c| self.components[c].seq.clone()).collect(), calls));
        if !self.made.insert(seq.key()) {
            self.counts.redundant += 1;
            return false;
        }
        self.added.made.push(seq.key());
        self.counts.explored += 1;
        let before = memory::kept_by_user_code();
        self.execute(parts, seq.clone());
        self.note_edges();
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
    pub(super) fn assemble(&mut self) -> Option<(Vec<usize>, Vec<Call>)> {
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
    pub(super) fn other_values(&self, op: &Operation<T>, slot: usize) -> &[Literal] {
        op.other(slot).map_or(&[], |other| self.others.values(other))
    }

    /// A seed integer or, half the time, one a call returned before; it must fit `kind`.
    pub(super) fn pick_int(&mut self, kind: IntKind) -> i64 {
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
}

/// Calls after the constructor in the seeding sequences, and how many
/// sequences seeding runs at most.
pub(super) const BOOTSTRAP_DEPTH: usize = 2;

pub(super) const BOOTSTRAP_SEQUENCES: u64 = 20_000;

/// Other subjects' structures tried per parameter when seeding.
pub(super) const BOOTSTRAP_OTHER_VALUES: usize = 8;

/// Most argument combinations tried per operation when seeding.
pub(super) const BOOTSTRAP_COMBINATIONS: usize = 64;

/// The stored sequences a new one starts with, as it is assembled.
#[derive(Default)]
pub(super) struct Picked {
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
