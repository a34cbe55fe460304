//! Where a Korat run is at a commit: data the events carry, below the
//! engine (the events name it; it names nothing of the engine).

use super::settings::is_zero;

/// Where a Korat run is at a commit.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Resume {
    /// Parts reported, in order, and in all.
    pub parts_done: u64,
    pub parts: u64,
    /// A Korat+ skip carried into the next part: fields and their values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip: Option<Vec<(u32, u32)>>,
    /// Equivalence classes first covered since the commit before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<u64>,
    /// An ascending run: which of its searches the parts count in, and
    /// the structures and candidates counted before that search began (its
    /// level event counts from them).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub search: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub structures_before: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub explored_before: u64,
    /// Where part `parts_done` was, when it was unfinished: a part that
    /// runs long commits as it goes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<PartPosition>,
}

/// Where a part's search is between two candidates: enough for another
/// process to carry on from there (a resumed run, or a restarted worker).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PartPosition {
    /// The value indices of the next candidate to judge.
    pub values: Vec<u32>,
    /// The fields in the order the search advances them.
    pub stack: Vec<u32>,
    /// Candidates of the part judged before it: the part's input numbers
    /// go on from there.
    pub explored: u64,
}
