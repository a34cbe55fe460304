//! Independent models of the structures in `fixtures/everyday`, for the
//! acceptance test of `cargo smallscope` on that crate. Pure Rust, std only:
//! each is a separate, simple re-implementation of one structure's abstract
//! state, explored breadth-first the way smallscope's BEAPI counts:
//!
//! - integer arguments range over `0..scope`, list arguments over every
//!   list of length 0 to 2 of those integers;
//! - a call that returns `Err` (misuse) is dropped;
//! - a state with more than `scope` objects of one type, or a collection of
//!   more than `scope` elements, is out of bounds: dropped, never extended;
//! - two states are one when every field the derive walks is equal (fields
//!   marked `#[heap(omit)]` or `#[heap(skip)]` left out), so each model's
//!   state is the visible part only, and each file says why that is exact.
//!
//! `structures(scope)` counts the distinct visible states reachable from
//! `new()` by the correct operations; `shortest_bug(scope)` is the number of
//! calls (the constructor is one) in the shortest sequence whose last call
//! fires the planted bug, found by the same search: a bug-free method and
//! the buggy one agree on every call that does not fire the bug, so the
//! search runs over the correct model and asks, at each state, whether
//! some call of the buggy method with arguments in the domain fires.

#![allow(dead_code)]

pub mod indexed_heap;
pub mod multiset;
pub mod ranges;
pub mod slot_list;
pub mod trie;

use std::collections::HashSet;
use std::hash::Hash;

/// What one breadth-first search found.
pub struct Search {
    /// Distinct in-bounds states reached, the constructor's included.
    pub states: usize,
    /// Calls in the shortest sequence that fires the planted bug, if any.
    pub shortest_bug: Option<usize>,
}

/// Breadth-first search from the state `new()` makes. `next` gives the
/// states the correct operations lead to (misuse already dropped), `fires`
/// whether some call of the buggy method fires the bug on a state.
pub fn search<S: Clone + Eq + Hash>(
    start: S,
    next: impl Fn(&S) -> Vec<S>,
    in_bounds: impl Fn(&S) -> bool,
    fires: impl Fn(&S) -> bool,
) -> Search {
    assert!(in_bounds(&start), "the constructor's state is in bounds");
    let mut seen = HashSet::from([start.clone()]);
    let mut level = vec![start];
    let mut calls = 1; // the constructor
    let mut shortest_bug = None;
    while !level.is_empty() {
        let mut following = Vec::new();
        for state in &level {
            if shortest_bug.is_none() && fires(state) {
                shortest_bug = Some(calls + 1);
            }
            for successor in next(state) {
                if in_bounds(&successor) && seen.insert(successor.clone()) {
                    following.push(successor);
                }
            }
        }
        level = following;
        calls += 1;
    }
    Search { states: seen.len(), shortest_bug }
}

/// The integer arguments: `0..scope`, as `u8` (every parameter is a `u8`
/// or wider, so the type's range filters nothing at these scopes).
pub fn ints(scope: usize) -> Vec<u8> {
    (0..scope).map(|i| u8::try_from(i).expect("scope fits a u8")).collect()
}

/// The list arguments: every list of length 0 to 2 over `ints(scope)`,
/// `1 + n + n²` of them.
pub fn lists(scope: usize) -> Vec<Vec<u8>> {
    let ints = ints(scope);
    let mut lists = vec![Vec::new()];
    lists.extend(ints.iter().map(|&a| vec![a]));
    lists.extend(ints.iter().flat_map(|&a| ints.iter().map(move |&b| vec![a, b])));
    lists
}

fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_of_at_most_two() {
        assert_eq!(lists(3).len(), 1 + 3 + 9);
    }

    #[test]
    fn multisets_of_at_most_n_elements_over_n_values() {
        // Multisets of size at most k over n values: C(n + k, k).
        assert_eq!(multiset::structures(3), 20);
        for scope in 1..=5 {
            assert_eq!(multiset::structures(scope), binomial(2 * scope, scope), "scope {scope}");
        }
    }

    #[test]
    fn range_sets_are_the_subsets() {
        for scope in 1..=5 {
            assert_eq!(ranges::structures(scope), 1 << scope, "scope {scope}");
        }
    }

    #[test]
    fn slot_lists_are_the_sequences() {
        for scope in 1..=4 {
            assert_eq!(
                slot_list::structures(scope),
                (0..=scope as u32).map(|k| scope.pow(k)).sum::<usize>(),
                "scope {scope}"
            );
        }
    }

    #[test]
    fn tries_of_at_most_three_boxed_nodes() {
        // By hand, over 3 bytes, words of length at most 2: tries of k boxed
        // nodes (every leaf a word; a first-level node with children a word
        // or not): k = 0: 1; k = 1: 3; k = 2: 3 (two leaves) + 3·3·2 (a node
        // and a child) = 21; k = 3: 1 (three leaves) + 3·3·2 (a node with two
        // children) + 3·3·2·2 (a node with a child, and a leaf) = 55. Each
        // with or without the empty word: 2 · 80.
        assert_eq!(trie::structures(3), 160);
        // Scope 1: the root's flag, and one one-byte word or none.
        assert_eq!(trie::structures(1), 2 * 2);
    }

    #[test]
    fn indexed_heaps_of_one_and_two_entries() {
        // Scope 1: empty, or key 0 at priority 0.
        assert_eq!(indexed_heap::structures(1), 2);
        // Scope 2: empty; 2·2 single entries; two entries: the root's
        // priority at most the child's, keys in either place, (p, q) with
        // p <= q: 3 pairs · 2 = 6. All reachable: 1 + 4 + 6.
        assert_eq!(indexed_heap::structures(2), 11);
        // Every heap-ordered array is reachable (push them in array order:
        // nothing sifts up). Over n keys and n priorities, k entries: n!/(n-k)!
        // key layouts times the priority labellings in heap order. n = 3:
        // 1 + 3·3 + 6·6 + 6·(3² + 2² + 1²) = 130. n = 4, four entries (root,
        // two children, one grandchild under the left): sum over the root p
        // and left child q >= p of (4 - p)(4 - q) = 65.
        assert_eq!(indexed_heap::structures(3), 1 + 9 + 6 * 6 + 6 * 14);
        assert_eq!(indexed_heap::structures(4), 1 + 16 + 12 * 10 + 24 * 30 + 24 * 65);
    }

    #[test]
    fn tries_by_brute_force() {
        // Every set of words of length at most 2 over 0..3 whose non-empty
        // prefixes number at most 3.
        let words = &lists(3);
        let within = (0u32..1 << words.len())
            .filter(|&set| {
                let mut prefixes: Vec<&[u8]> = (0..words.len())
                    .filter(|&i| set & (1 << i) != 0)
                    .flat_map(|i| (1..=words[i].len()).map(move |end| &words[i][..end]))
                    .collect();
                prefixes.sort();
                prefixes.dedup();
                prefixes.len() <= 3
            })
            .count();
        assert_eq!(trie::structures(3), within);
    }

    #[test]
    fn shortest_bugs() {
        assert_eq!(multiset::shortest_bug(3), 5);
        assert_eq!(trie::shortest_bug(3), 3);
        assert_eq!(ranges::shortest_bug(3), 5);
        assert_eq!(slot_list::shortest_bug(3), 4);
        assert_eq!(indexed_heap::shortest_bug(3), 5);
        // Scope 2 is too small for the bugs that need three elements.
        assert_eq!(multiset::search(2).shortest_bug, None);
        assert_eq!(ranges::search(2).shortest_bug, None);
        assert_eq!(indexed_heap::search(2).shortest_bug, None);
        assert_eq!(trie::search(2).shortest_bug, Some(3));
        assert_eq!(slot_list::search(2).shortest_bug, Some(4));
    }
}
