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
//!
//! Every subject implements `PartialEq`, `Eq`, `Hash`, `PartialOrd` and `Ord`
//! by its abstract content, not its representation: the element sequence for
//! the lists (`ncl` ignores its cache), the in-order keys for the trees, the
//! sorted multiset of keys for `binheap`; `Ord` is lexicographic on that
//! sequence. `Clone` and `Debug` are as before.
//!
//! Variants with planted bugs are registered as `<name>-bug-<what>`; each
//! module's doc describes its bugs. Shortest triggers:
//!
//! | name | bug | shortest trigger |
//! |---|---|---|
//! | `ncl-bug-cache` | reusing a cached node keeps `cache_size` | `new() add(0) remove_first() add(0)`: `rep_ok` fails |
//! | `ncl-bug-hash` | `Hash` also hashes `cache_size` | `a = new()` vs `b = new(); b.add(0); b.remove_first()`: `a == b`, hashes differ |
//! | `dll-bug-remove` | `remove(x)` of the last entry keeps `size` | `new() add(0) remove(0)`: `rep_ok` fails, `size()` is 1 |
//! | `rbt-bug-fixup` | mis-mirrored last case of `fixAfterDeletion` | `new() add(2) add(1) add(3) add(0) remove(3)`: `rep_ok` fails |
//! | `binheap-bug-rebalance` | the rebalance after a root removal indexes out of bounds | `new() insert(0) insert(1) insert(1) extract_min()`: panics |

#[macro_use]
mod content_order;

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
