//! Arena bookkeeping for the subjects whose nodes live in a `Vec` and link
//! by index: the slots of removed nodes wait on a free list, outside the
//! structure, for the next insert ([`store`]: `ncl`, `binheap`, `scheduler`,
//! and `rbt` and `tree-map` through `red_black`), and `rep_ok` marks the
//! slots it reaches to catch dangling links, cycles, shared nodes and live
//! slots on the free list ([`Reached`]: `ncl`, `scheduler`).

/// Puts `node` in the `recycled` slot (one taken off a free list), or in a
/// new slot at the end; returns the slot.
pub(crate) fn store<T>(nodes: &mut Vec<T>, recycled: Option<usize>, node: T) -> usize {
    match recycled {
        Some(slot) => {
            nodes[slot] = node;
            slot
        }
        None => {
            nodes.push(node);
            nodes.len() - 1
        }
    }
}

/// The slots of an arena of `len` nodes that a `rep_ok` has reached.
pub(crate) struct Reached(Vec<bool>);

impl Reached {
    pub(crate) fn new(len: usize) -> Self {
        Reached(vec![false; len])
    }

    /// Marks `slot` reached; `false` if it is outside the arena or was
    /// reached before (a dangling link, a cycle or a shared node).
    pub(crate) fn first_visit(&mut self, slot: usize) -> bool {
        match self.0.get_mut(slot) {
            Some(reached) if !*reached => {
                *reached = true;
                true
            }
            _ => false,
        }
    }

    /// Whether the `free` slots are in the arena, distinct and not reached,
    /// so that reusing one cannot corrupt the structure.
    pub(crate) fn free_slots_are_unreached(&mut self, free: &[usize]) -> bool {
        free.iter().all(|&slot| self.first_visit(slot))
    }
}
