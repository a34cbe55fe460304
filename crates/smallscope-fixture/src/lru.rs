//! An LRU cache over an arena: nodes live in a `Vec`, linked by index from
//! most to least recently used, and freed slots go on a free list that
//! `put` reuses. The free list is `#[heap(omit)]`, as smallscope's docs
//! recommend: it is state the API depends on, but not part of the shape.
//!
//! The free list stores `slot + 1`, so that a zero could mean "none".
//! `Lru<Buggy>` has a planted bug in that hidden state: `put` forgets to
//! subtract the one when it reuses a slot, so it writes past the freed
//! slot (a panic, or a live entry overwritten). It shows only after a slot
//! was freed (by `remove` or `pop_oldest`): `new(1); put(0, 0); remove(0);
//! put(0, 0)`. Before the last
//! call, the state has the same canonical form as a clean empty cache (the
//! freed node is unreachable), so a search that merged states by canonical
//! form alone would never call `put` on it.

use std::marker::PhantomData;

use smallscope::Heap;

/// Selects the correct cache or the planted bug.
pub trait Variant: Clone + std::fmt::Debug + 'static {
    /// `put` reuses slot `s + 1` for the free-list entry `s + 1`.
    const FORGETS_THE_OFFSET: bool;
}

#[derive(Clone, Debug)]
pub struct Correct;
impl Variant for Correct {
    const FORGETS_THE_OFFSET: bool = false;
}

#[derive(Clone, Debug)]
pub struct Buggy;
impl Variant for Buggy {
    const FORGETS_THE_OFFSET: bool = true;
}

#[derive(Heap, Clone, Debug)]
pub struct Entry {
    key: u8,
    value: u8,
    #[heap(index = "nodes")]
    newer: Option<usize>,
    #[heap(index = "nodes")]
    older: Option<usize>,
}

#[derive(Heap, Clone, Debug)]
pub struct Lru<V: Variant> {
    #[heap(arena)]
    nodes: Vec<Entry>,
    #[heap(index = "nodes")]
    newest: Option<usize>,
    #[heap(index = "nodes")]
    oldest: Option<usize>,
    capacity: u8,
    /// Slots of removed entries, plus one, reused by `put`.
    #[heap(omit)]
    free: Vec<usize>,
    #[heap(skip)]
    variant: PhantomData<V>,
}

/// `new(0)`: a cache must hold something.
#[derive(Debug)]
pub struct ZeroCapacity;

#[smallscope::api(rep_ok = rep_ok, register("fixture-lru" = Lru<Correct>, "fixture-lru-buggy" = Lru<Buggy>))]
impl<V: Variant> Lru<V> {
    pub fn new(capacity: u8) -> Result<Self, ZeroCapacity> {
        Lru::with_capacity(capacity)
    }
    pub fn put(&mut self, key: u8, value: u8) {
        self.insert(key, value)
    }
    pub fn get(&mut self, key: u8) -> Option<u8> {
        self.lookup(key)
    }
    pub fn remove(&mut self, key: u8) -> Option<u8> {
        self.take(key)
    }
    pub fn pop_oldest(&mut self) -> Option<(u8, u8)> {
        self.take_oldest()
    }
    pub fn len(&self) -> usize {
        self.count()
    }
    /// Left out: one more observer of the same fact as `len`.
    #[smallscope(skip)]
    pub fn is_empty(&self) -> bool {
        self.newest.is_none()
    }
    pub fn rep_ok(&self) -> bool {
        self.is_consistent()
    }
}

impl<V: Variant> Lru<V> {
    fn with_capacity(capacity: u8) -> Result<Self, ZeroCapacity> {
        if capacity == 0 {
            return Err(ZeroCapacity);
        }
        Ok(Lru { nodes: Vec::new(), newest: None, oldest: None, capacity, free: Vec::new(), variant: PhantomData })
    }

    fn find(&self, key: u8) -> Option<usize> {
        let mut at = self.newest;
        while let Some(slot) = at {
            if self.nodes[slot].key == key {
                return Some(slot);
            }
            at = self.nodes[slot].older;
        }
        None
    }

    fn unlink(&mut self, slot: usize) {
        let (newer, older) = (self.nodes[slot].newer, self.nodes[slot].older);
        match newer {
            Some(n) => self.nodes[n].older = older,
            None => self.newest = older,
        }
        match older {
            Some(o) => self.nodes[o].newer = newer,
            None => self.oldest = newer,
        }
        self.nodes[slot].newer = None;
        self.nodes[slot].older = None;
    }

    fn push_newest(&mut self, slot: usize) {
        self.nodes[slot].newer = None;
        self.nodes[slot].older = self.newest;
        match self.newest {
            Some(n) => self.nodes[n].newer = Some(slot),
            None => self.oldest = Some(slot),
        }
        self.newest = Some(slot);
    }

    fn count(&self) -> usize {
        let mut at = self.newest;
        let mut count = 0;
        while let Some(slot) = at {
            count += 1;
            at = self.nodes[slot].older;
        }
        count
    }

    fn insert(&mut self, key: u8, value: u8) {
        if let Some(slot) = self.find(key) {
            self.nodes[slot].value = value;
            self.unlink(slot);
            self.push_newest(slot);
            return;
        }
        let entry = Entry { key, value, newer: None, older: None };
        if self.count() == self.capacity as usize {
            // Full: the oldest entry's slot takes the new one.
            let oldest = self.oldest.expect("a full cache has an oldest entry");
            self.unlink(oldest);
            self.nodes[oldest] = entry;
            self.push_newest(oldest);
            return;
        }
        let slot = match V::FORGETS_THE_OFFSET {
            true => self.free.pop(),
            false => self.free.pop().map(|entry| entry - 1),
        };
        let slot = match slot {
            Some(slot) => {
                self.nodes[slot] = entry;
                slot
            }
            None => {
                self.nodes.push(entry);
                self.nodes.len() - 1
            }
        };
        self.push_newest(slot);
    }

    fn take_oldest(&mut self) -> Option<(u8, u8)> {
        let key = self.nodes[self.oldest?].key;
        self.take(key).map(|value| (key, value))
    }

    fn lookup(&mut self, key: u8) -> Option<u8> {
        let slot = self.find(key)?;
        self.unlink(slot);
        self.push_newest(slot);
        Some(self.nodes[slot].value)
    }

    fn take(&mut self, key: u8) -> Option<u8> {
        let slot = self.find(key)?;
        self.unlink(slot);
        self.free.push(slot + 1);
        Some(self.nodes[slot].value)
    }

    /// Links agree both ways, keys are distinct, and the list fits the capacity.
    fn is_consistent(&self) -> bool {
        let mut seen = vec![false; self.nodes.len()];
        let (mut at, mut newer, mut keys) = (self.newest, None, Vec::new());
        while let Some(slot) = at {
            if slot >= self.nodes.len() || std::mem::replace(&mut seen[slot], true) {
                return false;
            }
            let entry = &self.nodes[slot];
            if entry.newer != newer || keys.contains(&entry.key) {
                return false;
            }
            keys.push(entry.key);
            newer = Some(slot);
            at = entry.older;
        }
        self.oldest == newer && keys.len() <= self.capacity as usize
    }
}
