//! A binary search tree written as an enum, the way Rust users write one:
//! the empty tree is the `Leaf` variant, and the API is on the enum itself.
//!
//! `Leaf` is `#[heap(null)]`: without it, every boxed `Leaf` would be an
//! object that the scope counts, and a tree of `k` keys would need `2k + 1`
//! objects instead of `k`. With it, the tree is counted as the struct BST
//! of the built-in subjects is: at scope n (keys `0..n`), every BST over a
//! subset of the keys, `sum_k C(n, k) * Catalan(k)` of them.

use std::cmp::Ordering;

use smallscope::Heap;

/// A BST of distinct `u8` keys.
#[derive(Heap, Clone, Debug, Default, PartialEq, Eq)]
pub enum Tree {
    /// The empty tree: the heap's null.
    #[default]
    #[heap(null)]
    Leaf,
    /// Smaller keys on the left, larger on the right.
    Node(Box<Tree>, u8, Box<Tree>),
}

#[smallscope::api(name = "fixture-enum-bst", rep_ok = rep_ok)]
impl Tree {
    /// The empty tree.
    pub fn new() -> Self {
        Tree::Leaf
    }

    /// Inserts `key`; `false` if it was there already.
    pub fn insert(&mut self, key: u8) -> bool {
        match self {
            Tree::Leaf => {
                *self = Tree::Node(Box::new(Tree::Leaf), key, Box::new(Tree::Leaf));
                true
            }
            Tree::Node(left, k, right) => match key.cmp(k) {
                Ordering::Less => left.insert(key),
                Ordering::Greater => right.insert(key),
                Ordering::Equal => false,
            },
        }
    }

    /// Whether `key` is in the tree.
    pub fn contains(&self, key: u8) -> bool {
        match self {
            Tree::Leaf => false,
            Tree::Node(left, k, right) => match key.cmp(k) {
                Ordering::Less => left.contains(key),
                Ordering::Greater => right.contains(key),
                Ordering::Equal => true,
            },
        }
    }

    /// Removes `key`; `false` if it was not there. A node with two children
    /// takes its in-order successor's key.
    pub fn remove(&mut self, key: u8) -> bool {
        let Tree::Node(left, k, right) = self else {
            return false;
        };
        match key.cmp(k) {
            Ordering::Less => left.remove(key),
            Ordering::Greater => right.remove(key),
            Ordering::Equal => {
                *self = match (std::mem::take(left.as_mut()), std::mem::take(right.as_mut())) {
                    (Tree::Leaf, only) | (only, Tree::Leaf) => only,
                    (left, mut right) => {
                        let successor = right.take_min().expect("a node's right subtree is not empty");
                        Tree::Node(Box::new(left), successor, Box::new(right))
                    }
                };
                true
            }
        }
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(left, _, right) => left.len() + 1 + right.len(),
        }
    }

    /// Whether the tree has no key.
    pub fn is_empty(&self) -> bool {
        matches!(self, Tree::Leaf)
    }

    /// The smallest key.
    pub fn min(&self) -> Option<u8> {
        match self {
            Tree::Leaf => None,
            Tree::Node(left, k, _) => left.min().or(Some(*k)),
        }
    }

    /// Every key is above all keys on its left and below all on its right.
    pub fn rep_ok(&self) -> bool {
        self.keys_within(None, None)
    }
}

impl Tree {
    /// Removes and returns the smallest key.
    fn take_min(&mut self) -> Option<u8> {
        let Tree::Node(left, k, right) = self else {
            return None;
        };
        if let Some(smaller) = left.take_min() {
            return Some(smaller);
        }
        let key = *k;
        *self = std::mem::take(right.as_mut());
        Some(key)
    }

    /// Whether every key lies strictly between `above` and `below`, and each
    /// subtree is ordered too.
    fn keys_within(&self, above: Option<u8>, below: Option<u8>) -> bool {
        match self {
            Tree::Leaf => true,
            Tree::Node(left, k, right) => {
                above.is_none_or(|a| a < *k)
                    && below.is_none_or(|b| *k < b)
                    && left.keys_within(above, Some(*k))
                    && right.keys_within(Some(*k), below)
            }
        }
    }
}
