//! Korat ports against published counts (Korat 1.0's stock finitizations)
//! and closed forms.

use smallscope::korat;
use smallscope_subjects::korat::binary_tree::{self, BinaryTree};

fn catalan(n: u64) -> u64 {
    (0..n).fold(1, |c, i| c * 2 * (2 * i + 1) / (i + 2))
}

#[test]
fn binary_trees_match_korat_and_catalan() {
    for n in 0..=8 {
        let stats = korat::run::<BinaryTree>(n, korat::from_fn::<BinaryTree>(binary_tree::rep_ok)).unwrap();
        assert_eq!(stats.found, catalan(n as u64), "n = {n}");
        if n == 8 {
            // Korat 1.0, BinaryTree(8): 1 430 found, 54 418 explored.
            assert_eq!((stats.found, stats.explored), (1430, 54418));
        }
    }
}

#[test]
fn the_hand_written_searches_explore_the_engines_candidates() {
    use smallscope_subjects::korat::by_hand;
    use smallscope_subjects::korat::heap_array::{self, HeapArray};
    use smallscope_subjects::korat::search_tree::{self, SearchTree};
    for n in 0..=8 {
        let stats = korat::run::<BinaryTree>(n, korat::from_fn::<BinaryTree>(binary_tree::rep_ok)).unwrap();
        let by_hand = by_hand::binary_tree::search(n as usize);
        assert_eq!((by_hand.found, by_hand.explored), (stats.found, stats.explored), "binary-tree, n = {n}");
        assert_eq!(by_hand.found, catalan(n as u64), "n = {n}");
    }
    for n in 0..=6 {
        let stats = korat::run::<SearchTree>(n, korat::from_fn::<SearchTree>(search_tree::rep_ok)).unwrap();
        let by_hand = by_hand::search_tree::search(n as usize);
        assert_eq!((by_hand.found, by_hand.explored), (stats.found, stats.explored), "search-tree, n = {n}");
        // One key order per shape.
        assert_eq!(by_hand.found, catalan(n as u64), "n = {n}");
    }
    for n in 0..=6 {
        let stats = korat::run::<HeapArray>(n, korat::from_fn::<HeapArray>(heap_array::rep_ok)).unwrap();
        let by_hand = by_hand::heap_array::search(n as usize);
        assert_eq!((by_hand.found, by_hand.explored), (stats.found, stats.explored), "heap-array, n = {n}");
    }
}

#[test]
fn parallel_search_equals_sequential() {
    let invariants = korat::from_fn::<BinaryTree>(binary_tree::rep_ok);
    for n in 0..=7 {
        let space = korat::space::<BinaryTree>(n).unwrap();
        let mut sequential = Vec::new();
        let stats = korat::search(space.clone(), &invariants, &mut |c| sequential.push(c.values().to_vec()));
        for threads in [1, 2, 4] {
            let (parallel, found) =
                korat::search_parallel(space.clone(), &invariants, korat::SearchOptions::default(), threads, |c| {
                    Some(c.values().to_vec())
                });
            assert_eq!((parallel.found, parallel.explored), (stats.found, stats.explored), "n = {n}");
            assert_eq!(found, sequential, "n = {n}, {threads} threads: same candidates, same order");
        }
    }
}

#[test]
fn reading_fields_when_a_candidate_is_found_changes_nothing() {
    // DoublyLinkedList's rep_ok leaves the entries' elements unread: the
    // search must still add them, whatever the callback reads.
    use smallscope_subjects::korat::doubly_linked_list::{self, DoublyLinkedList};
    let invariants = korat::from_fn::<DoublyLinkedList>(doubly_linked_list::rep_ok);
    let space = korat::space::<DoublyLinkedList>(3).unwrap();
    let plain = korat::search(space.clone(), &invariants, &mut |_| {});
    // Read every slot of each valid candidate, as a materializer might.
    let reading = korat::search(space.clone(), &invariants, &mut |c| {
        for slot in 0..c.space().slots.len() {
            c.read(slot);
        }
    });
    assert_eq!((reading.found, reading.explored), (plain.found, plain.explored));
}

/// `binary_tree::rep_ok`, but a panic wherever it returns false: the panic
/// comes after the same reads, so the search must go the same way.
fn panics_instead_of_false(tree: binary_tree::BinaryTreeView<'_>) -> bool {
    if !binary_tree::rep_ok(tree) {
        panic!("not a tree of `size` nodes");
    }
    true
}

#[test]
fn a_rep_ok_that_panics_on_every_invalid_candidate_is_searched_past_each_panic() {
    // Korat 1.0, BinaryTree(8): 1 430 found, 54 418 explored; so 52 988 panics,
    // each caught, filed against its candidate, and searched past.
    let report = korat::run::<BinaryTree>(8, korat::from_fn::<BinaryTree>(panics_instead_of_false)).unwrap();
    assert_eq!((report.found, report.explored), (1430, 54418));
    assert_eq!(report.failures.len(), 1, "one group: {:?}", report.failures);
    assert_eq!(report.failures[0].count, 54418 - 1430);
    assert_eq!(report.failures[0].message, "not a tree of `size` nodes");
    // The witness is the first candidate explored: the empty tree with size 8.
    assert!(
        report.failures[0].witness.text.starts_with("BinaryTree#0.root = null"),
        "{}",
        report.failures[0].witness.text
    );
}
