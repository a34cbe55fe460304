//! `SearchTree` (see [`crate::korat::search_tree`]) by hand.
//!
//! Slots: 0 `root`, 1 `size`, then node `i`'s `left` at `2 + 3i`, `right`
//! at `3 + 3i` and `info` at `4 + 3i`; `size` has one value, `n`, and
//! `info` ranges over `0..n` (the value is the index).

use super::{search as korat, tree_of, Candidate, Counts, Slot, MAX_SCOPE};

/// `search_tree::rep_ok` on the flat candidate, in its read order: the
/// breadth-first walk of `left` and `right`, `size`, then the keys in
/// pre-order, each checked as it is read.
#[inline(never)]
fn rep_ok(candidate: &mut Candidate, n: usize, queue: &mut [u32]) -> bool {
    match tree_of(candidate, n, 3, queue) {
        None => false,
        Some(0) => true,
        Some(root) => ordered(candidate, root - 1, None, None),
    }
}

/// Keys strictly between `min` and `max` under `node` (0-based), in pre-order.
fn ordered(candidate: &mut Candidate, node: u32, min: Option<u32>, max: Option<u32>) -> bool {
    let base = 2 + 3 * node as usize;
    let info = candidate.read(base + 2);
    if min.is_some_and(|min| info <= min) || max.is_some_and(|max| info >= max) {
        return false;
    }
    // The links were read by the walk: no log entries, only their values.
    let (left, right) = (candidate.read(base), candidate.read(base + 1));
    (left == 0 || ordered(candidate, left - 1, min, Some(info)))
        && (right == 0 || ordered(candidate, right - 1, Some(info), max))
}

/// Runs the search at scope `n` (at most [`MAX_SCOPE`]).
pub fn search(n: usize) -> Counts {
    assert!(n <= MAX_SCOPE, "the hand-written search goes up to {MAX_SCOPE} nodes");
    let mut queue = vec![0; n.max(1)];
    let info_last = (n as u32).saturating_sub(1);
    let kind = |slot: usize| match slot {
        0 => Slot::Ref,
        1 => Slot::Int { last: 0 },
        _ if (slot - 2) % 3 == 2 => Slot::Int { last: info_last },
        _ => Slot::Ref,
    };
    korat(2 + 3 * n, n as u32, kind, |candidate| rep_ok(candidate, n, &mut queue))
}
