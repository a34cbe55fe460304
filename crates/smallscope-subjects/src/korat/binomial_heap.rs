//! Korat's `BinomialHeap` benchmark: a list of binomial trees (through
//! `sibling`), each node's children a `sibling` list from `child`, with
//! parent links, binomial degrees matching the binary digits of `size`, and
//! heap-ordered keys (equal keys allowed).
//!
//! Stock finitization `fin(n)`: n nodes; `Nodes`, `parent`, `sibling` and
//! `child` range over null and the nodes; `size` is in 0..n; `key` in 1..n;
//! `degree` in 0..n.
//!
//! Read order, as the original's: `size` (and `Nodes` alone if it is 0);
//! `Nodes`; along the root list, each root's `parent`, then depth first its
//! `child` list (each child's `parent`, `child`, then its `sibling`), then
//! the root's `sibling`; then the degrees along the same walk; then the keys,
//! a parent's before each child's. A lone node's key is never read.

use smallscope::korat::{Korat, Ref};

#[derive(Korat)]
pub struct BinomialHeap {
    nodes: Option<Ref<Node>>,
    #[korat(ints = 0..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct Node {
    #[korat(ints = 1..=n)]
    key: i64,
    #[korat(ints = 0..=n)]
    degree: i64,
    parent: Option<Ref<Node>>,
    sibling: Option<Ref<Node>>,
    child: Option<Ref<Node>>,
}

/// The node lists form trees (no node reached twice, parent links right),
/// `size` nodes in all, the roots' degrees are the positions of the 1 bits
/// of `size` in increasing order, each tree is binomial, keys heap-ordered.
pub fn rep_ok(heap: BinomialHeapView<'_>) -> bool {
    if heap.size() == 0 {
        return heap.nodes().is_none();
    }
    let Some(first) = heap.nodes() else {
        return false;
    };
    let mut visited = Vec::new();
    for root in siblings(Some(first)) {
        if visited.contains(&root) {
            return false;
        }
        visited.push(root);
        if !is_tree(root, None, &mut visited) {
            return false;
        }
    }
    visited.len() as i64 == heap.size() && degrees_ok(first, heap.size()) && siblings(Some(first)).all(heapified)
}

/// `first` and the nodes its `sibling` links reach. Unlike
/// `std::iter::successors`, a node's `sibling` is read only when the walk
/// moves past it, as in Java's `for (..; ..; current = current.sibling)`.
fn siblings(first: Option<NodeView<'_>>) -> Siblings<'_> {
    Siblings { first, last: None }
}

struct Siblings<'c> {
    first: Option<NodeView<'c>>,
    last: Option<NodeView<'c>>,
}

impl<'c> Iterator for Siblings<'c> {
    type Item = NodeView<'c>;
    fn next(&mut self) -> Option<NodeView<'c>> {
        self.last = match self.last {
            Some(last) => last.sibling(),
            None => self.first.take(),
        };
        self.last
    }
}

/// `node.parent` is `parent`, and its child lists are trees of new nodes.
fn is_tree<'c>(node: NodeView<'c>, parent: Option<NodeView<'c>>, visited: &mut Vec<NodeView<'c>>) -> bool {
    if node.parent() != parent {
        return false;
    }
    for child in siblings(node.child()) {
        // Marked before its subtree is walked, so a cycle stops there.
        if visited.contains(&child) {
            return false;
        }
        visited.push(child);
        if !is_tree(child, Some(node), visited) {
            return false;
        }
    }
    true
}

/// The roots' degrees follow the binary digits of `size`, and each tree is
/// binomial: a node of degree d has children of degrees d-1, ..., 0.
fn degrees_ok(first: NodeView<'_>, size: i64) -> bool {
    let mut rest = size;
    let mut right_degree = 0;
    for root in siblings(Some(first)) {
        if rest == 0 {
            return false;
        }
        while rest & 1 == 0 {
            right_degree += 1;
            rest /= 2;
        }
        if root.degree() != right_degree || !binomial(root, right_degree) {
            return false;
        }
        right_degree += 1;
        rest /= 2;
    }
    rest == 0
}

/// The children of `node` have degrees `degree`-1 down to 0, recursively.
fn binomial(node: NodeView<'_>, mut degree: i64) -> bool {
    for child in siblings(node.child()) {
        degree -= 1;
        if child.degree() != degree || !binomial(child, degree) {
            return false;
        }
    }
    degree == 0
}

/// Every child's key is at least its parent's.
fn heapified(node: NodeView<'_>) -> bool {
    siblings(node.child()).all(|child| node.key() <= child.key() && heapified(child))
}

smallscope::korat_subject!("binomial-heap", BinomialHeap, rep_ok = rep_ok);
