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
mod tests;
