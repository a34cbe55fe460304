//! A map that remembers insertion order, as a newtype over
//! `indexmap::IndexMap`: a type from crates.io, which `#[derive(Heap)]`
//! cannot see into and which no crate but `indexmap` may implement
//! smallscope's traits for. Its field is walked `#[heap(with = ..)]` a
//! module of this crate instead.
//!
//! The order is state here (`pop` and `swap_remove` depend on it), so the
//! module reports the entries in insertion order, not in key order as the
//! built-in `HashMap` walk does.

use indexmap::IndexMap;
use smallscope::Heap;

/// `u8` keys and values, in insertion order.
#[derive(Heap, Clone, Debug, Default)]
pub struct OrderedMap(#[heap(with = entries_in_order)] IndexMap<u8, u8>);

/// Walks an `IndexMap<u8, u8>` as the sequence of its `(key, value)` pairs,
/// in insertion order.
pub mod entries_in_order {
    use indexmap::IndexMap;
    use smallscope::heap::{HeapValue, Schema, Visitor};

    /// Reports `map` to `visitor`.
    pub fn visit(map: &IndexMap<u8, u8>, visitor: &mut dyn Visitor) {
        visitor.seq_begin(map.len());
        for (&key, &value) in map {
            (key, value).visit(visitor);
        }
        visitor.seq_end();
    }

    /// Keys and values are primitives: no class to add.
    pub fn collect_classes(_schema: &mut Schema) {}
}

#[smallscope::api(name = "fixture-ordered-map", rep_ok = rep_ok)]
impl OrderedMap {
    /// An empty map.
    pub fn new() -> Self {
        OrderedMap(IndexMap::new())
    }

    /// Sets `key` to `value`: a new key goes last, a present one keeps its
    /// place. Returns the old value.
    pub fn insert(&mut self, key: u8, value: u8) -> Option<u8> {
        self.0.insert(key, value)
    }

    /// Removes `key`, keeping the order of the rest.
    pub fn shift_remove(&mut self, key: u8) -> Option<u8> {
        self.0.shift_remove(&key)
    }

    /// Removes `key` by moving the last entry into its place.
    pub fn swap_remove(&mut self, key: u8) -> Option<u8> {
        self.0.swap_remove(&key)
    }

    /// Removes the last entry.
    pub fn pop(&mut self) -> Option<(u8, u8)> {
        self.0.pop()
    }

    /// The value of `key`.
    pub fn get(&self, key: u8) -> Option<u8> {
        self.0.get(&key).copied()
    }

    /// The first entry inserted (and still there).
    pub fn first(&self) -> Option<(u8, u8)> {
        self.0.first().map(|(&k, &v)| (k, v))
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is no entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each key's index agrees with its place in the iteration order.
    pub fn rep_ok(&self) -> bool {
        self.0.keys().enumerate().all(|(place, key)| self.0.get_index_of(key) == Some(place))
    }
}
