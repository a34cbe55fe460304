//! `bst`: an unbalanced binary search tree of distinct `i32` keys.
//!
//! Ports the `BinarySearchTree` / `BinTree` subject of the ROOPS and Kiasan
//! benchmarks (and Korat's `SearchTree`): a root object holding the tree and
//! its size, and nodes with a key and two children.
//!
//! Heap shape: `BinarySearchTree { root: Option<Box<Node>>, size }`, each
//! `Node { key, left, right }` owned by its parent through a `Box`, so the
//! object graph is a tree by construction.
//!
//! `add` descends iteratively: this subject is the performance benchmark, so
//! its hot builder stays simple. `remove` of a node with two children replaces
//! it by its in-order successor (the textbook deletion).
//!
//! At scope N with keys `0..N` every BST over a subset of the keys is reachable
//! by `add` alone, so there are `sum_k C(N,k) * Catalan(k)` structures.
//!
//! No planted bug.

use smallscope::Heap;

pub mod by_hand;

use crate::search_tree::{self, BinaryNode};

/// A call on an empty tree that Java would answer with `NoSuchElementException`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoSuchElement;

#[derive(Heap, Clone, Debug, Default)]
pub struct BinarySearchTree {
    root: Option<Box<Node>>,
    size: usize,
}

#[derive(Heap, Clone, Debug)]
struct Node {
    key: i32,
    left: Option<Box<Node>>,
    right: Option<Box<Node>>,
}

impl Node {
    fn leaf(key: i32) -> Box<Node> {
        Box::new(Node { key, left: None, right: None })
    }
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

#[smallscope::api(name = "bst", rep_ok = rep_ok)]
impl BinarySearchTree {
    /// An empty tree.
    pub fn new() -> Self {
        BinarySearchTree { root: None, size: 0 }
    }

    /// Inserts `key`; returns `false` (and changes nothing) if it is already present.
    pub fn add(&mut self, key: i32) -> bool {
        let mut cur = &mut self.root;
        while let Some(node) = cur {
            if key < node.key {
                cur = &mut node.left;
            } else if key > node.key {
                cur = &mut node.right;
            } else {
                return false;
            }
        }
        *cur = Some(Node::leaf(key));
        self.size += 1;
        true
    }

    /// Removes `key`; returns whether it was present.
    pub fn remove(&mut self, key: i32) -> bool {
        let mut cur = &mut self.root;
        loop {
            match cur {
                None => return false,
                Some(node) if key < node.key => cur = &mut cur.as_mut().unwrap().left,
                Some(node) if key > node.key => cur = &mut cur.as_mut().unwrap().right,
                Some(_) => break,
            }
        }
        Self::unlink(cur);
        self.size -= 1;
        true
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
        // A path call: `self.min()` on `&mut Self` would pick `Ord::min`.
        let key = Self::min(self)?;
        self.remove(key);
        Ok(key)
    }

    /// Removes and returns the largest key.
    pub fn remove_max(&mut self) -> Result<i32, NoSuchElement> {
        let key = Self::max(self)?;
        self.remove(key);
        Ok(key)
    }

    /// The greatest key `<= key`.
    pub fn floor(&self, key: i32) -> Result<i32, NoSuchElement> {
        search_tree::floor(self.root.as_deref(), key).ok_or(NoSuchElement)
    }

    /// The least key `>= key`.
    pub fn ceiling(&self, key: i32) -> Result<i32, NoSuchElement> {
        search_tree::ceiling(self.root.as_deref(), key).ok_or(NoSuchElement)
    }

    /// Number of nodes on the longest root-to-leaf path (0 for an empty tree).
    pub fn height(&self) -> usize {
        search_tree::height(self.root.as_deref())
    }

    /// The invariant: keys strictly increasing in order, `size` = node count.
    pub fn rep_ok(&self) -> bool {
        search_tree::is_search_tree(self.root.as_deref(), self.size, |_, _, _| true)
    }
}

impl BinarySearchTree {
    /// Keys in increasing order.
    pub fn to_vec(&self) -> Vec<i32> {
        search_tree::keys_in_order(self.root.as_deref(), self.size)
    }

    /// A tree from its parts, as another engine found it (a Korat candidate
    /// made into a value): `nodes[i]` is `(key, left, right)`, links are
    /// indices into `nodes`, `root` too; the nodes `root` reaches become the
    /// tree. Nothing else is checked, so the tree may break `rep_ok`.
    ///
    /// # Panics
    /// If a link is out of bounds or a node is reached twice (a `Box` tree
    /// cannot share nodes).
    #[doc(hidden)]
    pub fn from_parts(nodes: Vec<(i32, Option<usize>, Option<usize>)>, root: Option<usize>, size: usize) -> Self {
        fn build(nodes: &[(i32, Option<usize>, Option<usize>)], used: &mut [bool], i: usize) -> Box<Node> {
            assert!(!std::mem::replace(&mut used[i], true), "node {i} is reached twice");
            let (key, left, right) = nodes[i];
            Box::new(Node {
                key,
                left: left.map(|l| build(nodes, used, l)),
                right: right.map(|r| build(nodes, used, r)),
            })
        }
        let mut used = vec![false; nodes.len()];
        BinarySearchTree { root: root.map(|r| build(&nodes, &mut used, r)), size }
    }

    /// Replaces the (non-empty) subtree `slot` by what is left after removing its root.
    fn unlink(slot: &mut Option<Box<Node>>) {
        let mut node = slot.take().expect("unlink of an empty slot");
        *slot = match (node.left.take(), node.right.take()) {
            (None, None) => None,
            (Some(child), None) | (None, Some(child)) => Some(child),
            (Some(left), Some(right)) => {
                // Two children: the successor (leftmost of the right subtree) takes its place.
                node.left = Some(left);
                node.right = Some(right);
                let succ = Self::take_min(&mut node.right);
                node.key = succ;
                Some(node)
            }
        };
    }

    /// Removes the leftmost node of the non-empty subtree `slot`; returns its key.
    fn take_min(slot: &mut Option<Box<Node>>) -> i32 {
        let mut cur = slot;
        while cur.as_ref().is_some_and(|n| n.left.is_some()) {
            cur = &mut cur.as_mut().unwrap().left;
        }
        let mut min = cur.take().expect("take_min of an empty slot");
        *cur = min.right.take();
        min.key
    }
}

// Two trees are equal when they hold the same keys (their in-order
// [`to_vec`](BinarySearchTree::to_vec)s are equal), whatever their shapes.
compare_by_content!([] BinarySearchTree, to_vec);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, XorShift};
    use std::collections::BTreeSet;

    #[test]
    fn differential_against_btreeset() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for _round in 0..20 {
            let mut t = BinarySearchTree::new();
            let mut m = BTreeSet::new();
            for _ in 0..300 {
                let k = rng.below(8) as i32;
                match rng.below(12) {
                    0..=3 => assert_eq!(t.add(k), m.insert(k)),
                    4..=5 => assert_eq!(t.remove(k), m.remove(&k)),
                    6 => assert_eq!(t.contains(k), m.contains(&k)),
                    7 => assert_eq!(t.remove_min().ok(), m.pop_first()),
                    8 => assert_eq!(t.remove_max().ok(), m.pop_last()),
                    9 => {
                        assert_eq!(t.floor(k).ok(), m.range(..=k).next_back().copied());
                        assert_eq!(t.ceiling(k).ok(), m.range(k..).next().copied());
                    }
                    10 => {
                        assert_eq!(BinarySearchTree::min(&t).ok(), m.first().copied());
                        assert_eq!(BinarySearchTree::max(&t).ok(), m.last().copied());
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
                assert!(t.height() <= t.size());
            }
        }
    }

    #[test]
    fn remove_with_two_children_uses_successor() {
        let mut t = BinarySearchTree::new();
        for k in [4, 2, 6, 5, 7, 1, 3] {
            t.add(k);
        }
        assert!(t.remove(4));
        assert_eq!(t.root.as_ref().unwrap().key, 5);
        assert!(t.rep_ok());
        assert_eq!(t.to_vec(), [1, 2, 3, 5, 6, 7]);
    }

    fn sample() -> BinarySearchTree {
        let mut t = BinarySearchTree::new();
        for k in [3, 1, 5, 0, 2, 4] {
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
    fn rep_ok_rejects_bad_order() {
        assert_rejects(sample(), |t| {
            // 4 is in the right subtree of 3; make it 2, which belongs on the left.
            t.root.as_mut().unwrap().right.as_mut().unwrap().left.as_mut().unwrap().key = 2;
        });
    }

    #[test]
    fn rep_ok_rejects_duplicate_key() {
        assert_rejects(sample(), |t| t.root.as_mut().unwrap().left.as_mut().unwrap().right.as_mut().unwrap().key = 3);
    }

    #[test]
    fn empty_observers_are_misuse() {
        let mut t = BinarySearchTree::new();
        assert_eq!(BinarySearchTree::min(&t), Err(NoSuchElement));
        assert_eq!(BinarySearchTree::max(&t), Err(NoSuchElement));
        assert_eq!(t.remove_min(), Err(NoSuchElement));
        assert_eq!(t.remove_max(), Err(NoSuchElement));
        assert_eq!(t.floor(3), Err(NoSuchElement));
        assert_eq!(t.height(), 0);
        assert!(t.rep_ok());
    }
}
