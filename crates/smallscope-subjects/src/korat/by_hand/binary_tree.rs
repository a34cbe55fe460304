//! `BinaryTree` (see [`crate::korat::binary_tree`]) by hand.
//!
//! Slots: 0 `root`, 1 `size`, then node `i`'s `left` at `2 + 2i` and
//! `right` at `3 + 2i`; `size` has one value, `n`.

use super::{search as korat, tree_of, Candidate, Counts, Slot, MAX_SCOPE};

/// `binary_tree::rep_ok` on the flat candidate, in its read order.
#[inline(never)]
fn rep_ok(candidate: &mut Candidate, n: usize, queue: &mut [u32]) -> bool {
    tree_of(candidate, n, 2, queue).is_some()
}

/// Runs the search at scope `n` (at most [`MAX_SCOPE`]).
pub fn search(n: usize) -> Counts {
    assert!(n <= MAX_SCOPE, "the hand-written search goes up to {MAX_SCOPE} nodes");
    let mut queue = vec![0; n.max(1)];
    let kind = |slot| if slot == 1 { Slot::Int { last: 0 } } else { Slot::Ref };
    korat(2 + 2 * n, n as u32, kind, |candidate| rep_ok(candidate, n, &mut queue))
}
