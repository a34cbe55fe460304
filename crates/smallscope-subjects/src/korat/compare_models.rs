//! Korat models of two BEAPI subjects, with the conversions that make a
//! candidate a real value, for `smallscope compare` (BEAPI paper, §4.3).
//!
//! Each model is shaped like the subject's heap, and its finitization at
//! scope n bounds what BEAPI's scope n bounds: at most n objects of each
//! class reachable from the root (the root and the header node count), and
//! integers `0..n`.
//!
//! - `ncl`: [`NclModel`] for [`NodeCachingLinkedList`], with two invariants:
//!   [`roops_rep_ok`], as the ROOPS benchmark wrote it (the paper's Fig. 1:
//!   it checks the circular main list, the size and the null-terminated
//!   cache, but not that the header's and the cache nodes' values are null),
//!   and [`rep_ok`], corrected. With the first, SA ⊂ SR; with the second, the
//!   sets are equal.
//! - `rbt`: [`RbtModel`] for [`RedBlackTree`], with [`red_root_rep_ok`]
//!   (Korat's benchmark invariant, which lets the root be red) and
//!   [`black_root_rep_ok`] (`TreeMap`'s, root black). Some trees of n nodes
//!   are reachable through the API only via larger trees (a removal
//!   rebalances them), so BEAPI at scope n misses them: compare with a
//!   `remove` builder, and read the recheck at a larger scope.

use smallscope::compare::{index_in, reachable_in_order};
use smallscope::korat::{Korat, Ref};

use crate::ncl::NodeCachingLinkedList;
use crate::rbt::{Color, RedBlackTree};

// ---------------------------------------------------------------------------
// NodeCachingLinkedList
// ---------------------------------------------------------------------------

/// `NodeCachingLinkedList`: a header node, a size, a cache and its size.
#[derive(Korat)]
pub struct NclModel {
    /// Java's `header`, nullable as a Java field is.
    header: Option<Ref<NclNode>>,
    #[korat(ints = 0..n)]
    size: i64,
    first_cache_node: Option<Ref<NclNode>>,
    #[korat(ints = 0..n)]
    cache_size: i64,
    /// `DEFAULT_MAXIMUM_CACHE_SIZE`: what `new()` sets.
    #[korat(ints = [20])]
    maximum_cache_size: i64,
}

/// A node of either list: a Java `Object` value (null or an integer).
#[derive(Korat)]
#[korat(objects = n)]
pub struct NclNode {
    #[korat(ints = 0..n)]
    value: Option<i64>,
    previous: Option<Ref<NclNode>>,
    next: Option<Ref<NclNode>>,
}

/// The ROOPS invariant, in its read order. It checks that the header exists
/// with both links, `cache_size <= maximum_cache_size`, `size >= 0`; that the
/// main list is circular and doubly linked through the header with `size`
/// nodes; and that the cache is a null-terminated chain through `next` of
/// `cache_size` distinct nodes with no `previous`. As in the paper's Fig. 1,
/// it never checks that the header's value and the cache nodes' values are
/// null (nor that the main list's values are not).
pub fn roops_rep_ok(list: NclModelView<'_>) -> bool {
    let Some(header) = list.header() else { return false };
    if header.next().is_none() || header.previous().is_none() {
        return false;
    }
    if list.cache_size() > list.maximum_cache_size() || list.size() < 0 {
        return false;
    }
    // do { .. } while (n != header): each visited node's links are checked
    // both ways, so the walk returns to the header within n steps.
    let mut cyclic_size = 0;
    let mut n = header;
    loop {
        cyclic_size += 1;
        let Some(previous) = n.previous() else { return false };
        if previous.next() != Some(n) {
            return false;
        }
        let Some(next) = n.next() else { return false };
        if next.previous() != Some(n) {
            return false;
        }
        n = next;
        if n == header {
            break;
        }
    }
    if list.size() != cyclic_size - 1 {
        return false;
    }
    let mut acyclic_size = 0;
    let mut m = list.first_cache_node();
    let mut visited = vec![m];
    while let Some(node) = m {
        acyclic_size += 1;
        if node.previous().is_some() {
            return false;
        }
        // Missing here: `if (m.value != null) return false;`
        m = node.next();
        if visited.contains(&m) {
            return false;
        }
        visited.push(m);
    }
    list.cache_size() == acyclic_size
}

/// The corrected invariant, as `NodeCachingLinkedList::rep_ok`: the header
/// holds no value; the main list is circular and doubly linked through the
/// header with `size` distinct nodes, each holding a value; the cache is a
/// null-terminated chain of `cache_size` distinct nodes outside the main
/// list, each with no value and no `previous`; `cache_size <=
/// maximum_cache_size`.
pub fn rep_ok(list: NclModelView<'_>) -> bool {
    let Some(header) = list.header() else { return false };
    if header.value().is_some() {
        return false;
    }
    let mut seen = vec![header];
    let mut current = header;
    loop {
        let Some(next) = current.next() else { return false };
        if next.previous() != Some(current) {
            return false;
        }
        if next == header {
            break;
        }
        if seen.contains(&next) || next.value().is_none() {
            return false;
        }
        seen.push(next);
        current = next;
    }
    if seen.len() as i64 - 1 != list.size() {
        return false;
    }
    let mut cached = 0;
    let mut link = list.first_cache_node();
    while let Some(node) = link {
        if seen.contains(&node) || node.value().is_some() || node.previous().is_some() {
            return false;
        }
        seen.push(node);
        cached += 1;
        link = node.next();
    }
    cached == list.cache_size() && list.cache_size() <= list.maximum_cache_size()
}

/// The list a candidate stands for: its reachable nodes in an arena. A null
/// header (which no invariant here admits) cannot be a list: it panics.
pub fn to_ncl(list: NclModelView<'_>) -> NodeCachingLinkedList {
    let header = list.header().expect("a NodeCachingLinkedList always has a header");
    let order = reachable_in_order(&[Some(header), list.first_cache_node()], |n| vec![n.previous(), n.next()]);
    let nodes = order
        .iter()
        .map(|n| {
            let value = n.value().map(|v| i32::try_from(v).expect("values are small"));
            (value, index_in(&order, n.previous()), index_in(&order, n.next()))
        })
        .collect();
    let count = |v: i64| usize::try_from(v).expect("a count is not negative");
    NodeCachingLinkedList::from_parts(
        nodes,
        0,
        count(list.size()),
        index_in(&order, list.first_cache_node()),
        count(list.cache_size()),
        count(list.maximum_cache_size()),
    )
}

smallscope::compare_subject!(
    "ncl",
    NodeCachingLinkedList,
    NclModel,
    convert = to_ncl,
    invariants = { "roops" => roops_rep_ok, "corrected" => rep_ok }
);

// ---------------------------------------------------------------------------
// RedBlackTree
// ---------------------------------------------------------------------------

const RED: i64 = 0;
const BLACK: i64 = 1;

/// `RedBlackTree` (a `TreeMap`'s keys): a root and a size.
#[derive(Korat)]
pub struct RbtModel {
    root: Option<Ref<RbtNode>>,
    #[korat(ints = 0..=n)]
    size: i64,
}

/// A tree node: a key in `0..n`, a colour (0 red, 1 black) and three links.
#[derive(Korat)]
#[korat(objects = n)]
pub struct RbtNode {
    #[korat(ints = 0..n)]
    key: i64,
    #[korat(ints = 0..=1)]
    color: i64,
    left: Option<Ref<RbtNode>>,
    right: Option<Ref<RbtNode>>,
    parent: Option<Ref<RbtNode>>,
}

/// Korat's red-black invariant: the root has no parent; every child's
/// `parent` is its parent and no node is reached twice; `size` nodes; no red
/// node has a red child; every path to null has as many black nodes; keys
/// strictly increase in order. The root may be red.
pub fn red_root_rep_ok(tree: RbtModelView<'_>) -> bool {
    let Some(root) = tree.root() else { return tree.size() == 0 };
    if root.parent().is_some() {
        return false;
    }
    let mut visited = vec![root];
    let mut work = std::collections::VecDeque::from([root]);
    while let Some(current) = work.pop_front() {
        for child in [current.left(), current.right()].into_iter().flatten() {
            if visited.contains(&child) || child.parent() != Some(current) {
                return false;
            }
            visited.push(child);
            work.push_back(child);
        }
    }
    visited.len() as i64 == tree.size() && colors_ok(root) && ordered(root, None, None)
}

/// [`red_root_rep_ok`] and a black root, as `java.util.TreeMap` keeps it.
pub fn black_root_rep_ok(tree: RbtModelView<'_>) -> bool {
    red_root_rep_ok(tree) && tree.root().is_none_or(|root| root.color() == BLACK)
}

fn colors_ok(root: RbtNodeView<'_>) -> bool {
    let red = |node: Option<RbtNodeView<'_>>| node.is_some_and(|n| n.color() == RED);
    let mut black_height = None;
    let mut paths = vec![(Some(root), 0)];
    while let Some((node, mut blacks)) = paths.pop() {
        match node {
            Some(node) => {
                if node.color() == RED && (red(node.left()) || red(node.right())) {
                    return false;
                }
                if node.color() == BLACK {
                    blacks += 1;
                }
                paths.push((node.right(), blacks));
                paths.push((node.left(), blacks));
            }
            None if *black_height.get_or_insert(blacks) != blacks => return false,
            None => {}
        }
    }
    true
}

fn ordered(node: RbtNodeView<'_>, low: Option<i64>, high: Option<i64>) -> bool {
    let key = node.key();
    if low.is_some_and(|l| key <= l) || high.is_some_and(|h| key >= h) {
        return false;
    }
    node.left().is_none_or(|left| ordered(left, low, Some(key)))
        && node.right().is_none_or(|right| ordered(right, Some(key), high))
}

/// The tree a candidate stands for: its reachable nodes in an arena.
pub fn to_rbt(tree: RbtModelView<'_>) -> RedBlackTree {
    let order = reachable_in_order(&[tree.root()], |n| vec![n.left(), n.right(), n.parent()]);
    let nodes = order
        .iter()
        .map(|n| {
            let key = i32::try_from(n.key()).expect("keys are small");
            let color = if n.color() == RED { Color::Red } else { Color::Black };
            (key, color, index_in(&order, n.left()), index_in(&order, n.right()), index_in(&order, n.parent()))
        })
        .collect();
    let size = usize::try_from(tree.size()).expect("a size is not negative");
    RedBlackTree::from_parts(nodes, index_in(&order, tree.root()), size)
}

smallscope::compare_subject!(
    "rbt",
    RedBlackTree,
    RbtModel,
    convert = to_rbt,
    invariants = { "red-root" => red_root_rep_ok, "black-root" => black_root_rep_ok },
    // Up to scope 7 at least, every black-rooted tree BEAPI misses at scope n
    // is built at n + 3 or less.
    recheck = 3
);

#[cfg(test)]
mod tests {
    use smallscope::compare::{compare, CompareOptions, Comparison, Verdict};

    use super::*;

    use crate::testing::compare_options as options;

    fn ncl(scope: u32, invariant: for<'c> fn(NclModelView<'c>) -> bool) -> Comparison {
        compare::<NodeCachingLinkedList, NclModel>(scope, invariant, to_ncl, &options(&["new", "add", "remove_first"]))
            .unwrap()
    }

    /// Whether the node printed right after `at` in `text` has a non-null value.
    fn holds_value(text: &str, at: &str) -> bool {
        let Some(start) = text.find(at) else { return false };
        let rest = &text[start + at.len()..];
        let value = rest.find("{value: ").map(|i| &rest[i + "{value: ".len()..]);
        value.is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
    }

    /// The paper's §2: the ROOPS invariant admits lists the API never builds,
    /// among them lists whose cache nodes or header hold a value.
    #[test]
    fn roops_invariant_is_too_weak() {
        for scope in 2..=4 {
            let c = ncl(scope, roops_rep_ok);
            assert_eq!(c.verdict, Verdict::InvariantTooWeak, "scope {scope}: {:?}", c.notes);
            assert!(c.only_api.is_empty());
            assert_eq!(c.both, c.api_structures, "scope {scope}");
            let texts: Vec<&str> = c.only_invariant.iter().map(|w| w.canonical.as_str()).collect();
            // The first cached node (reached from `first_cache_node`) holds a value.
            let cache_value = texts.iter().any(|t| holds_value(t, "first_cache_node: Node#"));
            let header_value = texts.iter().any(|t| holds_value(t, "NodeCachingLinkedList#0{header: Node#"));
            assert!(cache_value, "scope {scope}: no cache node with a value among {texts:#?}");
            assert!(header_value, "scope {scope}: no header with a value");
            // Smallest first.
            let sizes: Vec<usize> = c.only_invariant.iter().map(|w| w.objects).collect();
            assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
            assert_eq!(c.only_invariant[0].objects, 2, "a header with a value: the list and its header");
            assert!(c.only_invariant[0].dot.is_some());
        }
    }

    #[test]
    fn corrected_invariant_matches_the_api() {
        for scope in 1..=4 {
            let c = ncl(scope, rep_ok);
            assert_eq!(
                c.verdict,
                Verdict::Equal,
                "scope {scope}: {:?} {:?}",
                c.only_api.first(),
                c.only_invariant.first()
            );
            assert_eq!(c.api_structures, c.invariant_structures);
            assert_eq!(c.korat_found as usize, c.invariant_structures, "one candidate per structure");
        }
    }

    /// Too strong: no cache at all. The API's lists with cached nodes are
    /// witnesses, each with the calls that build it and its pictures.
    fn no_cache(list: NclModelView<'_>) -> bool {
        rep_ok(list) && list.first_cache_node().is_none()
    }

    #[test]
    fn an_invariant_without_a_cache_is_too_strong() {
        let c = ncl(3, no_cache);
        assert_eq!(c.verdict, Verdict::InvariantTooStrong);
        assert!(c.only_invariant.is_empty());
        assert_eq!(c.both + c.only_api.len(), c.api_structures);
        let first = &c.only_api[0];
        assert_eq!(first.objects, 3, "{}", first.canonical);
        assert!(first.canonical.contains("first_cache_node: Node#2{value: null"), "{}", first.canonical);
        assert_eq!(first.program.as_deref(), Some("s0 = new(); s0.add(0); s0.remove_first()"));
        assert_eq!(first.representative, Some(0));
        assert!(first.dot.as_deref().is_some_and(|d| d.contains("digraph")), "{:?}", first.dot);
        assert!(first.svg.is_some() || first.picture_error.is_some());
        assert!(c.only_api.iter().all(|w| w.program.is_some()));
    }

    /// Both ways: ROOPS's weakness, and no cache.
    fn roops_no_cache(list: NclModelView<'_>) -> bool {
        roops_rep_ok(list) && list.first_cache_node().is_none()
    }

    #[test]
    fn differences_both_ways_are_reported() {
        let c = ncl(3, roops_no_cache);
        assert_eq!(c.verdict, Verdict::Differ);
        assert!(!c.only_api.is_empty() && !c.only_invariant.is_empty());
        assert_eq!(c.both + c.only_api.len(), c.api_structures);
        assert_eq!(c.both + c.only_invariant.len(), c.invariant_structures);
    }

    #[test]
    fn red_root_invariant_admits_red_roots() {
        let c = compare::<RedBlackTree, RbtModel>(
            4,
            red_root_rep_ok,
            to_rbt,
            &CompareOptions { recheck: 2, ..options(&["new", "add", "remove"]) },
        )
        .unwrap();
        assert!(c.only_api.is_empty(), "{:?}", c.only_api.first());
        let red_roots: Vec<&str> = c
            .only_invariant
            .iter()
            .map(|w| w.canonical.as_str())
            .filter(|t| t.contains("root: Node#1{key: ") && t.split(", ").nth(1) == Some("color: Red"))
            .collect();
        assert!(!red_roots.is_empty(), "{:#?}", c.only_invariant);
        assert!(red_roots
            .iter()
            .all(|t| { c.only_invariant.iter().find(|w| w.canonical == *t).unwrap().api_at_scope.is_none() }));
        // The smallest witness: one red node.
        assert_eq!(c.only_invariant[0].objects, 2);
        assert!(c.only_invariant[0].canonical.contains("color: Red"), "{}", c.only_invariant[0].canonical);
    }

    /// TreeMap's invariant admits exactly the trees the API builds, but
    /// BEAPI at scope 5 misses two: they are built only through larger trees
    /// (paper §4.1), which the recheck finds, with the calls that build them.
    #[test]
    fn black_root_invariant_differs_only_by_scope() {
        let c = compare::<RedBlackTree, RbtModel>(
            5,
            black_root_rep_ok,
            to_rbt,
            &CompareOptions { recheck: 3, ..options(&["new", "add", "remove"]) },
        )
        .unwrap();
        assert!(c.only_api.is_empty(), "{:?}", c.only_api.first());
        assert_eq!(c.only_invariant.len(), 2, "{:#?}", c.only_invariant);
        assert_eq!(c.scope_artifacts, 2);
        for witness in &c.only_invariant {
            assert!(witness.api_at_scope.is_some_and(|s| s > 5), "{witness:?}");
            assert!(witness.program.as_deref().is_some_and(|p| p.contains("remove")), "{witness:?}");
        }
        assert!(c.notes.iter().any(|n| n.contains("scope artifacts")), "{:?}", c.notes);
    }
}
