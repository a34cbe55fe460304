//! Korat's search written by hand for single models: flat arrays, no
//! views, no bounds checks, no catching of panics, a `u64` for a visited
//! set. They are the floors the engine is measured against (`smallscope
//! bench korat` prints each beside the engine), not a way to run Korat:
//! each explores exactly the engine's candidates, in the same order, with
//! the least bookkeeping the algorithm allows.
//!
//! A model is its slots as the engine lays them out (the root object's
//! fields, then each object's, in declaration order; an array's length,
//! then its elements), what each slot ranges over, and its `rep_ok` on the
//! flat candidate. [`search`] is the rest: Korat's backtracking over the
//! fields `rep_ok` read, with isomorphism breaking for references.

pub mod binary_tree;
pub mod heap_array;
pub mod search_tree;

/// What a search counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub explored: u64,
    pub found: u64,
}

/// The largest scope: a visited set is one `u64`.
pub const MAX_SCOPE: usize = 64;

/// What a slot ranges over, as value indices from 0.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Slot {
    /// Null (0) or an object of the model's one class (`k` for object
    /// `k - 1`), at most one past those the fields before it point to.
    Ref,
    /// `0..=last`.
    Int { last: u32 },
}

/// The candidate and the log of the slots `rep_ok` read, in first-read order.
pub(crate) struct Candidate {
    values: Vec<u32>,
    /// `seen[slot] == generation`: read in this run.
    seen: Vec<u32>,
    generation: u32,
    log: Vec<u32>,
    logged: usize,
}

impl Candidate {
    /// Reads `slot`'s value index, logging the slot if it is its first read.
    #[inline(always)]
    pub(crate) fn read(&mut self, slot: usize) -> u32 {
        debug_assert!(slot < self.values.len());
        // SAFETY: every model reads slots below its slot count, the
        // arrays' length, and each slot is logged at most once per run, so
        // `logged` stays below the log's length too.
        unsafe {
            let seen = self.seen.get_unchecked_mut(slot);
            if *seen != self.generation {
                *seen = self.generation;
                *self.log.get_unchecked_mut(self.logged) = slot as u32;
                self.logged += 1;
            }
            *self.values.get_unchecked(slot)
        }
    }
}

/// What both tree models' `rep_ok` start with: `root` (slot 0); if it is
/// not null, the breadth-first walk over each node's two links (node `i`'s
/// at `2 + stride * i` and the slot after), each checked before the next
/// read; then `size` (slot 1, whose one value is `n`). The root (1-based,
/// 0 for the empty tree) when the links make a tree of `n` nodes.
#[inline(always)]
pub(crate) fn tree_of(candidate: &mut Candidate, n: usize, stride: usize, queue: &mut [u32]) -> Option<u32> {
    let root = candidate.read(0);
    if root == 0 {
        candidate.read(1);
        return (n == 0).then_some(0);
    }
    let mut visited = 1u64 << (root - 1);
    queue[0] = root - 1;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let node = queue[head] as usize;
        head += 1;
        for slot in [2 + stride * node, 3 + stride * node] {
            let child = candidate.read(slot);
            if child != 0 {
                let bit = 1u64 << (child - 1);
                if visited & bit != 0 {
                    return None;
                }
                visited |= bit;
                queue[tail] = child - 1;
                tail += 1;
            }
        }
    }
    candidate.read(1);
    (tail == n).then_some(root)
}

/// Korat's search over `slots` slots, `objects` objects: `kind` says what
/// each slot ranges over, `rep_ok` judges a candidate. A valid candidate
/// must have read every field reachable from the root (true of the models
/// here), so no unread fields are added after it.
#[inline(always)]
pub(crate) fn search(
    slots: usize,
    objects: u32,
    kind: impl Fn(usize) -> Slot,
    mut rep_ok: impl FnMut(&mut Candidate) -> bool,
) -> Counts {
    let mut candidate =
        Candidate { values: vec![0; slots], seen: vec![0; slots], generation: 0, log: vec![0; slots], logged: 0 };
    // The fields in the order to advance them.
    let mut stack: Vec<u32> = Vec::with_capacity(slots);
    // `touched[i]`: the highest object number (1-based) the stack's first `i` fields point to.
    let mut touched = vec![0u32; slots + 1];
    let mut counts = Counts { explored: 0, found: 0 };
    loop {
        candidate.generation += 1;
        candidate.logged = 0;
        counts.explored += 1;
        counts.found += u64::from(rep_ok(&mut candidate));
        // `rep_ok` is deterministic: its reads start with the stack left by
        // the last advance, so only what follows is new.
        let kept = stack.len();
        stack.extend_from_slice(&candidate.log[kept..candidate.logged]);
        for at in kept..stack.len() {
            let slot = stack[at] as usize;
            touched[at + 1] = match kind(slot) {
                Slot::Ref => touched[at].max(candidate.values[slot]),
                Slot::Int { .. } => touched[at],
            };
        }
        // Korat's advance: the last field that can grow grows; those after it reset.
        loop {
            let Some(slot) = stack.pop() else { return counts };
            let slot = slot as usize;
            let max = match kind(slot) {
                Slot::Ref => (touched[stack.len()] + 1).min(objects),
                Slot::Int { last } => last,
            };
            if candidate.values[slot] < max {
                // Read again at the same place: the next log has it.
                candidate.values[slot] += 1;
                break;
            }
            candidate.values[slot] = 0;
        }
    }
}
