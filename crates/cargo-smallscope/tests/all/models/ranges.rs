//! `everyday::ranges::RangeSet` (`range-set`): one walked field,
//! `ranges: Vec<(u8, u8)>`, the sorted, disjoint, non-adjacent inclusive
//! ranges of the set. A set has exactly one such list, so the visible state
//! is the set of values, modelled here as a `BTreeSet<u8>`. In bounds: at
//! most `scope` ranges (the `Vec` is a collection); a subset of `0..scope`
//! has at most `ceil(scope / 2)` runs, so nothing is ever out of bounds and
//! every subset is reachable: `2^scope` structures.
//!
//! Operations that change the state: `insert(x)`, `remove(x)` (a `false`
//! return is not misuse).
//!
//! Planted bug: `remove(x)` with `x` strictly inside a range (`x - 1`, `x`
//! and `x + 1` all in the set) splits it with the parts out of order,
//! which `rep_ok` reports. Every other removal is right.

use std::collections::BTreeSet;

use super::{ints, search as bfs, Search};

type State = BTreeSet<u8>;

/// The number of maximal runs of consecutive values: the `Vec`'s length.
fn runs(set: &State) -> usize {
    set.iter().filter(|&&x| x == 0 || !set.contains(&(x - 1))).count()
}

pub fn search(scope: usize) -> Search {
    let ints = ints(scope);
    bfs(
        State::new(),
        |set| {
            ints.iter()
                .flat_map(|&x| {
                    let (mut with, mut without) = (set.clone(), set.clone());
                    with.insert(x);
                    without.remove(&x);
                    [with, without]
                })
                .collect()
        },
        |set| runs(set) <= scope,
        |set| ints.iter().any(|&x| x > 0 && set.contains(&(x - 1)) && set.contains(&x) && set.contains(&(x + 1))),
    )
}

pub fn structures(scope: usize) -> usize {
    search(scope).states
}

pub fn shortest_bug(scope: usize) -> usize {
    search(scope).shortest_bug.expect("the bug shows within the scope")
}
