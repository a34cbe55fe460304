//! Korat models of the tree-shaped BEAPI subjects, with the conversions that
//! make a candidate a real value, for `smallscope compare` (BEAPI paper,
//! §4.3). The pattern is [`compare_models`](super::compare_models)'s.
//!
//! Each model is shaped like the subject's heap (same classes, same fields
//! in the same order), and its finitization at scope n bounds what BEAPI's
//! scope n bounds: at most n nodes reachable from the root, keys `0..n` (the
//! integer arguments), and the derived fields (`size`, heights, degrees) in
//! ranges that hold every value a structure of at most n nodes can have.
//!
//! - `bst`: [`BstModel`] for [`BinarySearchTree`], with [`bst_rep_ok`] (the
//!   subject's invariant). The sets are equal.
//! - `avl`: [`AvlModel`] for [`AvlTree`], with [`avl_rep_ok`] (the subject's
//!   invariant: order, stored heights, balance, size) and a deliberately
//!   weakened [`avl_no_balance_rep_ok`] that forgets the balance condition:
//!   with it SA ⊂ SR, the invariant-only witnesses being unbalanced trees
//!   with honest heights.
//! - `binheap`: [`BinheapModel`] for [`BinomialHeap`], with
//!   [`binheap_rep_ok`] (the subject's invariant, CLRS child order: a node
//!   of degree k has children of degrees k-1, .., 0 along `child` then
//!   `sibling`). Keys may repeat. The sets are equal.

use smallscope::compare::{index_in, reachable_in_order};
use smallscope::korat::{Korat, Ref};

use crate::avl::AvlTree;
use crate::binheap::BinomialHeap;
use crate::bst::BinarySearchTree;

/// How many nodes `root` reaches through `left` and `right` if they form a
/// tree (no node reached twice, as the subjects' `Box`es cannot share);
/// `None` otherwise. Breadth first, each link checked as soon as it is read,
/// so Korat backtracks on the link that shares (checking later, after other
/// reads, made the search 70 times longer at scope 7).
fn tree_size<V: Copy + PartialEq>(
    root: Option<V>,
    left: impl Fn(V) -> Option<V>,
    right: impl Fn(V) -> Option<V>,
) -> Option<i64> {
    let mut seen: Vec<V> = root.into_iter().collect();
    let mut i = 0;
    while i < seen.len() {
        let node = seen[i];
        for link in [&left as &dyn Fn(V) -> Option<V>, &right] {
            if let Some(child) = link(node) {
                if seen.contains(&child) {
                    return None;
                }
                seen.push(child);
            }
        }
        i += 1;
    }
    Some(seen.len() as i64)
}

fn small(value: i64) -> i32 {
    i32::try_from(value).expect("model integers are small")
}

fn count(value: i64) -> usize {
    usize::try_from(value).expect("a count is not negative")
}

// ---------------------------------------------------------------------------
// BinarySearchTree
// ---------------------------------------------------------------------------

/// `BinarySearchTree`: a root and a size (`0..=n`: a tree of n nodes).
#[derive(Korat)]
pub struct BstModel {
    root: Option<Ref<BstNode>>,
    #[korat(ints = 0..=n)]
    size: i64,
}

/// A node: a key in `0..n` and two children.
#[derive(Korat)]
#[korat(objects = n)]
pub struct BstNode {
    #[korat(ints = 0..n)]
    key: i64,
    left: Option<Ref<BstNode>>,
    right: Option<Ref<BstNode>>,
}

/// `BinarySearchTree::rep_ok`: the nodes form a tree (no node reached twice:
/// the subject's `Box`es cannot share), `size` of them, with keys strictly
/// increasing in order.
pub fn bst_rep_ok(tree: BstModelView<'_>) -> bool {
    tree_size(tree.root(), |n| n.left(), |n| n.right()) == Some(tree.size())
        && tree.root().is_none_or(|root| bst_ordered(root, None, None))
}

fn bst_ordered(node: BstNodeView<'_>, low: Option<i64>, high: Option<i64>) -> bool {
    let key = node.key();
    if low.is_some_and(|l| key <= l) || high.is_some_and(|h| key >= h) {
        return false;
    }
    node.left().is_none_or(|left| bst_ordered(left, low, Some(key)))
        && node.right().is_none_or(|right| bst_ordered(right, Some(key), high))
}

/// The tree a candidate stands for.
pub fn to_bst(tree: BstModelView<'_>) -> BinarySearchTree {
    let order = reachable_in_order(&[tree.root()], |n| vec![n.left(), n.right()]);
    let nodes =
        order.iter().map(|n| (small(n.key()), index_in(&order, n.left()), index_in(&order, n.right()))).collect();
    BinarySearchTree::from_parts(nodes, index_in(&order, tree.root()), count(tree.size()))
}

smallscope::compare_subject!(
    "bst",
    BinarySearchTree,
    BstModel,
    convert = to_bst,
    invariants = { "correct" => bst_rep_ok }
);

// ---------------------------------------------------------------------------
// AvlTree
// ---------------------------------------------------------------------------

/// `AvlTree`: a root and a size.
#[derive(Korat)]
pub struct AvlModel {
    root: Option<Ref<AvlNode>>,
    #[korat(ints = 0..=n)]
    size: i64,
}

/// A node: a key in `0..n`, its stored height (a leaf has 1; a tree of n
/// nodes is at most n high, so `1..=n` holds every honest height, balanced
/// or not), and two children.
#[derive(Korat)]
#[korat(objects = n)]
pub struct AvlNode {
    #[korat(ints = 0..n)]
    key: i64,
    #[korat(ints = 1..=n)]
    height: i64,
    left: Option<Ref<AvlNode>>,
    right: Option<Ref<AvlNode>>,
}

/// `AvlTree::rep_ok`: a tree of `size` nodes, keys strictly increasing in
/// order, every stored height 1 + the larger child height, and sibling
/// heights differing by at most 1.
pub fn avl_rep_ok(tree: AvlModelView<'_>) -> bool {
    avl_check(tree, true)
}

/// Deliberately weakened: [`avl_rep_ok`] without the balance condition. It
/// still checks order, size and honest heights, so it admits every binary
/// search tree of at most n nodes, balanced or not.
pub fn avl_no_balance_rep_ok(tree: AvlModelView<'_>) -> bool {
    avl_check(tree, false)
}

/// The shape first (a tree of `size` nodes), then its heights (honest, and
/// balanced if `balanced`), then the keys: so Korat prunes a shape or a
/// height before it tries keys in it. `AvlTree::rep_ok` checks the same
/// conditions in one walk.
fn avl_check(tree: AvlModelView<'_>, balanced: bool) -> bool {
    tree_size(tree.root(), |n| n.left(), |n| n.right()) == Some(tree.size())
        && tree.root().is_none_or(|root| avl_height(root, balanced).is_some() && avl_ordered(root, None, None))
}

/// The subtree's height if every stored height in it is 1 + the larger
/// child height (and, if `balanced`, sibling heights differ by at most 1).
fn avl_height(node: AvlNodeView<'_>, balanced: bool) -> Option<i64> {
    let lh = node.left().map_or(Some(0), |left| avl_height(left, balanced))?;
    let rh = node.right().map_or(Some(0), |right| avl_height(right, balanced))?;
    let height = 1 + lh.max(rh);
    (node.height() == height && (!balanced || (lh - rh).abs() <= 1)).then_some(height)
}

/// Keys strictly increase in order.
fn avl_ordered(node: AvlNodeView<'_>, low: Option<i64>, high: Option<i64>) -> bool {
    let key = node.key();
    if low.is_some_and(|l| key <= l) || high.is_some_and(|h| key >= h) {
        return false;
    }
    node.left().is_none_or(|left| avl_ordered(left, low, Some(key)))
        && node.right().is_none_or(|right| avl_ordered(right, Some(key), high))
}

/// The tree a candidate stands for.
pub fn to_avl(tree: AvlModelView<'_>) -> AvlTree {
    let order = reachable_in_order(&[tree.root()], |n| vec![n.left(), n.right()]);
    let nodes = order
        .iter()
        .map(|n| (small(n.key()), small(n.height()), index_in(&order, n.left()), index_in(&order, n.right())))
        .collect();
    AvlTree::from_parts(nodes, index_in(&order, tree.root()), count(tree.size()))
}

smallscope::compare_subject!(
    "avl",
    AvlTree,
    AvlModel,
    convert = to_avl,
    invariants = { "correct" => avl_rep_ok, "no-balance-check" => avl_no_balance_rep_ok }
);

// ---------------------------------------------------------------------------
// BinomialHeap
// ---------------------------------------------------------------------------

/// `BinomialHeap`: the head of the root list and a size. The subject's
/// arena (`nodes`) is not a field here: its elements are the model's
/// [`BinheapNode`] objects, reached only through the links, as the
/// canonical form reaches them; the free list is `#[heap(skip)]`.
#[derive(Korat)]
pub struct BinheapModel {
    head: Option<Ref<BinheapNode>>,
    #[korat(ints = 0..=n)]
    size: i64,
}

/// A node, with the subject's fields in its order: a key in `0..n` (keys may
/// repeat), a degree (a node of degree k roots 2^k nodes, so `0..n` holds
/// every degree within n nodes), and the `parent`, `child` and `sibling`
/// links.
#[derive(Korat)]
#[korat(objects = n)]
pub struct BinheapNode {
    #[korat(ints = 0..n)]
    key: i64,
    #[korat(ints = 0..n)]
    degree: i64,
    parent: Option<Ref<BinheapNode>>,
    child: Option<Ref<BinheapNode>>,
    sibling: Option<Ref<BinheapNode>>,
}

/// `BinomialHeap::rep_ok`: along the root list from `head`, each root new
/// and parentless, degrees strictly increasing; each tree binomial in CLRS
/// order (a node of degree k has exactly k children, of degrees k-1, .., 0
/// along `child` then `sibling`, each new, with its `parent` back and a key
/// no smaller than its parent's); `size` nodes in all. (The subject's free
/// list is empty in a converted candidate.)
pub fn binheap_rep_ok(heap: BinheapModelView<'_>) -> bool {
    let mut visited = Vec::new();
    let mut last_degree = None;
    let mut r = heap.head();
    while let Some(root) = r {
        if visited.contains(&root) || root.parent().is_some() {
            return false;
        }
        let degree = root.degree();
        if last_degree.is_some_and(|last| degree <= last) {
            return false;
        }
        last_degree = Some(degree);
        if !binomial_tree(root, &mut visited) {
            return false;
        }
        r = root.sibling();
    }
    visited.len() as i64 == heap.size()
}

/// `BinomialHeap::check_tree`: the tree rooted at `x` (new, already checked
/// against its parent) is binomial and heap-ordered; its nodes are marked.
fn binomial_tree<'c>(x: BinheapNodeView<'c>, visited: &mut Vec<BinheapNodeView<'c>>) -> bool {
    visited.push(x);
    let mut c = x.child();
    for expected in (0..x.degree()).rev() {
        let Some(child) = c else { return false };
        if visited.contains(&child) {
            return false;
        }
        if child.degree() != expected || child.parent() != Some(x) || child.key() < x.key() {
            return false;
        }
        if !binomial_tree(child, visited) {
            return false;
        }
        c = child.sibling();
    }
    c.is_none()
}

/// The heap a candidate stands for: its reachable nodes in an arena.
pub fn to_binheap(heap: BinheapModelView<'_>) -> BinomialHeap {
    let order = reachable_in_order(&[heap.head()], |n| vec![n.parent(), n.child(), n.sibling()]);
    let nodes = order
        .iter()
        .map(|n| {
            (
                small(n.key()),
                count(n.degree()),
                index_in(&order, n.parent()),
                index_in(&order, n.child()),
                index_in(&order, n.sibling()),
            )
        })
        .collect();
    BinomialHeap::from_parts(nodes, index_in(&order, heap.head()), count(heap.size()))
}

smallscope::compare_subject!(
    "binheap",
    BinomialHeap,
    BinheapModel,
    convert = to_binheap,
    invariants = { "correct" => binheap_rep_ok }
);

#[cfg(test)]
mod tests {
    use smallscope::compare::{compare, Comparison, Verdict};
    use smallscope::korat::Model;
    use smallscope::Subject;

    use super::*;

    use crate::testing::compare_options as options;

    /// Asserts the sets are equal at scopes 1..=4, one candidate per
    /// structure; returns (|SA|, |SR|, |both|) per scope.
    fn equal_up_to_4<T: Subject + smallscope::api::StdTraits, M: Model>(
        rep_ok: for<'c> fn(M::View<'c>) -> bool,
        convert: for<'c> fn(M::View<'c>) -> T,
        builders: &[&str],
    ) -> Vec<(usize, usize, usize)> {
        (1..=4)
            .map(|scope| {
                let c: Comparison = compare::<T, M>(scope, rep_ok, convert, &options(builders)).unwrap();
                assert_eq!(
                    c.verdict,
                    Verdict::Equal,
                    "scope {scope}: {:?} {:?} {:?}",
                    c.only_api.first(),
                    c.only_invariant.first(),
                    c.notes
                );
                assert_eq!(c.api_structures, c.invariant_structures);
                assert_eq!(c.both, c.api_structures);
                assert_eq!(
                    c.korat_found as usize, c.invariant_structures,
                    "scope {scope}: one candidate per structure"
                );
                (c.api_structures, c.invariant_structures, c.both)
            })
            .collect()
    }

    /// `sum_k C(n, k) * Catalan(k)` binary search trees over subsets of `0..n`.
    #[test]
    fn bst_invariant_matches_the_api() {
        let counts = equal_up_to_4::<BinarySearchTree, BstModel>(bst_rep_ok, to_bst, &["new", "add", "remove"]);
        assert_eq!(counts.iter().map(|c| c.0).collect::<Vec<_>>(), [2, 5, 15, 51]);
    }

    #[test]
    fn avl_invariant_matches_the_api() {
        let counts = equal_up_to_4::<AvlTree, AvlModel>(avl_rep_ok, to_avl, &["new", "add", "remove"]);
        // sum_k C(n, k) * A(k), A = 1, 1, 2, 1, 4 AVL shapes of 0..4 nodes.
        assert_eq!(counts.iter().map(|c| c.0).collect::<Vec<_>>(), [2, 5, 11, 25]);
    }

    #[test]
    fn binheap_invariant_matches_the_api() {
        let counts = equal_up_to_4::<BinomialHeap, BinheapModel>(
            binheap_rep_ok,
            to_binheap,
            &["new", "insert", "extract_min", "decrease_key", "delete"],
        );
        // Heap-ordered key assignments over 0..n of the binomial trees whose
        // degrees are the bits of each size: every one is built, through
        // `insert` alone even (hill climbing picks `new, insert`).
        assert_eq!(counts.iter().map(|c| c.0).collect::<Vec<_>>(), [2, 6, 28, 120]);
    }

    #[test]
    fn comparisons_are_registered() {
        for name in ["bst", "avl", "binheap"] {
            assert!(smallscope::compare::find_comparison(name).is_some(), "{name}");
        }
        let avl = smallscope::compare::find_comparison("avl").unwrap();
        assert_eq!(avl.invariants, ["correct", "no-balance-check"]);
        let weak = (avl.run)(3, "no-balance-check", &options(&["new", "add"])).unwrap();
        assert_eq!((weak.invariant.as_str(), weak.verdict), ("no-balance-check", Verdict::InvariantTooWeak));
        assert!((avl.run)(2, "balanced", &options(&["new", "add"])).is_err());
    }

    /// Without the balance check the invariant admits unbalanced search
    /// trees with honest heights, which the API never builds.
    #[test]
    fn avl_without_balance_check_is_too_weak() {
        let c = compare::<AvlTree, AvlModel>(3, avl_no_balance_rep_ok, to_avl, &options(&["new", "add", "remove"]))
            .unwrap();
        assert_eq!(c.verdict, Verdict::InvariantTooWeak, "{:?}", c.notes);
        assert!(c.only_api.is_empty());
        assert_eq!(c.both, c.api_structures);
        // Every binary search tree over subsets of 0..3: 15, of which 11 are
        // AVL trees; the other 4 are the chains over 0, 1, 2.
        assert_eq!(c.invariant_structures, 15);
        assert_eq!(c.only_invariant.len(), 4);
        // Trees of at most 2 nodes are balanced: a witness is a chain of 3
        // nodes, its root 3 high.
        for witness in &c.only_invariant {
            assert_eq!(witness.objects, 4, "{}", witness.canonical);
            assert!(witness.canonical.starts_with("AvlTree#0{root: Node#1{key: "), "{}", witness.canonical);
            assert!(witness.canonical.contains("height: 3"), "{}", witness.canonical);
        }
        let first = &c.only_invariant[0];
        assert_eq!(first.representative, Some(0));
        assert!(first.dot.as_deref().is_some_and(|d| d.contains("digraph")), "{:?}", first.dot);
    }
}
