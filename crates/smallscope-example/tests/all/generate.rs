//! Runs smallscope on this crate's own type, through the public API only.

use smallscope::{Beapi, Builders};
use smallscope_example::{BuggySortedSet, SortedSet};

/// C(n, k), for the closed form.
fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[test]
fn every_small_subset_is_built_once() {
    for scope in 1..=5u32 {
        for keys in 1..=6i64 {
            let report = Beapi::<SortedSet>::new().scope(scope).ints(0..keys).builders(Builders::All).run().unwrap();
            // Sets of at most `scope` nodes over `keys` values.
            let expected: u64 = (0..=u64::from(scope).min(keys as u64)).map(|k| binomial(keys as u64, k)).sum();
            assert_eq!(report.structure_count() as u64, expected, "scope {scope}, keys 0..{keys}");
            assert!(report.failures.is_empty(), "{:?}", report.failures);
        }
    }
}

#[test]
fn hill_climbing_picks_new_and_insert() {
    let report = Beapi::<SortedSet>::new().scope(4).run().unwrap();
    assert_eq!(report.builders, ["new", "insert"]);
    assert_eq!(report.structure_count(), 16);
}

#[test]
fn each_structure_comes_with_a_shortest_sequence() {
    let report = Beapi::<SortedSet>::new().scope(3).builders(Builders::All).record_canonical(true).run().unwrap();
    for (index, structure) in report.structures.iter().enumerate() {
        let program = report.program(index);
        // A set of k keys needs `new` and k inserts, and no more.
        let canonical = structure.canonical.as_deref().unwrap();
        let keys = canonical.matches("key:").count();
        assert_eq!(program.len(), keys + 1, "{canonical} built by {}", program.to_text(&report.operations));
    }
}

#[test]
fn a_planted_bug_is_reported_with_a_minimal_witness() {
    let report = Beapi::<BuggySortedSet>::new().scope(3).builders(Builders::All).run().unwrap();
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    let witness = report.failure_program(0);
    // new, two inserts, then remove the larger key: four calls at least.
    assert_eq!(witness.len(), 4, "{}", witness.to_text(&report.operations));
    assert!(witness.to_text(&report.operations).ends_with("remove(1)"), "{}", witness.to_text(&report.operations));
}
