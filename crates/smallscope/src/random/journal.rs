//! The random engine's journal: what it needs to carry on from a commit
//! that the events do not hold (its random streams, the sequences it made,
//! the values it stores), as a postcard record per commit.
//!
//! Records hold what was added since the commit before (append-only state)
//! and, whole, the little that changes in place. Stored values are not
//! written: a resumed run makes them again by running each stored
//! sequence's own calls on its parts' values, as the first run did.

use rand_xorshift::XorShiftRng;

use super::execute::Broken;
use crate::events::Counts;
use crate::sequence::{Call, Program};

/// 128-bit fingerprints, packed as little-endian bytes.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(super) struct Prints(Vec<u8>);

impl Prints {
    pub fn push(&mut self, print: u128) {
        self.0.extend_from_slice(&print.to_le_bytes());
    }

    pub fn iter(&self) -> impl Iterator<Item = u128> + '_ {
        self.0.chunks_exact(16).map(|c| u128::from_le_bytes(c.try_into().expect("16 bytes")))
    }
}

impl From<Vec<u128>> for Prints {
    fn from(prints: Vec<u128>) -> Self {
        let mut out = Prints(Vec::with_capacity(prints.len() * 16));
        prints.into_iter().for_each(|p| out.push(p));
        out
    }
}

/// A stored sequence: the components it starts with, its own calls, and
/// which of its variables may be reused.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(super) struct StoredComponent {
    pub parts: Vec<u32>,
    pub calls: Vec<Call>,
    pub reusable: Vec<u32>,
}

/// A failure group's state.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct GroupState {
    pub count: u64,
    pub smallest: Program,
    pub first_calls: usize,
    /// Journals of earlier versions lack it: 0, no replay prefix.
    #[serde(default)]
    pub first_at: u64,
    pub broken: Broken,
}

/// A sequence in the regression sample.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct SampledState {
    pub key: f64,
    pub serial: u64,
    pub program: Program,
}

/// One commit's record.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(super) struct Delta {
    // Whole.
    pub counts: Counts,
    pub rng: Option<XorShiftRng>,
    pub sample_rng: Option<XorShiftRng>,
    pub attempts_without_new: u32,
    pub clone_off: bool,
    pub equal_index_off: bool,
    pub groups: Vec<GroupState>,
    pub sample: Vec<SampledState>,
    // Added since the commit before.
    /// Keys of the sequences made.
    pub made: Prints,
    /// Fingerprints of values seen (heap index pruning).
    pub seen_heaps: Prints,
    /// Fingerprints of values that passed the one-value checks.
    pub passed: Prints,
    /// Integers calls returned, kept for reuse.
    pub ints: Vec<i64>,
    pub components: Vec<StoredComponent>,
    /// Values that entered the equality index: (component, variable).
    pub seen_equal: Vec<(u32, u32)>,
    /// The crate's edges first taken, by number (with coverage).
    pub edges: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_concatenate_and_read_back_one_by_one() {
        let mut first = Delta { counts: Counts { explored: 7, ..Counts::default() }, ..Delta::default() };
        first.made.push(u128::MAX);
        first.made.push(3);
        let second = Delta { ints: vec![-4, 9], ..Delta::default() };
        let mut journal = postcard::to_stdvec(&first).unwrap();
        journal.extend(postcard::to_stdvec(&second).unwrap());
        let (a, rest): (Delta, &[u8]) = postcard::take_from_bytes(&journal).unwrap();
        let (b, rest): (Delta, &[u8]) = postcard::take_from_bytes(rest).unwrap();
        assert!(rest.is_empty());
        assert_eq!(a.counts.explored, 7);
        assert_eq!(a.made.iter().collect::<Vec<_>>(), [u128::MAX, 3]);
        assert_eq!(b.ints, [-4, 9]);
    }
}
