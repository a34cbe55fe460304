//! The stack every API subject wraps, and the predicates that recognise the
//! trigger states. Nothing here misbehaves.
//!
//! Values are written top first: `[2, 1]` is the stack with 2 on top of 1,
//! built by `new(); push(1); push(2)`.

use smallscope::Heap;

/// The value whose `push(TRIGGER_ARG)`, `Clone` or `Drop` misbehaves: 2 on top of 1.
pub const TRIGGER_VALUE: [u8; 2] = [2, 1];

/// The argument of the misbehaving `push` on [`TRIGGER_VALUE`].
pub const TRIGGER_ARG: u8 = 0;

/// The value that push makes, on which a hostile `rep_ok` misbehaves: 0, 2, 1.
pub const TRIGGER_AFTER_PUSH: [u8; 3] = [TRIGGER_ARG, TRIGGER_VALUE[0], TRIGGER_VALUE[1]];

/// A stack of small numbers, as a singly linked list of boxed nodes: each
/// node is an object, so a scope of N allows stacks of at most N numbers.
#[derive(Heap, Clone, Debug, Default)]
pub struct Stack {
    top: Option<Box<Node>>,
}

#[derive(Heap, Clone, Debug)]
struct Node {
    value: u8,
    next: Option<Box<Node>>,
}

/// `pop` on an empty stack: API misuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Empty;

impl Stack {
    pub fn new() -> Self {
        Stack { top: None }
    }

    pub fn push(&mut self, x: u8) {
        let next = self.top.take();
        self.top = Some(Box::new(Node { value: x, next }));
    }

    pub fn pop(&mut self) -> Result<u8, Empty> {
        let node = self.top.take().ok_or(Empty)?;
        self.top = node.next;
        Ok(node.value)
    }

    pub fn len(&self) -> usize {
        self.values().count()
    }

    pub fn is_empty(&self) -> bool {
        self.top.is_none()
    }

    /// The invariant: well formed. Boxes own their nodes, so the chain from
    /// the top always ends and every stack is well formed; the hostile
    /// `rep_ok`s wrap this one.
    pub fn rep_ok(&self) -> bool {
        true
    }

    /// The numbers, top first.
    pub fn values(&self) -> impl Iterator<Item = u8> + '_ {
        std::iter::successors(self.top.as_deref(), |node| node.next.as_deref()).map(|node| node.value)
    }

    /// Whether the stack holds exactly `values`, top first.
    pub fn holds(&self, values: &[u8]) -> bool {
        self.values().eq(values.iter().copied())
    }

    /// Whether `push(x)` on this stack is the trigger call: `push(0)` on `[2, 1]`.
    pub fn is_trigger_push(&self, x: u8) -> bool {
        x == TRIGGER_ARG && self.holds(&TRIGGER_VALUE)
    }

    /// Whether this is the value `[2, 1]` (the `Clone` and `Drop` trigger).
    pub fn is_trigger_value(&self) -> bool {
        self.holds(&TRIGGER_VALUE)
    }

    /// Whether this is `[0, 2, 1]`, what the trigger call makes (the `rep_ok` trigger).
    pub fn is_trigger_after_push(&self) -> bool {
        self.holds(&TRIGGER_AFTER_PUSH)
    }
}
