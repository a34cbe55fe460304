//! `sorted-list`: a sorted singly linked list of `i32`, duplicates allowed.
//!
//! The textbook sorted linked list of the bounded-exhaustive testing
//! literature (a sorted variant of Korat's `SinglyLinkedList`), kept in
//! non-decreasing order by `insert`, with a multiset API: removal of one or
//! all occurrences, minimum/maximum, counting, positional reads and merging.
//!
//! Heap shape: `SortedList { head: Option<Box<Node>>, size }` and
//! `Node { value, next: Option<Box<Node>> }`, no header node. All links are
//! `Box`es, so the graph is a chain by construction. At scope N with keys
//! `0..N` every non-decreasing sequence of length at most N is reachable with
//! `insert`: `C(2N, N)` structures.
//!
//! No planted bug.

use smallscope::Heap;

pub use crate::list::ListError;

#[derive(Heap, Clone, Debug)]
pub struct SortedList {
    head: Option<Box<Node>>,
    size: usize,
}

#[derive(Heap, Clone, Debug)]
struct Node {
    value: i32,
    next: Option<Box<Node>>,
}

#[smallscope::api(name = "sorted-list", rep_ok = rep_ok)]
impl SortedList {
    pub fn new() -> Self {
        SortedList { head: None, size: 0 }
    }

    /// Inserts `x` after any equal values, keeping the order.
    pub fn insert(&mut self, x: i32) {
        let slot = self.slot_after(x);
        let next = slot.take();
        *slot = Some(Box::new(Node { value: x, next }));
        self.size += 1;
    }

    /// Removes one occurrence of `x`; false if there is none.
    pub fn remove(&mut self, x: i32) -> bool {
        let slot = self.slot_before(x);
        match slot.take() {
            Some(mut node) if node.value == x => {
                *slot = node.next.take();
                self.size -= 1;
                true
            }
            other => {
                *slot = other;
                false
            }
        }
    }

    /// Removes every occurrence of `x`; returns how many there were.
    pub fn remove_all(&mut self, x: i32) -> usize {
        let slot = self.slot_before(x);
        let mut removed = 0;
        while let Some(mut node) = slot.take() {
            if node.value != x {
                *slot = Some(node);
                break;
            }
            *slot = node.next.take();
            removed += 1;
        }
        self.size -= removed;
        removed
    }

    /// Removes and returns the smallest value.
    pub fn pop_min(&mut self) -> Result<i32, ListError> {
        let mut node = self.head.take().ok_or(ListError::NoSuchElement)?;
        self.head = node.next.take();
        self.size -= 1;
        Ok(node.value)
    }

    pub fn min(&self) -> Result<i32, ListError> {
        self.values().next().ok_or(ListError::NoSuchElement)
    }

    pub fn max(&self) -> Result<i32, ListError> {
        self.values().last().ok_or(ListError::NoSuchElement)
    }

    pub fn contains(&self, x: i32) -> bool {
        // The order lets the search stop at the first larger value.
        self.values().take_while(|&v| v <= x).any(|v| v == x)
    }

    /// How many times `x` occurs.
    pub fn count(&self, x: i32) -> usize {
        self.values().take_while(|&v| v <= x).filter(|&v| v == x).count()
    }

    /// The value at position `index` in sorted order.
    pub fn get(&self, index: usize) -> Result<i32, ListError> {
        self.values().nth(index).ok_or(ListError::IndexOutOfBounds { index, size: self.size })
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    pub fn clear(&mut self) {
        drop_chain(self.head.take());
        self.size = 0;
    }

    /// Inserts a copy of every value of `other`, in one pass over both lists.
    pub fn merge(&mut self, other: &Self) {
        let mut slot = &mut self.head;
        for x in other.values() {
            // Advance past values <= x, then link x in: equal values keep
            // self's copies first, as repeated `insert`s would.
            while slot.as_ref().is_some_and(|n| n.value <= x) {
                slot = &mut slot.as_mut().expect("checked just above").next;
            }
            let next = slot.take();
            *slot = Some(Box::new(Node { value: x, next }));
            slot = &mut slot.as_mut().expect("just linked").next;
            self.size += 1;
        }
    }

    /// Values are non-decreasing and `size` is the number of nodes.
    /// Acyclicity is given by `Box`.
    pub fn rep_ok(&self) -> bool {
        let mut count = 0usize;
        let mut previous: Option<i32> = None;
        let mut cur = self.head.as_deref();
        while let Some(node) = cur {
            if previous.is_some_and(|p| p > node.value) {
                return false;
            }
            previous = Some(node.value);
            count += 1;
            cur = node.next.as_deref();
        }
        count == self.size
    }
}

impl SortedList {
    /// The first link whose node is `>= x` (or the end).
    fn slot_before(&mut self, x: i32) -> &mut Option<Box<Node>> {
        let mut slot = &mut self.head;
        while slot.as_ref().is_some_and(|n| n.value < x) {
            slot = &mut slot.as_mut().expect("checked just above").next;
        }
        slot
    }

    /// The first link whose node is `> x` (or the end).
    fn slot_after(&mut self, x: i32) -> &mut Option<Box<Node>> {
        let mut slot = &mut self.head;
        while slot.as_ref().is_some_and(|n| n.value <= x) {
            slot = &mut slot.as_mut().expect("checked just above").next;
        }
        slot
    }

    fn values(&self) -> impl Iterator<Item = i32> + '_ {
        std::iter::successors(self.head.as_deref(), |n| n.next.as_deref()).map(|n| n.value)
    }

    /// The values in order.
    pub fn to_vec(&self) -> Vec<i32> {
        self.values().collect()
    }

    /// A list with exactly these fields, sorted or not, for `smallscope
    /// compare`'s conversion of Korat candidates: one node per item of
    /// `values`, head first, and `size` stored as given.
    #[doc(hidden)]
    pub fn from_parts(values: Vec<i32>, size: usize) -> Self {
        let head = values.into_iter().rev().fold(None, |next, value| Some(Box::new(Node { value, next })));
        SortedList { head, size }
    }
}

impl Default for SortedList {
    fn default() -> Self {
        Self::new()
    }
}

// Two lists are equal when they hold the same values in the same order
// (their [`to_vec`](SortedList::to_vec)s are equal); `size` plays no part.
compare_by_content!([] SortedList, values);

/// Drops a chain iteratively, so long lists cannot overflow the stack.
fn drop_chain(mut link: Option<Box<Node>>) {
    while let Some(mut node) = link {
        link = node.next.take();
    }
}

impl Drop for SortedList {
    fn drop(&mut self) {
        drop_chain(self.head.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, ListModel, XorShift};

    /// Random operations against a model kept sorted.
    #[test]
    fn differential_against_sorted_model() {
        for seed in 1..=4u64 {
            let mut rng = XorShift(0xD1B5_4A32_D192_ED03 ^ seed);
            let mut list = SortedList::new();
            let mut model = ListModel::default();
            let mut other = SortedList::new();
            let mut other_model = ListModel::default();
            for _ in 0..3000 {
                let x = rng.below(8) as i32;
                let i = rng.below(10) as usize;
                match rng.below(14) {
                    0..=2 => {
                        list.insert(x);
                        model.insert_sorted(x);
                    }
                    3 | 4 => assert_eq!(list.remove(x), model.remove(x)),
                    5 => assert_eq!(list.remove_all(x), model.remove_all(x)),
                    6 => assert_eq!(list.pop_min(), model.remove_first()),
                    7 => {
                        assert_eq!(SortedList::min(&list), model.get_first());
                        assert_eq!(SortedList::max(&list), model.get_last());
                    }
                    8 => {
                        assert_eq!(list.contains(x), model.contains(x));
                        assert_eq!(list.count(x), model.count(x));
                    }
                    9 => assert_eq!(list.get(i), model.get(i)),
                    10 => {
                        assert_eq!(list.size(), model.len());
                        assert_eq!(list.is_empty(), model.is_empty());
                    }
                    11 => {
                        // Grow the merge partner a little.
                        other.insert(x);
                        other_model.insert_sorted(x);
                        if rng.below(4) == 0 {
                            other.clear();
                            other_model.clear();
                        }
                        assert!(other.rep_ok());
                    }
                    12 => {
                        if rng.below(4) == 0 {
                            list.merge(&other);
                            for v in other_model.to_vec() {
                                model.insert_sorted(v);
                            }
                            assert_eq!(other.to_vec(), other_model.to_vec());
                        } else {
                            // Merging with a copy of itself doubles every value.
                            let copy = list.clone();
                            let mut doubled = list.clone();
                            doubled.merge(&copy);
                            assert!(doubled.rep_ok());
                            assert_eq!(doubled.size(), 2 * model.len());
                        }
                    }
                    _ => {
                        if rng.below(6) == 0 {
                            list.clear();
                            model.clear();
                        }
                    }
                }
                assert!(list.rep_ok());
                assert_eq!(list.to_vec(), model.to_vec());
            }
        }
    }

    fn sample() -> SortedList {
        let mut list = SortedList::new();
        for x in [3, 1, 2, 2] {
            list.insert(x);
        }
        assert_eq!(list.to_vec(), [1, 2, 2, 3]);
        assert!(list.rep_ok());
        list
    }

    #[test]
    fn rep_ok_rejects_wrong_size() {
        assert_rejects_miscount(&sample(), |list| &mut list.size);
    }

    #[test]
    fn rep_ok_rejects_disorder() {
        assert_rejects(sample(), |list| {
            // 1, 2, 2, 3 -> 1, 2, 0, 3
            list.head.as_mut().unwrap().next.as_mut().unwrap().next.as_mut().unwrap().value = 0;
        });
    }

    #[test]
    fn merge_keeps_duplicates() {
        let mut a = sample();
        let b = sample();
        a.merge(&b);
        assert_eq!(a.to_vec(), [1, 1, 2, 2, 2, 2, 3, 3]);
        assert_eq!(b.to_vec(), [1, 2, 2, 3]);
        assert!(a.rep_ok() && b.rep_ok());
    }
}
