//! `union-find`: disjoint sets of `i32` elements with union by rank and path
//! compression, as JGraphT's `org.jgrapht.alg.util.UnionFind` (the subject of
//! "Builders identification by evolutionary algorithm").
//!
//! Ports `addElement`, `find` (two passes: up to the root, then every node of
//! the path is made a child of the root), `union` (both `find`s, then the root
//! of lower rank goes under the other; on a tie the second root goes under the
//! first, whose rank grows by one), `inSameSet` (`find(a) == find(b)`),
//! `size`, `numberOfSets` and `reset`. As in JGraphT, `find` compresses the
//! path it walks, so it changes the structure even though it answers a query,
//! and so do `union` and `in_same_set`, which call it. Adding a present
//! element or a `union` of an absent one is misuse (JGraphT throws
//! `IllegalArgumentException`); `find` of an absent element is `None` and
//! `in_same_set` with an absent element is `false`, both without any change
//! (JGraphT throws there too).
//!
//! Heap shape: elements live in an arena, `UnionFind { nodes: Vec<Element>,
//! first, size, count }`; each `Element { value, rank, parent, next }` links
//! to others by index. `parent` is `None` at a root (JGraphT maps a root to
//! itself). JGraphT finds an element's node through a `HashMap`; here the
//! elements form a chain through `next` in increasing value order from
//! `first`, which makes every element reachable from the root object and
//! keeps the order elements were added in out of the structure. `count` is
//! the number of sets. At scope N there are at most N elements, with values
//! in `0..N` (BEAPI's integer domain).
//!
//! # Observers, mutators and builders
//!
//! Observers (never change the structure, return plain values): `size`,
//! `number_of_sets`, `contains`. `find` and `in_same_set` are queries but not
//! observers: they compress paths.
//!
//! Mutators: `add_element`, `union`, `find`, `in_same_set`, `reset`, `clear`.
//!
//! A sufficient and minimal builder set is `new`, `add_element` and `union`:
//! - `new` is the only constructor, and `add_element` the only call that adds
//!   an element;
//! - `union` is the only call that merges sets or raises a rank;
//! - path compression is needed: it makes forests that linking alone never
//!   does, e.g. a root of rank 2 with a child of rank 1 that has no children
//!   (without compression a node's rank is its height). But `union` already
//!   compresses: it calls `find` on both arguments, and `union(x, x)` does
//!   exactly what `find(x)` does to the structure (two `find(x)`s, the second
//!   a no-op, then the roots are equal and nothing is linked). So `find` is not
//!   needed as a builder, and neither is `in_same_set(a, b)`, which is
//!   `find(a); find(b)`, that is `union(a, a); union(b, b)`;
//! - `reset` makes singletons of the same elements, which `new` and
//!   `add_element` make; `clear` makes what `new` makes.
//!
//! The test `builders_reach_what_the_whole_api_reaches` checks this on every
//! structure over four values, and BEAPI finds as many structures with these
//! three builders as with the whole API: 23 at scope 3, 140 at scope 4, 1037
//! at scope 5, 9250 at scope 6.
//!
//! `rep_ok`: the `next` chain from `first` visits every element once, in
//! strictly increasing value order (so values are unique) and `size` counts
//! it; parent links stay among the elements and ranks strictly increase from
//! child to parent (so the parent links form a forest); `count` is the number
//! of roots; and a root of rank r has at least 2^r elements in its tree (union
//! by rank; compression never changes a root's tree).
//!
//! Equality (`PartialEq`, `Eq`, `Hash`, `PartialOrd`, `Ord`) is by the
//! partition: the sets as sorted vectors, in increasing order
//! ([`UnionFind::sets`]), whatever the forest looks like.
//!
//! No planted bug.

use smallscope::Heap;

/// Misuse that JGraphT answers with `IllegalArgumentException`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementError {
    /// `add_element` of an element that is already there.
    AlreadyPresent,
    /// `union` of an element that is not there.
    NoSuchElement,
}

#[derive(Heap, Clone, Debug, Default)]
pub struct UnionFind {
    #[heap(arena)]
    nodes: Vec<Element>,
    /// The element with the least value.
    #[heap(index = "nodes")]
    first: Option<usize>,
    /// Number of elements.
    size: usize,
    /// Number of sets.
    count: usize,
}

#[derive(Heap, Clone, Debug)]
struct Element {
    value: i32,
    rank: u32,
    #[heap(index = "nodes")]
    parent: Option<usize>,
    /// The element with the next larger value.
    #[heap(index = "nodes")]
    next: Option<usize>,
}

#[smallscope::api(name = "union-find", rep_ok = rep_ok)]
impl UnionFind {
    /// No elements.
    pub fn new() -> Self {
        UnionFind { nodes: Vec::new(), first: None, size: 0, count: 0 }
    }

    /// `addElement`: `x` becomes an element, in a set of its own, of rank 0.
    pub fn add_element(&mut self, x: i32) -> Result<(), ElementError> {
        let mut prev = None;
        let mut cur = self.first;
        while let Some(i) = cur {
            match self.nodes[i].value.cmp(&x) {
                std::cmp::Ordering::Less => {
                    prev = cur;
                    cur = self.nodes[i].next;
                }
                std::cmp::Ordering::Equal => return Err(ElementError::AlreadyPresent),
                std::cmp::Ordering::Greater => break,
            }
        }
        let e = self.nodes.len();
        self.nodes.push(Element { value: x, rank: 0, parent: None, next: cur });
        match prev {
            None => self.first = Some(e),
            Some(p) => self.nodes[p].next = Some(e),
        }
        self.size += 1;
        self.count += 1;
        Ok(())
    }

    /// `union`: merges the sets of `a` and `b` by rank, after compressing
    /// both paths (even when they are already in one set).
    pub fn union(&mut self, a: i32, b: i32) -> Result<(), ElementError> {
        let (Some(i), Some(j)) = (self.index_of(a), self.index_of(b)) else {
            return Err(ElementError::NoSuchElement);
        };
        let root1 = self.find_root(i);
        let root2 = self.find_root(j);
        if root1 == root2 {
            return Ok(());
        }
        let (rank1, rank2) = (self.nodes[root1].rank, self.nodes[root2].rank);
        if rank1 > rank2 {
            self.nodes[root2].parent = Some(root1);
        } else if rank1 < rank2 {
            self.nodes[root1].parent = Some(root2);
        } else {
            self.nodes[root2].parent = Some(root1);
            self.nodes[root1].rank = rank1 + 1;
        }
        self.count -= 1;
        Ok(())
    }

    /// `find`: the value of the representative of `x`'s set; every element on
    /// the path from `x` becomes a child of the root (path compression).
    /// `None`, and no change, when `x` is not an element.
    pub fn find(&mut self, x: i32) -> Option<i32> {
        let i = self.index_of(x)?;
        let root = self.find_root(i);
        Some(self.nodes[root].value)
    }

    /// `inSameSet`: `find(a) == find(b)`, so it compresses both paths.
    /// `false`, and no change, when either is not an element.
    pub fn in_same_set(&mut self, a: i32, b: i32) -> bool {
        let (Some(i), Some(j)) = (self.index_of(a), self.index_of(b)) else {
            return false;
        };
        self.find_root(i) == self.find_root(j)
    }

    /// Number of elements.
    pub fn size(&self) -> usize {
        self.size
    }

    /// `numberOfSets`.
    pub fn number_of_sets(&self) -> usize {
        self.count
    }

    /// Whether `x` is an element.
    pub fn contains(&self, x: i32) -> bool {
        self.index_of(x).is_some()
    }

    /// `reset`: every element back in a set of its own, of rank 0.
    pub fn reset(&mut self) {
        for e in &mut self.nodes {
            e.parent = None;
            e.rank = 0;
        }
        self.count = self.size;
    }

    /// Removes every element.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.first = None;
        self.size = 0;
        self.count = 0;
    }

    /// The invariant (see the module doc): a sorted chain of every element,
    /// ranks strictly increasing along parent links, `size` and `count`
    /// right, and a root of rank r over at least 2^r elements.
    pub fn rep_ok(&self) -> bool {
        let n = self.nodes.len();
        // No element is ever removed but by `clear`: every slot is an element.
        if n != self.size {
            return false;
        }
        let mut in_chain = vec![false; n];
        let mut last = None;
        let mut p = self.first;
        while let Some(i) = p {
            if i >= n || in_chain[i] || last.is_some_and(|last| self.nodes[i].value <= last) {
                return false;
            }
            in_chain[i] = true;
            last = Some(self.nodes[i].value);
            p = self.nodes[i].next;
        }
        if in_chain.iter().any(|&c| !c) {
            return false;
        }
        let mut roots = 0;
        for e in &self.nodes {
            match e.parent {
                None => roots += 1,
                Some(q) if q < n && self.nodes[q].rank > e.rank => {}
                Some(_) => return false,
            }
        }
        if roots != self.count {
            return false;
        }
        // Ranks strictly increase upwards, so these walks end.
        let mut tree_size = vec![0usize; n];
        for i in 0..n {
            tree_size[self.root_of(i)] += 1;
        }
        self.nodes
            .iter()
            .zip(&tree_size)
            .all(|(e, &size)| e.parent.is_some() || 1usize.checked_shl(e.rank).is_some_and(|least| size >= least))
    }
}

impl UnionFind {
    /// The partition: each set as a sorted vector, the sets in increasing order.
    pub fn sets(&self) -> Vec<Vec<i32>> {
        let mut by_root: Vec<Vec<i32>> = vec![Vec::new(); self.nodes.len()];
        // The chain is sorted, so each set comes out sorted.
        let mut p = self.first;
        while let Some(i) = p {
            by_root[self.root_of(i)].push(self.nodes[i].value);
            p = self.nodes[i].next;
        }
        let mut sets: Vec<Vec<i32>> = by_root.into_iter().filter(|s| !s.is_empty()).collect();
        sets.sort();
        sets
    }

    /// The forest as text, each element in value order as `value:rank` with
    /// `->parent` when it has one: `0:1 1:0->0 2:0`.
    pub fn forest(&self) -> String {
        let mut out = Vec::new();
        let mut p = self.first;
        while let Some(i) = p {
            let e = &self.nodes[i];
            match e.parent {
                Some(q) => out.push(format!("{}:{}->{}", e.value, e.rank, self.nodes[q].value)),
                None => out.push(format!("{}:{}", e.value, e.rank)),
            }
            p = e.next;
        }
        out.join(" ")
    }

    /// The slot of element `x`.
    fn index_of(&self, x: i32) -> Option<usize> {
        let mut p = self.first;
        while let Some(i) = p {
            let value = self.nodes[i].value;
            if value >= x {
                return (value == x).then_some(i);
            }
            p = self.nodes[i].next;
        }
        None
    }

    /// The root of slot `i`'s tree, without compressing. Only on a forest
    /// whose ranks increase upwards (`rep_ok` checks that first).
    fn root_of(&self, mut i: usize) -> usize {
        while let Some(p) = self.nodes[i].parent {
            i = p;
        }
        i
    }

    /// JGraphT's `find` on slot `i`: the root, then the path made its children.
    fn find_root(&mut self, i: usize) -> usize {
        let root = self.root_of(i);
        let mut cur = i;
        while cur != root {
            let parent = self.nodes[cur].parent.expect("a non-root has a parent");
            self.nodes[cur].parent = Some(root);
            cur = parent;
        }
        root
    }
}

// Two structures are equal when they partition the same elements the same
// way (their [`sets`](UnionFind::sets) are equal), whatever their forests.
compare_by_content!([] UnionFind, sets);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, observe, XorShift};
    use smallscope::heap::canonical_text;
    use std::collections::{BTreeSet, HashSet, VecDeque};

    /// The naive model: the sets, each a `BTreeSet`.
    #[derive(Default)]
    struct Partition(Vec<BTreeSet<i32>>);

    impl Partition {
        fn set_of(&self, x: i32) -> Option<usize> {
            self.0.iter().position(|s| s.contains(&x))
        }

        fn add(&mut self, x: i32) -> Result<(), ElementError> {
            if self.set_of(x).is_some() {
                return Err(ElementError::AlreadyPresent);
            }
            self.0.push(BTreeSet::from([x]));
            Ok(())
        }

        fn union(&mut self, a: i32, b: i32) -> Result<(), ElementError> {
            let (Some(i), Some(j)) = (self.set_of(a), self.set_of(b)) else {
                return Err(ElementError::NoSuchElement);
            };
            if i != j {
                let moved = self.0.swap_remove(i.max(j));
                self.0[i.min(j)].extend(moved);
            }
            Ok(())
        }

        fn sets(&self) -> Vec<Vec<i32>> {
            let mut sets: Vec<Vec<i32>> = self.0.iter().map(|s| s.iter().copied().collect()).collect();
            sets.sort();
            sets
        }

        fn size(&self) -> usize {
            self.0.iter().map(BTreeSet::len).sum()
        }
    }

    #[test]
    fn differential_against_a_naive_partition() {
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        for round in 0..3000 {
            let range = [4, 8, 16][round % 3];
            let mut u = UnionFind::new();
            let mut m = Partition::default();
            for _ in 0..40 {
                let a = rng.below(range) as i32;
                let b = rng.below(range) as i32;
                match rng.below(12) {
                    0..=3 => assert_eq!(u.add_element(a), m.add(a)),
                    4..=6 => assert_eq!(u.union(a, b), m.union(a, b)),
                    7 => {
                        // `find` compresses exactly as `union(a, a)` does.
                        let mut v = u.clone();
                        let r = u.find(a);
                        assert_eq!(v.union(a, a).is_ok(), r.is_some());
                        assert_eq!(canonical_text(&u), canonical_text(&v));
                        match m.set_of(a) {
                            None => assert_eq!(r, None),
                            Some(s) => {
                                let r = r.unwrap();
                                assert!(m.0[s].contains(&r));
                                // Every member has that representative.
                                for &x in &m.0[s] {
                                    assert_eq!(u.clone().find(x), Some(r));
                                }
                            }
                        }
                    }
                    8 => {
                        // `in_same_set(a, b)` compresses as `find(a); find(b)` does.
                        let mut v = u.clone();
                        let same = u.in_same_set(a, b);
                        if v.contains(a) && v.contains(b) {
                            v.find(a);
                            v.find(b);
                        }
                        assert_eq!(canonical_text(&u), canonical_text(&v));
                        let expected = matches!((m.set_of(a), m.set_of(b)), (Some(i), Some(j)) if i == j);
                        assert_eq!(same, expected);
                    }
                    9 if rng.below(4) == 0 => {
                        u.reset();
                        let elements: Vec<i32> = m.0.iter().flatten().copied().collect();
                        m.0 = elements.into_iter().map(|x| BTreeSet::from([x])).collect();
                    }
                    10 if rng.below(8) == 0 => {
                        u.clear();
                        m.0.clear();
                    }
                    _ => {}
                }
                assert!(u.rep_ok(), "{}", u.forest());
                assert_eq!(observe(&u, UnionFind::size), m.size());
                assert_eq!(observe(&u, UnionFind::number_of_sets), m.0.len());
                assert_eq!(observe(&u, |u| u.contains(a)), m.set_of(a).is_some());
                assert_eq!(u.sets(), m.sets());
            }
        }
    }

    #[test]
    fn union_by_rank_as_jgrapht() {
        let mut u = UnionFind::new();
        for x in 0..4 {
            u.add_element(x).unwrap();
        }
        // A tie: the second root goes under the first, whose rank grows.
        u.union(1, 0).unwrap();
        assert_eq!(u.forest(), "0:0->1 1:1 2:0 3:0");
        // Lower rank under higher, whichever comes first.
        u.union(2, 1).unwrap();
        assert_eq!(u.forest(), "0:0->1 1:1 2:0->1 3:0");
        assert_eq!(u.add_element(2), Err(ElementError::AlreadyPresent));
        assert_eq!(u.union(0, 9), Err(ElementError::NoSuchElement));
        assert_eq!(u.find(9), None);
        assert!(!u.in_same_set(0, 9));
        assert_eq!((u.size(), u.number_of_sets()), (4, 2));
        assert_eq!(u.sets(), [vec![0, 1, 2], vec![3]]);
        assert!(u.rep_ok());
    }

    /// `a` and `b` joined, `c` and `d` joined, then the two pairs: a root of
    /// rank 2, `c` of rank 1 under it, `d` under `c`.
    fn two_pairs() -> UnionFind {
        let mut u = UnionFind::new();
        for x in 0..4 {
            u.add_element(x).unwrap();
        }
        u.union(0, 1).unwrap();
        u.union(2, 3).unwrap();
        u.union(0, 2).unwrap();
        assert_eq!(u.forest(), "0:2 1:0->0 2:1->0 3:0->2");
        u
    }

    #[test]
    fn find_compresses_the_path() {
        let mut u = two_pairs();
        let before = canonical_text(&u);
        assert_eq!(u.find(3), Some(0));
        // Rank 1 with no children: a forest only compression makes.
        assert_eq!(u.forest(), "0:2 1:0->0 2:1->0 3:0->0");
        assert_ne!(canonical_text(&u), before);
        assert!(u.rep_ok());
        // Nothing else changed: the partition is the same.
        assert_eq!(u, two_pairs());
        // The same through `union(3, 3)` and `in_same_set(3, 1)`.
        let mut v = two_pairs();
        v.union(3, 3).unwrap();
        assert_eq!(canonical_text(&v), canonical_text(&u));
        let mut w = two_pairs();
        assert!(w.in_same_set(3, 1));
        assert_eq!(canonical_text(&w), canonical_text(&u));
    }

    #[test]
    fn structure_ignores_the_order_of_additions() {
        let mut a = UnionFind::new();
        let mut b = UnionFind::new();
        for x in [0, 1, 2] {
            a.add_element(x).unwrap();
        }
        for x in [2, 0, 1] {
            b.add_element(x).unwrap();
        }
        assert_eq!(canonical_text(&a), canonical_text(&b));
    }

    /// Every structure, by canonical form, that `ops` reach from `new()` with
    /// values in `0..values`.
    fn reachable(values: i32, with_find: bool) -> HashSet<String> {
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([UnionFind::new()]);
        seen.insert(canonical_text(&UnionFind::new()));
        while let Some(u) = queue.pop_front() {
            let mut next = Vec::new();
            for a in 0..values {
                let mut v = u.clone();
                if v.add_element(a).is_ok() {
                    next.push(v);
                }
                if with_find {
                    let mut v = u.clone();
                    v.find(a);
                    next.push(v);
                    for b in 0..values {
                        let mut v = u.clone();
                        v.in_same_set(a, b);
                        next.push(v);
                    }
                    let mut v = u.clone();
                    v.reset();
                    next.push(v);
                }
                for b in 0..values {
                    let mut v = u.clone();
                    if v.union(a, b).is_ok() {
                        next.push(v);
                    }
                }
            }
            for v in next {
                assert!(v.rep_ok(), "{}", v.forest());
                if seen.insert(canonical_text(&v)) {
                    queue.push_back(v);
                }
            }
        }
        seen
    }

    #[test]
    fn builders_reach_what_the_whole_api_reaches() {
        let all = reachable(4, true);
        let builders = reachable(4, false);
        assert_eq!(all, builders);
        assert!(all.len() > 100, "{}", all.len());
    }

    fn sample() -> UnionFind {
        let mut u = two_pairs();
        u.add_element(5).unwrap();
        u.add_element(4).unwrap();
        assert!(u.rep_ok());
        u
    }

    fn slot(u: &UnionFind, x: i32) -> usize {
        u.index_of(x).unwrap()
    }

    #[test]
    fn rep_ok_rejects_wrong_counts() {
        assert_rejects_miscount(&sample(), |u| &mut u.size);
        assert_rejects_miscount(&sample(), |u| &mut u.count);
    }

    #[test]
    fn rep_ok_rejects_a_cycle() {
        assert_rejects(sample(), |u| {
            let (zero, two) = (slot(u, 0), slot(u, 2));
            u.nodes[zero].parent = Some(two);
        });
    }

    #[test]
    fn rep_ok_rejects_a_self_parent() {
        assert_rejects(sample(), |u| {
            let four = slot(u, 4);
            u.nodes[four].parent = Some(four);
            u.count -= 1;
        });
    }

    #[test]
    fn rep_ok_rejects_rank_not_increasing() {
        assert_rejects(sample(), |u| {
            let two = slot(u, 2);
            u.nodes[two].rank = 2;
        });
    }

    #[test]
    fn rep_ok_rejects_a_rank_without_the_elements() {
        // A singleton of rank 1: ranks increase upwards, but union by rank never makes it.
        assert_rejects(sample(), |u| {
            let four = slot(u, 4);
            u.nodes[four].rank = 1;
        });
    }

    #[test]
    fn rep_ok_rejects_a_duplicate_value() {
        assert_rejects(sample(), |u| {
            let four = slot(u, 4);
            u.nodes[four].value = 3;
        });
    }

    #[test]
    fn rep_ok_rejects_an_unsorted_chain() {
        assert_rejects(sample(), |u| {
            let (four, five) = (slot(u, 4), slot(u, 5));
            u.nodes[four].value = 6;
            u.nodes[five].value = 4;
        });
    }

    #[test]
    fn rep_ok_rejects_an_element_off_the_chain() {
        assert_rejects(sample(), |u| {
            let three = slot(u, 3);
            let four = slot(u, 4);
            u.nodes[three].next = u.nodes[four].next;
        });
    }

    #[test]
    fn rep_ok_rejects_an_out_of_bounds_parent() {
        assert_rejects(sample(), |u| {
            let one = slot(u, 1);
            u.nodes[one].parent = Some(99);
        });
    }
}
