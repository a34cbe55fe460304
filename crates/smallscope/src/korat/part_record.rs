//! One part of a Korat search as searched by a process of a cluster: what
//! its share run reports and process 0 joins in the sequential order. Data
//! the events carry, below the engine (it names nothing of the search).

use super::PartPosition;
use crate::events::{During, FailureKind};

/// A candidate on which user code failed: a panic in `rep_ok` or
/// `eq_class`, or an input that killed an earlier attempt.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CandidateFailure {
    pub kind: FailureKind,
    pub during: During,
    pub message: String,
    pub location: Option<String>,
    /// The candidate's value indices.
    pub values: Vec<u32>,
}

/// How a part's search ended, as the sequential search would go on.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Ending {
    /// Into the next part.
    Next,
    /// Exhausted right after a valid candidate whose `eq_class` fields it
    /// did not change: the sequential search goes into the next part only
    /// if the prefix fields it changes to get there include one (`true` per
    /// prefix field); else it skips as [`Ending::Skip`] says.
    Carry(Vec<bool>),
    /// Korat+ skips every candidate under the first `p + 1` fields of the
    /// part's prefix: the parts there are dropped.
    Skip(usize),
    /// Korat+ found no field to advance: the search is over.
    All,
    /// Asked to stop between two candidates: the part is unfinished, its
    /// last chunk already handed on.
    Stopped,
}

/// Where a part lies in the candidate space: the fields its prefix fixes,
/// in the order `rep_ok` reads them, and its first candidate's values.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PartKey {
    pub prefix: Vec<u32>,
    pub values: Vec<u32>,
}

/// A chunk of a part searched in a share run (a part hands on what it
/// found every [`CHUNK`](super::search) candidates, and at its end), or a
/// failure found by rerunning alone an input that killed the share's
/// worker in that part.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PartRecord {
    /// Which search of the run (an ascending run has one per size).
    pub search: u32,
    /// The part's number, and the search's part count.
    pub index: u64,
    pub parts: u64,
    /// The chunk's number in the part, from 0.
    pub chunk: u32,
    pub key: PartKey,
    /// The part after it, which a Korat+ carry looks at.
    pub next: Option<PartKey>,
    /// Valid candidates; their value indices, each with its canonical
    /// text, when the run records them.
    pub structures: u64,
    pub found: Vec<(Vec<u32>, Option<String>)>,
    pub explored: u64,
    /// Equivalence classes the part covered (Korat+).
    pub classes: Vec<u64>,
    pub failures: Vec<CandidateFailure>,
    /// Where the part is after this chunk; `None` for its last.
    pub position: Option<PartPosition>,
    /// How the part ended (its last chunk); `None` for a rerun's failure.
    pub ending: Option<Ending>,
    /// The search ended in this part: `rep_ok` was quarantined.
    pub halted: bool,
}

/// What tells one record from another: search, part, chunk, and for a
/// rerun's failure the candidate.
pub type RecordIdentity = (u32, u64, u32, Option<Vec<u32>>);

impl PartRecord {
    /// A failure found by rerunning alone the input that killed a share's
    /// worker in part `index` of `search`.
    pub fn rerun_failure(search: u32, index: u64, failure: CandidateFailure) -> Self {
        PartRecord {
            search,
            index,
            parts: 0,
            chunk: 0,
            key: PartKey { prefix: Vec::new(), values: Vec::new() },
            next: None,
            structures: 0,
            found: Vec::new(),
            explored: 0,
            classes: Vec::new(),
            failures: vec![failure],
            position: None,
            ending: None,
            halted: false,
        }
    }

    /// What tells a record from another: its part, and for a rerun's
    /// failure, the candidate.
    pub fn identity(&self) -> RecordIdentity {
        let rerun = self.rerun().then(|| self.failures.first().map(|f| f.values.clone()).unwrap_or_default());
        (self.search, self.index, self.chunk, rerun)
    }

    /// Whether the record is a rerun's failure, apart from any chunk.
    pub fn rerun(&self) -> bool {
        self.ending.is_none() && self.position.is_none()
    }
}
