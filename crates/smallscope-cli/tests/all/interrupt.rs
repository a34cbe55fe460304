//! Runs that are stopped from outside: Ctrl-C keeps what was found, a
//! killed run resumes to the same result an uninterrupted run gives.

use crate::common;

use std::collections::HashSet;
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use common::*;

/// Waits until the run has committed more than `bytes` of events (or, for
/// `"journal"`, of its engine's journal).
fn wait_for_commits(out: &Path, what: &str, bytes: u64, child: &mut Child) {
    let started = Instant::now();
    loop {
        let committed = std::fs::read_to_string(out.join(".smallscope/checkpoint.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|c| c[what].as_u64())
            .unwrap_or(0);
        if committed > bytes {
            return;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be stopped");
        assert!(started.elapsed() < Duration::from_secs(600), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill").args([name, &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

/// The lines of a file, as a set, checking there are no duplicates.
fn distinct_lines(path: &Path) -> HashSet<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let set: HashSet<String> = lines.iter().map(|l| l.to_string()).collect();
    assert_eq!(set.len(), lines.len(), "{}: duplicate lines", path.display());
    set
}

/// Binary search trees with at most `n` nodes over keys `0..n`, written
/// here as smallscope's canonical form writes them, independently of it.
fn all_search_trees(n: i64) -> HashSet<String> {
    /// Every tree over a subset of `keys`: its text with unnumbered nodes, and its size.
    fn trees(keys: &[i64]) -> Vec<(String, i64)> {
        let mut out = vec![("null".to_owned(), 0)];
        for (i, &root) in keys.iter().enumerate() {
            let rights = trees(&keys[i + 1..]);
            for (left, l) in trees(&keys[..i]) {
                for (right, r) in &rights {
                    out.push((format!("N{{key: {root}, left: {left}, right: {right}}}"), 1 + l + r));
                }
            }
        }
        out
    }
    /// Nodes numbered from 1 in preorder, as the linearizer visits them.
    fn number(text: &str) -> String {
        let mut pieces = text.split("N{");
        let mut out = pieces.next().unwrap_or("").to_owned();
        for (id, piece) in pieces.enumerate() {
            out.push_str(&format!("Node#{}{{{piece}", id + 1));
        }
        out
    }
    let keys: Vec<i64> = (0..n).collect();
    trees(&keys)
        .into_iter()
        .filter(|(_, size)| *size <= n)
        .map(|(text, size)| format!("BinarySearchTree#0{{root: {}, size: {size}}}", number(&text)))
        .collect()
}

#[test]
fn the_independent_tree_enumeration_agrees_with_the_closed_form() {
    for n in 1..=5 {
        let expected: u64 = (0..=n).map(|k| binomial(n, k) * catalan(k)).sum();
        assert_eq!(all_search_trees(n as i64).len() as u64, expected);
    }
    // And it writes trees as smallscope does.
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(&["beapi", "bst", "--scope", "4", "--builders", "new,add", "--out", "out"], dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = std::fs::read_to_string(dir.path().join("out/structures.jsonl")).unwrap();
    let canonical: HashSet<String> = lines
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["canonical"].as_str().unwrap().to_owned())
        .collect();
    assert!(canonical == all_search_trees(4));
}

#[test]
fn ctrl_c_stops_a_run_and_keeps_what_it_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(
        &["beapi", "bst", "--scope", "11", "--builders", "new,add", "--check", "none", "--out", "out"],
        dir.path(),
    );
    let out = dir.path().join("out");
    wait_for_commits(&out, "events", 2_000_000, &mut child);
    signal(&child, "-INT");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop"], "interrupted");
    assert!(summary["resume"].as_str().unwrap().ends_with("--resume"), "{summary:#}");
    // What it found is all there, once each, and agrees with the summary.
    let lines = distinct_lines(&out.join("structures.jsonl"));
    assert_eq!(lines.len() as u64, summary["structures"].as_u64().unwrap());
    assert!(lines.len() > 1000, "{}", lines.len());
    let events = std::fs::read_to_string(out.join("events.ndjson")).unwrap();
    assert_eq!(events.matches("\"event\":\"structure\"").count(), lines.len());
    assert!(events.lines().last().unwrap().contains("\"event\":\"run_finished\""));
    // The run is kept, to be resumed.
    assert!(out.join(".smallscope/checkpoint.json").exists());
}

#[test]
fn a_killed_beapi_run_resumes_to_every_structure() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["beapi", "bst", "--scope", "10", "--builders", "new,add", "--check", "none", "--out", "out"];
    let mut child = spawn(&args, dir.path());
    let out = dir.path().join("out");
    // Mid-run: well into the levels, before the last (about 60 MB of events in all).
    wait_for_commits(&out, "events", 12_000_000, &mut child);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!out.join("structures.jsonl").exists(), "a killed run writes no half outputs");
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    let output = smallscope(&resumed, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("resuming"), "{}", stderr(&output));
    // The same set as an uninterrupted run: every search tree, once.
    let lines = std::fs::read_to_string(out.join("structures.jsonl")).unwrap();
    let canonical: HashSet<String> = lines
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["canonical"].as_str().unwrap().to_owned())
        .collect();
    let expected: u64 = (0..=10).map(|k| binomial(10, k) * catalan(k)).sum();
    assert_eq!(lines.lines().count() as u64, expected);
    assert_eq!(canonical.len() as u64, expected);
    assert!(canonical == all_search_trees(10), "other structures than the search trees");
    assert!(!out.join(".smallscope").exists(), "a finished run leaves no checkpoint");
}

/// The same files with the same contents (the contents are too long to print).
fn assert_same_files(resumed: &Files, whole: &Files) {
    let names = |files: &Files| files.iter().map(|(name, _)| name.clone()).collect::<Vec<_>>();
    assert_eq!(names(resumed), names(whole));
    for ((name, a), (_, b)) in resumed.iter().zip(whole) {
        assert!(a == b, "{name} differs after a resume:\n{}", first_difference(a, b));
    }
}

/// The first line where two texts differ, each cut short, and their line counts.
fn first_difference(resumed: &[u8], whole: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(resumed), String::from_utf8_lossy(whole));
    let cut = |line: &str| line.chars().take(400).collect::<String>();
    let (mut left, mut right) = (a.lines(), b.lines());
    for number in 1.. {
        match (left.next(), right.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (x, y) => {
                return format!(
                    "line {number} of {} resumed and {} whole:\nresumed: {}\nwhole:   {}",
                    a.lines().count(),
                    b.lines().count(),
                    cut(x.unwrap_or("(end)")),
                    cut(y.unwrap_or("(end)"))
                )
            }
        }
    }
    unreachable!()
}

/// Runs `args` killed once midway and resumed, and returns the outputs
/// (without timings); and the same of an uninterrupted run.
fn killed_and_whole(args: &[&str], what: &str, bytes: u64) -> (Files, Files) {
    let (whole, code) = whole_run(args);
    (stopped_and_resumed(args, what, bytes, "-KILL", code), whole)
}

/// The outputs and exit code of `args` run to the end.
fn whole_run(args: &[&str]) -> (Files, Option<i32>) {
    let whole = tempfile::tempdir().unwrap();
    let mut full = args.to_vec();
    full.extend(["--out", "out"]);
    let output = smallscope(&full, whole.path());
    assert!(output.status.code().is_some_and(|c| c <= 1), "{}", stderr(&output));
    (outputs(&whole.path().join("out")), output.status.code())
}

/// The outputs of `args` stopped midway by the signal `name` and resumed,
/// which must end with `code` as the whole run did.
fn stopped_and_resumed(args: &[&str], what: &str, bytes: u64, name: &str, code: Option<i32>) -> Files {
    let mut full = args.to_vec();
    full.extend(["--out", "out"]);
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(&full, dir.path());
    wait_for_commits(&dir.path().join("out"), what, bytes, &mut child);
    signal(&child, name);
    child.wait().unwrap();
    full.push("--resume");
    let resumed = smallscope(&full, dir.path());
    assert_eq!(resumed.status.code(), code, "{}", stderr(&resumed));
    outputs(&dir.path().join("out"))
}

#[test]
fn a_killed_korat_run_resumes_to_the_same_outputs() {
    let args = ["korat", "binary-tree", "--scope", "12", "--threads", "2"];
    let (resumed, whole) = killed_and_whole(&args, "events", 200_000);
    let names: Vec<&str> = whole.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["events.ndjson", "report.html", "structures.jsonl", "summary.json"]);
    let structures = &whole.iter().find(|(name, _)| name == "structures.jsonl").unwrap().1;
    assert_eq!(String::from_utf8_lossy(structures).lines().count() as u64, catalan(12));
    assert_same_files(&resumed, &whole);
}

/// An ascending run (what `suite` runs): sizes 1 to n in turn, each ended
/// by a level event, and a resume across the searches gives the same files.
#[test]
fn a_killed_ascending_korat_run_resumes_to_the_same_outputs() {
    let args = ["korat", "binary-tree", "--scope", "12", "--ascending", "--threads", "2"];
    let (resumed, whole) = killed_and_whole(&args, "events", 2_000_000);
    let structures = &whole.iter().find(|(name, _)| name == "structures.jsonl").unwrap().1;
    let all: u64 = (1..=12).map(catalan).sum();
    assert_eq!(String::from_utf8_lossy(structures).lines().count() as u64, all);
    let events = &whole.iter().find(|(name, _)| name == "events.ndjson").unwrap().1;
    let levels: Vec<(u64, u64)> = String::from_utf8_lossy(events)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["event"] == "level")
        .map(|e| (e["level"].as_u64().unwrap(), e["structures"].as_u64().unwrap()))
        .collect();
    let expected: Vec<(u64, u64)> = (1..=12).map(|k| (k, catalan(k))).collect();
    assert_eq!(levels, expected, "one level per size, its trees");
    assert_same_files(&resumed, &whole);
}

/// Ctrl-C and SIGTERM end a run with a commit of what its engine did since
/// the last one: `--resume` carries it on from there, to the files of an
/// uninterrupted run but for that commit's `progress` event.
#[test]
fn an_interrupted_or_terminated_run_resumes_to_the_same_outputs() {
    let args = ["korat", "binary-tree", "--scope", "12", "--threads", "2"];
    let (mut whole, code) = whole_run(&args);
    let whole_events = take_events(&mut whole);
    for name in ["-INT", "-TERM"] {
        let mut resumed = stopped_and_resumed(&args, "events", 200_000, name, code);
        let resumed_events = take_events(&mut resumed);
        assert_same_files(&resumed, &whole);
        let (resumed_progress, resumed_others) = progress_apart(&resumed_events);
        let (whole_progress, whole_others) = progress_apart(&whole_events);
        assert!(resumed_others == whole_others, "events other than progress differ after a resume");
        // Every commit of the whole run is one of the resumed run's, in order, and the stop added at most one.
        let mut left = resumed_progress.iter();
        assert!(whole_progress.iter().all(|line| left.any(|r| r == line)), "a commit of the whole run is missing");
        assert!(resumed_progress.len() - whole_progress.len() <= 1, "{name}: more than one commit added");
    }
}

/// Takes `events.ndjson` out of `files`, as text.
fn take_events(files: &mut Files) -> String {
    let (_, bytes) = files.iter_mut().find(|(name, _)| name == "events.ndjson").unwrap();
    String::from_utf8(std::mem::take(bytes)).unwrap()
}

/// The lines of an event stream: its `progress` events, and the others.
fn progress_apart(events: &str) -> (Vec<&str>, Vec<&str>) {
    events.lines().partition(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["event"] == "progress")
}

#[test]
fn a_killed_random_run_resumes_to_the_same_outputs() {
    let args = ["random", "dll-bug-remove", "--sequences", "300000", "--seed", "4"];
    // The journal grows with the sequences: about 1.9 MB at the end.
    let (resumed, whole) = killed_and_whole(&args, "journal", 700_000);
    let names: Vec<&str> = whole.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["error_tests.rs", "events.ndjson", "failures.json", "regression_tests.rs", "report.html", "summary.json"]
    );
    assert_same_files(&resumed, &whole);
}

#[test]
fn korat_plus_gives_the_same_structures_on_every_thread_count() {
    let run = |threads: &str| {
        let dir = tempfile::tempdir().unwrap();
        let args = ["korat", "list-as-set", "--scope", "5", "--threads", threads, "--out", "out"];
        let output = smallscope(&args, dir.path());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        outputs(&dir.path().join("out"))
    };
    let one = run("1");
    // The paper's row "0-5,0-5,5,5,4": 7 812 valid candidates.
    let summary: serde_json::Value =
        serde_json::from_slice(&one.iter().find(|(n, _)| n == "summary.json").unwrap().1).unwrap();
    assert_eq!(summary["structures"], 7812);
    assert_eq!(summary["engine"], "korat+");
    for threads in ["2", "3", "4"] {
        assert!(run(threads) == one, "--threads {threads} gives other outputs than --threads 1");
    }
}
