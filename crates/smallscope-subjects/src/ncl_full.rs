//! `ncl-full`: Apache Commons Collections' `NodeCachingLinkedList` of `i32`
//! with its whole public API, the subject of builders identification.
//!
//! The same structure as [`ncl`] (a circular doubly linked list
//! through a header node, plus a cache of removed nodes that later inserts
//! reuse), a subject of its own with every public method of
//! `org.apache.commons.collections.list.NodeCachingLinkedList` and the
//! `AbstractLinkedList` it inherits, as in the builders identification
//! benchmark ("Builders identification by evolutionary algorithm", Table 1):
//! among 30 operations, a search must find a sufficient and minimal set of
//! builders and tell the observers apart.
//!
//! The type wraps `ncl`'s list and is walked as it: `ncl`'s operations are
//! delegated, and the bulk ones (`add_all_at`, `remove_all`, `retain_all`)
//! are written here over `ncl`'s node steps (`getNode`, `addNodeBefore`,
//! `removeNode`), so the caching logic exists once.
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

use smallscope::heap::{Class, Heap, Schema, Visitor};

pub use crate::list::ListError;
use crate::ncl;
pub use crate::ncl::DEFAULT_MAXIMUM_CACHE_SIZE;

/// `subList`'s misuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubListError {
    /// `to > size`: Java's `IndexOutOfBoundsException` (a negative `from`
    /// cannot be written with `usize`).
    IndexOutOfBounds { to: usize, size: usize },
    /// `from > to`: Java's `IllegalArgumentException`.
    IllegalArgument { from: usize, to: usize },
}

/// `ncl`'s list behind the whole API. Equality, hashing and order are the
/// wrapped list's: by the element sequence.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeCachingLinkedList {
    list: ncl::NodeCachingLinkedList,
}

/// Walked as the wrapped list, which the wrapper adds nothing to: the
/// classes and fields are `ncl`'s, so the structures are too.
impl Heap for NodeCachingLinkedList {
    fn class() -> &'static Class {
        <ncl::NodeCachingLinkedList as Heap>::class()
    }

    fn walk(&self, visitor: &mut dyn Visitor) {
        self.list.walk(visitor);
    }

    fn collect_classes(schema: &mut Schema) {
        <ncl::NodeCachingLinkedList as Heap>::collect_classes(schema);
    }
}

#[smallscope::api(name = "ncl-full", rep_ok = rep_ok)]
impl NodeCachingLinkedList {
    /// An empty list with the default maximum cache size (20).
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `x` (Java's `add(Object)`, whose `true` is left out).
    pub fn add(&mut self, x: i32) {
        self.list.add(x);
    }

    /// Inserts `x` in front.
    pub fn add_first(&mut self, x: i32) {
        self.list.add_first(x);
    }

    /// Appends `x`.
    pub fn add_last(&mut self, x: i32) {
        self.list.add_last(x);
    }

    /// Inserts `x` so that it ends up at position `index` (`0..=size`).
    pub fn add_at(&mut self, index: usize, x: i32) -> Result<(), ListError> {
        self.list.add_at(index, x)
    }

    /// Appends the values of `xs` in order (`addAll(Collection)`); `true`.
    pub fn add_all(&mut self, xs: Vec<i32>) -> bool {
        for x in xs {
            self.list.add_last(x);
        }
        true
    }

    /// Inserts the values of `xs` in order so that the first ends up at
    /// `index` (`addAll(int, Collection)`); `true`, even for an empty `xs`.
    pub fn add_all_at(&mut self, index: usize, xs: Vec<i32>) -> Result<bool, ListError> {
        let before = self.list.get_node(index, true)?;
        // Each before the same node, so they keep their order.
        for x in xs {
            self.list.add_node_before(x, before);
        }
        Ok(true)
    }

    /// The value at `index`.
    pub fn get(&self, index: usize) -> Result<i32, ListError> {
        self.list.get(index)
    }

    pub fn get_first(&self) -> Result<i32, ListError> {
        self.list.get_first()
    }

    pub fn get_last(&self) -> Result<i32, ListError> {
        self.list.get_last()
    }

    /// Replaces the value at `index`; returns the old one. The node stays.
    pub fn set(&mut self, index: usize, x: i32) -> Result<i32, ListError> {
        self.list.set(index, x)
    }

    pub fn remove_first(&mut self) -> Result<i32, ListError> {
        self.list.remove_first()
    }

    pub fn remove_last(&mut self) -> Result<i32, ListError> {
        self.list.remove_last()
    }

    /// Removes and returns the value at `index` (Java's `remove(int)`).
    pub fn remove_at(&mut self, index: usize) -> Result<i32, ListError> {
        self.list.remove_at(index)
    }

    /// Removes the first occurrence of `x` (Java's `remove(Object)`).
    pub fn remove_value(&mut self, x: i32) -> bool {
        self.list.remove_value(x)
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
        self.list.clear();
    }

    /// Position of the first occurrence of `x` (Java's `-1` is `None`).
    pub fn index_of(&self, x: i32) -> Option<usize> {
        self.list.index_of(x)
    }

    /// Position of the last occurrence of `x`, searching backwards.
    pub fn last_index_of(&self, x: i32) -> Option<usize> {
        self.list.last_index_of(x)
    }

    pub fn contains(&self, x: i32) -> bool {
        self.list.contains(x)
    }

    /// Whether every value of `xs` is in the list (`true` for an empty `xs`).
    pub fn contains_all(&self, xs: Vec<i32>) -> bool {
        xs.iter().all(|&x| self.contains(x))
    }

    pub fn size(&self) -> usize {
        self.list.size()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The values, first to last (`toArray`).
    pub fn to_vec(&self) -> Vec<i32> {
        self.list.to_vec()
    }

    /// A copy of the values at `from..to` (`subList`, checked as Apache's
    /// `LinkedSubList` does: `to > size` first, then `from > to`).
    pub fn sub_list(&self, from: usize, to: usize) -> Result<Vec<i32>, SubListError> {
        let size = self.size();
        if to > size {
            return Err(SubListError::IndexOutOfBounds { to, size });
        }
        if from > to {
            return Err(SubListError::IllegalArgument { from, to });
        }
        Ok(self.to_vec()[from..to].to_vec())
    }

    /// `List.equals`: the same size and the same values in the same order.
    pub fn equals(&self, other: &Self) -> bool {
        self.size() == other.size() && self.to_vec() == other.to_vec()
    }

    /// `List.hashCode`: `31 * h + e` over the values, from 1, wrapping
    /// (an `Integer`'s hash is its value).
    pub fn hash_code(&self) -> i32 {
        self.to_vec().into_iter().fold(1i32, |h, e| h.wrapping_mul(31).wrapping_add(e))
    }

    /// The most nodes the cache may hold (Apache's `getMaximumCacheSize`).
    pub fn max_cache_size(&self) -> usize {
        self.list.max_cache_size()
    }

    /// How many removed nodes are waiting for reuse.
    pub fn cache_size(&self) -> usize {
        self.list.cache_size()
    }

    /// `ncl`'s corrected invariant.
    pub fn rep_ok(&self) -> bool {
        self.list.rep_ok()
    }
}

/// Outside the engines' API: they change `maximum_cache_size` (see the module doc).
impl NodeCachingLinkedList {
    /// An empty list whose cache holds at most `maximum_cache_size` nodes
    /// (Java's `NodeCachingLinkedList(int)`).
    pub fn with_maximum_cache_size(maximum_cache_size: usize) -> Self {
        NodeCachingLinkedList { list: ncl::NodeCachingLinkedList::with_maximum_cache_size(maximum_cache_size) }
    }

    /// Apache's protected `setMaximumCacheSize`: sets the maximum, then
    /// `shrinkCacheToMaximumSize` takes nodes off the front of the cache
    /// until it fits.
    pub fn set_maximum_cache_size(&mut self, maximum_cache_size: usize) {
        self.list.set_maximum_cache_size(maximum_cache_size);
    }

    /// The iterator loop of `removeAll` / `retainAll`: front to back, each
    /// node whose value matches goes through `removeNode`.
    fn remove_where(&mut self, matches: impl Fn(i32) -> bool) -> bool {
        let list = &self.list;
        let doomed: Vec<usize> = list.forward().filter(|&n| list.value(n).is_some_and(&matches)).collect();
        for &node in &doomed {
            self.list.remove_node(node);
        }
        !doomed.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{beapi_count, named, ListModel, XorShift};
    use smallscope::api::Subject;
    use smallscope::heap::canonical_text;
    use smallscope::Builders;

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
        assert_eq!(list.cache_size(), model.cache, "cache after {list:?}");
        assert_no_leak(list);
    }

    /// The arena holds the header, the live and cached nodes, and the garbage slots on `free`.
    fn assert_no_leak(list: &Ncl) {
        let (slots, free) = list.list.arena_slots();
        assert_eq!(slots, 1 + list.size() + list.cache_size() + free);
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
                        assert_eq!(list.cache_size(), model.cache);
                        assert_no_leak(&list);
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
        assert_eq!(list.list.arena_slots(), (4, 0));
        assert!(list.remove_all(vec![1, 3]));
        assert_eq!((list.to_vec(), list.cache_size()), (vec![2], 2));
        assert_eq!(list.add_all_at(0, vec![7, 8]), Ok(true));
        assert_eq!((list.to_vec(), list.cache_size()), (vec![7, 8, 2], 0));
        assert_eq!(list.list.arena_slots(), (4, 0), "no node was allocated");
        assert!(list.retain_all(vec![8]));
        assert_eq!((list.to_vec(), list.cache_size()), (vec![8], 2));
        assert!(!list.retain_all(vec![8]));
        assert!(!list.remove_all(vec![]));
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

    /// Observer detection (a seeded random run, comparing each call's
    /// inputs before and after) finds exactly the observers above, calls
    /// every operation, and shows each other one changing or making a list.
    #[test]
    fn observer_detection_finds_exactly_the_observers() {
        use smallscope::builders::observers::{classify, random_settings, Role};
        let roles = classify::<Ncl>(&random_settings(0..5), &[], None).unwrap().roles;
        for (op, role) in Ncl::operations().iter().zip(&roles) {
            match role {
                Role::Observer { calls } => {
                    assert!(OBSERVERS.contains(&op.name) && *calls > 0, "{}: {role:?}", op.name)
                }
                Role::Mutator(evidence) => {
                    assert!(!OBSERVERS.contains(&op.name), "{} is an observer, yet: {evidence}", op.name);
                    assert!(evidence.calls.last().unwrap().contains(&format!("{}(", op.name)), "{evidence}");
                }
                Role::Unexercised | Role::Unchecked => panic!("{} was never called legally", op.name),
            }
        }
    }

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

    /// `new`, `add_first`, `remove_first` make every structure the whole API makes.
    #[test]
    fn three_builders_are_sufficient() {
        let three = || named(&["new", "add_first", "remove_first"]);
        for n in 1..=3 {
            assert_eq!(beapi_count::<Ncl>(n, Builders::All), closed_form(n), "whole API at scope {n}");
            assert_eq!(beapi_count::<Ncl>(n, three()), closed_form(n), "three builders at scope {n}");
        }
        assert_eq!(closed_form(3), 18);
        assert_eq!(closed_form(4), 112);
    }
}
