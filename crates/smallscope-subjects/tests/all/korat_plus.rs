//! Korat+ on the paper's case studies: the same equivalence classes as
//! Korat, fewer candidates explored.

use smallscope::korat::{self, Invariants, Model, SearchOptions, SearchStats};
use smallscope_subjects::korat::korat_plus::{
    list_as_set_class, list_as_set_ok, search_tree_delete_class, search_tree_delete_ok, ListAsSet, SearchTreeDelete,
};

fn both<T: Model>(n: i64, invariants: &dyn Invariants) -> (SearchStats, SearchStats) {
    let space = korat::space::<T>(n).unwrap();
    let plain = korat::search_with(space.clone(), invariants, SearchOptions { prune_eq_classes: false }, &mut |_| {});
    let plus = korat::search_with(space, invariants, SearchOptions { prune_eq_classes: true }, &mut |_| {});
    (plain, plus)
}

fn check(name: &str, plain: &SearchStats, plus: &SearchStats) {
    assert_eq!(plus.classes, plain.classes, "{name}: Korat+ must cover Korat's classes");
    assert!(plus.explored < plain.explored, "{name}: Korat+ explored {} vs Korat {}", plus.explored, plain.explored);
    assert!(plus.found <= plain.found, "{name}");
    println!(
        "{name}: Korat {} ({} valid), Korat+ {} ({} valid), {} classes",
        plain.explored,
        plain.found,
        plus.explored,
        plus.found,
        plain.classes.len()
    );
}

#[test]
fn list_as_set_covers_the_same_classes_with_fewer_candidates() {
    let invariants = korat::with_eq_class::<ListAsSet>(list_as_set_ok, list_as_set_class);
    for n in 2..=4 {
        let (plain, plus) = both::<ListAsSet>(n, &invariants);
        check(&format!("list-as-set({n})"), &plain, &plus);
    }
}

#[test]
fn search_tree_delete_covers_the_same_classes_with_fewer_candidates() {
    let invariants = korat::with_eq_class::<SearchTreeDelete>(search_tree_delete_ok, search_tree_delete_class);
    for n in 3..=4 {
        let (plain, plus) = both::<SearchTreeDelete>(n, &invariants);
        check(&format!("search-tree-delete({n})"), &plain, &plus);
    }
}

#[test]
fn korat_plus_finds_a_subset_of_korats_valid_candidates() {
    // Every candidate Korat+ reports is one Korat reports too.
    let invariants = korat::with_eq_class::<SearchTreeDelete>(search_tree_delete_ok, search_tree_delete_class);
    let space = korat::space::<SearchTreeDelete>(3).unwrap();
    let mut all = Vec::new();
    korat::search_with(space.clone(), &invariants, SearchOptions { prune_eq_classes: false }, &mut |c| {
        all.push(c.values().to_vec())
    });
    let mut kept = Vec::new();
    korat::search_with(space, &invariants, SearchOptions { prune_eq_classes: true }, &mut |c| {
        kept.push(c.values().to_vec())
    });
    assert!(kept.iter().all(|k| all.contains(k)));
    assert!(kept.len() < all.len());
}

#[test]
#[ignore = "slow in debug; run with --release --ignored"]
fn larger_scopes_for_the_closing_note() {
    let invariants = korat::with_eq_class::<ListAsSet>(list_as_set_ok, list_as_set_class);
    for n in 2..=5 {
        let (plain, plus) = both::<ListAsSet>(n, &invariants);
        check(&format!("list-as-set({n})"), &plain, &plus);
    }
    let invariants = korat::with_eq_class::<SearchTreeDelete>(search_tree_delete_ok, search_tree_delete_class);
    for n in 3..=6 {
        let (plain, plus) = both::<SearchTreeDelete>(n, &invariants);
        check(&format!("search-tree-delete({n})"), &plain, &plus);
    }
}

#[test]
fn every_thread_count_gives_the_sequential_korat_plus_result() {
    // Korat+ skips reach across the parts of a split search: they must be
    // carried from one part to the next, whatever runs the parts.
    let invariants = korat::with_eq_class::<ListAsSet>(list_as_set_ok, list_as_set_class);
    let space = korat::space::<ListAsSet>(5).unwrap();
    let options = SearchOptions { prune_eq_classes: true };
    let mut sequential = Vec::new();
    let stats = korat::search_with(space.clone(), &invariants, options, &mut |c| sequential.push(c.values().to_vec()));
    // The paper's row "0-5,0-5,5,5,4": 7 812 valid candidates.
    assert_eq!(stats.found, 7_812);
    for threads in 1..=4 {
        let (parallel, found) =
            korat::search_parallel(space.clone(), &invariants, options, threads, |c| Some(c.values().to_vec()));
        assert_eq!((parallel.found, parallel.explored), (stats.found, stats.explored), "{threads} threads");
        assert_eq!(parallel.classes, stats.classes, "{threads} threads");
        assert!(found == sequential, "{threads} threads: other candidates or another order");
    }
    // The other case study, whose skips reach further back.
    let invariants = korat::with_eq_class::<SearchTreeDelete>(search_tree_delete_ok, search_tree_delete_class);
    let space = korat::space::<SearchTreeDelete>(4).unwrap();
    let stats = korat::search_with(space.clone(), &invariants, options, &mut |_| {});
    for threads in 1..=3 {
        let (parallel, _) = korat::search_parallel::<_, ()>(space.clone(), &invariants, options, threads, |_| None);
        assert_eq!((parallel.found, parallel.explored), (stats.found, stats.explored), "{threads} threads");
    }
}
