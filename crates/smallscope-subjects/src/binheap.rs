//! `binheap`: a binomial min-heap of `i32` keys (duplicates allowed), as in
//! CLRS (2nd ed.) chapter 19.
//!
//! Ports the `BinomialHeap` benchmark subject (Korat / JPF / BEAPI), which
//! follows CLRS: `BINOMIAL-HEAP-MERGE`, `BINOMIAL-LINK`, `BINOMIAL-HEAP-UNION`,
//! `INSERT`, `MINIMUM`, `EXTRACT-MIN`, `DECREASE-KEY` and `DELETE`.
//!
//! Heap shape: nodes live in an arena, `BinomialHeap { nodes: Vec<Node>,
//! head, size }`. The root list starts at `head` and runs through `sibling`
//! links in strictly increasing degree. Each tree is a binomial tree in heap
//! order: a node of degree k has k children, reached by `child` then
//! `sibling`, of degrees k-1, k-2, .., 0 (the order `BINOMIAL-LINK` leaves
//! them in), and every child's `parent` link points back. Removed slots are
//! recycled through a free list that is not part of the structure.
//!
//! `delete` does not decrease the key to minus infinity (no `i32` value is
//! free to play that part); it bubbles the node's key unconditionally to the
//! root of its tree and removes that root, which is what CLRS's
//! `DECREASE-KEY(-inf)` + `EXTRACT-MIN` amounts to.
//!
//! Equality (`PartialEq`, `Eq`, `Hash`, `PartialOrd`, `Ord`) is by the
//! multiset of keys: two heaps are equal when their `to_sorted_vec`s are,
//! whatever their trees look like.
//!
//! Planted bug (`binheap-bug-rebalance`, `BinomialHeap<RebalanceBug>`): in the
//! rebalance after a root removal (`extract_min` and `delete` union the
//! removed root's children back into the root list), case 3 of the
//! consolidation (`key[x] <= key[next-x]`: `next-x` becomes the first child
//! of `x`) links through `link_later`, which borrows both arena slots at once
//! with `split_at_mut`, assuming that `next-x`, coming later in the root
//! list, was also allocated later (a higher arena index) than `x`. A released
//! child is older than the roots it meets, so it can come after a newer one:
//! then it indexes past the end of the left half and panics (index out of
//! bounds), four frames deep: `extract_min` → `remove_root` → `rebalance` →
//! `link_later`. Inserts and `union` rebalance correctly. No sequence of four
//! calls or fewer triggers it (a brute force in `tests/all/std_traits.rs` runs
//! every sequence over keys `0..3`, `union` included); the shortest take five,
//! e.g. `new() insert(0) insert(1) insert(1) extract_min()` (the B1's root 0
//! goes, and the remaining B0 1, node 2, adopts the released child 1, node 1)
//! or `new() insert(1) insert(2) insert(0) delete(2)`.

use std::marker::PhantomData;

use smallscope::Heap;

use crate::arena;

/// Misuse that Java would answer with an exception: an empty heap, an absent
/// key, or a "decrease" to a larger key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeapError {
    Empty,
    NoSuchKey,
    KeyIncrease,
}

/// Selects the correct heap or a planted bug.
pub trait Variant: Clone + std::fmt::Debug + Default + 'static {
    /// After a root removal, case 3 of the consolidation links through `link_later`, which
    /// panics when `next-x` sits before `x` in the arena.
    const BUG_REBALANCE: bool;
}

/// The faithful CLRS port.
#[derive(Clone, Debug, Default)]
pub struct Correct;

impl Variant for Correct {
    const BUG_REBALANCE: bool = false;
}

/// Case 3 of the consolidation panics when `next-x` sits before `x` in the arena.
#[derive(Clone, Debug, Default)]
pub struct RebalanceBug;

impl Variant for RebalanceBug {
    const BUG_REBALANCE: bool = true;
}

#[derive(Heap, Clone, Debug, Default)]
pub struct BinomialHeap<V: Variant = Correct> {
    #[heap(arena)]
    nodes: Vec<Node>,
    #[heap(index = "nodes")]
    head: Option<usize>,
    size: usize,
    #[heap(skip)]
    free: Vec<usize>,
    #[heap(skip)]
    variant: PhantomData<V>,
}

#[derive(Heap, Clone, Debug)]
struct Node {
    key: i32,
    degree: usize,
    #[heap(index = "nodes")]
    parent: Option<usize>,
    #[heap(index = "nodes")]
    child: Option<usize>,
    #[heap(index = "nodes")]
    sibling: Option<usize>,
}

type Link = Option<usize>;

#[smallscope::api(
    rep_ok = rep_ok,
    register("binheap" = BinomialHeap<Correct>, "binheap-bug-rebalance" = BinomialHeap<RebalanceBug>)
)]
impl<V: Variant> BinomialHeap<V> {
    /// `MAKE-BINOMIAL-HEAP`.
    pub fn new() -> Self {
        BinomialHeap { nodes: Vec::new(), head: None, size: 0, free: Vec::new(), variant: PhantomData }
    }

    /// `BINOMIAL-HEAP-INSERT`.
    pub fn insert(&mut self, key: i32) {
        let x = self.alloc(key);
        self.union_list(Some(x));
        self.size += 1;
    }

    /// `BINOMIAL-HEAP-MINIMUM`: the smallest key.
    pub fn minimum(&self) -> Result<i32, HeapError> {
        let (_, x) = self.min_root().ok_or(HeapError::Empty)?;
        Ok(self.nodes[x].key)
    }

    /// `BINOMIAL-HEAP-EXTRACT-MIN`: removes and returns the smallest key.
    pub fn extract_min(&mut self) -> Result<i32, HeapError> {
        let (prev, x) = self.min_root().ok_or(HeapError::Empty)?;
        let key = self.nodes[x].key;
        self.remove_root(prev, x);
        Ok(key)
    }

    /// `BINOMIAL-HEAP-DECREASE-KEY` on a node holding `old_key` (the first in
    /// preorder): sets it to `new_key` and bubbles it up.
    pub fn decrease_key(&mut self, old_key: i32, new_key: i32) -> Result<(), HeapError> {
        let x = self.find(old_key).ok_or(HeapError::NoSuchKey)?;
        if new_key > old_key {
            return Err(HeapError::KeyIncrease);
        }
        self.nodes[x].key = new_key;
        let mut y = x;
        while let Some(z) = self.nodes[y].parent {
            if self.nodes[y].key >= self.nodes[z].key {
                break;
            }
            self.swap_keys(y, z);
            y = z;
        }
        Ok(())
    }

    /// `BINOMIAL-HEAP-DELETE` of a node holding `key` (the first in preorder).
    pub fn delete(&mut self, key: i32) -> Result<(), HeapError> {
        let x = self.find(key).ok_or(HeapError::NoSuchKey)?;
        // As if its key were minus infinity: it rises to the root of its tree.
        let mut y = x;
        while let Some(z) = self.nodes[y].parent {
            self.swap_keys(y, z);
            y = z;
        }
        let mut prev = None;
        let mut r = self.head;
        while let Some(ri) = r {
            if ri == y {
                break;
            }
            prev = r;
            r = self.nodes[ri].sibling;
        }
        self.remove_root(prev, y);
        Ok(())
    }

    /// `BINOMIAL-HEAP-UNION`: moves every key of `other` into this heap.
    pub fn union(&mut self, other: Self) {
        // Copy other's reachable nodes into this arena, translating links.
        let mut map = vec![None; other.nodes.len()];
        let mut order = Vec::new();
        let mut stack: Vec<usize> = other.head.into_iter().collect();
        while let Some(i) = stack.pop() {
            if map[i].is_some() {
                continue;
            }
            let n = &other.nodes[i];
            map[i] = Some(self.alloc(n.key));
            order.push(i);
            stack.extend(n.child);
            stack.extend(n.sibling);
        }
        for &i in &order {
            let n = &other.nodes[i];
            let m = &mut self.nodes[map[i].expect("mapped")];
            m.degree = n.degree;
            m.parent = n.parent.and_then(|p| map[p]);
            m.child = n.child.and_then(|c| map[c]);
            m.sibling = n.sibling.and_then(|s| map[s]);
        }
        self.union_list(other.head.and_then(|h| map[h]));
        self.size += other.size;
    }

    /// Whether some node holds `key`.
    pub fn contains(&self, key: i32) -> bool {
        self.find(key).is_some()
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
        self.head = None;
        self.size = 0;
    }

    /// The invariant: links in bounds and acyclic; roots parentless with
    /// strictly increasing degrees; every tree a binomial tree (a node of
    /// degree k has children of degrees k-1..0 in sibling order, each with a
    /// parent link back to it); heap order; `size` = node count; no reachable
    /// node on the free list.
    pub fn rep_ok(&self) -> bool {
        let len = self.nodes.len();
        let mut visited = vec![false; len];
        let mut count = 0;
        let mut last_degree = None;
        let mut r = self.head;
        while let Some(ri) = r {
            if ri >= len || visited[ri] || self.nodes[ri].parent.is_some() {
                return false;
            }
            let d = self.nodes[ri].degree;
            if last_degree.is_some_and(|last| d <= last) {
                return false;
            }
            last_degree = Some(d);
            if !self.check_tree(ri, &mut visited, &mut count) {
                return false;
            }
            r = self.nodes[ri].sibling;
        }
        count == self.size && self.free.iter().all(|&f| f >= len || !visited[f])
    }
}

impl<V: Variant> BinomialHeap<V> {
    /// A heap from its parts, as another engine found it (a Korat candidate
    /// made into a value): `nodes[i]` is `(key, degree, parent, child,
    /// sibling)`, links are indices into `nodes`, `head` too. Nothing is
    /// checked, so the heap may break `rep_ok`; the free list is empty.
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    pub fn from_parts(
        nodes: Vec<(i32, usize, Option<usize>, Option<usize>, Option<usize>)>,
        head: Option<usize>,
        size: usize,
    ) -> Self {
        BinomialHeap {
            nodes: nodes
                .into_iter()
                .map(|(key, degree, parent, child, sibling)| Node { key, degree, parent, child, sibling })
                .collect(),
            head,
            size,
            free: Vec::new(),
            variant: PhantomData,
        }
    }

    /// All keys, in increasing order.
    pub fn to_sorted_vec(&self) -> Vec<i32> {
        let mut out = Vec::with_capacity(self.size);
        let mut stack: Vec<usize> = self.head.into_iter().collect();
        while let Some(i) = stack.pop() {
            out.push(self.nodes[i].key);
            stack.extend(self.nodes[i].child);
            stack.extend(self.nodes[i].sibling);
        }
        out.sort_unstable();
        out
    }

    /// Degrees of the roots, in root-list order.
    pub fn root_degrees(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut r = self.head;
        while let Some(ri) = r {
            out.push(self.nodes[ri].degree);
            r = self.nodes[ri].sibling;
        }
        out
    }

    /// Checks the binomial tree rooted at `x` (already known to be in bounds
    /// and unvisited), counting its nodes.
    fn check_tree(&self, x: usize, visited: &mut [bool], count: &mut usize) -> bool {
        visited[x] = true;
        *count += 1;
        let n = &self.nodes[x];
        // A degree above the arena size cannot be honest; this also bounds the recursion.
        if n.degree > self.nodes.len() {
            return false;
        }
        let mut c = n.child;
        for expected in (0..n.degree).rev() {
            let Some(ci) = c else { return false };
            if ci >= self.nodes.len() || visited[ci] {
                return false;
            }
            let cn = &self.nodes[ci];
            if cn.degree != expected || cn.parent != Some(x) || cn.key < n.key {
                return false;
            }
            if !self.check_tree(ci, visited, count) {
                return false;
            }
            c = cn.sibling;
        }
        c.is_none()
    }

    fn alloc(&mut self, key: i32) -> usize {
        let node = Node { key, degree: 0, parent: None, child: None, sibling: None };
        arena::store(&mut self.nodes, self.free.pop(), node)
    }

    fn swap_keys(&mut self, a: usize, b: usize) {
        let ka = self.nodes[a].key;
        self.nodes[a].key = self.nodes[b].key;
        self.nodes[b].key = ka;
    }

    /// The first node holding `key`, in preorder (node, its children, then its siblings).
    fn find(&self, key: i32) -> Link {
        let mut stack: Vec<usize> = self.head.into_iter().collect();
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i];
            if n.key == key {
                return Some(i);
            }
            // Pushed in reverse so that the child subtree is searched before the siblings.
            stack.extend(n.sibling);
            // Heap order: nothing below a larger key can match.
            if n.key < key {
                stack.extend(n.child);
            }
        }
        None
    }

    /// The root with the smallest key (the first one, on ties) and its predecessor in the root list.
    fn min_root(&self) -> Option<(Link, usize)> {
        let mut best: Option<(Link, usize)> = None;
        let mut prev = None;
        let mut r = self.head;
        while let Some(ri) = r {
            if best.is_none_or(|(_, b)| self.nodes[ri].key < self.nodes[b].key) {
                best = Some((prev, ri));
            }
            prev = r;
            r = self.nodes[ri].sibling;
        }
        best
    }

    /// Unlinks root `x` (preceded by `prev`), frees it, and unions its reversed children back in.
    fn remove_root(&mut self, prev: Link, x: usize) {
        let next = self.nodes[x].sibling;
        match prev {
            None => self.head = next,
            Some(p) => self.nodes[p].sibling = next,
        }
        // Reverse x's child list into a root list of increasing degree.
        let mut rev = None;
        let mut c = self.nodes[x].child;
        while let Some(ci) = c {
            c = self.nodes[ci].sibling;
            self.nodes[ci].sibling = rev;
            self.nodes[ci].parent = None;
            rev = Some(ci);
        }
        self.nodes[x].child = None;
        self.nodes[x].sibling = None;
        self.free.push(x);
        self.size -= 1;
        self.rebalance(rev, V::BUG_REBALANCE);
    }

    /// `BINOMIAL-LINK(y, z)`: makes root `y` the first child of root `z`.
    fn link(&mut self, y: usize, z: usize) {
        self.nodes[y].parent = Some(z);
        self.nodes[y].sibling = self.nodes[z].child;
        self.nodes[z].child = Some(y);
        self.nodes[z].degree += 1;
    }

    /// The planted bug's `BINOMIAL-LINK(y, z)`: the same links, made through
    /// two mutable borrows from `split_at_mut(y)`, which assumes `z < y` (`y`
    /// allocated after `z`). When `z > y`, `before[z]` is out of bounds.
    fn link_later(&mut self, y: usize, z: usize) {
        let (before, from_y) = self.nodes.split_at_mut(y);
        let (z_node, y_node) = (&mut before[z], &mut from_y[0]);
        y_node.parent = Some(z);
        y_node.sibling = z_node.child;
        z_node.child = Some(y);
        z_node.degree += 1;
    }

    /// `BINOMIAL-HEAP-MERGE`: one root list of nondecreasing degree; on equal
    /// degrees `a`'s root comes first.
    fn merge(&mut self, mut a: Link, mut b: Link) -> Link {
        let mut head = None;
        let mut tail: Link = None;
        loop {
            let next = match (a, b) {
                (None, None) => break,
                (Some(ai), Some(bi)) if self.nodes[bi].degree < self.nodes[ai].degree => {
                    b = self.nodes[bi].sibling;
                    bi
                }
                (Some(ai), _) => {
                    a = self.nodes[ai].sibling;
                    ai
                }
                (None, Some(bi)) => {
                    b = self.nodes[bi].sibling;
                    bi
                }
            };
            match tail {
                None => head = Some(next),
                Some(t) => self.nodes[t].sibling = Some(next),
            }
            tail = Some(next);
        }
        if let Some(t) = tail {
            self.nodes[t].sibling = None;
        }
        head
    }

    /// `BINOMIAL-HEAP-UNION` of this heap's root list with the root list `other`.
    fn union_list(&mut self, other: Link) {
        self.rebalance(other, false);
    }

    /// `BINOMIAL-HEAP-UNION`'s merge and consolidation; `buggy` links case 3
    /// through `link_later` (the planted bug, only after a root removal).
    fn rebalance(&mut self, other: Link, buggy: bool) {
        self.head = self.merge(self.head, other);
        let Some(mut x) = self.head else { return };
        let mut prev: Link = None;
        let mut next = self.nodes[x].sibling;
        while let Some(nx) = next {
            let nsib = self.nodes[nx].sibling;
            if self.nodes[x].degree != self.nodes[nx].degree
                || nsib.is_some_and(|s| self.nodes[s].degree == self.nodes[x].degree)
            {
                prev = Some(x);
                x = nx;
            } else if self.nodes[x].key <= self.nodes[nx].key {
                self.nodes[x].sibling = nsib;
                if buggy {
                    self.link_later(nx, x);
                } else {
                    self.link(nx, x);
                }
            } else {
                match prev {
                    None => self.head = Some(nx),
                    Some(p) => self.nodes[p].sibling = Some(nx),
                }
                self.link(x, nx);
                x = nx;
            }
            next = self.nodes[x].sibling;
        }
    }
}

// Two heaps are equal when they hold the same multiset of keys (their
// [`to_sorted_vec`](BinomialHeap::to_sorted_vec)s are equal), whatever the
// shapes of their trees and the layout of their arenas.
compare_by_content!([V: Variant] BinomialHeap<V>, to_sorted_vec);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, XorShift};

    /// The correct heap, under its usual name.
    type BinomialHeap = super::BinomialHeap<Correct>;

    /// A multiset model: a sorted `Vec`.
    fn model_remove(m: &mut Vec<i32>, k: i32) -> bool {
        match m.iter().position(|&x| x == k) {
            Some(i) => {
                m.remove(i);
                true
            }
            None => false,
        }
    }

    fn check(h: &BinomialHeap, m: &[i32]) {
        assert!(h.rep_ok(), "{h:?}");
        assert_eq!(h.to_sorted_vec(), m);
        assert_eq!(h.size(), m.len());
        assert_eq!(h.is_empty(), m.is_empty());
        // The root degrees are the set bits of the size.
        let bits: Vec<usize> = (0..usize::BITS as usize).filter(|b| m.len() >> b & 1 == 1).collect();
        assert_eq!(h.root_degrees(), bits);
    }

    /// Applies one random operation to both; returns nothing, asserts agreement.
    fn step(rng: &mut XorShift, h: &mut BinomialHeap, m: &mut Vec<i32>, range: u64) {
        let k = rng.below(range) as i32;
        match rng.below(12) {
            0..=3 => {
                h.insert(k);
                m.push(k);
            }
            4 => assert_eq!(h.minimum().ok(), m.first().copied()),
            5..=6 => {
                let got = h.extract_min();
                if m.is_empty() {
                    assert_eq!(got, Err(HeapError::Empty));
                } else {
                    assert_eq!(got, Ok(m.remove(0)));
                }
            }
            7..=8 => {
                let new = rng.below(range) as i32;
                let got = h.decrease_key(k, new);
                if !m.contains(&k) {
                    assert_eq!(got, Err(HeapError::NoSuchKey));
                } else if new > k {
                    assert_eq!(got, Err(HeapError::KeyIncrease));
                } else {
                    assert_eq!(got, Ok(()));
                    model_remove(m, k);
                    m.push(new);
                }
            }
            9 => {
                let expected = if model_remove(m, k) { Ok(()) } else { Err(HeapError::NoSuchKey) };
                assert_eq!(h.delete(k), expected);
            }
            10 => assert_eq!(h.contains(k), m.contains(&k)),
            _ => {
                if rng.below(10) == 0 {
                    h.clear();
                    m.clear();
                }
            }
        }
        m.sort_unstable();
    }

    #[test]
    fn differential_against_sorted_vec() {
        let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
        for round in 0..20 {
            let range = if round % 2 == 0 { 8 } else { 40 };
            let mut h = BinomialHeap::new();
            let mut m = Vec::new();
            for _ in 0..300 {
                step(&mut rng, &mut h, &mut m, range);
                check(&h, &m);
            }
        }
    }

    #[test]
    fn differential_union() {
        let mut rng = XorShift(0x0123_4567_89AB_CDEF);
        let mut h = BinomialHeap::new();
        let mut m = Vec::new();
        for _ in 0..200 {
            let mut g = BinomialHeap::new();
            let mut gm = Vec::new();
            for _ in 0..rng.below(20) {
                step(&mut rng, &mut g, &mut gm, 8);
            }
            step(&mut rng, &mut h, &mut m, 8);
            h.union(g);
            m.extend(gm);
            m.sort_unstable();
            check(&h, &m);
            if m.len() > 40 {
                h.clear();
                m.clear();
            }
        }
    }

    #[test]
    fn union_with_self_clone() {
        let mut h = BinomialHeap::new();
        for k in [5, 3, 7, 1, 1, 4] {
            h.insert(k);
        }
        let copy = h.clone();
        h.union(copy);
        check(&h, &[1, 1, 1, 1, 3, 3, 4, 4, 5, 5, 7, 7]);
    }

    #[test]
    fn clrs_child_order() {
        let mut h = BinomialHeap::new();
        for k in [0, 1, 2, 3] {
            h.insert(k);
        }
        // One B2 rooted at 0: 3 was linked under 2, then B1(2, 3) under 0, in front of the B0 1.
        let r = h.head.unwrap();
        assert_eq!(h.nodes[r].key, 0);
        assert_eq!(h.nodes[r].degree, 2);
        let c1 = h.nodes[r].child.unwrap();
        let c0 = h.nodes[c1].sibling.unwrap();
        assert_eq!((h.nodes[c1].degree, h.nodes[c0].degree), (1, 0));
        assert_eq!((h.nodes[c1].key, h.nodes[c0].key), (2, 1));
        assert_eq!(h.nodes[h.nodes[c1].child.unwrap()].key, 3);
    }

    fn sample() -> BinomialHeap {
        let mut h = BinomialHeap::new();
        for k in [4, 2, 6, 1, 3, 5, 0] {
            h.insert(k);
        }
        check(&h, &[0, 1, 2, 3, 4, 5, 6]);
        h
    }

    fn node_with(h: &BinomialHeap, key: i32) -> usize {
        h.find(key).unwrap()
    }

    #[test]
    fn rep_ok_rejects_wrong_size() {
        assert_rejects_miscount(&sample(), |h| &mut h.size);
    }

    #[test]
    fn rep_ok_rejects_heap_order() {
        assert_rejects(sample(), |h| {
            // The B2's root is 1; give one of its children a smaller key.
            let leaf = node_with(h, 6);
            assert!(h.nodes[leaf].parent.is_some());
            h.nodes[leaf].key = -1;
        });
    }

    #[test]
    fn rep_ok_rejects_wrong_degree() {
        assert_rejects(sample(), |h| {
            let r = h.head.unwrap();
            h.nodes[r].degree = 1;
        });
    }

    #[test]
    fn rep_ok_rejects_broken_parent_link() {
        assert_rejects(sample(), |h| {
            let leaf = node_with(h, 6);
            h.nodes[leaf].parent = h.head;
        });
    }

    #[test]
    fn rep_ok_rejects_root_order() {
        assert_rejects(sample(), |h| {
            // Roots have degrees 0, 1, 2; swap the first two in the list.
            let r0 = h.head.unwrap();
            let r1 = h.nodes[r0].sibling.unwrap();
            let r2 = h.nodes[r1].sibling;
            h.head = Some(r1);
            h.nodes[r1].sibling = Some(r0);
            h.nodes[r0].sibling = r2;
        });
    }

    #[test]
    fn rep_ok_rejects_child_order() {
        let mut h = BinomialHeap::new();
        for k in [0, 1, 2, 3] {
            h.insert(k);
        }
        // Put the B0 child before the B1 child: a heap-ordered tree, but not as CLRS links it.
        let r = h.head.unwrap();
        let c1 = h.nodes[r].child.unwrap();
        let c0 = h.nodes[c1].sibling.unwrap();
        h.nodes[r].child = Some(c0);
        h.nodes[c0].sibling = Some(c1);
        h.nodes[c1].sibling = None;
        assert!(!h.rep_ok());
    }

    #[test]
    fn rep_ok_rejects_cycle() {
        assert_rejects(sample(), |h| {
            let leaf = node_with(h, 6);
            h.nodes[leaf].child = h.head;
        });
        assert_rejects(sample(), |h| {
            let last = *h.root_degrees().last().unwrap();
            assert_eq!(last, 2);
            let mut r = h.head.unwrap();
            while let Some(s) = h.nodes[r].sibling {
                r = s;
            }
            h.nodes[r].sibling = h.head;
        });
    }

    #[test]
    fn rep_ok_rejects_root_with_parent() {
        assert_rejects(sample(), |h| {
            let r = h.head.unwrap();
            h.nodes[r].parent = Some(node_with(h, 6));
        });
    }

    #[test]
    fn rep_ok_rejects_out_of_bounds_link() {
        assert_rejects(sample(), |h| {
            let leaf = node_with(h, 6);
            h.nodes[leaf].sibling = Some(1000);
        });
    }

    #[test]
    fn rep_ok_rejects_live_node_on_free_list() {
        assert_rejects(sample(), |h| h.free.push(node_with(h, 3)));
    }

    #[test]
    fn misuse_is_reported() {
        let mut h = BinomialHeap::new();
        assert_eq!(h.minimum(), Err(HeapError::Empty));
        assert_eq!(h.extract_min(), Err(HeapError::Empty));
        assert_eq!(h.delete(1), Err(HeapError::NoSuchKey));
        h.insert(3);
        assert_eq!(h.decrease_key(3, 4), Err(HeapError::KeyIncrease));
        assert_eq!(h.decrease_key(2, 1), Err(HeapError::NoSuchKey));
        assert_eq!(h.decrease_key(3, 3), Ok(()));
        check(&h, &[3]);
    }

    #[test]
    fn delete_removes_inner_node() {
        let mut h = sample();
        assert_eq!(h.delete(6), Ok(()));
        check(&h, &[0, 1, 2, 3, 4, 5]);
        assert_eq!(h.delete(1), Ok(()));
        check(&h, &[0, 2, 3, 4, 5]);
    }
}
