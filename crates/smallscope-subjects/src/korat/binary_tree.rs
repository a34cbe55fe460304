//! Korat's `BinaryTree` benchmark: trees of `Node`s with exactly `size`
//! nodes. Stock finitization `fin(n)`: n nodes, `root`, `left` and `right`
//! range over null and the nodes, and `size` is n.
//!
//! The invariant reads fields in the original's order: `root`, then a
//! breadth-first walk reading `left` before `right`, then `size`, so the
//! explored counts are Korat's.

use smallscope::korat::{Korat, Ref};

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
    // Breadth first: `visited` is also the queue, read from `next` on.
    let mut visited = Vec::with_capacity(16);
    visited.push(root);
    let mut next = 0;
    while let Some(&current) = visited.get(next) {
        next += 1;
        // `right` is read only once `left` passed, as in the original.
        if !reach(current.left(), &mut visited) || !reach(current.right(), &mut visited) {
            return false;
        }
    }
    visited.len() as i64 == tree.size()
}

/// Adds a child to the walk; false if it was reached before.
fn reach<'c>(child: Option<NodeView<'c>>, visited: &mut Vec<NodeView<'c>>) -> bool {
    match child {
        Some(child) if visited.contains(&child) => false,
        Some(child) => {
            visited.push(child);
            true
        }
        None => true,
    }
}

smallscope::korat_subject!("binary-tree", BinaryTree, rep_ok = rep_ok);
