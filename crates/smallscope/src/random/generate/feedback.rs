//! What running a new sequence tells (thesis §5.2): a failure to file, a
//! value equal to a known one, a new state worth extending, a regression
//! test to sample.

use super::{failure_event, stage, Component, Generator, Group, OrdKey, Sampled, MEET_EQUAL_MAX_CALLS};
use crate::api::ReturnKind;
use crate::events::{During, Event, Note};
use crate::heap::{shallow_clone_note, Heap};
use crate::random::execute::{Broken, CallResult, Handles, SequenceBuffers, Shared, Values, KILLS_TO_SWITCH_OFF};
use crate::random::sequence::Sequence;
use crate::random::IndexPruning;
use crate::runner::{run_captured, UserCode};
use crate::sequence::{Call, Program};
use rand::RngExt;
use std::cmp::Reverse;
use std::sync::Arc;

impl<'a, T: Heap> Generator<'a, T> {
    /// Runs the new calls of `seq` and files the result.
    pub(super) fn execute(&mut self, parts: &[usize], seq: Arc<Sequence>) {
        let mut buffers = std::mem::take(&mut self.sequence_buffers);
        self.execute_with(parts, seq, &mut buffers);
        buffers.clear();
        self.sequence_buffers = buffers;
    }

    /// [`Generator::execute`], in `buffers`.
    fn execute_with(&mut self, parts: &[usize], seq: Arc<Sequence>, buffers: &mut SequenceBuffers) {
        self.exec.locate(stage::GENERATE, self.counts.explored);
        let edges_before = crate::edges::covered();
        let mut values: Values<T>;
        let SequenceBuffers { touched, all_touched, returned_ints, prints } = buffers;
        let mut observes = false;
        let new_calls = seq.own_calls();
        let replayed;
        let mut handles: Handles;
        let calls: &[Call] = if self.exec.clone.get().is_some() {
            // The fast path: start from the parts' stored final values.
            (values, handles) = self.part_values(parts);
            new_calls
        } else {
            // Without `Clone`, a stored value cannot be shared: replay everything.
            values = Vec::new();
            handles = Vec::new();
            replayed = seq.flatten();
            &replayed.calls
        };
        let first_new = calls.len() - new_calls.len();
        // The index of a call in the flattened sequence.
        let skipped = seq.len() - calls.len();
        for (index, call) in calls.iter().enumerate() {
            if let Some(killed) = self.exec.killed_at(skipped + index, true) {
                self.step_past(killed, &seq, skipped + index);
                return;
            }
            let result = self.exec.call(&mut values, &mut handles, call, skipped + index, false, touched);
            if let Some(first) = self.exec.killed_at(skipped + index, false) {
                // It returned this time: confirmed it is not.
                self.counts.failing += 1;
                let mut program = seq.flatten();
                program.calls.truncate(skipped + index + 1);
                self.file_program(Broken::flaky(first, &self.exec.contract_names()), program);
            }
            match result {
                CallResult::Ok { int, .. } => {
                    if index >= first_new {
                        all_touched.extend_from_slice(touched);
                        if let Some(checked) = &self.exec.checked {
                            prints.extend_from_slice(&checked.borrow().last);
                        }
                        returned_ints.extend(int);
                        observes |= self.exec.ops[usize::from(call.op)].returns == ReturnKind::Value;
                    }
                }
                CallResult::Illegal => {
                    self.counts.misuses += 1;
                    return;
                }
                CallResult::Failed(failure) => {
                    self.counts.failing += 1;
                    self.file_failure(failure, seq);
                    return;
                }
                CallResult::ShallowClone => {
                    self.emit(Event::Note(Note { text: shallow_clone_note::<T>() }));
                    // Cloning is off now: the same sequence again, replayed.
                    return self.execute(parts, seq);
                }
            }
        }
        for &v in returned_ints.iter() {
            if v.abs() <= self.config.large_int_limit && self.int_seen.insert(v) {
                self.ints.push(v);
                self.added.ints.push(v);
            }
        }
        if observes {
            self.sample_regression(&seq);
        }
        all_touched.sort_unstable();
        all_touched.dedup();
        let storable = seq.len() <= self.config.max_length;
        // A sequence that took a new edge of the crate is worth extending
        // even when its values were seen: the code went somewhere new.
        let new_edge = self.config.edge_feedback && crate::edges::covered() > edges_before;
        let mut largest = 0;
        let reusable: Vec<u32> = all_touched
            .iter()
            .copied()
            .filter(|&v| values.get(v as usize).is_some_and(|x| x.is_some()))
            .filter(|&v| {
                let print = prints.iter().rev().find(|p| p.var == v);
                let print = print.expect("a memoized executor fingerprints what it touches");
                let new = self.is_new(&values, v, print.print, storable);
                if new {
                    largest = largest.max(u64::from(print.objects));
                }
                new || new_edge
            })
            .collect();
        if !reusable.is_empty() && storable {
            self.counts.largest_structure = self.counts.largest_structure.max(largest);
            if seq.len() <= MEET_EQUAL_MAX_CALLS {
                for &v in &reusable {
                    let value = values[v as usize].clone().expect("live");
                    self.meet_equal(value, &seq);
                }
            }
            if self.exec.clone.get().is_none() {
                values.clear();
                handles.clear();
            }
            let parts: Vec<u32> = parts.iter().map(|&c| c as u32).collect();
            let handle_calls = self.handle_calls(&parts, &seq);
            self.store(Component { seq, parts, values, handles, reusable, handle_calls });
        }
    }

    /// Reports the input at call `index` of `seq`, which killed or hung an
    /// earlier attempt, without running it; what it broke is not trusted again.
    pub(super) fn step_past(&mut self, killed: &crate::runner::Killed, seq: &Sequence, index: usize) {
        self.counts.failing += 1;
        let broken = Broken::killed(killed, &self.exec.contract_names());
        match (killed.during, killed.print) {
            (During::Clone, _) => {
                self.exec.clone.set(None);
                let text = format!(
                    "`Clone` failed ({}): from here on every sequence is replayed from scratch",
                    killed.kind.name()
                );
                self.emit(Event::Note(Note { text }));
            }
            (During::Check, print) => {
                if let Some(print) = print {
                    self.exec.poisoned.borrow_mut().push((print.0, broken.clone()));
                }
                if let Some(contract) = self.exec.switched_off_by(killed) {
                    let text = format!(
                        "contract `{contract}` killed the worker on {KILLS_TO_SWITCH_OFF} values ({}): it is not \
                         checked again in this run",
                        killed.kind.name()
                    );
                    self.emit(Event::Note(Note { text }));
                }
            }
            _ => {}
        }
        if killed.quarantines {
            let repeats = crate::runner::Killed::repeats_text(self.exec.killed, killed);
            let text = format!(
                "`{}` quarantined after {repeats}: later sequences do not call it, so it is untested past this \
                 point",
                self.exec.ops[usize::from(killed.op)].name,
            );
            self.emit(Event::Note(Note { text }));
        }
        let mut program = seq.flatten();
        program.calls.truncate(index + 1);
        self.file_program(broken, program);
        // Past it now: should the next input kill the worker too, the
        // restart starts here, with this finding, not from the last commit.
        self.commit();
    }

    /// Pairs a new value with an equal one made by another sequence, if
    /// there is one, and checks the pair contracts on the two: a new heap
    /// that is `==` to an old one is where `Hash`, `Ord` and `==` itself can
    /// disagree. Equal values are found through `Ord`, which must agree with
    /// `==` (a contract of its own), not through `Hash`, which is under test.
    pub(super) fn meet_equal(&mut self, value: Shared<T>, seq: &Arc<Sequence>) {
        let Some((old_value, old_seq)) = self.index_equal(value.clone(), seq) else { return };
        if self.exec.pair_holds(&old_value, &value, 0) {
            return;
        }
        // Both sequences, one after the other: the replay finds the broken pair.
        let both = Sequence::new(vec![old_seq, seq.clone()], Vec::new());
        let mut program = both.flatten();
        self.exec.locate(stage::MEET, self.counts.explored);
        if let Some((index, CallResult::Failed(failure))) = self.exec.replay(&program, false).stopped {
            program.calls.truncate(index + 1);
            self.counts.failing += 1;
            self.file_program(failure, program);
        }
    }

    /// Adds `value` to the index of values by `Ord`, unless an equal one is
    /// there: then that one is returned, with the sequence that made it.
    pub(super) fn index_equal(&mut self, value: Shared<T>, seq: &Arc<Sequence>) -> Option<(Shared<T>, Arc<Sequence>)> {
        let index = self.equal_index.as_mut()?;
        let key = OrdKey { value, cmp: index.cmp, seq: seq.clone() };
        // A panicking `cmp` is the ord contracts' business; here it only ends the matching.
        let met = run_captured(UserCode::new(During::Check, 0), || match index.keys.get(&key) {
            Some(old) => Some((old.value.clone(), old.seq.clone())),
            None => {
                index.keys.insert(key);
                None
            }
        });
        match met {
            Ok(met) => met,
            Err(_) => {
                self.equal_index = None;
                None
            }
        }
    }

    /// Index pruning (§7.4): whether the value of `var` was not seen before.
    /// `print` is the fingerprint of its canonical form. A value is
    /// remembered only if its sequence is `storable` (kept for reuse).
    pub(super) fn is_new(&mut self, values: &Values<T>, var: u32, print: u128, storable: bool) -> bool {
        let value = values[var as usize].as_ref().expect("live");
        let equality = match (self.traits.hash, self.traits.partial_eq) {
            (Some(hash), Some(eq)) if self.config.index_pruning == IndexPruning::Equality => Some((hash, eq)),
            _ => None,
        };
        match (self.config.index_pruning, equality) {
            (IndexPruning::Off, _) => true,
            (_, Some((hash, eq))) => {
                // A panicking `hash` or `==` is the contracts' business: reuse the value.
                let seen_equal = &mut self.seen_equal;
                let new = run_captured(UserCode::new(During::Check, 0), || {
                    let bucket = seen_equal.entry(hash(value)).or_default();
                    if bucket.iter().any(|seen| eq(seen, value)) {
                        false
                    } else {
                        if storable {
                            bucket.push(value.clone());
                        }
                        true
                    }
                })
                .unwrap_or(true);
                if new && storable {
                    self.added.seen_equal.push((self.components.len() as u32, var));
                }
                new
            }
            _ => {
                let new = self.seen_heaps.insert(print);
                if new {
                    self.added.seen_heaps.push(print);
                }
                new
            }
        }
    }

    /// Files a failure under its group. The fast path checks contracts only
    /// after the new calls, so a replay from scratch says which call failed
    /// first: that is the failure a generated test reproduces.
    pub(super) fn file_failure(&mut self, failure: Broken, seq: Arc<Sequence>) {
        let mut program = seq.flatten();
        self.exec.locate(stage::REFILE, self.counts.explored);
        let failure = match self.exec.replay(&program, false).stopped {
            Some((index, CallResult::Failed(replayed))) => {
                program.calls.truncate(index + 1);
                replayed
            }
            _ => failure,
        };
        self.file_program(failure, program);
    }

    pub(in crate::random) fn file_program(&mut self, failure: Broken, program: Program) {
        let key = failure.group_key();
        match self.group_of.get(&key) {
            Some(&g) => {
                let group = &mut self.groups[g];
                group.count += 1;
                if program.calls.len() < group.smallest.calls.len() {
                    group.smallest = program;
                    group.failure = failure;
                }
            }
            None => {
                let group = self.groups.len();
                self.group_of.insert(key, group);
                let first_at = self.counts.explored;
                let event = failure_event(group as u32, &failure, &program, 1, &self.infos, self.replay(first_at));
                let first_calls = program.calls.len();
                self.groups.push(Group { count: 1, first_calls, first_at, smallest: program, failure });
                self.emit(Event::Failure(event));
                self.new_group = true;
            }
        }
    }

    /// Weighted reservoir sampling (Efraimidis and Spirakis' A-Res) over
    /// legal sequences that observe a value, favouring short ones (weight
    /// 1/length): a short test is easier to read, and more of its calls
    /// act on small values, where a change in behaviour shows.
    pub(super) fn sample_regression(&mut self, seq: &Arc<Sequence>) {
        let k = self.config.regression_tests;
        if k == 0 {
            return;
        }
        let weight = 1.0 / seq.len() as f64;
        let u: f64 = self.sample_rng.random_range(f64::MIN_POSITIVE..1.0);
        let sampled = Sampled { key: u.ln() / weight, serial: self.counts.explored, seq: seq.clone() };
        if self.regression_pool.len() < k {
            self.regression_pool.push(Reverse(sampled));
        } else if self.regression_pool.peek().is_some_and(|Reverse(least)| sampled > *least) {
            self.regression_pool.pop();
            self.regression_pool.push(Reverse(sampled));
        }
    }

    /// The sampled sequences, in the order they were made.
    pub fn regression_sample(&self) -> Vec<Arc<Sequence>> {
        let mut sample: Vec<&Sampled> = self.regression_pool.iter().map(|Reverse(s)| s).collect();
        sample.sort_by_key(|s| s.serial);
        sample.into_iter().map(|s| s.seq.clone()).collect()
    }
}
