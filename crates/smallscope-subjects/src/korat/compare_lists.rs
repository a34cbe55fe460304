//! Korat models of the three list subjects, with the conversions that make a
//! candidate a real value, for `smallscope compare` (BEAPI paper, §4.3).
//!
//! Each model is shaped like the subject's heap (same classes, same fields),
//! and its finitization at scope n bounds what BEAPI's scope n bounds: at
//! most n objects of each class reachable from the root (the header entries
//! count), and integers `0..n`.
//!
//! - `sll`: [`SllModel`] for [`SinglyLinkedList`], with [`sll_rep_ok`]: a
//!   header entry without element, then a null-terminated chain of `size`
//!   distinct entries, each with one. The subject's `rep_ok` gets
//!   acyclicity from `Box`; the model has to check it.
//! - `dll`: [`DllModel`] for [`DoublyLinkedList`], with [`dll_rep_ok`]: a
//!   cycle of `next` links through a header without element, each entry's
//!   `previous` the entry before it, `size` entries besides the header, each
//!   with an element. The conversion builds the real `Rc` graph, `next`
//!   strong and `previous` `Weak`.
//! - `sorted-list`: [`SortedModel`] for [`SortedList`], with
//!   [`sorted_rep_ok`] (a null-terminated chain of `size` distinct nodes with
//!   non-decreasing values) and [`no_order_rep_ok`], which forgets the order:
//!   with it, SA ⊂ SR, and the witnesses are unsorted lists.
//!
//! With the subjects' own invariants the sets are equal (at scopes 1 to 5 at
//! least): every valid list is built by appending or inserting its values,
//! through smaller lists only, so no recheck at larger scopes is needed.

use smallscope::compare::{index_in, reachable_in_order};
use smallscope::korat::{Korat, Ref};

use crate::dll::DoublyLinkedList;
use crate::sll::SinglyLinkedList;
use crate::sorted_list::SortedList;

/// A value of the model as the subject's `i32`.
fn int(value: i64) -> i32 {
    i32::try_from(value).expect("values are small")
}

/// A size or count of the model as the subject's `usize`.
fn count(value: i64) -> usize {
    usize::try_from(value).expect("a count is not negative")
}

/// The nodes of a chain from `first` through `next`, in order. A cycle is a
/// structure no `Box` chain can be: it panics, naming the invariant's fault.
fn chain<V: Copy + PartialEq>(first: Option<V>, next: impl Fn(V) -> Option<V>) -> Vec<V> {
    let mut nodes = Vec::new();
    let mut link = first;
    while let Some(node) = link {
        assert!(!nodes.contains(&node), "the invariant admitted a cyclic chain, which `Box` links cannot form");
        nodes.push(node);
        link = next(node);
    }
    nodes
}

// ---------------------------------------------------------------------------
// SinglyLinkedList
// ---------------------------------------------------------------------------

/// `SinglyLinkedList`: a header entry (a `Box`, so never null) and a size.
/// The header is an entry, so a list of n entries has at most n − 1 elements.
#[derive(Korat)]
pub struct SllModel {
    header: Ref<SllEntry>,
    #[korat(ints = 0..n)]
    size: i64,
}

/// `Entry`: an element (null on the header) and the next entry.
#[derive(Korat)]
#[korat(objects = n)]
pub struct SllEntry {
    #[korat(ints = 0..n)]
    element: Option<i64>,
    next: Option<Ref<SllEntry>>,
}

/// `SinglyLinkedList::rep_ok`: the header carries no element, every entry
/// does, and `size` is the number of entries; plus what `Box` gives the
/// subject for free, that the chain never returns to an entry.
pub fn sll_rep_ok(list: SllModelView<'_>) -> bool {
    let header = list.header();
    if header.element().is_some() {
        return false;
    }
    let mut visited = vec![header];
    let mut current = header;
    while let Some(next) = current.next() {
        if visited.contains(&next) || next.element().is_none() {
            return false;
        }
        visited.push(next);
        current = next;
    }
    visited.len() as i64 - 1 == list.size()
}

/// The list a candidate stands for: the chain from the header.
pub fn to_sll(list: SllModelView<'_>) -> SinglyLinkedList {
    let header = list.header();
    let entries = chain(header.next(), |e| e.next());
    SinglyLinkedList::from_parts(
        header.element().map(int),
        entries.iter().map(|e| e.element().map(int)).collect(),
        count(list.size()),
    )
}

smallscope::compare_subject!(
    "sll",
    SinglyLinkedList,
    SllModel,
    convert = to_sll,
    invariants = { "rep-ok" => sll_rep_ok }
);

// ---------------------------------------------------------------------------
// DoublyLinkedList
// ---------------------------------------------------------------------------

/// `DoublyLinkedList`: a header entry (an `Rc`, so never null) and a size.
#[derive(Korat)]
pub struct DllModel {
    header: Ref<DllEntry>,
    #[korat(ints = 0..n)]
    size: i64,
}

/// `Entry`: an element (null on the header), the next entry (a strong `Rc`)
/// and the previous one (a `Weak`).
#[derive(Korat)]
#[korat(objects = n)]
pub struct DllEntry {
    #[korat(ints = 0..n)]
    element: Option<i64>,
    next: Option<Ref<DllEntry>>,
    previous: Option<Ref<DllEntry>>,
}

/// `DoublyLinkedList::rep_ok`, step for step: the header has no element;
/// following `next` from the header returns to it after exactly `size`
/// entries, each with an element; each entry's `previous` is the entry it
/// was reached from (the header's is the last entry). The back links rule
/// out cycles that miss the header.
pub fn dll_rep_ok(list: DllModelView<'_>) -> bool {
    let header = list.header();
    if header.element().is_some() {
        return false;
    }
    let mut current = header;
    let mut count = 0;
    loop {
        let Some(next) = current.next() else { return false };
        if next.previous() != Some(current) {
            return false;
        }
        if next == header {
            return count == list.size();
        }
        if next.element().is_none() || count == list.size() {
            return false;
        }
        count += 1;
        current = next;
    }
}

/// The list a candidate stands for: every entry reachable from the header
/// through either link, with the same links (see
/// [`DoublyLinkedList::from_parts`]).
pub fn to_dll(list: DllModelView<'_>) -> DoublyLinkedList {
    let order = reachable_in_order(&[Some(list.header())], |e| vec![e.next(), e.previous()]);
    let index_of = |link| index_in(&order, link);
    let entries = order.iter().map(|e| (e.element().map(int), index_of(e.next()), index_of(e.previous()))).collect();
    DoublyLinkedList::from_parts(entries, 0, count(list.size()))
}

smallscope::compare_subject!(
    "dll",
    DoublyLinkedList,
    DllModel,
    convert = to_dll,
    invariants = { "rep-ok" => dll_rep_ok }
);

// ---------------------------------------------------------------------------
// SortedList
// ---------------------------------------------------------------------------

/// `SortedList`: the first node (no header) and a size.
#[derive(Korat)]
pub struct SortedModel {
    head: Option<Ref<SortedNode>>,
    #[korat(ints = 0..=n)]
    size: i64,
}

/// `Node`: a value and the next node.
#[derive(Korat)]
#[korat(objects = n)]
pub struct SortedNode {
    #[korat(ints = 0..n)]
    value: i64,
    next: Option<Ref<SortedNode>>,
}

/// `SortedList::rep_ok`: values are non-decreasing and `size` is the number
/// of nodes; plus what `Box` gives the subject, no node reached twice.
pub fn sorted_rep_ok(list: SortedModelView<'_>) -> bool {
    nodes_counted(list, true)
}

/// A weakened invariant that forgets the order: any null-terminated chain of
/// `size` distinct nodes. It admits unsorted lists, which the API never
/// builds (SA ⊂ SR).
pub fn no_order_rep_ok(list: SortedModelView<'_>) -> bool {
    nodes_counted(list, false)
}

fn nodes_counted(list: SortedModelView<'_>, check_order: bool) -> bool {
    let mut visited: Vec<SortedNodeView<'_>> = Vec::new();
    let mut previous: Option<i64> = None;
    let mut link = list.head();
    while let Some(node) = link {
        if visited.contains(&node) {
            return false;
        }
        if check_order {
            let value = node.value();
            if previous.is_some_and(|p| p > value) {
                return false;
            }
            previous = Some(value);
        }
        visited.push(node);
        link = node.next();
    }
    visited.len() as i64 == list.size()
}

/// The list a candidate stands for: the chain from `head`.
pub fn to_sorted_list(list: SortedModelView<'_>) -> SortedList {
    let nodes = chain(list.head(), |n| n.next());
    SortedList::from_parts(nodes.iter().map(|n| int(n.value())).collect(), count(list.size()))
}

smallscope::compare_subject!(
    "sorted-list",
    SortedList,
    SortedModel,
    convert = to_sorted_list,
    invariants = { "rep-ok" => sorted_rep_ok, "no-order-check" => no_order_rep_ok }
);

#[cfg(test)]
mod tests {
    use smallscope::compare::{compare, Comparison, Verdict};

    use super::*;

    use crate::testing::compare_options as options;

    fn assert_equal(c: &Comparison, scope: u32, expected: usize) {
        assert_eq!(
            c.verdict,
            Verdict::Equal,
            "scope {scope}: {:?} {:?} {:?}",
            c.only_api.first(),
            c.only_invariant.first(),
            c.notes
        );
        assert_eq!(c.api_structures, expected, "scope {scope}");
        assert_eq!(c.invariant_structures, expected, "scope {scope}");
        assert_eq!(c.both, expected, "scope {scope}");
        assert_eq!(c.korat_found as usize, expected, "scope {scope}: one candidate per structure");
    }

    /// `sum_{k<n} n^k`: the lists of at most n − 1 elements over `0..n`.
    fn header_lists(n: u32) -> usize {
        (0..n).map(|k| (n as usize).pow(k)).sum()
    }

    #[test]
    fn sll_invariant_matches_the_api() {
        for scope in 1..=4 {
            let c =
                compare::<SinglyLinkedList, SllModel>(scope, sll_rep_ok, to_sll, &options(&["new", "add"])).unwrap();
            assert_equal(&c, scope, header_lists(scope));
        }
    }

    #[test]
    fn dll_invariant_matches_the_api() {
        for scope in 1..=4 {
            let c =
                compare::<DoublyLinkedList, DllModel>(scope, dll_rep_ok, to_dll, &options(&["new", "add"])).unwrap();
            assert_equal(&c, scope, header_lists(scope));
        }
    }

    /// `from_parts` builds the real graph: a valid list whose back links are
    /// live `Weak`s, with the canonical form of the one the API builds.
    #[test]
    fn dll_conversion_builds_live_back_links() {
        let mut api: DoublyLinkedList = DoublyLinkedList::new();
        api.add(2);
        api.add(0);
        let converted: DoublyLinkedList = DoublyLinkedList::from_parts(
            vec![(None, Some(1), Some(2)), (Some(2), Some(2), Some(0)), (Some(0), Some(0), Some(1))],
            0,
            2,
        );
        assert!(converted.rep_ok());
        assert_eq!(converted.to_vec(), [2, 0]);
        assert_eq!(converted.get_last(), Ok(0));
        let text = smallscope::heap::canonical_text;
        assert_eq!(text(&converted), text(&api));
    }

    /// `C(2n, n)`: the non-decreasing sequences of at most n values in `0..n`.
    fn sorted_lists(n: u32) -> usize {
        let n = n as usize;
        (1..=n).fold(1, |c, k| c * (n + k) / k)
    }

    #[test]
    fn sorted_invariant_matches_the_api() {
        for scope in 1..=4 {
            let c =
                compare::<SortedList, SortedModel>(scope, sorted_rep_ok, to_sorted_list, &options(&["new", "insert"]))
                    .unwrap();
            assert_equal(&c, scope, sorted_lists(scope));
            // Called directly, not through a registration: the model names the invariant.
            assert!(c.invariant.ends_with("SortedModel"), "{}", c.invariant);
        }
    }

    /// The values printed in a sorted list's canonical text, head first.
    fn values(text: &str) -> Vec<i32> {
        text.split("value: ").skip(1).map(|s| s[..s.find(',').unwrap()].parse().unwrap()).collect()
    }

    /// Forgetting the order admits every list of values: the unsorted ones
    /// are witnesses the API never builds, the smallest of two nodes.
    #[test]
    fn an_invariant_without_the_order_check_is_too_weak() {
        let scope = 3;
        let c =
            compare::<SortedList, SortedModel>(scope, no_order_rep_ok, to_sorted_list, &options(&["new", "insert"]))
                .unwrap();
        assert_eq!(c.verdict, Verdict::InvariantTooWeak, "{:?}", c.notes);
        assert!(c.only_api.is_empty());
        assert_eq!(c.both, c.api_structures);
        // Every sequence of at most 3 values in 0..3, less the sorted ones.
        assert_eq!(c.invariant_structures, 1 + 3 + 9 + 27);
        assert_eq!(c.only_invariant.len(), 40 - sorted_lists(scope));
        for witness in &c.only_invariant {
            let values = values(&witness.canonical);
            assert!(values.windows(2).any(|w| w[0] > w[1]), "sorted: {}", witness.canonical);
        }
        let first = &c.only_invariant[0];
        assert_eq!(first.objects, 3, "{}", first.canonical);
        assert_eq!(
            first.canonical,
            "SortedList#0{head: Node#1{value: 1, next: Node#2{value: 0, next: null}}, size: 2}"
        );
        assert!(first.dot.is_some());
    }
}
