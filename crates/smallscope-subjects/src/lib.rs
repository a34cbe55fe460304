//! Built-in subjects: Rust ports of the benchmark structures of the BEAPI,
//! Korat and ROOPS papers, each with a realistic API and a `rep_ok`.
//!
//! | name | structure | heap shape |
//! |---|---|---|
//! | `sll` | singly linked list with a header entry (Korat) | `Box` |
//! | `dll` | circular doubly linked list with a header entry | `Rc<RefCell<_>>` + `Weak` |
//! | `sorted-list` | sorted singly linked list | `Box` |
//! | `ncl` | Apache Commons `NodeCachingLinkedList` | arena indices |
//! | `bst` | binary search tree | `Box` |
//! | `avl` | AVL tree | `Box` |
//! | `rbt` | red-black tree, balanced as `java.util.TreeMap` | arena indices, parent links |
//! | `binheap` | binomial heap (CLRS) | arena indices |
//!
//! Scope N allows N objects of each class, the root and header nodes included.
//! Variants with planted bugs are registered as `<name>-bug-<what>`.

pub mod avl;
pub mod binheap;
pub mod bst;
pub mod dll;
pub mod korat;
mod list;
pub mod ncl;
pub mod rbt;
mod search_tree;
pub mod sll;
pub mod sorted_list;

#[cfg(test)]
pub(crate) mod testing;

/// Call once from a binary so the linker keeps this crate's registrations.
pub fn ensure_linked() {}
