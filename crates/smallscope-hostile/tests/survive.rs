//! End to end, through the harness binary: every hostile subject's bug is a
//! finding, named for what happened, with the operation and a witness;
//! the run ends by itself; what was found before is in `--out`.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;
use smallscope_hostile::{STRUCTURES_BEFORE_TRIGGER, WITNESS};

/// The call timeout the tests give: a hang costs this much.
const TIMEOUT: u64 = 2;
/// What a run may take beyond the call timeout (a debug build, two cores).
const SLACK: Duration = Duration::from_secs(20);

fn harness(args: &[&str], dir: &Path) -> (Output, Duration) {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_smallscope-hostile"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the harness runs");
    (output, started.elapsed())
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A BEAPI run at scope 3 with builders new and push, written to `out`.
fn beapi(subject: &str, extra: &[&str]) -> (tempfile::TempDir, Output, Duration, Value) {
    let dir = tempfile::tempdir().unwrap();
    let timeout = TIMEOUT.to_string();
    let mut args = vec!["beapi", subject, "--scope", "3", "--builders", "new,push", "--out", "out"];
    args.extend(["--call-timeout", &timeout]);
    args.extend_from_slice(extra);
    let (output, elapsed) = harness(&args, dir.path());
    let summary = read_json(&dir.path().join("out/summary.json"));
    (dir, output, elapsed, summary)
}

/// The canonical texts `out/structures.jsonl` holds.
fn structures(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("out/structures.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["canonical"].as_str().unwrap().to_owned())
        .collect()
}

/// The stacks of length at most 3 over {0, 1, 2}, top first: 40, counted
/// here, not by smallscope.
fn all_stacks() -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    let mut level = vec![Vec::new()];
    for _ in 0..3 {
        let next: Vec<Vec<u8>> =
            level.iter().flat_map(|s: &Vec<u8>| (0..3u8).map(move |x| [vec![x], s.clone()].concat())).collect();
        all.extend(next.iter().cloned());
        level = next;
    }
    all
}

/// The canonical text of a stack, as the linearizer writes it.
fn canonical(stack: &[u8]) -> String {
    let mut text = String::from("null");
    for (depth, value) in stack.iter().enumerate().rev() {
        text = format!("Node#{}{{value: {value}, next: {text}}}", depth + 1);
    }
    text
}

/// Asserts the one failure group: kind, user code, operation and witness.
fn assert_finding(summary: &Value, kind: &str, during: &str, operation: Option<&str>, witness: &str) {
    let groups = summary["failure_groups"].as_array().expect("failure groups");
    assert_eq!(groups.len(), 1, "{summary:#}");
    let group = &groups[0];
    assert_eq!(group["kind"], kind, "{group:#}");
    assert_eq!(group["during"], during, "{group:#}");
    assert_eq!(group["operation"].as_str(), operation, "{group:#}");
    assert_eq!(group["witness"]["text"], witness, "{group:#}");
}

/// Asserts the structures in `out`: every stack made before the trigger,
/// and no stack that exists only past it.
fn assert_kept(dir: &Path, missing: &[&[u8]]) {
    let kept = structures(dir);
    assert!(kept.len() >= STRUCTURES_BEFORE_TRIGGER, "{} structures", kept.len());
    for stack in all_stacks() {
        let text = canonical(&stack);
        let expected = !missing.contains(&stack.as_slice());
        assert_eq!(kept.iter().any(|k| k.contains(&format!("{{top: {text}}}"))), expected, "{stack:?} in {kept:?}");
    }
}

#[test]
fn beapi_survives_every_misbehaviour_in_push() {
    for (subject, kind) in [
        ("hostile-recursion", "stack-overflow"),
        ("hostile-abort", "abort"),
        ("hostile-exit", "exit"),
        ("hostile-loop", "hang"),
    ] {
        let (dir, output, elapsed, summary) = beapi(subject, &[]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{subject}: {stderr}");
        assert!(elapsed < Duration::from_secs(2 * TIMEOUT) + SLACK, "{subject}: {elapsed:?}");
        assert_finding(&summary, kind, "call", Some("push"), WITNESS);
        assert_eq!(summary["stop"], "complete", "{subject}");
        // Once to confirm the death by running the input again, once past it.
        assert_eq!(summary["restarts"], 2, "{subject}");
        // The trigger call made nothing: [0, 2, 1] is not there; the rest is.
        assert_kept(dir.path(), &[&[0, 2, 1]]);
        assert!(stderr.contains(&format!("found: {kind} in `push`")), "{subject}: {stderr}");
        let events = std::fs::read_to_string(dir.path().join("out/events.ndjson")).unwrap();
        assert!(events.contains(&format!("\"kind\":\"{kind}\"")), "{subject}");
    }
}

#[test]
fn beapi_survives_clone_drop_and_rep_ok_misbehaving() {
    let clone_witness = "s0 = new(); s0.push(1); s0.push(2); s0.clone()";
    // The first call to clone that stack is `pop`, checked on every
    // structure of its level before the next level pushes onto it.
    for (subject, kind, during, operation, witness) in [
        ("hostile-loop-clone", "hang", "clone", Some("pop"), clone_witness),
        ("hostile-panic-clone", "panic", "clone", Some("pop"), clone_witness),
        ("hostile-loop-rep-ok", "hang", "rep-ok", Some("push"), WITNESS),
        ("hostile-panic-rep-ok", "panic", "rep-ok", Some("push"), WITNESS),
        // The first value of that stack dropped is the one `len`, checked
        // on every structure, left.
        ("hostile-panic-drop", "panic", "drop", Some("len"), "s0 = new(); s0.push(1); s0.push(2); s0.len(); drop(s0)"),
    ] {
        let (dir, output, elapsed, summary) = beapi(subject, &[]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{subject}: {stderr}");
        assert!(elapsed < Duration::from_secs(2 * TIMEOUT) + SLACK, "{subject}: {elapsed:?}");
        assert_finding(&summary, kind, during, operation, witness);
        // A broken Clone only costs the fast path: replay builds everything.
        let missing: &[&[u8]] = if during == "rep-ok" { &[&[0, 2, 1]] } else { &[] };
        assert_kept(dir.path(), missing);
    }
}

#[test]
fn memory_runaways_stop_near_the_limit() {
    let limit: u64 = 64;
    for (subject, restarts, stop) in [("hostile-alloc-bomb", 2, "complete"), ("hostile-leak", 0, "memory-limit")] {
        let (dir, output, elapsed, summary) = beapi(subject, &["--memory-limit-mb", &limit.to_string()]);
        assert_eq!(output.status.code(), Some(1), "{subject}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(elapsed < SLACK, "{subject}: {elapsed:?}");
        let group = &summary["failure_groups"][0];
        assert_eq!((group["kind"].as_str(), group["operation"].as_str()), (Some("out-of-memory"), Some("push")));
        assert_eq!(summary["restarts"], restarts, "{subject}");
        assert_eq!(summary["stop"], stop, "{subject}");
        let peak = summary["peak_memory_bytes"].as_u64().unwrap();
        assert!(peak as f64 <= limit as f64 * 1.1 * 1048576.0, "{subject}: peak {} MiB", peak >> 20);
        // The bomb's call made nothing; the leak keeps what came before its stop.
        if subject == "hostile-alloc-bomb" {
            assert_eq!(group["witness"]["text"], WITNESS);
            assert_kept(dir.path(), &[&[0, 2, 1]]);
        } else {
            assert!(structures(dir.path()).len() >= STRUCTURES_BEFORE_TRIGGER);
        }
    }
}

#[test]
fn random_memory_runaways_stop_near_the_limit() {
    // Random testing keeps every sequence it makes: under 64 MiB, a debug
    // build's own pool can reach the limit in 3 s, so the bomb, whose run
    // should go on to its time limit, gets more room.
    for (subject, limit, stop) in [("hostile-alloc-bomb", 128u64, "time-limit"), ("hostile-leak", 64, "memory-limit")] {
        let dir = tempfile::tempdir().unwrap();
        let limit_text = limit.to_string();
        let args = ["random", subject, "--time-limit", "3s", "--memory-limit-mb", &limit_text, "--out", "out"];
        let (output, elapsed) = harness(&args, dir.path());
        assert_eq!(output.status.code(), Some(1), "{subject}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(elapsed < Duration::from_secs(3) + SLACK, "{subject}: {elapsed:?}");
        let summary = read_json(&dir.path().join("out/summary.json"));
        let group = &summary["failure_groups"][0];
        assert_eq!((group["kind"].as_str(), group["operation"].as_str()), (Some("out-of-memory"), Some("push")));
        assert!(group["witness"]["text"].as_str().unwrap().starts_with("s0 = new(); s0.push("), "{group:#}");
        assert_eq!(summary["stop"], stop, "{subject}");
        let peak = summary["peak_memory_bytes"].as_u64().unwrap();
        assert!(peak as f64 <= limit as f64 * 1.1 * 1048576.0, "{subject}: peak {} MiB", peak >> 20);
    }
}

#[test]
fn random_testing_survives_hangs_and_crashes() {
    for (subject, kind, during) in [
        ("hostile-loop", "hang", "call"),
        ("hostile-loop-clone", "hang", "clone"),
        ("hostile-loop-rep-ok", "hang", "check"),
        ("hostile-recursion", "stack-overflow", "call"),
        ("hostile-abort", "abort", "call"),
        ("hostile-panic-drop", "panic", "drop"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let timeout = TIMEOUT.to_string();
        let args = ["random", subject, "--time-limit", "3s", "--call-timeout", &timeout, "--out", "out"];
        let (output, elapsed) = harness(&args, dir.path());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{subject}: {stderr}");
        assert!(elapsed < Duration::from_secs(3 + 3 * TIMEOUT) + SLACK, "{subject}: {elapsed:?}");
        let summary = read_json(&dir.path().join("out/summary.json"));
        let groups = summary["failure_groups"].as_array().unwrap();
        let found = groups.iter().find(|g| g["kind"] == kind && g["during"] == during);
        let found = found.unwrap_or_else(|| panic!("{subject}: no {kind} in {during}: {summary:#}"));
        assert!(found["witness"]["calls"].as_u64().unwrap() >= 3, "{subject}: {found:#}");
        // The error tests were written, one per group.
        let tests = std::fs::read_to_string(dir.path().join("out/error_tests.rs")).unwrap();
        assert_eq!(tests.matches("#[test]").count(), groups.len(), "{subject}");
    }
}

#[test]
fn korat_survives_rep_ok_misbehaving_on_any_thread_count() {
    for threads in ["1", "2"] {
        // Two restarts per culprit (one runs it again to confirm it), whether
        // the split probe or the search met it first.
        for (subject, kind, restarts) in [
            ("hostile-korat-loop", "hang", 2),
            ("hostile-korat-overflow", "stack-overflow", 2),
            ("hostile-korat-panic", "panic", 0),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let timeout = TIMEOUT.to_string();
            let args =
                ["korat", subject, "--scope", "3", "--threads", threads, "--call-timeout", &timeout, "--out", "out"];
            let (output, elapsed) = harness(&args, dir.path());
            assert_eq!(output.status.code(), Some(1), "{subject}: {}", String::from_utf8_lossy(&output.stderr));
            assert!(elapsed < Duration::from_secs(2 * TIMEOUT) + SLACK, "{subject}: {elapsed:?}");
            let summary = read_json(&dir.path().join("out/summary.json"));
            let group = &summary["failure_groups"][0];
            assert_eq!((group["kind"].as_str(), group["during"].as_str()), (Some(kind), Some("rep-ok")), "{subject}");
            assert_eq!(summary["restarts"], restarts, "{subject}, {threads} threads");
            // Catalan(3) trees but the one rep_ok failed on.
            assert_eq!(summary["structures"], 4, "{subject}, {threads} threads");
            let candidate = group["witness"]["input"]["candidate"].as_array().unwrap();
            assert!(!candidate.is_empty());
            // Every valid tree found is in --out.
            let lines = std::fs::read_to_string(dir.path().join("out/structures.jsonl")).unwrap();
            assert_eq!(lines.lines().count(), 4);
        }
    }
}

#[test]
fn korat_survives_a_check_that_kills_its_worker_and_counts_the_tree_it_died_on() {
    for threads in ["1", "2"] {
        let dir = tempfile::tempdir().unwrap();
        let args = ["korat", "hostile-korat-check-overflow", "--scope", "3", "--threads", threads, "--out", "out"];
        let (output, _) = harness(&args, dir.path());
        assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
        let summary = read_json(&dir.path().join("out/summary.json"));
        let groups = summary["failure_groups"].as_array().unwrap();
        assert_eq!(groups.len(), 1, "{summary}");
        let group = &groups[0];
        assert_eq!((group["kind"].as_str(), group["during"].as_str()), (Some("stack-overflow"), Some("check")));
        assert_eq!(group["contract"], "check", "{group}");
        // Once, and once more to confirm it.
        assert_eq!(summary["restarts"], 2, "{threads} threads");
        // rep_ok held on the tree the check died on: all Catalan(3) trees.
        assert_eq!(summary["structures"], 5, "{threads} threads");
        let lines = std::fs::read_to_string(dir.path().join("out/structures.jsonl")).unwrap();
        assert_eq!(lines.lines().count(), 5);
    }
}

#[test]
fn a_harness_rebuilt_during_the_run_still_restarts_its_worker() {
    // As `cargo build` does mid-run: the binary's file is replaced while the
    // worker hangs, and the restarted worker must still be this binary.
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("harness");
    std::fs::copy(env!("CARGO_BIN_EXE_smallscope-hostile"), &copy).unwrap();
    let timeout = TIMEOUT.to_string();
    let args = ["beapi", "hostile-loop", "--scope", "3", "--builders", "new,push", "--call-timeout", &timeout];
    let child = Command::new(&copy)
        .args(args)
        .args(["--out", "out"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    std::fs::remove_file(&copy).unwrap();
    std::fs::write(&copy, "#!/bin/sh\nexit 99\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = read_json(&dir.path().join("out/summary.json"));
    assert_eq!(summary["restarts"], 2);
    assert_finding(&summary, "hang", "call", Some("push"), WITNESS);
}

/// A derived `Debug` on a cyclic `Rc` heap recurses around the cycle
/// inside the random tester's `debug-does-not-panic` contract, on every
/// cyclic value. The contract counts what `Debug` writes and stops it at
/// 16 MiB, before the stack overflows: each cyclic value is a contract
/// failure, with no restart, and the run goes on to its time limit.
///
/// Stopping `Debug` takes a good part of a second in a debug build on a
/// busy machine: the limit leaves the call timeout (a tenth of it) room
/// for that, or the first such call may hang and then return when run
/// again (reported as flaky, rightly).
#[test]
fn random_survives_debug_following_every_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["random", "hostile-cyclic-debug", "--time-limit", "8s", "--out", "out"];
    let (output, elapsed) = harness(&args, dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(elapsed < Duration::from_secs(8) + SLACK, "{elapsed:?}");
    let summary = read_json(&dir.path().join("out/summary.json"));
    assert_eq!((summary["stop"].as_str(), summary["restarts"].as_u64()), (Some("time-limit"), Some(0)), "{summary:#}");
    let groups = summary["failure_groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{summary:#}");
    let group = &groups[0];
    assert_eq!((group["kind"].as_str(), group["during"].as_str()), (Some("contract"), Some("check")));
    assert_eq!(
        (group["contract"].as_str(), group["operation"].as_str()),
        (Some("debug-does-not-panic"), Some("close"))
    );
    assert!(group["message"].as_str().unwrap().contains("wrote more than 16 MiB"), "{group:#}");
    let witness = group["witness"]["text"].as_str().unwrap();
    assert!(witness.starts_with("s0 = new(); s0.push(") && witness.ends_with("s0.close()"), "{witness}");
}

/// Another subject's code aborts while its structures are made for this
/// run's parameter: the worker is restarted past that call, and the run
/// ends with every length of stack the other subject still makes.
#[test]
fn beapi_survives_an_abort_in_another_subjects_code() {
    let dir = tempfile::tempdir().unwrap();
    let (output, _) = harness(&["beapi", "hostile-takes-abort", "--scope", "3", "--out", "out"], dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let summary = read_json(&dir.path().join("out/summary.json"));
    assert_eq!(summary["stop"], "complete", "{summary}");
    assert_eq!(summary["restarts"], 2, "{summary}");
    assert_eq!(summary["structures"], 4, "lengths 0 to 3: {summary}");
    let notes = summary["notes"].as_array().unwrap();
    let note =
        notes.iter().filter_map(|n| n.as_str()).find(|n| n.contains("HostileStack")).expect("a note on the stacks");
    assert!(note.contains("its own code failed (1 failure groups)"), "{note}");
}

/// A returned value whose `Debug` is 4 GiB is cut at 64 KiB, and a subject
/// whose own `Debug` is that long fails `debug-does-not-panic`: the run
/// ends in seconds, with one failure group, instead of never.
#[test]
fn random_survives_a_debug_of_gigabytes() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["random", "hostile-huge-debug", "--sequences", "2000", "--out", "out"];
    let (output, elapsed) = harness(&args, dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    let summary = read_json(&dir.path().join("out/summary.json"));
    let groups = summary["failure_groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{summary:#}");
    assert_eq!(groups[0]["contract"], "debug-does-not-panic", "{summary:#}");
    assert!(groups[0]["message"].as_str().unwrap().contains("more than 16 MiB"), "{summary:#}");
    let tests = std::fs::read_to_string(dir.path().join("out/regression_tests.rs")).unwrap();
    assert!(!tests.contains("Debug output cut"), "a cut text is asserted");
}

/// In this process (`--no-isolation`, as in library mode), `exit()` from the
/// code under test cannot be survived: it ends the run with one line that
/// says so and status 2, not with the status the code gave (which may be 0).
#[test]
fn an_exit_in_process_says_so_and_is_not_a_success() {
    let dir = tempfile::tempdir().unwrap();
    let (output, _) = harness(&["beapi", "hostile-exit", "--scope", "3", "--no-isolation"], dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("error: the code under test ended the process (exit) during call"), "{stderr}");
}

/// A thread of the code under test that calls `exit(0)`, and code that
/// closes the worker's descriptors, end the worker between calls, with no
/// input to blame: the run says which it was (not "a smallscope bug"),
/// keeps what it committed, and exits 2.
#[test]
fn a_worker_ended_outside_any_call_is_named_and_its_run_kept() {
    let cases = [
        ("hostile-thread-exit", "exit(0) was called outside any call: by a thread the code under test started?"),
        ("hostile-closes-fds", "a file descriptor the worker owns was closed under it"),
    ];
    for (subject, cause) in cases {
        let dir = tempfile::tempdir().unwrap();
        let (output, _) = harness(&["beapi", subject, "--scope", "3", "--out", "out"], dir.path());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{subject}: {stderr}");
        assert!(stderr.contains(cause), "{subject}: {stderr}");
        // Kept to be carried on (the harm comes early: little is committed).
        let summary = read_json(&dir.path().join("out/summary.json"));
        assert_eq!(summary["stop"], "interrupted", "{summary:#}");
        assert!(summary["resume"].as_str().unwrap().ends_with("--resume"), "{summary:#}");
    }
}

/// Code under test that forks without bound is stopped at 64 processes:
/// the worker's process group is killed, the call is a `crash` finding,
/// the run goes on, and no process is left behind.
#[test]
fn a_fork_bomb_is_a_finding_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let (output, elapsed) = harness(&["beapi", "hostile-forks", "--scope", "3", "--out", "out"], dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    let summary = read_json(&dir.path().join("out/summary.json"));
    assert_finding(&summary, "crash", "call", Some("push"), WITNESS);
    let message = summary["failure_groups"][0]["message"].as_str().unwrap();
    assert!(message.contains("started more than 64 processes"), "{message}");
    // Every process the run started worked in `dir`: none is left.
    let left = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| std::fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd == dir.path()))
        .count();
    assert_eq!(left, 0, "processes left behind");
}

/// Random testing's default limit (10 s) is as hard as a given one: a call
/// that hangs costs a tenth of it, not the 10 s call timeout, so a looping
/// operation is found, confirmed and quarantined within the limit.
#[test]
fn random_with_defaults_ends_near_its_default_limit_on_a_looping_operation() {
    let dir = tempfile::tempdir().unwrap();
    let (output, elapsed) = harness(&["random", "hostile-loop", "--out", "out"], dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(elapsed < Duration::from_secs(10) + SLACK, "{elapsed:?}");
    let summary = read_json(&dir.path().join("out/summary.json"));
    let groups = summary["failure_groups"].as_array().unwrap();
    assert!(groups.iter().any(|g| g["kind"] == "hang" && g["during"] == "call"), "{summary:#}");
}
