//! `ncl`: Apache Commons Collections' `NodeCachingLinkedList` of `i32`.
//!
//! Ports `org.apache.commons.collections.list.NodeCachingLinkedList` with the
//! parts of `AbstractLinkedList` it inherits: a circular doubly linked list
//! through a header node (the ROOPS and BEAPI benchmark subject), plus a cache
//! of removed nodes that later inserts reuse instead of allocating. The cache
//! is a singly linked, `null`-terminated chain through `next`, of at most
//! `maximum_cache_size` nodes (default 20); cached nodes hold no value and no
//! `previous` link. `clear` caches as many of the removed nodes as fit.
//!
//! Heap shape: arena-based. `NodeCachingLinkedList { nodes: Vec<Node>, header,
//! size, first_cache_node, cache_size, maximum_cache_size }` where `header`
//! and `first_cache_node` index into `nodes`, and
//! `Node { value: Option<i32>, previous, next }` links by index. Slots of
//! removed nodes that do not fit in the cache go to a `free` list that is not
//! part of the structure. At scope N a structure is a main list of k values
//! and a cache of c nodes with `1 + k + c <= N`.
//!
//! `rep_ok` is the corrected invariant: ROOPS's version is underspecified (it
//! does not constrain the cache), which the BEAPI paper (§2) shows inflates
//! Korat's count at scope 8 from 2.8M valid structures to 54.5M.
//!
//! Equality (`PartialEq`, `Eq`, `Hash`, `PartialOrd`, `Ord`) is by the
//! element sequence alone: the cache, like the arena layout, is an internal
//! detail, so two lists that went through different removals are equal when
//! they hold the same elements in the same order.
//!
//! [`ncl-full`](crate::ncl_full) wraps this port to offer Apache's whole
//! API; its bulk methods are built on the crate-visible node steps here
//! (`get_node`, `add_node_before`, `remove_node`, `forward`).
//!
//! Planted bugs, each a [`Variant`]:
//! - `ncl-bug-cache` (`NodeCachingLinkedList<CacheBug>`): when an insert
//!   reuses a cached node it forgets to decrement `cache_size`. It shows after
//!   `new()`, `add(x)`, `remove_first()`, `add(y)`: the cache is empty but
//!   `cache_size` is 1, and `rep_ok` fails.
//! - `ncl-bug-hash` (`NodeCachingLinkedList<HashBug>`): `Hash` also hashes
//!   `cache_size`, which `==` ignores, so equal lists with different caches
//!   hash differently (a `Hash`/`Eq` disagreement; `rep_ok` always holds).
//!   Shortest trigger, four calls over two lists: `a = new()` and
//!   `b = new(); b.add(0); b.remove_first()`: both are empty, so `a == b`,
//!   but `b` caches one node and `a` none.

use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use smallscope::Heap;

use crate::arena::{self, Reached};
pub use crate::list::ListError;
use crate::list::{check_element_index, check_position_index};

/// `DEFAULT_MAXIMUM_CACHE_SIZE` in Apache Commons.
pub const DEFAULT_MAXIMUM_CACHE_SIZE: usize = 20;

/// Selects the correct list or a planted bug.
pub trait Variant: Clone + Debug + Default + 'static {
    /// Reusing a cached node does not decrement `cache_size`.
    const BUG_CACHE: bool;
    /// `Hash` also hashes `cache_size`, which `==` ignores.
    const BUG_HASH: bool;
}

/// The faithful port.
#[derive(Clone, Debug, Default)]
pub struct Correct;

impl Variant for Correct {
    const BUG_CACHE: bool = false;
    const BUG_HASH: bool = false;
}

/// `getNodeFromCache` forgets `cacheSize--`.
#[derive(Clone, Debug, Default)]
pub struct CacheBug;

impl Variant for CacheBug {
    const BUG_CACHE: bool = true;
    const BUG_HASH: bool = false;
}

/// `Hash` disagrees with `Eq`: it also hashes the cache size.
#[derive(Clone, Debug, Default)]
pub struct HashBug;

impl Variant for HashBug {
    const BUG_CACHE: bool = false;
    const BUG_HASH: bool = true;
}

#[derive(Heap, Clone, Debug)]
pub struct NodeCachingLinkedList<V: Variant = Correct> {
    #[heap(arena)]
    nodes: Vec<Node>,
    #[heap(index = "nodes")]
    header: usize,
    size: usize,
    #[heap(index = "nodes")]
    first_cache_node: Option<usize>,
    cache_size: usize,
    maximum_cache_size: usize,
    /// Arena slots of removed nodes that did not fit in the cache.
    #[heap(skip)]
    free: Vec<usize>,
    #[heap(skip)]
    variant: PhantomData<V>,
}

#[derive(Heap, Clone, Debug)]
struct Node {
    value: Option<i32>,
    #[heap(index = "nodes")]
    previous: Option<usize>,
    #[heap(index = "nodes")]
    next: Option<usize>,
}

#[smallscope::api(
    rep_ok = rep_ok,
    register(
        "ncl" = NodeCachingLinkedList<Correct>,
        "ncl-bug-cache" = NodeCachingLinkedList<CacheBug>,
        "ncl-bug-hash" = NodeCachingLinkedList<HashBug>
    )
)]
impl<V: Variant> NodeCachingLinkedList<V> {
    /// An empty list with the default maximum cache size.
    pub fn new() -> Self {
        Self::with_maximum_cache_size(DEFAULT_MAXIMUM_CACHE_SIZE)
    }

    /// Appends `x` (Java's `add(Object)`).
    pub fn add(&mut self, x: i32) {
        self.add_last(x);
    }

    pub fn add_first(&mut self, x: i32) {
        let first = self.next_of(self.header);
        self.add_node_before(x, first);
    }

    pub fn add_last(&mut self, x: i32) {
        self.add_node_before(x, self.header);
    }

    /// Inserts `x` so that it ends up at position `index` (`0..=size`).
    pub fn add_at(&mut self, index: usize, x: i32) -> Result<(), ListError> {
        let before = self.get_node(index, true)?;
        self.add_node_before(x, before);
        Ok(())
    }

    pub fn get(&self, index: usize) -> Result<i32, ListError> {
        let node = self.get_node(index, false)?;
        self.nodes[node].value.ok_or(ListError::NoSuchElement)
    }

    pub fn get_first(&self) -> Result<i32, ListError> {
        let first = self.next_of(self.header);
        if first == self.header {
            return Err(ListError::NoSuchElement);
        }
        self.nodes[first].value.ok_or(ListError::NoSuchElement)
    }

    pub fn get_last(&self) -> Result<i32, ListError> {
        let last = self.previous_of(self.header);
        if last == self.header {
            return Err(ListError::NoSuchElement);
        }
        self.nodes[last].value.ok_or(ListError::NoSuchElement)
    }

    /// Replaces the value at `index`; returns the old one.
    pub fn set(&mut self, index: usize, x: i32) -> Result<i32, ListError> {
        let node = self.get_node(index, false)?;
        self.nodes[node].value.replace(x).ok_or(ListError::NoSuchElement)
    }

    pub fn remove_first(&mut self) -> Result<i32, ListError> {
        let first = self.next_of(self.header);
        if first == self.header {
            return Err(ListError::NoSuchElement);
        }
        let old = self.nodes[first].value;
        self.remove_node(first);
        old.ok_or(ListError::NoSuchElement)
    }

    pub fn remove_last(&mut self) -> Result<i32, ListError> {
        let last = self.previous_of(self.header);
        if last == self.header {
            return Err(ListError::NoSuchElement);
        }
        let old = self.nodes[last].value;
        self.remove_node(last);
        old.ok_or(ListError::NoSuchElement)
    }

    /// Removes and returns the value at `index` (Java's `remove(int)`).
    pub fn remove_at(&mut self, index: usize) -> Result<i32, ListError> {
        let node = self.get_node(index, false)?;
        let old = self.nodes[node].value;
        self.remove_node(node);
        old.ok_or(ListError::NoSuchElement)
    }

    /// Removes the first occurrence of `x` (Java's `remove(Object)`).
    pub fn remove_value(&mut self, x: i32) -> bool {
        let found = self.forward().find(|&n| self.nodes[n].value == Some(x));
        match found {
            Some(node) => {
                self.remove_node(node);
                true
            }
            None => false,
        }
    }

    /// Position of the first occurrence of `x` (Java's `-1` is `None`).
    pub fn index_of(&self, x: i32) -> Option<usize> {
        self.forward().position(|n| self.nodes[n].value == Some(x))
    }

    /// Position of the last occurrence of `x`, searching backwards.
    pub fn last_index_of(&self, x: i32) -> Option<usize> {
        let from_end = self.backward().position(|n| self.nodes[n].value == Some(x))?;
        Some(self.size - 1 - from_end)
    }

    pub fn contains(&self, x: i32) -> bool {
        self.index_of(x).is_some()
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// `removeAllNodes`: caches as many nodes as fit, front first, and drops
    /// the rest; the header points at itself again.
    pub fn clear(&mut self) {
        let main: Vec<usize> = self.forward().collect();
        let to_cache = main.len().min(self.maximum_cache_size.saturating_sub(self.cache_size));
        for &node in &main[..to_cache] {
            self.add_node_to_cache(node);
        }
        self.free.extend_from_slice(&main[to_cache..]);
        let header = self.header;
        self.nodes[header].next = Some(header);
        self.nodes[header].previous = Some(header);
        self.size = 0;
    }

    /// The corrected invariant:
    /// - the header exists and holds no value;
    /// - following `next` from the header returns to it after exactly `size`
    ///   distinct nodes, each holding a value, with every `previous` link the
    ///   inverse of the `next` link into it (so the list is circular and
    ///   doubly linked through the header);
    /// - the cache is a `None`-terminated chain through `next` of exactly
    ///   `cache_size` distinct nodes, none in the main list, each with no value
    ///   and no `previous`; `cache_size <= maximum_cache_size`;
    /// - (port detail) slots on the free list are in range, distinct and not
    ///   reachable, so reusing one cannot corrupt the structure.
    pub fn rep_ok(&self) -> bool {
        let len = self.nodes.len();
        if self.header >= len || self.nodes[self.header].value.is_some() {
            return false;
        }
        let mut reached = Reached::new(len);
        reached.first_visit(self.header);
        // Main list: each step is checked, so at most `len` steps are taken.
        let mut cur = self.header;
        let mut count = 0usize;
        loop {
            let Some(next) = self.nodes[cur].next.filter(|&n| n < len) else { return false };
            if self.nodes[next].previous != Some(cur) {
                return false;
            }
            if next == self.header {
                break;
            }
            if !reached.first_visit(next) || self.nodes[next].value.is_none() {
                return false;
            }
            count += 1;
            cur = next;
        }
        if count != self.size {
            return false;
        }
        // Cache.
        let mut cached = 0usize;
        let mut link = self.first_cache_node;
        while let Some(node) = link {
            if !reached.first_visit(node) {
                return false;
            }
            let n = &self.nodes[node];
            if n.value.is_some() || n.previous.is_some() {
                return false;
            }
            cached += 1;
            link = n.next;
        }
        if cached != self.cache_size || self.cache_size > self.maximum_cache_size {
            return false;
        }
        reached.free_slots_are_unreached(&self.free)
    }
}

impl<V: Variant> NodeCachingLinkedList<V> {
    /// An empty list whose cache holds at most `maximum_cache_size` nodes.
    pub fn with_maximum_cache_size(maximum_cache_size: usize) -> Self {
        NodeCachingLinkedList {
            nodes: vec![Node { value: None, previous: Some(0), next: Some(0) }],
            header: 0,
            size: 0,
            first_cache_node: None,
            cache_size: 0,
            maximum_cache_size,
            free: Vec::new(),
            variant: PhantomData,
        }
    }

    /// A list from its parts, as another engine found it (a Korat candidate
    /// made into a value): `nodes[i]` is `(value, previous, next)`, links are
    /// indices into `nodes`, `header` and `first_cache_node` too. Nothing is
    /// checked, so the list may break `rep_ok`; the free list is empty.
    #[doc(hidden)]
    pub fn from_parts(
        nodes: Vec<(Option<i32>, Option<usize>, Option<usize>)>,
        header: usize,
        size: usize,
        first_cache_node: Option<usize>,
        cache_size: usize,
        maximum_cache_size: usize,
    ) -> Self {
        NodeCachingLinkedList {
            nodes: nodes.into_iter().map(|(value, previous, next)| Node { value, previous, next }).collect(),
            header,
            size,
            first_cache_node,
            cache_size,
            maximum_cache_size,
            free: Vec::new(),
            variant: PhantomData,
        }
    }

    /// The values, first to last.
    pub fn to_vec(&self) -> Vec<i32> {
        self.forward().filter_map(|n| self.nodes[n].value).collect()
    }

    /// How many removed nodes are waiting for reuse.
    pub fn cache_size(&self) -> usize {
        self.cache_size
    }

    /// The most nodes the cache may hold (Apache's protected `getMaximumCacheSize`).
    pub fn max_cache_size(&self) -> usize {
        self.maximum_cache_size
    }

    /// Apache's protected `setMaximumCacheSize`: sets the maximum, then
    /// `shrinkCacheToMaximumSize` takes nodes off the front of the cache
    /// until it fits. Not an operation: it would change
    /// `maximum_cache_size`, a field of the structure.
    pub fn set_maximum_cache_size(&mut self, maximum_cache_size: usize) {
        self.maximum_cache_size = maximum_cache_size;
        while self.cache_size > self.maximum_cache_size {
            // Only `CacheBug`'s count can outlast the cached nodes.
            let Some(node) = self.node_from_cache() else { break };
            self.free.push(node);
        }
    }

    /// The value of `node` (`None` for the header and cached nodes).
    pub(crate) fn value(&self, node: usize) -> Option<i32> {
        self.nodes[node].value
    }

    fn next_of(&self, node: usize) -> usize {
        self.nodes[node].next.expect("ncl: main-list next link is null")
    }

    fn previous_of(&self, node: usize) -> usize {
        self.nodes[node].previous.expect("ncl: main-list previous link is null")
    }

    /// The main-list nodes, first to last.
    pub(crate) fn forward(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(self.next_of(self.header)), |&n| Some(self.next_of(n)))
            .take_while(|&n| n != self.header)
            .take(self.size)
    }

    /// The main-list nodes, last to first.
    fn backward(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(self.previous_of(self.header)), |&n| Some(self.previous_of(n)))
            .take_while(|&n| n != self.header)
            .take(self.size)
    }

    /// `getNode(index, endMarkerAllowed)`: walks from the nearer end; with
    /// `end_marker_allowed`, `index == size` gives the header.
    pub(crate) fn get_node(&self, index: usize, end_marker_allowed: bool) -> Result<usize, ListError> {
        if end_marker_allowed {
            check_position_index(index, self.size)?;
        } else {
            check_element_index(index, self.size)?;
        }
        let mut node;
        if index < self.size / 2 {
            node = self.next_of(self.header);
            for _ in 0..index {
                node = self.next_of(node);
            }
        } else {
            node = self.header;
            for _ in index..self.size {
                node = self.previous_of(node);
            }
        }
        Ok(node)
    }

    /// `getNodeFromCache`.
    fn node_from_cache(&mut self) -> Option<usize> {
        if self.cache_size == 0 {
            return None;
        }
        let node = self.first_cache_node?;
        self.first_cache_node = self.nodes[node].next;
        self.nodes[node].next = None;
        if !V::BUG_CACHE {
            self.cache_size -= 1;
        }
        Some(node)
    }

    /// `addNodeToCache`: does nothing when the cache is full.
    fn add_node_to_cache(&mut self, node: usize) -> bool {
        if self.cache_size >= self.maximum_cache_size {
            return false;
        }
        let n = &mut self.nodes[node];
        n.previous = None;
        n.next = self.first_cache_node;
        n.value = None;
        self.first_cache_node = Some(node);
        self.cache_size += 1;
        true
    }

    /// `createNode`: a cached node if there is one, else a fresh one (a
    /// recycled arena slot when possible).
    fn create_node(&mut self, value: i32) -> usize {
        if let Some(node) = self.node_from_cache() {
            self.nodes[node].value = Some(value);
            return node;
        }
        let fresh = Node { value: Some(value), previous: None, next: None };
        arena::store(&mut self.nodes, self.free.pop(), fresh)
    }

    /// `addNodeBefore` / `addNode`.
    pub(crate) fn add_node_before(&mut self, value: i32, before: usize) {
        let node = self.create_node(value);
        let previous = self.previous_of(before);
        self.nodes[node].next = Some(before);
        self.nodes[node].previous = Some(previous);
        self.nodes[previous].next = Some(node);
        self.nodes[before].previous = Some(node);
        self.size += 1;
    }

    /// `removeNode`: unlinks, then caches the node or frees its slot.
    pub(crate) fn remove_node(&mut self, node: usize) {
        let previous = self.previous_of(node);
        let next = self.next_of(node);
        self.nodes[previous].next = Some(next);
        self.nodes[next].previous = Some(previous);
        self.size -= 1;
        if !self.add_node_to_cache(node) {
            self.free.push(node);
        }
    }
}

#[cfg(test)]
impl<V: Variant> NodeCachingLinkedList<V> {
    /// `(arena slots, free slots)`, for tests that check no slot leaks.
    pub(crate) fn arena_slots(&self) -> (usize, usize) {
        (self.nodes.len(), self.free.len())
    }
}

impl<V: Variant> Default for NodeCachingLinkedList<V> {
    fn default() -> Self {
        Self::new()
    }
}

// Two lists are equal when they hold the same elements in the same order
// (their [`to_vec`](NodeCachingLinkedList::to_vec)s are equal); the cache,
// its maximum size and the arena layout play no part.
compare_by_content!(@order [V: Variant] NodeCachingLinkedList<V>, to_vec);

/// Hashes the element sequence, exactly what `==` compares; with the planted
/// [`HashBug`] also `cache_size`, which `==` ignores.
impl<V: Variant> Hash for NodeCachingLinkedList<V> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.to_vec().hash(state);
        if V::BUG_HASH {
            self.cache_size.hash(state);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, ListModel, XorShift};

    type Ncl = NodeCachingLinkedList<Correct>;

    /// Runs random operations against the list model; `max_cache` small makes
    /// the cache fill up and the free list get used.
    fn differential(max_cache: usize, seed: u64) {
        let mut rng = XorShift(0x6A09_E667_F3BC_C908 ^ seed);
        let mut list = Ncl::with_maximum_cache_size(max_cache);
        let mut model = ListModel::default();
        for _ in 0..3000 {
            let x = rng.below(8) as i32;
            let i = rng.below(10) as usize;
            let cache_before = list.cache_size;
            let removed = match rng.below(20) {
                0 | 1 => {
                    list.add(x);
                    model.add_last(x);
                    false
                }
                2 => {
                    list.add_first(x);
                    model.add_first(x);
                    false
                }
                3 => {
                    list.add_last(x);
                    model.add_last(x);
                    false
                }
                4 => {
                    assert_eq!(list.add_at(i, x), model.add_at(i, x));
                    false
                }
                5 => {
                    assert_eq!(list.get(i), model.get(i));
                    false
                }
                6 => {
                    assert_eq!(list.get_first(), model.get_first());
                    assert_eq!(list.get_last(), model.get_last());
                    false
                }
                7 => {
                    assert_eq!(list.set(i, x), model.set(i, x));
                    false
                }
                8 | 9 => {
                    let expect = model.remove_first();
                    assert_eq!(list.remove_first(), expect);
                    expect.is_ok()
                }
                10 => {
                    let expect = model.remove_last();
                    assert_eq!(list.remove_last(), expect);
                    expect.is_ok()
                }
                11 => {
                    let expect = model.remove_at(i);
                    assert_eq!(list.remove_at(i), expect);
                    expect.is_ok()
                }
                12 | 13 => {
                    let expect = model.remove(x);
                    assert_eq!(list.remove_value(x), expect);
                    expect
                }
                14 => {
                    assert_eq!(list.index_of(x), model.index_of(x));
                    assert_eq!(list.last_index_of(x), model.last_index_of(x));
                    false
                }
                15 => {
                    assert_eq!(list.contains(x), model.contains(x));
                    false
                }
                16 => {
                    assert_eq!(list.size(), model.len());
                    assert_eq!(list.is_empty(), model.is_empty());
                    false
                }
                17 => {
                    let mut copy = list.clone();
                    copy.add_first(x);
                    assert!(copy.rep_ok());
                    false
                }
                _ => {
                    if rng.below(5) == 0 {
                        let expected_cache = (list.cache_size + model.len()).min(max_cache);
                        list.clear();
                        model.clear();
                        assert_eq!(list.cache_size, expected_cache);
                    }
                    false
                }
            };
            if removed {
                // A removed node is cached unless the cache was full.
                assert_eq!(list.cache_size, (cache_before + 1).min(max_cache));
            }
            assert!(list.rep_ok(), "{list:?}");
            assert_eq!(list.to_vec(), model.to_vec());
            // The arena never holds more than the live and cached nodes plus garbage slots on `free`.
            let (slots, free) = list.arena_slots();
            assert_eq!(slots, 1 + list.size + list.cache_size + free);
        }
    }

    #[test]
    fn differential_default_cache() {
        for seed in 1..=3 {
            differential(DEFAULT_MAXIMUM_CACHE_SIZE, seed);
        }
    }

    #[test]
    fn differential_small_cache() {
        for (max, seed) in [(0, 4), (1, 5), (3, 6)] {
            differential(max, seed);
        }
    }

    #[test]
    fn inserts_reuse_cached_nodes() {
        let mut list = Ncl::new();
        list.add(1);
        list.add(2);
        assert_eq!(list.nodes.len(), 3);
        list.remove_first().unwrap();
        list.remove_first().unwrap();
        assert_eq!(list.cache_size, 2);
        list.add(3);
        list.add_first(4);
        assert_eq!(list.cache_size, 0);
        assert_eq!(list.nodes.len(), 3);
        assert_eq!(list.to_vec(), [4, 3]);
        assert!(list.rep_ok());
    }

    #[test]
    fn a_full_cache_drops_removed_nodes() {
        let mut list = Ncl::with_maximum_cache_size(1);
        for x in [1, 2, 3] {
            list.add(x);
        }
        list.remove_first().unwrap();
        list.remove_first().unwrap();
        assert_eq!((list.cache_size, list.free.len()), (1, 1));
        assert!(list.rep_ok());
    }

    #[test]
    fn clear_caches_what_fits_front_first() {
        let mut list = Ncl::with_maximum_cache_size(3);
        for x in 0..5 {
            list.add(x);
        }
        let front: Vec<usize> = list.forward().collect();
        list.remove_last().unwrap();
        assert_eq!(list.cache_size, 1);
        list.clear();
        assert_eq!((list.size, list.cache_size, list.free.len()), (0, 3, 2));
        // The last node of the list is the first of the cache; the first two
        // list nodes follow it, pushed in front order.
        let cached: Vec<usize> = std::iter::successors(list.first_cache_node, |&n| list.nodes[n].next).collect();
        assert_eq!(cached, [front[1], front[0], front[4]]);
        assert!(list.rep_ok());
        for x in 0..5 {
            list.add(x);
        }
        assert_eq!(list.nodes.len(), 6);
        assert!(list.rep_ok());
    }

    #[test]
    fn set_maximum_cache_size_shrinks_the_cache() {
        let mut list = Ncl::new();
        for x in 0..4 {
            list.add(x);
        }
        list.clear();
        assert_eq!(list.cache_size, 4);
        list.set_maximum_cache_size(1);
        assert_eq!((list.cache_size, list.maximum_cache_size, list.free.len()), (1, 1, 3));
        assert!(list.rep_ok());
        list.set_maximum_cache_size(5);
        assert_eq!(list.cache_size, 1);
        assert!(list.rep_ok());
    }

    /// A list with main list [1, 2] and one cached node.
    fn sample() -> Ncl {
        let mut list = Ncl::new();
        for x in [1, 2, 3] {
            list.add(x);
        }
        list.remove_last().unwrap();
        assert_eq!((list.size, list.cache_size), (2, 1));
        assert!(list.rep_ok());
        list
    }

    fn first_cached(list: &Ncl) -> usize {
        list.first_cache_node.unwrap()
    }

    #[test]
    fn rep_ok_rejects_wrong_size() {
        assert_rejects_miscount(&sample(), |list| &mut list.size);
    }

    #[test]
    fn rep_ok_rejects_header_value() {
        assert_rejects(sample(), |list| list.nodes[list.header].value = Some(0));
    }

    #[test]
    fn rep_ok_rejects_broken_back_link() {
        assert_rejects(sample(), |list| {
            let second = list.get_node(1, false).unwrap();
            list.nodes[second].previous = Some(list.header);
        });
    }

    #[test]
    fn rep_ok_rejects_wrong_header_back_link() {
        assert_rejects(sample(), |list| {
            let first = list.get_node(0, false).unwrap();
            list.nodes[list.header].previous = Some(first);
        });
    }

    #[test]
    fn rep_ok_rejects_main_node_without_value() {
        assert_rejects(sample(), |list| {
            let first = list.get_node(0, false).unwrap();
            list.nodes[first].value = None;
        });
    }

    #[test]
    fn rep_ok_rejects_value_in_cache_node() {
        assert_rejects(sample(), |list| {
            let cached = first_cached(list);
            list.nodes[cached].value = Some(7);
        });
    }

    #[test]
    fn rep_ok_rejects_previous_in_cache_node() {
        assert_rejects(sample(), |list| {
            let cached = first_cached(list);
            list.nodes[cached].previous = Some(list.header);
        });
    }

    #[test]
    fn rep_ok_rejects_wrong_cache_size() {
        assert_rejects_miscount(&sample(), |list| &mut list.cache_size);
    }

    #[test]
    fn rep_ok_rejects_overfull_cache() {
        assert_rejects(sample(), |list| list.maximum_cache_size = 0);
    }

    #[test]
    fn rep_ok_rejects_node_in_both_lists() {
        assert_rejects(sample(), |list| {
            // The cached node's next points into the main list.
            let cached = first_cached(list);
            let first = list.get_node(0, false).unwrap();
            list.nodes[cached].next = Some(first);
        });
    }

    #[test]
    fn rep_ok_rejects_cyclic_cache() {
        assert_rejects(sample(), |list| {
            let cached = first_cached(list);
            list.nodes[cached].next = Some(cached);
            list.cache_size = 2;
        });
    }

    #[test]
    fn rep_ok_rejects_dangling_links() {
        assert_rejects(sample(), |list| list.first_cache_node = Some(99));
        assert_rejects(sample(), |list| list.nodes[list.header].next = Some(99));
        assert_rejects(sample(), |list| list.header = 99);
    }

    #[test]
    fn rep_ok_rejects_cycle_missing_the_header() {
        assert_rejects(sample(), |list| {
            // 1 -> 2 -> 1, with consistent back links, never back to the header.
            let first = list.get_node(0, false).unwrap();
            let second = list.get_node(1, false).unwrap();
            list.nodes[second].next = Some(first);
            list.nodes[first].previous = Some(second);
        });
    }

    #[test]
    fn rep_ok_rejects_live_slot_on_free_list() {
        assert_rejects(sample(), |list| {
            let first = list.get_node(0, false).unwrap();
            list.free.push(first);
        });
    }

    /// add, remove, add: the reused node leaves `cache_size` at 1 with an empty cache.
    #[test]
    fn cache_bug_shows_after_add_remove_add() {
        fn run<V: Variant>() -> Vec<bool> {
            let mut list = NodeCachingLinkedList::<V>::new();
            let mut verdicts = vec![list.rep_ok()];
            list.add(0);
            verdicts.push(list.rep_ok());
            list.remove_first().unwrap();
            verdicts.push(list.rep_ok());
            list.add(1);
            verdicts.push(list.rep_ok());
            verdicts
        }
        assert_eq!(run::<Correct>(), [true, true, true, true]);
        assert_eq!(run::<CacheBug>(), [true, true, true, false]);
    }

    /// The bug variant stays panic-free when extended past the first broken state.
    #[test]
    fn cache_bug_does_not_panic_later() {
        let mut list = NodeCachingLinkedList::<CacheBug>::new();
        for x in 0..4 {
            list.add(x);
            list.remove_first().unwrap();
            list.add(x);
            list.add(x);
            list.clear();
        }
        assert!(!list.rep_ok());
    }
}
