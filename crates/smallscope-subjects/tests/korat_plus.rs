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
