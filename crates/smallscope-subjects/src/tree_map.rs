//! `tree-map`: a red-black tree map from `i32` keys to `i32` values,
//! balanced exactly as `java.util.TreeMap` (and CLRS) balances it.
//!
//! The tree is [`rbt`](crate::rbt)'s port of `TreeMap` (`put` with
//! `fixAfterInsertion`, `deleteEntry` with `fixAfterDeletion`, the rotations,
//! `successor` and the null-safe helpers), with a value in every entry. As in
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

pub use crate::rbt::Color;
use Color::{Black, Red};

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

#[derive(Heap, Clone, Debug)]
struct Node {
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

type Link = Option<usize>;

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
        let p = self.get_entry(key)?;
        let value = self.nodes[p].value;
        self.delete_entry(p);
        Some(value)
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
        self.nodes.clear();
        self.free.clear();
        self.root = None;
        self.size = 0;
    }

    /// The smallest key.
    pub fn first_key(&self) -> Option<i32> {
        self.first_entry().map(|e| self.nodes[e].key)
    }

    /// The largest key.
    pub fn last_key(&self) -> Option<i32> {
        self.last_entry().map(|e| self.nodes[e].key)
    }

    /// `TreeMap.pollFirstEntry`: removes and returns the entry with the smallest key.
    pub fn pop_first(&mut self) -> Option<(i32, i32)> {
        let e = self.first_entry()?;
        let entry = (self.nodes[e].key, self.nodes[e].value);
        self.delete_entry(e);
        Some(entry)
    }

    /// `TreeMap.pollLastEntry`: removes and returns the entry with the largest key.
    pub fn pop_last(&mut self) -> Option<(i32, i32)> {
        let e = self.last_entry()?;
        let entry = (self.nodes[e].key, self.nodes[e].value);
        self.delete_entry(e);
        Some(entry)
    }

    /// `TreeMap.floorKey`: the greatest key `<= key`.
    pub fn floor_key(&self, key: i32) -> Option<i32> {
        self.search(key, true, true)
    }

    /// `TreeMap.ceilingKey`: the least key `>= key`.
    pub fn ceiling_key(&self, key: i32) -> Option<i32> {
        self.search(key, false, true)
    }

    /// `TreeMap.lowerKey`: the greatest key `< key`.
    pub fn lower_key(&self, key: i32) -> Option<i32> {
        self.search(key, true, false)
    }

    /// `TreeMap.higherKey`: the least key `> key`.
    pub fn higher_key(&self, key: i32) -> Option<i32> {
        self.search(key, false, false)
    }

    /// The entries with `lo <= key < hi`, in key order (`BTreeMap::range(lo..hi)`,
    /// `TreeMap.subMap(lo, hi)`); `lo > hi` is misuse.
    pub fn range(&self, lo: i32, hi: i32) -> Result<Vec<(i32, i32)>, InvalidRange> {
        if lo > hi {
            return Err(InvalidRange);
        }
        let mut out = Vec::new();
        let mut e = self.ceiling_entry(lo);
        while let Some(i) = e {
            if self.nodes[i].key >= hi {
                break;
            }
            out.push((self.nodes[i].key, self.nodes[i].value));
            e = self.successor(Some(i));
        }
        Ok(out)
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
        self.entries().into_iter().map(|(k, _)| k).collect()
    }

    /// The values in increasing order of their keys.
    pub fn values(&self) -> Vec<i32> {
        self.entries().into_iter().map(|(_, v)| v).collect()
    }

    /// The invariant: links in bounds and acyclic, parent links consistent,
    /// BST order, root black, no red node with a red child, the same number
    /// of black nodes on every root-to-leaf path, `size` = node count, and no
    /// reachable node on the free list.
    pub fn rep_ok(&self) -> bool {
        let Some(root) = self.root else {
            return self.size == 0;
        };
        if root >= self.nodes.len() || self.nodes[root].parent.is_some() || self.nodes[root].color != Black {
            return false;
        }
        let mut visited = vec![false; self.nodes.len()];
        // Explicit stack: (node, lower bound, upper bound, black nodes above it).
        let mut stack = vec![(root, None::<i32>, None::<i32>, 0usize)];
        let mut black_height = None;
        let mut count = 0;
        while let Some((i, lo, hi, blacks)) = stack.pop() {
            if visited[i] {
                return false;
            }
            visited[i] = true;
            count += 1;
            let n = &self.nodes[i];
            if lo.is_some_and(|lo| n.key <= lo) || hi.is_some_and(|hi| n.key >= hi) {
                return false;
            }
            let blacks = blacks + usize::from(n.color == Black);
            for (child, lo, hi) in [(n.left, lo, Some(n.key)), (n.right, Some(n.key), hi)] {
                match child {
                    None => {
                        // A null leaf ends a path: all paths count the same blacks.
                        if *black_height.get_or_insert(blacks) != blacks {
                            return false;
                        }
                    }
                    Some(c) => {
                        if c >= self.nodes.len() || self.nodes[c].parent != Some(i) {
                            return false;
                        }
                        if n.color == Red && self.nodes[c].color == Red {
                            return false;
                        }
                        stack.push((c, lo, hi, blacks));
                    }
                }
            }
        }
        count == self.size && self.free.iter().all(|&f| f >= visited.len() || !visited[f])
    }
}

impl TreeMap {
    /// The entries `(key, value)` in increasing key order.
    pub fn entries(&self) -> Vec<(i32, i32)> {
        let mut out = Vec::with_capacity(self.size);
        let mut e = self.first_entry();
        while let Some(i) = e {
            out.push((self.nodes[i].key, self.nodes[i].value));
            e = self.successor(Some(i));
        }
        out
    }

    /// The tree as nested text, `(key=valueColour left right)` with `.` for
    /// an empty subtree: `(1=0B (0=0R . .) (2=0R . .))`. Two maps are the
    /// same structure iff their shapes are equal.
    pub fn shape(&self) -> String {
        fn go(nodes: &[Node], p: Link, out: &mut String, budget: &mut usize) {
            match p {
                Some(i) if i < nodes.len() && *budget > 0 => {
                    *budget -= 1;
                    let n = &nodes[i];
                    let c = if n.color == Red { 'R' } else { 'B' };
                    out.push_str(&format!("({}={}{} ", n.key, n.value, c));
                    go(nodes, n.left, out, budget);
                    out.push(' ');
                    go(nodes, n.right, out, budget);
                    out.push(')');
                }
                Some(_) => out.push('!'),
                None => out.push('.'),
            }
        }
        let mut out = String::new();
        // The budget keeps a corrupted (cyclic) tree's text finite.
        let mut budget = self.nodes.len();
        go(&self.nodes, self.root, &mut out, &mut budget);
        out
    }

    /// Removes each of `keys` (ascending) as an iterator's `remove` would; returns how many.
    fn remove_all(&mut self, keys: &[i32]) -> usize {
        for &k in keys {
            let e = self.get_entry(k).expect("a key listed by `keys`");
            self.delete_entry(e);
        }
        keys.len()
    }

    /// `TreeMap.put` without touching the value of a present key: the entry
    /// of `key`, and whether it was made (with `value`) just now.
    fn put_entry(&mut self, key: i32, value: i32) -> (usize, bool) {
        let Some(mut t) = self.root else {
            let e = self.alloc(key, value, None);
            self.root = Some(e);
            self.size = 1;
            return (e, true);
        };
        let (parent, less) = loop {
            let node = &self.nodes[t];
            let next = if key < node.key {
                node.left
            } else if key > node.key {
                node.right
            } else {
                return (t, false);
            };
            match next {
                Some(n) => t = n,
                None => break (t, key < node.key),
            }
        };
        let e = self.alloc(key, value, Some(parent));
        if less {
            self.nodes[parent].left = Some(e);
        } else {
            self.nodes[parent].right = Some(e);
        }
        self.fix_after_insertion(Some(e));
        self.size += 1;
        (e, true)
    }

    fn alloc(&mut self, key: i32, value: i32, parent: Link) -> usize {
        // A new TreeMap.Entry is black; fixAfterInsertion paints it red.
        let node = Node { key, value, color: Black, left: None, right: None, parent };
        match self.free.pop() {
            Some(i) => {
                self.nodes[i] = node;
                i
            }
            None => {
                self.nodes.push(node);
                self.nodes.len() - 1
            }
        }
    }

    fn get_entry(&self, key: i32) -> Link {
        let mut p = self.root;
        while let Some(i) = p {
            let n = &self.nodes[i];
            if key < n.key {
                p = n.left;
            } else if key > n.key {
                p = n.right;
            } else {
                return p;
            }
        }
        None
    }

    fn first_entry(&self) -> Link {
        let mut p = self.root?;
        while let Some(l) = self.nodes[p].left {
            p = l;
        }
        Some(p)
    }

    fn last_entry(&self) -> Link {
        let mut p = self.root?;
        while let Some(r) = self.nodes[p].right {
            p = r;
        }
        Some(p)
    }

    /// `TreeMap.getCeilingEntry`: the entry with the least key `>= key`.
    fn ceiling_entry(&self, key: i32) -> Link {
        let mut best = None;
        let mut p = self.root;
        while let Some(i) = p {
            let n = &self.nodes[i];
            if key == n.key {
                return Some(i);
            }
            if n.key > key {
                best = Some(i);
                p = n.left;
            } else {
                p = n.right;
            }
        }
        best
    }

    /// The closest key below (`below`) or above `key`; `inclusive` allows `key` itself.
    fn search(&self, key: i32, below: bool, inclusive: bool) -> Option<i32> {
        let mut best = None;
        let mut p = self.root;
        while let Some(i) = p {
            let n = &self.nodes[i];
            if key == n.key && inclusive {
                return Some(n.key);
            }
            if below {
                if n.key < key {
                    best = Some(n.key);
                    p = n.right;
                } else {
                    p = n.left;
                }
            } else if n.key > key {
                best = Some(n.key);
                p = n.left;
            } else {
                p = n.right;
            }
        }
        best
    }

    /// `TreeMap.successor`.
    fn successor(&self, t: Link) -> Link {
        let t = t?;
        if let Some(mut p) = self.nodes[t].right {
            while let Some(l) = self.nodes[p].left {
                p = l;
            }
            Some(p)
        } else {
            let mut p = self.nodes[t].parent;
            let mut ch = t;
            while let Some(pi) = p {
                if self.nodes[pi].right != Some(ch) {
                    break;
                }
                ch = pi;
                p = self.nodes[pi].parent;
            }
            p
        }
    }

    // TreeMap's null-safe helpers.

    fn color_of(&self, p: Link) -> Color {
        p.map_or(Black, |i| self.nodes[i].color)
    }

    fn parent_of(&self, p: Link) -> Link {
        p.and_then(|i| self.nodes[i].parent)
    }

    fn left_of(&self, p: Link) -> Link {
        p.and_then(|i| self.nodes[i].left)
    }

    fn right_of(&self, p: Link) -> Link {
        p.and_then(|i| self.nodes[i].right)
    }

    fn set_color(&mut self, p: Link, c: Color) {
        if let Some(i) = p {
            self.nodes[i].color = c;
        }
    }

    /// `TreeMap.rotateLeft` (a missing right child, which a valid tree never
    /// has there, leaves the tree as it is).
    fn rotate_left(&mut self, p: Link) {
        let Some(p) = p else { return };
        let Some(r) = self.nodes[p].right else { return };
        let rl = self.nodes[r].left;
        self.nodes[p].right = rl;
        if let Some(rl) = rl {
            self.nodes[rl].parent = Some(p);
        }
        let pp = self.nodes[p].parent;
        self.nodes[r].parent = pp;
        match pp {
            None => self.root = Some(r),
            Some(q) if self.nodes[q].left == Some(p) => self.nodes[q].left = Some(r),
            Some(q) => self.nodes[q].right = Some(r),
        }
        self.nodes[r].left = Some(p);
        self.nodes[p].parent = Some(r);
    }

    /// `TreeMap.rotateRight`.
    fn rotate_right(&mut self, p: Link) {
        let Some(p) = p else { return };
        let Some(l) = self.nodes[p].left else { return };
        let lr = self.nodes[l].right;
        self.nodes[p].left = lr;
        if let Some(lr) = lr {
            self.nodes[lr].parent = Some(p);
        }
        let pp = self.nodes[p].parent;
        self.nodes[l].parent = pp;
        match pp {
            None => self.root = Some(l),
            Some(q) if self.nodes[q].right == Some(p) => self.nodes[q].right = Some(l),
            Some(q) => self.nodes[q].left = Some(l),
        }
        self.nodes[l].right = Some(p);
        self.nodes[p].parent = Some(l);
    }

    /// `TreeMap.fixAfterInsertion` (CLR).
    fn fix_after_insertion(&mut self, mut x: Link) {
        self.set_color(x, Red);
        while x.is_some() && x != self.root && self.color_of(self.parent_of(x)) == Red {
            let xp = self.parent_of(x);
            let xpp = self.parent_of(xp);
            if xp == self.left_of(xpp) {
                let y = self.right_of(xpp);
                if self.color_of(y) == Red {
                    self.set_color(xp, Black);
                    self.set_color(y, Black);
                    self.set_color(xpp, Red);
                    x = xpp;
                } else {
                    if x == self.right_of(self.parent_of(x)) {
                        x = self.parent_of(x);
                        self.rotate_left(x);
                    }
                    self.set_color(self.parent_of(x), Black);
                    self.set_color(self.parent_of(self.parent_of(x)), Red);
                    self.rotate_right(self.parent_of(self.parent_of(x)));
                }
            } else {
                let y = self.left_of(xpp);
                if self.color_of(y) == Red {
                    self.set_color(xp, Black);
                    self.set_color(y, Black);
                    self.set_color(xpp, Red);
                    x = xpp;
                } else {
                    if x == self.left_of(self.parent_of(x)) {
                        x = self.parent_of(x);
                        self.rotate_right(x);
                    }
                    self.set_color(self.parent_of(x), Black);
                    self.set_color(self.parent_of(self.parent_of(x)), Red);
                    self.rotate_left(self.parent_of(self.parent_of(x)));
                }
            }
        }
        self.set_color(self.root, Black);
    }

    /// `TreeMap.deleteEntry`.
    fn delete_entry(&mut self, mut p: usize) {
        self.size -= 1;
        // If strictly internal, copy the successor's entry into p and delete the successor.
        if self.nodes[p].left.is_some() && self.nodes[p].right.is_some() {
            let s = self.successor(Some(p)).expect("an internal node has a successor");
            self.nodes[p].key = self.nodes[s].key;
            self.nodes[p].value = self.nodes[s].value;
            p = s;
        }
        let replacement = self.nodes[p].left.or(self.nodes[p].right);
        if let Some(r) = replacement {
            let pp = self.nodes[p].parent;
            self.nodes[r].parent = pp;
            match pp {
                None => self.root = Some(r),
                Some(q) if self.nodes[q].left == Some(p) => self.nodes[q].left = Some(r),
                Some(q) => self.nodes[q].right = Some(r),
            }
            let n = &mut self.nodes[p];
            n.left = None;
            n.right = None;
            n.parent = None;
            if n.color == Black {
                self.fix_after_deletion(Some(r));
            }
        } else if self.nodes[p].parent.is_none() {
            // The only node.
            self.root = None;
        } else {
            // No children: p itself is the phantom replacement, unlinked after the fixup.
            if self.nodes[p].color == Black {
                self.fix_after_deletion(Some(p));
            }
            if let Some(q) = self.nodes[p].parent {
                if self.nodes[q].left == Some(p) {
                    self.nodes[q].left = None;
                } else if self.nodes[q].right == Some(p) {
                    self.nodes[q].right = None;
                }
                self.nodes[p].parent = None;
            }
        }
        self.free.push(p);
    }

    /// `TreeMap.fixAfterDeletion` (CLR).
    fn fix_after_deletion(&mut self, mut x: Link) {
        while x != self.root && self.color_of(x) == Black {
            if x == self.left_of(self.parent_of(x)) {
                let mut sib = self.right_of(self.parent_of(x));
                if self.color_of(sib) == Red {
                    self.set_color(sib, Black);
                    self.set_color(self.parent_of(x), Red);
                    self.rotate_left(self.parent_of(x));
                    sib = self.right_of(self.parent_of(x));
                }
                if self.color_of(self.left_of(sib)) == Black && self.color_of(self.right_of(sib)) == Black {
                    self.set_color(sib, Red);
                    x = self.parent_of(x);
                } else {
                    if self.color_of(self.right_of(sib)) == Black {
                        self.set_color(self.left_of(sib), Black);
                        self.set_color(sib, Red);
                        self.rotate_right(sib);
                        sib = self.right_of(self.parent_of(x));
                    }
                    self.set_color(sib, self.color_of(self.parent_of(x)));
                    self.set_color(self.parent_of(x), Black);
                    self.set_color(self.right_of(sib), Black);
                    self.rotate_left(self.parent_of(x));
                    x = self.root;
                }
            } else {
                // Symmetric.
                let mut sib = self.left_of(self.parent_of(x));
                if self.color_of(sib) == Red {
                    self.set_color(sib, Black);
                    self.set_color(self.parent_of(x), Red);
                    self.rotate_right(self.parent_of(x));
                    sib = self.left_of(self.parent_of(x));
                }
                if self.color_of(self.right_of(sib)) == Black && self.color_of(self.left_of(sib)) == Black {
                    self.set_color(sib, Red);
                    x = self.parent_of(x);
                } else {
                    if self.color_of(self.left_of(sib)) == Black {
                        self.set_color(self.right_of(sib), Black);
                        self.set_color(sib, Red);
                        self.rotate_left(sib);
                        sib = self.left_of(self.parent_of(x));
                    }
                    self.set_color(sib, self.color_of(self.parent_of(x)));
                    self.set_color(self.parent_of(x), Black);
                    self.set_color(self.left_of(sib), Black);
                    self.rotate_right(self.parent_of(x));
                    x = self.root;
                }
            }
        }
        self.set_color(x, Black);
    }
}

// Two maps are equal when they hold the same entries (their
// [`entries`](TreeMap::entries) are equal), whatever their shapes and colours.
compare_by_content!([] TreeMap, entries);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, XorShift};
    use smallscope::heap::canonical_text;
    use std::collections::{BTreeMap, BTreeSet};

    /// Runs an observer on `t` and checks that the structure is unchanged.
    fn observe<R>(t: &TreeMap, f: impl FnOnce(&TreeMap) -> R) -> R {
        let before = canonical_text(t);
        let r = f(t);
        assert_eq!(canonical_text(t), before, "an observer changed the structure");
        r
    }

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

    fn sample() -> TreeMap {
        let mut t = TreeMap::new();
        for k in [3, 1, 5, 0, 2, 4, 6, 7] {
            t.insert(k, k + 1);
        }
        assert!(t.rep_ok());
        t
    }

    fn find(t: &TreeMap, key: i32) -> usize {
        t.get_entry(key).unwrap()
    }

    #[test]
    fn rep_ok_rejects_wrong_size() {
        assert_rejects_miscount(&sample(), |t| &mut t.size);
    }

    #[test]
    fn rep_ok_rejects_red_root() {
        assert_rejects(sample(), |t| {
            let r = t.root.unwrap();
            t.nodes[r].color = Red;
        });
    }

    #[test]
    fn rep_ok_rejects_black_height() {
        assert_rejects(sample(), |t| {
            let seven = find(t, 7);
            t.nodes[seven].color = Black;
        });
    }

    #[test]
    fn rep_ok_rejects_red_red() {
        // (1B (0R) (2R . (3R))): black heights all equal, only the red-red rule is broken.
        let mut t = TreeMap::new();
        for k in [0, 1, 2] {
            t.insert(k, 0);
        }
        let two = find(&t, 2);
        assert_eq!(t.nodes[two].color, Red);
        let three = t.alloc(3, 0, Some(two));
        t.nodes[three].color = Red;
        t.nodes[two].right = Some(three);
        t.size += 1;
        assert!(!t.rep_ok());
        t.nodes[three].color = Black;
        assert!(!t.rep_ok()); // now the black height is off instead
    }

    #[test]
    fn rep_ok_rejects_broken_parent_link() {
        assert_rejects(sample(), |t| {
            let zero = find(t, 0);
            t.nodes[zero].parent = t.root;
        });
    }

    #[test]
    fn rep_ok_rejects_cycle() {
        assert_rejects(sample(), |t| {
            let zero = find(t, 0);
            t.nodes[zero].left = t.root;
        });
    }

    #[test]
    fn rep_ok_rejects_bad_order() {
        assert_rejects(sample(), |t| {
            let two = find(t, 2);
            t.nodes[two].key = 9;
        });
    }

    #[test]
    fn rep_ok_rejects_live_node_on_free_list() {
        assert_rejects(sample(), |t| t.free.push(find(t, 4)));
    }
}
