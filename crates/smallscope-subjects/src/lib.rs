//! Built-in subjects: Rust ports of the benchmark structures of the BEAPI,
//! Korat and ROOPS papers and of "Builders identification by evolutionary
//! algorithm" (`ncl-full`, `tree-map`, `union-find`, `scheduler`, `lits`: rich
//! APIs), each with a realistic API and a `rep_ok`.
//!
//! | name | structure | heap shape |
//! |---|---|---|
//! | `sll` | singly linked list with a header entry (Korat) | `Box` |
//! | `dll` | circular doubly linked list with a header entry | `Rc<RefCell<_>>` + `Weak` |
//! | `sorted-list` | sorted singly linked list | `Box` |
//! | `ncl` | Apache Commons `NodeCachingLinkedList` | arena indices |
//! | `ncl-full` | the same with its whole public API (30 operations), for builders identification | arena indices |
//! | `bst` | binary search tree | `Box` |
//! | `avl` | AVL tree | `Box` |
//! | `rbt` | red-black tree, balanced as `java.util.TreeMap` | arena indices, parent links |
//! | `binheap` | binomial heap (CLRS) | arena indices |
//! | `tree-map` | red-black tree map `i32 -> i32`, balanced as `java.util.TreeMap` | arena indices, parent links |
//! | `union-find` | disjoint sets, union by rank and path compression (JGraphT's `UnionFind`) | arena indices, parent links, a sorted chain |
//! | `scheduler` | process scheduler of the SIR `schedule` program: three FIFO ready queues, a blocked queue, a current process | arena indices |
//! | `lits` | Sat4j's `Lits` variable store as its solver drives it: values, levels and reasons along a trail, per-literal watch lists of binary clauses | two arenas, indices |
//!
//! Scope N allows N objects of each class, the root and header nodes included.
//!
//! Every subject implements `PartialEq`, `Eq`, `Hash`, `PartialOrd` and `Ord`
//! by its abstract content, not its representation: the element sequence for
//! the lists (`ncl` and `ncl-full` ignore their cache), the in-order keys for
//! the trees, the sorted multiset of keys for `binheap`, the sorted `(key,
//! value)` entries for `tree-map`, the partition (each set a sorted vector,
//! the sets sorted) for `union-find`, the processes (place, pid, priority)
//! in queue order for `scheduler`, each variable's value, level, trail
//! position, reason and watching clauses for `lits`; `Ord` is lexicographic on that
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
#[macro_use]
mod red_black;

mod arena;

pub mod avl;
pub mod binheap;
pub mod bst;
pub mod dll;
pub mod korat;
mod list;
pub mod lits;
pub mod ncl;
pub mod ncl_full;
pub mod rbt;
pub mod scheduler;
mod search_tree;
pub mod sll;
pub mod sorted_list;
pub mod tree_map;
pub mod union_find;

#[cfg(test)]
pub(crate) mod testing;

/// Call once from a binary so the linker keeps this crate's registrations.
pub fn ensure_linked() {}
