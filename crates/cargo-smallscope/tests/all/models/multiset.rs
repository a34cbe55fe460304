//! `everyday::multiset::SortedMultiset` (`sorted-multiset`): one walked
//! field, `items: Vec<u8>`, kept sorted, so the visible state is the sorted
//! list itself and two states are one exactly when they hold the same
//! multiset. In bounds: at most `scope` items (the `Vec` is a collection).
//!
//! Operations that change the state: `insert(x)` and `remove_one(x)` (a
//! `false` return is not misuse: the state stays as it was). Everything
//! else observes.
//!
//! Planted bug: `remove_one` uses `swap_remove` at the first copy of `x`.
//! The multiset it leaves is always right; the order is wrong exactly when
//! the moved last element is not in place, which `rep_ok` reports.

use super::{ints, search as bfs, Search};

type State = Vec<u8>;

fn insert(items: &State, x: u8) -> State {
    let mut items = items.clone();
    let at = items.iter().take_while(|&&y| y <= x).count();
    items.insert(at, x);
    items
}

fn remove_one(items: &State, x: u8) -> State {
    let mut items = items.clone();
    if let Some(at) = items.iter().position(|&y| y == x) {
        items.remove(at);
    }
    items
}

/// What the buggy `remove_one(x)` leaves.
fn remove_one_buggy(items: &State, x: u8) -> State {
    let mut items = items.clone();
    if let Some(at) = items.iter().position(|&y| y == x) {
        items.swap_remove(at);
    }
    items
}

fn sorted(items: &State) -> bool {
    items.windows(2).all(|pair| pair[0] <= pair[1])
}

pub fn search(scope: usize) -> Search {
    let ints = ints(scope);
    bfs(
        State::new(),
        |items| ints.iter().flat_map(|&x| [insert(items, x), remove_one(items, x)]).collect(),
        |items| items.len() <= scope,
        |items| {
            ints.iter().any(|&x| {
                let left = remove_one_buggy(items, x);
                // A bug that only ever shows as a wrong order: when the order
                // is right, the state is the correct one.
                assert!(!sorted(&left) || left == remove_one(items, x));
                !sorted(&left)
            })
        },
    )
}

pub fn structures(scope: usize) -> usize {
    search(scope).states
}

pub fn shortest_bug(scope: usize) -> usize {
    search(scope).shortest_bug.expect("the bug shows within the scope")
}
