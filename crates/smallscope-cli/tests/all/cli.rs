//! The command-line contract: subjects, JSON summary, exit codes and the
//! errors bad input gets. Runs the real binary.

use crate::common;

use common::*;

#[test]
fn list_names_every_built_in_subject() {
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(&["list"], dir.path());
    assert!(output.status.success());
    // One line per subject: its name, then its engines.
    let names: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect();
    for name in [
        "sll",
        "dll",
        "sorted-list",
        "ncl",
        "bst",
        "avl",
        "rbt",
        "binheap",
        "rbt-bug-fixup",
        "ncl-bug-cache",
        "binary-tree",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} missing from {names:?}");
    }
}

#[test]
fn json_summary_has_the_contract_fields() {
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(&["beapi", "bst", "--scope", "5", "--format", "json"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one summary object: {text}");
    let summary: serde_json::Value = serde_json::from_str(&text).unwrap();
    let expected: u64 = (0..=5).map(|k| binomial(5, k) * catalan(k)).sum();
    assert_eq!(summary["subject"], "bst");
    assert_eq!(summary["engine"], "beapi");
    assert_eq!(summary["scope"], 5);
    assert_eq!(summary["structures"], expected);
    assert_eq!(summary["failures"], 0);
    assert!(summary["explored"].as_u64().unwrap() >= expected);
    assert!(summary["seconds"].as_f64().unwrap() >= 0.0);
    // Builders were identified and cached in the working directory.
    assert_eq!(summary["builders"], serde_json::json!(["new", "add"]));
    assert!(dir.path().join(".smallscope/cache/builders").read_dir().unwrap().count() == 1);
}

#[test]
fn failures_exit_1_with_a_witness_and_a_replay_command() {
    let dir = tempfile::tempdir().unwrap();
    let output =
        smallscope(&["beapi", "ncl-bug-cache", "--scope", "3", "--builders", "new,add,remove_first"], dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("rep_ok returned false after `add`"), "{text}");
    assert!(text.contains("witness (4 calls): s0 = new(); s0.add(0); s0.remove_first(); s0.add(0)"), "{text}");
    assert!(text.contains("replay: smallscope beapi ncl-bug-cache --scope 3"), "{text}");
}

#[test]
fn out_dir_gets_one_json_line_per_structure() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = smallscope(
        &["beapi", "sorted-list", "--scope", "3", "--builders", "new,insert", "--out", out.to_str().unwrap()],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = std::fs::read_to_string(out.join("structures.jsonl")).unwrap();
    // Sorted lists of at most 3 nodes over 0..3: C(6, 3).
    assert_eq!(lines.lines().count() as u64, binomial(6, 3));
    let mut canonical = std::collections::HashSet::new();
    for line in lines.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(record["sequence"].as_str().unwrap().starts_with("s0 = new()"), "{record}");
        assert!(canonical.insert(record["canonical"].as_str().unwrap().to_owned()), "duplicate: {record}");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["structures"], 20);
}

#[test]
fn same_inputs_give_identical_outputs() {
    let run = || {
        let dir = tempfile::tempdir().unwrap();
        let args = ["beapi", "ncl", "--scope", "4", "--builders", "all", "--out", "out", "--emit-tests", "t.rs"];
        let output = smallscope(&args, dir.path());
        assert!(output.status.success(), "{}", stderr(&output));
        let read = |p: &str| std::fs::read(dir.path().join(p)).unwrap();
        (output.stdout.len(), read("out/structures.jsonl"), read("t.rs"))
    };
    assert_eq!(run(), run());
}

#[test]
fn an_unknown_subject_is_named() {
    let message = refused(&["beapi", "nope", "--scope", "3"]);
    assert!(message.contains("unknown subject `nope`") && message.contains("bst"), "{message}");
}

#[test]
fn scope_zero_is_refused() {
    assert!(refused(&["beapi", "bst", "--scope", "0"]).contains("scope must be at least 1"));
}

#[test]
fn a_missing_scope_is_refused() {
    assert!(refused(&["beapi", "bst"]).contains("--scope"));
}

#[test]
fn an_upside_down_int_range_is_refused() {
    let message = refused(&["beapi", "bst", "--scope", "3", "--ints", "5..1"]);
    assert!(message.contains("5..1") && message.contains("upside down"), "{message}");
    assert!(refused(&["beapi", "bst", "--scope", "3", "--ints", "zero..two"]).contains("zero..two"));
}

#[test]
fn a_malformed_config_file_is_refused_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, "scope = = 3\n").unwrap();
    let message = refused(&["beapi", "bst", "--config", path.to_str().unwrap()]);
    assert!(message.contains("bad.toml"), "{message}");
    std::fs::write(&path, "scope = 3\nmax_objects = 3\n").unwrap();
    let message = refused(&["beapi", "bst", "--config", path.to_str().unwrap()]);
    assert!(message.contains("max_objects"), "{message}");
    let message = refused(&["beapi", "bst", "--config", dir.path().join("missing.toml").to_str().unwrap()]);
    assert!(message.contains("missing.toml"), "{message}");
}

#[test]
fn an_unknown_field_in_omit_is_refused() {
    let message = refused(&["beapi", "bst", "--scope", "3", "--omit", "Node.colour"]);
    assert!(message.contains("Node.colour") && message.contains("Node.key"), "{message}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("omit.toml");
    std::fs::write(&path, "scope = 3\nomit = [\"BinarySearchTree.depth\"]\n").unwrap();
    assert!(refused(&["beapi", "bst", "--config", path.to_str().unwrap()]).contains("BinarySearchTree.depth"));
}

#[test]
fn an_unknown_builder_is_refused() {
    let message = refused(&["beapi", "bst", "--scope", "3", "--builders", "new,push"]);
    assert!(message.contains("push") && message.contains("add"), "{message}");
    assert!(refused(&["beapi", "bst", "--scope", "3", "--builders", "add"]).contains("no constructor"));
}

#[test]
fn omitting_fields_changes_state_matching_as_in_the_paper() {
    let dir = tempfile::tempdir().unwrap();
    let count = |subject: &str, builders: &str, extra: &[&str]| {
        let mut args = vec!["beapi", subject, "--scope", "4", "--builders", builders, "--format", "json"];
        args.extend_from_slice(extra);
        let output = smallscope(&args, dir.path());
        assert!(output.status.success(), "{}", stderr(&output));
        let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        summary["structures"].as_u64().unwrap()
    };
    // A constant field (the paper's DEFAULT_MAXIMUM_CACHE_SIZE example) changes nothing.
    let builders = "new,add,remove_first";
    assert_eq!(
        count("ncl", builders, &["--omit", "NodeCachingLinkedList.maximum_cache_size"]),
        count("ncl", builders, &[])
    );
    // Without keys, trees that differ only in keys match: fewer structures,
    // and no more than the shapes (Catalan numbers summed over sizes).
    let keyless = count("bst", "new,add", &["--omit", "Node.key"]);
    assert!(keyless <= (0..=4).map(catalan).sum::<u64>(), "{keyless}");
    assert!(keyless < count("bst", "new,add", &[]), "{keyless}");
}

#[test]
fn korat_json_summary_has_the_contract_fields() {
    let dir = tempfile::tempdir().unwrap();
    for threads in ["1", "2"] {
        let output =
            smallscope(&["korat", "binary-tree", "--scope", "8", "--threads", threads, "--format", "json"], dir.path());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(summary["subject"], "binary-tree");
        assert_eq!(summary["engine"], "korat");
        assert_eq!(summary["scope"], 8);
        // Korat 1.0's published BinaryTree(8): 1 430 found, 54 418 explored.
        assert_eq!(summary["structures"], 1430);
        assert_eq!(summary["explored"], 54418);
        assert!(summary["seconds"].as_f64().unwrap() >= 0.0);
    }
    assert!(refused(&["korat", "no-such-model", "--scope", "3"]).contains("binary-tree"));
    // The scope can come from the same TOML file `beapi` reads.
    let path = dir.path().join("korat.toml");
    std::fs::write(&path, "scope = 4\n").unwrap();
    let output =
        smallscope(&["korat", "binary-tree", "--config", path.to_str().unwrap(), "--format", "json"], dir.path());
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((summary["scope"].as_u64(), summary["structures"].as_u64()), (Some(4), Some(14)));
    assert!(refused(&["korat", "binary-tree"]).contains("--scope"));
    assert!(refused(&["korat", "binary-tree", "--scope", "0"]).contains("scope must be at least 1"));
}

#[test]
fn the_korat_bench_prints_the_engine_and_the_hand_written_floor_on_the_same_candidates() {
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(&["bench", "korat", "--runs", "binary-tree:6-7,sorted-list:4"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let table = String::from_utf8(output.stdout).unwrap();
    let rows: Vec<Vec<&str>> = table.lines().skip(2).map(|l| l.split_whitespace().collect()).collect();
    // binary-tree 6, by hand 6, binary-tree 7, by hand 7, sorted-list 4.
    assert_eq!(rows.len(), 5, "{table}");
    for pair in [&rows[0..2], &rows[2..4]] {
        let (engine, by_hand) = (&pair[0], &pair[1]);
        assert_eq!(by_hand[..3], ["binary-tree", "by", "hand"], "{table}");
        // Scope, found and explored agree; found is the Catalan number.
        assert_eq!(engine[1..4], by_hand[3..6], "{table}");
    }
    assert_eq!(rows[0][2], "132");
    assert_eq!(rows[2][2], "429");
    assert_eq!(rows[4][0], "sorted-list");
    // The hand-written searches have a fixed range, and a few models.
    let refusal = refused_in_one_line(&["bench", "korat", "--by-hand", "binary-tree:65"]);
    assert!(refusal.contains("64"), "{refusal}");
    let refusal = refused_in_one_line(&["bench", "korat", "--by-hand", "avl:3"]);
    assert!(refusal.contains("no hand-written search of `avl`"), "{refusal}");
}

/// A refusal in one line that names `needle`.
fn refused_naming(args: &[&str], needle: &str) {
    let message = refused_in_one_line(args);
    assert!(message.contains(needle), "{args:?}: {message} should name {needle}");
}

#[test]
fn domains_larger_than_a_run_can_hold_are_refused_up_front() {
    refused_naming(
        &["beapi", "bst", "--scope", "3", "--ints=-9223372036854775808..9223372036854775807"],
        "18446744073709551615 values",
    );
    refused_naming(&["beapi", "bst", "--scope", "3", "--ints", "0..4000000000"], "4000000000 values");
    // The default integers are 0..scope.
    refused_naming(&["beapi", "bst", "--scope", "4294967295"], "0..4294967295");
    refused_naming(&["korat", "binary-tree", "--scope", "4294967295"], "fields");
    refused_naming(&["korat", "sorted-list", "--scope", "2000000"], "values");
}

#[test]
fn timeouts_and_limits_must_be_finite_and_positive() {
    for bad in ["1e300", "0", "-1", "nan", "inf"] {
        refused_naming(&["beapi", "bst", "--scope", "2", "--call-timeout", bad], "--call-timeout");
    }
    refused_naming(&["beapi", "bst", "--scope", "2", "--time-limit", "1e300"], "--time-limit");
    for small in ["0", "1", "31"] {
        refused_naming(&["beapi", "bst", "--scope", "2", "--memory-limit-mb", small], "--memory-limit-mb");
    }
    refused_naming(&["random", "dll", "--time-limit", "1e300s"], "--time-limit");
}

#[test]
fn an_unwritable_out_is_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("taken"), "a file, not a folder").unwrap();
    let started = std::time::Instant::now();
    refused_naming(
        &[
            "beapi",
            "bst",
            "--scope",
            "12",
            "--builders",
            "new,add",
            "--out",
            &dir.path().join("taken").display().to_string(),
        ],
        "--out",
    );
    // Refused at once, not after the run (which takes a minute).
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    refused_naming(&["beapi", "bst", "--scope", "2", "--out", "/proc/smallscope-out"], "--out");
}

#[test]
fn resume_needs_the_same_run_in_out() {
    refused_naming(&["beapi", "bst", "--scope", "2", "--resume"], "--out");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    // An interrupted run leaves its checkpoint; a resume with other options is refused.
    let output = smallscope(&["beapi", "bst", "--scope", "3", "--builders", "new,add", "--out", out], dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::create_dir_all(format!("{out}/.smallscope")).unwrap();
    std::fs::write(format!("{out}/.smallscope/job.json"), r#"{"args":["beapi","bst","--scope","3"]}"#).unwrap();
    refused_naming(&["beapi", "bst", "--scope", "4", "--builders", "new,add", "--out", out, "--resume"], "another one");
}

#[test]
fn a_closed_standard_output_ends_the_run_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(&["list", "--verbose"], dir.path());
    // As `| head -1` does: read a line, then close the pipe.
    let mut first = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut first).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(!first.is_empty());
    let message = stderr(&output);
    assert!(!message.contains("panicked") && !message.contains("error"), "{message}");
    assert_eq!(output.status.code(), Some(0), "{message}");
}

#[test]
fn peak_memory_is_the_workers_not_what_an_earlier_program_used() {
    // `cargo run` execs the binary after reaping rustc: usage the process
    // inherits across exec must not be taken for the run's.
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "dd if=/dev/zero of=/dev/null bs=200M count=1 2>/dev/null; exec '{}' beapi bst --scope 4 --format json",
        env!("CARGO_BIN_EXE_smallscope")
    );
    let output = std::process::Command::new("sh").args(["-c", &script]).current_dir(dir.path()).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let peak = summary["peak_memory_bytes"].as_u64().expect("a peak on Linux");
    assert!(peak > 0 && peak < 100 << 20, "peak {} MiB", peak >> 20);
}

/// The frames a worker sent: `(tag, payload)`, as the worker's module doc
/// describes them (a tag byte, a little-endian `u32` length, the payload).
fn frames(mut bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut frames = Vec::new();
    while let [tag, a, b, c, d, rest @ ..] = bytes {
        let len = u32::from_le_bytes([*a, *b, *c, *d]) as usize;
        frames.push((*tag, rest[..len].to_vec()));
        bytes = &rest[len..];
    }
    assert!(bytes.is_empty(), "a frame cut short");
    frames
}

/// A worker is handed its job as data: started with no arguments at all,
/// only the order file in its folder (and the flight recorder a supervisor
/// maps), it runs the job and sends its commits and its end.
#[test]
fn a_worker_runs_the_order_it_is_handed() {
    use smallscope::order::{BeapiOrder, JobOrder};
    let dir = tempfile::tempdir().unwrap();
    let config = smallscope::BeapiConfig {
        scope: 3,
        builders: "new,add".parse().unwrap(),
        check: smallscope::Check::None,
        cache_dir: None,
        ..smallscope::BeapiConfig::default()
    };
    let order = JobOrder::from(BeapiOrder { subject: "bst".into(), config, command: None });
    std::fs::write(dir.path().join("order.json"), serde_json::to_string(&order).unwrap()).unwrap();
    let flight = std::fs::File::create(dir.path().join("flight")).unwrap();
    flight.set_len((64 * smallscope::runner::flight::SLOT_WORDS * 8) as u64).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .env(smallscope_args::WORKER_DIR_VAR, dir.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let frames = frames(&output.stdout);
    assert_eq!(frames.last(), Some(&(b'F', Vec::new())), "the job's end, without an error");
    let events: Vec<serde_json::Value> = (frames.iter().filter(|(tag, _)| *tag == b'B'))
        .flat_map(|(_, ndjson)| {
            String::from_utf8(ndjson.clone()).unwrap().lines().map(str::to_owned).collect::<Vec<_>>()
        })
        .map(|line| serde_json::from_str(&line).unwrap())
        .collect();
    let structures = events.iter().filter(|e| e["event"] == "structure").count() as u64;
    // Search trees of distinct keys from 0..3: C(3,k) key sets of k nodes, Catalan(k) shapes each.
    assert_eq!(structures, (0..=3).map(|k| binomial(3, k) * catalan(k)).sum::<u64>());
}

/// A worker without an order says what is missing, and that the variable is not for users.
#[test]
fn a_worker_without_an_order_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(["beapi", "bst", "--scope", "2"])
        .env(smallscope_args::WORKER_DIR_VAR, dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    assert!(text.contains("order.json") && text.contains("unset it"), "{text}");
}
