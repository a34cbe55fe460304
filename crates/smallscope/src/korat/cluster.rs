//! Korat over a cluster (PKorat, Siddiqui and Khurshid): each process
//! searches its share of the parts and reports each whole part as a
//! [`PartRecord`]; process 0 joins the records in the order the sequential
//! search meets the parts, with Korat+'s skips carried across, so that its
//! events, and every file made from them, equal a one-process run's.
//!
//! The parts are those the threads of one process search: the split does
//! not depend on the thread or process count. A share holds every
//! `count`-th part; the parts are many (about [`PARTS`](super::search)) and
//! small, so the shares even out. Records are a part's found candidates
//! as value indices: a few bytes per field and structure.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use super::part_record::RecordIdentity;
use super::search::{Join, Kept, Part, PartOutcome, PartReport};
use super::{CandidateFailure, PartPosition, PartRecord};
use crate::events::Event;
use crate::runner::StopFlag;

/// The records stopped before a search's last part arrived: a process of
/// the cluster ended before its share was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lost;

/// Records from every process, as they arrive, kept until their search is joined.
pub struct Arrivals {
    state: Mutex<State>,
}

struct State {
    receiver: mpsc::Receiver<Event>,
    /// Chunks of searches and parts not joined yet, by search, part and chunk.
    waiting: BTreeMap<(u32, u64, u32), PartRecord>,
    /// Each part's next chunk to join.
    next_chunk: BTreeMap<(u32, u64), u32>,
    /// Reruns' failures, by search, until it is joined; and those filed
    /// (a resumed share sends them again).
    reruns: BTreeMap<u32, Vec<PartRecord>>,
    filed: BTreeSet<RecordIdentity>,
}

/// Where a search's join starts: after `parts_done` parts, with the Korat+
/// skip carried from them, and inside the next part at `position` when a
/// resumed run had told part of it.
pub struct JoinFrom<'a> {
    pub parts_done: usize,
    pub skip: Option<Vec<(u32, u32)>>,
    pub position: Option<&'a PartPosition>,
}

/// How often a join waiting for records looks at its stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

impl Arrivals {
    /// Records arriving as `Event::Part` on `receiver` (other events are passed over).
    pub fn new(receiver: mpsc::Receiver<Event>) -> Self {
        let state = State {
            receiver,
            waiting: BTreeMap::new(),
            next_chunk: BTreeMap::new(),
            reruns: BTreeMap::new(),
            filed: BTreeSet::new(),
        };
        Arrivals { state: Mutex::new(state) }
    }

    /// Joins search `search` from where `from` says, telling `report` each chunk in order and
    /// `rerun` each failure found by rerunning a killed input alone.
    /// Returns when the search's last part is told, a part halted the
    /// search, or `stop` is set; `Err(Lost)` when the records end first.
    pub fn join(
        &self,
        search: u32,
        JoinFrom { parts_done, skip, position }: JoinFrom<'_>,
        stop: &StopFlag,
        report: &mut dyn FnMut(PartReport<Kept>),
        rerun: &mut dyn FnMut(CandidateFailure),
    ) -> Result<(), Lost> {
        let mut state = self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let state = &mut *state;
        let mut join = Join::new(parts_done, skip);
        let mut parts: BTreeMap<usize, Part> = BTreeMap::new();
        let mut count = None;
        let mut halted = false;
        loop {
            for record in state.reruns.remove(&search).unwrap_or_default() {
                if state.filed.insert(record.identity()) {
                    record.failures.into_iter().for_each(&mut *rerun);
                }
            }
            let ready: Vec<(u32, u64, u32)> =
                state.waiting.range((search, 0, 0)..=(search, u64::MAX, u32::MAX)).map(|(k, _)| *k).collect();
            for key @ (_, index, chunk) in ready {
                let next = state.next_chunk.entry((search, index)).or_default();
                if chunk > *next {
                    continue; // An earlier chunk of its part is still to come.
                }
                let record = state.waiting.remove(&key).expect("a ready key");
                if chunk < *next {
                    continue; // Sent again by a resumed share.
                }
                *next += 1;
                count = Some(record.parts as usize);
                let index = index as usize;
                let told = index < join.expected()
                    || (index == parts_done
                        && position
                            .is_some_and(|p| record.position.as_ref().is_some_and(|r| r.explored <= p.explored)));
                if told || halted {
                    continue; // Told before a restart, or after the search ended.
                }
                parts.insert(index, Part::from_key(record.key.clone()));
                if let Some(next) = &record.next {
                    parts.entry(index + 1).or_insert_with(|| Part::from_key(next.clone()));
                }
                let parts_count = record.parts as usize;
                let chunk_position = record.position.clone();
                let outcome = PartOutcome::from_record(record).expect("a chunk has an outcome");
                join.push(&parts, parts_count, index, (outcome, chunk_position), &mut |told| {
                    halted |= told.outcome.as_ref().is_some_and(|o| o.halted);
                    report(told)
                });
            }
            if halted || count.is_some_and(|count| join.expected() >= count) || stop.is_set() {
                return Ok(());
            }
            match state.receiver.recv_timeout(STOP_POLL) {
                Ok(Event::Part(record)) if record.rerun() => {
                    state.reruns.entry(record.search).or_default().push(record);
                }
                Ok(Event::Part(record)) => {
                    state.waiting.insert((record.search, record.index, record.chunk), record);
                }
                Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(Lost),
            }
        }
    }
}
