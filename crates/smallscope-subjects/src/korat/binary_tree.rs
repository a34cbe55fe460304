//! Korat's `BinaryTree` benchmark: trees of `Node`s with exactly `size`
//! nodes. Stock finitization `fin(n)`: n nodes, `root`, `left` and `right`
//! range over null and the nodes, and `size` is n.
//!
//! The invariant reads fields in the original's order: `root`, then a
//! breadth-first walk reading `left` before `right`, then `size`, so the
//! explored counts are Korat's.

use smallscope::korat::{BreadthFirst, Korat, Ref};

#[derive(Korat)]
pub struct BinaryTree {
    root: Option<Ref<Node>>,
    #[korat(ints = n..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct Node {
    left: Option<Ref<Node>>,
    right: Option<Ref<Node>>,
}

/// Acyclic (no node reached twice) and `size` nodes.
pub fn rep_ok(tree: BinaryTreeView<'_>) -> bool {
    let Some(root) = tree.root() else {
        return tree.size() == 0;
    };
    // Scratch memory: no allocation per candidate.
    let mut walk = BreadthFirst::new(root);
    while let Some(current) = walk.next() {
        // `right` is read only once `left` passed, as in the original.
        if !walk.reach(current.left()) || !walk.reach(current.right()) {
            return false;
        }
    }
    walk.reached() as i64 == tree.size()
}

smallscope::korat_subject!("binary-tree", BinaryTree, rep_ok = rep_ok);
