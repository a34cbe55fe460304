//! The arena LRU's planted bug lives in state the canonical form leaves out
//! (its free list is `#[heap(omit)]`, as the docs recommend). Both engines
//! must still find it.

use smallscope::events::FailureKind;
use smallscope::random::Random;
use smallscope::Beapi;
use smallscope_fixture::lru::{Buggy, Correct, Lru};

use crate::model_search;
use model_search::reachable;

#[test]
fn beapi_finds_the_free_list_bug_at_scope_3_with_a_minimal_witness() {
    let report = Beapi::<Lru<Buggy>>::new().scope(3).run().unwrap();
    // A write past the arena (a panic), or over a live entry (`rep_ok` false).
    assert!(!report.failures.is_empty());
    for (index, failure) in report.failures.iter().enumerate() {
        let witness = report.failure_program(index).to_text(&report.operations);
        let calls: Vec<&str> = witness.split("; ").map(|c| c.split('(').next().unwrap()).collect();
        let frees = calls.contains(&"s0.remove") || calls.contains(&"s0.pop_oldest");
        assert!(frees, "only `remove` and `pop_oldest` free a slot: {witness}");
        assert!(matches!(failure.kind, FailureKind::Panic | FailureKind::RepOkFalse), "{failure:#?}");
    }
    // The shortest trigger: fill a slot, free it, reuse it.
    let shortest = (0..report.failures.len()).map(|i| report.failure_program(i)).min_by_key(|p| p.len()).unwrap();
    let witness = shortest.to_text(&report.operations);
    let calls: Vec<&str> = witness.split("; ").map(|c| c.split('(').next().unwrap()).collect();
    assert_eq!(calls.len(), 4, "{witness}");
    assert_eq!((calls[0], calls[1], calls[3]), ("s0 = new", "s0.put", "s0.put"), "{witness}");

    // The correct cache: no failure, and the free list did not add structures.
    let correct = Beapi::<Lru<Correct>>::new().scope(3).run().unwrap();
    assert!(correct.failures.is_empty(), "{:#?}", correct.failures);
}

/// The caches the API reaches at `scope` (capacities and keys and values in
/// `0..scope`, at most `scope` entries), by a search over a model of the
/// API written here: the capacity and the entries, most recent first.
fn brute_force(scope: u8) -> usize {
    let starts = (1..scope).map(|capacity| (capacity, Vec::new()));
    let states = reachable(starts, |(capacity, entries): &(u8, Vec<(u8, u8)>)| {
        let mut next = Vec::new();
        for key in 0..scope {
            let without: Vec<(u8, u8)> = entries.iter().copied().filter(|&(k, _)| k != key).collect();
            for value in 0..scope {
                let mut put = vec![(key, value)];
                put.extend(&without);
                put.truncate(usize::from(*capacity));
                next.push(put);
            }
            if let Some(&hit) = entries.iter().find(|&&(k, _)| k == key) {
                let mut got = vec![hit];
                got.extend(&without);
                next.push(got);
            }
            next.push(without);
        }
        let mut popped = entries.clone();
        popped.pop();
        next.push(popped);
        next.into_iter().filter(|e| e.len() <= usize::from(scope)).map(|e| (*capacity, e)).collect()
    });
    states.len()
}

#[test]
fn beapi_counts_every_cache() {
    for scope in 1..=4u8 {
        let expected = brute_force(scope);
        // Capacity `c`, then `l` distinct keys in order, each with a value.
        let n = u64::from(scope);
        let closed_form: u64 = (1..n)
            .map(|c| (0..=c.min(n)).map(|l| (n - l + 1..=n).product::<u64>() * n.pow(l as u32)).sum::<u64>())
            .sum();
        assert_eq!(expected as u64, closed_form, "the model's search against the closed form");
        let report = Beapi::<Lru<Correct>>::new().scope(u32::from(scope)).run().unwrap();
        assert_eq!(report.structure_count(), expected, "scope {scope}");
    }
}

/// Merging values by canonical form, random found it with none of these
/// seeds, and 14 once omitted state was kept apart: seeding (every
/// sequence of at most three calls) took the whole budget of 10 000
/// sequences, and rarely reached a freed slot. Seeding now takes a quarter.
#[test]
fn random_finds_the_free_list_bug_with_nearly_every_seed() {
    let found = (0..20)
        .filter(|&seed| {
            let report = Random::<Lru<Buggy>>::new().seed(seed).sequences(10_000).run().unwrap();
            !report.failure_groups.is_empty()
        })
        .count();
    assert!(found >= 19, "found in {found} of 20 seeds");
}
