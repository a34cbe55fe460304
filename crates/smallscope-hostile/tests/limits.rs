//! Limits are hard, writing included: a run on a type whose state grows
//! without bound (`hostile-grow`) ends near its time limit with every file
//! whole or marked partial, and `--resume` carries it on; SIGTERM and a
//! second Ctrl-C while it writes end it at once with 143 and 130, leaving
//! an `--out` whose summary says what is missing. Defaults otherwise.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// One run at a time: each uses both cores, and is timed.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn start(args: &[&str], dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_smallscope-hostile"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn summary(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("out/summary.json")).unwrap()).unwrap()
}

/// Checks that `structures.jsonl` is whole lines of structures numbered
/// from 0, as many as the summary says (all of them, or the partial count).
fn check_structures(dir: &Path, summary: &Value) -> u64 {
    let partial = summary["partial"].as_array().cloned().unwrap_or_default();
    let cut = partial.iter().find(|p| p["name"] == "structures.jsonl");
    let path = dir.join("out/structures.jsonl");
    let expected = match cut {
        Some(cut) if cut["lines"] == 0 => {
            assert!(!path.exists(), "a file not written is not left there");
            return 0;
        }
        Some(cut) => cut["lines"].as_u64().unwrap(),
        None => summary["structures"].as_u64().unwrap(),
    };
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'));
    let mut lines = 0;
    for (i, line) in text.lines().enumerate() {
        let record: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("line {i}: {e}: {line}"));
        assert_eq!(record["index"], i as u64);
        lines += 1;
    }
    assert_eq!(lines, expected, "{summary:#}");
    lines
}

#[test]
fn a_time_limit_covers_writing_and_resume_carries_the_run_on() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let args = ["beapi", "hostile-grow", "--scope", "4", "--time-limit", "20", "--out", "out"];
    let started = Instant::now();
    let output = start(&args, dir.path()).wait_with_output().unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}: {stderr}");
    let first = summary(dir.path());
    assert_eq!(first["stop"], "time-limit", "{first:#}");
    assert!(first["structures"].as_u64().unwrap() > 1000, "{first:#}");
    check_structures(dir.path(), &first);
    let partial = first["partial"].as_array().cloned().unwrap_or_default();
    if partial.is_empty() {
        // Everything fit in the limit (a fast machine): nothing to resume.
        assert!(!dir.path().join("out/.smallscope").exists());
        return;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("is partial") || text.contains("was not written"), "{text}");
    let resume = first["resume"].as_str().unwrap_or_else(|| panic!("no resume command: {first:#}"));
    assert!(resume.ends_with("--resume"), "{resume}");
    // The resumed run carries the search on if its end was not committed
    // (the worker was stopped), then writes; within the limit again.
    let started = Instant::now();
    let output = start(&[&args[..], &["--resume"]].concat(), dir.path()).wait_with_output().unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}: {stderr}");
    let resumed = summary(dir.path());
    assert!(resumed["structures"].as_u64() >= first["structures"].as_u64(), "{resumed:#}");
    check_structures(dir.path(), &resumed);
    if resumed.get("partial").is_none() {
        let events = std::fs::read_to_string(dir.path().join("out/events.ndjson")).unwrap();
        assert!(events.lines().last().unwrap().starts_with("{\"event\":\"run_finished\""));
        assert!(!dir.path().join("out/.smallscope").exists(), "a whole run leaves no staging folder");
    }
}

/// Starts a run, waits until it says it writes its files, sends `signals`
/// and returns the exit code and the seconds from the first signal to the end.
fn signalled_while_writing(dir: &Path, signals: &[libc::c_int]) -> (Option<i32>, Duration, String) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut child = start(&["beapi", "hostile-grow", "--scope", "4", "--time-limit", "10", "--out", "out"], dir);
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut told = String::new();
    while !told.contains("writing the files") {
        assert!(stderr.read_line(&mut told).unwrap() > 0, "ended before writing: {told}");
    }
    let sent = Instant::now();
    for &signal in signals {
        // SAFETY: kill(2) to our own child, not yet reaped.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = child.wait().unwrap();
    let elapsed = sent.elapsed();
    let mut stdout = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    (status.code(), elapsed, stdout)
}

/// What a run cut short while writing leaves: a summary that parses and
/// names what is missing, whole lines, and the staging folder to resume.
fn check_cut_short(dir: &Path, stdout: &str) {
    let summary = summary(dir);
    check_structures(dir, &summary);
    let partial = summary["partial"].as_array().cloned().unwrap_or_default();
    assert!(!partial.is_empty(), "the signal came while structures.jsonl was written: {summary:#}");
    for file in summary["files"].as_array().unwrap() {
        assert!(dir.join("out").join(file.as_str().unwrap()).is_file(), "{file} is listed");
    }
    assert!(dir.join("out/.smallscope/checkpoint.json").is_file(), "kept to be resumed");
    assert!(stdout.contains("resume:"), "{stdout}");
}

#[test]
fn sigterm_while_writing_exits_143_within_two_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let (code, elapsed, stdout) = signalled_while_writing(dir.path(), &[libc::SIGTERM]);
    assert_eq!(code, Some(143), "{stdout}");
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    check_cut_short(dir.path(), &stdout);
}

#[test]
fn a_second_ctrl_c_while_writing_exits_130_within_a_second() {
    let dir = tempfile::tempdir().unwrap();
    let (code, elapsed, stdout) = signalled_while_writing(dir.path(), &[libc::SIGINT, libc::SIGINT]);
    assert_eq!(code, Some(130), "{stdout}");
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
    check_cut_short(dir.path(), &stdout);
}

/// A SIGTERM the code under test sends its parent (the supervisor) is not
/// the user's: the run says so and ends as it would have, with every stack
/// of at most 3 numbers from 0..3 (1 + 3 + 9 + 27).
#[test]
fn a_signal_from_the_code_under_test_stops_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["beapi", "hostile-signal-parent", "--scope", "3", "--builders", "new,push", "--out", "out"];
    let output = start(&args, dir.path()).wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("the code under test sent smallscope a signal"), "{stderr}");
    let summary = summary(dir.path());
    assert_eq!(summary["stop"], "complete", "{summary:#}");
    assert_eq!(summary["structures"], 40, "{summary:#}");
}
