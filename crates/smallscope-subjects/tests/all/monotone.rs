//! More builders never give fewer structures: for builder sets A ⊆ B of
//! every built-in subject's API, the structures BEAPI makes with A are
//! among those it makes with B (by canonical form). State matching keeps
//! the first sequence that reaches each state, so this holds only when
//! the state it keys on is the whole state the API's behaviour depends
//! on; a property test over random pairs of sets, each subject's own.

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use smallscope::api::StdTraits;
use smallscope::{Beapi, Builders, Check, Subject};
use smallscope_subjects::{avl, binheap, bst, dll, lits, ncl, ncl_full, rbt, scheduler, sll, sorted_list};
use smallscope_subjects::{tree_map, union_find};

/// The canonical forms BEAPI makes with `builders` at `scope`.
fn structures<T: Subject + StdTraits>(scope: u32, builders: &[String]) -> BTreeSet<String> {
    let report = Beapi::<T>::new()
        .scope(scope)
        .builders(Builders::Named(builders.to_vec()))
        .check(Check::None)
        .record_canonical(true)
        .run()
        .unwrap();
    report.counted_structures().map(|(_, s)| s.canonical.clone().expect("recorded")).collect()
}

/// For `cases` random pairs A ⊆ B of `T`'s operations (both with the first
/// constructor), structures(A) ⊆ structures(B).
fn more_builders_never_give_fewer<T: Subject + StdTraits>(scope: u32, cases: u32) {
    let ops = T::operations();
    let names: Vec<String> = ops.iter().map(|op| op.name.to_owned()).collect();
    let constructor = ops.iter().position(|op| op.is_constructor()).expect("a constructor");
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, proptest::test_runner::TestRng::deterministic_rng(config_rng()));
    // Pairs where the larger set made strictly more: the property is not
    // met by sets that all make the same few structures.
    let grew = std::cell::Cell::new(0);
    // A small set often lacks a builder its superset has.
    let bits = |p: f64| proptest::collection::vec(proptest::bool::weighted(p), ops.len());
    let sets = (bits(0.3), bits(0.5));
    let result = runner.run(&sets, |(a, extra)| {
        let pick = |keep: &dyn Fn(usize) -> bool| -> Vec<String> {
            (0..names.len()).filter(|&i| i == constructor || keep(i)).map(|i| names[i].clone()).collect()
        };
        let small = pick(&|i| a[i]);
        let large = pick(&|i| a[i] || extra[i]);
        let (made_small, made_large) = (structures::<T>(scope, &small), structures::<T>(scope, &large));
        let lost: Vec<&String> = made_small.difference(&made_large).take(3).collect();
        prop_assert!(lost.is_empty(), "{small:?} makes {lost:?}, which {large:?} does not");
        grew.set(grew.get() + u32::from(made_large.len() > made_small.len()));
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{}: {failure}", std::any::type_name::<T>());
    }
    assert!(grew.get() > 0, "{}: no pair of sets made different structures", std::any::type_name::<T>());
}

/// The same pairs in every run.
fn config_rng() -> proptest::test_runner::RngAlgorithm {
    proptest::test_runner::RngAlgorithm::ChaCha
}

#[test]
fn lists() {
    more_builders_never_give_fewer::<sll::SinglyLinkedList>(3, 16);
    more_builders_never_give_fewer::<dll::DoublyLinkedList>(3, 16);
    more_builders_never_give_fewer::<sorted_list::SortedList>(3, 16);
    more_builders_never_give_fewer::<ncl::NodeCachingLinkedList>(3, 16);
    more_builders_never_give_fewer::<ncl_full::NodeCachingLinkedList>(3, 8);
}

#[test]
fn trees_and_heaps() {
    more_builders_never_give_fewer::<bst::BinarySearchTree>(4, 16);
    more_builders_never_give_fewer::<avl::AvlTree>(4, 16);
    more_builders_never_give_fewer::<rbt::RedBlackTree>(4, 16);
    more_builders_never_give_fewer::<binheap::BinomialHeap>(3, 16);
    more_builders_never_give_fewer::<tree_map::TreeMap>(3, 8);
}

#[test]
fn rich_apis() {
    more_builders_never_give_fewer::<union_find::UnionFind>(3, 8);
    more_builders_never_give_fewer::<scheduler::Scheduler>(3, 8);
    more_builders_never_give_fewer::<lits::Lits>(3, 8);
}
