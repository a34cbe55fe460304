//! Ports of Korat 1.0's benchmark invariants with their stock finitizations.
//! Each keeps the original's field read order, on which explored counts depend.

pub mod binary_tree;
