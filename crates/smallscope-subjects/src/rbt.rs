//! `rbt`: a red-black tree of distinct `i32` keys, balanced exactly as
//! `java.util.TreeMap` balances it.
//!
//! Ports `TreeMap`'s `put` (with `fixAfterInsertion`), `deleteEntry` (with
//! `fixAfterDeletion`), `rotateLeft`/`rotateRight`, `successor` and the
//! null-safe helpers `colorOf`/`parentOf`/`leftOf`/`rightOf`, keeping keys only
//! (a `TreeSet`). As in `TreeMap`, a fresh entry is black, the root is always
//! black, and deleting a node with two children copies its successor's key into
//! it and deletes the successor instead. Because the port follows `TreeMap`
//! line by line, the reachable shapes and colourings are Java's; some of them
//! are reachable only through removals, so `remove` is needed as a builder.
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

#[derive(Heap, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    Red,
    Black,
}

use Color::{Black, Red};

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

#[derive(Heap, Clone, Debug)]
struct Node {
    key: i32,
    color: Color,
    #[heap(index = "nodes")]
    left: Option<usize>,
    #[heap(index = "nodes")]
    right: Option<usize>,
    #[heap(index = "nodes")]
    parent: Option<usize>,
}

type Link = Option<usize>;

#[smallscope::api(rep_ok = rep_ok, register("rbt" = RedBlackTree<Correct>, "rbt-bug-fixup" = RedBlackTree<FixupBug>))]
impl<V: Variant> RedBlackTree<V> {
    /// An empty tree.
    pub fn new() -> Self {
        RedBlackTree { nodes: Vec::new(), root: None, size: 0, free: Vec::new(), variant: PhantomData }
    }

    /// `TreeMap.put`: inserts `key`; returns `false` (and changes nothing) if it is already present.
    pub fn add(&mut self, key: i32) -> bool {
        let Some(mut t) = self.root else {
            let e = self.alloc(key, None);
            self.root = Some(e);
            self.size = 1;
            return true;
        };
        let (parent, less) = loop {
            let node = &self.nodes[t];
            let next = if key < node.key {
                node.left
            } else if key > node.key {
                node.right
            } else {
                return false;
            };
            match next {
                Some(n) => t = n,
                None => break (t, key < node.key),
            }
        };
        let e = self.alloc(key, Some(parent));
        if less {
            self.nodes[parent].left = Some(e);
        } else {
            self.nodes[parent].right = Some(e);
        }
        self.fix_after_insertion(Some(e));
        self.size += 1;
        true
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
        self.nodes.clear();
        self.free.clear();
        self.root = None;
        self.size = 0;
    }

    /// `TreeMap.firstKey`: the smallest key.
    pub fn first_key(&self) -> Result<i32, NoSuchElement> {
        self.first_entry().map(|e| self.nodes[e].key).ok_or(NoSuchElement)
    }

    /// `TreeMap.lastKey`: the largest key.
    pub fn last_key(&self) -> Result<i32, NoSuchElement> {
        self.last_entry().map(|e| self.nodes[e].key).ok_or(NoSuchElement)
    }

    /// `TreeMap.floorKey`: the greatest key `<= key`.
    pub fn floor(&self, key: i32) -> Result<i32, NoSuchElement> {
        self.search(key, true, true)
    }

    /// `TreeMap.ceilingKey`: the least key `>= key`.
    pub fn ceiling(&self, key: i32) -> Result<i32, NoSuchElement> {
        self.search(key, false, true)
    }

    /// `TreeMap.lowerKey`: the greatest key `< key`.
    pub fn lower(&self, key: i32) -> Result<i32, NoSuchElement> {
        self.search(key, true, false)
    }

    /// `TreeMap.higherKey`: the least key `> key`.
    pub fn higher(&self, key: i32) -> Result<i32, NoSuchElement> {
        self.search(key, false, false)
    }

    /// `TreeMap.pollFirstEntry`: removes and returns the smallest key.
    pub fn poll_first(&mut self) -> Result<i32, NoSuchElement> {
        let e = self.first_entry().ok_or(NoSuchElement)?;
        let key = self.nodes[e].key;
        self.delete_entry(e);
        Ok(key)
    }

    /// `TreeMap.pollLastEntry`: removes and returns the largest key.
    pub fn poll_last(&mut self) -> Result<i32, NoSuchElement> {
        let e = self.last_entry().ok_or(NoSuchElement)?;
        let key = self.nodes[e].key;
        self.delete_entry(e);
        Ok(key)
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
        let mut out = Vec::with_capacity(self.size);
        let mut e = self.first_entry();
        while let Some(i) = e {
            out.push(self.nodes[i].key);
            e = self.successor(Some(i));
        }
        out
    }

    /// The tree as nested text, `(keyColour left right)` with `.` for an empty
    /// subtree: `(1B (0R . .) (2R . .))`. Two trees are the same structure iff
    /// their shapes are equal (the parent links follow from the child links).
    pub fn shape(&self) -> String {
        fn go(nodes: &[Node], p: Link, out: &mut String, budget: &mut usize) {
            match p {
                Some(i) if i < nodes.len() && *budget > 0 => {
                    *budget -= 1;
                    let n = &nodes[i];
                    let c = if n.color == Red { 'R' } else { 'B' };
                    out.push_str(&format!("({}{} ", n.key, c));
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

    fn alloc(&mut self, key: i32, parent: Link) -> usize {
        // A new TreeMap.Entry is black; fixAfterInsertion paints it red.
        let node = Node { key, color: Black, left: None, right: None, parent };
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

    /// The closest key below (`below`) or above `key`; `inclusive` allows `key` itself.
    fn search(&self, key: i32, below: bool, inclusive: bool) -> Result<i32, NoSuchElement> {
        let mut best = None;
        let mut p = self.root;
        while let Some(i) = p {
            let n = &self.nodes[i];
            if key == n.key && inclusive {
                return Ok(n.key);
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
        best.ok_or(NoSuchElement)
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

    /// `TreeMap.rotateLeft`. (Java would throw on a missing right child; that
    /// cannot happen in a valid tree, and doing nothing keeps a corrupted
    /// variant's tree walkable so that `rep_ok` reports it.)
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
        // If strictly internal, copy the successor's key into p and delete the successor.
        if self.nodes[p].left.is_some() && self.nodes[p].right.is_some() {
            let s = self.successor(Some(p)).expect("an internal node has a successor");
            self.nodes[p].key = self.nodes[s].key;
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
                    // The planted bug: this line left unmirrored from the branch above.
                    let far = if V::FIXUP_BUG { self.right_of(sib) } else { self.left_of(sib) };
                    self.set_color(far, Black);
                    self.rotate_right(self.parent_of(x));
                    x = self.root;
                }
            }
        }
        self.set_color(x, Black);
    }
}

// Two trees are equal when they hold the same keys (their in-order
// [`to_vec`](RedBlackTree::to_vec)s are equal; the tree is a set, it has no
// values), whatever their shapes and colours.
compare_by_content!([V: Variant] RedBlackTree<V>, to_vec);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, XorShift};
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

    fn sample() -> RedBlackTree<Correct> {
        let mut t = RedBlackTree::<Correct>::new();
        for k in [3, 1, 5, 0, 2, 4, 6, 7] {
            t.add(k);
        }
        assert!(t.rep_ok());
        t
    }

    fn find(t: &RedBlackTree<Correct>, key: i32) -> usize {
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
    fn rep_ok_rejects_red_red() {
        // (1B (0R) (2R . (3R))): black heights all equal, only the red-red rule is broken.
        let mut t = RedBlackTree::<Correct>::new();
        for k in [0, 1, 2] {
            t.add(k);
        }
        let two = find(&t, 2);
        assert_eq!(t.nodes[two].color, Red);
        let three = t.alloc(3, Some(two));
        t.nodes[three].color = Red;
        t.nodes[two].right = Some(three);
        t.size += 1;
        assert!(!t.rep_ok());
        t.nodes[three].color = Black;
        assert!(!t.rep_ok()); // now the black height is off instead
    }

    #[test]
    fn rep_ok_rejects_black_height() {
        assert_rejects(sample(), |t| {
            let seven = find(t, 7);
            t.nodes[seven].color = Black;
        });
    }

    #[test]
    fn rep_ok_rejects_broken_parent_link() {
        assert_rejects(sample(), |t| {
            let zero = find(t, 0);
            t.nodes[zero].parent = t.root;
        });
    }

    #[test]
    fn rep_ok_rejects_root_with_parent() {
        assert_rejects(sample(), |t| {
            let r = t.root.unwrap();
            t.nodes[r].parent = Some(find(t, 0));
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
    fn rep_ok_rejects_out_of_bounds_link() {
        assert_rejects(sample(), |t| {
            let zero = find(t, 0);
            t.nodes[zero].left = Some(99);
        });
    }

    #[test]
    fn rep_ok_rejects_live_node_on_free_list() {
        assert_rejects(sample(), |t| t.free.push(find(t, 4)));
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
