//! The flight recorder: what user code each engine thread is running, in
//! memory a watchdog (or, after a crash, a supervisor process) can read.
//!
//! Each thread that runs user code binds itself to a slot of a [`Flight`].
//! Before a risky call the engine says where it is ([`position`]), and
//! [`run_captured`](super::run_captured) marks the slot as in user code for
//! the call's duration. These are a few relaxed stores per call, cheap enough
//! for the hot loop. When a call never returns, the watchdog sees the slot's
//! serial number stand still; when the process dies, the supervisor maps the
//! same memory (a file, see [`Flight::mapped_by`]) and reads which input it was.
//!
//! Korat's read log lives in the slot too ([`ReadLog`]), so the fields a
//! crashed `rep_ok` read survive it.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use crate::events::During;

/// Words of one slot.
pub const SLOT_WORDS: usize = 8192;

const SERIAL: usize = 0;
/// Bit 0: in user code; bits 1..8: [`During`]; bits 16..32: the operation;
/// bit 62: the slot is claimed by a thread.
const STATE: usize = 1;
const RUN: usize = 2;
const INPUT: usize = 3;
const DETAIL: usize = 4;
/// Bytes the process had allocated when the current user code was entered.
const ALLOCATED: usize = 5;
/// Why this thread brought the process down: a signal number, or [`MARK_OUT_OF_MEMORY`].
const MARK: usize = 6;
const PRINT_LO: usize = 7;
const PRINT_HI: usize = 8;
/// Bit 63: a print is set.
const PRINT_SET: usize = 9;
const LOG_LEN: usize = 10;
const LOG: usize = 11;

const IN_USER_CODE: u64 = 1;
const CLAIMED: u64 = 1 << 62;

/// The mark of a thread whose allocation passed the memory limit.
pub const MARK_OUT_OF_MEMORY: u64 = 1 << 32;

/// Where an engine is: enough for a rerun of the same job to recognise the
/// input and step past it. Each engine gives the three numbers its meaning.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Address {
    /// Which search: the main one, a builder-identification run, a Korat part.
    pub run: u64,
    /// Which input of it, counted from 1.
    pub input: u64,
    /// Which part of the input (a call of a sequence, a structure to clone).
    pub detail: u64,
}

/// `run.input.detail`, as findings and notes name an input.
impl std::fmt::Display for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.run, self.input, self.detail)
    }
}

/// User code about to run: which kind, and for which operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserCode {
    pub during: During,
    /// The operation the input ends with (its index in the API), or 0.
    pub op: u16,
}

impl UserCode {
    pub const fn new(during: During, op: u16) -> Self {
        UserCode { during, op }
    }

    /// A call of operation `op`.
    pub const fn call(op: u16) -> Self {
        UserCode { during: During::Call, op }
    }

    fn state(self) -> u64 {
        IN_USER_CODE | (self.during.code() << 1) | (u64::from(self.op) << 16) | CLAIMED
    }
}

/// Slots of memory that threads running user code write to.
pub struct Flight {
    words: Memory,
    slots: usize,
}

enum Memory {
    Owned(Box<[AtomicU64]>),
    /// Shared with another process, in memory `_owner` keeps mapped.
    Mapped {
        words: &'static [AtomicU64],
        _owner: Box<dyn std::any::Any + Send + Sync>,
    },
}

impl Memory {
    fn words(&self) -> &[AtomicU64] {
        match self {
            Memory::Owned(words) => words,
            Memory::Mapped { words, .. } => words,
        }
    }
}

/// A snapshot of one slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InFlight {
    pub slot: usize,
    /// Counts user-code entries: unchanged while one call runs.
    pub serial: u64,
    pub claimed: bool,
    pub in_user_code: bool,
    pub code: UserCode,
    pub address: Address,
    /// Bytes allocated when the user code was entered (when a limit counts them).
    pub allocated: u64,
    pub mark: u64,
    /// The fingerprint of the value under check, when the engine set one.
    pub print: Option<u128>,
    /// The fields Korat's `rep_ok` had read (a [`ReadLog`] in this slot).
    pub reads: Vec<u32>,
    /// The value index each of `reads` held.
    pub read_values: Vec<u32>,
}

impl Flight {
    /// A flight in this process's memory. Pages no thread writes to are
    /// never touched, so generous slots cost address space only.
    pub fn in_memory(slots: usize, words_per_slot: usize) -> Arc<Flight> {
        let len = slots * words_per_slot;
        let words: Box<[AtomicU64]> = if len == 0 {
            Box::default()
        } else {
            let layout = std::alloc::Layout::array::<AtomicU64>(len).expect("a flight fits in memory");
            // SAFETY: zeroed memory is a valid `AtomicU64`, and the layout is
            // that of a `[AtomicU64]` of `len` elements, as `Box` frees it.
            // (`Box::new_zeroed_slice` would need Rust 1.92.)
            unsafe {
                let ptr = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
                if ptr.is_null() {
                    std::alloc::handle_alloc_error(layout);
                }
                Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
            }
        };
        Arc::new(Flight { words: Memory::Owned(words), slots })
    }

    /// A flight over `words`, which `owner` (a mapping) keeps valid as long
    /// as the flight lives.
    ///
    /// # Safety
    /// `words` must point into memory that `owner` keeps mapped, unmoved,
    /// until it is dropped.
    pub unsafe fn mapped_by(words: &[AtomicU64], owner: Box<dyn std::any::Any + Send + Sync>) -> Arc<Flight> {
        let slots = words.len() / SLOT_WORDS;
        // SAFETY: the caller promises `owner` keeps `words` valid; the
        // flight holds `owner` as long as it holds `words`.
        let words: &'static [AtomicU64] = unsafe { std::mem::transmute::<&[AtomicU64], _>(words) };
        Arc::new(Flight { words: Memory::Mapped { words, _owner: owner }, slots })
    }

    pub fn slots(&self) -> usize {
        self.slots
    }

    fn words_per_slot(&self) -> usize {
        self.words.words().len() / self.slots.max(1)
    }

    fn slot(&self, slot: usize) -> &[AtomicU64] {
        let w = self.words_per_slot();
        &self.words.words()[slot * w..(slot + 1) * w]
    }

    /// Binds the current thread to a free slot until the binding is dropped;
    /// `None` when every slot is taken (the thread then runs unrecorded).
    pub fn bind(self: &Arc<Self>) -> Option<Binding> {
        for slot in 0..self.slots {
            let words = self.slot(slot);
            if words[STATE].compare_exchange(0, CLAIMED, Relaxed, Relaxed).is_ok() {
                for word in &words[RUN..LOG] {
                    word.store(0, Relaxed);
                }
                // SAFETY: the slot lives as long as the flight, which the
                // thread's binding keeps alive with an `Arc`.
                let words: &'static [AtomicU64] = unsafe { std::mem::transmute::<&[AtomicU64], _>(words) };
                let previous = CURRENT.replace(Some(words));
                KEEP.with(|keep| keep.borrow_mut().push(self.clone()));
                return Some(Binding { previous, _not_send: std::marker::PhantomData });
            }
        }
        None
    }

    /// What slot `slot` says now.
    pub fn snapshot(&self, slot: usize) -> InFlight {
        let words = self.slot(slot);
        let state = words[STATE].load(Relaxed);
        let print_set = words[PRINT_SET].load(Relaxed) != 0;
        let print = u128::from(words[PRINT_LO].load(Relaxed)) | (u128::from(words[PRINT_HI].load(Relaxed)) << 64);
        let log_len = (words[LOG_LEN].load(Relaxed) as usize).min(words.len() - LOG);
        InFlight {
            slot,
            serial: words[SERIAL].load(Relaxed),
            claimed: state & CLAIMED != 0,
            in_user_code: state & IN_USER_CODE != 0,
            code: UserCode { during: During::from_code((state >> 1) & 0x7f), op: (state >> 16) as u16 },
            address: Address {
                run: words[RUN].load(Relaxed),
                input: words[INPUT].load(Relaxed),
                detail: words[DETAIL].load(Relaxed),
            },
            allocated: words[ALLOCATED].load(Relaxed),
            mark: words[MARK].load(Relaxed),
            print: print_set.then_some(print),
            reads: words[LOG..LOG + log_len].iter().map(|w| w.load(Relaxed) as u32).collect(),
            read_values: words[LOG..LOG + log_len].iter().map(|w| (w.load(Relaxed) >> 32) as u32).collect(),
        }
    }

    /// The slot's serial number and whether it is in user code: what a
    /// watchdog compares between two looks.
    pub fn pulse(&self, slot: usize) -> (u64, bool) {
        let words = self.slot(slot);
        (words[SERIAL].load(Relaxed), words[STATE].load(Relaxed) & IN_USER_CODE != 0)
    }

    /// Snapshots of the claimed slots.
    pub fn claimed(&self) -> Vec<InFlight> {
        (0..self.slots).map(|s| self.snapshot(s)).filter(|s| s.claimed).collect()
    }

    /// The slot a death is blamed on: `culprit`, else the one thread in user
    /// code; `None` when that slot is not in user code (or there is no one
    /// such thread).
    pub fn blamed(&self, culprit: Option<usize>) -> Option<InFlight> {
        let slot = match culprit {
            Some(slot) => Some(self.snapshot(slot)),
            None => {
                let mut in_code = self.claimed().into_iter().filter(|s| s.in_user_code);
                match (in_code.next(), in_code.next()) {
                    (Some(only), None) => Some(only),
                    _ => None,
                }
            }
        };
        slot.filter(|s| s.in_user_code)
    }
}

thread_local! {
    /// The current thread's slot. Read by the allocator and signal handlers
    /// too, so it is a plain `Cell` with no destructor.
    static CURRENT: Cell<Option<&'static [AtomicU64]>> = const { Cell::new(None) };
    /// Keeps the flights this thread is bound to alive.
    static KEEP: RefCell<Vec<Arc<Flight>>> = const { RefCell::new(Vec::new()) };
    /// Whether a [`ReadLog`] of this thread uses its slot.
    static LOG_TAKEN: Cell<bool> = const { Cell::new(false) };
}

/// The flight the current thread is bound to, for threads it starts to bind to.
pub fn current() -> Option<Arc<Flight>> {
    KEEP.with(|keep| keep.borrow().last().cloned())
}

/// A thread's hold on a slot; dropping it frees the slot.
pub struct Binding {
    previous: Option<&'static [AtomicU64]>,
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Drop for Binding {
    fn drop(&mut self) {
        if let Some(words) = CURRENT.replace(self.previous) {
            words[STATE].store(0, Relaxed);
        }
        KEEP.with(|keep| {
            keep.borrow_mut().pop();
        });
    }
}

fn with_slot<R>(f: impl FnOnce(&[AtomicU64]) -> R) -> Option<R> {
    CURRENT.with(|c| c.get().map(f))
}

/// Records where the current thread's engine is (no-op when unbound).
#[inline]
pub fn position(address: Address) {
    with_slot(|words| {
        words[RUN].store(address.run, Relaxed);
        words[INPUT].store(address.input, Relaxed);
        words[DETAIL].store(address.detail, Relaxed);
        words[PRINT_SET].store(0, Relaxed);
    });
}

/// Marks the next input of a run of inputs entered once (Korat's
/// candidates): where it is, a new serial for the watchdog, and the
/// allocation the memory check measures growth from.
#[inline]
pub(crate) fn step(address: Address) {
    with_slot(|words| {
        words[SERIAL].store(words[SERIAL].load(Relaxed).wrapping_add(1), Relaxed);
        words[RUN].store(address.run, Relaxed);
        words[INPUT].store(address.input, Relaxed);
        words[DETAIL].store(address.detail, Relaxed);
        words[ALLOCATED].store(super::memory::allocated(), Relaxed);
    });
}

/// Says the thread, already in user code, now runs `code`.
#[inline]
pub(crate) fn switch(code: UserCode) {
    with_slot(|words| words[STATE].store(code.state(), Relaxed));
}

/// Records the fingerprint of the value the next user code looks at.
pub fn set_print(print: u128) {
    with_slot(|words| {
        words[PRINT_LO].store(print as u64, Relaxed);
        words[PRINT_HI].store((print >> 64) as u64, Relaxed);
        words[PRINT_SET].store(1, Relaxed);
    });
}

/// Marks the current thread as in `code`, which begins with `allocated`
/// bytes allocated; returns the state to restore.
#[inline]
pub(crate) fn enter(code: UserCode, allocated: u64) -> u64 {
    with_slot(|words| {
        words[SERIAL].store(words[SERIAL].load(Relaxed).wrapping_add(1), Relaxed);
        words[ALLOCATED].store(allocated, Relaxed);
        // Only this thread writes its claimed slot's state: no swap needed.
        let previous = words[STATE].load(Relaxed);
        words[STATE].store(code.state(), Relaxed);
        previous
    })
    .unwrap_or(0)
}

/// Restores the state [`enter`] returned.
#[inline]
pub(crate) fn exit(previous: u64) {
    with_slot(|words| words[STATE].store(previous | CLAIMED, Relaxed));
}

/// Whether the current thread is in user code (for the allocator's limit).
/// Marks the current thread as the one that brought the process down;
/// the first mark stays. Async-signal-safe: one thread-local read and an
/// atomic exchange.
pub fn mark(reason: u64) {
    with_slot(|words| words[MARK].compare_exchange(0, reason, Relaxed, Relaxed).is_ok());
}

/// Korat's log of the fields `rep_ok` read, in first-read order. It lives
/// in the thread's slot when there is one, so that it outlives a crash.
///
/// A push is two stores: the entry, then the length the supervisor reads.
pub struct ReadLog {
    /// The log's own memory when it is not in a slot: the length word, then entries.
    _own: Box<[AtomicU64]>,
    /// The length word; `capacity` entries follow it (in `_own` or a slot).
    words: std::ptr::NonNull<AtomicU64>,
    capacity: usize,
    shared: bool,
}

impl ReadLog {
    /// A log for up to `capacity` reads: in the current thread's slot when it
    /// is bound and large enough, else in memory of its own.
    pub fn new(capacity: usize) -> Self {
        let shared = CURRENT
            .with(Cell::get)
            .filter(|words| words.len() - LOG >= capacity && !LOG_TAKEN.with(|taken| taken.replace(true)));
        let own: Box<[AtomicU64]> =
            if shared.is_some() { Box::default() } else { (0..=capacity).map(|_| AtomicU64::new(0)).collect() };
        let length_word = match shared {
            Some(words) => &words[LOG_LEN],
            None => &own[0],
        };
        length_word.store(0, Relaxed);
        let words = std::ptr::NonNull::from(length_word);
        ReadLog { _own: own, words, capacity, shared: shared.is_some() }
    }

    /// The length word, and the entries after it.
    #[inline(always)]
    fn parts(&self) -> (&AtomicU64, &[AtomicU64]) {
        // SAFETY: `words` points to a length word followed by `capacity`
        // entries, in `_own` (which the log owns; a boxed slice does not
        // move) or in the thread's slot (which its binding keeps alive).
        unsafe {
            let length = self.words.as_ref();
            (length, std::slice::from_raw_parts(self.words.as_ptr().add(1), self.capacity))
        }
    }

    /// Appends `slot`, read holding value index `value`; panics when the
    /// log is full. One word for both: a candidate that killed the process
    /// can be rebuilt from its log alone, to run it again.
    #[inline(always)]
    pub fn push(&self, slot: u32, value: u32) {
        let (length, entries) = self.parts();
        let len = length.load(Relaxed) as usize;
        let entry = u64::from(slot) | (u64::from(value) << 32);
        entries.get(len).expect("a read log has room for every slot").store(entry, Relaxed);
        length.store(len as u64 + 1, Relaxed);
    }

    #[inline]
    pub fn clear(&self) {
        self.parts().0.store(0, Relaxed);
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.parts().0.load(Relaxed) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The reads so far, into `out` (cleared first).
    #[inline]
    pub fn copy_into(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend(self.entries());
    }

    /// The reads so far, in order.
    #[inline]
    pub fn entries(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.parts().1[..self.len()].iter().map(|w| w.load(Relaxed) as u32)
    }
}

impl Drop for ReadLog {
    fn drop(&mut self) {
        if self.shared {
            LOG_TAKEN.with(|taken| taken.set(false));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_thread_shows_what_it_runs() {
        let flight = Flight::in_memory(2, 64);
        let seen = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    let _binding = flight.bind().expect("a free slot");
                    position(Address { run: 1, input: 7, detail: 2 });
                    let before = enter(UserCode::call(3), 0);
                    let inside = flight.claimed();
                    exit(before);
                    (inside, flight.claimed())
                })
                .join()
                .unwrap()
        });
        let (inside, after) = seen;
        assert_eq!(inside.len(), 1);
        assert!(inside[0].in_user_code);
        assert_eq!(inside[0].code, UserCode::call(3));
        assert_eq!(inside[0].address, Address { run: 1, input: 7, detail: 2 });
        assert!(!after[0].in_user_code);
        assert!(after[0].serial > 0);
        assert!(flight.claimed().is_empty(), "the slot is freed with the binding");
    }

    #[test]
    fn the_read_log_is_visible_in_the_slot() {
        let flight = Flight::in_memory(1, 64);
        let _binding = flight.bind().unwrap();
        let log = ReadLog::new(8);
        log.push(4, 7);
        log.push(2, 0);
        assert_eq!(flight.snapshot(0).reads, [4, 2]);
        assert_eq!(flight.snapshot(0).read_values, [7, 0]);
        let mut out = Vec::new();
        log.copy_into(&mut out);
        assert_eq!(out, [4, 2]);
        log.clear();
        assert!(flight.snapshot(0).reads.is_empty());
        // Too large for the slot: a log of its own.
        let big = ReadLog::new(1000);
        big.push(9, 0);
        assert!(flight.snapshot(0).reads.is_empty());
        assert_eq!(big.len(), 1);
    }
}
