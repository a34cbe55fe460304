//! A counting allocator, so that `--memory-limit-mb` stops a worker at the
//! allocation that passes the limit, not seconds later.
//!
//! With no limit set it only passes calls through. With a limit, each thread
//! counts its allocations locally and settles with the process total every
//! 64 KiB, so the total is off by at most that much per thread. An
//! allocation that would pass the limit is refused: Rust then aborts the
//! worker ("memory allocation of N bytes failed"), and the thread's flight
//! slot is marked so that the supervisor knows why, and in which call.
//!
//! Underneath is mimalloc, built without transparent huge pages (see the
//! workspace manifest): it takes about half the instructions of glibc's
//! `malloc` and `free`, which are a third of a BEAPI step's, and it keeps a
//! memory limit within a few MiB, as glibc does.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicI64, Ordering::Relaxed};

use smallscope::runner::flight;

/// The allocator of every binary built on `smallscope_cli`.
pub struct Counting;

/// The limit in bytes; 0: none, and nothing is counted.
static LIMIT: AtomicI64 = AtomicI64::new(0);
/// Bytes allocated, settled from the threads' local counts.
static ALLOCATED: AtomicI64 = AtomicI64::new(0);
/// How far a thread's local count may drift before it settles.
const BATCH: i64 = 64 * 1024;

thread_local! {
    static LOCAL: Cell<i64> = const { Cell::new(0) };
}

/// Limits the process's resident memory to `bytes` from here on; engines
/// stop between inputs a little before (see `smallscope::runner::memory`).
///
/// Allocations are what is counted, against a budget: the limit less what
/// the process holds besides them (code pages as they are first run, thread
/// stacks, freed memory the system allocator keeps). That part grows as a
/// run goes on, by tens of MiB for a large binary, so a thread measures it
/// again every few milliseconds.
pub fn limit_resident(bytes: u64) -> std::io::Result<()> {
    set_budget(bytes);
    std::thread::Builder::new().name("smallscope-memory".into()).spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_millis(10));
        set_budget(bytes);
    })?;
    Ok(())
}

/// The allocation budget under a resident limit of `bytes`: never below
/// half of it, so that a process that starts large can still run.
fn set_budget(bytes: u64) {
    let resident = crate::memory::resident_bytes_of(std::process::id()).unwrap_or(0);
    let besides = resident.saturating_sub(allocated());
    let budget = bytes.saturating_sub(besides).max(bytes / 2);
    smallscope::runner::memory::limit_with(allocated, budget);
    LIMIT.store(i64::try_from(budget).unwrap_or(i64::MAX), Relaxed);
}

/// Bytes allocated (when a limit counts them).
pub fn allocated() -> u64 {
    ALLOCATED.load(Relaxed).max(0) as u64
}

/// Counts `bytes` (negative when freed); false when an allocation would
/// pass the limit, which is then refused.
fn charge(bytes: i64) -> bool {
    let limit = LIMIT.load(Relaxed);
    if limit == 0 {
        return true;
    }
    let settle = |pending: i64| ALLOCATED.fetch_add(pending, Relaxed) + pending;
    let total = match LOCAL.try_with(|local| {
        let pending = local.get() + bytes;
        if pending.abs() < BATCH {
            local.set(pending);
            None
        } else {
            local.set(0);
            Some(settle(pending))
        }
    }) {
        Ok(None) => return true,
        Ok(Some(total)) => total,
        Err(_) => settle(bytes),
    };
    if bytes > 0 && total > limit {
        ALLOCATED.fetch_sub(bytes, Relaxed);
        flight::mark(flight::MARK_OUT_OF_MEMORY);
        return false;
    }
    true
}

/// mimalloc, called through its plain `malloc` family whenever every
/// block of the size has the alignment, as `std`'s `System` allocator
/// decides for the C `malloc`: mimalloc aligns blocks of 16 bytes or more to
/// 16. Its aligned family is for the rest only: when a page's free list is
/// empty, it over-allocates from a larger size class instead of refilling
/// the page, and then keeps doing so; a third of a `random` run's
/// allocations went that way, at about 140 instructions each.
mod underlying {
    use libmimalloc_sys::{
        mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc, mi_zalloc_aligned,
    };
    use std::alloc::Layout;
    use std::ffi::c_void;

    /// The alignment every mimalloc block of at least this many bytes has.
    const MIN_ALIGN: usize = 16;

    fn plain(align: usize, size: usize) -> bool {
        align <= MIN_ALIGN && align <= size
    }

    /// mimalloc's entry points of one kind: plain, and with an alignment.
    type Plain = unsafe extern "C" fn(usize) -> *mut c_void;
    type Aligned = unsafe extern "C" fn(usize, usize) -> *mut c_void;

    /// A block for `layout` from `plain` when every block of its size has
    /// the alignment, else from `aligned`.
    ///
    /// SAFETY (this and the four below): as [`std::alloc::GlobalAlloc`]'s methods.
    #[inline(always)]
    unsafe fn block(layout: Layout, plain_entry: Plain, aligned_entry: Aligned) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        let block = unsafe {
            match plain(align, size) {
                true => plain_entry(size),
                false => aligned_entry(size, align),
            }
        };
        block.cast()
    }

    pub unsafe fn alloc(layout: Layout) -> *mut u8 {
        unsafe { block(layout, mi_malloc, mi_malloc_aligned) }
    }

    pub unsafe fn alloc_zeroed(layout: Layout) -> *mut u8 {
        unsafe { block(layout, mi_zalloc, mi_zalloc_aligned) }
    }

    pub unsafe fn dealloc(ptr: *mut u8) {
        unsafe { mi_free(ptr.cast::<c_void>()) }
    }

    pub unsafe fn realloc(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let (ptr, align) = (ptr.cast::<c_void>(), layout.align());
        let moved = unsafe {
            if plain(align, new_size) {
                mi_realloc(ptr, new_size)
            } else {
                mi_realloc_aligned(ptr, new_size, align)
            }
        };
        moved.cast()
    }
}

// SAFETY: every call is passed to mimalloc unchanged; refusing an
// allocation returns null, as the contract allows.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !charge(layout.size() as i64) {
            return std::ptr::null_mut();
        }
        unsafe { underlying::alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !charge(layout.size() as i64) {
            return std::ptr::null_mut();
        }
        unsafe { underlying::alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { underlying::dealloc(ptr) };
        charge(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let grow = new_size as i64 - layout.size() as i64;
        if !charge(grow) {
            return std::ptr::null_mut();
        }
        let moved = unsafe { underlying::realloc(ptr, layout, new_size) };
        if moved.is_null() {
            charge(-grow);
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::underlying;
    use std::alloc::Layout;

    /// Every layout gets memory of its alignment, zeroed when asked, and a
    /// reallocation keeps the contents and the alignment, whichever family
    /// of mimalloc's serves it.
    #[test]
    fn every_layout_gets_its_alignment_and_keeps_its_contents() {
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 8, 16, 24, 40, 48, 100, 1000, 70_000] {
                let Ok(layout) = Layout::from_size_align(size, align) else { continue };
                let layout = layout.pad_to_align();
                // SAFETY: nonzero sizes; each block is written within its
                // layout and freed once, with the layout it has then.
                unsafe {
                    let zeroed = underlying::alloc_zeroed(layout);
                    assert_eq!(zeroed as usize % align, 0, "zeroed {layout:?}");
                    assert!(std::slice::from_raw_parts(zeroed, layout.size()).iter().all(|&b| b == 0));
                    underlying::dealloc(zeroed);
                    let written = || {
                        let block = underlying::alloc(layout);
                        for i in 0..layout.size() {
                            block.add(i).write(i as u8);
                        }
                        block
                    };
                    for new_size in [layout.size() * 3, layout.size().div_ceil(2).next_multiple_of(align)] {
                        let block = written();
                        assert_eq!(block as usize % align, 0, "{layout:?}");
                        let kept = layout.size().min(new_size);
                        let moved = underlying::realloc(block, layout, new_size);
                        assert_eq!(moved as usize % align, 0, "{layout:?} to {new_size}");
                        assert!((0..kept).all(|i| moved.add(i).read() == i as u8), "{layout:?} to {new_size}");
                        let resized = Layout::from_size_align(new_size, align).unwrap();
                        let back = underlying::realloc(moved, resized, layout.size());
                        assert_eq!(back as usize % align, 0, "{layout:?} back from {new_size}");
                        assert!((0..kept).all(|i| back.add(i).read() == i as u8));
                        underlying::dealloc(back);
                    }
                }
            }
        }
    }
}
