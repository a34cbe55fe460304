//! The misbehaviours that take more than one call of `std`, shared by the
//! API and the Korat subjects. `std::hint::black_box` keeps the optimizer
//! from removing or shortening any of them in a release build.

use std::hint::black_box;

/// A mebibyte: the unit the memory misbehaviours allocate in.
const MIB: usize = 1 << 20;

/// Spins forever on a counter the optimizer cannot see through.
pub(crate) fn spin_forever() -> ! {
    let mut turns = 0u64;
    loop {
        turns = black_box(turns.wrapping_add(1));
    }
}

/// Recurses until the thread's stack overflows.
pub(crate) fn overflow_stack() -> ! {
    descend(0);
    unreachable!("a recursion without a base case returned")
}

/// One frame: a local array kept on the stack, and a use of it after the
/// call, so the recursion is not a tail call that could become a loop.
#[allow(unconditional_recursion)] // The point: there is no base case.
fn descend(depth: u64) -> u64 {
    let mut frame = [0u8; 512];
    frame[(depth % 512) as usize] = 1;
    black_box(&mut frame);
    descend(black_box(depth + 1)).wrapping_add(u64::from(frame[0]))
}

/// Allocates 1 MiB chunks of non-zero bytes (every page written) and keeps
/// them, until the allocator fails or the process is killed.
pub(crate) fn exhaust_memory() -> ! {
    let mut hoard: Vec<Vec<u8>> = Vec::new();
    loop {
        hoard.push(black_box(vec![1u8; MIB]));
        black_box(&hoard);
    }
}

/// Leaks 1 MiB of non-zero bytes (every page written).
pub(crate) fn leak_mib() {
    std::mem::forget(black_box(vec![1u8; MIB]));
}
