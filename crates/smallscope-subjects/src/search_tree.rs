//! Read-only queries shared by the `Box`-linked binary search trees (`bst`,
//! `avl`): lookups, extremes, floor and ceiling, height, in-order keys, and
//! the order-and-count part of their `rep_ok`. Each subject's node type
//! implements [`BinaryNode`]; its API methods delegate here.
//!
//! Keys are distinct and ordered left < node < right. A `Box` tree cannot
//! share or cycle, so plain walks terminate.

/// A node of a binary search tree over distinct `i32` keys.
pub(crate) trait BinaryNode {
    fn key(&self) -> i32;
    fn left(&self) -> Option<&Self>;
    fn right(&self) -> Option<&Self>;
}

/// Whether `key` is in the tree.
pub(crate) fn contains<N: BinaryNode>(root: Option<&N>, key: i32) -> bool {
    let mut cur = root;
    while let Some(node) = cur {
        if key < node.key() {
            cur = node.left();
        } else if key > node.key() {
            cur = node.right();
        } else {
            return true;
        }
    }
    false
}

/// The smallest key, `None` for an empty tree.
pub(crate) fn min<N: BinaryNode>(root: Option<&N>) -> Option<i32> {
    let mut node = root?;
    while let Some(left) = node.left() {
        node = left;
    }
    Some(node.key())
}

/// The largest key, `None` for an empty tree.
pub(crate) fn max<N: BinaryNode>(root: Option<&N>) -> Option<i32> {
    let mut node = root?;
    while let Some(right) = node.right() {
        node = right;
    }
    Some(node.key())
}

/// The greatest key `<= key`.
pub(crate) fn floor<N: BinaryNode>(root: Option<&N>, key: i32) -> Option<i32> {
    let mut best = None;
    let mut cur = root;
    while let Some(node) = cur {
        if key < node.key() {
            cur = node.left();
        } else if key > node.key() {
            best = Some(node.key());
            cur = node.right();
        } else {
            return Some(node.key());
        }
    }
    best
}

/// The least key `>= key`.
pub(crate) fn ceiling<N: BinaryNode>(root: Option<&N>, key: i32) -> Option<i32> {
    let mut best = None;
    let mut cur = root;
    while let Some(node) = cur {
        if key < node.key() {
            best = Some(node.key());
            cur = node.left();
        } else if key > node.key() {
            cur = node.right();
        } else {
            return Some(node.key());
        }
    }
    best
}

/// Number of nodes on the longest root-to-leaf path (0 for an empty tree).
pub(crate) fn height<N: BinaryNode>(root: Option<&N>) -> usize {
    root.map_or(0, |n| 1 + height(n.left()).max(height(n.right())))
}

/// The keys in increasing order.
pub(crate) fn keys_in_order<N: BinaryNode>(root: Option<&N>, capacity: usize) -> Vec<i32> {
    fn walk<N: BinaryNode>(node: Option<&N>, out: &mut Vec<i32>) {
        if let Some(n) = node {
            walk(n.left(), out);
            out.push(n.key());
            walk(n.right(), out);
        }
    }
    let mut out = Vec::with_capacity(capacity);
    walk(root, &mut out);
    out
}

/// The common part of a search tree's `rep_ok`: the keys strictly increase
/// in order, `node_ok(node, left_height, right_height)` holds at every node,
/// and the tree has `size` nodes.
pub(crate) fn is_search_tree<N: BinaryNode>(
    root: Option<&N>,
    size: usize,
    node_ok: impl Fn(&N, usize, usize) -> bool,
) -> bool {
    /// Returns the subtree's height, or `None` if it breaks a rule.
    fn check<N: BinaryNode>(
        node: Option<&N>,
        lo: Option<i32>,
        hi: Option<i32>,
        count: &mut usize,
        node_ok: &impl Fn(&N, usize, usize) -> bool,
    ) -> Option<usize> {
        let Some(n) = node else { return Some(0) };
        if lo.is_some_and(|lo| n.key() <= lo) || hi.is_some_and(|hi| n.key() >= hi) {
            return None;
        }
        *count += 1;
        let lh = check(n.left(), lo, Some(n.key()), count, node_ok)?;
        let rh = check(n.right(), Some(n.key()), hi, count, node_ok)?;
        node_ok(n, lh, rh).then_some(1 + lh.max(rh))
    }
    let mut count = 0;
    check(root, None, None, &mut count, &node_ok).is_some() && count == size
}
