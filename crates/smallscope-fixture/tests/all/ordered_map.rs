//! The `IndexMap` newtype, walked `#[heap(with = ..)]`: BEAPI must reach
//! every state the API can make, told apart by insertion order. The states
//! are counted here twice without smallscope: by a closed form, and by a
//! breadth-first search over a model of the map written in this file.

use std::collections::BTreeSet;

use crate::beapi_forms;
use crate::model_search;

use model_search::reachable;

use smallscope::heap::canonical_text;
use smallscope_fixture::ordered_map::OrderedMap;

/// Maps over keys and values `0..n` that remember order: `k` distinct keys
/// in one of `n! / (n - k)!` orders, each with one of `n` values.
fn closed_form(n: u64) -> u64 {
    (0..=n).map(|k| (n - k + 1..=n).product::<u64>() * n.pow(k as u32)).sum()
}

/// Every state reachable from the empty map by `insert`, `shift_remove`,
/// `swap_remove` and `pop` with keys and values in `0..n`, as `IndexMap`
/// documents them, on a plain vector of entries.
fn reachable_states(n: u8) -> BTreeSet<Vec<(u8, u8)>> {
    reachable([Vec::new()], |state: &Vec<(u8, u8)>| {
        let mut next: Vec<Vec<(u8, u8)>> = Vec::new();
        for key in 0..n {
            let place = state.iter().position(|&(k, _)| k == key);
            for value in 0..n {
                let mut inserted = state.clone();
                match place {
                    Some(p) => inserted[p].1 = value,
                    None => inserted.push((key, value)),
                }
                next.push(inserted);
            }
            if let Some(p) = place {
                let mut shifted = state.clone();
                shifted.remove(p);
                next.push(shifted);
                let mut swapped = state.clone();
                swapped.swap_remove(p);
                next.push(swapped);
            }
        }
        let mut popped = state.clone();
        popped.pop();
        next.push(popped);
        next
    })
}

/// The map holding `entries`, in that order.
fn realize(entries: &[(u8, u8)]) -> OrderedMap {
    let mut map = OrderedMap::new();
    for &(key, value) in entries {
        map.insert(key, value);
    }
    map
}

#[test]
fn independent_counts_agree() {
    assert_eq!((1..=4).map(closed_form).collect::<Vec<_>>(), [2, 13, 226, 7889]);
    for n in 1..=4u8 {
        assert_eq!(reachable_states(n).len() as u64, closed_form(n.into()), "n = {n}");
    }
}

#[test]
fn the_order_is_part_of_the_canonical_form() {
    let forwards = realize(&[(2, 0), (1, 1)]);
    assert_eq!(canonical_text(&forwards), "OrderedMap#0{0: [(2, 0), (1, 1)]}");
    assert_ne!(canonical_text(&forwards), canonical_text(&realize(&[(1, 1), (2, 0)])));
    // A new value keeps the key's place.
    let mut updated = forwards.clone();
    updated.insert(2, 3);
    assert_eq!(canonical_text(&updated), "OrderedMap#0{0: [(2, 3), (1, 1)]}");
}

#[test]
fn beapi_reaches_every_state_of_the_model() {
    for n in 1..=4u32 {
        let forms = beapi_forms::counted_forms::<OrderedMap>(n);
        let states = reachable_states(n as u8);
        assert_eq!(forms.len(), states.len(), "scope {n}");

        let expected: BTreeSet<String> = states.iter().map(|entries| canonical_text(&realize(entries))).collect();
        assert_eq!(expected.len(), states.len(), "distinct states have distinct forms");
        let found: BTreeSet<String> = forms.into_iter().collect();
        assert_eq!(found, expected, "scope {n}");
    }
}
