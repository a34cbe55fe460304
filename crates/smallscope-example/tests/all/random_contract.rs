//! A contract defined in this crate, not in smallscope, is picked up by a
//! random run through `register_contract!` and reports the planted bug.

use smallscope::random::Random;
use smallscope_example::Inventory;

#[test]
fn registered_user_contract_is_checked_and_fails() {
    let report = Random::<Inventory>::new().seed(3).sequences(5_000).run().unwrap();
    assert!(report.contracts.iter().any(|c| c == "total-matches-counts"), "{:?}", report.contracts);
    assert_eq!(report.failure_groups.len(), 1, "{:?}", report.failure_groups);
    let group = &report.failure_groups[0];
    assert_eq!(group.contract.as_deref(), Some("total-matches-counts"));
    assert_eq!(group.operation.as_deref(), Some("take"));
    // The shortest failing sequence: new(); put(x); take(x).
    assert_eq!(group.witness.calls, 3, "{}", group.witness.text);
    // The generated test calls the contract through its path.
    assert_eq!(
        group.assertion,
        ["smallscope::random::assert_contract(&<smallscope_example::TotalMatchesCounts>::default(), &[&s0]);"]
    );
}

#[test]
fn the_generated_assertion_fails_on_the_bug_and_passes_without_it() {
    let mut inventory = Inventory::new();
    inventory.put(1);
    smallscope::random::assert_contract(&smallscope_example::TotalMatchesCounts, &[&inventory]);
    inventory.take(1);
    let broken = std::panic::catch_unwind(|| {
        smallscope::random::assert_contract(&smallscope_example::TotalMatchesCounts, &[&inventory]);
    });
    assert!(broken.is_err());
}
