//! The brute force the fixture tests count against: every state of a model
//! of a type's API, written in the test, that its operations reach.

use std::collections::BTreeSet;

/// Every state reachable from `starts` by `successors` (which leaves out
/// the states past the scope), `starts` included.
pub fn reachable<S: Ord + Clone>(
    starts: impl IntoIterator<Item = S>,
    successors: impl Fn(&S) -> Vec<S>,
) -> BTreeSet<S> {
    let mut seen: BTreeSet<S> = starts.into_iter().collect();
    let mut frontier: Vec<S> = seen.iter().cloned().collect();
    while let Some(state) = frontier.pop() {
        for next in successors(&state) {
            if seen.insert(next.clone()) {
                frontier.push(next);
            }
        }
    }
    seen
}
