//! `avl`: an AVL tree of distinct `i32` keys with stored subtree heights.
//!
//! Ports the `AvlTree` subject of the ROOPS / BEAPI benchmarks (the classic
//! Weiss `AvlTree`): each node stores its height, and after every insertion or
//! removal the path back to the root is rebalanced with single or double
//! rotations so that sibling subtrees differ in height by at most one.
//!
//! Heap shape: `AvlTree { root: Option<Box<Node>>, size }`, each
//! `Node { key, height, left, right }` owned by its parent through a `Box`.
//! A leaf has height 1; an empty subtree counts as 0.
//!
//! `remove` of a node with two children replaces its key by the in-order
//! successor's and removes the successor from the right subtree.
//!
//! Every AVL tree over a subset of the keys can be built by `new` and `add`
//! alone (as the BEAPI paper observes), so at scope N with keys `0..N` there are
//! `sum_k C(N,k) * A(k)` structures, A(k) being the number of AVL shapes of size k.
//!
//! No planted bug.

use smallscope::Heap;

use crate::search_tree::{self, BinaryNode};

/// A call on an empty tree that Java would answer with `NoSuchElementException`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoSuchElement;

#[derive(Heap, Clone, Debug, Default)]
pub struct AvlTree {
    root: Option<Box<Node>>,
    size: usize,
}

#[derive(Heap, Clone, Debug)]
struct Node {
    key: i32,
    height: i32,
    left: Option<Box<Node>>,
    right: Option<Box<Node>>,
}

type Link = Option<Box<Node>>;

fn height(link: &Link) -> i32 {
    link.as_ref().map_or(0, |n| n.height)
}

impl BinaryNode for Node {
    fn key(&self) -> i32 {
        self.key
    }

    fn left(&self) -> Option<&Self> {
        self.left.as_deref()
    }

    fn right(&self) -> Option<&Self> {
        self.right.as_deref()
    }
}

impl Node {
    fn update(&mut self) {
        self.height = 1 + height(&self.left).max(height(&self.right));
    }

    fn balance(&self) -> i32 {
        height(&self.left) - height(&self.right)
    }
}

/// Rotates `node`'s left child up (Weiss: `rotateWithLeftChild`).
fn rotate_right(mut node: Box<Node>) -> Box<Node> {
    let mut l = node.left.take().expect("rotate_right needs a left child");
    node.left = l.right.take();
    node.update();
    l.right = Some(node);
    l.update();
    l
}

/// Rotates `node`'s right child up (Weiss: `rotateWithRightChild`).
fn rotate_left(mut node: Box<Node>) -> Box<Node> {
    let mut r = node.right.take().expect("rotate_left needs a right child");
    node.right = r.left.take();
    node.update();
    r.left = Some(node);
    r.update();
    r
}

/// Restores the AVL property at `node`, whose children are AVL trees differing in height by at most 2.
fn rebalance(mut node: Box<Node>) -> Box<Node> {
    node.update();
    let b = node.balance();
    if b > 1 {
        let left = node.left.as_ref().expect("left-heavy node has a left child");
        if left.balance() < 0 {
            node.left = Some(rotate_left(node.left.take().expect("checked")));
        }
        rotate_right(node)
    } else if b < -1 {
        let right = node.right.as_ref().expect("right-heavy node has a right child");
        if right.balance() > 0 {
            node.right = Some(rotate_right(node.right.take().expect("checked")));
        }
        rotate_left(node)
    } else {
        node
    }
}

/// Inserts `key` below `link`; returns whether it was new.
fn insert(link: &mut Link, key: i32) -> bool {
    let Some(node) = link else {
        *link = Some(Box::new(Node { key, height: 1, left: None, right: None }));
        return true;
    };
    let added = if key < node.key {
        insert(&mut node.left, key)
    } else if key > node.key {
        insert(&mut node.right, key)
    } else {
        false
    };
    if added {
        let node = link.take().expect("present");
        *link = Some(rebalance(node));
    }
    added
}

/// Removes the leftmost node below the non-empty `link`, rebalancing on the way up; returns its key.
fn remove_min_node(link: &mut Link) -> i32 {
    let node = link.as_mut().expect("non-empty");
    if node.left.is_some() {
        let key = remove_min_node(&mut node.left);
        let node = link.take().expect("present");
        *link = Some(rebalance(node));
        key
    } else {
        let mut node = link.take().expect("present");
        *link = node.right.take();
        node.key
    }
}

/// Removes `key` below `link`; returns whether it was present.
fn delete(link: &mut Link, key: i32) -> bool {
    let Some(node) = link else {
        return false;
    };
    if key < node.key {
        if !delete(&mut node.left, key) {
            return false;
        }
    } else if key > node.key {
        if !delete(&mut node.right, key) {
            return false;
        }
    } else if node.left.is_some() && node.right.is_some() {
        node.key = remove_min_node(&mut node.right);
    } else {
        let mut node = link.take().expect("present");
        *link = node.left.take().or(node.right.take());
        return true;
    }
    let node = link.take().expect("present");
    *link = Some(rebalance(node));
    true
}

#[smallscope::api(name = "avl", rep_ok = rep_ok)]
impl AvlTree {
    /// An empty tree.
    pub fn new() -> Self {
        AvlTree { root: None, size: 0 }
    }

    /// Inserts `key`; returns `false` (and changes nothing) if it is already present.
    pub fn add(&mut self, key: i32) -> bool {
        let added = insert(&mut self.root, key);
        if added {
            self.size += 1;
        }
        added
    }

    /// Removes `key`; returns whether it was present.
    pub fn remove(&mut self, key: i32) -> bool {
        let removed = delete(&mut self.root, key);
        if removed {
            self.size -= 1;
        }
        removed
    }

    /// Whether `key` is in the tree.
    pub fn contains(&self, key: i32) -> bool {
        search_tree::contains(self.root.as_deref(), key)
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Removes every key.
    pub fn clear(&mut self) {
        self.root = None;
        self.size = 0;
    }

    /// The smallest key.
    pub fn min(&self) -> Result<i32, NoSuchElement> {
        search_tree::min(self.root.as_deref()).ok_or(NoSuchElement)
    }

    /// The largest key.
    pub fn max(&self) -> Result<i32, NoSuchElement> {
        search_tree::max(self.root.as_deref()).ok_or(NoSuchElement)
    }

    /// Removes and returns the smallest key.
    pub fn remove_min(&mut self) -> Result<i32, NoSuchElement> {
        if self.root.is_none() {
            return Err(NoSuchElement);
        }
        self.size -= 1;
        Ok(remove_min_node(&mut self.root))
    }

    /// Removes and returns the largest key.
    pub fn remove_max(&mut self) -> Result<i32, NoSuchElement> {
        // A path call: `self.max()` on `&mut Self` would pick `Ord::max`.
        let key = Self::max(self)?;
        self.remove(key);
        Ok(key)
    }

    /// The stored height of the root (0 for an empty tree).
    pub fn height(&self) -> i32 {
        height(&self.root)
    }

    /// The invariant: BST order, correct stored heights, balance factors in
    /// `-1..=1`, and `size` = node count.
    pub fn rep_ok(&self) -> bool {
        search_tree::is_search_tree(self.root.as_deref(), self.size, |n, lh, rh| {
            lh.abs_diff(rh) <= 1 && usize::try_from(n.height) == Ok(1 + lh.max(rh))
        })
    }
}

impl AvlTree {
    /// Keys in increasing order.
    pub fn to_vec(&self) -> Vec<i32> {
        search_tree::keys_in_order(self.root.as_deref(), self.size)
    }

    /// A tree from its parts, as another engine found it (a Korat candidate
    /// made into a value): `nodes[i]` is `(key, height, left, right)`, links
    /// are indices into `nodes`, `root` too; the nodes `root` reaches become
    /// the tree. Nothing else is checked (heights and balance neither), so
    /// the tree may break `rep_ok`.
    ///
    /// # Panics
    /// If a link is out of bounds or a node is reached twice (a `Box` tree
    /// cannot share nodes).
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    pub fn from_parts(nodes: Vec<(i32, i32, Option<usize>, Option<usize>)>, root: Option<usize>, size: usize) -> Self {
        fn build(nodes: &[(i32, i32, Option<usize>, Option<usize>)], used: &mut [bool], i: usize) -> Box<Node> {
            assert!(!std::mem::replace(&mut used[i], true), "node {i} is reached twice");
            let (key, height, left, right) = nodes[i];
            Box::new(Node {
                key,
                height,
                left: left.map(|l| build(nodes, used, l)),
                right: right.map(|r| build(nodes, used, r)),
            })
        }
        let mut used = vec![false; nodes.len()];
        AvlTree { root: root.map(|r| build(&nodes, &mut used, r)), size }
    }
}

// Two trees are equal when they hold the same keys (their in-order
// [`to_vec`](AvlTree::to_vec)s are equal), whatever their shapes and stored heights.
compare_by_content!([] AvlTree, to_vec);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, XorShift};
    use std::collections::BTreeSet;

    #[test]
    fn differential_against_btreeset() {
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        for round in 0..20 {
            let range = if round % 2 == 0 { 8 } else { 40 };
            let mut t = AvlTree::new();
            let mut m = BTreeSet::new();
            for _ in 0..300 {
                let k = rng.below(range) as i32;
                match rng.below(11) {
                    0..=3 => assert_eq!(t.add(k), m.insert(k)),
                    4..=5 => assert_eq!(t.remove(k), m.remove(&k)),
                    6 => assert_eq!(t.contains(k), m.contains(&k)),
                    7 => assert_eq!(t.remove_min().ok(), m.pop_first()),
                    8 => assert_eq!(t.remove_max().ok(), m.pop_last()),
                    9 => {
                        assert_eq!(AvlTree::min(&t).ok(), m.first().copied());
                        assert_eq!(AvlTree::max(&t).ok(), m.last().copied());
                    }
                    _ => {
                        if rng.below(10) == 0 {
                            t.clear();
                            m.clear();
                        }
                    }
                }
                assert!(t.rep_ok());
                assert_eq!(t.size(), m.len());
                assert_eq!(t.is_empty(), m.is_empty());
                assert_eq!(t.to_vec(), m.iter().copied().collect::<Vec<_>>());
                // An AVL tree of n nodes has height < 1.45 log2(n + 2).
                let bound = 1.45 * ((t.size() + 2) as f64).log2();
                assert!((t.height() as f64) < bound + 1.0);
            }
        }
    }

    #[test]
    fn ascending_inserts_stay_balanced() {
        let mut t = AvlTree::new();
        for k in 0..63 {
            t.add(k);
            assert!(t.rep_ok());
        }
        assert_eq!(t.height(), 6);
    }

    fn sample() -> AvlTree {
        let mut t = AvlTree::new();
        for k in [3, 1, 5, 0, 2, 4, 6] {
            t.add(k);
        }
        assert!(t.rep_ok());
        t
    }

    #[test]
    fn rep_ok_rejects_wrong_size() {
        assert_rejects_miscount(&sample(), |t| &mut t.size);
    }

    #[test]
    fn rep_ok_rejects_wrong_height() {
        assert_rejects(sample(), |t| t.root.as_mut().unwrap().left.as_mut().unwrap().height = 3);
    }

    #[test]
    fn rep_ok_rejects_imbalance() {
        // A right-leaning chain 0 -> 1 -> 2 with honest heights.
        let leaf = Box::new(Node { key: 2, height: 1, left: None, right: None });
        let mid = Box::new(Node { key: 1, height: 2, left: None, right: Some(leaf) });
        let top = Box::new(Node { key: 0, height: 3, left: None, right: Some(mid) });
        let t = AvlTree { root: Some(top), size: 3 };
        assert!(!t.rep_ok());
    }

    #[test]
    fn rep_ok_rejects_bad_order() {
        assert_rejects(sample(), |t| t.root.as_mut().unwrap().right.as_mut().unwrap().left.as_mut().unwrap().key = 1);
    }

    #[test]
    fn empty_observers_are_misuse() {
        let mut t = AvlTree::new();
        assert_eq!(AvlTree::min(&t), Err(NoSuchElement));
        assert_eq!(AvlTree::max(&t), Err(NoSuchElement));
        assert_eq!(t.remove_min(), Err(NoSuchElement));
        assert_eq!(t.remove_max(), Err(NoSuchElement));
        assert!(!t.remove(0));
        assert!(t.rep_ok());
    }
}
