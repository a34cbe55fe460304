//! `HeapArray` (see [`crate::korat::heap_array`]) by hand: an array model.
//!
//! Slots: 0 `size` (`0..=n`), 1 the array's length (`0..=n`), then element
//! `i` at `2 + i`, ranging over `-1..=n` (value index `k` is `k - 1`).

use super::{search as korat, Candidate, Counts, Slot};

/// `heap_array::rep_ok` on the flat candidate, in its read order.
#[inline(never)]
fn rep_ok(candidate: &mut Candidate) -> bool {
    let size = candidate.read(0) as usize;
    let length = candidate.read(1) as usize;
    if size > length {
        return false;
    }
    // Value indices: -1 is 0, and the order of values is the order of indices.
    for i in 0..size {
        let element = candidate.read(2 + i);
        if element == 0 || (i > 0 && element > candidate.read(2 + (i - 1) / 2)) {
            return false;
        }
    }
    (size..length).all(|i| candidate.read(2 + i) == 0)
}

/// Runs the search at scope `n`.
pub fn search(n: usize) -> Counts {
    let kind = |slot: usize| match slot {
        0 | 1 => Slot::Int { last: n as u32 },
        _ => Slot::Int { last: n as u32 + 1 },
    };
    korat(2 + n, 0, kind, rep_ok)
}
