//! What a search reports besides structures: failures (grouped, each with
//! a witness to replay), quarantined operations, and notes on what the
//! scope cut off.

use super::{grouping_operation, Found, GroupKey, Search};
use crate::api::Subject;
use crate::events::{During, Event, Failure, FailureKind, Input, Note, Witness};
use crate::heap::OutOfScope;
use crate::runner::{run_captured, Killed, Outcome, UserCode};
use crate::sequence::StepArg;

impl<'a, T: Subject> Search<'a, T> {
    /// Whether `op` is quarantined here: it kept killing the worker on
    /// inputs before this one.
    pub(super) fn quarantined(&self, op: usize) -> bool {
        if self.cx.killed.is_empty() {
            return false;
        }
        let here = self.address(0);
        Killed::quarantined(self.cx.killed, here).any(|k| usize::from(k.op) == op)
    }

    /// Says which operations were quarantined, and what was not run.
    pub(super) fn quarantine_notes(&mut self) {
        let here = self.address(u64::MAX);
        let quarantined: Vec<Killed> = Killed::quarantined(self.cx.killed, here).cloned().collect();
        for killed in quarantined {
            let op = usize::from(killed.op);
            let skipped = self.counts.quarantined_calls.get(op).copied().unwrap_or(0);
            let repeats = Killed::repeats_text(self.cx.killed, &killed);
            let text = format!(
                "`{}` quarantined after {repeats}: its {skipped} later calls were not made, so it is untested on \
                 the structures they would have run on",
                self.ops[op].name,
            );
            self.cx.out.event(Event::Note(Note { text }));
        }
    }

    /// How `rep_ok` fails on `value`, left by a call of `op`, if it does.
    pub(super) fn rep_ok_failure(&self, value: &T, op: usize) -> Option<Found> {
        if !T::HAS_REP_OK {
            return None;
        }
        match run_captured(UserCode::new(During::RepOk, op as u16), || value.rep_ok()) {
            Ok(Some(false)) => Some(Found {
                kind: FailureKind::RepOkFalse,
                during: During::RepOk,
                op: Some(op),
                message: "rep_ok returned false".into(),
                location: None,
            }),
            Err(Outcome::Panicked(panic) | Outcome::AssumeFailed(panic)) => {
                Some(Found::panic(During::RepOk, Some(op), panic))
            }
            Ok(_) => None,
        }
    }

    /// Counts a failing input in its group; a new group is reported at once,
    /// with `input` as its witness, and committed after its execution.
    pub(super) fn file(&mut self, found: Found, input: &dyn Fn(&Self) -> Input) {
        self.file_left(found, input, None);
    }

    /// [`Self::file`], for a call that failed leaving `left` (what `rep_ok`
    /// failed on, or what a panic's unwinding left): a new group draws it
    /// beside the structure before the call.
    pub(super) fn file_left(&mut self, found: Found, input: &dyn Fn(&Self) -> Input, left: Option<&T>) {
        if self.restoring {
            return;
        }
        self.counts.failing += 1;
        let operation = found.op.map(|op| self.ops[op].name);
        let grouped_by = grouping_operation(found.kind, found.during, operation);
        if self.groups.count_in(|key| key.matches(&found, grouped_by)) {
            return;
        }
        let key = GroupKey {
            kind: found.kind,
            during: found.during,
            operation: grouped_by.map(Into::into),
            message: found.message.clone(),
            location: found.location.clone(),
        };
        let group = self.groups.open(key);
        let input = input(self);
        let picture = self.picture_before(&input);
        // What a failing call left may be half changed: a walk that trips on
        // it costs the picture, not the run.
        let picture_after = left.filter(|_| picture.is_some()).and_then(|value| {
            let draw = std::panic::AssertUnwindSafe(|| crate::emit::to_dot(value, "after the failing call"));
            std::panic::catch_unwind(draw).ok()
        });
        let witness = self.witness(input, found.during);
        self.cx.out.event(Event::Failure(Failure {
            operation: operation.map(Into::into),
            location: found.location,
            replay: self.cx.replay.clone(),
            picture,
            picture_after,
            ..Failure::new(group, found.kind, found.during, found.message, witness)
        }));
        self.commit_due = true;
    }

    /// A picture of the structure a failing `input` starts from: the
    /// receiver (or first structure argument) of a call, or the structure
    /// whose `Clone` or `Drop` failed; when the run draws pictures.
    pub(super) fn picture_before(&self, input: &Input) -> Option<String> {
        if self.config.pictures == 0 {
            return None;
        }
        let index = match input {
            Input::Structure { index } => *index as usize,
            Input::Call { args, .. } => args.iter().find_map(|a| match a {
                StepArg::Structure(index) => Some(*index as usize),
                StepArg::Literal(_) | StepArg::Handle(_) => None,
            })?,
            Input::Program(_) | Input::Candidate(_) => return None,
        };
        let value = self.objects.get(index)?.as_ref()?;
        Some(crate::emit::to_dot(value, &format!("structure {index}, before the failing call")))
    }

    /// The witness of `input`; a structure whose `Clone` or `Drop` failed
    /// is shown built, then cloned or dropped.
    pub(super) fn witness(&self, input: Input, during: During) -> Witness {
        let program = input.program(&|s| &self.structures[s as usize]);
        let mut text = program.to_text(&self.infos);
        let var = program.result.map_or("s0".to_owned(), |v| format!("s{v}"));
        match (&input, during) {
            (Input::Structure { .. }, During::Drop) => text.push_str(&format!("; drop({var})")),
            (Input::Structure { .. }, _) => text.push_str(&format!("; {var}.clone()")),
            // The value a call left, dropped.
            (Input::Call { output: Some(_), .. }, During::Drop) => text.push_str(&format!("; drop({var})")),
            _ => {}
        }
        Witness { text, calls: program.len(), input }
    }

    /// Tells, once per field, the bound on a collection field first met.
    pub(super) fn note_collections(&mut self) {
        let met = self.lin.collection_fields().iter().chain(self.key_lin.iter().flat_map(|l| l.collection_fields()));
        let new: Vec<_> = met.filter(|c| !self.noted_collections.contains(&c.name())).copied().collect();
        for field in new {
            let name = field.name();
            if self.noted_collections.contains(&name) {
                continue;
            }
            let limit = self.config.collection_limit();
            let what = if field.string { "characters" } else { "elements" };
            let why = match self.config.collection_length {
                None => "the scope; --collection-length N to change",
                Some(_) => "--collection-length",
            };
            if !self.restoring {
                let text = format!("field `{name}` holds at most {limit} {what} ({why})");
                self.cx.out.event(Event::Note(Note { text }));
            }
            self.noted_collections.push(name);
        }
    }

    /// Counts a call dropped because a collection passed its bound.
    pub(super) fn count_cut(&mut self, out: OutOfScope) {
        let Some(field) = out.field else { return };
        match self.cut.iter_mut().find(|(class, f, _)| *class == out.class && *f == field) {
            Some((_, _, calls)) => *calls += 1,
            None => self.cut.push((out.class, field, 1)),
        }
    }

    /// The calls each collection bound dropped, earlier attempts' included.
    pub(super) fn cuts(&self) -> Vec<(String, u64)> {
        let mut cuts = self.cut_before.clone();
        for (class, field, calls) in &self.cut {
            let name = format!("{class}.{field}");
            match cuts.iter_mut().find(|(n, _)| *n == name) {
                Some((_, before)) => *before += calls,
                None => cuts.push((name, *calls)),
            }
        }
        cuts
    }

    /// What the collection bounds cut, when they cut something.
    pub(super) fn cut_note(&self) -> Option<String> {
        let cuts = self.cuts();
        if cuts.is_empty() {
            return None;
        }
        let limit = self.config.collection_limit();
        let each: Vec<String> = cuts.iter().map(|(name, calls)| format!("`{name}` ({calls})")).collect();
        Some(format!(
            "calls dropped because a collection passed {limit} elements, by field: {}; \
             a larger --collection-length keeps them",
            each.join(", ")
        ))
    }
}
