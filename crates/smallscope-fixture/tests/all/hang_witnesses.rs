//! A hang's witness tests, as emitted, fail after their limit instead of
//! never returning: `cargo test` (random's error tests) and `cargo test --
//! --ignored` (BEAPI's witnesses) end, and the other tests of the binary
//! run. Kept apart from `emitted_files.rs`, which runs every subject with
//! the default call timeout of 10 s: here the runs, and so the tests, wait 1 s.

use std::time::{Duration, Instant};

use smallscope_scratch_crate::ScratchCrate;

const SUBJECT: &str = "fixture-stuck-ring";

fn harness(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_smallscope-fixture")).args(args).output().expect("the harness runs")
}

#[test]
fn a_hang_witness_fails_its_test_instead_of_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let krate = ScratchCrate::new(&dir.path().join("crate"), "emitted-hangs", &["smallscope", "smallscope-fixture"]);
    let beapi = krate.tests_dir().join("ring_beapi.rs");
    let args = ["beapi", SUBJECT, "--scope", "3", "--call-timeout", "1", "--no-cache", "--builders", "new,push"];
    let output = harness(&[&args[..], &["--emit-tests", beapi.to_str().unwrap()]].concat());
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let out = dir.path().join("random");
    let args = ["random", SUBJECT, "--sequences", "300", "--call-timeout", "1", "--out", out.to_str().unwrap()];
    let output = harness(&args);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let errors = std::fs::read_to_string(out.join("error_tests.rs")).unwrap();
    assert!(errors.contains("/// `hang` after `rotate`"), "{errors}");
    krate.write_test("ring_errors", &errors);

    for (name, args) in [("ring_errors", &[][..]), ("ring_beapi", &["--ignored"][..])] {
        let started = Instant::now();
        let run = krate.cargo_test_file_with(name, args);
        assert!(!run.success && run.failed() >= 1, "{name}: the hang's test fails:\n{}", run.text);
        // As long as the run's call timeout.
        assert!(run.text.contains("did not return within 1 s"), "{name}:\n{}", run.text);
        // A compile (its dependencies are built) and a second per hang, not forever.
        assert!(started.elapsed() < Duration::from_secs(300), "{name}: {:?}", started.elapsed());
    }
}
