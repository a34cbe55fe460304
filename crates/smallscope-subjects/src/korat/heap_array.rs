//! Korat's `HeapArray` benchmark: a max-heap of `size` elements stored in
//! an array, the unused slots holding -1.
//!
//! Stock finitization `fin(n)` (`finHeapArray(n, n, n)`): `size` in `0..=n`;
//! one array, never null, of length `0..=n` with elements in `-1..=n`. In
//! Korat the `array` reference is excluded from the search (it always points
//! to the one array), as our owned `Array` is; the array's own fields are its
//! `length`, then elements `0, 1, ..` (the order Korat adds them too).
//!
//! Read order, as in the original `repOK`: `size`, then `array.length`
//! (`size < 0` never holds, so the `||` always reads it), then for each `i`
//! below `size`: `array[i]`, checked against -1, then its parent
//! `array[(i - 1) / 2]` (already read); then `array[size..length]`, each
//! checked against -1 before the next. A valid candidate has read every
//! element, so nothing is added after it.

use smallscope::korat::{Array, Korat};

#[derive(Korat)]
pub struct HeapArray {
    #[korat(ints = 0..=n)]
    size: i64,
    #[korat(length = 0..=n, ints = -1..=n)]
    array: Array<i64>,
}

/// `size` within the array, no element above its parent, no -1 below
/// `size` and only -1 from `size` on.
pub fn rep_ok(heap: HeapArrayView<'_>) -> bool {
    let array = heap.array();
    let size = heap.size();
    if size < 0 || size as usize > array.len() {
        return false;
    }
    let size = size as usize;
    for i in 0..size {
        let element = array.get(i);
        if element == -1 || (i > 0 && element > array.get((i - 1) / 2)) {
            return false;
        }
    }
    (size..array.len()).all(|i| array.get(i) == -1)
}

smallscope::korat_subject!("heap-array", HeapArray, rep_ok = rep_ok);
