//! Acceptance checks on the built-in subjects that go beyond counts:
//! which builders hill climbing and the genetic algorithm pick at scope 5
//! (as the BEAPI and builders papers report), that those builders are
//! sufficient and minimal by BEAPI's counts, and that planted bugs come
//! with witnesses of minimal length, minimality proved here by a brute
//! force over all shorter sequences that calls the API directly, not
//! through the engine.

use smallscope::beapi::BeapiConfig;
use smallscope::builders::{identify, Genetic, Method};
use smallscope::{Beapi, Builders, Check, ConfigError, RunError, Subject};
use smallscope_subjects::avl::AvlTree;
use smallscope_subjects::binheap::BinomialHeap;
use smallscope_subjects::bst::BinarySearchTree;
use smallscope_subjects::ncl::{self, NodeCachingLinkedList};
use smallscope_subjects::rbt::{self, RedBlackTree};

/// The builders `method` identifies at `scope`.
fn builders_with<T: Subject + smallscope::api::StdTraits>(method: Method, scope: u32) -> Vec<String> {
    let config = BeapiConfig { scope, builder_scope: scope, ..BeapiConfig::default() };
    identify::<T>(&config, method, &[], None).unwrap().builders
}

/// Hill climbing's builders, then the genetic algorithm's for the seeds
/// below `seeds`, which must all be the same set. (Seeds 0 to 4 on most
/// subjects; tree-map and the scheduler, whose state graphs take longest,
/// get fewer here, and `bench builders` runs all five on every subject.)
fn both_methods<T: Subject + smallscope::api::StdTraits>(seeds: u64, scope: u32) -> [Vec<String>; 2] {
    let climbed = builders_with::<T>(Method::HillClimbing, scope);
    let genetic = |seed| Method::Genetic(Genetic { seed, ..Genetic::default() });
    let evolved: Vec<Vec<String>> = (0..seeds).map(|seed| builders_with::<T>(genetic(seed), scope)).collect();
    assert!(evolved.iter().all(|set| *set == evolved[0]), "the GA differs between seeds: {evolved:?}");
    [climbed, evolved[0].clone()]
}

/// BEAPI's structures at `scope` with `builders` (none without a constructor).
fn structures<T: Subject + smallscope::api::StdTraits>(builders: Builders, scope: u32) -> usize {
    match Beapi::<T>::new().scope(scope).builders(builders).run() {
        Ok(report) => report.structure_count(),
        Err(RunError::Config(ConfigError::NoConstructor(_))) => 0,
        Err(error) => panic!("{error}"),
    }
}

/// Sufficient: as many structures as the whole API makes. Minimal: each
/// one left out makes fewer.
fn assert_sufficient_and_minimal<T: Subject + smallscope::api::StdTraits>(builders: &[String], scope: u32) {
    let all = structures::<T>(Builders::All, scope);
    let named = |names: Vec<String>| structures::<T>(Builders::Named(names), scope);
    assert_eq!(named(builders.to_vec()), all, "{builders:?} is not sufficient");
    for left_out in builders {
        let rest: Vec<String> = builders.iter().filter(|b| *b != left_out).cloned().collect();
        assert!(named(rest) < all, "{left_out} is superfluous in {builders:?}");
    }
}

/// Both methods' builders at `scope`, each checked sufficient and minimal
/// there (once, when both methods find the same set).
fn sufficient_and_minimal_by_both<T: Subject + smallscope::api::StdTraits>(seeds: u64, scope: u32) -> [Vec<String>; 2] {
    let sets = both_methods::<T>(seeds, scope);
    assert_sufficient_and_minimal::<T>(&sets[0], scope);
    if sets[1] != sets[0] {
        assert_sufficient_and_minimal::<T>(&sets[1], scope);
    }
    sets
}

#[test]
fn red_black_trees_need_a_remove_builder() {
    for builders in sufficient_and_minimal_by_both::<RedBlackTree>(5, 5) {
        assert!(builders.iter().any(|b| b.starts_with("remove") || b.starts_with("poll")), "{builders:?}");
    }
}

#[test]
fn avl_trees_need_only_the_constructor_and_an_add() {
    for builders in both_methods::<AvlTree>(5, 5) {
        assert_eq!(builders, ["new", "add"]);
    }
}

#[test]
fn search_trees_and_binomial_heaps_get_sufficient_minimal_builders() {
    for builders in sufficient_and_minimal_by_both::<BinarySearchTree>(5, 5) {
        assert_eq!(builders, ["new", "add"]);
    }
    sufficient_and_minimal_by_both::<BinomialHeap>(5, 5);
}

#[test]
fn node_caching_lists_need_a_remove_builder_to_fill_the_cache() {
    for builders in sufficient_and_minimal_by_both::<NodeCachingLinkedList>(5, 5) {
        assert!(builders.iter().any(|b| b.starts_with("remove")), "{builders:?}");
        assert!(builders.iter().any(|b| b == "new"), "{builders:?}");
    }
}

/// One call of a brute-force sequence: an operation and its key.
#[derive(Clone, Copy, Debug)]
enum Call {
    Add(i32),
    Remove(i32),
}

/// Every sequence of `len` calls over `calls`.
fn sequences(calls: &[Call], len: usize) -> Vec<Vec<Call>> {
    (0..len).fold(vec![Vec::new()], |prefixes, _| {
        prefixes.iter().flat_map(|p| calls.iter().map(move |c| [p.clone(), vec![*c]].concat())).collect()
    })
}

fn keyed(keys: i32) -> Vec<Call> {
    (0..keys).map(Call::Add).chain((0..keys).map(Call::Remove)).collect()
}

/// Whether `rep_ok` fails at some point of `calls` on a red-black tree with the fix-up bug.
fn rbt_breaks(calls: &[Call]) -> bool {
    let mut tree = RedBlackTree::<rbt::FixupBug>::new();
    calls.iter().any(|call| {
        match *call {
            Call::Add(k) => {
                tree.add(k);
            }
            Call::Remove(k) => {
                tree.remove(k);
            }
        }
        !tree.rep_ok()
    })
}

/// Whether `rep_ok` fails at some point of `calls` on a list with the cache bug.
fn ncl_breaks(calls: &[Call]) -> bool {
    let mut list = NodeCachingLinkedList::<ncl::CacheBug>::new();
    calls.iter().any(|call| {
        match *call {
            Call::Add(k) => list.add(k),
            Call::Remove(_) => {
                let _ = list.remove_first();
            }
        }
        !list.rep_ok()
    })
}

#[test]
fn the_red_black_fixup_bug_has_a_minimal_witness() {
    let scope = 4;
    let builders = Builders::Named(vec!["new".into(), "add".into(), "remove".into()]);
    let report =
        Beapi::<RedBlackTree<rbt::FixupBug>>::new().scope(scope).builders(builders.clone()).check(Check::None).run();
    let report = report.unwrap();
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    let witness = report.failure_program(0);
    let text = witness.to_text(&report.operations);
    // No shorter sequence of adds and removes (after `new`) breaks the tree.
    let shorter = witness.len() - 1 - 1;
    for len in 0..=shorter {
        for calls in sequences(&keyed(scope as i32), len) {
            assert!(!rbt_breaks(&calls), "{calls:?} is shorter than the witness {text}");
        }
    }
    // And one of the witness's length does: the engine's is no longer than needed.
    assert!(sequences(&keyed(scope as i32), shorter + 1).iter().any(|c| rbt_breaks(c)), "{text}");
    assert!(text.starts_with("s0 = new()"), "{text}");
    // Checking the rest of the API finds the fixup's bug through
    // `poll_last` too, with a witness as short.
    let checked = Beapi::<RedBlackTree<rbt::FixupBug>>::new().scope(scope).builders(builders).run().unwrap();
    let mut operations: Vec<&str> = checked.failures.iter().filter_map(|f| f.operation.as_deref()).collect();
    operations.sort_unstable();
    assert_eq!(operations, ["poll_last", "remove"], "{:?}", checked.failures);
    assert!(checked.failures.iter().all(|f| f.witness.calls == witness.len()), "{:?}", checked.failures);
}

#[test]
fn the_node_cache_bug_has_a_minimal_witness() {
    let scope = 3;
    let builders = Builders::Named(vec!["new".into(), "add".into(), "remove_first".into()]);
    let buggy = || Beapi::<NodeCachingLinkedList<ncl::CacheBug>>::new().scope(scope).builders(builders.clone());
    let report = buggy().check(Check::None).run().unwrap();
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    let witness = report.failure_program(0);
    let text = witness.to_text(&report.operations);
    let calls = [Call::Add(0), Call::Remove(0)];
    let shorter = witness.len() - 1 - 1;
    for len in 0..=shorter {
        for seq in sequences(&calls, len) {
            assert!(!ncl_breaks(&seq), "{seq:?} is shorter than the witness {text}");
        }
    }
    assert_eq!(witness.len(), 4, "new, add, remove_first, add: {text}");
    // Every add the API has reuses the broken cache node: checked, each
    // is a group of its own, with a witness as short.
    let checked = buggy().run().unwrap();
    let mut operations: Vec<&str> = checked.failures.iter().filter_map(|f| f.operation.as_deref()).collect();
    operations.sort_unstable();
    assert_eq!(operations, ["add", "add_at", "add_first", "add_last"], "{:?}", checked.failures);
    assert!(checked.failures.iter().all(|f| f.witness.calls == 4), "{:?}", checked.failures);
}

#[test]
fn the_correct_variants_have_no_failures() {
    let all = Builders::All;
    let rbt = Beapi::<RedBlackTree>::new().scope(4).builders(all.clone()).run().unwrap();
    assert!(rbt.failures.is_empty(), "{:?}", rbt.failures);
    let ncl = Beapi::<NodeCachingLinkedList>::new().scope(4).builders(all).run().unwrap();
    assert!(ncl.failures.is_empty(), "{:?}", ncl.failures);
}

/// Apache's `NodeCachingLinkedList` with its whole API (30 operations): the
/// builders are the constructor, one add and one remove, each with the
/// fewest parameters. Written from the API's meaning: any add reaches every
/// list, only a removal fills the cache, and among equivalent choices an
/// add without an index, and a remove without any argument, are simplest.
#[test]
fn the_full_node_caching_list_api_comes_down_to_three_builders() {
    use smallscope_subjects::ncl_full::NodeCachingLinkedList as FullList;
    for builders in sufficient_and_minimal_by_both::<FullList>(5, 5) {
        assert_eq!(builders.len(), 3, "{builders:?}");
        assert!(builders.contains(&"new".to_owned()), "{builders:?}");
        // One value argument: Java's `add(Object)`, `addFirst`, `addLast`; not `add(int, Object)`.
        assert!(["add", "add_first", "add_last"].iter().any(|b| builders.contains(&b.to_string())), "{builders:?}");
        assert!(["remove_first", "remove_last"].iter().any(|b| builders.contains(&b.to_string())), "{builders:?}");
    }
}

/// A red-black tree map: `new`, one way to insert (`insert`, or the
/// entry-like `get_or_insert`), and one removal, as colourings after
/// deletions differ from those insertions make (from scope 4 on).
#[test]
fn tree_maps_need_an_insertion_and_a_removal() {
    use smallscope_subjects::tree_map::TreeMap;
    for builders in sufficient_and_minimal_by_both::<TreeMap>(1, 5) {
        assert_eq!(builders.len(), 3, "{builders:?}");
        assert!(builders.contains(&"new".to_owned()), "{builders:?}");
        let removals = ["remove", "pop_first", "pop_last", "retain_below", "retain_at_least"];
        assert!(removals.iter().any(|b| builders.contains(&b.to_string())), "{builders:?}");
    }
}

/// Disjoint sets: `new`, `add_element` and `union`; `find`'s path
/// compression is reachable through `union(x, x)`, so it is not needed.
#[test]
fn union_find_needs_elements_and_unions() {
    use smallscope_subjects::union_find::UnionFind;
    for builders in sufficient_and_minimal_by_both::<UnionFind>(5, 5) {
        assert_eq!(builders, ["new", "add_element", "union"]);
    }
}

/// The genetic algorithm scores sets by a closure over one search's state
/// graph instead of a search per set: for every set of up to three
/// operations (and the whole API), the closure must reach exactly the
/// states and field values that a search with those builders reaches.
#[test]
fn the_state_graph_reaches_what_a_search_with_those_builders_reaches() {
    fn check<T: Subject>(scope: u32) {
        let config = BeapiConfig { scope, graphs: true, ..BeapiConfig::default() };
        let names: Vec<String> = T::operations().iter().map(|op| op.name.to_owned()).collect();
        let (graph, stop) = smallscope::beapi::state_graph::<T>(&config, &names, 1, &[], None).unwrap();
        assert_eq!(stop, smallscope::events::Stop::Complete);
        let n = names.len();
        let mut sets: Vec<Vec<usize>> = vec![(0..n).collect()];
        for a in 0..n {
            sets.push(vec![a]);
            for b in a + 1..n {
                sets.push(vec![a, b]);
                for c in b + 1..n {
                    sets.push(vec![a, b, c]);
                }
            }
        }
        let constructors: Vec<usize> = (0..n).filter(|&i| T::operations()[i].is_constructor()).collect();
        for set in sets.into_iter().filter(|set| set.iter().any(|i| constructors.contains(i))) {
            let chosen: Vec<bool> = (0..n).map(|i| set.contains(&i)).collect();
            let builders: Vec<String> = set.iter().map(|&i| names[i].clone()).collect();
            let (searched, stop) = smallscope::beapi::reach::<T>(&config, &builders, 2, &[], None).unwrap();
            assert_eq!(stop, smallscope::events::Stop::Complete);
            assert_eq!(graph.reach(&chosen), searched, "{} with {builders:?}", std::any::type_name::<T>());
        }
    }
    check::<BinomialHeap>(4);
    check::<RedBlackTree>(4);
    check::<NodeCachingLinkedList>(4);
    check::<smallscope_subjects::union_find::UnionFind>(4);
}

/// Sat4j's `Lits` driven as its solver drives it: `new`, `ensure_pool`
/// (the only way to make variables), `add_clause` (clauses) and `assume`
/// (assignments: decisions and what they propagate). Backtracking and
/// removing clauses only reach what fewer decisions or clauses reach.
#[test]
fn lits_needs_variables_clauses_and_decisions() {
    use smallscope_subjects::lits::Lits;
    for builders in sufficient_and_minimal_by_both::<Lits>(5, 5) {
        assert_eq!(builders, ["new", "ensure_pool", "add_clause", "assume"]);
    }
}

/// The process scheduler: processes enter only by `new_job` and leave only
/// by `finish`; a blocked queue fills only by `block` and a process comes
/// back from it only by `unblock`.
#[test]
fn the_scheduler_needs_jobs_blocking_unblocking_and_finishing() {
    use smallscope_subjects::scheduler::Scheduler;
    for builders in sufficient_and_minimal_by_both::<Scheduler>(1, 5) {
        assert_eq!(builders, ["new", "new_job", "block", "unblock", "finish"]);
    }
}
