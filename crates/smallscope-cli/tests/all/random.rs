//! The command-line contract of `smallscope random`: bad input, the JSON
//! summary, exit codes, determinism, the planted bugs it must find, the
//! replay line, and `bench random`. Runs the real binary.

use crate::common;

use common::*;

/// A `random --format json` run: the exit code and the summary.
fn random_json(subject: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["random", subject, "--format", "json"];
    args.extend_from_slice(extra);
    let output = smallscope(&args, dir.path());
    let code = output.status.code().expect("exited");
    assert!(code <= 1, "{args:?} exited {code}: {}", stderr(&output));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", stdout(&output)));
    (code, summary)
}

fn groups(summary: &serde_json::Value) -> &Vec<serde_json::Value> {
    summary["failure_groups"].as_array().expect("failure_groups is an array")
}

/// The planted bugs: subject, the contract it breaks, and a seed and
/// sequence count that find it quickly (a fixed run: the same every time).
const PLANTED: [(&str, &str, &str, &str); 3] = [
    ("dll-bug-remove", "rep-ok", "2", "5000"),
    ("ncl-bug-hash", "hash-agrees-with-eq", "2", "5000"),
    ("binheap-bug-rebalance", "no-panic", "2", "5000"),
];

/// There is a failure group, and every group breaks `contract` and is
/// simplified to at most 6 calls.
fn assert_found(subject: &str, contract: &str, code: i32, summary: &serde_json::Value) {
    let groups = groups(summary);
    assert!(!groups.is_empty(), "{subject}: no failure group in {summary:#}");
    assert_eq!(code, 1, "{subject}: failures exit 1");
    for group in groups {
        assert_eq!(group["contract"], contract, "{subject}: {group:#}");
        let calls = group["witness"]["calls"].as_u64().unwrap();
        assert!(calls <= 6, "{subject}: simplified to {calls} calls, more than 6: {group:#}");
    }
}

#[test]
fn bad_time_limits_are_refused() {
    let message = refused_in_one_line(&["random", "dll", "--time-limit", "0s"]);
    assert!(message.contains("--time-limit") && message.contains("more than zero"), "{message}");
    let message = refused_in_one_line(&["random", "dll", "--time-limit", "0"]);
    assert!(message.contains("--time-limit") && message.contains("more than zero"), "{message}");
    let message = refused_in_one_line(&["random", "dll", "--time-limit", "banana"]);
    assert!(message.contains("--time-limit") && message.contains("banana"), "{message}");
}

#[test]
fn an_unknown_subject_is_named_with_the_known_ones() {
    let message = refused_in_one_line(&["random", "nope", "--sequences", "10"]);
    assert!(message.contains("unknown subject `nope`"), "{message}");
    for known in ["dll", "dll-bug-remove", "ncl-bug-hash", "binheap-bug-rebalance"] {
        assert!(message.contains(known), "{known} not listed: {message}");
    }
}

#[test]
fn zero_sequences_and_an_unknown_pruning_are_refused() {
    let message = refused_in_one_line(&["random", "dll", "--sequences", "0"]);
    assert!(message.contains("sequence limit") && message.contains("at least 1"), "{message}");
    let message = refused_in_one_line(&["random", "dll", "--sequences", "10", "--index-pruning", "bogus"]);
    assert!(message.contains("bogus") && message.contains("heap"), "{message}");
}

#[test]
fn list_shows_the_planted_bugs_with_the_random_engine() {
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(&["list"], dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for name in ["dll-bug-remove", "ncl-bug-hash", "binheap-bug-rebalance", "dll", "ncl", "binheap"] {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} missing from:\n{text}"));
        let engines: Vec<&str> = line.split_whitespace().skip(1).map(|e| e.trim_end_matches(',')).collect();
        assert!(engines.contains(&"random"), "{name}: {line}");
    }
}

#[test]
fn json_summary_has_the_contract_fields_and_the_exit_code_follows_failures() {
    let (code, summary) = random_json("dll-bug-remove", &["--seed", "5", "--sequences", "5000"]);
    assert_eq!(summary["subject"], "dll-bug-remove");
    assert_eq!(summary["engine"], "random");
    assert_eq!(summary["seed"], 5);
    assert_eq!(summary["sequences"], 5000);
    assert!(summary["sequences_per_second"].as_f64().unwrap() > 0.0, "{summary:#}");
    assert!(summary["seconds"].as_f64().unwrap() >= 0.0, "{summary:#}");
    assert!(!groups(&summary).is_empty(), "{summary:#}");
    assert_eq!(code, 1);

    let (code, summary) = random_json("dll", &["--seed", "5", "--sequences", "5000"]);
    assert_eq!(summary["subject"], "dll");
    assert_eq!(summary["engine"], "random");
    assert!(groups(&summary).is_empty(), "{summary:#}");
    assert_eq!(code, 0);
}

#[test]
fn the_same_seed_gives_byte_identical_outputs() {
    let run = |seed: &str| {
        let dir = tempfile::tempdir().unwrap();
        let args = ["random", "dll-bug-remove", "--seed", seed, "--sequences", "3000", "--out", "out"];
        let output = smallscope(&args, dir.path());
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        outputs(&dir.path().join("out"))
    };
    let first = run("11");
    let names: Vec<&str> = first.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["error_tests.rs", "events.ndjson", "failures.json", "regression_tests.rs", "report.html", "summary.json"]
    );
    assert!(first.iter().all(|(_, bytes)| !bytes.is_empty()));
    assert!(first == run("11"), "two runs with seed 11 wrote different files");
    let other = run("12");
    let regression =
        |files: &[(String, Vec<u8>)]| files.iter().find(|(n, _)| n == "regression_tests.rs").unwrap().1.clone();
    assert_ne!(regression(&first), regression(&other), "seeds 11 and 12 wrote the same regression tests");
}

#[test]
fn planted_bugs_are_found_and_simplified() {
    for (subject, contract, seed, sequences) in PLANTED {
        let (code, summary) = random_json(subject, &["--seed", seed, "--sequences", sequences]);
        assert_found(subject, contract, code, &summary);
    }
}

#[test]
fn correct_subjects_have_no_failure_groups() {
    for (subject, _, seed, sequences) in PLANTED {
        let correct = subject.split("-bug-").next().unwrap();
        let (code, summary) = random_json(correct, &["--seed", seed, "--sequences", sequences]);
        assert!(groups(&summary).is_empty(), "{correct}: {summary:#}");
        assert_eq!(code, 0, "{correct}");
    }
}

/// The default settings with a real 10 s time limit, as a user would run it:
/// about 30 s in a debug build.
#[test]
fn planted_bugs_are_found_within_ten_seconds() {
    for (subject, contract, _, _) in PLANTED {
        let (code, summary) = random_json(subject, &["--time-limit", "10s", "--seed", "2"]);
        assert_eq!(summary["stopped_by"], "time limit", "{subject}");
        assert_found(subject, contract, code, &summary);
    }
}

#[test]
fn the_replay_line_repeats_a_timed_run() {
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(
        &["random", "binheap-bug-rebalance", "--time-limit", "500ms", "--seed", "3", "--out", "a"],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stdout(&output);
    let last = text.lines().last().unwrap();
    let replay = last.strip_prefix("seed 3; replay: ").unwrap_or_else(|| panic!("last line: {last}"));
    let words: Vec<&str> = replay.split_whitespace().collect();
    assert_eq!(words[..3], ["smallscope", "random", "binheap-bug-rebalance"], "{replay}");
    assert_eq!(words[words.len() - 2], "--sequences", "{replay}");
    let sequences: u64 = words[words.len() - 1].parse().unwrap();
    assert!(sequences > 0, "{replay}");
    assert!(text.contains(&format!(" {sequences} sequences in ")), "{text}");

    let mut args = words[1..].to_vec();
    args.extend(["--out", "b"]);
    let again = smallscope(&args, dir.path());
    assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
    // The same groups; each one's replay keeps its run's limit (`--sequences` in the replay).
    let read = |d: &str| {
        let text = std::fs::read_to_string(dir.path().join(d).join("failures.json")).unwrap();
        let mut groups: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
        for group in &mut groups {
            let replay = group["replay"].take();
            let at = replay.as_str().unwrap().split(" --stop-at ").nth(1).unwrap().to_owned();
            group["replay"] = at.into();
        }
        groups
    };
    assert_eq!(read("a"), read("b"), "the replay found other failure groups");
    let group_lines = |t: &str| t.lines().filter(|l| l.starts_with("  [")).map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(group_lines(&text), group_lines(&stdout(&again)));
    assert!(!group_lines(&text).is_empty(), "{text}");
}

#[test]
fn bench_random_prints_one_table_with_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(&["bench", "random", "--seconds", "0.2"], dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let header = text.lines().find(|l| l.starts_with("subject")).unwrap_or_else(|| panic!("no header: {text}"));
    for column in ["settings", "threads", "sequences", "seconds", "sequences/s", "speed-up"] {
        assert!(header.contains(column), "{column} missing: {header}");
    }
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with("dll ") || l.starts_with("binheap "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(rows.iter().any(|r| r[0] == "dll" && r[2] == "1"), "{text}");
    assert!(rows.iter().any(|r| r[0] == "binheap" && r[2] == "1"), "{text}");
    assert!(rows.iter().any(|r| r[0] == "dll" && r[1].contains("max_repeat=100")), "{text}");
    for row in &rows {
        let sequences: u64 = row[3].parse().unwrap_or_else(|_| panic!("{row:?}"));
        assert!(sequences > 0, "{row:?}");
    }
    assert!(text.contains("target: >= 100000 sequences/s single-threaded on dll"), "{text}");
    assert!(refused_in_one_line(&["bench", "random", "--seconds", "0"]).contains("--seconds"));
}

/// Each failure group's replay command stops at the sequence that found it
/// (`--stop-at K`, the run otherwise the same): it finds the group again,
/// naming the same sequence, and one sequence fewer does not.
#[test]
fn a_failure_replays_from_the_prefix_that_found_it() {
    for (subject, _, _, _) in PLANTED {
        let (code, summary) = random_json(subject, &["--time-limit", "2s", "--seed", "3"]);
        assert_eq!(code, 1, "{subject}: {summary:#}");
        let total = summary["sequences"].as_u64().unwrap();
        for group in groups(&summary) {
            let replay = group["replay"].as_str().unwrap_or_else(|| panic!("{subject}: no replay in {group:#}"));
            let words: Vec<&str> = replay.split_whitespace().collect();
            assert_eq!(words[words.len() - 2], "--stop-at", "{replay}");
            assert!(!replay.contains("--sequences"), "a timed run has no sequence limit: {replay}");
            let at: u64 = words[words.len() - 1].parse().unwrap();
            assert!(at <= total && at < total.max(2), "{subject}: the prefix {at} of {total}");
            let same = |g: &serde_json::Value| {
                ["kind", "contract", "operation", "during"].iter().all(|&key| g[key] == group[key])
            };
            let (_, again) = random_json(subject, &words[3..]);
            let found = groups(&again).iter().find(|g| same(g));
            let found = found.unwrap_or_else(|| panic!("{subject}: `{replay}` lost {group:#}"));
            assert_eq!(found["replay"], group["replay"], "{subject}");
            let fewer = (at - 1).to_string();
            let args: Vec<&str> = words[3..words.len() - 1].iter().copied().chain([fewer.as_str()]).collect();
            let (_, before) = random_json(subject, &args);
            assert!(!groups(&before).iter().any(same), "{subject}: found before sequence {at}");
        }
    }
}
