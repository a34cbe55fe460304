//! `dll`: a circular doubly linked list of `i32` with a header entry.
//!
//! Ports `java.util.LinkedList` of JDK 1.4 (the Korat `DoublyLinkedList`
//! benchmark): a header `Entry` with no element, linked in a circle with the
//! entries in both directions, so that the empty list is the header pointing
//! at itself. The API is LinkedList's: adds at both ends and by position,
//! gets and sets, removals by position and by value (first or last
//! occurrence), searches.
//!
//! Heap shape: `DoublyLinkedList { header: Rc<RefCell<Entry>>, size }` and
//! `Entry { element: Option<i32>, next: Option<Rc<..>>, previous: Option<Weak<..>> }`.
//! The `next` links are strong and close a cycle through the header; the
//! `previous` links are `Weak`. This is the subject that exercises shared
//! objects and cycles in the canonical form. `Drop` breaks the strong cycle
//! (no leak) and `Clone` is a hand-written deep copy of the object graph.
//! The header is an `Entry`, so at scope N a list holds at most N-1 elements
//! and there are `sum_{k<N} N^k` structures.
//!
//! Equality (`PartialEq`, `Eq`, `Hash`, `PartialOrd`, `Ord`) is by the
//! element sequence: two lists are equal when their `to_vec`s are.
//!
//! Planted bug (`dll-bug-remove`, `DoublyLinkedList<RemoveBug>`): `remove(x)`
//! (Java's `remove(Object)`) of the *last* entry unlinks it but forgets
//! `size -= 1`; every other removal path is correct. Afterwards `rep_ok`
//! fails (the circle is one entry shorter than `size`) and `size()` answers
//! one more than the correct list does, while `to_vec()` agrees. Shortest
//! trigger, three calls: `new() add(0) remove(0)` (then `size()` is 1, not
//! 0); with two elements `new() add(1) add(2) remove(2)`. Nothing panics
//! afterwards: the walks are bounded by the header as well as by `size`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::rc::{Rc, Weak};

use smallscope::Heap;

use crate::list::check_element_index;
pub use crate::list::ListError;

type Link = Rc<RefCell<Entry>>;

/// Selects the correct list or a planted bug.
pub trait Variant: Clone + fmt::Debug + Default + 'static {
    /// `remove(x)` of the last entry forgets `size -= 1`.
    const BUG_REMOVE: bool;
}

/// The faithful port.
#[derive(Clone, Debug, Default)]
pub struct Correct;

impl Variant for Correct {
    const BUG_REMOVE: bool = false;
}

/// `remove(Object)` of the last entry leaves `size` as it was.
#[derive(Clone, Debug, Default)]
pub struct RemoveBug;

impl Variant for RemoveBug {
    const BUG_REMOVE: bool = true;
}

#[derive(Heap)]
pub struct DoublyLinkedList<V: Variant = Correct> {
    header: Link,
    size: usize,
    #[heap(skip)]
    variant: PhantomData<V>,
}

#[derive(Heap)]
struct Entry {
    element: Option<i32>,
    next: Option<Link>,
    previous: Option<Weak<RefCell<Entry>>>,
}

/// The entry after `e`; a valid list has no null links.
fn next_of(e: &Link) -> Link {
    e.borrow().next.clone().expect("dll: next link is null")
}

/// The entry before `e`; a valid list has no null or dead back links.
fn previous_of(e: &Link) -> Link {
    e.borrow().previous.as_ref().and_then(Weak::upgrade).expect("dll: previous link is null")
}

fn element_of(e: &Link) -> Result<i32, ListError> {
    e.borrow().element.ok_or(ListError::NoSuchElement)
}

#[smallscope::api(
    rep_ok = rep_ok,
    register("dll" = DoublyLinkedList<Correct>, "dll-bug-remove" = DoublyLinkedList<RemoveBug>)
)]
impl<V: Variant> DoublyLinkedList<V> {
    /// An empty list: the header, linked to itself both ways.
    pub fn new() -> Self {
        let header = Rc::new(RefCell::new(Entry { element: None, next: None, previous: None }));
        let list = DoublyLinkedList { header, size: 0, variant: PhantomData };
        list.reset_header();
        list
    }

    /// Appends `x` (Java's `add(Object)`).
    pub fn add(&mut self, x: i32) {
        let header = self.header.clone();
        self.add_before(x, &header);
    }

    pub fn add_first(&mut self, x: i32) {
        let first = next_of(&self.header);
        self.add_before(x, &first);
    }

    pub fn add_last(&mut self, x: i32) {
        self.add(x);
    }

    /// Inserts `x` so that it ends up at position `index` (`0..=size`).
    pub fn add_at(&mut self, index: usize, x: i32) -> Result<(), ListError> {
        let before = if index == self.size { self.header.clone() } else { self.entry(index)? };
        self.add_before(x, &before);
        Ok(())
    }

    pub fn get_first(&self) -> Result<i32, ListError> {
        if self.size == 0 {
            return Err(ListError::NoSuchElement);
        }
        element_of(&next_of(&self.header))
    }

    pub fn get_last(&self) -> Result<i32, ListError> {
        if self.size == 0 {
            return Err(ListError::NoSuchElement);
        }
        element_of(&previous_of(&self.header))
    }

    pub fn get(&self, index: usize) -> Result<i32, ListError> {
        element_of(&self.entry(index)?)
    }

    /// Replaces the element at `index`; returns the old one.
    pub fn set(&mut self, index: usize, x: i32) -> Result<i32, ListError> {
        let e = self.entry(index)?;
        let old = e.borrow_mut().element.replace(x);
        old.ok_or(ListError::NoSuchElement)
    }

    pub fn remove_first(&mut self) -> Result<i32, ListError> {
        if self.size == 0 {
            return Err(ListError::NoSuchElement);
        }
        let first = next_of(&self.header);
        self.unlink(&first)
    }

    pub fn remove_last(&mut self) -> Result<i32, ListError> {
        if self.size == 0 {
            return Err(ListError::NoSuchElement);
        }
        let last = previous_of(&self.header);
        self.unlink(&last)
    }

    /// Removes the first occurrence of `x` (Java's `remove(Object)`).
    pub fn remove(&mut self, x: i32) -> bool {
        let found = self.forward().find(|e| e.borrow().element == Some(x));
        match found {
            Some(e) => {
                // The planted bug's path: the last entry, removed by value.
                let forget_size = V::BUG_REMOVE && Rc::ptr_eq(&next_of(&e), &self.header);
                self.unlink_entry(&e, forget_size).is_ok()
            }
            None => false,
        }
    }

    /// Removes and returns the element at `index`.
    pub fn remove_at(&mut self, index: usize) -> Result<i32, ListError> {
        let e = self.entry(index)?;
        self.unlink(&e)
    }

    /// Removes the last occurrence of `x`, searching backwards (JDK 6).
    pub fn remove_last_occurrence(&mut self, x: i32) -> bool {
        let found = self.backward().find(|e| e.borrow().element == Some(x));
        match found {
            Some(e) => self.unlink(&e).is_ok(),
            None => false,
        }
    }

    /// Position of the first occurrence of `x` (Java's `-1` is `None`).
    pub fn index_of(&self, x: i32) -> Option<usize> {
        self.forward().position(|e| e.borrow().element == Some(x))
    }

    /// Position of the last occurrence of `x`.
    pub fn last_index_of(&self, x: i32) -> Option<usize> {
        let from_end = self.backward().position(|e| e.borrow().element == Some(x))?;
        Some(self.size - 1 - from_end)
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

    /// Java's `clear`: the header points at itself again.
    pub fn clear(&mut self) {
        self.unlink_all();
        self.reset_header();
        self.size = 0;
    }

    /// The header has no element and every entry has one; following `next`
    /// from the header returns to it after exactly `size` entries; each
    /// entry's `previous` is the entry it was reached from (the header's
    /// is the last entry). Walks at most `size + 1` steps, so it terminates
    /// on any heap; the back-link check rules out cycles that miss the header.
    pub fn rep_ok(&self) -> bool {
        if self.header.borrow().element.is_some() {
            return false;
        }
        let mut cur = self.header.clone();
        let mut count = 0usize;
        loop {
            let Some(next) = cur.borrow().next.clone() else { return false };
            let back = next.borrow().previous.as_ref().and_then(Weak::upgrade);
            if !back.is_some_and(|b| Rc::ptr_eq(&b, &cur)) {
                return false;
            }
            if Rc::ptr_eq(&next, &self.header) {
                return count == self.size;
            }
            if next.borrow().element.is_none() || count == self.size {
                return false;
            }
            count += 1;
            cur = next;
        }
    }
}

impl<V: Variant> DoublyLinkedList<V> {
    /// Links the header to itself both ways.
    fn reset_header(&self) {
        let mut h = self.header.borrow_mut();
        h.next = Some(self.header.clone());
        h.previous = Some(Rc::downgrade(&self.header));
    }

    /// Java's `addBefore(o, e)`.
    fn add_before(&mut self, x: i32, e: &Link) {
        let previous = previous_of(e);
        let entry = Rc::new(RefCell::new(Entry {
            element: Some(x),
            next: Some(e.clone()),
            previous: Some(Rc::downgrade(&previous)),
        }));
        previous.borrow_mut().next = Some(entry.clone());
        e.borrow_mut().previous = Some(Rc::downgrade(&entry));
        self.size += 1;
    }

    /// Java's `remove(Entry)`; the header cannot be removed.
    fn unlink(&mut self, e: &Link) -> Result<i32, ListError> {
        self.unlink_entry(e, false)
    }

    /// [`unlink`](Self::unlink), except that with `forget_size` (the planted
    /// bug's path) `size` is left as it was.
    fn unlink_entry(&mut self, e: &Link, forget_size: bool) -> Result<i32, ListError> {
        if Rc::ptr_eq(e, &self.header) {
            return Err(ListError::NoSuchElement);
        }
        let next = next_of(e);
        let previous = previous_of(e);
        previous.borrow_mut().next = Some(next.clone());
        next.borrow_mut().previous = Some(Rc::downgrade(&previous));
        let mut entry = e.borrow_mut();
        entry.next = None;
        entry.previous = None;
        if !forget_size {
            self.size -= 1;
        }
        entry.element.ok_or(ListError::NoSuchElement)
    }

    /// Java's `entry(index)`: walks from the nearer end.
    fn entry(&self, index: usize) -> Result<Link, ListError> {
        check_element_index(index, self.size)?;
        let mut e = self.header.clone();
        if index < self.size / 2 {
            for _ in 0..=index {
                e = next_of(&e);
            }
        } else {
            for _ in index..self.size {
                e = previous_of(&e);
            }
        }
        Ok(e)
    }

    /// The entries from first to last.
    fn forward(&self) -> impl Iterator<Item = Link> + '_ {
        std::iter::successors(Some(next_of(&self.header)), |e| Some(next_of(e)))
            .take_while(|e| !Rc::ptr_eq(e, &self.header))
            .take(self.size)
    }

    /// The entries from last to first.
    fn backward(&self) -> impl Iterator<Item = Link> + '_ {
        std::iter::successors(Some(previous_of(&self.header)), |e| Some(previous_of(e)))
            .take_while(|e| !Rc::ptr_eq(e, &self.header))
            .take(self.size)
    }

    /// The elements, first to last.
    pub fn to_vec(&self) -> Vec<i32> {
        self.elements().collect()
    }

    /// The elements from first to last, without collecting them.
    fn elements(&self) -> impl Iterator<Item = i32> + '_ {
        self.forward().filter_map(|e| e.borrow().element)
    }

    /// A list with exactly this object graph, valid or not, for `smallscope
    /// compare`'s conversion of Korat candidates. Entry `i` is `(element,
    /// next, previous)`, its links indices into `entries`; `header` is the
    /// header's index and `size` is stored as given. `next` links are strong
    /// `Rc`s and `previous` links `Weak`s, as the API makes them, so an entry
    /// that the `next` chain from the header does not reach is freed on
    /// return (a back link to it is then dead), or leaks if it is on a `next`
    /// cycle of its own. `Drop` breaks the chain from the header, whatever
    /// its shape.
    #[doc(hidden)]
    pub fn from_parts(entries: Vec<(Option<i32>, Option<usize>, Option<usize>)>, header: usize, size: usize) -> Self {
        let links: Vec<Link> = entries
            .iter()
            .map(|&(element, _, _)| Rc::new(RefCell::new(Entry { element, next: None, previous: None })))
            .collect();
        for (link, &(_, next, previous)) in links.iter().zip(&entries) {
            let mut entry = link.borrow_mut();
            entry.next = next.map(|i| links[i].clone());
            entry.previous = previous.map(|i| Rc::downgrade(&links[i]));
        }
        DoublyLinkedList { header: links[header].clone(), size, variant: PhantomData }
    }

    /// Detaches every entry from the strong `next` chain, one at a time, so
    /// that the cycle through the header is broken without recursion.
    fn unlink_all(&mut self) {
        let mut cur = self.header.borrow_mut().next.take();
        while let Some(e) = cur {
            if Rc::ptr_eq(&e, &self.header) {
                break;
            }
            cur = e.borrow_mut().next.take();
        }
    }
}

impl<V: Variant> Default for DoublyLinkedList<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Variant> Drop for DoublyLinkedList<V> {
    fn drop(&mut self) {
        self.unlink_all();
    }
}

/// A deep copy with the same shape. A valid list is rebuilt by appending (the
/// engine's hot path); anything else is copied as a general object graph.
impl<V: Variant> Clone for DoublyLinkedList<V> {
    fn clone(&self) -> Self {
        if !self.rep_ok() {
            return self.clone_graph();
        }
        let mut copy = Self::new();
        let mut last = copy.header.clone();
        for element in self.to_vec() {
            let entry = Rc::new(RefCell::new(Entry {
                element: Some(element),
                next: None,
                previous: Some(Rc::downgrade(&last)),
            }));
            last.borrow_mut().next = Some(entry.clone());
            last = entry;
        }
        last.borrow_mut().next = Some(copy.header.clone());
        copy.header.borrow_mut().previous = Some(Rc::downgrade(&last));
        copy.size = self.size;
        copy
    }
}

impl<V: Variant> DoublyLinkedList<V> {
    /// A deep copy of the object graph reachable from the header through
    /// either link, with the same shape (sharing, cycles, null and dead links).
    fn clone_graph(&self) -> Self {
        let key = |e: &Link| Rc::as_ptr(e) as usize;
        let mut old: Vec<Link> = vec![self.header.clone()];
        let mut index: HashMap<usize, usize> = HashMap::from([(key(&self.header), 0)]);
        let mut i = 0;
        while i < old.len() {
            let (next, previous) = {
                let e = old[i].borrow();
                (e.next.clone(), e.previous.as_ref().and_then(Weak::upgrade))
            };
            for linked in [next, previous].into_iter().flatten() {
                if let std::collections::hash_map::Entry::Vacant(slot) = index.entry(key(&linked)) {
                    slot.insert(old.len());
                    old.push(linked);
                }
            }
            i += 1;
        }
        let new: Vec<Link> = old
            .iter()
            .map(|e| Rc::new(RefCell::new(Entry { element: e.borrow().element, next: None, previous: None })))
            .collect();
        for (o, n) in old.iter().zip(&new) {
            let o = o.borrow();
            let mut n = n.borrow_mut();
            n.next = o.next.as_ref().map(|x| new[index[&key(x)]].clone());
            n.previous = o.previous.as_ref().map(|w| match w.upgrade() {
                Some(x) => Rc::downgrade(&new[index[&key(&x)]]),
                None => Weak::new(),
            });
        }
        DoublyLinkedList { header: new[0].clone(), size: self.size, variant: PhantomData }
    }
}

// Two lists are equal when they hold the same elements in the same order
// (their [`to_vec`](DoublyLinkedList::to_vec)s are equal); `size` and the
// entries' identities play no part.
compare_by_content!([V: Variant] DoublyLinkedList<V>, elements);

/// Prints the elements; a derived `Debug` would follow the cycle forever.
impl<V: Variant> fmt::Debug for DoublyLinkedList<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut elements = Vec::new();
        let mut cur = self.header.borrow().next.clone();
        // Bounded, so that even a broken list prints.
        for _ in 0..=self.size {
            let Some(e) = cur else { break };
            if Rc::ptr_eq(&e, &self.header) {
                break;
            }
            elements.push(e.borrow().element);
            cur = e.borrow().next.clone();
        }
        f.debug_struct("DoublyLinkedList").field("size", &self.size).field("elements", &elements).finish()
    }
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry").field("element", &self.element).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, ListModel, XorShift};

    /// The correct list, under its usual name.
    type DoublyLinkedList = super::DoublyLinkedList<Correct>;

    #[test]
    fn differential_against_model() {
        for seed in 1..=4u64 {
            let mut rng = XorShift(0x2545_F491_4F6C_DD1D ^ seed);
            let mut list = DoublyLinkedList::new();
            let mut model = ListModel::default();
            let header = Rc::downgrade(&list.header);
            for _ in 0..3000 {
                let x = rng.below(8) as i32;
                let i = rng.below(10) as usize;
                match rng.below(20) {
                    0 | 1 => {
                        list.add(x);
                        model.add_last(x);
                    }
                    2 => {
                        list.add_first(x);
                        model.add_first(x);
                    }
                    3 => {
                        list.add_last(x);
                        model.add_last(x);
                    }
                    4 => assert_eq!(list.add_at(i, x), model.add_at(i, x)),
                    5 => {
                        assert_eq!(list.get_first(), model.get_first());
                        assert_eq!(list.get_last(), model.get_last());
                    }
                    6 => assert_eq!(list.get(i), model.get(i)),
                    7 => assert_eq!(list.set(i, x), model.set(i, x)),
                    8 => assert_eq!(list.remove_first(), model.remove_first()),
                    9 => assert_eq!(list.remove_last(), model.remove_last()),
                    10 => assert_eq!(list.remove(x), model.remove(x)),
                    11 => assert_eq!(list.remove_at(i), model.remove_at(i)),
                    12 => assert_eq!(list.remove_last_occurrence(x), model.remove_last_occurrence(x)),
                    13 => assert_eq!(list.index_of(x), model.index_of(x)),
                    14 => assert_eq!(list.last_index_of(x), model.last_index_of(x)),
                    15 => assert_eq!(list.contains(x), model.contains(x)),
                    16 => {
                        assert_eq!(list.size(), model.len());
                        assert_eq!(list.is_empty(), model.is_empty());
                    }
                    17 => {
                        // A clone is deep: changing it leaves the original alone.
                        let mut copy = list.clone();
                        assert!(copy.rep_ok());
                        assert_eq!(copy.to_vec(), list.to_vec());
                        copy.add_first(x);
                        copy.set(0, x + 1).unwrap();
                        assert!(copy.rep_ok());
                    }
                    18 => {
                        let copy = list.clone();
                        list = copy;
                    }
                    _ => {
                        if rng.below(6) == 0 {
                            list.clear();
                            model.clear();
                        }
                    }
                }
                assert!(list.rep_ok(), "{list:?}");
                assert_eq!(list.to_vec(), model.to_vec());
            }
            // The original header went away with its list: nothing leaked.
            assert!(header.upgrade().is_none());
        }
    }

    /// Every entry, header included, is freed when the list is dropped.
    #[test]
    fn drop_frees_the_cycle() {
        let mut list = DoublyLinkedList::new();
        for x in 0..5 {
            list.add(x);
        }
        let entries: Vec<Weak<RefCell<Entry>>> =
            std::iter::once(Rc::downgrade(&list.header)).chain(list.forward().map(|e| Rc::downgrade(&e))).collect();
        let copy = list.clone();
        list.remove_at(2).unwrap();
        list.clear();
        list.add(9);
        drop(list);
        assert!(entries.iter().all(|w| w.upgrade().is_none()));
        assert_eq!(copy.to_vec(), [0, 1, 2, 3, 4]);
        assert!(copy.rep_ok());
    }

    #[test]
    fn clone_preserves_the_shape() {
        let mut list = DoublyLinkedList::new();
        for x in [2, 0, 2] {
            list.add(x);
        }
        let copy = list.clone();
        assert!(!Rc::ptr_eq(&copy.header, &list.header));
        assert_eq!(smallscope::heap::canonical_text(&copy), smallscope::heap::canonical_text(&list));
        let empty = DoublyLinkedList::new();
        assert_eq!(
            smallscope::heap::canonical_text(&empty),
            "DoublyLinkedList#0{header: Entry#1{element: null, next: @1, previous: @1}, size: 0}"
        );
    }

    /// Invalid lists take the general graph copy, which keeps their shape too.
    #[test]
    fn clone_copies_broken_shapes() {
        let text = smallscope::heap::canonical_text;
        let list = sample();
        let second = list.entry(1).unwrap();
        second.borrow_mut().previous = Some(Rc::downgrade(&list.header));
        list.header.borrow_mut().element = Some(7);
        let copy = list.clone();
        assert!(!copy.rep_ok());
        assert_eq!(text(&copy), text(&list));
        // A dead back link stays dead, a null one null.
        second.borrow_mut().previous = Some(Weak::new());
        list.entry(0).unwrap().borrow_mut().previous = None;
        assert_eq!(text(&list.clone()), text(&list));
    }

    fn sample() -> DoublyLinkedList {
        let mut list = DoublyLinkedList::new();
        for x in [1, 2, 3] {
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
        assert_rejects(sample(), |list| list.header.borrow_mut().element = Some(0));
    }

    #[test]
    fn rep_ok_rejects_missing_element() {
        assert_rejects(sample(), |list| list.entry(1).unwrap().borrow_mut().element = None);
    }

    #[test]
    fn rep_ok_rejects_broken_back_link() {
        assert_rejects(sample(), |list| {
            list.entry(1).unwrap().borrow_mut().previous = Some(Rc::downgrade(&list.header));
        });
        assert_rejects(sample(), |list| list.entry(1).unwrap().borrow_mut().previous = None);
    }

    #[test]
    fn rep_ok_rejects_wrong_header_back_link() {
        assert_rejects(sample(), |list| {
            let first = list.entry(0).unwrap();
            list.header.borrow_mut().previous = Some(Rc::downgrade(&first));
        });
    }

    #[test]
    fn rep_ok_rejects_null_terminated_chain() {
        assert_rejects(sample(), |list| {
            let last = list.entry(2).unwrap();
            last.borrow_mut().next = None;
        });
    }

    #[test]
    fn rep_ok_rejects_cycle_missing_the_header() {
        let list = sample();
        // 1 -> 2 -> 3 -> 2 (3.next = 2), back links left as they were.
        let second = list.entry(1).unwrap();
        let third = list.entry(2).unwrap();
        third.borrow_mut().next = Some(second.clone());
        assert!(!list.rep_ok());
        // Make the back link agree too: still rejected, and rep_ok terminates.
        second.borrow_mut().previous = Some(Rc::downgrade(&third));
        assert!(!list.rep_ok());
        // Break the cycle by hand so the test does not leak.
        third.borrow_mut().next = None;
    }

    /// `new() add(0) remove(0)`: the bug keeps `size` at 1 for an empty list.
    #[test]
    fn remove_bug_shows_after_add_remove() {
        fn run<V: Variant>() -> (Vec<bool>, usize) {
            let mut list = super::DoublyLinkedList::<V>::new();
            let mut verdicts = vec![list.rep_ok()];
            list.add(0);
            verdicts.push(list.rep_ok());
            assert!(list.remove(0));
            verdicts.push(list.rep_ok());
            (verdicts, list.size())
        }
        assert_eq!(run::<Correct>(), (vec![true, true, true], 0));
        assert_eq!(run::<RemoveBug>(), (vec![true, true, false], 1));
    }

    /// Only `remove(x)` of the last entry is broken: other removals, and
    /// `remove(x)` of an inner entry, behave as in the correct list.
    #[test]
    fn remove_bug_spares_the_other_paths() {
        let mut list = super::DoublyLinkedList::<RemoveBug>::new();
        for x in [1, 2, 3, 4] {
            list.add(x);
        }
        assert!(list.remove(2));
        assert_eq!(list.remove_last(), Ok(4));
        assert_eq!(list.remove_at(1), Ok(3));
        assert!(list.remove_last_occurrence(1));
        list.add(5);
        assert_eq!(list.remove_first(), Ok(5));
        assert!(list.rep_ok());
        assert_eq!((list.size(), list.to_vec()), (0, vec![]));
    }

    /// Past the first broken state the bug variant keeps answering without
    /// panicking (the engines and the random tester go on calling it).
    #[test]
    fn remove_bug_does_not_panic_later() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let mut list = super::DoublyLinkedList::<RemoveBug>::new();
        for _ in 0..3000 {
            let x = rng.below(4) as i32;
            let i = rng.below(6) as usize;
            match rng.below(14) {
                0 | 1 => list.add(x),
                2 => list.add_first(x),
                3 => {
                    let _ = list.add_at(i, x);
                }
                4 => {
                    let _ = (list.get(i), list.get_first(), list.get_last());
                }
                5 => {
                    let _ = list.set(i, x);
                }
                6 | 7 => {
                    list.remove(x);
                }
                8 => {
                    let _ = (list.remove_first(), list.remove_last());
                }
                9 => {
                    let _ = list.remove_at(i);
                }
                10 => {
                    list.remove_last_occurrence(x);
                }
                11 => {
                    let _ = (list.index_of(x), list.last_index_of(x), list.contains(x));
                }
                12 => {
                    let copy = list.clone();
                    assert_eq!(copy.to_vec(), list.to_vec());
                    let _ = format!("{copy:?}");
                }
                _ => {
                    if rng.below(8) == 0 {
                        list.clear();
                    }
                }
            }
            assert!(list.to_vec().len() <= list.size());
        }
    }
}
