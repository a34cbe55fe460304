//! Korat's `RedBlackTree` benchmark: red-black trees of `Node`s with parent
//! links, ordered keys and exactly `size` nodes. As in the original, the root
//! need not be black.
//!
//! Stock finitization `fin(n)`: n nodes; `root`, `left`, `right` and
//! `parent` range over null and the nodes; `size` is n; `key` is in -1..n-1
//! (-1 is rejected), `value` is 0 (never read), `color` is 0 (red) or 1
//! (black). With n distinct keys in 0..n-1, the in-order keys are forced.
//!
//! Read order, as the original's: `root`, `root.parent`; a breadth-first
//! walk reading `left`, then that child's `parent`, then `right` and its
//! `parent`; `size`; a second breadth-first walk reading `color`, and a red
//! node's children's colours (left first, stopping at the first red); a
//! third walk (node, left, right) for the black heights; then the keys,
//! depth first in pre-order.

use smallscope::korat::{BreadthFirst, Korat, Ref, ScratchVec};

const RED: i64 = 0;
const BLACK: i64 = 1;

#[derive(Korat)]
pub struct RedBlackTree {
    root: Option<Ref<Node>>,
    #[korat(ints = n..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct Node {
    #[korat(ints = -1..n)]
    key: i64,
    #[korat(ints = [0])]
    value: i64,
    left: Option<Ref<Node>>,
    right: Option<Ref<Node>>,
    parent: Option<Ref<Node>>,
    #[korat(ints = 0..=1)]
    color: i64,
}

/// A tree with consistent parent links and `size` nodes, no red node with a
/// red child, the same number of black nodes on every root-to-null path, and
/// keys (none -1) strictly increasing in order.
pub fn rep_ok(tree: RedBlackTreeView<'_>) -> bool {
    let Some(root) = tree.root() else {
        return tree.size() == 0;
    };
    if root.parent().is_some() {
        return false;
    }
    let mut walk = BreadthFirst::new(root);
    while let Some(current) = walk.next() {
        // `right` is read only once the left child passed.
        if !adopt(current, current.left(), &mut walk) || !adopt(current, current.right(), &mut walk) {
            return false;
        }
    }
    walk.reached() as i64 == tree.size() && colors_ok(root) && ordered_keys(root, None, None)
}

/// Adds `child` of `parent` to the walk: false if it was reached before or
/// its `parent` link is not `parent`.
fn adopt<'c>(parent: NodeView<'c>, child: Option<NodeView<'c>>, walk: &mut BreadthFirst<'c, NodeView<'c>>) -> bool {
    let Some(child) = child else { return true };
    if walk.contains(child) || child.parent() != Some(parent) {
        return false;
    }
    walk.add(child)
}

/// No red node has a red child; every path to null has as many black nodes.
fn colors_ok(root: NodeView<'_>) -> bool {
    let is_red = |node: Option<NodeView<'_>>| node.is_some_and(|n| n.color() == RED);
    // Breadth first, as a queue read from `next` on (the tree is known acyclic).
    let mut work = ScratchVec::new(root);
    work.push(root);
    let mut next = 0;
    while let Some(&current) = work.get(next) {
        next += 1;
        let (left, right) = (current.left(), current.right());
        if current.color() == RED && (is_red(left) || is_red(right)) {
            return false;
        }
        work.extend(left);
        work.extend(right);
    }
    let mut black_height = None;
    let mut paths = ScratchVec::new(root);
    paths.push((Some(root), 0));
    let mut next = 0;
    while let Some(&(node, mut blacks)) = paths.get(next) {
        next += 1;
        match node {
            Some(node) => {
                if node.color() == BLACK {
                    blacks += 1;
                }
                paths.push((node.left(), blacks));
                paths.push((node.right(), blacks));
            }
            None if *black_height.get_or_insert(blacks) != blacks => return false,
            None => {}
        }
    }
    true
}

/// Keys in the open interval (`min`, `max`), none -1, ordered in the subtree.
fn ordered_keys(node: NodeView<'_>, min: Option<i64>, max: Option<i64>) -> bool {
    let key = node.key();
    if key == -1 || min.is_some_and(|m| key <= m) || max.is_some_and(|m| key >= m) {
        return false;
    }
    node.left().is_none_or(|left| ordered_keys(left, min, Some(key)))
        && node.right().is_none_or(|right| ordered_keys(right, Some(key), max))
}

smallscope::korat_subject!("red-black-tree", RedBlackTree, rep_ok = rep_ok);
