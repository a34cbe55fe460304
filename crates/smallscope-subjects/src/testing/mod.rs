//! Support for the subjects' unit tests: a seeded generator for the
//! randomized differential tests, the list oracle they compare against, the
//! scaffolding of the tests that corrupt a valid structure and expect
//! `rep_ok` to reject it, a check that observers leave the heap alone, and
//! BEAPI structure counts.

mod list_model;
mod rng;

pub(crate) use list_model::ListModel;
pub(crate) use rng::XorShift;

use smallscope::heap::canonical_text;
use smallscope::{Beapi, Builders, Heap, Subject};

/// Asserts that `rep_ok` accepts `valid` and rejects it once `corrupt` has broken it.
pub(crate) fn assert_rejects<T: Subject>(mut valid: T, corrupt: impl FnOnce(&mut T)) {
    assert_eq!(valid.rep_ok(), Some(true), "the sample must be valid");
    corrupt(&mut valid);
    assert_eq!(valid.rep_ok(), Some(false), "rep_ok must reject the corrupted structure");
}

/// Asserts that `rep_ok` accepts `valid` but rejects it once the count that
/// `count` selects (a `size`, a `cache_size`) is one too small or one too large.
pub(crate) fn assert_rejects_miscount<T: Subject + Clone>(valid: &T, count: impl Fn(&mut T) -> &mut usize) {
    for delta in [-1, 1] {
        assert_rejects(valid.clone(), |t| {
            let n = count(t);
            *n = n.checked_add_signed(delta).expect("the sample has a non-zero count");
        });
    }
}

/// Comparison options for the compare models' tests: these builders, no
/// recheck at larger scopes, one picture.
pub(crate) fn compare_options(builders: &[&str]) -> smallscope::compare::CompareOptions {
    smallscope::compare::CompareOptions {
        builders: smallscope::Builders::Named(builders.iter().map(|b| b.to_string()).collect()),
        recheck: 0,
        pictures: 1,
        ..smallscope::compare::CompareOptions::default()
    }
}

/// Runs the observer `f` on `value` and checks that the structure is unchanged.
pub(crate) fn observe<T: Heap, R>(value: &T, f: impl FnOnce(&T) -> R) -> R {
    let before = canonical_text(value);
    let r = f(value);
    assert_eq!(canonical_text(value), before, "an observer changed the structure");
    r
}

/// The builders called `names`.
pub(crate) fn named(names: &[&str]) -> Builders {
    Builders::Named(names.iter().map(|n| n.to_string()).collect())
}

/// How many structures BEAPI finds at `scope` with `builders`, in a run
/// that must finish and find no failure.
pub(crate) fn beapi_count<T: Subject + smallscope::api::StdTraits>(scope: u32, builders: Builders) -> usize {
    let report = Beapi::<T>::new().scope(scope).builders(builders).run().expect("valid configuration");
    assert!(!report.stopped_early(), "scope {scope} stopped early");
    assert!(report.failures.is_empty(), "scope {scope}: {:?}", report.failures);
    report.structure_count()
}
