//! Generated test files compile and pass under `cargo test` in a crate of
//! their own, the way a user would use them; generated failure witnesses
//! are ignored by default and fail when run. The files of `random --out`
//! behave too: every error test fails, every regression test passes, and
//! (not yet, see the ignored test) a regression test catches a planted
//! behaviour change.

use std::path::Path;
use std::process::Command;

use smallscope_scratch_crate::ScratchCrate;

/// A scratch crate at `krate` that depends on `smallscope` and `smallscope-subjects`.
fn temp_crate(krate: &Path, name: &str) -> ScratchCrate {
    ScratchCrate::new(krate, name, &["smallscope", "smallscope-subjects"])
}

/// Emits a test file for `subject` into `tests_dir`; returns the structure count.
fn emit(subject: &str, scope: &str, builders: &str, tests_dir: &Path) -> u64 {
    let file = tests_dir.join(format!("{}.rs", subject.replace('-', "_")));
    let output = Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(["beapi", subject, "--scope", scope, "--builders", builders, "--format", "json", "--no-cache"])
        .arg("--emit-tests")
        .arg(&file)
        .output()
        .unwrap();
    assert!(output.status.code().unwrap() <= 1, "{}", String::from_utf8_lossy(&output.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    summary["structures"].as_u64().unwrap()
}

/// Emits the tests of a field coverage suite of `subject` drawn from
/// `engine`; returns the suite size, which is the number of tests.
fn emit_suite(subject: &str, engine: &str, criterion: &str, scope: &str, tests_dir: &Path) -> u64 {
    let file = tests_dir.join(format!("{}_{engine}_suite.rs", subject.replace('-', "_")));
    let output = Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(["suite", subject, "--engine", engine, "--criterion", criterion, "--scope", scope, "--format", "json"])
        .arg("--emit-tests")
        .arg(&file)
        // A check of the user's own, called on every rebuilt structure.
        .args(["--check-with", "smallscope::heap::canonical_text"])
        .arg("--cache-dir")
        .arg(tests_dir.with_file_name("builder-cache"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("smallscope::heap::canonical_text(&s"), "{text}");
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let size = summary["suite_size"].as_u64().unwrap();
    assert_eq!(text.matches("#[test]").count() as u64, size, "{text}");
    size
}

#[test]
fn generated_tests_compile_and_pass() {
    let dir = tempfile::tempdir().unwrap();
    let krate = temp_crate(dir.path(), "emitted-tests");

    // A Box tree, an Rc/Weak cycle, an arena with fallible calls, and a bug.
    let mut expected = 0;
    expected += emit("bst", "4", "new,add", &krate.tests_dir());
    expected += emit("dll", "3", "all", &krate.tests_dir());
    expected += emit("ncl", "3", "all", &krate.tests_dir());
    expected += emit("rbt-bug-fixup", "4", "new,add,remove", &krate.tests_dir());
    // A transcoped suite: only the structures that added field values.
    expected += emit_suite("avl", "beapi", "fbt-a", "5", &krate.tests_dir());
    // A Korat suite, each structure rebuilt by the calls BEAPI found for it.
    expected += emit_suite("binheap", "korat", "fbt-a", "5", &krate.tests_dir());

    let run = krate.cargo_test(&[]);
    assert!(run.success, "{}", run.text);
    assert_eq!(run.passed(), expected, "{}", run.text);

    // The failure witness reproduces the failure.
    let run = krate.cargo_test(&["--ignored"]);
    assert!(!run.success, "the witness should fail: {}", run.text);
    assert!(run.text.contains("failure_new_add_add_add_add_remove"), "{}", run.text);
}

/// `random --out DIR` for `subject` with a fixed seed; returns the number of
/// failure groups.
fn emit_random(subject: &str, out: &Path) -> usize {
    emit_random_with_seed(subject, out, 2)
}

fn emit_random_with_seed(subject: &str, out: &Path, seed: u64) -> usize {
    let output = Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(["random", subject, "--seed", &seed.to_string(), "--sequences", "5000", "--format", "json", "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert!(output.status.code().unwrap() <= 1, "{}", String::from_utf8_lossy(&output.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    summary["failure_groups"].as_array().unwrap().len()
}

/// `cargo test --test NAME` in the generated crate: (passed, failed, output).
fn run_test_file(krate: &ScratchCrate, name: &str) -> (u64, u64, String) {
    let run = krate.cargo_test_file(name);
    assert!(run.text.contains("test result: "), "{name}: {}", run.text);
    let (passed, failed) = (run.passed(), run.failed());
    assert_eq!(run.success, failed == 0, "{name}: {}", run.text);
    (passed, failed, run.text)
}

#[test]
fn random_tests_fail_and_pass_as_generated() {
    let dir = tempfile::tempdir().unwrap();
    let krate = temp_crate(&dir.path().join("crate"), "emitted-random-tests");
    let mut error_files = Vec::new();
    for subject in ["dll-bug-remove", "binheap-bug-rebalance", "ncl-bug-hash", "dll"] {
        let out = dir.path().join("out").join(subject);
        let groups = emit_random(subject, &out);
        assert_eq!(groups > 0, subject != "dll", "{subject}: {groups} failure groups");
        for file in ["error_tests.rs", "regression_tests.rs"] {
            let path = out.join(file);
            let check = Command::new("rustfmt").args(["--check", "--edition", "2021"]).arg(&path).output().unwrap();
            assert!(
                check.status.success(),
                "{subject}/{file} is not rustfmt-clean:\n{}{}",
                String::from_utf8_lossy(&check.stdout),
                String::from_utf8_lossy(&check.stderr)
            );
        }
        let name = format!("{}_errors", subject.replace('-', "_"));
        krate.write_test(&name, &std::fs::read_to_string(out.join("error_tests.rs")).unwrap());
        error_files.push((name, groups as u64));
    }

    // The regression tests of `dll`, as generated and against the planted bug.
    let regression = std::fs::read_to_string(dir.path().join("out/dll/regression_tests.rs")).unwrap();
    let tests = regression.matches("#[test]").count() as u64;
    assert!(tests > 0, "{regression}");
    krate.write_test("dll_regression", &regression);
    krate.write_test("dll_regression_remove_bug", &with_remove_bug(&regression));

    for (name, groups) in &error_files {
        let (passed, failed, text) = run_test_file(&krate, name);
        assert_eq!((passed, failed), (0, *groups), "{name}: every error test fails:\n{text}");
    }
    let (passed, failed, text) = run_test_file(&krate, "dll_regression");
    assert_eq!((passed, failed), (tests, 0), "every regression test passes:\n{text}");
    // Against the planted bug they compile and run; whether one fails is
    // `random_regression_tests_catch_the_planted_remove_bug`.
    let (passed, failed, text) = run_test_file(&krate, "dll_regression_remove_bug");
    assert_eq!(passed + failed, tests, "{text}");
}

/// `dll`'s regression tests with `DoublyLinkedList<RemoveBug>` as the subject.
fn with_remove_bug(regression: &str) -> String {
    let subject_line = regression.lines().find(|l| l.starts_with("type Subject = ")).expect("a Subject alias");
    assert!(subject_line.contains("DoublyLinkedList"), "{subject_line}");
    let lines: Vec<String> = regression
        .lines()
        .filter(|l| *l != "use smallscope_subjects::dll::Correct;")
        .map(|l| {
            if l == subject_line {
                "use smallscope_subjects::dll::RemoveBug;\n\ntype Subject = DoublyLinkedList<RemoveBug>;".to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect();
    lines.join("\n") + "\n"
}

/// A planted change in behaviour (`remove(x)` of the last element leaves
/// `size()` one too high) makes at least one regression test of `dll` fail.
#[test]
fn random_regression_tests_catch_the_planted_remove_bug() {
    let dir = tempfile::tempdir().unwrap();
    let krate = temp_crate(&dir.path().join("crate"), "emitted-random-tests");
    for seed in SEEDS {
        let out = dir.path().join(format!("out{seed}"));
        assert_eq!(emit_random_with_seed("dll", &out, seed), 0);
        let regression = std::fs::read_to_string(out.join("regression_tests.rs")).unwrap();
        let name = format!("dll_regression_remove_bug_{seed}");
        krate.write_test(&name, &with_remove_bug(&regression));
        let (_, failed, text) = run_test_file(&krate, &name);
        assert!(failed >= 1, "seed {seed}: the regression tests miss the planted change in `remove`:\n{text}");
    }
}

/// Seeds 0-10 but 6 catch it (measured with 200 tests, 5 000 sequences);
/// the bug shows only when `remove` hits the last element.
const SEEDS: [u64; 4] = [0, 1, 2, 3];

/// Search trees over `keys` keys with at most `nodes` nodes: for each size
/// `k`, a choice of `k` keys and one of the Catalan(`k`) shapes.
fn search_trees(keys: u64, nodes: u64) -> u64 {
    let binomial = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    let catalan = |k: u64| binomial(2 * k, k) / (k + 1);
    (0..=nodes).map(|k| binomial(keys, k) * catalan(k)).sum()
}

/// Runs `smallscope beapi args.. --emit-tests file --format json`; the structure count.
fn emit_with(args: &[&str], file: &Path) -> u64 {
    let output = Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(["beapi", "--format", "json", "--no-cache", "--emit-tests"])
        .arg(file)
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.code().unwrap() <= 1, "{}", String::from_utf8_lossy(&output.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    summary["structures"].as_u64().unwrap()
}

/// A file for tens of thousands of structures holds them as a table, read
/// by a test per 4096 rows: it compiles in seconds and checks every one;
/// and a row that does not rebuild to its canonical form is named.
#[test]
fn a_table_of_ninety_thousand_structures_compiles_and_checks_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let krate = temp_crate(dir.path(), "table-tests");
    let file = krate.tests_dir().join("search_trees.rs");
    let args = ["bst", "--scope", "7", "--ints", "0..10", "--builders", "new,add", "--check", "none"];
    let structures = emit_with(&args, &file);
    assert_eq!(structures, search_trees(10, 7));
    assert_eq!(structures, 93_425);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("const STRUCTURES: &str"), "not a table");
    let tests = structures.div_ceil(4096);
    assert_eq!(text.matches("#[test]").count() as u64, tests);
    let megabytes = text.len() as f64 / 1e6;
    assert!(megabytes < 8.0, "{megabytes:.1} MB");

    // A smaller table, with one row's canonical form changed.
    let broken = krate.tests_dir().join("broken_row.rs");
    let ncl = emit_with(&["ncl", "--scope", "5", "--builders", "all", "--check", "none"], &broken);
    assert!(ncl > 500, "{ncl} structures make no table");
    let table = std::fs::read_to_string(&broken).unwrap();
    let row = table.lines().filter(|l| l.starts_with(char::is_numeric) && !l.ends_with(" ?")).nth(100).unwrap();
    let (head, _) = row.rsplit_once(' ').unwrap();
    std::fs::write(&broken, table.replacen(row, &format!("{head} {}", "0".repeat(32)), 1)).unwrap();

    let started = std::time::Instant::now();
    let run = krate.cargo_test_file("search_trees");
    assert!(run.success, "{}", run.text);
    assert_eq!(run.passed(), tests, "{}", run.text);
    eprintln!("{structures} structures in {megabytes:.1} MB: built and checked in {:?}", started.elapsed());
    let run = krate.cargo_test_file("broken_row");
    assert!(!run.success, "the changed row passes: {}", run.text);
    assert!(run.text.contains(", by s0 = new()"), "{}", run.text);
}
