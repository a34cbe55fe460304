//! Tests of `ncl`.

use super::*;
use crate::testing::{assert_rejects, assert_rejects_miscount, ListModel, XorShift};

type Ncl = NodeCachingLinkedList<Correct>;

/// Runs random operations against the list model; `max_cache` small makes
/// the cache fill up and the free list get used.
fn differential(max_cache: usize, seed: u64) {
    let mut rng = XorShift(0x6A09_E667_F3BC_C908 ^ seed);
    let mut list = Ncl::with_maximum_cache_size(max_cache);
    let mut model = ListModel::default();
    for _ in 0..3000 {
        let x = rng.below(8) as i32;
        let i = rng.below(10) as usize;
        let cache_before = list.cache_size;
        let removed = match rng.below(20) {
            0 | 1 => {
                list.add(x);
                model.add_last(x);
                false
            }
            2 => {
                list.add_first(x);
                model.add_first(x);
                false
            }
            3 => {
                list.add_last(x);
                model.add_last(x);
                false
            }
            4 => {
                assert_eq!(list.add_at(i, x), model.add_at(i, x));
                false
            }
            5 => {
                assert_eq!(list.get(i), model.get(i));
                false
            }
            6 => {
                assert_eq!(list.get_first(), model.get_first());
                assert_eq!(list.get_last(), model.get_last());
                false
            }
            7 => {
                assert_eq!(list.set(i, x), model.set(i, x));
                false
            }
            8 | 9 => {
                let expect = model.remove_first();
                assert_eq!(list.remove_first(), expect);
                expect.is_ok()
            }
            10 => {
                let expect = model.remove_last();
                assert_eq!(list.remove_last(), expect);
                expect.is_ok()
            }
            11 => {
                let expect = model.remove_at(i);
                assert_eq!(list.remove_at(i), expect);
                expect.is_ok()
            }
            12 | 13 => {
                let expect = model.remove(x);
                assert_eq!(list.remove_value(x), expect);
                expect
            }
            14 => {
                assert_eq!(list.index_of(x), model.index_of(x));
                assert_eq!(list.last_index_of(x), model.last_index_of(x));
                false
            }
            15 => {
                assert_eq!(list.contains(x), model.contains(x));
                false
            }
            16 => {
                assert_eq!(list.size(), model.len());
                assert_eq!(list.is_empty(), model.is_empty());
                false
            }
            17 => {
                let mut copy = list.clone();
                copy.add_first(x);
                assert!(copy.rep_ok());
                false
            }
            _ => {
                if rng.below(5) == 0 {
                    let expected_cache = (list.cache_size + model.len()).min(max_cache);
                    list.clear();
                    model.clear();
                    assert_eq!(list.cache_size, expected_cache);
                }
                false
            }
        };
        if removed {
            // A removed node is cached unless the cache was full.
            assert_eq!(list.cache_size, (cache_before + 1).min(max_cache));
        }
        assert!(list.rep_ok(), "{list:?}");
        assert_eq!(list.to_vec(), model.to_vec());
        // The arena never holds more than the live and cached nodes plus garbage slots on `free`.
        let (slots, free) = list.arena_slots();
        assert_eq!(slots, 1 + list.size + list.cache_size + free);
    }
}

#[test]
fn differential_default_cache() {
    for seed in 1..=3 {
        differential(DEFAULT_MAXIMUM_CACHE_SIZE, seed);
    }
}

#[test]
fn differential_small_cache() {
    for (max, seed) in [(0, 4), (1, 5), (3, 6)] {
        differential(max, seed);
    }
}

#[test]
fn inserts_reuse_cached_nodes() {
    let mut list = Ncl::new();
    list.add(1);
    list.add(2);
    assert_eq!(list.nodes.len(), 3);
    list.remove_first().unwrap();
    list.remove_first().unwrap();
    assert_eq!(list.cache_size, 2);
    list.add(3);
    list.add_first(4);
    assert_eq!(list.cache_size, 0);
    assert_eq!(list.nodes.len(), 3);
    assert_eq!(list.to_vec(), [4, 3]);
    assert!(list.rep_ok());
}

#[test]
fn a_full_cache_drops_removed_nodes() {
    let mut list = Ncl::with_maximum_cache_size(1);
    for x in [1, 2, 3] {
        list.add(x);
    }
    list.remove_first().unwrap();
    list.remove_first().unwrap();
    assert_eq!((list.cache_size, list.free.len()), (1, 1));
    assert!(list.rep_ok());
}

#[test]
fn clear_caches_what_fits_front_first() {
    let mut list = Ncl::with_maximum_cache_size(3);
    for x in 0..5 {
        list.add(x);
    }
    let front: Vec<usize> = list.forward().collect();
    list.remove_last().unwrap();
    assert_eq!(list.cache_size, 1);
    list.clear();
    assert_eq!((list.size, list.cache_size, list.free.len()), (0, 3, 2));
    // The last node of the list is the first of the cache; the first two
    // list nodes follow it, pushed in front order.
    let cached: Vec<usize> = std::iter::successors(list.first_cache_node, |&n| list.nodes[n].next).collect();
    assert_eq!(cached, [front[1], front[0], front[4]]);
    assert!(list.rep_ok());
    for x in 0..5 {
        list.add(x);
    }
    assert_eq!(list.nodes.len(), 6);
    assert!(list.rep_ok());
}

#[test]
fn set_maximum_cache_size_shrinks_the_cache() {
    let mut list = Ncl::new();
    for x in 0..4 {
        list.add(x);
    }
    list.clear();
    assert_eq!(list.cache_size, 4);
    list.set_maximum_cache_size(1);
    assert_eq!((list.cache_size, list.maximum_cache_size, list.free.len()), (1, 1, 3));
    assert!(list.rep_ok());
    list.set_maximum_cache_size(5);
    assert_eq!(list.cache_size, 1);
    assert!(list.rep_ok());
}

/// A list with main list [1, 2] and one cached node.
fn sample() -> Ncl {
    let mut list = Ncl::new();
    for x in [1, 2, 3] {
        list.add(x);
    }
    list.remove_last().unwrap();
    assert_eq!((list.size, list.cache_size), (2, 1));
    assert!(list.rep_ok());
    list
}

fn first_cached(list: &Ncl) -> usize {
    list.first_cache_node.unwrap()
}

#[test]
fn rep_ok_rejects_wrong_size() {
    assert_rejects_miscount(&sample(), |list| &mut list.size);
}

#[test]
fn rep_ok_rejects_header_value() {
    assert_rejects(sample(), |list| list.nodes[list.header].value = Some(0));
}

#[test]
fn rep_ok_rejects_broken_back_link() {
    assert_rejects(sample(), |list| {
        let second = list.get_node(1, false).unwrap();
        list.nodes[second].previous = Some(list.header);
    });
}

#[test]
fn rep_ok_rejects_wrong_header_back_link() {
    assert_rejects(sample(), |list| {
        let first = list.get_node(0, false).unwrap();
        list.nodes[list.header].previous = Some(first);
    });
}

#[test]
fn rep_ok_rejects_main_node_without_value() {
    assert_rejects(sample(), |list| {
        let first = list.get_node(0, false).unwrap();
        list.nodes[first].value = None;
    });
}

#[test]
fn rep_ok_rejects_value_in_cache_node() {
    assert_rejects(sample(), |list| {
        let cached = first_cached(list);
        list.nodes[cached].value = Some(7);
    });
}

#[test]
fn rep_ok_rejects_previous_in_cache_node() {
    assert_rejects(sample(), |list| {
        let cached = first_cached(list);
        list.nodes[cached].previous = Some(list.header);
    });
}

#[test]
fn rep_ok_rejects_wrong_cache_size() {
    assert_rejects_miscount(&sample(), |list| &mut list.cache_size);
}

#[test]
fn rep_ok_rejects_overfull_cache() {
    assert_rejects(sample(), |list| list.maximum_cache_size = 0);
}

#[test]
fn rep_ok_rejects_node_in_both_lists() {
    assert_rejects(sample(), |list| {
        // The cached node's next points into the main list.
        let cached = first_cached(list);
        let first = list.get_node(0, false).unwrap();
        list.nodes[cached].next = Some(first);
    });
}

#[test]
fn rep_ok_rejects_cyclic_cache() {
    assert_rejects(sample(), |list| {
        let cached = first_cached(list);
        list.nodes[cached].next = Some(cached);
        list.cache_size = 2;
    });
}

#[test]
fn rep_ok_rejects_dangling_links() {
    assert_rejects(sample(), |list| list.first_cache_node = Some(99));
    assert_rejects(sample(), |list| list.nodes[list.header].next = Some(99));
    assert_rejects(sample(), |list| list.header = 99);
}

#[test]
fn rep_ok_rejects_cycle_missing_the_header() {
    assert_rejects(sample(), |list| {
        // 1 -> 2 -> 1, with consistent back links, never back to the header.
        let first = list.get_node(0, false).unwrap();
        let second = list.get_node(1, false).unwrap();
        list.nodes[second].next = Some(first);
        list.nodes[first].previous = Some(second);
    });
}

#[test]
fn rep_ok_rejects_live_slot_on_free_list() {
    assert_rejects(sample(), |list| {
        let first = list.get_node(0, false).unwrap();
        list.free.push(first);
    });
}

/// add, remove, add: the reused node leaves `cache_size` at 1 with an empty cache.
#[test]
fn cache_bug_shows_after_add_remove_add() {
    fn run<V: Variant>() -> Vec<bool> {
        let mut list = NodeCachingLinkedList::<V>::new();
        let mut verdicts = vec![list.rep_ok()];
        list.add(0);
        verdicts.push(list.rep_ok());
        list.remove_first().unwrap();
        verdicts.push(list.rep_ok());
        list.add(1);
        verdicts.push(list.rep_ok());
        verdicts
    }
    assert_eq!(run::<Correct>(), [true, true, true, true]);
    assert_eq!(run::<CacheBug>(), [true, true, true, false]);
}

/// The bug variant stays panic-free when extended past the first broken state.
#[test]
fn cache_bug_does_not_panic_later() {
    let mut list = NodeCachingLinkedList::<CacheBug>::new();
    for x in 0..4 {
        list.add(x);
        list.remove_first().unwrap();
        list.add(x);
        list.add(x);
        list.clear();
    }
    assert!(!list.rep_ok());
}
