//! `tree-map`: a red-black tree map from `i32` keys to `i32` values,
//! balanced exactly as `java.util.TreeMap` (and CLRS) balances it.
//!
//! The tree is the port of `TreeMap` (`put` with `fixAfterInsertion`,
//! `deleteEntry` with `fixAfterDeletion`, the rotations, `successor` and the
//! null-safe helpers) in the private module `red_black`, which
//! [`rbt`](crate::rbt) uses too, with a value in every entry. As in
//! `TreeMap`, a fresh entry is black, the root is always black, `put` of a
//! present key replaces its value in place (the shape does not change), and
//! deleting an entry with two children copies its successor's key *and value*
//! into it and deletes the successor instead. The API is the map's, named
//! after Rust's `BTreeMap` (absent entries are `None`, not exceptions).
//!
//! Heap shape: nodes live in an arena, `TreeMap { nodes: Vec<Node>, root,
//! size }`; each `Node { key, value, color, left, right, parent }` links to
//! others by index. Removed slots are recycled through a free list that is not
//! part of the structure. At scope N a structure has at most N nodes, and
//! BEAPI draws keys and values from `0..N`.
//!
//! # Observers, mutators and builders
//!
//! Observers (they never change the map and return only plain values):
//! `get`, `contains_key`, `len`, `is_empty`, `first_key`, `last_key`,
//! `floor_key`, `ceiling_key`, `lower_key`, `higher_key`, `range`, `keys`,
//! `values`. They all take `&self`.
//!
//! Mutators: `insert`, `remove`, `clear`, `pop_first`, `pop_last`,
//! `retain_below`, `retain_at_least`, `get_or_insert`, `update_if_present`.
//!
//! A sufficient and minimal builder set is `new`, `insert` and `remove`:
//! - `new` is the only constructor;
//! - `insert` reaches every key set, with any value (from the same integer
//!   domain) on each key, and `get_or_insert` and `update_if_present` are
//!   `insert`s of a key that is absent, respectively present;
//! - one removal is needed because `deleteEntry` makes shapes and colourings
//!   that insertions alone never make: `put` only ever adds a red node and
//!   recolours on the way up, so, for example, a tree of three black nodes
//!   `(2B (0B) (3B))` comes only from four `insert`s and a `remove` (at scope
//!   4 and above; see the test `removal_makes_shapes_insertion_cannot`).
//!   `pop_first`, `pop_last`, `clear`, `retain_below` and `retain_at_least`
//!   are removals of particular keys, one after another in ascending key
//!   order, each one through `deleteEntry`, so `remove` makes each of their
//!   results through structures no larger than the one they started from;
//!   `remove` is the removal that takes any key.
//!
//! BEAPI finds as many structures with these three builders as with the whole
//! API: 91 at scope 3 (where `new` and `insert` alone reach them all), 1745 at
//! scope 4 (1489 without `remove`), 34276 at scope 5.
//!
//! `increment` (`*entry(key).or_insert(0) += 1`) is a method of the type but
//! not an operation (`#[smallscope(skip)]`): it is the only call that makes a
//! value outside the integer domain BEAPI draws arguments from, so with it in
//! the API the builder set above would not be sufficient, and since every
//! increment of the largest value makes a new structure, a BEAPI run over the
//! full API would never end (the scope bounds objects, not field values).
//! `get_or_insert` stands in for the entry API inside the domain.
//!
//! Equality (`PartialEq`, `Eq`, `Hash`, `PartialOrd`, `Ord`) is by the sorted
//! entry sequence ([`TreeMap::entries`]), whatever the shape and colours.
//!
//! No planted bug.

use smallscope::Heap;

pub use crate::red_black::Color;
use crate::red_black::{Entry, Link, RedBlackArena};
use Color::Black;

/// `range(lo, hi)` with `lo > hi`: Rust's `BTreeMap::range` panics and
/// Java's `subMap` throws `IllegalArgumentException`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidRange;

/// `increment` of a value that is already `i32::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

#[derive(Heap, Clone, Debug, Default)]
pub struct TreeMap {
    #[heap(arena)]
    nodes: Vec<Node>,
    #[heap(index = "nodes")]
    root: Option<usize>,
    size: usize,
    #[heap(skip)]
    free: Vec<usize>,
}

/// An entry of the map (`TreeMap.Entry`); crate-visible as the entry type
/// of [`RedBlackArena`].
#[derive(Heap, Clone, Debug)]
pub(crate) struct Node {
    key: i32,
    value: i32,
    color: Color,
    #[heap(index = "nodes")]
    left: Option<usize>,
    #[heap(index = "nodes")]
    right: Option<usize>,
    #[heap(index = "nodes")]
    parent: Option<usize>,
}

/// A map's entry: a key and its value.
impl Entry for Node {
    type Value = i32;

    fn new(key: i32, value: i32, parent: Link) -> Self {
        Node { key, value, color: Black, left: None, right: None, parent }
    }

    fn value(&self) -> i32 {
        self.value
    }

    fn set_entry(&mut self, key: i32, value: i32) {
        self.key = key;
        self.value = value;
    }

    entry_fields!();
}

impl RedBlackArena for TreeMap {
    type Entry = Node;
    arena_fields!();
}

#[smallscope::api(name = "tree-map", rep_ok = rep_ok)]
impl TreeMap {
    /// An empty map.
    pub fn new() -> Self {
        TreeMap { nodes: Vec::new(), root: None, size: 0, free: Vec::new() }
    }

    /// `TreeMap.put`: maps `key` to `value`; returns the value it replaced.
    pub fn insert(&mut self, key: i32, value: i32) -> Option<i32> {
        match self.put_entry(key, value) {
            (e, false) => Some(std::mem::replace(&mut self.nodes[e].value, value)),
            (_, true) => None,
        }
    }

    /// `TreeMap.remove`: removes `key`; returns its value.
    pub fn remove(&mut self, key: i32) -> Option<i32> {
        self.pop(self.get_entry(key)).map(|(_, value)| value)
    }

    /// `TreeMap.get`.
    pub fn get(&self, key: i32) -> Option<i32> {
        self.get_entry(key).map(|e| self.nodes[e].value)
    }

    /// `TreeMap.containsKey`.
    pub fn contains_key(&self, key: i32) -> bool {
        self.get_entry(key).is_some()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.clear_entries();
    }

    /// The smallest key.
    pub fn first_key(&self) -> Option<i32> {
        self.key_of(self.first_entry())
    }

    /// The largest key.
    pub fn last_key(&self) -> Option<i32> {
        self.key_of(self.last_entry())
    }

    /// `TreeMap.pollFirstEntry`: removes and returns the entry with the smallest key.
    pub fn pop_first(&mut self) -> Option<(i32, i32)> {
        self.pop(self.first_entry())
    }

    /// `TreeMap.pollLastEntry`: removes and returns the entry with the largest key.
    pub fn pop_last(&mut self) -> Option<(i32, i32)> {
        self.pop(self.last_entry())
    }

    /// `TreeMap.floorKey`: the greatest key `<= key`.
    pub fn floor_key(&self, key: i32) -> Option<i32> {
        self.key_of(self.closest_entry(key, true, true))
    }

    /// `TreeMap.ceilingKey`: the least key `>= key`.
    pub fn ceiling_key(&self, key: i32) -> Option<i32> {
        self.key_of(self.closest_entry(key, false, true))
    }

    /// `TreeMap.lowerKey`: the greatest key `< key`.
    pub fn lower_key(&self, key: i32) -> Option<i32> {
        self.key_of(self.closest_entry(key, true, false))
    }

    /// `TreeMap.higherKey`: the least key `> key`.
    pub fn higher_key(&self, key: i32) -> Option<i32> {
        self.key_of(self.closest_entry(key, false, false))
    }

    /// The entries with `lo <= key < hi`, in key order (`BTreeMap::range(lo..hi)`,
    /// `TreeMap.subMap(lo, hi)`); `lo > hi` is misuse.
    pub fn range(&self, lo: i32, hi: i32) -> Result<Vec<(i32, i32)>, InvalidRange> {
        if lo > hi {
            return Err(InvalidRange);
        }
        let from = self.closest_entry(lo, false, true);
        Ok(self.in_order_from(from).take_while(|n| n.key < hi).map(|n| (n.key, n.value)).collect())
    }

    /// Keeps the entries with keys `< key` (`retain(|&k, _| k < key)`,
    /// `tailMap(key, true).clear()`); returns how many it removed.
    pub fn retain_below(&mut self, key: i32) -> usize {
        let doomed: Vec<i32> = self.keys().into_iter().filter(|&k| k >= key).collect();
        self.remove_all(&doomed)
    }

    /// Keeps the entries with keys `>= key` (`retain(|&k, _| k >= key)`,
    /// `headMap(key, false).clear()`); returns how many it removed.
    pub fn retain_at_least(&mut self, key: i32) -> usize {
        let doomed: Vec<i32> = self.keys().into_iter().filter(|&k| k < key).collect();
        self.remove_all(&doomed)
    }

    /// `*entry(key).or_insert(value)` (`TreeMap.putIfAbsent`): inserts
    /// `value` if `key` is absent; returns the value `key` now maps to.
    pub fn get_or_insert(&mut self, key: i32, value: i32) -> i32 {
        let (e, _) = self.put_entry(key, value);
        self.nodes[e].value
    }

    /// `*entry(key).or_insert(0) += 1`: counts one more `key`; returns the new
    /// count. Not an operation (see the module doc): it leaves the integer domain.
    #[smallscope(skip)]
    pub fn increment(&mut self, key: i32) -> Result<i32, Overflow> {
        let (e, fresh) = self.put_entry(key, 1);
        if !fresh {
            let value = &mut self.nodes[e].value;
            *value = value.checked_add(1).ok_or(Overflow)?;
        }
        Ok(self.nodes[e].value)
    }

    /// `TreeMap.replace(key, value)` (`if let Some(v) = get_mut(key) { *v = value }`):
    /// sets the value of a present key; returns the old one, `None` (and no
    /// change) when `key` is absent.
    pub fn update_if_present(&mut self, key: i32, value: i32) -> Option<i32> {
        let e = self.get_entry(key)?;
        Some(std::mem::replace(&mut self.nodes[e].value, value))
    }

    /// The keys in increasing order.
    pub fn keys(&self) -> Vec<i32> {
        self.in_order().map(|n| n.key).collect()
    }

    /// The values in increasing order of their keys.
    pub fn values(&self) -> Vec<i32> {
        self.in_order().map(|n| n.value).collect()
    }

    /// The invariant: links in bounds and acyclic, parent links consistent,
    /// BST order, root black, no red node with a red child, the same number
    /// of black nodes on every root-to-leaf path, `size` = node count, and no
    /// reachable node on the free list.
    pub fn rep_ok(&self) -> bool {
        self.is_red_black_tree()
    }
}

impl TreeMap {
    /// The entries `(key, value)` in increasing key order.
    pub fn entries(&self) -> Vec<(i32, i32)> {
        self.in_order().map(|n| (n.key, n.value)).collect()
    }

    /// The tree as nested text, `(key=valueColour left right)` with `.` for
    /// an empty subtree: `(1=0B (0=0R . .) (2=0R . .))`. Two maps are the
    /// same structure iff their shapes are equal.
    pub fn shape(&self) -> String {
        self.shape_with(|n| format!("{}={}", n.key, n.value))
    }

    fn key_of(&self, e: Link) -> Option<i32> {
        e.map(|e| self.nodes[e].key)
    }

    /// Removes entry `e` (`None` for no entry) and returns it.
    fn pop(&mut self, e: Link) -> Option<(i32, i32)> {
        let e = e?;
        let entry = (self.nodes[e].key, self.nodes[e].value);
        self.delete_entry(e);
        Some(entry)
    }

    /// Removes each of `keys` (ascending) as an iterator's `remove` would; returns how many.
    fn remove_all(&mut self, keys: &[i32]) -> usize {
        for &k in keys {
            let e = self.get_entry(k).expect("a key listed by `keys`");
            self.delete_entry(e);
        }
        keys.len()
    }
}

// Two maps are equal when they hold the same entries (their
// [`entries`](TreeMap::entries) are equal), whatever their shapes and colours.
compare_by_content!([] TreeMap, entries);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{observe, XorShift};
    use std::collections::{BTreeMap, BTreeSet};

    fn check_observers(t: &TreeMap, m: &BTreeMap<i32, i32>, k: i32, k2: i32) {
        assert_eq!(observe(t, |t| t.get(k)), m.get(&k).copied());
        assert_eq!(observe(t, |t| t.contains_key(k)), m.contains_key(&k));
        assert_eq!(observe(t, TreeMap::len), m.len());
        assert_eq!(observe(t, TreeMap::is_empty), m.is_empty());
        assert_eq!(observe(t, TreeMap::first_key), m.keys().next().copied());
        assert_eq!(observe(t, TreeMap::last_key), m.keys().next_back().copied());
        assert_eq!(observe(t, |t| t.floor_key(k)), m.range(..=k).next_back().map(|(&k, _)| k));
        assert_eq!(observe(t, |t| t.ceiling_key(k)), m.range(k..).next().map(|(&k, _)| k));
        assert_eq!(observe(t, |t| t.lower_key(k)), m.range(..k).next_back().map(|(&k, _)| k));
        assert_eq!(observe(t, |t| t.higher_key(k)), m.range(k + 1..).next().map(|(&k, _)| k));
        let expected = (k <= k2).then(|| m.range(k..k2).map(|(&k, &v)| (k, v)).collect::<Vec<_>>()).ok_or(InvalidRange);
        assert_eq!(observe(t, |t| t.range(k, k2)), expected);
        assert_eq!(observe(t, TreeMap::keys), m.keys().copied().collect::<Vec<_>>());
        assert_eq!(observe(t, TreeMap::values), m.values().copied().collect::<Vec<_>>());
    }

    #[test]
    fn differential_against_btreemap() {
        let mut rng = XorShift(0x7F4A_7C15_9E37_79B9);
        for round in 0..3000 {
            let range = [4, 8, 16][round % 3];
            let mut t = TreeMap::new();
            let mut m = BTreeMap::new();
            for _ in 0..40 {
                let k = rng.below(range) as i32;
                let v = rng.below(range) as i32;
                match rng.below(16) {
                    0..=3 => assert_eq!(t.insert(k, v), m.insert(k, v)),
                    4..=5 => assert_eq!(t.remove(k), m.remove(&k)),
                    6 => assert_eq!(t.pop_first(), m.pop_first()),
                    7 => assert_eq!(t.pop_last(), m.pop_last()),
                    8 => {
                        let before = m.len();
                        m.retain(|&key, _| key < k);
                        assert_eq!(t.retain_below(k), before - m.len());
                    }
                    9 => {
                        let before = m.len();
                        m.retain(|&key, _| key >= k);
                        assert_eq!(t.retain_at_least(k), before - m.len());
                    }
                    10 => assert_eq!(t.get_or_insert(k, v), *m.entry(k).or_insert(v)),
                    11 => {
                        let expected = m.get_mut(&k).map(|old| std::mem::replace(old, v));
                        assert_eq!(t.update_if_present(k, v), expected);
                    }
                    12 => {
                        let expected = {
                            let count = m.entry(k).or_insert(0);
                            *count += 1;
                            *count
                        };
                        assert_eq!(t.increment(k), Ok(expected));
                    }
                    13 => {
                        if rng.below(8) == 0 {
                            t.clear();
                            m.clear();
                        }
                    }
                    _ => check_observers(&t, &m, k, rng.below(range) as i32),
                }
                assert!(t.rep_ok(), "{}", t.shape());
                assert_eq!(t.entries(), m.iter().map(|(&k, &v)| (k, v)).collect::<Vec<_>>());
                // Slots are recycled: the arena never holds more than the peak size.
                assert!(t.nodes.len() <= range as usize);
            }
            check_observers(&t, &m, rng.below(range) as i32, rng.below(range) as i32);
        }
    }

    #[test]
    fn matches_treemap_shapes() {
        let mut t = TreeMap::new();
        for k in [0, 1, 2] {
            assert_eq!(t.insert(k, 10 + k), None);
        }
        assert_eq!(t.shape(), "(1=11B (0=10R . .) (2=12R . .))");
        // `put` of a present key replaces the value in place.
        assert_eq!(t.insert(1, 7), Some(11));
        assert_eq!(t.shape(), "(1=7B (0=10R . .) (2=12R . .))");
        t.insert(3, 13);
        assert_eq!(t.shape(), "(1=7B (0=10B . .) (2=12B . (3=13R . .)))");
        // Two children: the successor's key and value are copied up.
        assert_eq!(t.remove(1), Some(7));
        assert_eq!(t.shape(), "(2=12B (0=10B . .) (3=13B . .))");
        assert!(t.rep_ok());
    }

    /// The shape with values left out: `(keyColour left right)`.
    fn colours(t: &TreeMap) -> String {
        let mut shape = t.shape();
        for v in 0..10 {
            shape = shape.replace(&format!("={v}"), "");
        }
        shape
    }

    #[test]
    fn removal_makes_shapes_insertion_cannot() {
        // Every shape that up to four insertions over keys 0..5 make.
        fn explore(t: &TreeMap, depth: usize, seen: &mut BTreeSet<String>) {
            seen.insert(colours(t));
            if depth == 0 {
                return;
            }
            for k in 0..5 {
                let mut next = t.clone();
                if next.insert(k, 0).is_none() {
                    explore(&next, depth - 1, seen);
                }
            }
        }
        let mut by_insertion = BTreeSet::new();
        explore(&TreeMap::new(), 4, &mut by_insertion);
        let mut t = TreeMap::new();
        for k in [0, 1, 2, 3] {
            t.insert(k, 0);
        }
        t.remove(1);
        // Three black nodes: never four nodes on the way (scope 4 is enough).
        assert_eq!(colours(&t), "(2B (0B . .) (3B . .))");
        assert!(!by_insertion.contains(&colours(&t)), "{by_insertion:?}");
    }

    #[test]
    fn bulk_removals_go_in_ascending_order() {
        let keys = [5, 2, 8, 1, 3, 7, 9, 0, 4, 6];
        let build = || {
            let mut t = TreeMap::new();
            for k in keys {
                t.insert(k, k * 2);
            }
            t
        };
        let mut bulk = build();
        let mut one_by_one = build();
        assert_eq!(bulk.retain_below(4), 6);
        for k in 4..10 {
            one_by_one.remove(k);
        }
        assert_eq!(bulk.shape(), one_by_one.shape());
        let mut bulk = build();
        let mut popped = build();
        assert_eq!(bulk.retain_at_least(3), 3);
        for _ in 0..3 {
            popped.pop_first();
        }
        assert_eq!(bulk.shape(), popped.shape());
        assert!(bulk.rep_ok() && popped.rep_ok());
    }

    #[test]
    fn increment_counts_and_reports_overflow() {
        let mut t = TreeMap::new();
        assert_eq!(t.increment(3), Ok(1));
        assert_eq!(t.increment(3), Ok(2));
        t.insert(4, i32::MAX);
        assert_eq!(t.increment(4), Err(Overflow));
        assert_eq!(t.get(4), Some(i32::MAX));
        assert!(t.rep_ok());
    }

    #[test]
    fn empty_map_answers_none() {
        let mut t = TreeMap::new();
        assert_eq!(t.first_key(), None);
        assert_eq!(t.last_key(), None);
        assert_eq!(t.pop_first(), None);
        assert_eq!(t.pop_last(), None);
        assert_eq!(t.floor_key(1), None);
        assert_eq!(t.remove(1), None);
        assert_eq!(t.update_if_present(1, 1), None);
        assert_eq!(t.range(0, 3), Ok(vec![]));
        assert_eq!(t.range(3, 0), Err(InvalidRange));
        assert!(t.rep_ok() && t.is_empty());
    }

    #[test]
    fn equality_is_by_entries() {
        let mut a = TreeMap::new();
        let mut b = TreeMap::new();
        for k in [0, 1, 2] {
            a.insert(k, 5);
        }
        for k in [2, 1, 0, 3] {
            b.insert(k, 5);
        }
        b.remove(3);
        assert_eq!(a, b);
        b.insert(0, 6);
        assert_ne!(a, b);
        assert!(a < b);
    }
}
