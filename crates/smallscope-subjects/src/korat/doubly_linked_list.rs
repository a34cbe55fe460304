//! Korat's `DoublyLinkedList` benchmark (`repOK` = `repOkNS`): a circular
//! doubly linked list through a header entry; an empty list is a header
//! without element linked to itself.
//!
//! Stock finitization `fin(n)` (`finDoublyLinkedList(n, n, n + 1, n + 1)`):
//! n + 1 entries and n + 1 element objects (Korat's `ListObject`, no fields
//! of their own); `header`, `next` and `previous` range over null and the
//! entries, `element` over null and the element objects, both with
//! isomorphism breaking; `size` is n. Fields are declared in the
//! finitization's order (`header`, `size`; `element`, `next`, `previous`).
//! `size` counts the header, and only the header's element is checked, so a
//! list of n ≥ 1 entries has n − 1 elements free (null allowed): up to
//! isomorphism Bell(n + 1) − Bell(n) lists (Korat's README: 10 at n = 3).
//!
//! Read order, as in the original `repOkCommon`: `header`,
//! `header.element`; if that is null, `size`, `header.next`,
//! `header.previous` (short-circuit `&&`); otherwise from the header each
//! entry's `next` and that entry's `previous` until an entry repeats, then
//! `size`. The elements of the entries after the header are never read: on
//! a valid candidate the engine adds them, in list order (as Korat's
//! `touch` does), and they are searched last.

use smallscope::korat::{Korat, Ref};

#[derive(Korat)]
pub struct DoublyLinkedList {
    header: Option<Ref<Entry>>,
    #[korat(ints = n..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n + 1)]
pub struct Entry {
    element: Option<Ref<ListObject>>,
    next: Option<Ref<Entry>>,
    previous: Option<Ref<Entry>>,
}

/// An element object (Korat's `ListObject`): only its identity counts.
#[derive(Korat)]
#[korat(objects = n + 1)]
pub struct ListObject {}

/// Empty (header without element, linked to itself, size 0), or a cycle of
/// `size` entries from the header with consistent `previous` links.
pub fn rep_ok(list: DoublyLinkedListView<'_>) -> bool {
    let Some(header) = list.header() else {
        return false;
    };
    if header.element().is_none() {
        return list.size() == 0 && header.next() == Some(header) && header.previous() == Some(header);
    }
    let mut visited = vec![header];
    let mut current = header;
    loop {
        let Some(next) = current.next() else {
            return false;
        };
        if next.previous() != Some(current) {
            return false;
        }
        current = next;
        if visited.contains(&next) {
            break;
        }
        visited.push(next);
    }
    current == header && visited.len() as i64 == list.size()
}

smallscope::korat_subject!("doubly-linked-list", DoublyLinkedList, rep_ok = rep_ok);
