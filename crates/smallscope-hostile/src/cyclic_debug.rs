//! `hostile-cyclic-debug`: a ring of `Rc<RefCell<..>>` nodes with a derived
//! `Debug`, which recurses around the ring once it is closed.
//!
//! - **Trigger**: `close()` on a non-empty ring links its last node back to
//!   its first. Every call behaves; formatting the closed ring with `{:?}`
//!   does not: the derived `Debug` follows `next` forever.
//! - **Misbehaviour**: `Debug` never ends; left alone, it overflows the
//!   stack (`SIGABRT`).
//! - **Finding**: the random tester's `debug-does-not-panic` contract
//!   formats each new value into a writer that refuses more than 16 MiB,
//!   which derived `Debug` passes up: a `contract` failure ("`Debug` wrote
//!   more than 16 MiB"), during `check`, in `close`, with no restart.
//!   BEAPI never formats values: it reports no failure.
//! - **Library mode** and `--no-isolation`: the same, in process.

use std::cell::RefCell;
use std::rc::Rc;

use smallscope::Heap;

#[derive(Heap, Debug)]
pub struct RingNode {
    value: u8,
    next: Option<Rc<RefCell<RingNode>>>,
}

#[derive(Heap, Clone, Debug, Default)]
pub struct Ring {
    first: Option<Rc<RefCell<RingNode>>>,
}

#[smallscope::api(name = "hostile-cyclic-debug", rep_ok = rep_ok)]
impl Ring {
    pub fn new() -> Self {
        Ring::default()
    }

    /// Adds a node before the first one (an open ring stays open).
    pub fn push(&mut self, value: u8) {
        let node = Rc::new(RefCell::new(RingNode { value, next: self.first.take() }));
        self.first = Some(node);
    }

    /// Links the last node back to the first; a ring that already ends in
    /// a cycle has no last node, and stays as it is.
    pub fn close(&mut self) {
        let Some(first) = self.first.clone() else { return };
        let mut seen = vec![Rc::as_ptr(&first)];
        let mut at = first.clone();
        loop {
            let next = at.borrow().next.clone();
            match next {
                Some(next) if seen.contains(&Rc::as_ptr(&next)) => return,
                Some(next) => {
                    seen.push(Rc::as_ptr(&next));
                    at = next;
                }
                None => break,
            }
        }
        at.borrow_mut().next = Some(first);
    }

    pub fn first(&self) -> Option<u8> {
        self.first.as_ref().map(|node| node.borrow().value)
    }

    pub fn rep_ok(&self) -> bool {
        true
    }
}
