//! `sll`: a singly linked list of `i32` with a header entry.
//!
//! Ports the Korat benchmark `SinglyLinkedList` (a header `Entry` whose
//! element is `null`, then the entries, `null`-terminated), with an API after
//! the list part of `java.util.LinkedList`: appends and inserts, removals by
//! position and by value, positional reads and writes, searches.
//!
//! Heap shape: `SinglyLinkedList { header: Box<Entry>, size }` and
//! `Entry { element: Option<i32>, next: Option<Box<Entry>> }`. The header's
//! element is `None`, every real entry's is `Some`. All links are `Box`es, so
//! the object graph is a chain by construction. The header is an `Entry`
//! object, so at scope N a list holds at most N-1 elements, and every
//! sequence over the keys is reachable with `add`: `sum_{k<N} N^k` structures.
//!
//! No planted bug.

use smallscope::Heap;

pub use crate::list::ListError;
use crate::list::{check_element_index, check_position_index};

#[derive(Heap, Clone, Debug)]
pub struct SinglyLinkedList {
    header: Box<Entry>,
    size: usize,
}

#[derive(Heap, Clone, Debug)]
struct Entry {
    element: Option<i32>,
    next: Option<Box<Entry>>,
}

impl Entry {
    fn boxed(element: i32, next: Option<Box<Entry>>) -> Box<Entry> {
        Box::new(Entry { element: Some(element), next })
    }
}

#[smallscope::api(name = "sll", rep_ok = rep_ok)]
impl SinglyLinkedList {
    /// An empty list: just the header.
    pub fn new() -> Self {
        SinglyLinkedList { header: Box::new(Entry { element: None, next: None }), size: 0 }
    }

    /// Appends `x` (Java's `add(Object)`).
    pub fn add(&mut self, x: i32) {
        let size = self.size;
        let slot = self.slot_mut(size);
        *slot = Some(Entry::boxed(x, slot.take()));
        self.size += 1;
    }

    /// Inserts `x` at the front.
    pub fn add_first(&mut self, x: i32) {
        let next = self.header.next.take();
        self.header.next = Some(Entry::boxed(x, next));
        self.size += 1;
    }

    /// Inserts `x` so that it ends up at position `index` (`0..=size`).
    pub fn add_at(&mut self, index: usize, x: i32) -> Result<(), ListError> {
        check_position_index(index, self.size)?;
        let slot = self.slot_mut(index);
        *slot = Some(Entry::boxed(x, slot.take()));
        self.size += 1;
        Ok(())
    }

    pub fn get_first(&self) -> Result<i32, ListError> {
        self.entries().next().ok_or(ListError::NoSuchElement)
    }

    pub fn get_last(&self) -> Result<i32, ListError> {
        self.entries().last().ok_or(ListError::NoSuchElement)
    }

    /// The element at `index`.
    pub fn get(&self, index: usize) -> Result<i32, ListError> {
        check_element_index(index, self.size)?;
        self.entries().nth(index).ok_or(ListError::IndexOutOfBounds { index, size: self.size })
    }

    /// Replaces the element at `index`; returns the old one.
    pub fn set(&mut self, index: usize, x: i32) -> Result<i32, ListError> {
        check_element_index(index, self.size)?;
        match self.slot_mut(index) {
            Some(entry) => entry.element.replace(x).ok_or(ListError::NoSuchElement),
            None => Err(ListError::IndexOutOfBounds { index, size: self.size }),
        }
    }

    pub fn remove_first(&mut self) -> Result<i32, ListError> {
        if self.size == 0 {
            return Err(ListError::NoSuchElement);
        }
        self.remove_at(0)
    }

    pub fn remove_last(&mut self) -> Result<i32, ListError> {
        if self.size == 0 {
            return Err(ListError::NoSuchElement);
        }
        self.remove_at(self.size - 1)
    }

    /// Removes the first occurrence of `x`; false if there is none.
    pub fn remove(&mut self, x: i32) -> bool {
        match self.index_of(x) {
            Some(index) => self.remove_at(index).is_ok(),
            None => false,
        }
    }

    /// Removes and returns the element at `index`.
    pub fn remove_at(&mut self, index: usize) -> Result<i32, ListError> {
        check_element_index(index, self.size)?;
        let slot = self.slot_mut(index);
        let Some(mut entry) = slot.take() else {
            return Err(ListError::IndexOutOfBounds { index, size: self.size });
        };
        *slot = entry.next.take();
        self.size -= 1;
        entry.element.ok_or(ListError::NoSuchElement)
    }

    /// Position of the first occurrence of `x` (Java's `-1` is `None`).
    pub fn index_of(&self, x: i32) -> Option<usize> {
        self.entries().position(|e| e == x)
    }

    pub fn contains(&self, x: i32) -> bool {
        self.index_of(x).is_some()
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    pub fn clear(&mut self) {
        drop_chain(self.header.next.take());
        self.size = 0;
    }

    /// Korat's `repOk`: the header carries no element, every entry does, and
    /// `size` is the number of entries. Acyclicity is given by `Box`.
    pub fn rep_ok(&self) -> bool {
        if self.header.element.is_some() {
            return false;
        }
        let mut count = 0usize;
        let mut cur = self.header.next.as_deref();
        while let Some(entry) = cur {
            if entry.element.is_none() {
                return false;
            }
            count += 1;
            cur = entry.next.as_deref();
        }
        count == self.size
    }
}

impl SinglyLinkedList {
    /// The link that holds entry `index` (`header.next` for 0); stops early at
    /// the end of the chain.
    fn slot_mut(&mut self, index: usize) -> &mut Option<Box<Entry>> {
        let mut slot = &mut self.header.next;
        for _ in 0..index {
            match slot {
                Some(entry) => slot = &mut entry.next,
                None => break,
            }
        }
        slot
    }

    /// The elements, front to back.
    fn entries(&self) -> impl Iterator<Item = i32> + '_ {
        std::iter::successors(self.header.next.as_deref(), |e| e.next.as_deref()).filter_map(|e| e.element)
    }

    /// The elements as a vector, front to back.
    pub fn to_vec(&self) -> Vec<i32> {
        self.entries().collect()
    }

    /// A list with exactly these fields, valid or not, for `smallscope
    /// compare`'s conversion of Korat candidates: the header holds
    /// `header_element`, then one entry per item of `elements`, front to
    /// back, and `size` is stored as given.
    #[doc(hidden)]
    pub fn from_parts(header_element: Option<i32>, elements: Vec<Option<i32>>, size: usize) -> Self {
        let next = elements.into_iter().rev().fold(None, |next, element| Some(Box::new(Entry { element, next })));
        SinglyLinkedList { header: Box::new(Entry { element: header_element, next }), size }
    }
}

impl Default for SinglyLinkedList {
    fn default() -> Self {
        Self::new()
    }
}

// Two lists are equal when they hold the same elements in the same order
// (their [`to_vec`](SinglyLinkedList::to_vec)s are equal); `size` and the
// entries' addresses play no part.
compare_by_content!([] SinglyLinkedList, to_vec);

/// Drops a chain iteratively, so long lists cannot overflow the stack.
fn drop_chain(mut link: Option<Box<Entry>>) {
    while let Some(mut entry) = link {
        link = entry.next.take();
    }
}

impl Drop for SinglyLinkedList {
    fn drop(&mut self) {
        drop_chain(self.header.next.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, ListModel, XorShift};

    #[test]
    fn differential_against_model() {
        for seed in 1..=4u64 {
            let mut rng = XorShift(0x9E37_79B9_7F4A_7C15 ^ seed);
            let mut list = SinglyLinkedList::new();
            let mut model = ListModel::default();
            for _ in 0..3000 {
                let x = rng.below(8) as i32;
                let i = rng.below(10) as usize;
                match rng.below(16) {
                    0 | 1 => {
                        list.add(x);
                        model.add_last(x);
                    }
                    2 => {
                        list.add_first(x);
                        model.add_first(x);
                    }
                    3 => assert_eq!(list.add_at(i, x), model.add_at(i, x)),
                    4 => assert_eq!(list.get_first(), model.get_first()),
                    5 => assert_eq!(list.get_last(), model.get_last()),
                    6 => assert_eq!(list.get(i), model.get(i)),
                    7 => assert_eq!(list.set(i, x), model.set(i, x)),
                    8 => assert_eq!(list.remove_first(), model.remove_first()),
                    9 => assert_eq!(list.remove_last(), model.remove_last()),
                    10 => assert_eq!(list.remove(x), model.remove(x)),
                    11 => assert_eq!(list.remove_at(i), model.remove_at(i)),
                    12 => assert_eq!(list.index_of(x), model.index_of(x)),
                    13 => assert_eq!(list.contains(x), model.contains(x)),
                    14 => {
                        assert_eq!(list.size(), model.len());
                        assert_eq!(list.is_empty(), model.is_empty());
                    }
                    _ => {
                        if rng.below(8) == 0 {
                            list.clear();
                            model.clear();
                        } else {
                            // A clone is deep: changing it leaves the original alone.
                            let mut copy = list.clone();
                            copy.add(x);
                            assert!(copy.rep_ok());
                        }
                    }
                }
                assert!(list.rep_ok());
                assert_eq!(list.to_vec(), model.to_vec());
            }
        }
    }

    fn sample() -> SinglyLinkedList {
        let mut list = SinglyLinkedList::new();
        for x in [3, 1, 2] {
            list.add(x);
        }
        assert!(list.rep_ok());
        list
    }

    #[test]
    fn rep_ok_rejects_wrong_size() {
        assert_rejects_miscount(&sample(), |list| &mut list.size);
    }

    #[test]
    fn rep_ok_rejects_header_element() {
        assert_rejects(sample(), |list| list.header.element = Some(0));
    }

    #[test]
    fn rep_ok_rejects_missing_element() {
        assert_rejects(sample(), |list| list.header.next.as_mut().unwrap().next.as_mut().unwrap().element = None);
    }

    #[test]
    fn misuse_is_an_error() {
        let mut list = SinglyLinkedList::new();
        assert_eq!(list.remove_first(), Err(ListError::NoSuchElement));
        assert_eq!(list.remove_last(), Err(ListError::NoSuchElement));
        assert_eq!(list.get(0), Err(ListError::IndexOutOfBounds { index: 0, size: 0 }));
        assert_eq!(list.add_at(1, 5), Err(ListError::IndexOutOfBounds { index: 1, size: 0 }));
        assert!(!list.remove(3));
        assert!(list.rep_ok());
    }

    #[test]
    fn long_list_drops_without_recursion() {
        let mut list = SinglyLinkedList::new();
        for i in 0..200_000 {
            list.add_first(i);
        }
        assert_eq!(list.size(), 200_000);
    }
}
