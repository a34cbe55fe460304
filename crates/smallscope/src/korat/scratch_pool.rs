//! The memory a candidate keeps for its invariant's scratch vectors
//! ([`ScratchVec`](super::ScratchVec)): finished vectors' buffers, handed
//! out again to vectors of the same element size and alignment.

use std::alloc::Layout;
use std::cell::{Cell, RefCell};
use std::ptr::NonNull;

/// A `Vec`'s memory, given back by a [`ScratchVec`].
struct Buffer {
    ptr: NonNull<u8>,
    layout: Layout,
}

/// The buffers of a candidate's finished scratch vectors.
#[derive(Default)]
pub(crate) struct ScratchPool {
    /// The buffer given back last: an invariant takes and gives back in the
    /// same order on every run, so this is usually the one it asks for next.
    last: Cell<Option<Buffer>>,
    others: RefCell<Vec<Buffer>>,
}

impl ScratchPool {
    /// An empty `Vec<T>`, in a buffer of `T`'s size and alignment if one is free.
    #[inline]
    pub(super) fn take<T>(&self) -> Vec<T> {
        let (size, align) = (std::mem::size_of::<T>(), std::mem::align_of::<T>());
        let fits = |b: &Buffer| b.layout.align() == align && b.layout.size() % size.max(1) == 0;
        let buffer = match self.last.take() {
            Some(last) if size > 0 && fits(&last) => Some(last),
            last => {
                let mut others = self.others.borrow_mut();
                others.extend(last);
                let index = others.iter().position(fits).filter(|_| size > 0);
                index.map(|index| others.swap_remove(index))
            }
        };
        match buffer {
            // SAFETY: the buffer was a `Vec<U>`'s allocation, from the
            // global allocator, with `U` of `T`'s size and alignment, so its
            // layout is that of `capacity` values of `T`; it holds no
            // values (length 0).
            Some(buffer) => unsafe {
                Vec::from_raw_parts(buffer.ptr.as_ptr().cast::<T>(), 0, buffer.layout.size() / size)
            },
            None => Vec::new(),
        }
    }

    /// Keeps `vec`'s memory for the next [`ScratchPool::take`].
    #[inline]
    pub(super) fn give<T>(&self, mut vec: Vec<T>) {
        vec.clear();
        if std::mem::size_of::<T>() == 0 || vec.capacity() == 0 {
            return;
        }
        let mut vec = std::mem::ManuallyDrop::new(vec);
        // SAFETY: `vec`'s layout is that of its capacity of `T`s, which fit in memory.
        let layout = unsafe {
            Layout::from_size_align_unchecked(vec.capacity() * std::mem::size_of::<T>(), std::mem::align_of::<T>())
        };
        let ptr = NonNull::new(vec.as_mut_ptr().cast::<u8>()).expect("a Vec with capacity");
        let buffer = Buffer { ptr, layout };
        if let Some(previous) = self.last.replace(Some(buffer)) {
            match self.others.try_borrow_mut() {
                Ok(mut others) => others.push(previous),
                // SAFETY: as `Vec`'s own drop would free it.
                Err(_) => unsafe { std::alloc::dealloc(previous.ptr.as_ptr(), previous.layout) },
            }
        }
    }
}

impl Drop for ScratchPool {
    fn drop(&mut self) {
        for buffer in self.others.get_mut().drain(..).chain(self.last.take()) {
            // SAFETY: each buffer is a `Vec`'s allocation with this layout, owned by the pool.
            unsafe { std::alloc::dealloc(buffer.ptr.as_ptr(), buffer.layout) }
        }
    }
}
