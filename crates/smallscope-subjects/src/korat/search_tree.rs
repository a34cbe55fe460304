//! Korat's `SearchTree` benchmark: binary search trees of `Node`s with
//! exactly `size` nodes and strictly ordered `info` keys.
//!
//! Stock finitization `fin(n)` (`finSearchTree(n, n, n, 0, n - 1)`): n nodes;
//! `root`, `left` and `right` range over null and the nodes; `size` is n;
//! `info` ranges over `0..n`. Fields are declared in the finitization's order
//! (`root`, `size`; `left`, `right`, `info`).
//!
//! Read order, as in the original `repOK`: `root` (if null, `size`); then the
//! acyclicity walk of `BinaryTree` (breadth first, `left` then `right`, each
//! checked before the next read); then `size` (the node count reads only
//! fields already read); then the keys in pre-order, each checked against
//! the bounds its ancestors set before its children are visited. So the
//! search is `BinaryTree`'s, with a search over the keys wherever
//! `BinaryTree` finds a tree.

use smallscope::korat::{BreadthFirst, Korat, Ref};

#[derive(Korat)]
pub struct SearchTree {
    root: Option<Ref<Node>>,
    #[korat(ints = n..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct Node {
    left: Option<Ref<Node>>,
    right: Option<Ref<Node>>,
    #[korat(ints = 0..n)]
    info: i64,
}

/// A tree (no node reached twice) of `size` nodes whose keys are ordered.
pub fn rep_ok(tree: SearchTreeView<'_>) -> bool {
    let Some(root) = tree.root() else {
        return tree.size() == 0;
    };
    let Some(nodes) = acyclic(root) else {
        return false;
    };
    nodes as i64 == tree.size() && ordered(root, None, None)
}

/// Breadth-first walk reading `left`, then `right`; the node count, or
/// `None` if a node is reached twice.
fn acyclic(root: NodeView<'_>) -> Option<usize> {
    let mut walk = BreadthFirst::new(root);
    while let Some(current) = walk.next() {
        // `right` is read only once `left` passed.
        if !walk.reach(current.left()) || !walk.reach(current.right()) {
            return None;
        }
    }
    Some(walk.reached())
}

/// Keys strictly between `min` and `max` (`None`: unbounded), in pre-order.
fn ordered(node: NodeView<'_>, min: Option<i64>, max: Option<i64>) -> bool {
    let info = node.info();
    if min.is_some_and(|min| info <= min) || max.is_some_and(|max| info >= max) {
        return false;
    }
    node.left().is_none_or(|left| ordered(left, min, Some(info)))
        && node.right().is_none_or(|right| ordered(right, Some(info), max))
}

smallscope::korat_subject!("search-tree", SearchTree, rep_ok = rep_ok);
