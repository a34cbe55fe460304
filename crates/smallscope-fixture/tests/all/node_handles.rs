//! Handles that point into their structure: `push` hands out the `Rc` of
//! the node it made, and `set` writes through it. A value only `set` can
//! make is reached when the handle a call takes points into that call's
//! receiver, not into the value whose calls first returned it.

use std::cell::RefCell;
use std::rc::Rc;

use smallscope::{Beapi, Heap};

#[derive(Heap, Debug)]
pub struct Node {
    value: u8,
    next: Option<Rc<RefCell<Node>>>,
}

/// A node of a [`Stack`], for as long as it is in it.
#[derive(Clone, Debug)]
pub struct NodeRef(Rc<RefCell<Node>>);

/// No `Clone`: a derived one would share the nodes.
#[derive(Heap, Debug, Default)]
pub struct Stack {
    top: Option<Rc<RefCell<Node>>>,
}

#[smallscope::api(name = "test-node-handle-stack")]
impl Stack {
    pub fn new() -> Self {
        Stack::default()
    }

    /// Pushes a 0.
    pub fn push(&mut self) -> NodeRef {
        let node = Rc::new(RefCell::new(Node { value: 0, next: self.top.take() }));
        self.top = Some(node.clone());
        NodeRef(node)
    }

    pub fn set(&mut self, at: &NodeRef, value: u8) {
        at.0.borrow_mut().value = value;
    }
}

#[test]
fn beapi_passes_handles_into_the_value_the_call_gets() {
    for scope in [2u32, 3] {
        let report = Beapi::<Stack>::new().scope(scope).run().unwrap();
        // Stacks of at most `scope` nodes over the values 0..scope: Σ scope^n.
        let stacks: u64 = (0..=scope).map(|n| u64::from(scope).pow(n)).sum();
        assert_eq!(report.structure_count() as u64, stacks, "scope {scope}: {:?}", report.notes);
        assert!(report.failures.is_empty(), "{:?}", report.failures);
    }
}
