//! A ring buffer over a `Vec<u8>` whose `rotate` loops forever once the
//! ring holds three values: a search for the next free slot that never
//! finds one. Its witness tests must fail, not hang the test binary.

use smallscope::Heap;

#[derive(Heap, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ring {
    slots: Vec<u8>,
    start: usize,
}

#[smallscope::api(name = "fixture-stuck-ring")]
impl Ring {
    pub fn new() -> Self {
        Ring::default()
    }

    pub fn push(&mut self, value: u8) {
        if self.slots.len() < 3 {
            self.slots.push(value);
        }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Moves the start to the next slot that differs from the first; a
    /// full ring is searched for a free slot that is never there.
    pub fn rotate(&mut self) {
        let mut next = (self.start + 1) % self.slots.len().max(1);
        while self.slots.len() >= 3 && next != usize::MAX {
            next = (next + 1) % self.slots.len();
        }
        self.start = next;
    }
}
