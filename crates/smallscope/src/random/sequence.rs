//! [`Sequence`]: an immutable call sequence that shares its prefixes (§7.6).
//!
//! A new sequence is the concatenation of sequences already made (its
//! `parts`, held by `Arc`, never copied) followed by a few new calls. Making
//! one costs time and memory in the number of parts, not in the number of
//! calls. [`Sequence::flatten`] unrolls it into a straight-line [`Program`]
//! when it has to be replayed, simplified or printed.
//!
//! Variables are the subject values a sequence declares, numbered in order:
//! first those of each part, in order, then those its own calls bind. Calls,
//! which a handle operand names, are numbered the same way.

use std::sync::Arc;

use xxhash_rust::xxh3::Xxh3;

use crate::sequence::{Call, Literal, Operand, Program};

/// A call sequence: `parts`, concatenated, then `calls`.
#[derive(Debug)]
pub struct Sequence {
    parts: Vec<Arc<Sequence>>,
    /// The own calls, their variables in this sequence's numbering.
    calls: Vec<Call>,
    vars: u32,
    len: u32,
    /// A hash of the whole sequence: equal sequences have equal keys.
    key: u128,
}

impl Sequence {
    /// Concatenates `parts` and appends `calls`, which refer to variables in
    /// the numbering of the result (each part's variables come first, in order).
    pub fn new(parts: Vec<Arc<Sequence>>, calls: Vec<Call>) -> Sequence {
        let declared: u32 = parts.iter().map(|p| p.vars).sum();
        let bound = calls.iter().filter(|c| c.binds.is_some()).count() as u32;
        let len = parts.iter().map(|p| p.len).sum::<u32>() + calls.len() as u32;
        let mut hasher = Xxh3::new();
        for part in &parts {
            hasher.update(&part.key.to_le_bytes());
        }
        hasher.update(&[0xff]);
        for call in &calls {
            hash_call(&mut hasher, call);
        }
        Sequence { key: hasher.digest128(), parts, calls, vars: declared + bound, len }
    }

    /// The number of subject variables it declares.
    pub fn vars(&self) -> u32 {
        self.vars
    }

    /// The number of calls in all.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Equal sequences have equal keys; different ones almost surely differ.
    pub fn key(&self) -> u128 {
        self.key
    }

    pub fn parts(&self) -> &[Arc<Sequence>] {
        &self.parts
    }

    /// The calls this sequence adds to its parts.
    pub fn own_calls(&self) -> &[Call] {
        &self.calls
    }

    /// The straight-line program: every call, variables renumbered.
    pub fn flatten(&self) -> Program {
        let mut calls = Vec::with_capacity(self.len());
        self.flatten_into(&mut calls, 0);
        Program { calls, result: None }
    }

    fn flatten_into(&self, out: &mut Vec<Call>, offset: u32) {
        // Calls are numbered from the sequence's first, as variables are.
        let first_call = out.len() as u32;
        let mut next = offset;
        for part in &self.parts {
            part.flatten_into(out, next);
            next += part.vars;
        }
        out.extend(self.calls.iter().map(|call| call.renumbered(|v| v + offset, |c| c + first_call)));
    }
}

fn hash_call(hasher: &mut Xxh3, call: &Call) {
    hasher.update(&call.op.to_le_bytes());
    for operand in &call.operands {
        match operand {
            Operand::Var(v) => {
                hasher.update(&[0]);
                hasher.update(&v.to_le_bytes());
            }
            Operand::Literal(Literal::Int(i)) => {
                hasher.update(&[1]);
                hasher.update(&i.to_le_bytes());
            }
            Operand::Literal(Literal::Bool(b)) => hasher.update(&[2, u8::from(*b)]),
            Operand::Literal(Literal::Char(c)) => {
                hasher.update(&[3]);
                hasher.update(&u32::from(*c).to_le_bytes());
            }
            Operand::Literal(Literal::Str(s)) => {
                hasher.update(&[4]);
                hasher.update(&(s.len() as u64).to_le_bytes());
                hasher.update(s.as_bytes());
            }
            Operand::Literal(Literal::OptionInt(None)) => hasher.update(&[7]),
            Operand::Literal(Literal::OptionInt(Some(i))) => {
                hasher.update(&[8]);
                hasher.update(&i.to_le_bytes());
            }
            Operand::Literal(Literal::IntList(values)) => {
                hasher.update(&[9]);
                hasher.update(&(values.len() as u64).to_le_bytes());
                for v in values.iter() {
                    hasher.update(&v.to_le_bytes());
                }
            }
            Operand::Returned(c) => {
                hasher.update(&[11]);
                hasher.update(&c.to_le_bytes());
            }
            // A structure's Rust block names it exactly.
            Operand::Literal(Literal::Other(value)) => {
                hasher.update(&[10]);
                hasher.update(&(value.rust.len() as u64).to_le_bytes());
                hasher.update(value.rust.as_bytes());
            }
        }
    }
    match call.binds {
        Some(v) => {
            hasher.update(&[5]);
            hasher.update(&v.to_le_bytes());
        }
        None => hasher.update(&[6]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(op: u16, operands: Vec<Operand>, binds: Option<u32>) -> Call {
        Call { op, operands, binds }
    }

    #[test]
    fn concatenation_renumbers_variables_and_shares_parts() {
        let a = Arc::new(Sequence::new(vec![], vec![call(0, vec![], Some(0))]));
        let b = Arc::new(Sequence::new(
            vec![],
            vec![call(0, vec![], Some(0)), call(1, vec![Operand::Var(0), Operand::Literal(Literal::Int(3))], None)],
        ));
        // a's variable is 0, b's is 1; the new call binds 2.
        let c =
            Sequence::new(vec![a.clone(), b.clone()], vec![call(2, vec![Operand::Var(1), Operand::Var(0)], Some(2))]);
        assert_eq!((c.vars(), c.len()), (3, 4));
        let flat = c.flatten();
        let binds: Vec<_> = flat.calls.iter().map(|c| c.binds).collect();
        assert_eq!(binds, [Some(0), Some(1), None, Some(2)]);
        assert_eq!(flat.calls[2].operands[0], Operand::Var(1));
        assert_eq!(Arc::strong_count(&a), 2);
        // Same parts and calls: same key; order matters.
        let again =
            Sequence::new(vec![a.clone(), b.clone()], vec![call(2, vec![Operand::Var(1), Operand::Var(0)], Some(2))]);
        let swapped = Sequence::new(vec![b, a], vec![call(2, vec![Operand::Var(1), Operand::Var(0)], Some(2))]);
        assert_eq!(c.key(), again.key());
        assert_ne!(c.key(), swapped.key());
    }
}
