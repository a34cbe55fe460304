//! Runs BEAPI for the fixture tests that compare its structures with ones
//! they build themselves.

use smallscope::api::StdTraits;
use smallscope::{Beapi, Subject};

/// The canonical text of every structure BEAPI counts at `scope`, in the
/// order found, after checking that the run was clean and complete.
pub fn counted_forms<T: Subject + StdTraits>(scope: u32) -> Vec<String> {
    let report = Beapi::<T>::new().scope(scope).record_canonical(true).run().expect("valid configuration");
    assert!(report.failures.is_empty(), "scope {scope}: {:?}", report.failures);
    assert!(!report.stopped_early(), "scope {scope}");
    let forms: Vec<String> = report.counted_structures().map(|(_, s)| s.canonical.clone().expect("recorded")).collect();
    assert_eq!(forms.len(), report.structure_count(), "scope {scope}");
    forms
}
