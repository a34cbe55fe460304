//! Candidates: small changes to a witness (a sequence that reached the
//! branch) that may take the side it did not, one strategy at a time.

use rustc_hash::FxHashSet;

use crate::api::{IntKind, ParamKind};
use crate::edges::comparisons::{Observed, SiteKind, EQUAL, NO_CASE};
use crate::events::Strategy;
use crate::sequence::{Call, Literal, Operand, Program};

/// Constants the thesis's add-a-constant strategy adds.
const CONSTANTS: [i64; 10] = [1, -1, 2, -2, 10, -10, 100, -100, 1000, -1000];

/// A witness, with what it met that decides the branch.
pub(super) struct Witness<'a> {
    pub program: &'a Program,
    /// Comparisons made in the branch's block (or on its line).
    pub deciding: Vec<&'a Observed>,
    /// Every other comparison the witness made.
    pub elsewhere: Vec<&'a Observed>,
}

/// An integer argument of a program: call, operand slot, type and value.
#[derive(Clone, Copy)]
pub(super) struct IntSlot {
    call: usize,
    slot: usize,
    kind: IntKind,
    pub value: i64,
    optional: bool,
}

/// The integer arguments of `program`, last call first: the call that
/// reached the branch is most often the last.
fn int_slots<'p>(program: &Program, params: &dyn Fn(u16) -> &'p [ParamKind]) -> Vec<IntSlot> {
    let mut slots = Vec::new();
    for (call, c) in program.calls.iter().enumerate().rev() {
        for (slot, (operand, kind)) in c.operands.iter().zip(params(c.op)).enumerate() {
            match (operand, kind) {
                (Operand::Literal(Literal::Int(value)), ParamKind::Int(kind)) => {
                    slots.push(IntSlot { call, slot, kind: *kind, value: *value, optional: false })
                }
                (Operand::Literal(Literal::OptionInt(Some(value))), ParamKind::OptionInt(kind)) => {
                    slots.push(IntSlot { call, slot, kind: *kind, value: *value, optional: true })
                }
                _ => {}
            }
        }
    }
    slots
}

/// The one integer argument `a` and `b` differ in, with its value in
/// `b`, when they are otherwise the same program.
pub(super) fn one_int_apart<'p>(
    a: &Program,
    b: &Program,
    params: &dyn Fn(u16) -> &'p [ParamKind],
) -> Option<(IntSlot, i64)> {
    let same_shape = a.calls.len() == b.calls.len()
        && a.calls.iter().zip(&b.calls).all(|(x, y)| x.op == y.op && x.operands.len() == y.operands.len());
    if !same_shape {
        return None;
    }
    let (a_slots, b_slots) = (int_slots(a, params), int_slots(b, params));
    let mut differing = a_slots.iter().zip(&b_slots).filter(|(x, y)| x.value != y.value);
    let (at, other) = differing.next()?;
    if differing.next().is_some() {
        return None;
    }
    let mut moved = b.clone();
    moved.calls[at.call].operands[at.slot] = a.calls[at.call].operands[at.slot].clone();
    (moved == *a).then_some((*at, other.value))
}

/// `program` with the integer at `at` set to `value`, if it fits.
pub(super) fn with_int(program: &Program, at: IntSlot, value: i64) -> Option<Program> {
    if value == at.value || !at.kind.fits(value) {
        return None;
    }
    let mut changed = program.clone();
    changed.calls[at.call].operands[at.slot] = Operand::Literal(match at.optional {
        true => Literal::OptionInt(Some(value)),
        false => Literal::Int(value),
    });
    Some(changed)
}

/// The bits of a comparison `bytes` wide.
fn mask(bytes: u8) -> u64 {
    match bytes {
        8.. => u64::MAX,
        bytes => (1 << (8 * u32::from(bytes))) - 1,
    }
}

/// Whether `value`, compared `bytes` wide, is `operand`.
fn is_operand(value: i64, operand: u64, bytes: u8) -> bool {
    (value as u64) & mask(bytes) == operand & mask(bytes)
}

/// The integers `operand` can be, compared `bytes` wide: unsigned, and signed.
fn readings(operand: u64, bytes: u8) -> [i64; 2] {
    let unsigned = operand & mask(bytes);
    let shift = 64 - 8 * u32::from(bytes.clamp(1, 8));
    [unsigned as i64, ((unsigned << shift) as i64) >> shift]
}

/// The width a comparison site compares at (a `match` is 8 bytes wide).
fn width(observed: &Observed) -> u8 {
    match observed.kind {
        SiteKind::Compare { bytes, .. } => bytes,
        SiteKind::Match { .. } => 8,
    }
}

/// The candidates strategy `strategy` makes from `witness`, each once.
pub(super) fn candidates<'p>(
    strategy: Strategy,
    witness: &Witness<'_>,
    params: &dyn Fn(u16) -> &'p [ParamKind],
    hosts: &[&Program],
    receiver_of: &dyn Fn(&Program) -> Option<u32>,
) -> Vec<Program> {
    let program = witness.program;
    let slots = int_slots(program, params);
    let mut out: Vec<Program> = Vec::new();
    let mut push = |candidate: Option<Program>| out.extend(candidate);
    // Each operand pair: the argument equal to one side set to `value_of(other side)`.
    let paired = |sites: &[&Observed], offsets: &[i64], push: &mut dyn FnMut(Option<Program>)| {
        for observed in sites.iter().filter(|o| matches!(o.kind, SiteKind::Compare { .. })) {
            let bytes = width(observed);
            for &(left, right) in &observed.operands {
                for (this, other) in [(left, right), (right, left)] {
                    for at in slots.iter().filter(|at| is_operand(at.value, this, bytes)) {
                        for reading in readings(other, bytes) {
                            for offset in offsets {
                                push(with_int(program, *at, reading.wrapping_add(*offset)));
                            }
                        }
                    }
                }
            }
        }
    };
    match strategy {
        Strategy::OtherOperand => paired(&witness.deciding, &[0], &mut push),
        Strategy::NextToOperand => paired(&witness.deciding, &[-1, 1], &mut push),
        Strategy::MatchCase => {
            for observed in &witness.deciding {
                let SiteKind::Match { cases } = &observed.kind else { continue };
                let mut wanted: Vec<u64> = cases
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i < 63 && observed.outcomes & (1 << i) == 0)
                    .map(|(_, &case)| case)
                    .collect();
                if observed.outcomes & NO_CASE == 0 {
                    wanted.extend(cases.iter().max().map(|max| max.wrapping_add(1)));
                }
                for &(value, _) in &observed.operands {
                    for at in slots.iter().filter(|at| is_operand(at.value, value, 8)) {
                        for &case in &wanted {
                            for reading in readings(case, 8) {
                                push(with_int(program, *at, reading));
                            }
                        }
                    }
                }
            }
        }
        Strategy::OperandElsewhere => {
            paired(&witness.elsewhere, &[0], &mut push);
            // A value changed before it was compared: try the deciding
            // comparisons' operands (and next to them) everywhere.
            for observed in &witness.deciding {
                let bytes = width(observed);
                let equal_seen = observed.outcomes & EQUAL != 0;
                for &(left, right) in &observed.operands {
                    for operand in [left, right] {
                        for at in &slots {
                            for reading in readings(operand, bytes) {
                                for offset in [0, -1, 1].iter().skip(usize::from(equal_seen)) {
                                    push(with_int(program, *at, reading.wrapping_add(*offset)));
                                }
                            }
                        }
                    }
                }
            }
        }
        Strategy::Negate => {
            for at in &slots {
                push(with_int(program, *at, at.value.wrapping_neg()));
            }
        }
        Strategy::AddConstant => {
            for at in &slots {
                for constant in CONSTANTS {
                    push(with_int(program, *at, at.value.wrapping_add(constant)));
                }
            }
        }
        Strategy::SwapVariable => {
            for (index, call) in program.calls.iter().enumerate() {
                let earlier: Vec<u32> = program.calls[..index].iter().filter_map(|c| c.binds).collect();
                for (slot, operand) in call.operands.iter().enumerate() {
                    let Operand::Var(var) = operand else { continue };
                    for &other in earlier.iter().filter(|&&other| other != *var) {
                        let mut changed = program.clone();
                        changed.calls[index].operands[slot] = Operand::Var(other);
                        push(Some(changed));
                    }
                }
            }
        }
        // Each step depends on the last: the director runs it.
        Strategy::Bisect => {}
        Strategy::OtherValue => {
            for candidate in on_other_values(program, hosts, receiver_of) {
                push(Some(candidate));
            }
        }
    }
    let mut seen = FxHashSet::default();
    out.retain(|candidate| candidate != program && seen.insert(candidate.clone()));
    out
}

/// The last call of `program` made on the value each of `hosts` left.
fn on_other_values(
    program: &Program,
    hosts: &[&Program],
    receiver_of: &dyn Fn(&Program) -> Option<u32>,
) -> Vec<Program> {
    let Some(last) = program.calls.last() else { return Vec::new() };
    // Only a call on one value and literals can move to another sequence.
    let values = last.operands.iter().filter(|o| matches!(o, Operand::Var(_))).count();
    if values != 1 || last.operands.iter().any(|o| matches!(o, Operand::Returned(_))) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for host in hosts {
        let Some(value) = receiver_of(host) else { continue };
        let next_var = host.calls.iter().filter_map(|c| c.binds).max().map_or(0, |v| v + 1);
        let operands = last
            .operands
            .iter()
            .map(|o| match o {
                Operand::Var(_) => Operand::Var(value),
                other => other.clone(),
            })
            .collect();
        let mut calls = host.calls.clone();
        calls.push(Call { op: last.op, operands, binds: last.binds.map(|_| next_var) });
        out.push(Program { calls, result: None });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_read_at_their_width() {
        // -3 as a u16 comparison operand, and 7919 as a u16.
        assert_eq!(readings(0xfffd, 2), [0xfffd, -3]);
        assert_eq!(readings(7919, 2), [7919, 7919]);
        assert!(is_operand(-3, 0xfffd, 2) && is_operand(3, 3, 8) && !is_operand(3, 4, 8));
        assert_eq!(mask(8), u64::MAX);
    }

    #[test]
    fn the_argument_compared_takes_the_other_operand() {
        let program = Program {
            calls: vec![
                Call { op: 0, operands: vec![], binds: Some(0) },
                Call { op: 1, operands: vec![Operand::Var(0), Operand::Literal(Literal::Int(3))], binds: None },
            ],
            result: None,
        };
        let key = Observed {
            site: 1,
            kind: SiteKind::Compare { bytes: 2, constant: true },
            outcomes: 2,
            operands: vec![(7919, 3)],
        };
        const KEYED: [ParamKind; 2] = [ParamKind::Subject(crate::api::Access::Mut), ParamKind::Int(IntKind::U16)];
        let params = |op: u16| -> &'static [ParamKind] {
            match op {
                0 => &[],
                _ => &KEYED,
            }
        };
        let witness = Witness { program: &program, deciding: vec![&key], elsewhere: vec![] };
        let none = |_: &Program| None;
        let made = candidates(Strategy::OtherOperand, &witness, &params, &[], &none);
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].calls[1].operands[1], Operand::Literal(Literal::Int(7919)));
        let next = candidates(Strategy::NextToOperand, &witness, &params, &[], &none);
        let values: Vec<_> = next.iter().map(|p| p.calls[1].operands[1].clone()).collect();
        assert_eq!(values, [Operand::Literal(Literal::Int(7918)), Operand::Literal(Literal::Int(7920))]);
        // -3 does not fit a u16.
        assert!(candidates(Strategy::Negate, &witness, &params, &[], &none).is_empty());
        // The key apart, and nothing else: bisected between 3 and 7919.
        let keyed = &made[0];
        let (at, other) = one_int_apart(&program, keyed, &params).unwrap();
        assert_eq!((at.value, other), (3, 7919));
        assert!(one_int_apart(&program, &next[0], &params).is_some());
        let shorter = Program { calls: program.calls[..1].to_vec(), result: None };
        assert!(one_int_apart(&program, &shorter, &params).is_none());
        let other_call = Program { calls: vec![program.calls[0].clone(), program.calls[0].clone()], result: None };
        assert!(one_int_apart(&program, &other_call, &params).is_none());
    }
}
