//! An `Rc<RefCell>` graph with a derived, shallow `Clone`: both engines
//! must see that the clone shares its nodes and replay instead, so the
//! counts are exact and no failure is reported on correct code.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use smallscope::events::Stop;
use smallscope::random::Random;
use smallscope::Beapi;
use smallscope_fixture::graph::Graph;

use crate::model_search;
use model_search::reachable;

/// Counts live and peak heap bytes, to bound what a run takes.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The graphs the API reaches at `scope` (at most `scope` nodes, arguments
/// in `0..scope`), by a search over a model of the API written here: node
/// labels, and the set of edges by node index.
fn brute_force(scope: u8) -> usize {
    type State = (Vec<u8>, BTreeSet<(u8, u8)>);
    let states = reachable([(Vec::new(), BTreeSet::new())], |(labels, edges): &State| {
        let mut next = Vec::new();
        if labels.len() < usize::from(scope) {
            for label in 0..scope {
                let mut more = labels.clone();
                more.push(label);
                next.push((more, edges.clone()));
            }
        }
        for from in 0..labels.len() as u8 {
            for to in 0..labels.len() as u8 {
                let mut added = edges.clone();
                added.insert((from, to));
                next.push((labels.clone(), added));
                let mut removed = edges.clone();
                removed.remove(&(from, to));
                next.push((labels.clone(), removed));
            }
        }
        next
    });
    states.len()
}

/// Every graph: `k` nodes with any labels and any set of the `k²` edges.
fn closed_form(scope: u32) -> usize {
    (0..=scope).map(|k| (scope as usize).pow(k) << (k * k)).sum()
}

#[test]
fn beapi_counts_every_graph_and_replays_past_the_shallow_clone() {
    for scope in 1..=3u8 {
        let expected = brute_force(scope);
        assert_eq!(expected, closed_form(u32::from(scope)), "the model's search against the closed form");
        let report = Beapi::<Graph>::new().scope(u32::from(scope)).run().unwrap();
        assert_eq!(report.structure_count(), expected, "scope {scope}");
        assert!(report.failures.is_empty(), "{:#?}", report.failures);
        assert!(
            report.notes.iter().any(|n| n.contains("shares objects with the original")),
            "the shallow clone is noticed: {:?}",
            report.notes
        );
    }
}

#[test]
fn random_reports_no_failure_on_the_graph() {
    for seed in 0..5 {
        let report = Random::<Graph>::new().seed(seed).sequences(3_000).run().unwrap();
        assert!(report.failure_groups.is_empty(), "seed {seed}: {:#?}", report.failure_groups);
        assert!(
            report.notes.iter().any(|n| n.contains("shares objects with the original")),
            "seed {seed}: the shallow clone is noticed: {:?}",
            report.notes
        );
        assert!(report.legal > 1_000, "seed {seed}: {} legal sequences", report.legal);
    }
}

/// Builders identification once ran at scope 5 whatever the run's scope,
/// and took this run to 19.6 GB. It is now bounded by the run's scope and
/// counted in the run's time limit.
#[test]
fn beapi_at_scope_2_with_automatic_builders_stays_small() {
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
    let before = LIVE.load(Ordering::Relaxed);
    let report = Beapi::<Graph>::new().scope(2).time_limit(Duration::from_secs(5)).run().unwrap();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert_eq!(report.stop, Some(Stop::Complete), "finished within the 5 s time limit");
    assert!(peak < 500 << 20, "peak heap {} MiB", peak >> 20);
    assert_eq!(report.structure_count(), closed_form(2));
    assert!(report.notes.iter().any(|n| n.contains("identified by hill climbing at scope 2")), "{:?}", report.notes);
}
