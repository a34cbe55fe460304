//! Ports of Korat 1.0's benchmark invariants with their stock finitizations.
//! Each keeps the original's field read order, on which explored counts depend.

pub mod binary_tree;
pub mod binomial_heap;
pub mod by_hand;
pub mod compare_lists;
pub mod compare_models;
pub mod compare_trees;
pub mod disj_set;
pub mod doubly_linked_list;
pub mod fibonacci_heap;
pub mod heap_array;
pub mod korat_plus;
pub mod red_black_tree;
pub mod search_tree;
pub mod singly_linked_list;
pub mod sorted_list;
