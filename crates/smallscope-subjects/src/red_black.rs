//! `java.util.TreeMap`'s red-black tree, written once for the two subjects
//! that port it: `rbt` (keys only, a `TreeSet`) and `tree-map` (a key and a
//! value in every entry).
//!
//! Each subject keeps its own arena, so its heap shape stays its own (an
//! `rbt` node has no value field): it implements [`Entry`] for its node and
//! [`RedBlackArena`] for its tree, the field accessors through
//! [`entry_fields!`] and [`arena_fields!`]. The provided methods of
//! [`RedBlackArena`] are `TreeMap`'s `put` (with `fixAfterInsertion`),
//! `getEntry`, the closest-key searches, `successor`, `deleteEntry` (with
//! `fixAfterDeletion`), the rotations and the null-safe helpers `colorOf`,
//! `parentOf`, `leftOf` and `rightOf`, plus the invariant and the shape text.
//! They make the same calls in the same order as `TreeMap`, so the reachable
//! shapes and colourings are Java's; where `TreeMap` writes a case and then
//! its mirror image, the case is written once over a [`Side`].
//!
//! As in `TreeMap`, a fresh entry is black, the root is always black, and
//! deleting an entry with two children copies its successor's key and value
//! into it and deletes the successor instead. Removed slots are recycled
//! through the free list. `rbt`'s planted bug is
//! [`RedBlackArena::DELETION_FIXUP_BUG`].

use std::cmp::Ordering;

use smallscope::Heap;

use crate::arena;

/// A node's colour, shared by the trees built on this arena.
#[derive(Heap, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    Red,
    Black,
}

use Color::{Black, Red};

/// A link to a slot of the arena; `None` is Java's `null`.
pub(crate) type Link = Option<usize>;

/// Which child: `TreeMap` writes each balancing case for one side and then
/// again with `left` and `right` exchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Left,
    Right,
}

use Side::{Left, Right};

impl Side {
    fn opposite(self) -> Side {
        match self {
            Left => Right,
            Right => Left,
        }
    }
}

/// `TreeMap.Entry`: a node of the arena.
pub(crate) trait Entry {
    /// What an entry maps its key to: `()` for a set, the value for a map.
    type Value: Copy;

    /// `new Entry<>(key, value, parent)`: black, with no children.
    fn new(key: i32, value: Self::Value, parent: Link) -> Self;
    fn value(&self) -> Self::Value;
    /// Takes the key and value of another entry (`deleteEntry`'s copy of the successor).
    fn set_entry(&mut self, key: i32, value: Self::Value);

    fn key(&self) -> i32;
    fn color(&self) -> Color;
    fn set_color(&mut self, color: Color);
    fn child(&self, side: Side) -> Link;
    fn set_child(&mut self, side: Side, child: Link);
    fn parent(&self) -> Link;
    fn set_parent(&mut self, parent: Link);

    fn left(&self) -> Link {
        self.child(Left)
    }

    fn right(&self) -> Link {
        self.child(Right)
    }
}

/// The [`Entry`] methods of a node struct with the fields `key: i32`,
/// `color: Color` and the links `left`, `right` and `parent`.
macro_rules! entry_fields {
    () => {
        fn key(&self) -> i32 {
            self.key
        }

        fn color(&self) -> $crate::red_black::Color {
            self.color
        }

        fn set_color(&mut self, color: $crate::red_black::Color) {
            self.color = color;
        }

        fn child(&self, side: $crate::red_black::Side) -> $crate::red_black::Link {
            match side {
                $crate::red_black::Side::Left => self.left,
                $crate::red_black::Side::Right => self.right,
            }
        }

        fn set_child(&mut self, side: $crate::red_black::Side, child: $crate::red_black::Link) {
            match side {
                $crate::red_black::Side::Left => self.left = child,
                $crate::red_black::Side::Right => self.right = child,
            }
        }

        fn parent(&self) -> $crate::red_black::Link {
            self.parent
        }

        fn set_parent(&mut self, parent: $crate::red_black::Link) {
            self.parent = parent;
        }
    };
}

/// The [`RedBlackArena`] accessors of a tree struct with the fields
/// `nodes: Vec<Node>`, `root: Option<usize>`, `size: usize` and
/// `free: Vec<usize>`.
macro_rules! arena_fields {
    () => {
        fn nodes(&self) -> &[Self::Entry] {
            &self.nodes
        }

        fn nodes_mut(&mut self) -> &mut Vec<Self::Entry> {
            &mut self.nodes
        }

        fn root(&self) -> $crate::red_black::Link {
            self.root
        }

        fn set_root(&mut self, root: $crate::red_black::Link) {
            self.root = root;
        }

        fn count(&self) -> usize {
            self.size
        }

        fn set_count(&mut self, count: usize) {
            self.size = count;
        }

        fn free(&self) -> &[usize] {
            &self.free
        }

        fn free_mut(&mut self) -> &mut Vec<usize> {
            &mut self.free
        }
    };
}

/// A red-black tree kept in an arena as `TreeMap` keeps it (`root`, `size`),
/// with a free list of removed slots.
pub(crate) trait RedBlackArena: Sized {
    type Entry: Entry;

    /// `rbt`'s planted bug: the last case of `fixAfterDeletion`, in its
    /// mirrored half (the deleted position is a right child), blackens the
    /// sibling's near child instead of its far one.
    const DELETION_FIXUP_BUG: bool = false;

    fn nodes(&self) -> &[Self::Entry];
    fn nodes_mut(&mut self) -> &mut Vec<Self::Entry>;
    fn root(&self) -> Link;
    fn set_root(&mut self, root: Link);
    /// `TreeMap.size`: the number of entries.
    fn count(&self) -> usize;
    fn set_count(&mut self, count: usize);
    /// Slots of removed entries, not part of the structure.
    fn free(&self) -> &[usize];
    fn free_mut(&mut self) -> &mut Vec<usize>;

    fn node(&self, i: usize) -> &Self::Entry {
        &self.nodes()[i]
    }

    fn node_mut(&mut self, i: usize) -> &mut Self::Entry {
        &mut self.nodes_mut()[i]
    }

    /// `TreeMap.clear`; the arena is emptied too.
    fn clear_entries(&mut self) {
        self.nodes_mut().clear();
        self.free_mut().clear();
        self.set_root(None);
        self.set_count(0);
    }

    /// A fresh (black) entry, in a recycled slot when there is one.
    fn alloc(&mut self, key: i32, value: <Self::Entry as Entry>::Value, parent: Link) -> usize {
        let recycled = self.free_mut().pop();
        arena::store(self.nodes_mut(), recycled, Self::Entry::new(key, value, parent))
    }

    /// `getEntry`'s descent: `Ok` with the entry of `key`, else `Err` with
    /// the entry a new one for `key` would hang from and on which side
    /// (`None` for an empty tree).
    fn find(&self, key: i32) -> Result<usize, Option<(usize, Side)>> {
        let mut t = self.root().ok_or(None)?;
        loop {
            let side = match key.cmp(&self.node(t).key()) {
                Ordering::Less => Left,
                Ordering::Greater => Right,
                Ordering::Equal => return Ok(t),
            };
            match self.node(t).child(side) {
                Some(child) => t = child,
                None => return Err(Some((t, side))),
            }
        }
    }

    /// `TreeMap.getEntry`.
    fn get_entry(&self, key: i32) -> Link {
        self.find(key).ok()
    }

    /// `TreeMap.put` without touching the value of a present key: the entry
    /// of `key`, and whether it was made (with `value`) just now.
    fn put_entry(&mut self, key: i32, value: <Self::Entry as Entry>::Value) -> (usize, bool) {
        match self.find(key) {
            Ok(t) => (t, false),
            Err(None) => {
                let e = self.alloc(key, value, None);
                self.set_root(Some(e));
                self.set_count(1);
                (e, true)
            }
            Err(Some((parent, side))) => {
                let e = self.alloc(key, value, Some(parent));
                self.node_mut(parent).set_child(side, Some(e));
                self.fix_after_insertion(Some(e));
                self.set_count(self.count() + 1);
                (e, true)
            }
        }
    }

    /// The last entry going down `side` from `from`.
    fn outermost(&self, from: Link, side: Side) -> Link {
        let mut p = from?;
        while let Some(child) = self.node(p).child(side) {
            p = child;
        }
        Some(p)
    }

    /// `TreeMap.getFirstEntry`.
    fn first_entry(&self) -> Link {
        self.outermost(self.root(), Left)
    }

    /// `TreeMap.getLastEntry`.
    fn last_entry(&self) -> Link {
        self.outermost(self.root(), Right)
    }

    /// The entry with the closest key below (`below`) or above `key`;
    /// `inclusive` allows `key` itself (`getFloorEntry`, `getCeilingEntry`,
    /// `getLowerEntry`, `getHigherEntry`).
    fn closest_entry(&self, key: i32, below: bool, inclusive: bool) -> Link {
        let mut best = None;
        let mut p = self.root();
        while let Some(i) = p {
            let n = self.node(i);
            if key == n.key() && inclusive {
                return Some(i);
            }
            let candidate = if below { n.key() < key } else { n.key() > key };
            if candidate {
                best = Some(i);
            }
            // Past a candidate, look for a closer one; otherwise for one at all.
            let toward_key = if below { Right } else { Left };
            p = if candidate { n.child(toward_key) } else { n.child(toward_key.opposite()) };
        }
        best
    }

    /// `TreeMap.successor`.
    fn successor(&self, t: Link) -> Link {
        let t = t?;
        if let Some(right) = self.node(t).right() {
            return self.outermost(Some(right), Left);
        }
        let mut p = self.node(t).parent();
        let mut ch = t;
        while let Some(pi) = p {
            if self.node(pi).right() != Some(ch) {
                break;
            }
            ch = pi;
            p = self.node(pi).parent();
        }
        p
    }

    /// The entries from `start` on, in key order.
    fn in_order_from(&self, start: Link) -> impl Iterator<Item = &Self::Entry> {
        std::iter::successors(start, move |&i| self.successor(Some(i))).map(move |i| self.node(i))
    }

    /// All entries in key order.
    fn in_order(&self) -> impl Iterator<Item = &Self::Entry> {
        self.in_order_from(self.first_entry())
    }

    // TreeMap's null-safe helpers.

    fn color_of(&self, p: Link) -> Color {
        p.map_or(Black, |i| self.node(i).color())
    }

    fn parent_of(&self, p: Link) -> Link {
        p.and_then(|i| self.node(i).parent())
    }

    fn child_of(&self, p: Link, side: Side) -> Link {
        p.and_then(|i| self.node(i).child(side))
    }

    fn set_color(&mut self, p: Link, color: Color) {
        if let Some(i) = p {
            self.node_mut(i).set_color(color);
        }
    }

    /// `TreeMap.rotateLeft` (`down` = `Left`) or `rotateRight`: `p`'s child
    /// on the other side takes its place and `p` becomes its child on
    /// `down`. A missing child there, which a valid tree never has, leaves
    /// the tree as it is.
    fn rotate(&mut self, p: Link, down: Side) {
        let up = down.opposite();
        let Some(p) = p else { return };
        let Some(c) = self.node(p).child(up) else { return };
        let inner = self.node(c).child(down);
        self.node_mut(p).set_child(up, inner);
        if let Some(inner) = inner {
            self.node_mut(inner).set_parent(Some(p));
        }
        let pp = self.node(p).parent();
        self.node_mut(c).set_parent(pp);
        match pp {
            None => self.set_root(Some(c)),
            Some(q) if self.node(q).child(down) == Some(p) => self.node_mut(q).set_child(down, Some(c)),
            Some(q) => self.node_mut(q).set_child(up, Some(c)),
        }
        self.node_mut(c).set_child(down, Some(p));
        self.node_mut(p).set_parent(Some(c));
    }

    /// `TreeMap.fixAfterInsertion` (CLR).
    fn fix_after_insertion(&mut self, mut x: Link) {
        self.set_color(x, Red);
        while x.is_some() && x != self.root() && self.color_of(self.parent_of(x)) == Red {
            let xp = self.parent_of(x);
            let xpp = self.parent_of(xp);
            // The side of x's parent under its grandparent; y is the uncle.
            let side = if xp == self.child_of(xpp, Left) { Left } else { Right };
            let y = self.child_of(xpp, side.opposite());
            if self.color_of(y) == Red {
                self.set_color(xp, Black);
                self.set_color(y, Black);
                self.set_color(xpp, Red);
                x = xpp;
            } else {
                if x == self.child_of(self.parent_of(x), side.opposite()) {
                    x = self.parent_of(x);
                    self.rotate(x, side);
                }
                self.set_color(self.parent_of(x), Black);
                self.set_color(self.parent_of(self.parent_of(x)), Red);
                self.rotate(self.parent_of(self.parent_of(x)), side.opposite());
            }
        }
        self.set_color(self.root(), Black);
    }

    /// `TreeMap.deleteEntry`.
    fn delete_entry(&mut self, mut p: usize) {
        self.set_count(self.count() - 1);
        // If strictly internal, copy the successor's entry into p and delete the successor.
        if self.node(p).left().is_some() && self.node(p).right().is_some() {
            let s = self.successor(Some(p)).expect("an internal node has a successor");
            let (key, value) = (self.node(s).key(), self.node(s).value());
            self.node_mut(p).set_entry(key, value);
            p = s;
        }
        let replacement = self.node(p).left().or(self.node(p).right());
        if let Some(r) = replacement {
            let pp = self.node(p).parent();
            self.node_mut(r).set_parent(pp);
            match pp {
                None => self.set_root(Some(r)),
                Some(q) if self.node(q).left() == Some(p) => self.node_mut(q).set_child(Left, Some(r)),
                Some(q) => self.node_mut(q).set_child(Right, Some(r)),
            }
            let n = self.node_mut(p);
            n.set_child(Left, None);
            n.set_child(Right, None);
            n.set_parent(None);
            if n.color() == Black {
                self.fix_after_deletion(Some(r));
            }
        } else if self.node(p).parent().is_none() {
            // The only node.
            self.set_root(None);
        } else {
            // No children: p itself is the phantom replacement, unlinked after the fixup.
            if self.node(p).color() == Black {
                self.fix_after_deletion(Some(p));
            }
            if let Some(q) = self.node(p).parent() {
                if self.node(q).left() == Some(p) {
                    self.node_mut(q).set_child(Left, None);
                } else if self.node(q).right() == Some(p) {
                    self.node_mut(q).set_child(Right, None);
                }
                self.node_mut(p).set_parent(None);
            }
        }
        self.free_mut().push(p);
    }

    /// `TreeMap.fixAfterDeletion` (CLR).
    fn fix_after_deletion(&mut self, mut x: Link) {
        while x != self.root() && self.color_of(x) == Black {
            // The side of x under its parent; the sibling is on the far side.
            let side = if x == self.child_of(self.parent_of(x), Left) { Left } else { Right };
            let far = side.opposite();
            let mut sib = self.child_of(self.parent_of(x), far);
            if self.color_of(sib) == Red {
                self.set_color(sib, Black);
                self.set_color(self.parent_of(x), Red);
                self.rotate(self.parent_of(x), side);
                sib = self.child_of(self.parent_of(x), far);
            }
            if self.color_of(self.child_of(sib, side)) == Black && self.color_of(self.child_of(sib, far)) == Black {
                self.set_color(sib, Red);
                x = self.parent_of(x);
            } else {
                if self.color_of(self.child_of(sib, far)) == Black {
                    self.set_color(self.child_of(sib, side), Black);
                    self.set_color(sib, Red);
                    self.rotate(sib, far);
                    sib = self.child_of(self.parent_of(x), far);
                }
                self.set_color(sib, self.color_of(self.parent_of(x)));
                self.set_color(self.parent_of(x), Black);
                // The planted bug: in the mirrored half this line is left as in the first.
                let blackened = if Self::DELETION_FIXUP_BUG && side == Right { side } else { far };
                self.set_color(self.child_of(sib, blackened), Black);
                self.rotate(self.parent_of(x), side);
                x = self.root();
            }
        }
        self.set_color(x, Black);
    }

    /// The invariant: links in bounds and acyclic, parent links consistent,
    /// BST order, root black, no red node with a red child, the same number
    /// of black nodes on every root-to-leaf path, `size` = node count, and no
    /// reachable node on the free list.
    fn is_red_black_tree(&self) -> bool {
        let nodes = self.nodes();
        let Some(root) = self.root() else {
            return self.count() == 0;
        };
        if root >= nodes.len() || nodes[root].parent().is_some() || nodes[root].color() != Black {
            return false;
        }
        let mut visited = vec![false; nodes.len()];
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
            let n = &nodes[i];
            let key = n.key();
            if lo.is_some_and(|lo| key <= lo) || hi.is_some_and(|hi| key >= hi) {
                return false;
            }
            let blacks = blacks + usize::from(n.color() == Black);
            for (child, lo, hi) in [(n.left(), lo, Some(key)), (n.right(), Some(key), hi)] {
                match child {
                    None => {
                        // A null leaf ends a path: all paths count the same blacks.
                        if *black_height.get_or_insert(blacks) != blacks {
                            return false;
                        }
                    }
                    Some(c) => {
                        if c >= nodes.len() || nodes[c].parent() != Some(i) {
                            return false;
                        }
                        if n.color() == Red && nodes[c].color() == Red {
                            return false;
                        }
                        stack.push((c, lo, hi, blacks));
                    }
                }
            }
        }
        count == self.count() && self.free().iter().all(|&f| f >= visited.len() || !visited[f])
    }

    /// The tree as nested text, `(labelColour left right)` with `.` for an
    /// empty subtree: `(1B (0R . .) (2R . .))` when `label` gives the key.
    /// Two trees are the same structure iff their shapes are equal (the
    /// parent links follow from the child links).
    fn shape_with(&self, label: impl Fn(&Self::Entry) -> String) -> String {
        fn go<T: RedBlackArena>(
            tree: &T,
            p: Link,
            label: &dyn Fn(&T::Entry) -> String,
            out: &mut String,
            budget: &mut usize,
        ) {
            match p {
                Some(i) if i < tree.nodes().len() && *budget > 0 => {
                    *budget -= 1;
                    let n = tree.node(i);
                    let c = if n.color() == Red { 'R' } else { 'B' };
                    out.push_str(&format!("({}{} ", label(n), c));
                    go(tree, n.left(), label, out, budget);
                    out.push(' ');
                    go(tree, n.right(), label, out, budget);
                    out.push(')');
                }
                Some(_) => out.push('!'),
                None => out.push('.'),
            }
        }
        let mut out = String::new();
        // The budget keeps a corrupted (cyclic) tree's text finite.
        let mut budget = self.nodes().len();
        go(self, self.root(), &label, &mut out, &mut budget);
        out
    }
}

/// The invariant's tests, run on both subjects: the same corruption must be
/// rejected whether the entries hold values or not.
#[cfg(test)]
// The corruptions copy an entry's value, which is `()` in `rbt`.
#[allow(clippy::let_unit_value)]
mod tests {
    use super::*;
    use crate::rbt::RedBlackTree;
    use crate::testing::assert_rejects;
    use crate::tree_map::TreeMap;

    /// The keys `3 1 5 0 2 4 6 7` inserted in that order: a valid tree in
    /// which 7 is a red leaf.
    fn set_sample() -> RedBlackTree {
        let mut t = RedBlackTree::new();
        for k in [3, 1, 5, 0, 2, 4, 6, 7] {
            t.add(k);
        }
        assert_eq!(t.shape(), "(3B (1B (0R . .) (2R . .)) (5R (4B . .) (6B . (7R . .))))");
        t
    }

    fn map_sample() -> TreeMap {
        let mut t = TreeMap::new();
        for k in [3, 1, 5, 0, 2, 4, 6, 7] {
            t.insert(k, k + 1);
        }
        t
    }

    /// Asserts that `rep_ok` accepts both samples and rejects each once
    /// `$corrupt`, written over [`RedBlackArena`], has broken it.
    macro_rules! assert_both_reject {
        (|$t:ident| $corrupt:expr) => {
            assert_rejects(set_sample(), |$t| $corrupt);
            assert_rejects(map_sample(), |$t| $corrupt);
        };
    }

    fn find<T: RedBlackArena>(t: &T, key: i32) -> usize {
        t.get_entry(key).expect("the sample holds the key")
    }

    #[test]
    fn rep_ok_rejects_wrong_size() {
        assert_both_reject!(|t| t.set_count(t.count() + 1));
        assert_both_reject!(|t| t.set_count(t.count() - 1));
    }

    #[test]
    fn rep_ok_rejects_red_root() {
        assert_both_reject!(|t| {
            let r = t.root().unwrap();
            t.node_mut(r).set_color(Red);
        });
    }

    #[test]
    fn rep_ok_rejects_red_red() {
        // 7 is a red leaf; a red child of it keeps the black heights equal,
        // so only the red-red rule is broken. Black, it breaks the heights.
        for color in [Red, Black] {
            assert_both_reject!(|t| {
                let seven = find(t, 7);
                let value = t.node(seven).value();
                let eight = t.alloc(8, value, Some(seven));
                t.node_mut(eight).set_color(color);
                t.node_mut(seven).set_child(Right, Some(eight));
                t.set_count(t.count() + 1);
            });
        }
    }

    #[test]
    fn rep_ok_rejects_black_height() {
        assert_both_reject!(|t| {
            let seven = find(t, 7);
            t.node_mut(seven).set_color(Black);
        });
    }

    #[test]
    fn rep_ok_rejects_broken_parent_link() {
        assert_both_reject!(|t| {
            let zero = find(t, 0);
            let root = t.root();
            t.node_mut(zero).set_parent(root);
        });
    }

    #[test]
    fn rep_ok_rejects_root_with_parent() {
        assert_both_reject!(|t| {
            let r = t.root().unwrap();
            let zero = find(t, 0);
            t.node_mut(r).set_parent(Some(zero));
        });
    }

    #[test]
    fn rep_ok_rejects_cycle() {
        assert_both_reject!(|t| {
            let zero = find(t, 0);
            let root = t.root();
            t.node_mut(zero).set_child(Left, root);
        });
    }

    #[test]
    fn rep_ok_rejects_bad_order() {
        assert_both_reject!(|t| {
            let two = find(t, 2);
            let value = t.node(two).value();
            t.node_mut(two).set_entry(9, value);
        });
    }

    #[test]
    fn rep_ok_rejects_out_of_bounds_link() {
        assert_both_reject!(|t| {
            let zero = find(t, 0);
            t.node_mut(zero).set_child(Left, Some(99));
        });
    }

    #[test]
    fn rep_ok_rejects_live_node_on_free_list() {
        assert_both_reject!(|t| {
            let four = find(t, 4);
            t.free_mut().push(four);
        });
    }
}
