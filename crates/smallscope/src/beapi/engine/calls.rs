//! One execution: the arguments a call gets (structures, literals,
//! handles), its run in user code, and what it leaves: kept, checked or
//! dropped.

use super::values::handle_made_by;
use super::{clone_failed_note, CallSite, Found, Keys, Search, COMMIT_EVERY};
use crate::api::{Arg, ParamKind, Returned, Subject};
use crate::beapi::skips::merge_note;
use crate::events::{During, Event, FailureKind, Fingerprint, Input, Note, Rebuild, Stop, StructureFound};
use crate::heap::OutOfScope;
use crate::runner::memory::{self, Pressure};
use crate::runner::{flight, run_captured, Killed, Outcome, UserCode};
use crate::sequence::{Literal, Output, Step, StepArg};

impl<'a, T: Subject> Search<'a, T> {
    /// Runs `op` on every tuple of inputs that has at least one structure
    /// from `frontier`: to extend the search with what it makes, or, with
    /// `check`, to check what it makes and drop it.
    pub(super) fn extend_with(&mut self, op: usize, frontier: std::ops::Range<usize>, check: bool) {
        let params = self.ops[op].params.clone();
        let subject_slots: Vec<usize> =
            (0..params.len()).filter(|&p| matches!(params[p], ParamKind::Subject(_))).collect();
        if subject_slots.is_empty() && self.level > 1 {
            return; // Constructors are deterministic: their level-1 calls said all.
        }
        if !subject_slots.is_empty() && frontier.is_empty() {
            return;
        }
        let literal_slots: Vec<usize> = (0..params.len()).filter(|p| !subject_slots.contains(p)).collect();
        let mut literal_sizes: Vec<usize> = literal_slots.iter().map(|&p| self.domains[op][p].len()).collect();
        // A handle slot's domain is the handles on the receiver's chain, per receiver.
        let handle_kinds: Vec<Option<u8>> = (literal_slots.iter())
            .map(|&p| match params[p] {
                ParamKind::Handle { kind, .. } => Some(kind),
                _ => None,
            })
            .collect();
        let takes_handles = handle_kinds.iter().any(Option::is_some);
        if literal_sizes.iter().zip(&handle_kinds).any(|(&size, kind)| size == 0 && kind.is_none()) {
            return; // An empty domain: the operation cannot be called.
        }
        let mut available: Vec<Vec<u32>> = vec![Vec::new(); literal_slots.len()];
        let mut structures = vec![0u32; subject_slots.len()];
        // Tuples with at least one frontier component: pick the first such position.
        let first_positions = if subject_slots.is_empty() { 0..1 } else { 0..subject_slots.len() };
        for first in first_positions {
            let ranges: Vec<std::ops::Range<usize>> = (0..subject_slots.len())
                .map(|k| match k.cmp(&first) {
                    std::cmp::Ordering::Less => 0..frontier.start,
                    std::cmp::Ordering::Equal => frontier.clone(),
                    std::cmp::Ordering::Greater => 0..frontier.end,
                })
                .collect();
            if ranges.iter().any(|r| r.is_empty()) {
                continue;
            }
            let mut structure_odometer = Odometer::from_ranges(&ranges);
            loop {
                for (slot, value) in structures.iter_mut().zip(structure_odometer.current()) {
                    *slot = *value as u32;
                }
                if takes_handles {
                    for (k, kind) in handle_kinds.iter().enumerate() {
                        if let (Some(kind), Some(&receiver)) = (kind, structures.first()) {
                            available[k] = self.handles_of(receiver, *kind);
                            literal_sizes[k] = available[k].len();
                        }
                    }
                }
                // No handle of a kind the call takes: no call on these structures.
                let mut literal_odometer = Odometer::from_sizes(&literal_sizes);
                while !literal_sizes.contains(&0) {
                    match check {
                        false => self.counts.explored += 1,
                        true => self.counts.checked += 1,
                    }
                    if self.ordinal() > self.done {
                        let call = CallSite {
                            op,
                            subject_slots: &subject_slots,
                            structures: &structures,
                            literal_slots: &literal_slots,
                            literal_choice: literal_odometer.current(),
                            handles: if takes_handles { &available } else { &[] },
                            check,
                            level: self.level + u32::from(check),
                        };
                        match self.quarantined(op) {
                            true => bump(&mut self.counts.quarantined_calls, op),
                            false => {
                                self.count_call(op);
                                self.execute(&call);
                            }
                        }
                        if self.stop.is_some() {
                            return;
                        }
                        if self.ordinal() % COMMIT_EVERY == 0 {
                            self.check_limits();
                            if self.stop.is_some() {
                                return;
                            }
                            self.commit();
                        } else if self.commit_due {
                            self.commit();
                        }
                    }
                    if !literal_odometer.advance() {
                        break;
                    }
                }
                if !structure_odometer.advance() {
                    break;
                }
            }
        }
    }

    /// The structures on `index`'s chain (itself, its parent, and so on)
    /// whose last call returned a handle of `kind`, oldest first: the
    /// handles a call on `index` can take.
    pub(super) fn handles_of(&self, index: u32, kind: u8) -> Vec<u32> {
        let mut found = Vec::new();
        let mut at = Some(index);
        while let Some(structure) = at {
            let step = &self.structures[structure as usize];
            // A returned handle goes with the structures in the call's slots.
            if self.ops[usize::from(step.op)].returns_handle == Some(kind) && matches!(step.output, Output::Param(_)) {
                found.push(structure);
            }
            at = step.parent();
        }
        found.reverse();
        found
    }

    pub(super) fn execute(&mut self, call: &CallSite<'_>) {
        flight::position(self.address(0));
        let before = memory::kept_by_user_code();
        self.execute_here(call);
        match memory::pressure(before) {
            Pressure::Fine => {}
            Pressure::Stop => self.stop = Some(Stop::MemoryLimit),
            Pressure::Culprit { kept } => {
                let found = Found {
                    kind: FailureKind::OutOfMemory,
                    during: During::Call,
                    op: Some(call.op),
                    message: memory::culprit_message(kept),
                    location: None,
                };
                self.file(found, &|s| s.call_input(call, None));
                self.stop = Some(Stop::MemoryLimit);
            }
        }
    }

    pub(super) fn execute_here(&mut self, call: &CallSite<'_>) {
        let killed = self.killed_here();
        if let Some(killed) = killed.as_ref().filter(|k| k.confirmed) {
            if killed.during == During::Drop {
                // The execution runs, but nothing it leaves is dropped.
                self.leak = true;
                self.run_execution(call);
                self.leak = false;
                self.file(Found::killed(killed, Some(call.op)), &|s| s.call_input(call, None));
            } else if killed.during == During::Clone {
                let index = killed.address.detail.saturating_sub(1);
                self.file(Found::killed(killed, Some(call.op)), &|_| Input::Structure { index });
                self.use_replay(clone_failed_note::<T>(killed.kind.name()));
                self.run_execution(call);
            } else {
                self.file(Found::killed(killed, Some(call.op)), &|s| s.call_input(call, None));
            }
            return;
        }
        self.run_execution(call);
        if let Some(first) = killed {
            // Unconfirmed, and it returned this time: confirmed it is not.
            self.file(Found::flaky(&first, Some(call.op)), &|s| s.call_input(call, None));
        }
    }

    /// The killed input at the current execution, if there is one:
    /// confirmed (to step past) or not (to run again).
    pub(super) fn killed_here(&self) -> Option<Killed> {
        if self.cx.killed.is_empty() {
            return None;
        }
        let here = self.address(0);
        self.cx
            .killed
            .iter()
            .find(|k| {
                k.address.run == here.run && k.address.input == here.input && k.during != During::Drop
                    || k.address == here
            })
            .cloned()
    }

    /// Gives up a call whose arguments could not all be made: says why,
    /// drops the arguments made so far, and keeps the buffer.
    pub(super) fn skip_call(&mut self, call: &CallSite<'_>, mut args: Vec<Arg<T>>, text: String) {
        self.cx.out.event(Event::Note(Note { text }));
        self.discard_args(&mut args, Some(call.op), &|s| s.call_input(call, None));
        self.args = args;
    }

    pub(super) fn run_execution(&mut self, call: &CallSite<'_>) {
        let op = call.op;
        // Buffers are reused across executions: this is the hot path.
        let mut args = std::mem::take(&mut self.args);
        args.clear();
        let arity = self.ops[op].params.len();
        let mut subject_k = 0;
        let mut literal_k = 0;
        // A call that takes handles gets its receiver replayed, with the
        // handles its chain returned: a handle may point into its structure.
        let mut handles = Vec::new();
        for slot in 0..arity {
            if call.subject_slots.get(subject_k) == Some(&slot) {
                let index = call.structures[subject_k];
                subject_k += 1;
                let value = match subject_k == 1 && !call.handles.is_empty() {
                    true => self.replay_collecting(index, &mut handles),
                    false => self.materialize(index, call),
                };
                let Some(value) = value else {
                    return self.skip_call(call, args, format!("structure {index} could not be rebuilt; skipped"));
                };
                args.push(Arg::Subject(value));
            } else {
                let arg = match self.chosen(call, literal_k) {
                    Chosen::Literal(literal) => Some(literal.to_arg()),
                    Chosen::Handle(source) => handle_made_by(&handles, source).map(Arg::Handle),
                };
                let Some(arg) = arg else {
                    let text = format!("a handle of structure {} was not returned again; skipped", call.structures[0]);
                    return self.skip_call(call, args, text);
                };
                args.push(arg);
                literal_k += 1;
            }
        }
        let operation = &self.ops[op];
        let returned = match run_captured(UserCode::call(op as u16), || operation.call(&mut args, false)) {
            Ok(Returned::Misuse(_)) | Err(Outcome::AssumeFailed(_)) => {
                self.count_misuse(op);
                self.finish_call(call, args, None);
                return;
            }
            Ok(returned) if call.check => {
                self.check_outputs(call, args, returned);
                return;
            }
            Ok(returned) => returned,
            Err(Outcome::Panicked(panic)) => {
                if self.misuse.iter().any(|re| re.is_match(&panic.message)) {
                    self.count_misuse(op);
                } else {
                    // What unwinding left of the receiver (or first structure argument).
                    let left = args.iter().find_map(|arg| match arg {
                        Arg::Subject(value) => Some(value),
                        _ => None,
                    });
                    self.file_left(Found::panic(During::Call, Some(op), panic), &|s| s.call_input(call, None), left);
                }
                self.finish_call(call, args, None);
                return;
            }
        };
        // Every structure the call leaves behind, in slot order, then the result.
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let results = args.iter().filter_map(|arg| match arg {
            Arg::Subject(value) => Some(value),
            _ => None,
        });
        let result = match &returned {
            Returned::Subject(value) => Some(value),
            _ => None,
        };
        let mut in_scope = true;
        for value in results.chain(result) {
            match self.keys_of(value) {
                Ok(key) => keys.push(key),
                Err(out) => {
                    self.count_cut(out);
                    in_scope = false;
                    break;
                }
            }
        }
        if !in_scope {
            self.counts.out_of_scope += 1;
            self.keys = keys;
            self.finish_call(call, args, Some(returned));
            return;
        }
        let mut keys_iter = keys.drain(..);
        // The states this call reached, when the state graph is recorded.
        let mut outputs = self.recording.as_mut().map(|r| std::mem::take(&mut r.outputs));
        let mut reached = |state: Option<u32>| {
            if let (Some(outputs), Some(state)) = (&mut outputs, state) {
                outputs.push(state);
            }
        };
        for (slot, arg) in args.drain(..).enumerate() {
            if let Arg::Subject(value) = arg {
                let key = keys_iter.next().expect("one key per output");
                reached(self.consider(call, Output::Param(slot as u8), value, key));
            }
        }
        if let Returned::Subject(value) = returned {
            let key = keys_iter.next().expect("one key per output");
            reached(self.consider(call, Output::Result, value, key));
        }
        drop(keys_iter);
        if let (Some(recording), Some(mut outputs)) = (&mut self.recording, outputs) {
            recording.graph.add_call(op, call.structures, &outputs);
            outputs.clear();
            recording.outputs = outputs;
        }
        self.args = args;
        self.keys = keys;
    }

    /// The keys of `value`, or how it passes the scope.
    pub(super) fn keys_of(&mut self, value: &T) -> Result<Keys, OutOfScope> {
        let form = self.lin.linearize(value).map(|tokens| self.states.key(tokens));
        let keys = match (form, &mut self.key_lin) {
            (Err(out), _) => Err(out),
            (Ok(form), None) => Ok(Keys { state: form, form: None }),
            (Ok(form), Some(key_lin)) => {
                key_lin.linearize(value).map(|tokens| Keys { state: self.states.key(tokens), form: Some(form) })
            }
        };
        let met = self.lin.collection_fields().len() + self.key_lin.as_ref().map_or(0, |l| l.collection_fields().len());
        if met > self.collections_met {
            self.collections_met = met;
            self.note_collections();
        }
        keys
    }

    /// Checks what a checked call left: every structure it touched or
    /// returned must still satisfy `rep_ok`; then it is dropped.
    pub(super) fn check_outputs(&mut self, call: &CallSite<'_>, mut args: Vec<Arg<T>>, returned: Returned<T>) {
        for (slot, arg) in args.drain(..).enumerate() {
            if let Arg::Subject(value) = arg {
                self.check_output(call, Output::Param(slot as u8), value);
            }
        }
        self.args = args;
        if let Returned::Subject(value) = returned {
            self.check_output(call, Output::Result, value);
        }
    }

    /// Checks one structure a checked call left, then drops it.
    pub(super) fn check_output(&mut self, call: &CallSite<'_>, output: Output, value: T) {
        if let Some(found) = self.rep_ok_failure(&value, call.op) {
            self.file_left(found, &|s| s.call_input(call, Some(output)), Some(&value));
        }
        self.discard(value, Some(call.op), &|s| s.call_input(call, Some(output)));
    }

    /// Drops what a call left that is not kept, and returns the buffer.
    pub(super) fn finish_call(&mut self, call: &CallSite<'_>, mut args: Vec<Arg<T>>, returned: Option<Returned<T>>) {
        self.discard_args(&mut args, Some(call.op), &|s| s.call_input(call, None));
        if let Some(Returned::Subject(value)) = returned {
            self.discard(value, Some(call.op), &|s| s.call_input(call, None));
        }
        self.args = args;
    }

    /// Stores `value` if it is new (or state matching is off) and passes `rep_ok`.
    /// Returns the number of the state it is, unless it failed `rep_ok`.
    pub(super) fn consider(&mut self, call: &CallSite<'_>, output: Output, value: T, keys: Keys) -> Option<u32> {
        let Keys { state: key, form } = keys;
        // A state is visited only once it passed `rep_ok`: a broken value must
        // not hide a valid one with the same canonical form (hidden fields),
        // and each sequence that makes a broken value is counted.
        let new = !self.states.contains(&key);
        if new || self.check_every_output {
            if let Some(found) = self.rep_ok_failure(&value, call.op) {
                self.file_left(found, &|s| s.call_input(call, Some(output)), Some(&value));
                self.discard(value, Some(call.op), &|s| s.call_input(call, Some(output)));
                return None;
            }
        }
        if !new && self.config.state_matching {
            self.audit_merge(key.fingerprint(), &value, call.op);
            let known = self.recording.as_ref().and_then(|r| r.index_of.get(&key.fingerprint()).copied());
            self.discard(value, Some(call.op), &|s| s.call_input(call, Some(output)));
            return known;
        }
        // Only for what is kept: with exact storage it is one more hash.
        let print = key.fingerprint();
        let states = self.structures.len();
        if let Some(skips) = self.skips.as_mut().filter(|s| !s.done(states)) {
            skips.keep(print, &value, call.op as u16);
        }
        if new {
            self.states.insert(key);
        }
        // A state whose canonical form was kept before is extended, not counted.
        let variant = form.is_some_and(|form| !self.forms.insert(form));
        let canonical = if self.config.record_canonical { self.lin.text(&value).ok() } else { None };
        let step = Step { op: call.op as u16, args: self.step_args(call), output };
        let index = self.structures.len() as u64;
        let drawn = !variant && self.counts.structures < u64::from(self.config.pictures);
        let picture = drawn.then(|| crate::emit::to_dot(&value, &format!("structure {index}")));
        let graph = (self.config.graphs && !variant).then(|| self.lin.graph(&value).ok()).flatten();
        self.cx.out.event(Event::Structure(StructureFound {
            index,
            level: Some(self.level),
            fingerprint: Some(Fingerprint(print)),
            canonical,
            rebuild: Rebuild::Step(step.clone()),
            variant,
            picture,
            graph,
        }));
        if let Some(recording) = &mut self.recording {
            // Every state, variants too: a variant has its twin's pairs.
            let pairs = self.lin.graph(&value).map(|graph| recording.numbers.of(&graph)).unwrap_or_default();
            recording.graph.add_state(pairs);
            recording.index_of.insert(print, index as u32);
        }
        self.structures.push(step);
        self.objects.push(Some(value));
        self.counts.structures += u64::from(!variant);
        Some(index as u32)
    }

    /// Notes the skipped fields in which `value`, a state the search knows
    /// (by key `print`), differs from the one it kept.
    pub(super) fn audit_merge(&mut self, print: u128, value: &T, op: usize) {
        let states = self.structures.len();
        let Some(skips) = self.skips.as_mut().filter(|s| !s.done(states)) else { return };
        for field in skips.merged(print, value, op as u16) {
            let text = merge_note(&field, self.ops[op].name);
            self.cx.out.event(Event::Note(Note { text }));
        }
    }

    /// The recorded arguments of a call.
    pub(super) fn step_args(&self, call: &CallSite<'_>) -> Vec<StepArg> {
        let arity = self.ops[call.op].params.len();
        let mut out = Vec::with_capacity(arity);
        let (mut subject_k, mut literal_k) = (0, 0);
        for slot in 0..arity {
            if call.subject_slots.get(subject_k) == Some(&slot) {
                out.push(StepArg::Structure(call.structures[subject_k]));
                subject_k += 1;
            } else {
                out.push(match self.chosen(call, literal_k) {
                    Chosen::Literal(literal) => StepArg::Literal(literal.clone()),
                    Chosen::Handle(source) => StepArg::Handle(source),
                });
                literal_k += 1;
            }
        }
        out
    }

    /// What `call` passes in its `k`th slot that is not a structure's.
    pub(super) fn chosen<'c>(&'c self, call: &'c CallSite<'_>, k: usize) -> Chosen<'c> {
        let choice = call.literal_choice[k];
        match call.handles.get(k).filter(|sources| !sources.is_empty()) {
            Some(sources) => Chosen::Handle(sources[choice]),
            None => Chosen::Literal(&self.domains[call.op][call.literal_slots[k]][choice]),
        }
    }

    pub(super) fn call_input(&self, call: &CallSite<'_>, output: Option<Output>) -> Input {
        Input::Call { level: call.level, op: call.op as u16, args: self.step_args(call), output }
    }

    /// Counts one execution of `op` (past the ones an earlier attempt did).
    pub(super) fn count_call(&mut self, op: usize) {
        bump(&mut self.counts.operation_calls, op);
    }

    pub(super) fn count_misuse(&mut self, op: usize) {
        self.counts.misuses += 1;
        bump(&mut self.counts.operation_misuses, op);
    }
}

/// A value a call passes in a slot that is not a structure's.
pub(super) enum Chosen<'a> {
    Literal(&'a Literal),
    /// The handle the last call of this structure returned.
    Handle(u32),
}

/// Adds one to `counts[index]`, growing it as needed.
pub(super) fn bump(counts: &mut Vec<u64>, index: usize) {
    if counts.len() <= index {
        counts.resize(index + 1, 0);
    }
    counts[index] += 1;
}

/// Counts through every combination of positions, last position fastest.
pub(super) struct Odometer {
    starts: Vec<usize>,
    ends: Vec<usize>,
    current: Vec<usize>,
}

impl Odometer {
    fn from_ranges(ranges: &[std::ops::Range<usize>]) -> Self {
        Odometer {
            starts: ranges.iter().map(|r| r.start).collect(),
            ends: ranges.iter().map(|r| r.end).collect(),
            current: ranges.iter().map(|r| r.start).collect(),
        }
    }

    fn from_sizes(sizes: &[usize]) -> Self {
        let ranges: Vec<_> = sizes.iter().map(|&n| 0..n).collect();
        Self::from_ranges(&ranges)
    }

    fn current(&self) -> &[usize] {
        &self.current
    }

    /// Moves to the next combination; false after the last.
    fn advance(&mut self) -> bool {
        for k in (0..self.current.len()).rev() {
            self.current[k] += 1;
            if self.current[k] < self.ends[k] {
                return true;
            }
            self.current[k] = self.starts[k];
        }
        false
    }
}
