//! Handles as arguments (Randoop's rule): `KeyedArena::insert` returns a
//! `Key` that `remove` takes. The random engine passes keys that earlier
//! calls of the same sequence returned, BEAPI the keys that the calls
//! building a structure returned; both find the stale-key bug, and the
//! tests they write bind the keys and fail the same way.

use smallscope::emit::{
    random_error_tests, rust_failing_tests, rust_tests, RandomTestOptions, RustTestOptions, Witnesses,
};
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
    // Where the panic does not happen (no overflow checks), the invariant is what fails.
    let panics = &tests[tests.find("_panics() {").unwrap_or_else(|| panic!("{tests}"))..];
    assert!(panics[..panics.find("\n}\n").unwrap()].contains("rep_ok(&s0) != Some(false)"), "{tests}");
    krate.write_test("arena_errors", &tests);
    let run = krate.cargo_test_file("arena_errors");
    assert_eq!((run.passed(), run.failed()), (0, report.failure_groups.len() as u64), "{}", run.text);
}

/// Arenas BEAPI can build at scope `k`: up to `k` slots, each empty or
/// holding one of the `k` default values, `Σ_{n≤k} (k+1)^n` (the free list
/// and `len` are omitted from the canonical form, the generation skipped).
fn arenas(k: u32) -> u64 {
    (0..=k).map(|n| u64::from(k + 1).pow(n)).sum()
}

#[test]
fn beapi_passes_the_keys_a_structure_was_built_with_and_finds_the_stale_key_bug() {
    for scope in [2, 3] {
        let report = smallscope::Beapi::<KeyedArena>::new().scope(scope).run().unwrap();
        // An empty slot is made only by `remove`, which takes a key `insert` returned.
        assert_eq!(report.structure_count() as u64, arenas(scope), "scope {scope}");
        let witnesses: Vec<(&str, &str)> =
            report.failures.iter().map(|f| (f.message.as_str(), f.witness.text.as_str())).collect();
        assert_eq!(
            witnesses,
            [
                ("attempt to subtract with overflow", "s0 = new(); h1 = s0.insert(0); s0.remove(h1); s0.remove(h1)"),
                ("rep_ok returned false", "s0 = new(); h1 = s0.insert(0); s0.insert(0); s0.remove(h1); s0.remove(h1)"),
            ],
            "scope {scope}"
        );
    }

    // The written tests bind the keys: the structures' tests pass, one by
    // one or as a table, and the failures' tests fail.
    let report = smallscope::Beapi::<KeyedArena>::new().scope(3).record_canonical(true).run().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let krate =
        ScratchCrate::new(&dir.path().join("crate"), "emitted-arena-beapi", &["smallscope", "smallscope-fixture"]);
    let options = |table_above| RustTestOptions {
        command: "beapi".into(),
        has_rep_ok: true,
        witnesses: Witnesses::Apart,
        table_above,
        ..Default::default()
    };
    let one_by_one = rust_tests(&report, &options(None));
    assert!(one_by_one.contains("let h1 = s0.insert(0);") && one_by_one.contains("s0.remove(h1.clone())"));
    krate.write_test("arena_structures", &one_by_one);
    let table = rust_tests(&report, &options(Some(0)));
    assert!(table.contains("const STRUCTURES: &str") && table.contains(",h"), "{table}");
    krate.write_test("arena_table", &table);
    let failing = rust_failing_tests(&report, &options(None), false);
    // Without overflow checks (`cargo test --release`) the panic's call returns, and the invariant fails.
    let after_panic =
        "    let _ = s0.remove(h1.clone());\n    assert!(smallscope::Subject::rep_ok(&s0) != Some(false));\n}";
    assert_eq!(failing.matches(after_panic).count(), 2, "{failing}");
    krate.write_test("arena_failures", &failing);
    let run = krate.cargo_test_file("arena_structures");
    assert_eq!((run.passed(), run.failed()), (arenas(3), 0), "{}", run.text);
    let run = krate.cargo_test_file("arena_table");
    assert_eq!((run.passed(), run.failed()), (1, 0), "{}", run.text);
    let run = krate.cargo_test_file("arena_failures");
    assert_eq!((run.passed(), run.failed()), (0, 2), "{}", run.text);
    assert!(run.text.contains("attempt to subtract with overflow"), "{}", run.text);
}
