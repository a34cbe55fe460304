//! `cargo smallscope` on a user's crate with planted bugs (`fixtures/lru-graph`,
//! copied as a user clones it): `init`, `list`, BEAPI finding the LRU
//! cache's free-list bug with a minimal witness, and the generated tests
//! under `cargo test` in that crate: the regression tests pass, the
//! witnesses fail until the bug is fixed.

use crate::common;

use common::{cargo_smallscope, initialized, summary, target_dir};
use smallscope_scratch_crate::ScratchCrate;

#[test]
fn beapi_finds_the_planted_bug_and_the_tests_it_writes_fail_until_it_is_fixed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = initialized("lru-graph", tmp.path());

    let listed = cargo_smallscope(&dir, &["list"]);
    assert_eq!(listed.code, 0, "{listed:?}");
    for line in ["fixture-lru-buggy", "type lru_graph::lru::Lru<lru_graph::lru::Buggy>", "fixture-graph"] {
        assert!(listed.stdout.contains(line), "list does not show {line}:\n{}", listed.stdout);
    }

    // With the harness built, a bad subject name is one line, as a bad option is.
    let unknown = cargo_smallscope(&dir, &["beapi", "no-such-subject", "--scope", "2"]);
    assert_eq!(unknown.code, 2, "{unknown:?}");
    assert_eq!(unknown.error_lines().len(), 1, "{unknown:?}");
    assert!(unknown.stderr.contains("unknown subject `no-such-subject`"), "{unknown:?}");
    assert!(!unknown.stderr.contains("tests:"), "no tests were written: {unknown:?}");

    // Test files the user names are written there, and the test targets left alone.
    let named = cargo_smallscope(&dir, &["beapi", "fixture-graph", "--scope", "2", "--emit-tests", "tests/mine.rs"]);
    assert_eq!(named.code, 0, "{named:?}");
    assert!(!named.stderr.contains("tests:") && !dir.join("tests/smallscope_fixture_graph").exists(), "{named:?}");
    let mine = ScratchCrate::open(&dir).cargo_test_file("mine");
    assert!(mine.success && mine.passed() > 0, "{}", mine.text);

    let found = cargo_smallscope(&dir, &["beapi", "fixture-lru-buggy", "--scope", "3", "--failing-tests", "separate"]);
    assert_eq!(found.code, 1, "failures found: {found:?}");
    assert!(found.stdout.contains("replay: cargo smallscope beapi fixture-lru-buggy --scope 3"), "{}", found.stdout);
    let lru = summary("fixture-lru-buggy", "beapi");
    let groups = lru["failure_groups"].as_array().unwrap();
    assert!(!groups.is_empty());
    // The bug needs a freed slot reused: new, put, remove or pop_oldest,
    // put. No three calls show it (fixture tests/lru.rs checks every one).
    let shortest = groups.iter().min_by_key(|g| g["witness"]["calls"].as_u64()).unwrap();
    assert_eq!(shortest["witness"]["calls"], 4, "{shortest}");
    let text = shortest["witness"]["text"].as_str().unwrap();
    let calls: Vec<&str> =
        text.split("; ").map(|c| c.split(['(', '.']).find(|w| w.contains(char::is_alphabetic)).unwrap()).collect();
    assert!(text.starts_with("s0 = new("), "{text}");
    assert!(text.contains(".put(") && (text.contains(".remove(") || text.contains(".pop_oldest(")), "{calls:?}");

    // Builders of the user's graph, by the genetic algorithm (the default).
    // Written from the API: nodes come only from `add_node` and edges only
    // from `add_edge`; a removed edge is one never added; the rest read.
    let builders = cargo_smallscope(&dir, &["builders", "fixture-graph", "--scope", "3"]);
    assert_eq!(builders.code, 0, "{builders:?}");
    assert!(builders.stdout.contains("replay: cargo smallscope builders fixture-graph"), "{}", builders.stdout);
    let identified = summary("fixture-graph", "builders");
    assert_eq!(identified["method"], "ga", "{identified}");
    assert_eq!(identified["builders"], serde_json::json!(["new", "add_node", "add_edge"]), "{identified}");
    let mut observers: Vec<&str> =
        identified["observers"].as_array().unwrap().iter().map(|o| o.as_str().unwrap()).collect();
    observers.sort_unstable();
    assert_eq!(observers, ["has_edge", "label", "node_count", "out_degree"], "{identified}");
    assert_eq!(identified["structures_builders"], identified["structures_api"], "{identified}");
    // BEAPI picks the cached set up.
    let graph = cargo_smallscope(&dir, &["beapi", "fixture-graph", "--scope", "2", "--builders", "auto"]);
    assert_eq!(graph.code, 0, "{graph:?}");
    let beapi = summary("fixture-graph", "beapi");
    assert_eq!(beapi["builders"], identified["builders"], "{beapi}");
    // A field coverage suite of the same subject: a module beside BEAPI's.
    let suite_run = cargo_smallscope(&dir, &["suite", "fixture-graph", "--engine", "beapi", "--scope", "3"]);
    assert_eq!(suite_run.code, 0, "{suite_run:?}");
    let suite_file = std::fs::read_to_string(dir.join("tests/smallscope_fixture_graph/suite.rs")).unwrap();
    // The command that regenerates it is the one typed: the file's path is implied.
    assert!(
        suite_file.contains("//! Regenerate with: cargo smallscope suite fixture-graph --engine beapi"),
        "{suite_file}"
    );
    assert!(!suite_file.contains("--emit-tests"), "{suite_file}");
    let suite_size = summary("fixture-graph", "suite")["suite_size"].as_u64().unwrap();
    assert!(suite_size >= 2, "{suite_size}");

    let krate = ScratchCrate::open(&dir);
    let passing = krate.cargo_test_file("smallscope_fixture_lru_buggy");
    assert!(passing.success, "{}", passing.text);
    assert_eq!(passing.passed(), lru["structures"].as_u64().unwrap(), "one test per structure");
    let failing = krate.cargo_test_file("smallscope_fixture_lru_buggy_failing");
    assert!(!failing.success, "the witnesses pass:\n{}", failing.text);
    assert_eq!(failing.failed(), groups.len() as u64, "{}", failing.text);
    let graph_tests = krate.cargo_test_file("smallscope_fixture_graph");
    assert!(graph_tests.success, "{}", graph_tests.text);
    let structures = summary("fixture-graph", "beapi")["structures"].as_u64().unwrap();
    assert_eq!(graph_tests.passed(), structures + suite_size, "BEAPI's tests and the suite's");

    // The same run with the witnesses ignored: `cargo test` passes, and
    // `-- --ignored` runs them, failing.
    let ignored = cargo_smallscope(&dir, &["beapi", "fixture-lru-buggy", "--scope", "3"]);
    assert_eq!(ignored.code, 1, "{ignored:?}");
    assert!(!dir.join("tests/smallscope_fixture_lru_buggy_failing.rs").exists(), "the separate target is left");
    let all = krate.cargo_test(&[]);
    assert!(all.success, "{}", all.text);
    let witnesses = krate.cargo_test_file_with("smallscope_fixture_lru_buggy", &["--ignored"]);
    assert_eq!(witnesses.failed(), groups.len() as u64, "{}", witnesses.text);

    // The run's files: the versioned events and a report with the failure.
    let out = target_dir().join("smallscope/fixture-lru-buggy/beapi");
    let events = std::fs::read_to_string(out.join("events.ndjson")).unwrap();
    assert!(events.lines().next().unwrap().contains("\"schema\":1"), "{events}");
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains("id=\"failures\"") && report.contains("class=\"failure\""));

    // Ctrl-C sent to `cargo smallscope` alone (`kill -INT`) reaches the
    // harness, once: the run stops, writes what it found, and exits 130.
    let harness = common::harness_lock();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-smallscope"))
        .args(["smallscope", "random", "fixture-lru-buggy", "--time-limit", "120s"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut told = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("found:") {
        line.clear();
        assert!(std::io::BufRead::read_line(&mut told, &mut line).unwrap() > 0, "the run ended first");
    }
    let sent = std::time::Instant::now();
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let status = child.wait().unwrap();
    drop(harness);
    assert_eq!(status.code(), Some(130));
    assert!(sent.elapsed() < std::time::Duration::from_secs(10), "{:?}", sent.elapsed());
    let random = summary("fixture-lru-buggy", "random");
    assert_eq!(random["stop"], "interrupted", "{random:#}");
    assert!(!random["failure_groups"].as_array().unwrap().is_empty(), "{random:#}");
}
