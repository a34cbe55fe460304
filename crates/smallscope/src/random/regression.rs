//! Regression oracles (thesis §7.7): legal sequences, and what their calls
//! returned, kept as tests that fail when that behaviour changes.

use regex::Regex;

use super::execute::Executor;
use super::generate::{stage, Generator};
use super::{simplify, RegressionTest};
use crate::api::{Access, Operation, ParamKind, ReturnKind};
use crate::sequence::{Call, Operand, Program};

/// The observers: `&self` and no other parameter, returning a value, infallible.
fn observers<T>(ops: &[Operation<T>]) -> Vec<u16> {
    ops.iter()
        .enumerate()
        .filter(|(_, op)| {
            op.params == [ParamKind::Subject(Access::Ref)] && op.returns == ReturnKind::Value && !op.fallible
        })
        .map(|(i, _)| i as u16)
        .collect()
}

/// Appends a call of every observer on every value alive at the end, so
/// that a test also pins down the final state, as Randoop's observer
/// checks do.
fn observe_final_state<T>(program: &mut Program, ops: &[Operation<T>], observers: &[u16]) {
    let mut alive: Vec<u32> = program.calls.iter().filter_map(|c| c.binds).collect();
    for call in &program.calls {
        for (operand, kind) in call.operands.iter().zip(&ops[usize::from(call.op)].params) {
            if let (Operand::Var(v), ParamKind::Subject(Access::Owned)) = (operand, kind) {
                alive.retain(|a| a != v);
            }
        }
    }
    for var in alive {
        for &op in observers {
            program.calls.push(Call { op, operands: vec![Operand::Var(var)], binds: None });
        }
    }
}

/// How many times a regression test is executed before its values are
/// trusted. The thesis executes twice; more runs are needed because a
/// small `HashSet` renders in the same order in two runs once in a few
/// (each set gets new hash keys, but few orders are possible).
const EXECUTIONS: usize = 10;

/// The sampled legal sequences, executed [`EXECUTIONS`] times: a rendering
/// that differs between runs, or that shows an address, is not kept as an oracle.
pub(super) fn regression_tests<T: crate::heap::Heap>(
    generator: &Generator<'_, T>,
    exec: &Executor<'_, T>,
    flips: &[Program],
) -> Vec<RegressionTest> {
    let (ops, infos) = (exec.ops, &generator.infos);
    let address = Regex::new(r"0x[0-9a-fA-F]{4,}").expect("valid regex");
    // A quarantined observer kept killing the worker: the tests leave it out.
    let observers: Vec<u16> =
        observers(ops).into_iter().filter(|&op| !exec.quarantined(op, stage::REGRESSION, u64::MAX)).collect();
    let mut out = Vec::new();
    // Every sampled sequence is distinct: the generator runs none twice.
    // The branch phase's flips come after: each took a side no other did.
    let sampled = generator.regression_sample().into_iter().map(|seq| seq.flatten());
    for program in sampled.chain(flips.iter().cloned()) {
        let mut program = simplify::renumber(program);
        let generated = program.calls.len();
        observe_final_state(&mut program, ops, &observers);
        exec.locate_next(stage::REGRESSION);
        let first = exec.replay(&program, true);
        if first.stopped.is_some() {
            continue; // not deterministic enough to be a test
        }
        let mut observations: Vec<Option<String>> = first
            .rendered
            .into_iter()
            .map(|r| r.filter(|text| !address.is_match(text) && !crate::api::is_cut(text)))
            .collect();
        for _ in 1..EXECUTIONS {
            exec.locate_next(stage::REGRESSION);
            let again = exec.replay(&program, true);
            if again.stopped.is_some() {
                observations.clear();
                break;
            }
            for (kept, seen) in observations.iter_mut().zip(again.rendered) {
                if *kept != seen {
                    *kept = None;
                }
            }
        }
        if observations.iter().all(Option::is_none) {
            continue;
        }
        let final_observers = program.calls.len() - generated;
        out.push(RegressionTest { sequence: program.to_text(infos), observations, final_observers, program });
    }
    out
}
