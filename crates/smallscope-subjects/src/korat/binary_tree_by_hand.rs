//! Korat's search over `BinaryTree` written by hand for one model: flat
//! arrays, no views, no bounds checks, no catching of panics, a `u64` for
//! the visited set. It is the floor the engine is measured against
//! (`smallscope bench korat` prints it beside the engine), not a way to
//! run Korat: it explores exactly the engine's candidates, in the same
//! order, with the least bookkeeping the algorithm allows.
//!
//! Slots, as the engine lays them out: 0 `root`, 1 `size`, then node `i`'s
//! `left` at `2 + 2i` and `right` at `3 + 2i`. A reference slot's value is
//! 0 for null and `k` for node `k - 1`; `size` has one value, `n`.

/// What the search counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub explored: u64,
    pub found: u64,
}

/// The largest scope: the visited set is one `u64`.
pub const MAX_SCOPE: usize = 64;

/// The candidate and the log of the slots `rep_ok` read, in first-read order.
struct Candidate {
    values: Vec<u32>,
    /// `seen[slot] == generation`: read in this run.
    seen: Vec<u32>,
    generation: u32,
    log: Vec<u32>,
    logged: usize,
}

impl Candidate {
    #[inline(always)]
    fn read(&mut self, slot: usize) -> u32 {
        debug_assert!(slot < self.values.len());
        // SAFETY: every slot the search passes is below `2 + 2n`, the
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

/// `binary_tree::rep_ok` on the flat candidate, in its read order.
#[inline(never)]
fn rep_ok(candidate: &mut Candidate, n: usize, queue: &mut [u32]) -> bool {
    let root = candidate.read(0);
    if root == 0 {
        candidate.read(1);
        return n == 0;
    }
    let mut visited = 1u64 << (root - 1);
    queue[0] = root - 1;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let node = queue[head] as usize;
        head += 1;
        for slot in [2 + 2 * node, 3 + 2 * node] {
            let child = candidate.read(slot);
            if child != 0 {
                let bit = 1u64 << (child - 1);
                if visited & bit != 0 {
                    return false;
                }
                visited |= bit;
                queue[tail] = child - 1;
                tail += 1;
            }
        }
    }
    candidate.read(1);
    tail == n
}

/// Runs the search at scope `n` (at most [`MAX_SCOPE`]).
pub fn search(n: usize) -> Counts {
    assert!(n <= MAX_SCOPE, "the hand-written search goes up to {MAX_SCOPE} nodes");
    let slots = 2 + 2 * n;
    let mut candidate =
        Candidate { values: vec![0; slots], seen: vec![0; slots], generation: 0, log: vec![0; slots], logged: 0 };
    let mut queue = vec![0; n.max(1)];
    // The fields in the order to advance them.
    let mut stack: Vec<u32> = Vec::with_capacity(slots);
    // `touched[i]`: the highest node number (1-based) the stack's first `i` fields point to.
    let mut touched = vec![0u32; slots + 1];
    let mut counts = Counts { explored: 0, found: 0 };
    loop {
        candidate.generation += 1;
        candidate.logged = 0;
        counts.explored += 1;
        counts.found += u64::from(rep_ok(&mut candidate, n, &mut queue));
        // `rep_ok` is deterministic: its reads start with the stack left by
        // the last advance, so only what follows is new. A valid tree has
        // every node's fields read, so there are no unread fields to add.
        let kept = stack.len();
        stack.extend_from_slice(&candidate.log[kept..candidate.logged]);
        for at in kept..stack.len() {
            let slot = stack[at] as usize;
            touched[at + 1] = if slot == 1 { touched[at] } else { touched[at].max(candidate.values[slot]) };
        }
        // Korat's advance: the last field that can grow grows; those after it reset.
        loop {
            let Some(slot) = stack.pop() else { return counts };
            let slot = slot as usize;
            let max = if slot == 1 { 0 } else { (touched[stack.len()] + 1).min(n as u32) };
            if candidate.values[slot] < max {
                // Read again at the same place: the next log has it.
                candidate.values[slot] += 1;
                break;
            }
            candidate.values[slot] = 0;
        }
    }
}
