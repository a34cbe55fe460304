//! An arena of bytes whose `insert` hands out a [`Key`] that `get` and
//! `remove` take, as slab- and slotmap-style APIs do. A freed slot goes on
//! a free list and is reused; its generation is bumped, so a key to a
//! removed value no longer names anything.
//!
//! Planted bug: `remove` does not check the key's generation. A stale key
//! frees its slot again: `new(); k = insert(0); remove(k); remove(k)` puts
//! the slot on the free list twice and takes `len` below zero (an overflow
//! panic under `cargo test`; `rep_ok` false where overflows wrap).

use smallscope::Heap;

#[derive(Heap, Clone, Debug)]
pub struct Slot {
    value: Option<u8>,
    /// Bumped each time the slot is freed; a counter, so not state to tell apart.
    #[heap(skip)]
    generation: u32,
}

/// Names one value for as long as it is in the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    index: usize,
    generation: u32,
}

#[derive(Heap, Clone, Debug, Default)]
pub struct KeyedArena {
    slots: Vec<Slot>,
    /// Free slots, reused last in, first out.
    #[heap(omit)]
    free: Vec<usize>,
    #[heap(omit)]
    len: usize,
}

#[smallscope::api(name = "fixture-keyed-arena-bug-stale", rep_ok = rep_ok)]
impl KeyedArena {
    pub fn new() -> Self {
        KeyedArena::default()
    }

    pub fn insert(&mut self, value: u8) -> Key {
        self.len += 1;
        match self.free.pop() {
            Some(index) => {
                self.slots[index].value = Some(value);
                Key { index, generation: self.slots[index].generation }
            }
            None => {
                self.slots.push(Slot { value: Some(value), generation: 0 });
                Key { index: self.slots.len() - 1, generation: 0 }
            }
        }
    }

    pub fn get(&self, key: &Key) -> Option<u8> {
        let slot = self.slots.get(key.index)?;
        (slot.generation == key.generation).then_some(slot.value).flatten()
    }

    /// The value `key` names, taken out. The planted bug: a key whose slot
    /// was freed since (a stale key) is not told from a live one.
    pub fn remove(&mut self, key: Key) -> Option<u8> {
        let slot = self.slots.get_mut(key.index)?;
        let value = slot.value.take();
        slot.generation += 1;
        self.free.push(key.index);
        self.len -= 1;
        value
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `len` counts the occupied slots; the free list holds each empty slot once.
    pub fn rep_ok(&self) -> bool {
        let occupied = self.slots.iter().filter(|s| s.value.is_some()).count();
        let mut free = self.free.clone();
        free.sort_unstable();
        free.dedup();
        occupied == self.len
            && free.len() == self.free.len()
            && free.iter().all(|&i| self.slots.get(i).is_some_and(|s| s.value.is_none()))
            && occupied + free.len() == self.slots.len()
    }
}
