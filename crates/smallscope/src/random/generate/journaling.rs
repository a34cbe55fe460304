//! What a commit writes to the journal, and how a restarted run reads it
//! back: components rebuilt by replaying their sequences.

use super::{stage, Component, Generator, Group, Sampled, MEET_EQUAL_MAX_CALLS};
use crate::events::During;
use crate::heap::Heap;
use crate::random::execute::{CallResult, Handles, Values};
use crate::random::journal::{Delta, GroupState, Prints, SampledState, StoredComponent};
use crate::random::sequence::Sequence;
use crate::runner::{run_captured, UserCode};
use std::cmp::Reverse;
use std::sync::Arc;

impl<'a, T: Heap> Generator<'a, T> {
    /// What changed since the last commit.
    pub(super) fn take_delta(&mut self) -> Delta {
        let mut delta = std::mem::take(&mut self.added);
        delta.edges = crate::edges::take_new();
        delta.counts = self.counts.clone();
        delta.rng = Some(self.rng.clone());
        delta.sample_rng = Some(self.sample_rng.clone());
        delta.attempts_without_new = self.attempts_without_new;
        delta.clone_off = self.exec.clone.get().is_none();
        delta.equal_index_off = self.equal_index.is_none();
        delta.components = self.components[self.committed_components..]
            .iter()
            .map(|c| StoredComponent {
                parts: c.parts.clone(),
                calls: c.seq.own_calls().to_vec(),
                reusable: c.reusable.clone(),
            })
            .collect();
        self.committed_components = self.components.len();
        if let Some(checked) = &self.exec.checked {
            delta.passed = Prints::from(std::mem::take(&mut checked.borrow_mut().new_passed));
        }
        delta.groups = self
            .groups
            .iter()
            .map(|g| GroupState {
                count: g.count,
                smallest: g.smallest.clone(),
                first_calls: g.first_calls,
                first_at: g.first_at,
                broken: g.failure.clone(),
            })
            .collect();
        delta.sample = self
            .regression_pool
            .iter()
            .map(|Reverse(s)| SampledState { key: s.key, serial: s.serial, program: s.seq.flatten() })
            .collect();
        delta
    }

    /// Restores the state a journal describes, then rebuilds the stored
    /// values by running each stored sequence's own calls again.
    pub fn restore(&mut self, journal: &[u8]) -> Result<(), String> {
        let mut rest = journal;
        let mut components: Vec<StoredComponent> = Vec::new();
        let mut seen_equal: Vec<(u32, u32)> = Vec::new();
        while !rest.is_empty() {
            let (delta, tail): (Delta, &[u8]) =
                postcard::take_from_bytes(rest).map_err(|e| format!("reading the journal: {e}"))?;
            rest = tail;
            self.counts = delta.counts;
            if let Some(rng) = delta.rng {
                self.rng = rng;
            }
            if let Some(rng) = delta.sample_rng {
                self.sample_rng = rng;
            }
            self.attempts_without_new = delta.attempts_without_new;
            if delta.clone_off {
                self.exec.clone.set(None);
            }
            if delta.equal_index_off {
                self.equal_index = None;
            }
            crate::edges::mark(&delta.edges);
            self.made.extend(delta.made.iter());
            self.seen_heaps.extend(delta.seen_heaps.iter());
            if let Some(checked) = &self.exec.checked {
                checked.borrow_mut().passed.extend(delta.passed.iter());
            }
            for v in delta.ints {
                if self.int_seen.insert(v) {
                    self.ints.push(v);
                }
            }
            components.extend(delta.components);
            seen_equal.extend(delta.seen_equal);
            self.groups = delta
                .groups
                .into_iter()
                .map(|g| Group {
                    count: g.count,
                    smallest: g.smallest,
                    first_calls: g.first_calls,
                    first_at: g.first_at,
                    failure: g.broken,
                })
                .collect();
            self.regression_pool = delta
                .sample
                .into_iter()
                .map(|s| {
                    Reverse(Sampled {
                        key: s.key,
                        serial: s.serial,
                        seq: Arc::new(Sequence::new(Vec::new(), s.program.calls)),
                    })
                })
                .collect();
        }
        self.group_of = self.groups.iter().enumerate().map(|(i, g)| (g.failure.group_key(), i)).collect();
        for (index, stored) in components.into_iter().enumerate() {
            let parts: Vec<Arc<Sequence>> =
                stored.parts.iter().map(|&p| self.components[p as usize].seq.clone()).collect();
            let seq = Arc::new(Sequence::new(parts, stored.calls));
            let (values, handles) = self.rebuild_values(index, &stored.parts, &seq)?;
            // Values are kept only while `Clone` is trusted; without them
            // there is nothing to index (as when the run made them).
            if seq.len() <= MEET_EQUAL_MAX_CALLS {
                for &v in &stored.reusable {
                    if let Some(Some(value)) = values.get(v as usize) {
                        self.index_equal(value.clone(), &seq);
                    }
                }
            }
            let handle_calls = self.handle_calls(&stored.parts, &seq);
            let (parts, reusable) = (stored.parts, stored.reusable);
            self.store(Component { seq, parts, values, handles, reusable, handle_calls });
        }
        self.committed_components = self.components.len();
        for (component, var) in seen_equal {
            let value = self.components[component as usize].values.get(var as usize).cloned().flatten();
            if let (Some(value), Some(hash)) = (value, self.traits.hash) {
                let _ = run_captured(UserCode::new(During::Check, 0), || {
                    self.seen_equal.entry(hash(&value)).or_default().push(value.clone())
                });
            }
        }
        self.added = Delta::default();
        // Gains up to the journal's end were emitted by the run that made it.
        self.edges_seen = crate::edges::covered();
        Ok(())
    }

    /// The final values of stored component `index`, made again from its
    /// parts' values (empty when values are not kept: no usable `Clone`).
    pub(super) fn rebuild_values(
        &mut self,
        index: usize,
        parts: &[u32],
        seq: &Sequence,
    ) -> Result<(Values<T>, Handles), String> {
        if self.exec.clone.get().is_none() {
            return Ok((Vec::new(), Vec::new()));
        }
        let parts: Vec<usize> = parts.iter().map(|&p| p as usize).collect();
        let (mut values, mut handles) = self.part_values(&parts);
        self.exec.locate(stage::REBUILD, index as u64);
        let mut touched = Vec::new();
        let skipped = seq.len() - seq.own_calls().len();
        for (i, call) in seq.own_calls().iter().enumerate() {
            match self.exec.call(&mut values, &mut handles, call, skipped + i, false, &mut touched) {
                CallResult::Ok { .. } => {}
                // As in the run before: from here on, values are replayed.
                CallResult::ShallowClone => return Ok((Vec::new(), Vec::new())),
                _ => {
                    return Err(format!(
                        "resuming: stored sequence {index} did not run as before: is the code deterministic?"
                    ))
                }
            }
        }
        Ok((values, handles))
    }

    /// The final values of `parts`, in order, and the handles their calls
    /// returned, numbered as in the sequence they start (none, and no
    /// memory, for an API without handles).
    pub(super) fn part_values(&self, parts: &[usize]) -> (Values<T>, Handles) {
        let mut values = Vec::new();
        let mut handles = Vec::new();
        for &part in parts {
            let component = &self.components[part];
            values.extend(component.values.iter().cloned());
            if !self.handle_components.is_empty() {
                let first = handles.len();
                handles.extend(component.handles.iter().cloned());
                handles.resize(first + component.seq.len(), None);
            }
        }
        (values, handles)
    }

    /// The calls of `seq`, made of `parts` and its own calls, that return a
    /// handle (every call of a stored sequence returned normally), by index
    /// in the flattened sequence, with the handle's kind.
    pub(super) fn handle_calls(&self, parts: &[u32], seq: &Sequence) -> Vec<(u32, u8)> {
        let mut calls = Vec::new();
        let mut first = 0;
        for &part in parts {
            let component = &self.components[part as usize];
            calls.extend(component.handle_calls.iter().map(|&(c, kind)| (first + c, kind)));
            first += component.seq.len() as u32;
        }
        let own = seq.own_calls().iter().enumerate();
        calls.extend(
            own.filter_map(|(i, call)| Some((first + i as u32, self.exec.ops[usize::from(call.op)].returns_handle?))),
        );
        calls
    }
}
