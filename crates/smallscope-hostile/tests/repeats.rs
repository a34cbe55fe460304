//! A bug that fires on many inputs costs a few restarts, not one per input:
//! the supervisor confirms the first death by running its input again, and
//! after `--max-repeats` (3) confirmed deaths of one group the operation is
//! quarantined. Each run uses the command's defaults (a 10 s call timeout),
//! ends by itself, names the quarantined operation, keeps every structure
//! and exits with 1.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Without quarantine, each of the 320 stacks of 3 or 4 numbers at scope 4
/// would cost the 10 s call timeout: most of an hour. With it, BEAPI's
/// default run (builder identification first) costs five timeouts (observer
/// detection's input and its confirmation, two more in the builders search,
/// which quarantine, and the search's own), 51 s measured.
const LIMIT: Duration = Duration::from_secs(60);

/// One run at a time: each spins a core in its hangs, and is timed.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn harness(args: &[&str], dir: &Path) -> (Output, Duration) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_smallscope-hostile")).args(args).current_dir(dir).output().unwrap();
    (output, started.elapsed())
}

fn summary(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("out/summary.json")).unwrap()).unwrap()
}

fn quarantine_note(summary: &Value, kind: &str) -> String {
    let notes = summary["notes"].as_array().unwrap();
    let note = notes.iter().filter_map(Value::as_str).find(|n| n.contains("quarantined"));
    let note = note.unwrap_or_else(|| panic!("no quarantine note: {notes:?}")).to_owned();
    // Three in the run, or more with those of builder identification before it.
    let repeats: u32 = note["`inspect` quarantined after ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!(repeats >= 3 && note.contains(&format!(" confirmed {kind} findings")), "{note}");
    note
}

/// Stacks of at most 4 numbers from BEAPI's default domain 0..4: 1 + 4 + 16 + 64 + 256.
const STACKS_AT_SCOPE_4: u64 = 341;

#[test]
fn beapi_quarantines_an_operation_that_hangs_on_every_long_stack() {
    let dir = tempfile::tempdir().unwrap();
    let (output, elapsed) = harness(&["beapi", "hostile-repeat-loop", "--scope", "4", "--out", "out"], dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(elapsed < LIMIT, "{elapsed:?}: {stderr}");
    let summary = summary(dir.path());
    assert_eq!(summary["structures"], STACKS_AT_SCOPE_4, "{summary:#}");
    let note = quarantine_note(&summary, "hang");
    assert!(note.contains("later calls were not made"), "{note}");
    let group = &summary["failure_groups"][0];
    assert_eq!((group["kind"].as_str(), group["operation"].as_str()), (Some("hang"), Some("inspect")));
    // Builder identification met the bug first; its confirmed deaths count
    // towards the quarantine, and the search meets and reports it itself.
    assert!(group["count"].as_u64().unwrap() >= 1, "{summary:#}");
    let witness = group["witness"]["text"].as_str().unwrap();
    assert_eq!(witness.matches(".push(").count(), 3, "the shortest stack it hangs on: {witness}");
    // Every structure is kept in --out.
    let kept = std::fs::read_to_string(dir.path().join("out/structures.jsonl")).unwrap();
    assert_eq!(kept.lines().count() as u64, STACKS_AT_SCOPE_4);
}

#[test]
fn beapi_quarantines_an_operation_that_allocates_without_bound() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["beapi", "hostile-repeat-alloc", "--scope", "4", "--memory-limit-mb", "512", "--out", "out"];
    let (output, elapsed) = harness(&args, dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(elapsed < LIMIT, "{elapsed:?}");
    let summary = summary(dir.path());
    assert_eq!(summary["structures"], STACKS_AT_SCOPE_4, "{summary:#}");
    quarantine_note(&summary, "out-of-memory");
    let group = &summary["failure_groups"][0];
    assert_eq!((group["kind"].as_str(), group["operation"].as_str()), (Some("out-of-memory"), Some("inspect")));
}

#[test]
fn random_quarantines_an_operation_that_hangs_on_every_long_stack() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["random", "hostile-repeat-loop", "--sequences", "20000", "--out", "out"];
    let (output, elapsed) = harness(&args, dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(elapsed < LIMIT, "{elapsed:?}: {stderr}");
    let summary = summary(dir.path());
    assert_eq!(summary["stop"], "sequence-limit", "{summary:#}");
    assert_eq!(summary["sequences"], 20000, "{summary:#}");
    quarantine_note(&summary, "hang");
    let group = &summary["failure_groups"][0];
    assert_eq!((group["kind"].as_str(), group["operation"].as_str()), (Some("hang"), Some("inspect")));
    // The first input is run twice to confirm it; past the third, no sequence calls `inspect`.
    assert_eq!((group["count"].as_u64(), summary["restarts"].as_u64()), (Some(3), Some(4)), "{summary:#}");
    // Regression tests leave the quarantined observer out rather than hang on it.
    assert!(summary["regression_test_count"].as_u64().unwrap() > 0, "{summary:#}");
}

/// With only a time limit, the call timeout shrinks to fit it: the hang is
/// found, confirmed and quarantined before the limit, not cut off by it.
#[test]
fn a_short_time_limit_still_finds_and_quarantines_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["random", "hostile-repeat-loop", "--time-limit", "10s", "--out", "out"];
    let (output, elapsed) = harness(&args, dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(elapsed < Duration::from_secs(16), "{elapsed:?}: {stderr}");
    let summary = summary(dir.path());
    assert_eq!(summary["stop"], "time-limit", "{summary:#}");
    assert!(summary["sequences"].as_u64().unwrap() > 1000, "{summary:#}");
    quarantine_note(&summary, "hang");
    assert_eq!(summary["failure_groups"][0]["count"], 3, "{summary:#}");
    assert!(summary.get("unreported").is_none(), "{summary:#}");
}

/// Binary trees of 7 nodes: Catalan(7).
const TREES_AT_SCOPE_7: u64 = 429;

/// A `rep_ok` that hangs on its 12 000th call in each process, whatever the
/// candidate. Each hang is run again alone in a fresh worker, where it
/// returns: a `flaky` finding, named by its input. After three the run
/// stops with the flaky verdict and exit 1 instead of restarting forever,
/// and keeps the trees found before: whole lines of valid trees, as many
/// as it says.
#[test]
fn korat_stops_with_a_flaky_verdict_when_rep_ok_hangs_once_in_every_process() {
    // Both thread counts at once: each run mostly waits out its hangs' timeouts.
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    let runs: Vec<_> = ["1", "2"]
        .into_iter()
        .map(|threads| {
            let dir = tempfile::tempdir().unwrap();
            let args =
                ["korat", "hostile-korat-hang-per-process", "--scope", "7", "--threads", threads, "--out", "out"];
            let child = Command::new(env!("CARGO_BIN_EXE_smallscope-hostile"))
                .args(args)
                .current_dir(dir.path())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            (threads, dir, child)
        })
        .collect();
    for (threads, dir, child) in runs {
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{threads} threads: {stderr}");
        assert!(started.elapsed() < Duration::from_secs(60), "{threads} threads: {:?}: {stderr}", started.elapsed());
        let summary = summary(dir.path());
        assert_eq!(summary["stop"], "flaky", "{summary:#}");
        let groups = summary["failure_groups"].as_array().unwrap();
        assert_eq!(groups.len(), 3, "{summary:#}");
        for group in groups {
            assert_eq!((group["kind"].as_str(), group["during"].as_str()), (Some("flaky"), Some("rep-ok")));
            assert_eq!(group["count"], 1, "{summary:#}");
            assert!(group["message"].as_str().unwrap().contains("returned when run again"), "{summary:#}");
        }
        let found = summary["structures"].as_u64().unwrap();
        assert!(found > 0 && found < TREES_AT_SCOPE_7, "{summary:#}");
        let lines = std::fs::read_to_string(dir.path().join("out/structures.jsonl")).unwrap();
        assert_eq!(lines.lines().count() as u64, found);
    }
}

/// A call still running when the time limit stops the run cannot be run
/// again to confirm it: the summary says so and the exit status is 1, not a
/// silent "0 failures".
#[test]
fn a_call_the_time_limit_cuts_off_is_not_a_silent_success() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["random", "hostile-repeat-loop", "--time-limit", "3s", "--call-timeout", "60", "--out", "out"];
    let (output, elapsed) = harness(&args, dir.path());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
    let summary = summary(dir.path());
    assert_eq!((summary["stop"].as_str(), summary["seed"].as_u64()), (Some("time-limit"), Some(0)), "{summary:#}");
    assert!(summary["replay"].as_str().unwrap().ends_with(" --seed 0 --time-limit 3s"), "{summary:#}");
    let unreported = summary["unreported"].as_str().unwrap_or_default();
    assert!(unreported.contains("hang during call (`inspect`"), "{summary:#}");
    assert!(stdout.contains(&format!("note: {unreported}")), "{stdout}");
}

/// Binary trees of 6 nodes: Catalan(6).
const TREES_AT_SCOPE_6: u64 = 132;

/// A `rep_ok` that rejects every 13th call of its process kills nothing,
/// but loses trees: the candidates judged twice (one in 64) tell it, with a
/// `flaky` finding and exit 1, on any thread count.
#[test]
fn korat_tells_a_nondeterministic_rep_ok() {
    for threads in ["1", "2"] {
        let dir = tempfile::tempdir().unwrap();
        let args = ["korat", "hostile-korat-nondeterministic", "--scope", "6", "--threads", threads, "--out", "out"];
        let (output, _) = harness(&args, dir.path());
        assert_eq!(output.status.code(), Some(1), "{threads} threads: {}", String::from_utf8_lossy(&output.stdout));
        let summary = summary(dir.path());
        assert!(summary["structures"].as_u64().unwrap() < TREES_AT_SCOPE_6, "{summary:#}");
        let groups = summary["failure_groups"].as_array().unwrap();
        assert!(!groups.is_empty(), "{summary:#}");
        for group in groups {
            assert_eq!((group["kind"].as_str(), group["during"].as_str()), (Some("flaky"), Some("rep-ok")));
            assert!(group["message"].as_str().unwrap().starts_with("`rep_ok` is nondeterministic"), "{group:#}");
        }
    }
}
