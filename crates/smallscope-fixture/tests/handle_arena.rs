//! Handles as arguments (Randoop's rule): `KeyedArena::insert` returns a
//! `Key` that `remove` takes. The random engine passes keys that earlier
//! calls of the same sequence returned, finds the stale-key bug, and the
//! error test it writes binds the key and fails the same way.

use smallscope::emit::{random_error_tests, RandomTestOptions};
use smallscope::random::Random;
use smallscope_fixture::handle_arena::KeyedArena;
use smallscope_scratch_crate::ScratchCrate;

#[test]
fn random_passes_returned_keys_and_finds_the_stale_key_bug() {
    let report = Random::<KeyedArena>::new().seed(7).sequences(2_000).run().unwrap();
    let witnesses: Vec<(&str, &str)> =
        report.failure_groups.iter().map(|g| (g.message.as_str(), g.witness.text.as_str())).collect();
    // A key removed twice: `len` goes below zero, or with another value in, the free list repeats a slot.
    let overflow = ("attempt to subtract with overflow", "s0 = new(); h1 = s0.insert(0); s0.remove(h1); s0.remove(h1)");
    assert!(witnesses.contains(&overflow), "{witnesses:#?}");
    let repeated = witnesses.iter().find(|(message, _)| *message == "rep_ok returned false");
    let repeated = repeated.unwrap_or_else(|| panic!("{witnesses:#?}")).1;
    assert!(
        repeated.ends_with("s0.remove(h1); s0.remove(h1)") && repeated.matches(".insert(").count() == 2,
        "{repeated}"
    );

    let dir = tempfile::tempdir().unwrap();
    let krate =
        ScratchCrate::new(&dir.path().join("crate"), "emitted-arena-tests", &["smallscope", "smallscope-fixture"]);
    let options = RandomTestOptions {
        command: "test".into(),
        subject: "fixture-keyed-arena-bug-stale".into(),
        ..Default::default()
    };
    let tests = random_error_tests(&report, &options);
    assert!(tests.contains("let h1 = s0.insert(0);") && tests.contains("s0.remove(h1.clone())"), "{tests}");
    krate.write_test("arena_errors", &tests);
    let run = krate.cargo_test_file("arena_errors");
    assert_eq!((run.passed(), run.failed()), (0, report.failure_groups.len() as u64), "{}", run.text);
}

#[test]
fn beapi_says_which_operations_take_handles_and_are_not_called() {
    let report = smallscope::Beapi::<KeyedArena>::new().scope(2).run().unwrap();
    let note = report.notes.iter().find(|n| n.starts_with("not called:"));
    let note = note.unwrap_or_else(|| panic!("{:?}", report.notes));
    assert!(note.contains("`get`, `remove`") && note.contains("`random` passes them"), "{note}");
    // Arenas of up to 2 slots, each holding one of the default values at scope 2 (0 and 1): 1 + 2 + 2².
    assert_eq!(report.structure_count(), 1 + 2 + 4);
}
