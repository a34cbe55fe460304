//! Korat's `DisjSet` benchmark: a union-find forest stored in an array of
//! `Record`s (`parent` index and `rank`), with ranks growing towards the
//! roots and no more roots than rank-0 elements that no child counts on.
//!
//! Stock finitization `fin(n)`: n records (the array's elements, never null);
//! the array's length is in 0..n; `size` in 0..n; `parent` and `rank` in
//! 0..n-1.
//!
//! Read order, as the original's: `elements.length`, `size`; the elements
//! pairwise (0 with 1, .., 0 with size-1, 1 with 2, ..) to check they are
//! distinct; then for each index its `parent`, and for a non-root the
//! parent's `rank` and its own; then the `rank` of each element no child
//! marked.

use smallscope::korat::{Array, Korat, Ref};

#[derive(Korat)]
pub struct DisjSet {
    #[korat(length = 0..=n)]
    elements: Array<Ref<Record>>,
    #[korat(ints = 0..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct Record {
    #[korat(ints = 0..n)]
    parent: i64,
    #[korat(ints = 0..n)]
    rank: i64,
}

/// `size` distinct records whose parents are in range, each non-root's rank
/// below its parent's, and at most as many roots as rank-0 elements that no
/// child of rank one less marked.
pub fn rep_ok(set: DisjSetView<'_>) -> bool {
    let elements = set.elements();
    if elements.len() as i64 != set.size() {
        return false;
    }
    let size = elements.len();
    for i in 0..size {
        for j in i + 1..size {
            if elements.get(i) == elements.get(j) {
                return false;
            }
        }
    }
    let mut roots = 0;
    // Parents some child has a rank exactly one below.
    let mut marked = vec![false; size];
    for i in 0..size {
        let parent = elements.get(i).parent();
        if parent < 0 || parent >= size as i64 {
            return false;
        }
        let parent = parent as usize;
        if parent == i {
            roots += 1;
            continue;
        }
        let parent_rank = elements.get(parent).rank();
        let rank = elements.get(i).rank();
        if parent_rank <= rank {
            return false;
        }
        if rank == parent_rank - 1 {
            marked[parent] = true;
        }
    }
    let unmarked_rank_zero = (0..size).filter(|&i| !marked[i] && elements.get(i).rank() == 0).count();
    roots <= unmarked_rank_zero
}

smallscope::korat_subject!("disj-set", DisjSet, rep_ok = rep_ok);
