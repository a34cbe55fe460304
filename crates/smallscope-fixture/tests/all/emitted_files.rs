//! Every Rust file smallscope emits compiles and behaves, for every API
//! subject the harness knows (the built-in ones and this crate's): BEAPI's
//! structure tests (`--emit-tests`) and the random tester's error and
//! regression tests (`--out`). They go into one crate, as a user adds them
//! to theirs, each file a module of one test binary. Structure and
//! regression tests pass; error tests fail; BEAPI's failure witnesses are
//! ignored and fail when run.

use std::collections::BTreeMap;

use smallscope_scratch_crate::ScratchCrate;

fn harness(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_smallscope-fixture")).args(args).output().expect("the harness runs")
}

/// The subjects BEAPI and the random tester can run, by `list`.
fn api_subjects() -> Vec<String> {
    let output = harness(&["list"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter(|line| line.contains("beapi") && line.contains("random"))
        .map(|line| line.split_whitespace().next().unwrap().to_owned())
        // Its hangs cost a call timeout each: `hang_witnesses.rs` runs it with a short one.
        .filter(|name| name != "fixture-stuck-ring")
        .collect()
}

/// The verdict of each test run: `module::name` to `ok`, `FAILED` or `ignored, ..`.
fn verdicts(krate: &ScratchCrate, test_args: &[&str]) -> BTreeMap<String, String> {
    let run = krate.cargo_test_file_with("emitted", test_args);
    assert!(!run.text.contains("error[E"), "an emitted file does not compile:\n{}", run.text);
    run.text
        .lines()
        .filter_map(|line| line.strip_prefix("test ")?.split_once(" ... "))
        .map(|(name, verdict)| (name.to_owned(), verdict.trim().to_owned()))
        .collect()
}

#[test]
fn every_emitted_file_compiles_and_behaves() {
    let dir = tempfile::tempdir().unwrap();
    let krate = ScratchCrate::new(
        &dir.path().join("crate"),
        "emitted-files",
        &["smallscope", "smallscope-subjects", "smallscope-fixture", "lru-graph"],
    );
    let files = krate.tests_dir().join("emitted");
    std::fs::create_dir_all(&files).unwrap();

    let subjects = api_subjects();
    assert!(subjects.iter().any(|s| s == "bst") && subjects.iter().any(|s| s == "fixture-lru-buggy"), "{subjects:?}");
    let mut modules = Vec::new();
    for subject in &subjects {
        let module = subject.replace('-', "_");
        let beapi = files.join(format!("{module}_beapi.rs"));
        let output =
            harness(&["beapi", subject, "--scope", "3", "--no-cache", "--emit-tests", beapi.to_str().unwrap()]);
        assert!(output.status.code().unwrap() <= 1, "{subject}: {}", String::from_utf8_lossy(&output.stderr));
        let out = dir.path().join("random").join(subject);
        let output = harness(&["random", subject, "--sequences", "2000", "--out", out.to_str().unwrap()]);
        assert!(output.status.code().unwrap() <= 1, "{subject}: {}", String::from_utf8_lossy(&output.stderr));
        std::fs::copy(out.join("error_tests.rs"), files.join(format!("{module}_errors.rs"))).unwrap();
        std::fs::copy(out.join("regression_tests.rs"), files.join(format!("{module}_regression.rs"))).unwrap();
        modules.extend(["beapi", "errors", "regression"].map(|kind| format!("{module}_{kind}")));
    }
    let main: String = modules.iter().map(|m| format!("#[path = \"emitted/{m}.rs\"]\nmod {m};\n")).collect();
    krate.write_test("emitted", &main);

    let run = verdicts(&krate, &[]);
    let witnesses = verdicts(&krate, &["--ignored"]);
    for module in &modules {
        let prefix = format!("{module}::");
        let of_module = |verdicts: &BTreeMap<String, String>| -> Vec<(String, String)> {
            verdicts.iter().filter(|(name, _)| name.starts_with(&prefix)).map(|(n, v)| (n.clone(), v.clone())).collect()
        };
        for (name, verdict) in of_module(&run) {
            let expected = if module.ends_with("_errors") { "FAILED" } else { "ok" };
            if !verdict.starts_with("ignored") {
                assert_eq!(verdict, expected, "{name}");
            }
        }
        for (name, verdict) in of_module(&witnesses) {
            assert_eq!(verdict, "FAILED", "{name}: an ignored failure witness reproduces its failure");
        }
    }
    // The fixture's planted bugs are there to be found, by both engines.
    assert!(run.keys().any(|name| name.starts_with("fixture_lru_buggy_errors::")), "{run:?}");
    assert!(witnesses.keys().any(|name| name.starts_with("fixture_lru_buggy_beapi::")), "{witnesses:?}");
    assert!(run.iter().any(|(name, v)| name.starts_with("fixture_graph_regression::") && v == "ok"), "{run:?}");
}
