//! Stored structures and how they come back as values to call methods
//! on: a clone of the stored value, or a replay of the calls that built it
//! when `Clone` cannot be trusted; and how values are let go.

use super::{clone_failed_note, CallSite, Found, Search, Source};
use crate::api::{Arg, HandleValue, Returned, Subject};
use crate::events::{During, Event, Input, Note};
use crate::heap::shallow_clone_note;
use crate::runner::{drop_captured, flight, run_captured, Killed, Outcome, UserCode};
use crate::sequence::{Output, StepArg};

impl<'a, T: Subject> Search<'a, T> {
    /// A value for structure `index`: a clone of the stored one, or a replay.
    /// `None` when it cannot be made (its `Clone` failed: reported).
    pub(super) fn materialize(&mut self, index: u32, call: &CallSite<'_>) -> Option<T> {
        if self.source == Source::Clone {
            if let Some(stored) = &self.objects[index as usize] {
                flight::position(self.address(1 + u64::from(index)));
                let copy = run_captured(UserCode::new(During::Clone, call.op as u16), || stored.try_clone());
                flight::position(self.address(0));
                match copy {
                    Ok(Some(copy)) => {
                        let shallow = self.clone_audit.is_shallow(stored, &copy);
                        if !shallow {
                            return Some(copy);
                        }
                        self.forget_or_drop(copy, u64::from(index));
                        self.use_replay(shallow_clone_note::<T>());
                    }
                    Ok(None) => self.source = Source::Replay,
                    Err(Outcome::Panicked(panic) | Outcome::AssumeFailed(panic)) => {
                        let found = Found::panic(During::Clone, Some(call.op), panic);
                        self.file(found, &|_| Input::Structure { index: u64::from(index) });
                        self.use_replay(clone_failed_note::<T>("panicked"));
                    }
                }
            }
        }
        self.replay(index)
    }

    /// From now on, stored structures are rebuilt by replay.
    pub(super) fn use_replay(&mut self, note: String) {
        self.source = Source::Replay;
        self.cx.out.event(Event::Note(Note { text: note }));
    }

    /// Rebuilds structure `index` by running its sequence from the start.
    pub(super) fn replay(&mut self, index: u32) -> Option<T> {
        self.replay_collecting(index, &mut Vec::new())
    }

    /// [`Self::replay`], adding to `handles` each handle the sequence's
    /// calls returned, by the structure whose call returned it: a handle a
    /// call takes is the one this run of its chain made.
    pub(super) fn replay_collecting(&mut self, index: u32, handles: &mut Vec<(u32, HandleValue)>) -> Option<T> {
        let step = self.structures[index as usize].clone();
        let mut args = Vec::with_capacity(step.args.len());
        for arg in &step.args {
            args.push(match arg {
                StepArg::Structure(s) => Arg::Subject(self.replay_collecting(*s, handles)?),
                StepArg::Literal(lit) => lit.to_arg(),
                StepArg::Handle(s) => Arg::Handle(handle_made_by(handles, *s)?),
            });
        }
        let op = &self.ops[usize::from(step.op)];
        let returned = run_captured(UserCode::call(step.op), || op.call(&mut args, false)).ok()?;
        if let (Returned::Value { handle: Some(handle), .. }, Output::Param(_)) = (&returned, step.output) {
            handles.push((index, handle.clone()));
        }
        let value = match (step.output, returned) {
            (Output::Result, Returned::Subject(value)) => Some(value),
            (Output::Param(p), _) => match std::mem::replace(&mut args[usize::from(p)], Arg::Taken) {
                Arg::Subject(value) => Some(value),
                _ => None,
            },
            _ => None,
        };
        self.discard_args(&mut args, Some(usize::from(step.op)), &|_| Input::Structure { index: u64::from(index) });
        value
    }

    /// Drops a stored structure's value, or forgets it when its `Drop` is
    /// known to kill; a panicking `Drop` is reported.
    pub(super) fn forget_or_drop(&mut self, value: T, index: u64) {
        let address = self.address(1 + index);
        flight::position(address);
        if let Some(killed) = Killed::at(self.cx.killed, address).filter(|k| k.during == During::Drop).cloned() {
            std::mem::forget(value);
            self.file(Found::killed(&killed, None), &|_| Input::Structure { index });
            return;
        }
        self.discard(value, None, &|_| Input::Structure { index });
        if let Some(first) = Killed::unconfirmed_at(self.cx.killed, address).cloned() {
            self.file(Found::flaky(&first, None), &|_| Input::Structure { index });
        }
        flight::position(self.address(0));
    }

    /// Drops a value the search does not keep, which runs the user's `Drop`;
    /// a panic in it is reported with `input` as the witness, and the
    /// operation whose call left the value, if one did.
    pub(super) fn discard(&mut self, value: T, op: Option<usize>, input: &dyn Fn(&Self) -> Input) {
        if self.leak {
            std::mem::forget(value);
            return;
        }
        if let Err(Outcome::Panicked(panic) | Outcome::AssumeFailed(panic)) =
            drop_captured(UserCode::new(During::Drop, op.unwrap_or(0) as u16), value)
        {
            self.file(Found::panic(During::Drop, op, panic), input);
        }
    }

    /// Drops the subject arguments left in `args`.
    pub(super) fn discard_args(&mut self, args: &mut Vec<Arg<T>>, op: Option<usize>, input: &dyn Fn(&Self) -> Input) {
        for arg in args.drain(..) {
            if let Arg::Subject(value) = arg {
                self.discard(value, op, input);
            }
        }
    }

    /// Drops a structure rebuilt only for its state while resuming; forgets
    /// it when its `Drop` killed an earlier attempt.
    pub(super) fn drop_restored(&mut self, value: T, index: u64) {
        let run = self.cx.run;
        let kills = self
            .cx
            .killed
            .iter()
            .any(|k| k.during == During::Drop && k.address.run == run && k.address.detail == 1 + index);
        if kills {
            std::mem::forget(value);
        } else {
            self.discard(value, None, &|_| Input::Structure { index });
        }
    }
}

/// The handle that the call which made structure `source` returned, as
/// `handles` collected them.
pub(super) fn handle_made_by(handles: &[(u32, HandleValue)], source: u32) -> Option<HandleValue> {
    handles.iter().rev().find(|(made, _)| *made == source).map(|(_, handle)| handle.clone())
}
