//! `everyday::indexed_heap::IndexedHeap` (`indexed-heap`): the walked field
//! is `entries: Vec<Entry>`, a binary min-heap by priority, with `Entry {
//! key: u8, priority: u8 }` stored by value (part of the root). The map
//! `positions: HashMap<u8, usize>` is `#[heap(omit)]` and derivable from the
//! entries, so it adds no states. The visible state is the array of
//! `(key, priority)` pairs in heap order: the same entries in another
//! layout are another state, so this model runs the same sift rules:
//!
//! - `push(key, priority)`: misuse (`Err`) if the key is there; else append
//!   and sift up while the priority is strictly less than the parent's;
//! - `pop_min()`: on a non-empty heap, move the last entry to the root,
//!   drop the old root, and sift down: the smaller child is the left one
//!   unless the right one is strictly less; swap while that child is
//!   strictly less than the node;
//! - `decrease(key, priority)`: misuse if the key is absent or the priority
//!   is above the current one; else set it and sift up.
//!
//! In bounds: at most `scope` entries (and map entries); keys are distinct
//! and drawn from `0..scope`, so nothing is ever out of bounds.
//!
//! Planted bug: the sift-down of `pop_min` tests the right child with
//! `right <= len`, so it panics when it reaches a node whose only child is
//! the last entry (`2 * i + 2 == len`); until then it is the correct
//! sift-down.

use super::{ints, search as bfs, Search};

type State = Vec<(u8, u8)>;

fn sift_up(heap: &mut State, mut i: usize) {
    while i > 0 {
        let parent = (i - 1) / 2;
        if heap[i].1 >= heap[parent].1 {
            break;
        }
        heap.swap(i, parent);
        i = parent;
    }
}

/// Sifts down from the root; tells whether the buggy sift-down would have
/// panicked on the way (it goes on as the correct one would).
fn sift_down(heap: &mut State) -> bool {
    let (len, mut i, mut fires) = (heap.len(), 0, false);
    loop {
        let (left, right) = (2 * i + 1, 2 * i + 2);
        if left >= len {
            return fires;
        }
        fires |= right == len;
        let smaller = if right < len && heap[right].1 < heap[left].1 { right } else { left };
        if heap[smaller].1 >= heap[i].1 {
            return fires;
        }
        heap.swap(i, smaller);
        i = smaller;
    }
}

/// What `pop_min` leaves, and whether the buggy one panics.
fn pop_min(heap: &State) -> Option<(State, bool)> {
    let mut heap = heap.clone();
    let last = heap.pop()?;
    let mut fires = false;
    if !heap.is_empty() {
        heap[0] = last;
        fires = sift_down(&mut heap);
    }
    Some((heap, fires))
}

pub fn search(scope: usize) -> Search {
    let ints = ints(scope);
    bfs(
        State::new(),
        |heap| {
            let mut next = Vec::new();
            for &key in &ints {
                match heap.iter().position(|&(k, _)| k == key) {
                    None => {
                        for &priority in &ints {
                            let mut pushed = heap.clone();
                            pushed.push((key, priority));
                            sift_up(&mut pushed, heap.len());
                            next.push(pushed);
                        }
                    }
                    Some(at) => {
                        for &priority in ints.iter().filter(|&&p| p <= heap[at].1) {
                            let mut decreased = heap.clone();
                            decreased[at].1 = priority;
                            sift_up(&mut decreased, at);
                            next.push(decreased);
                        }
                    }
                }
            }
            next.extend(pop_min(heap).map(|(popped, _)| popped));
            next
        },
        |heap| heap.len() <= scope,
        |heap| pop_min(heap).is_some_and(|(_, fires)| fires),
    )
}

pub fn structures(scope: usize) -> usize {
    search(scope).states
}

pub fn shortest_bug(scope: usize) -> usize {
    search(scope).shortest_bug.expect("the bug shows within the scope")
}
