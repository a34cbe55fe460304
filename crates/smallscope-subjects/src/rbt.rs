//! `rbt`: a red-black tree of distinct `i32` keys, balanced exactly as
//! `java.util.TreeMap` balances it.
//!
//! Ports `TreeMap`'s `put` (with `fixAfterInsertion`), `deleteEntry` (with
//! `fixAfterDeletion`), `rotateLeft`/`rotateRight`, `successor` and the
//! null-safe helpers `colorOf`/`parentOf`/`leftOf`/`rightOf`, keeping keys only
//! (a `TreeSet`). The port is the private module `red_black`'s, shared with
//! `tree-map`; this module keeps the set's API and its heap shape. As in
//! `TreeMap`, a fresh entry is black, the root is always black, and
//! deleting a node with two children copies its successor's key into it and
//! deletes the successor instead. Because the port makes `TreeMap`'s changes
//! in `TreeMap`'s order, the reachable shapes and colourings are Java's; some
//! of them are reachable only through removals, so `remove` is needed as a
//! builder.
//!
//! Heap shape: nodes live in an arena, `RedBlackTree { nodes: Vec<Node>, root,
//! size }`; each `Node { key, color, left, right, parent }` links to others by
//! index. Removed slots are recycled through a free list that is not part of
//! the structure.
//!
//! Planted bug (`rbt-bug-fixup`, `RedBlackTree<FixupBug>`): in the mirrored
//! half of `fixAfterDeletion` (the deleted position is a right child), the last
//! case was copied from the left half without mirroring one line: it blackens
//! the sibling's *right* child instead of its left (far) child. The tree then
//! keeps a red node where a black one is needed. The shortest triggers take
//! four adds and a remove, e.g. `add(2) add(1) add(3) add(0) remove(3)`, or
//! `add(0) add(2) add(3) add(1) remove(2)` (the one BEAPI reports at scope 4).

use std::marker::PhantomData;

use smallscope::Heap;

use crate::red_black::{Entry, Link, RedBlackArena};

/// A call on an empty tree, or with no matching key, that Java would answer
/// with `NoSuchElementException` (or a `null` entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoSuchElement;

/// Selects the correct tree or a planted-bug variant.
pub trait Variant: Clone + std::fmt::Debug + Default + 'static {
    /// Mis-mirrored last case of `fixAfterDeletion`.
    const FIXUP_BUG: bool;
}

/// The faithful `TreeMap` port.
#[derive(Clone, Debug, Default)]
pub struct Correct;

/// The variant with the planted `fixAfterDeletion` bug.
#[derive(Clone, Debug, Default)]
pub struct FixupBug;

impl Variant for Correct {
    const FIXUP_BUG: bool = false;
}

impl Variant for FixupBug {
    const FIXUP_BUG: bool = true;
}

pub use crate::red_black::Color;
use Color::Black;

#[derive(Heap, Clone, Debug, Default)]
pub struct RedBlackTree<V: Variant = Correct> {
    #[heap(arena)]
    nodes: Vec<Node>,
    #[heap(index = "nodes")]
    root: Option<usize>,
    size: usize,
    #[heap(skip)]
    free: Vec<usize>,
    #[heap(skip)]
    variant: PhantomData<V>,
}

/// An entry of the tree (`TreeMap.Entry` without a value); crate-visible
/// as the entry type of [`RedBlackArena`].
#[derive(Heap, Clone, Debug)]
pub(crate) struct Node {
    key: i32,
    color: Color,
    #[heap(index = "nodes")]
    left: Option<usize>,
    #[heap(index = "nodes")]
    right: Option<usize>,
    #[heap(index = "nodes")]
    parent: Option<usize>,
}

/// A set's entry: a key and no value.
impl Entry for Node {
    type Value = ();

    fn new(key: i32, (): (), parent: Link) -> Self {
        Node { key, color: Black, left: None, right: None, parent }
    }

    fn value(&self) {}

    fn set_entry(&mut self, key: i32, (): ()) {
        self.key = key;
    }

    entry_fields!();
}

impl<V: Variant> RedBlackArena for RedBlackTree<V> {
    type Entry = Node;
    const DELETION_FIXUP_BUG: bool = V::FIXUP_BUG;
    arena_fields!();
}

#[smallscope::api(rep_ok = rep_ok, register("rbt" = RedBlackTree<Correct>, "rbt-bug-fixup" = RedBlackTree<FixupBug>))]
impl<V: Variant> RedBlackTree<V> {
    /// An empty tree.
    pub fn new() -> Self {
        RedBlackTree { nodes: Vec::new(), root: None, size: 0, free: Vec::new(), variant: PhantomData }
    }

    /// `TreeMap.put`: inserts `key`; returns `false` (and changes nothing) if it is already present.
    pub fn add(&mut self, key: i32) -> bool {
        self.put_entry(key, ()).1
    }

    /// `TreeMap.remove`: removes `key`; returns whether it was present.
    pub fn remove(&mut self, key: i32) -> bool {
        match self.get_entry(key) {
            Some(p) => {
                self.delete_entry(p);
                true
            }
            None => false,
        }
    }

    /// `TreeMap.containsKey`.
    pub fn contains(&self, key: i32) -> bool {
        self.get_entry(key).is_some()
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Removes every key.
    pub fn clear(&mut self) {
        self.clear_entries();
    }

    /// `TreeMap.firstKey`: the smallest key.
    pub fn first_key(&self) -> Result<i32, NoSuchElement> {
        self.key_of(self.first_entry())
    }

    /// `TreeMap.lastKey`: the largest key.
    pub fn last_key(&self) -> Result<i32, NoSuchElement> {
        self.key_of(self.last_entry())
    }

    /// `TreeMap.floorKey`: the greatest key `<= key`.
    pub fn floor(&self, key: i32) -> Result<i32, NoSuchElement> {
        self.key_of(self.closest_entry(key, true, true))
    }

    /// `TreeMap.ceilingKey`: the least key `>= key`.
    pub fn ceiling(&self, key: i32) -> Result<i32, NoSuchElement> {
        self.key_of(self.closest_entry(key, false, true))
    }

    /// `TreeMap.lowerKey`: the greatest key `< key`.
    pub fn lower(&self, key: i32) -> Result<i32, NoSuchElement> {
        self.key_of(self.closest_entry(key, true, false))
    }

    /// `TreeMap.higherKey`: the least key `> key`.
    pub fn higher(&self, key: i32) -> Result<i32, NoSuchElement> {
        self.key_of(self.closest_entry(key, false, false))
    }

    /// `TreeMap.pollFirstEntry`: removes and returns the smallest key.
    pub fn poll_first(&mut self) -> Result<i32, NoSuchElement> {
        self.poll(self.first_entry())
    }

    /// `TreeMap.pollLastEntry`: removes and returns the largest key.
    pub fn poll_last(&mut self) -> Result<i32, NoSuchElement> {
        self.poll(self.last_entry())
    }

    /// The invariant: links in bounds and acyclic, parent links consistent,
    /// BST order, root black, no red node with a red child, the same number
    /// of black nodes on every root-to-leaf path, `size` = node count, and no
    /// reachable node on the free list.
    pub fn rep_ok(&self) -> bool {
        self.is_red_black_tree()
    }
}

impl<V: Variant> RedBlackTree<V> {
    /// A tree from its parts, as another engine found it (a Korat candidate
    /// made into a value): `nodes[i]` is `(key, color, left, right, parent)`,
    /// links are indices into `nodes`, `root` too. Nothing is checked, so the
    /// tree may break `rep_ok`; the free list is empty.
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    pub fn from_parts(
        nodes: Vec<(i32, Color, Option<usize>, Option<usize>, Option<usize>)>,
        root: Option<usize>,
        size: usize,
    ) -> Self {
        RedBlackTree {
            nodes: nodes
                .into_iter()
                .map(|(key, color, left, right, parent)| Node { key, color, left, right, parent })
                .collect(),
            root,
            size,
            free: Vec::new(),
            variant: PhantomData,
        }
    }

    /// Keys in increasing order.
    pub fn to_vec(&self) -> Vec<i32> {
        self.in_order().map(|n| n.key).collect()
    }

    /// The tree as nested text, `(keyColour left right)` with `.` for an empty
    /// subtree: `(1B (0R . .) (2R . .))`. Two trees are the same structure iff
    /// their shapes are equal (the parent links follow from the child links).
    pub fn shape(&self) -> String {
        self.shape_with(|n| n.key.to_string())
    }

    /// Number of black nodes on the path from the root to the leftmost leaf.
    pub fn black_height(&self) -> usize {
        let mut h = 0;
        let mut e = self.root;
        while let Some(i) = e {
            h += usize::from(self.nodes[i].color == Black);
            e = self.nodes[i].left;
        }
        h
    }

    /// The key of entry `e`; no entry is Java's `NoSuchElementException`.
    fn key_of(&self, e: Link) -> Result<i32, NoSuchElement> {
        e.map(|e| self.nodes[e].key).ok_or(NoSuchElement)
    }

    /// Removes entry `e` and returns its key.
    fn poll(&mut self, e: Link) -> Result<i32, NoSuchElement> {
        let e = e.ok_or(NoSuchElement)?;
        let key = self.nodes[e].key;
        self.delete_entry(e);
        Ok(key)
    }
}

// Two trees are equal when they hold the same keys (their in-order
// [`to_vec`](RedBlackTree::to_vec)s are equal; the tree is a set, it has no
// values), whatever their shapes and colours.
compare_by_content!([V: Variant] RedBlackTree<V>, to_vec);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::XorShift;
    use std::collections::BTreeSet;

    #[test]
    fn differential_against_btreeset() {
        let mut rng = XorShift(0x1234_5678_9ABC_DEF1);
        for round in 0..20 {
            let range = if round % 2 == 0 { 8 } else { 40 };
            let mut t = RedBlackTree::<Correct>::new();
            let mut m = BTreeSet::new();
            for _ in 0..300 {
                let k = rng.below(range) as i32;
                match rng.below(12) {
                    0..=3 => assert_eq!(t.add(k), m.insert(k)),
                    4..=5 => assert_eq!(t.remove(k), m.remove(&k)),
                    6 => assert_eq!(t.contains(k), m.contains(&k)),
                    7 => assert_eq!(t.poll_first().ok(), m.pop_first()),
                    8 => assert_eq!(t.poll_last().ok(), m.pop_last()),
                    9 => {
                        assert_eq!(t.floor(k).ok(), m.range(..=k).next_back().copied());
                        assert_eq!(t.ceiling(k).ok(), m.range(k..).next().copied());
                        assert_eq!(t.lower(k).ok(), m.range(..k).next_back().copied());
                        assert_eq!(t.higher(k).ok(), m.range(k + 1..).next().copied());
                    }
                    10 => {
                        assert_eq!(t.first_key().ok(), m.first().copied());
                        assert_eq!(t.last_key().ok(), m.last().copied());
                    }
                    _ => {
                        if rng.below(10) == 0 {
                            t.clear();
                            m.clear();
                        }
                    }
                }
                assert!(t.rep_ok(), "{t:?}");
                assert_eq!(t.size(), m.len());
                assert_eq!(t.is_empty(), m.is_empty());
                assert_eq!(t.to_vec(), m.iter().copied().collect::<Vec<_>>());
                // Slots are recycled: the arena never holds more than the peak size.
                assert!(t.nodes.len() <= 40);
            }
        }
    }

    fn shape<V: Variant>(t: &RedBlackTree<V>) -> String {
        t.shape()
    }

    #[test]
    fn matches_treemap_shapes() {
        // Shapes as java.util.TreeMap produces them.
        let mut t = RedBlackTree::<Correct>::new();
        for k in [0, 1, 2] {
            t.add(k);
        }
        assert_eq!(shape(&t), "(1B (0R . .) (2R . .))");
        t.add(3);
        assert_eq!(shape(&t), "(1B (0B . .) (2B . (3R . .)))");
        // Two children: the successor's key is copied up. Three black nodes:
        // a colouring `add` alone never makes (a third insert always leaves red leaves).
        t.remove(1);
        assert_eq!(shape(&t), "(2B (0B . .) (3B . .))");
        // Removing a black leaf recolours its sibling red.
        t.remove(0);
        assert_eq!(shape(&t), "(2B . (3R . .))");
        assert!(t.rep_ok());
    }

    #[test]
    fn empty_observers_are_misuse() {
        let mut t = RedBlackTree::<Correct>::new();
        assert_eq!(t.first_key(), Err(NoSuchElement));
        assert_eq!(t.last_key(), Err(NoSuchElement));
        assert_eq!(t.poll_first(), Err(NoSuchElement));
        assert_eq!(t.poll_last(), Err(NoSuchElement));
        assert_eq!(t.floor(1), Err(NoSuchElement));
        assert!(!t.remove(1));
        assert!(t.rep_ok());
    }

    const TRIGGER: [(bool, i32); 5] = [(true, 2), (true, 1), (true, 3), (true, 0), (false, 3)];

    fn run<V: Variant>(ops: &[(bool, i32)]) -> RedBlackTree<V> {
        let mut t = RedBlackTree::<V>::new();
        for &(add, k) in ops {
            if add {
                t.add(k);
            } else {
                t.remove(k);
            }
        }
        t
    }

    #[test]
    fn fixup_bug_is_triggered() {
        let bad = run::<FixupBug>(&TRIGGER);
        assert!(!bad.rep_ok(), "{}", shape(&bad));
        let good = run::<Correct>(&TRIGGER);
        assert!(good.rep_ok());
        assert_eq!(shape(&good), "(1B (0B . .) (2B . .))");
        // Every prefix is fine in both variants: the bug needs the remove.
        for len in 0..TRIGGER.len() {
            assert!(run::<FixupBug>(&TRIGGER[..len]).rep_ok());
        }
    }

    #[test]
    fn fixup_bug_needs_at_least_five_operations() {
        // Every sequence of up to 4 adds/removes over keys 0..4 keeps the buggy tree valid.
        fn explore(ops: &mut Vec<(bool, i32)>, depth: usize) {
            let t = run::<FixupBug>(ops);
            assert!(t.rep_ok(), "{ops:?}");
            if depth == 0 {
                return;
            }
            for add in [true, false] {
                for k in 0..4 {
                    ops.push((add, k));
                    explore(ops, depth - 1);
                    ops.pop();
                }
            }
        }
        explore(&mut Vec::new(), 4);
    }
}
