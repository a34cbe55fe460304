//! A deque with `Weak` back links and no `Clone`: the engines rebuild
//! stored values by replay, count exactly, and find nothing wrong.

use std::collections::VecDeque;

use smallscope::random::Random;
use smallscope::Beapi;
use smallscope_fixture::deque::Deque;

use crate::model_search;
use model_search::reachable;

/// The deques the API reaches at `scope` (at most `scope` nodes, values in
/// `0..scope`), by a search over a `VecDeque` model of the API.
fn brute_force(scope: u8) -> usize {
    let states = reachable([VecDeque::new()], |deque: &VecDeque<u8>| {
        let mut next = Vec::new();
        if deque.len() < usize::from(scope) {
            for value in 0..scope {
                let mut front = deque.clone();
                front.push_front(value);
                next.push(front);
                let mut back = deque.clone();
                back.push_back(value);
                next.push(back);
            }
        }
        let mut popped = deque.clone();
        popped.pop_front();
        next.push(popped);
        let mut popped = deque.clone();
        popped.pop_back();
        next.push(popped);
        next
    });
    states.len()
}

#[test]
fn beapi_counts_every_deque_by_replay() {
    for scope in 1..=4u8 {
        let expected = brute_force(scope);
        let closed_form: usize = (0..=u32::from(scope)).map(|len| usize::from(scope).pow(len)).sum();
        assert_eq!(expected, closed_form, "the model's search against the closed form");
        let report = Beapi::<Deque>::new().scope(u32::from(scope)).run().unwrap();
        assert_eq!(report.structure_count(), expected, "scope {scope}");
        assert!(report.failures.is_empty(), "{:#?}", report.failures);
    }
}

#[test]
fn random_reports_no_failure_on_the_deque() {
    for seed in 0..3 {
        let report = Random::<Deque>::new().seed(seed).sequences(2_000).run().unwrap();
        assert!(report.failure_groups.is_empty(), "seed {seed}: {:#?}", report.failure_groups);
        assert!(report.legal > 1_000, "seed {seed}: {} legal sequences", report.legal);
    }
}
