//! Korat's `SortedList` benchmark: a circular doubly linked list with a
//! header entry whose elements are non-decreasing.
//!
//! Stock finitization `fin(n)` (`finSortedList(n, n, n + 1, n)`): n + 1
//! entries; `header`, `next` and `previous` range over null and the entries;
//! `size` is n; `element` is null or one of the `Integer`s 1..=n, a class
//! domain Korat leaves out of isomorphism breaking (so an `Option<i64>`
//! here). Fields are declared in the finitization's order (`header`, `size`;
//! `element`, `next`, `previous`). n sorted elements out of n values: C(2n−1, n)
//! lists.
//!
//! Read order, as in the original `repOK`: `header`, `header.element`; then
//! from the header, `next` and that entry's `previous` for each entry until
//! an entry repeats; then `size`; then, unless the list is empty,
//! `header.next.element`, and along the list each next entry's `element`,
//! checked (null, then order) before the next is read. A valid candidate
//! has read every reachable field.

use smallscope::korat::{Korat, ObjectSet, Ref};

#[derive(Korat)]
pub struct SortedList {
    header: Option<Ref<Entry>>,
    #[korat(ints = n..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n + 1)]
pub struct Entry {
    #[korat(ints = 1..=n)]
    element: Option<i64>,
    next: Option<Ref<Entry>>,
    previous: Option<Ref<Entry>>,
}

/// A cycle through the header with consistent `previous` links, `size`
/// entries besides the header, no element on the header, and the others'
/// elements present and non-decreasing.
pub fn rep_ok(list: SortedListView<'_>) -> bool {
    let Some(header) = list.header() else {
        return false;
    };
    if header.element().is_some() {
        return false;
    }
    let mut visited = ObjectSet::new(list);
    visited.insert(header);
    let mut entries = 1;
    let mut current = header;
    loop {
        let Some(next) = current.next() else {
            return false;
        };
        if next.previous() != Some(current) {
            return false;
        }
        current = next;
        if !visited.insert(next) {
            break;
        }
        entries += 1;
    }
    if current != header || entries - 1 != list.size() {
        return false;
    }
    sorted(header)
}

/// Elements present and non-decreasing along the cycle (which is known to
/// close at `header`).
fn sorted<'c>(header: EntryView<'c>) -> bool {
    let next_of = |entry: EntryView<'c>| entry.next().expect("checked: the list is a cycle");
    let first = next_of(header);
    if first == header {
        return true;
    }
    let Some(mut previous) = first.element() else {
        return false;
    };
    let mut current = first;
    while next_of(current) != header {
        current = next_of(current);
        match current.element() {
            Some(element) if element >= previous => previous = element,
            _ => return false,
        }
    }
    true
}

smallscope::korat_subject!("sorted-list", SortedList, rep_ok = rep_ok);
