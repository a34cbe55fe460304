//! `everyday::slot_list::SlotList` (`slot-list`): a doubly linked list in
//! an arena. The root has `slots: Vec<Slot>` (`#[heap(arena)]`), `head` and
//! `tail` (index links), and two `#[heap(omit)]` fields, the free list
//! `free: Vec<usize>` (plain integers, not index links) and the cached
//! `len`. A `Slot` has `value: Option<u8>`, `prev` and `next` (index
//! links) and `generation` (`#[heap(skip)]`).
//!
//! What the walk shows: the slots reachable from `head` and `tail` through
//! index links, in the order it meets them. In a correct list those are
//! exactly the occupied slots, each with `Some(value)` and its neighbours
//! as `prev`/`next`, so the visible state is the sequence of values from
//! front to back: which slot numbers hold them, the free slots (unreachable,
//! and the free list is omitted) and the generations (skipped) are
//! invisible. Two lists with the same values in the same order are one
//! state. In bounds: at most `scope` reachable slots, i.e. at most `scope`
//! values. (The arena only grows when the free list is empty, so it never
//! holds more slots than the most values the list held, and neither does
//! the free list.) Every sequence of at most `scope` values is reachable
//! by `push_back`: `sum(scope^k, k = 0..=scope)` structures.
//!
//! Operations that change the state: `push_back(v)`, `push_front(v)`,
//! `pop_front()`, `pop_back()`, and `remove(index, generation)`. Which
//! element `remove` hits depends on hidden state (slot numbers,
//! generations); modelled as removing any one element, which can only
//! reach sequences `push_back` reaches anyway, so the count is exact
//! whatever `remove` really hits.
//!
//! Planted bug: `pop_front()` on a list of two or more values leaves the
//! new head's `prev` at the freed slot; `rep_ok` reports it.

use super::{ints, search as bfs, Search};

type State = Vec<u8>;

pub fn search(scope: usize) -> Search {
    let ints = ints(scope);
    bfs(
        State::new(),
        |values| {
            let mut next = Vec::new();
            for &v in &ints {
                let mut back = values.clone();
                back.push(v);
                let mut front = vec![v];
                front.extend(values);
                next.extend([back, front]);
            }
            if !values.is_empty() {
                next.push(values[1..].to_vec()); // pop_front
                next.push(values[..values.len() - 1].to_vec()); // pop_back
                for at in 0..values.len() {
                    let mut removed = values.clone();
                    removed.remove(at);
                    next.push(removed);
                }
            }
            next
        },
        |values| values.len() <= scope,
        |values| values.len() >= 2,
    )
}

pub fn structures(scope: usize) -> usize {
    search(scope).states
}

pub fn shortest_bug(scope: usize) -> usize {
    search(scope).shortest_bug.expect("the bug shows within the scope")
}
