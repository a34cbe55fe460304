//! Korat's `SinglyLinkedList` benchmark (`repOK` = `repOkNS`): a
//! null-terminated list after a header entry, every entry but the header
//! holding an element.
//!
//! Stock finitization `fin(n)` (`finSinglyLinkedList(n, n, n + 1, n + 1)`):
//! n + 1 entries and n + 1 element objects (Korat's `SerializableObject`, no
//! fields of their own); `header` and `next` range over null and the
//! entries, `element` over null and the element objects, both with
//! isomorphism breaking; `size` is n. Fields are declared in the
//! finitization's order (`header`, `size`; `element`, `next`). Up to
//! isomorphism a list is the pattern of equal elements along it: Bell(n)
//! lists (Korat's README: 5 at n = 3).
//!
//! Read order, as in the original `repOkCommon`: `header`,
//! `header.element`; then along the list `next` and, if not null, that
//! entry's `element` (checked, then the entry checked for a repeat) before
//! the next `next`; then `size`. A valid candidate has read every reachable
//! field.

use smallscope::korat::{Korat, Ref};

#[derive(Korat)]
pub struct SinglyLinkedList {
    header: Option<Ref<Entry>>,
    #[korat(ints = n..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n + 1)]
pub struct Entry {
    element: Option<Ref<Element>>,
    next: Option<Ref<Entry>>,
}

/// An element object (Korat's `SerializableObject`): only its identity counts.
#[derive(Korat)]
#[korat(objects = n + 1)]
pub struct Element {}

/// A header without element, then `size` distinct entries, each with an
/// element, ending in null.
pub fn rep_ok(list: SinglyLinkedListView<'_>) -> bool {
    let Some(header) = list.header() else {
        return false;
    };
    if header.element().is_some() {
        return false;
    }
    let mut visited = vec![header];
    let mut current = header;
    while let Some(next) = current.next() {
        if next.element().is_none() || visited.contains(&next) {
            return false;
        }
        visited.push(next);
        current = next;
    }
    visited.len() as i64 - 1 == list.size()
}

smallscope::korat_subject!("singly-linked-list", SinglyLinkedList, rep_ok = rep_ok);
