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

use super::part_record::RecordIdentity;
use super::search::{Join, Kept, Part, PartOutcome, PartReport};
use super::{CandidateFailure, PartPosition, PartRecord};
use crate::events::Event;
use crate::runner::{StopFlag, STOP_POLL};

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
        from: JoinFrom<'_>,
        stop: &StopFlag,
        report: &mut dyn FnMut(PartReport<Kept>),
        rerun: &mut dyn FnMut(CandidateFailure),
    ) -> Result<(), Lost> {
        let mut state = self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let state = &mut *state;
        let told_inside = from.position.map(|p| p.explored);
        let mut joining = Joining {
            search,
            join: Join::new(from.parts_done, from.skip),
            parts: BTreeMap::new(),
            count: None,
            halted: false,
            told: (from.parts_done, told_inside),
            report,
        };
        // What came while an earlier search was joined, each part's chunks in order.
        let early: Vec<(u32, u64, u32)> =
            state.waiting.range((search, 0, 0)..=(search, u64::MAX, u32::MAX)).map(|(k, _)| *k).collect();
        for key in early {
            if let Some(record) = state.waiting.remove(&key) {
                joining.take(record, &mut state.waiting, &mut state.next_chunk);
            }
        }
        loop {
            for record in state.reruns.remove(&search).unwrap_or_default() {
                if state.filed.insert(record.identity()) {
                    record.failures.into_iter().for_each(&mut *rerun);
                }
            }
            if joining.over() || stop.is_set() {
                return Ok(());
            }
            match state.receiver.recv_timeout(STOP_POLL) {
                Ok(Event::Part(record)) if record.rerun() => {
                    state.reruns.entry(record.search).or_default().push(record);
                }
                Ok(Event::Part(record)) if record.search == search => {
                    joining.take(record, &mut state.waiting, &mut state.next_chunk);
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

/// One search's join under way.
struct Joining<'r> {
    search: u32,
    join: Join<Kept>,
    /// The parts records named so far (a record names its part and the next).
    parts: BTreeMap<usize, Part>,
    /// The search's part count, once a record said it.
    count: Option<usize>,
    /// A part told halted the search (`rep_ok` quarantined).
    halted: bool,
    /// What a resumed run had told: the parts before the first, and the
    /// candidates of the first told inside it.
    told: (usize, Option<u64>),
    report: &'r mut dyn FnMut(PartReport<Kept>),
}

impl Joining<'_> {
    /// Whether the search is joined to its end, or ended.
    fn over(&self) -> bool {
        self.halted || self.count.is_some_and(|count| self.join.expected() >= count)
    }

    /// Takes a record of this search: joins it when it is its part's next
    /// chunk, with the chunks after it that came early; keeps it while an
    /// earlier chunk is still to come; drops one joined already (a resumed
    /// share sends its chunks again).
    fn take(
        &mut self,
        record: PartRecord,
        waiting: &mut BTreeMap<(u32, u64, u32), PartRecord>,
        next_chunk: &mut BTreeMap<(u32, u64), u32>,
    ) {
        let part = (self.search, record.index);
        let next = next_chunk.entry(part).or_default();
        if record.chunk < *next {
            return;
        }
        if record.chunk > *next {
            waiting.insert((self.search, record.index, record.chunk), record);
            return;
        }
        let mut record = Some(record);
        while let Some(chunk) = record {
            *next += 1;
            self.push(chunk);
            record = waiting.remove(&(self.search, part.1, *next));
        }
    }

    /// Tells the join a part's next chunk, unless a resumed run told it.
    fn push(&mut self, record: PartRecord) {
        self.count = Some(record.parts as usize);
        let index = record.index as usize;
        let (parts_done, explored) = self.told;
        let told = index < parts_done
            || (index == parts_done
                && explored.is_some_and(|e| record.position.as_ref().is_some_and(|r| r.explored <= e)));
        if told || self.halted {
            return;
        }
        self.parts.insert(index, Part::from_key(record.key.clone()));
        if let Some(next) = &record.next {
            self.parts.entry(index + 1).or_insert_with(|| Part::from_key(next.clone()));
        }
        let count = record.parts as usize;
        let position = record.position.clone();
        let outcome = PartOutcome::from_record(record).expect("a chunk has an outcome");
        let (halted, report) = (&mut self.halted, &mut *self.report);
        self.join.push(&self.parts, count, index, (outcome, position), &mut |told| {
            *halted |= told.outcome.as_ref().is_some_and(|o| o.halted);
            report(told)
        });
    }
}
