//! `ncl-full`: Apache Commons Collections' `NodeCachingLinkedList` of `i32`
//! with its whole public API, the subject of builders identification.
//!
//! The same structure as [`ncl`](crate::ncl) (a circular doubly linked list
//! through a header node, plus a cache of removed nodes that later inserts
//! reuse), ported again as a type of its own with every public method of
//! `org.apache.commons.collections.list.NodeCachingLinkedList` and the
//! `AbstractLinkedList` it inherits, as in the builders identification
//! benchmark ("Builders identification by evolutionary algorithm", Table 1):
//! among 30 operations, a search must find a sufficient and minimal set of
//! builders and tell the observers apart.
//!
//! Heap shape: as `ncl`. `NodeCachingLinkedList { nodes: Vec<Node>, header,
//! size, first_cache_node, cache_size, maximum_cache_size }`, `header` and
//! `first_cache_node` index into the arena `nodes`, and
//! `Node { value: Option<i32>, previous, next }` links by index. Slots of
//! removed nodes that do not fit in the cache go to a `free` list that is not
//! part of the structure. At scope N a structure is a main list of k values
//! from `0..N` and a cache of c nodes with `1 + k + c <= N` (the header is a
//! node): `sum_k N^k * (N - k)` structures, 18 at scope 3 and 112 at scope 4,
//! the same as `ncl`.
//!
//! # Apache's semantics, kept exactly
//!
//! - `createNode` (every insert) takes the first cached node when the cache is
//!   not empty, else allocates; so inserting n values shrinks the cache by
//!   `min(n, cache_size)`.
//! - `removeNode` (every removal: `remove_first`, `remove_last`, `remove_at`,
//!   `remove_value`, and each element `remove_all` or `retain_all` drops)
//!   unlinks the node, then `addNodeToCache` pushes it on the front of the
//!   cache unless the cache is full (`cache_size >= maximum_cache_size`), in
//!   which case the node is dropped. Cached nodes hold no value and no
//!   `previous` link; the cache is a `null`-terminated chain through `next`.
//! - `clear` (`removeAllNodes`) caches the first
//!   `min(size, maximum_cache_size - cache_size)` nodes, front first, drops
//!   the rest, and points the header at itself.
//! - `add_all` / `add_all_at` (`addAll`) check the index even for an empty
//!   vector and return `true` whatever they add, as Apache's do.
//! - `remove_all` / `retain_all` walk the list front to back, removing each
//!   matching node through `removeNode`; they return whether one was removed.
//! - `equals` is `List.equals` (same elements in the same order) and
//!   `hash_code` is `List.hashCode` (`31 * h + e` from 1, wrapping).
//! - The default maximum cache size is Apache's 20 (`ncl` keeps it too): at
//!   the small scopes BEAPI runs (below 21) every removal is cached, so the
//!   cache grows to anything the scope allows.
//!
//! # Adaptations
//!
//! - Collection parameters are `Vec<i32>` (the engines try every list of up
//!   to two integers of the domain); `equals` takes `&Self`, another list of
//!   this type, where Java's takes any `Object`.
//! - Java's exceptions are `Err`s (API misuse to the engines): [`ListError`]
//!   for `IndexOutOfBoundsException` and `NoSuchElementException`, and
//!   [`SubListError`] for `subList`'s two. `index_of`'s `-1` is `None`.
//! - `sub_list` returns a copy of the range, not Java's view (a view would
//!   be a non-primitive value through which the list could be changed).
//!   `to_vec` is `toArray`. Iterators, `toArray(T[])` and `toString` are left
//!   out; Apache has no `peek`-like accessor beyond `get_first`/`get_last`.
//! - The constructor `NodeCachingLinkedList(int)` and the protected
//!   `setMaximumCacheSize(int)` are here as
//!   [`with_maximum_cache_size`](NodeCachingLinkedList::with_maximum_cache_size)
//!   and [`set_maximum_cache_size`](NodeCachingLinkedList::set_maximum_cache_size),
//!   but *not* in the engines' API: they set `maximum_cache_size`, which is a
//!   field of the structure, so with them every other maximum would make new
//!   structures that `new` (maximum 20) cannot reach, and no three methods
//!   would be sufficient builders. `max_cache_size` (Apache's protected
//!   `getMaximumCacheSize`) and `cache_size` are API observers.
//!
//! # Observers
//!
//! Observers never change the receiver or any argument and return no
//! non-primitive value (`to_vec` and `sub_list` return copies of `i32`s):
//! `get`, `get_first`, `get_last`, `index_of`, `last_index_of`, `contains`,
//! `contains_all`, `size`, `is_empty`, `to_vec`, `sub_list`, `equals`,
//! `hash_code`, `max_cache_size`, `cache_size` (15).
//!
//! Not observers: the constructor `new`; the inserters `add`, `add_first`,
//! `add_last`, `add_at`, `add_all`, `add_all_at`; the removers
//! `remove_first`, `remove_last`, `remove_at`, `remove_value`, `remove_all`,
//! `retain_all`, `clear`; and `set`, which changes a value only (15).
//!
//! # Builders
//!
//! A sufficient and minimal set: `new`, `add_first`, `remove_first`.
//! - Sufficient: every structure (main list L, cache of c nodes) is built by
//!   `new()`, then `add_first` of c arbitrary values and of L's values last
//!   to first (`c + |L|` fresh nodes, since the cache is empty), then
//!   `remove_first()` c times: the c nodes in front go to the cache (which
//!   is never full below scope 21) and L is left. Every intermediate structure
//!   has at most as many nodes as the last, so it is within the scope.
//! - Minimal: `new` is the only constructor; without an inserter the list is
//!   always empty; and without a remover the cache stays empty, because the
//!   cache is only filled by removals (inserts only drain it).
//!
//! It is not the only one: `new` with any one inserter (`add`, `add_first`,
//! `add_last`, `add_at`, `add_all`, `add_all_at`) and any one remover
//! (`remove_first`, `remove_last`, `remove_at`, `remove_value`, `remove_all`,
//! `retain_all`, `clear`) is sufficient by the same argument (with `clear`:
//! insert `c + |L|` values, clear, which caches all of them, then insert L).
//! The ones with fewest parameters take `add`, `add_first` or `add_last`
//! (one integer) and `remove_first`, `remove_last` or `clear` (none). `set`
//! is never needed: it changes a value that an insert could have put there.
//!
//! Equality (`PartialEq`, `Eq`, `Hash`, `PartialOrd`, `Ord`) is by the
//! element sequence alone, as for `ncl`. No planted bug.

use std::hash::{Hash, Hasher};

use smallscope::Heap;

pub use crate::list::ListError;
use crate::list::{check_element_index, check_position_index};

/// `DEFAULT_MAXIMUM_CACHE_SIZE` in Apache Commons.
pub const DEFAULT_MAXIMUM_CACHE_SIZE: usize = 20;

/// `subList`'s misuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubListError {
    /// `to > size`: Java's `IndexOutOfBoundsException` (a negative `from`
    /// cannot be written with `usize`).
    IndexOutOfBounds { to: usize, size: usize },
    /// `from > to`: Java's `IllegalArgumentException`.
    IllegalArgument { from: usize, to: usize },
}

#[derive(Heap, Clone, Debug)]
pub struct NodeCachingLinkedList {
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
}

#[derive(Heap, Clone, Debug)]
struct Node {
    value: Option<i32>,
    #[heap(index = "nodes")]
    previous: Option<usize>,
    #[heap(index = "nodes")]
    next: Option<usize>,
}

#[smallscope::api(name = "ncl-full", rep_ok = rep_ok)]
impl NodeCachingLinkedList {
    /// An empty list with the default maximum cache size (20).
    pub fn new() -> Self {
        Self::with_maximum_cache_size(DEFAULT_MAXIMUM_CACHE_SIZE)
    }

    /// Appends `x` (Java's `add(Object)`, whose `true` is left out).
    pub fn add(&mut self, x: i32) {
        self.add_last(x);
    }

    /// Inserts `x` in front.
    pub fn add_first(&mut self, x: i32) {
        let first = self.next_of(self.header);
        self.add_node_before(x, first);
    }

    /// Appends `x`.
    pub fn add_last(&mut self, x: i32) {
        self.add_node_before(x, self.header);
    }

    /// Inserts `x` so that it ends up at position `index` (`0..=size`).
    pub fn add_at(&mut self, index: usize, x: i32) -> Result<(), ListError> {
        let before = self.get_node(index, true)?;
        self.add_node_before(x, before);
        Ok(())
    }

    /// Appends the values of `xs` in order (`addAll(Collection)`); `true`.
    pub fn add_all(&mut self, xs: Vec<i32>) -> bool {
        self.add_all_before(self.header, &xs);
        true
    }

    /// Inserts the values of `xs` in order so that the first ends up at
    /// `index` (`addAll(int, Collection)`); `true`, even for an empty `xs`.
    pub fn add_all_at(&mut self, index: usize, xs: Vec<i32>) -> Result<bool, ListError> {
        let before = self.get_node(index, true)?;
        self.add_all_before(before, &xs);
        Ok(true)
    }

    /// The value at `index`.
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

    /// Replaces the value at `index`; returns the old one. The node stays.
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

    /// Removes, front to back, every element that `xs` contains
    /// (`removeAll`); whether one was removed.
    pub fn remove_all(&mut self, xs: Vec<i32>) -> bool {
        self.remove_where(|v| xs.contains(&v))
    }

    /// Removes, front to back, every element that `xs` does not contain
    /// (`retainAll`); whether one was removed.
    pub fn retain_all(&mut self, xs: Vec<i32>) -> bool {
        self.remove_where(|v| !xs.contains(&v))
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

    /// Whether every value of `xs` is in the list (`true` for an empty `xs`).
    pub fn contains_all(&self, xs: Vec<i32>) -> bool {
        xs.iter().all(|&x| self.contains(x))
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The values, first to last (`toArray`).
    pub fn to_vec(&self) -> Vec<i32> {
        self.forward().filter_map(|n| self.nodes[n].value).collect()
    }

    /// A copy of the values at `from..to` (`subList`, checked as Apache's
    /// `LinkedSubList` does: `to > size` first, then `from > to`).
    pub fn sub_list(&self, from: usize, to: usize) -> Result<Vec<i32>, SubListError> {
        if to > self.size {
            return Err(SubListError::IndexOutOfBounds { to, size: self.size });
        }
        if from > to {
            return Err(SubListError::IllegalArgument { from, to });
        }
        Ok(self.forward().skip(from).take(to - from).filter_map(|n| self.nodes[n].value).collect())
    }

    /// `List.equals`: the same size and the same values in the same order.
    pub fn equals(&self, other: &Self) -> bool {
        self.size == other.size
            && self.forward().map(|n| self.nodes[n].value).eq(other.forward().map(|n| other.nodes[n].value))
    }

    /// `List.hashCode`: `31 * h + e` over the values, from 1, wrapping
    /// (an `Integer`'s hash is its value).
    pub fn hash_code(&self) -> i32 {
        self.forward().filter_map(|n| self.nodes[n].value).fold(1i32, |h, e| h.wrapping_mul(31).wrapping_add(e))
    }

    /// The most nodes the cache may hold (Apache's `getMaximumCacheSize`).
    pub fn max_cache_size(&self) -> usize {
        self.maximum_cache_size
    }

    /// How many removed nodes are waiting for reuse.
    pub fn cache_size(&self) -> usize {
        self.cache_size
    }

    /// The corrected invariant, as `ncl`'s:
    /// - the header exists and holds no value;
    /// - following `next` from the header returns to it after exactly `size`
    ///   distinct nodes, each holding a value, with every `previous` link the
    ///   inverse of the `next` link into it;
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
        let mut seen = vec![false; len];
        seen[self.header] = true;
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
            if seen[next] || self.nodes[next].value.is_none() {
                return false;
            }
            seen[next] = true;
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
            if node >= len || seen[node] {
                return false;
            }
            let n = &self.nodes[node];
            if n.value.is_some() || n.previous.is_some() {
                return false;
            }
            seen[node] = true;
            cached += 1;
            link = n.next;
        }
        if cached != self.cache_size || self.cache_size > self.maximum_cache_size {
            return false;
        }
        // Free slots.
        for &slot in &self.free {
            if slot >= len || seen[slot] {
                return false;
            }
            seen[slot] = true;
        }
        true
    }
}

/// Outside the engines' API: they change `maximum_cache_size` (see the module doc).
impl NodeCachingLinkedList {
    /// An empty list whose cache holds at most `maximum_cache_size` nodes
    /// (Java's `NodeCachingLinkedList(int)`).
    pub fn with_maximum_cache_size(maximum_cache_size: usize) -> Self {
        NodeCachingLinkedList {
            nodes: vec![Node { value: None, previous: Some(0), next: Some(0) }],
            header: 0,
            size: 0,
            first_cache_node: None,
            cache_size: 0,
            maximum_cache_size,
            free: Vec::new(),
        }
    }

    /// Apache's protected `setMaximumCacheSize`: sets the maximum, then
    /// `shrinkCacheToMaximumSize` takes nodes off the front of the cache
    /// until it fits.
    pub fn set_maximum_cache_size(&mut self, maximum_cache_size: usize) {
        self.maximum_cache_size = maximum_cache_size;
        while self.cache_size > self.maximum_cache_size {
            let node = self.node_from_cache().expect("cache_size counts the cached nodes");
            self.free.push(node);
        }
    }

    fn next_of(&self, node: usize) -> usize {
        self.nodes[node].next.expect("ncl-full: main-list next link is null")
    }

    fn previous_of(&self, node: usize) -> usize {
        self.nodes[node].previous.expect("ncl-full: main-list previous link is null")
    }

    /// The main-list nodes, first to last.
    fn forward(&self) -> impl Iterator<Item = usize> + '_ {
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
    fn get_node(&self, index: usize, end_marker_allowed: bool) -> Result<usize, ListError> {
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
        self.cache_size -= 1;
        Some(node)
    }

    /// `addNodeToCache`: does nothing when the cache is full (`isCacheFull`).
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
        match self.free.pop() {
            Some(slot) => {
                self.nodes[slot] = fresh;
                slot
            }
            None => {
                self.nodes.push(fresh);
                self.nodes.len() - 1
            }
        }
    }

    /// `addNodeBefore` / `addNode`.
    fn add_node_before(&mut self, value: i32, before: usize) {
        let node = self.create_node(value);
        let previous = self.previous_of(before);
        self.nodes[node].next = Some(before);
        self.nodes[node].previous = Some(previous);
        self.nodes[previous].next = Some(node);
        self.nodes[before].previous = Some(node);
        self.size += 1;
    }

    /// `addAll`'s loop: each value before the same node, so they keep their order.
    fn add_all_before(&mut self, before: usize, xs: &[i32]) {
        for &x in xs {
            self.add_node_before(x, before);
        }
    }

    /// `removeNode`: unlinks, then caches the node or frees its slot.
    fn remove_node(&mut self, node: usize) {
        let previous = self.previous_of(node);
        let next = self.next_of(node);
        self.nodes[previous].next = Some(next);
        self.nodes[next].previous = Some(previous);
        self.size -= 1;
        if !self.add_node_to_cache(node) {
            self.free.push(node);
        }
    }

    /// The iterator loop of `removeAll` / `retainAll`: front to back, each
    /// node whose value matches goes through `removeNode`.
    fn remove_where(&mut self, matches: impl Fn(i32) -> bool) -> bool {
        let doomed: Vec<usize> = self.forward().filter(|&n| self.nodes[n].value.is_some_and(&matches)).collect();
        for &node in &doomed {
            self.remove_node(node);
        }
        !doomed.is_empty()
    }
}

impl Default for NodeCachingLinkedList {
    fn default() -> Self {
        Self::new()
    }
}

// Two lists are equal when they hold the same elements in the same order
// (their [`to_vec`](NodeCachingLinkedList::to_vec)s are equal); the cache,
// its maximum size and the arena layout play no part.
compare_by_content!(@order [] NodeCachingLinkedList, to_vec);

/// Hashes the element sequence, exactly what `==` compares.
impl Hash for NodeCachingLinkedList {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.to_vec().hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, ListModel, XorShift};
    use smallscope::api::Subject;
    use smallscope::heap::canonical_text;
    use smallscope::{Beapi, Builders};

    type Ncl = NodeCachingLinkedList;

    /// What Java answers, the model's values and the cache as Apache's rules
    /// predict it.
    struct Model {
        list: ListModel,
        cache: usize,
        max: usize,
    }

    impl Model {
        fn new(max: usize) -> Self {
            Model { list: ListModel::default(), cache: 0, max }
        }

        /// The cache after the list went from `before` to `after` elements:
        /// each insert takes a cached node if there is one, each removal
        /// caches its node unless the cache is full.
        fn resize(&mut self, before: usize, after: usize) {
            if after > before {
                self.cache = self.cache.saturating_sub(after - before);
            } else {
                self.cache = (self.cache + (before - after)).min(self.max);
            }
        }
    }

    /// Java's `List.hashCode`, written out.
    fn java_hash(values: &[i32]) -> i32 {
        let mut h: i32 = 1;
        for &v in values {
            h = h.wrapping_mul(31).wrapping_add(v);
        }
        h
    }

    fn random_vec(rng: &mut XorShift) -> Vec<i32> {
        (0..rng.below(4)).map(|_| rng.below(5) as i32).collect()
    }

    /// One random call on `list` and `model`; `pool` holds earlier lists for
    /// `equals`, with their values. Checks the answer against the model and,
    /// for observers, that neither list changed.
    fn step(rng: &mut XorShift, list: &mut Ncl, model: &mut Model, pool: &[(Ncl, Vec<i32>)]) {
        let x = rng.below(5) as i32;
        let i = rng.below(model.list.len() as u64 + 3) as usize;
        let j = rng.below(model.list.len() as u64 + 3) as usize;
        let xs = random_vec(rng);
        let before_len = model.list.len();
        let before_text = canonical_text(list);
        let values = model.list.to_vec();
        let mut observer = true;
        match rng.below(31) {
            // Inserters.
            0 => {
                list.add(x);
                model.list.add_last(x);
                observer = false;
            }
            1 => {
                list.add_first(x);
                model.list.add_first(x);
                observer = false;
            }
            2 => {
                list.add_last(x);
                model.list.add_last(x);
                observer = false;
            }
            3 => {
                assert_eq!(list.add_at(i, x), model.list.add_at(i, x));
                observer = false;
            }
            4 => {
                assert!(list.add_all(xs.clone()));
                for &v in &xs {
                    model.list.add_last(v);
                }
                observer = false;
            }
            5 => {
                let expect = if i <= before_len {
                    for (k, &v) in xs.iter().enumerate() {
                        model.list.add_at(i + k, v).unwrap();
                    }
                    Ok(true)
                } else {
                    Err(ListError::IndexOutOfBounds { index: i, size: before_len })
                };
                assert_eq!(list.add_all_at(i, xs.clone()), expect);
                observer = false;
            }
            // Removers.
            6 | 7 => {
                assert_eq!(list.remove_first(), model.list.remove_first());
                observer = false;
            }
            8 => {
                assert_eq!(list.remove_last(), model.list.remove_last());
                observer = false;
            }
            9 => {
                assert_eq!(list.remove_at(i), model.list.remove_at(i));
                observer = false;
            }
            10 | 11 => {
                assert_eq!(list.remove_value(x), model.list.remove(x));
                observer = false;
            }
            12 => {
                let removed: usize = xs.iter().map(|&v| model.list.remove_all(v)).sum();
                assert_eq!(list.remove_all(xs.clone()), removed > 0);
                observer = false;
            }
            13 => {
                let mut removed = 0;
                for v in values.iter().copied() {
                    if !xs.contains(&v) {
                        removed += model.list.remove_all(v);
                    }
                }
                assert_eq!(list.retain_all(xs.clone()), removed > 0);
                observer = false;
            }
            14 => {
                if rng.below(4) == 0 {
                    list.clear();
                    model.list.clear();
                }
                observer = false;
            }
            15 => {
                assert_eq!(list.set(i, x), model.list.set(i, x));
                observer = false;
            }
            // Observers.
            16 => assert_eq!(list.get(i), model.list.get(i)),
            17 => assert_eq!(list.get_first(), model.list.get_first()),
            18 => assert_eq!(list.get_last(), model.list.get_last()),
            19 => assert_eq!(list.index_of(x), model.list.index_of(x)),
            20 => assert_eq!(list.last_index_of(x), model.list.last_index_of(x)),
            21 => assert_eq!(list.contains(x), model.list.contains(x)),
            22 => assert_eq!(list.contains_all(xs.clone()), xs.iter().all(|&v| model.list.contains(v))),
            23 => assert_eq!(list.size(), before_len),
            24 => assert_eq!(list.is_empty(), model.list.is_empty()),
            25 => assert_eq!(list.to_vec(), values),
            26 => {
                let expect = if j > before_len {
                    Err(SubListError::IndexOutOfBounds { to: j, size: before_len })
                } else if i > j {
                    Err(SubListError::IllegalArgument { from: i, to: j })
                } else {
                    Ok(values[i..j].to_vec())
                };
                assert_eq!(list.sub_list(i, j), expect);
            }
            27 => {
                let (other, other_values) = &pool[rng.below(pool.len() as u64) as usize];
                let other_text = canonical_text(other);
                assert_eq!(list.equals(other), values == *other_values);
                assert!(list.equals(&list.clone()));
                assert_eq!(canonical_text(other), other_text, "equals changed its argument");
            }
            28 => assert_eq!(list.hash_code(), java_hash(&values)),
            29 => assert_eq!(list.max_cache_size(), model.max),
            _ => assert_eq!(list.cache_size(), model.cache),
        }
        if observer {
            assert_eq!(canonical_text(list), before_text, "an observer changed the list");
        } else {
            model.resize(before_len, model.list.len());
        }
        assert!(list.rep_ok(), "{list:?}");
        assert_eq!(list.to_vec(), model.list.to_vec());
        assert_eq!(list.size(), model.list.len());
        assert_eq!(list.cache_size, model.cache, "cache after {list:?}");
        // The arena holds the live and cached nodes plus the garbage slots on `free`.
        assert_eq!(list.nodes.len(), 1 + list.size + list.cache_size + list.free.len());
    }

    /// 3000 sequences of up to 40 calls, over maximum cache sizes from 0
    /// (nothing is cached) to the default.
    #[test]
    fn differential_against_the_list_model() {
        let mut rng = XorShift(0xBB67_AE85_84CA_A73B);
        let maxima = [0, 1, 2, 3, DEFAULT_MAXIMUM_CACHE_SIZE];
        let mut pool: Vec<(Ncl, Vec<i32>)> = vec![(Ncl::new(), Vec::new())];
        for sequence in 0..3000 {
            let max = maxima[sequence % maxima.len()];
            let mut list =
                if max == DEFAULT_MAXIMUM_CACHE_SIZE { Ncl::new() } else { Ncl::with_maximum_cache_size(max) };
            let mut model = Model::new(max);
            assert!(list.rep_ok());
            for _ in 0..rng.below(41) {
                step(&mut rng, &mut list, &mut model, &pool);
                if rng.below(8) == 0 {
                    // Occasionally shrink (or grow) the maximum, as `setMaximumCacheSize` does.
                    if rng.below(4) == 0 {
                        let m = rng.below(4) as usize;
                        list.set_maximum_cache_size(m);
                        model.max = m;
                        model.cache = model.cache.min(m);
                        assert!(list.rep_ok());
                        assert_eq!(list.cache_size, model.cache);
                        assert_eq!(list.nodes.len(), 1 + list.size + list.cache_size + list.free.len());
                    }
                    pool.push((list.clone(), model.list.to_vec()));
                    if pool.len() > 64 {
                        pool.swap_remove(rng.below(64) as usize);
                    }
                }
            }
        }
    }

    #[test]
    fn inserts_reuse_cached_nodes_and_removals_fill_the_cache() {
        let mut list = Ncl::new();
        list.add_all(vec![1, 2, 3]);
        assert_eq!(list.nodes.len(), 4);
        assert!(list.remove_all(vec![1, 3]));
        assert_eq!((list.to_vec(), list.cache_size), (vec![2], 2));
        assert_eq!(list.add_all_at(0, vec![7, 8]), Ok(true));
        assert_eq!((list.to_vec(), list.cache_size), (vec![7, 8, 2], 0));
        assert_eq!(list.nodes.len(), 4, "no node was allocated");
        assert!(list.retain_all(vec![8]));
        assert_eq!((list.to_vec(), list.cache_size), (vec![8], 2));
        assert!(!list.retain_all(vec![8]));
        assert!(!list.remove_all(vec![]));
        assert!(list.rep_ok());
    }

    #[test]
    fn a_full_cache_drops_removed_nodes() {
        let mut list = Ncl::with_maximum_cache_size(1);
        list.add_all(vec![1, 2, 3]);
        list.remove_first().unwrap();
        list.remove_first().unwrap();
        assert_eq!((list.cache_size, list.free.len()), (1, 1));
        assert!(list.rep_ok());
    }

    #[test]
    fn clear_caches_what_fits_front_first() {
        let mut list = Ncl::with_maximum_cache_size(3);
        list.add_all(vec![0, 1, 2, 3, 4]);
        let front: Vec<usize> = list.forward().collect();
        list.remove_last().unwrap();
        list.clear();
        assert_eq!((list.size, list.cache_size, list.free.len()), (0, 3, 2));
        // The last node of the list is the first of the cache; the first two
        // list nodes follow it, pushed in front order.
        let cached: Vec<usize> = std::iter::successors(list.first_cache_node, |&n| list.nodes[n].next).collect();
        assert_eq!(cached, [front[1], front[0], front[4]]);
        assert!(list.rep_ok());
    }

    #[test]
    fn set_maximum_cache_size_shrinks_the_cache() {
        let mut list = Ncl::new();
        list.add_all(vec![0, 1, 2, 3]);
        list.clear();
        assert_eq!(list.cache_size, 4);
        list.set_maximum_cache_size(1);
        assert_eq!((list.cache_size, list.maximum_cache_size, list.free.len()), (1, 1, 3));
        assert!(list.rep_ok());
        list.set_maximum_cache_size(5);
        assert_eq!(list.cache_size, 1);
        assert!(list.rep_ok());
    }

    #[test]
    fn java_facts() {
        let mut list = Ncl::new();
        assert_eq!(list.hash_code(), 1); // List.of().hashCode()
        list.add_all(vec![1, 2, 3]);
        assert_eq!(list.hash_code(), 30817); // List.of(1, 2, 3).hashCode()
        list.add_all(vec![i32::MAX; 8]);
        assert_eq!(list.hash_code(), java_hash(&list.to_vec()));
        assert_eq!(list.add_all_at(20, vec![]), Err(ListError::IndexOutOfBounds { index: 20, size: 11 }));
        assert_eq!(list.sub_list(1, 3), Ok(vec![2, 3]));
        assert_eq!(list.sub_list(3, 3), Ok(vec![]));
        assert_eq!(list.sub_list(4, 3), Err(SubListError::IllegalArgument { from: 4, to: 3 }));
        assert_eq!(list.sub_list(4, 12), Err(SubListError::IndexOutOfBounds { to: 12, size: 11 }));
        assert!(list.contains_all(vec![]));
        assert!(Ncl::new().equals(&Ncl::with_maximum_cache_size(0)));
    }

    const OBSERVERS: [&str; 15] = [
        "get",
        "get_first",
        "get_last",
        "index_of",
        "last_index_of",
        "contains",
        "contains_all",
        "size",
        "is_empty",
        "to_vec",
        "sub_list",
        "equals",
        "hash_code",
        "max_cache_size",
        "cache_size",
    ];

    type Call = dyn Fn(&mut Ncl);

    /// The module doc's split: 15 observers and 15 other operations, each of
    /// which changes some structure (the differential test shows the
    /// observers change none).
    #[test]
    fn every_non_observer_changes_some_list() {
        let names: Vec<&str> = Ncl::operations().iter().map(|op| op.name).collect();
        assert_eq!(names.len(), 30, "{names:?}");
        let mut sample = Ncl::new();
        sample.add_all(vec![1, 2, 3]);
        let changes = |call: &Call| {
            let mut copy = sample.clone();
            call(&mut copy);
            assert!(copy.rep_ok());
            canonical_text(&copy) != canonical_text(&sample)
        };
        let mutators: [(&str, &Call); 14] = [
            ("add", &|l| l.add(0)),
            ("add_first", &|l| l.add_first(0)),
            ("add_last", &|l| l.add_last(0)),
            ("add_at", &|l| l.add_at(1, 0).unwrap()),
            ("add_all", &|l| _ = l.add_all(vec![0])),
            ("add_all_at", &|l| _ = l.add_all_at(1, vec![0]).unwrap()),
            ("set", &|l| _ = l.set(0, 0).unwrap()),
            ("remove_first", &|l| _ = l.remove_first().unwrap()),
            ("remove_last", &|l| _ = l.remove_last().unwrap()),
            ("remove_at", &|l| _ = l.remove_at(1).unwrap()),
            ("remove_value", &|l| _ = l.remove_value(2)),
            ("remove_all", &|l| _ = l.remove_all(vec![2])),
            ("retain_all", &|l| _ = l.retain_all(vec![2])),
            ("clear", &|l| l.clear()),
        ];
        for (name, call) in mutators {
            assert!(changes(call), "{name}");
        }
        let mut listed: Vec<&str> = mutators.iter().map(|(n, _)| *n).chain(OBSERVERS).chain(["new"]).collect();
        listed.sort_unstable();
        let mut all = names.clone();
        all.sort_unstable();
        assert_eq!(listed, all);
    }

    /// `sum_k N^k * (N - k)`: k values from `0..N` and `N - 1 - k` or fewer cached nodes.
    fn closed_form(n: u32) -> usize {
        (0..n).map(|k| (n as usize).pow(k) * (n - k) as usize).sum()
    }

    fn count(n: u32, builders: Builders) -> usize {
        let report = Beapi::<Ncl>::new().scope(n).builders(builders).run().expect("valid configuration");
        assert!(!report.stopped_early(), "scope {n} stopped early");
        assert!(report.failures.is_empty(), "scope {n}: {:?}", report.failures);
        report.structure_count()
    }

    /// `new`, `add_first`, `remove_first` make every structure the whole API makes.
    #[test]
    fn three_builders_are_sufficient() {
        let three = || Builders::Named(["new", "add_first", "remove_first"].map(String::from).to_vec());
        for n in 1..=3 {
            assert_eq!(count(n, Builders::All), closed_form(n), "whole API at scope {n}");
            assert_eq!(count(n, three()), closed_form(n), "three builders at scope {n}");
        }
        assert_eq!(closed_form(3), 18);
        assert_eq!(closed_form(4), 112);
    }

    /// A list with main list [1, 2] and one cached node.
    fn sample() -> Ncl {
        let mut list = Ncl::new();
        list.add_all(vec![1, 2, 3]);
        list.remove_last().unwrap();
        assert_eq!((list.size, list.cache_size), (2, 1));
        assert!(list.rep_ok());
        list
    }

    #[test]
    fn rep_ok_rejects_broken_lists() {
        assert_rejects_miscount(&sample(), |list| &mut list.size);
        assert_rejects_miscount(&sample(), |list| &mut list.cache_size);
        assert_rejects(sample(), |list| list.nodes[list.header].value = Some(0));
        assert_rejects(sample(), |list| {
            let second = list.get_node(1, false).unwrap();
            list.nodes[second].previous = Some(list.header);
        });
        assert_rejects(sample(), |list| {
            let cached = list.first_cache_node.unwrap();
            list.nodes[cached].value = Some(7);
        });
        assert_rejects(sample(), |list| {
            let cached = list.first_cache_node.unwrap();
            let first = list.get_node(0, false).unwrap();
            list.nodes[cached].next = Some(first);
        });
        assert_rejects(sample(), |list| list.maximum_cache_size = 0);
        assert_rejects(sample(), |list| list.first_cache_node = Some(99));
    }
}
