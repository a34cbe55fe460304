//! A double-ended queue over a doubly linked list: `Rc` links forward,
//! `Weak` links back, and no `Clone` (a derived one would share the
//! nodes, and a deep one is work nobody wrote). Engines must rebuild
//! stored values by replaying the calls that made them.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use smallscope::Heap;

type Link = Option<Rc<RefCell<Node>>>;

#[derive(Heap, Debug)]
pub struct Node {
    value: u8,
    next: Link,
    prev: Option<Weak<RefCell<Node>>>,
}

#[derive(Heap, Debug, Default)]
pub struct Deque {
    front: Link,
    back: Option<Weak<RefCell<Node>>>,
}

#[smallscope::api(name = "fixture-deque", rep_ok = rep_ok)]
impl Deque {
    pub fn new() -> Self {
        Deque::default()
    }

    pub fn push_front(&mut self, value: u8) {
        let node = Rc::new(RefCell::new(Node { value, next: self.front.take(), prev: None }));
        match &node.borrow().next {
            Some(old) => old.borrow_mut().prev = Some(Rc::downgrade(&node)),
            None => self.back = Some(Rc::downgrade(&node)),
        }
        self.front = Some(node);
    }

    pub fn push_back(&mut self, value: u8) {
        let node = Rc::new(RefCell::new(Node { value, next: None, prev: self.back.take() }));
        match node.borrow().prev.as_ref().and_then(Weak::upgrade) {
            Some(old) => old.borrow_mut().next = Some(node.clone()),
            None => self.front = Some(node.clone()),
        }
        self.back = Some(Rc::downgrade(&node));
    }

    pub fn pop_front(&mut self) -> Option<u8> {
        let node = self.front.take()?;
        let mut node = node.borrow_mut();
        self.front = node.next.take();
        match &self.front {
            Some(next) => next.borrow_mut().prev = None,
            None => self.back = None,
        }
        Some(node.value)
    }

    pub fn pop_back(&mut self) -> Option<u8> {
        let node = self.back.take()?.upgrade()?;
        let value = node.borrow().value;
        match node.borrow_mut().prev.take().and_then(|prev| prev.upgrade()) {
            Some(prev) => {
                prev.borrow_mut().next = None;
                self.back = Some(Rc::downgrade(&prev));
            }
            None => self.front = None,
        }
        Some(value)
    }

    pub fn front(&self) -> Option<u8> {
        self.front.as_ref().map(|node| node.borrow().value)
    }

    pub fn len(&self) -> usize {
        let (mut count, mut at) = (0, self.front.clone());
        while let Some(node) = at {
            count += 1;
            at = node.borrow().next.clone();
        }
        count
    }

    /// Left out: the same fact as `len() == 0`.
    #[smallscope(skip)]
    pub fn is_empty(&self) -> bool {
        self.front.is_none()
    }

    /// Each node's `prev` is the node before it, and `back` is the last node.
    pub fn rep_ok(&self) -> bool {
        let mut before: Option<Rc<RefCell<Node>>> = None;
        let mut at = self.front.clone();
        while let Some(node) = at {
            let prev = node.borrow().prev.as_ref().and_then(Weak::upgrade);
            let linked_back = match (&prev, &before) {
                (None, None) => true,
                (Some(p), Some(b)) => Rc::ptr_eq(p, b),
                _ => false,
            };
            if !linked_back {
                return false;
            }
            at = node.borrow().next.clone();
            before = Some(node);
        }
        match (self.back.as_ref().and_then(Weak::upgrade), before) {
            (None, None) => true,
            (Some(back), Some(last)) => Rc::ptr_eq(&back, &last),
            _ => false,
        }
    }
}
