//! Cases of the reliability battery: what a run does when its output, its
//! environment, its signals or its folder are not as expected. Each ends
//! as a trusted tool would: the run's own outcome, or one clear line.

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// A planted bug random testing finds in a fixed run.
const FAILING: [&str; 6] = ["random", "dll-bug-remove", "--sequences", "3000", "--seed", "2"];

#[test]
fn a_closed_or_full_standard_output_does_not_hide_the_failures() {
    let dir = tempfile::tempdir().unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let closed = Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(FAILING)
        .current_dir(dir.path())
        .stdout(writer)
        .output()
        .unwrap();
    assert_eq!(closed.status.code(), Some(1), "{}", stderr(&closed));
    let full = Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(FAILING)
        .current_dir(dir.path())
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(full.status.code(), Some(1), "{}", stderr(&full));
}

#[test]
fn an_inherited_worker_variable_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(["beapi", "bst", "--scope", "2"])
        .env("SMALLSCOPE_WORKER_DIR", dir.path().join("gone"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    assert!(text.contains("SMALLSCOPE_WORKER_DIR") && text.contains("unset it"), "{text}");
}

/// Interrupted, then resumed with the options in another order and `--out`
/// spelled `./out/`: the same run, carried on to the files of a whole one.
#[test]
fn a_resume_is_the_same_run_whatever_the_order_of_its_options() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["beapi", "bst", "--scope", "10", "--builders", "new,add", "--check", "none", "--out", "out"];
    let mut child = spawn(&args, dir.path());
    let checkpoint = dir.path().join("out/.smallscope/checkpoint.json");
    let started = Instant::now();
    let events_committed = |text: String| {
        serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|c| c["events"].as_u64().is_some_and(|n| n > 0))
    };
    while !std::fs::read_to_string(&checkpoint).is_ok_and(events_committed) {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be stopped");
        assert!(started.elapsed() < Duration::from_secs(300));
        std::thread::sleep(Duration::from_millis(20));
    }
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let reordered = ["beapi", "--out", "./out/", "--check", "none", "bst", "--builders", "new,add", "--scope", "10"];
    let output = smallscope(&[&reordered[..], &["--resume"]].concat(), dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("resuming"), "{}", stderr(&output));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    // Every search tree of at most 10 keys from 0..10, the empty one too:
    // the sum over k of C(10, k) * Catalan(k).
    let trees: u64 = (0..=10).map(|k| binomial(10, k) * catalan(k)).sum();
    assert_eq!(summary["structures"], trees, "{summary:#}");
    assert_eq!(summary["stop"], "complete");
}

#[test]
fn a_run_begun_by_another_build_is_not_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let job = dir.path().join("out/.smallscope/job.json");
    let mut child = spawn(&["korat", "binary-tree", "--scope", "13", "--out", "out"], dir.path());
    while !job.exists() {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let mut file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&job).unwrap()).unwrap();
    // The job file as another build would have left it.
    file["program"] = "smallscope 0.0.1 (1 bytes, modified 0)".into();
    std::fs::write(&job, file.to_string()).unwrap();
    let refused = smallscope(&["korat", "binary-tree", "--scope", "13", "--out", "out", "--resume"], dir.path());
    assert_eq!(refused.status.code(), Some(2));
    let text = stderr(&refused);
    assert!(text.contains("another build") && text.contains("0.0.1"), "{text}");
    assert_eq!(text.trim().lines().count(), 1, "{text}");
}

#[test]
fn sighup_ends_a_run_as_sigterm_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(&["korat", "binary-tree", "--scope", "14", "--out", "out"], dir.path());
    let checkpoint = dir.path().join("out/.smallscope/checkpoint.json");
    while !checkpoint.exists() {
        assert!(child.try_wait().unwrap().is_none());
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    Command::new("kill").args(["-HUP", &child.id().to_string()]).status().unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(sent.elapsed() < Duration::from_secs(2), "{:?}", sent.elapsed());
    assert_eq!(output.status.code(), Some(129), "{}", stderr(&output));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop"], "interrupted", "{summary:#}");
    assert!(summary["resume"].as_str().is_some(), "{summary:#}");
}

/// Under `ulimit -f` writing the files fails: said in one line, exit 2,
/// instead of a silent death by SIGXFSZ.
#[test]
fn a_file_size_limit_is_an_error_not_a_silent_death() {
    let dir = tempfile::tempdir().unwrap();
    let command =
        format!("ulimit -f 64; exec {} korat binary-tree --scope 10 --out out", env!("CARGO_BIN_EXE_smallscope"));
    let output =
        Command::new("sh").args(["-c", &command]).current_dir(dir.path()).stdin(Stdio::null()).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("error:") && text.to_lowercase().contains("file too large"), "{text}");
}

/// The worker processes of the run `pid`.
fn workers(pid: u32) -> Vec<u32> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).map(|d| d.flatten().collect()).unwrap_or(Vec::new());
    tasks
        .iter()
        .flat_map(|task| {
            std::fs::read_to_string(task.path().join("children"))
                .unwrap_or_default()
                .split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter_map(|p| p.parse().ok())
        .collect()
}

/// Starts `args` and waits for its first commit and its worker.
fn started_with_worker(args: &[&str], dir: &std::path::Path) -> (std::process::Child, u32) {
    let mut child = spawn(args, dir);
    let checkpoint = dir.join("out/.smallscope/checkpoint.json");
    let started = Instant::now();
    loop {
        assert!(child.try_wait().unwrap().is_none(), "the run ended too soon");
        assert!(started.elapsed() < Duration::from_secs(120));
        if let (true, Some(&worker)) = (checkpoint.exists(), workers(child.id()).first()) {
            return (child, worker);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A worker killed by SIGKILL that smallscope did not send (the system's
/// out-of-memory killer does that) is no finding in the code under test:
/// the run says so in one line, exits 2 and can be resumed to the end.
#[test]
fn a_worker_killed_from_outside_is_not_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["korat", "binary-tree", "--scope", "12", "--out", "out"];
    let (child, worker) = started_with_worker(&args, dir.path());
    Command::new("kill").args(["-KILL", &worker.to_string()]).status().unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("killed from outside") && text.contains("--resume"), "{text}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["failures"], 0, "{summary:#}");
    let resumed = smallscope(&[&args[..], &["--resume"]].concat(), dir.path());
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["structures"], catalan(12), "{summary:#}");
}

/// A worker stopped (SIGSTOP) for longer than the call timeout is not a
/// hang: once continued, the run ends as if nothing happened.
#[test]
fn a_stopped_worker_is_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--call-timeout", "1", "korat", "binary-tree", "--scope", "12", "--out", "out"];
    let (child, worker) = started_with_worker(&args, dir.path());
    Command::new("kill").args(["-STOP", &worker.to_string()]).status().unwrap();
    std::thread::sleep(Duration::from_secs(3));
    Command::new("kill").args(["-CONT", &worker.to_string()]).status().unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    assert_eq!((summary["failures"].as_u64(), summary["restarts"].as_u64()), (Some(0), Some(0)), "{summary:#}");
    assert_eq!(summary["structures"], catalan(12), "{summary:#}");
}

/// `--emit-tests` onto a FIFO or a device is refused before the run; onto a
/// symbolic link, the file it points to gets the tests and the link stays.
#[test]
fn test_files_go_only_into_files() {
    let dir = tempfile::tempdir().unwrap();
    assert!(Command::new("mkfifo").arg(dir.path().join("fifo")).status().unwrap().success());
    for target in ["fifo", "/dev/null"] {
        let output = smallscope(&["beapi", "bst", "--scope", "2", "--emit-tests", target], dir.path());
        assert_eq!(output.status.code(), Some(2), "{target}: {}", stderr(&output));
        assert!(stderr(&output).contains("not a file"), "{}", stderr(&output));
    }
    assert!(Command::new("ln").args(["-s", "real.rs", "link.rs"]).current_dir(dir.path()).status().unwrap().success());
    std::fs::write(dir.path().join("real.rs"), "").unwrap();
    let output = smallscope(&["beapi", "bst", "--scope", "2", "--emit-tests", "link.rs"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(std::fs::symlink_metadata(dir.path().join("link.rs")).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(dir.path().join("real.rs")).unwrap().contains("#[test]"));
}

/// A `.smallscope` in `--out` that is a link is refused (nothing is
/// written through it), and so is a second run on an `--out` in use.
#[test]
fn an_out_folder_is_one_runs_and_follows_no_link() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("elsewhere")).unwrap();
    std::fs::create_dir_all(dir.path().join("linked")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), dir.path().join("linked/.smallscope")).unwrap();
    let output = smallscope(&["korat", "binary-tree", "--scope", "3", "--out", "linked"], dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("not a folder"), "{}", stderr(&output));
    assert_eq!(std::fs::read_dir(dir.path().join("elsewhere")).unwrap().count(), 0);

    let (mut first, _) = started_with_worker(&["korat", "binary-tree", "--scope", "13", "--out", "out"], dir.path());
    let second = smallscope(&["korat", "binary-tree", "--scope", "3", "--out", "out"], dir.path());
    assert_eq!(second.status.code(), Some(2), "{}", stderr(&second));
    assert!(stderr(&second).contains("another run"), "{}", stderr(&second));
    first.kill().unwrap();
    first.wait().unwrap();
}

/// The supervisor holds what the run found for its report: its own memory
/// is under the memory limit too. Past it, the run stops with what it
/// found, marked `memory-limit`, instead of growing without bound.
#[test]
fn the_supervisor_stays_under_the_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["korat", "binary-tree", "--scope", "13", "--memory-limit-mb", "64", "--out", "out"];
    let output = smallscope(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("smallscope's own memory"), "{}", stderr(&output));
    let text = std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(summary["stop"], "memory-limit", "{summary:#}");
    // The run found part of the trees, each written whole.
    let found = summary["structures"].as_u64().unwrap();
    assert!(found > 0 && found < catalan(13), "{summary:#}");
    let lines = std::fs::read_to_string(dir.path().join("out/structures.jsonl")).unwrap();
    assert_eq!(lines.lines().count() as u64, found);
    let peak = summary["supervisor_peak_memory_bytes"].as_u64().unwrap();
    assert!(peak < 100 << 20, "supervisor peak {} MiB", peak >> 20);
}

/// At scope 30 the first part of binary trees would run for years: it
/// commits as it goes, so that a time limit (or a stop) inside it keeps
/// what it found, written whole, instead of ending with nothing.
#[test]
fn a_time_limit_inside_a_korat_part_keeps_what_it_found() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let output =
        smallscope(&["korat", "binary-tree", "--scope", "30", "--time-limit", "2", "--out", "out"], dir.path());
    let elapsed = started.elapsed();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(elapsed < Duration::from_secs(8), "{elapsed:?}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop"], "time-limit", "{summary:#}");
    let found = summary["structures"].as_u64().unwrap();
    assert!(found > 100, "{summary:#}");
    let lines = std::fs::read_to_string(dir.path().join("out/structures.jsonl")).unwrap();
    assert_eq!(lines.lines().count() as u64, found);
    assert!(stdout(&output).contains("stopped early (time limit)"), "{}", stdout(&output));
}

/// A scope whose candidates would have millions of fields is refused in
/// one line before anything is built (it used to take gigabytes first).
#[test]
fn an_absurd_korat_scope_is_refused_before_it_is_built() {
    let message = refused_in_one_line(&["korat", "binary-tree", "--scope", "1000000"]);
    assert!(message.contains("make more than 65536 fields to search"), "{message}");
}

/// Under `ulimit -v` a run holds itself to a quarter of the address space
/// (stacks, arenas and growing tables need the rest), so that a scope too
/// large for it stops as a memory limit with what it found written, not
/// with an allocation failure and nothing. Correct code is not blamed:
/// what an engine's own tables take is not a call's leak.
#[test]
fn an_address_space_limit_is_a_memory_limit_not_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "ulimit -v 600000; exec {} beapi bst --scope 30 --builders new,add --out out",
        env!("CARGO_BIN_EXE_smallscope")
    );
    let output =
        Command::new("sh").args(["-c", &command]).current_dir(dir.path()).stdin(Stdio::null()).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop"], "memory-limit", "{summary:#}");
    assert_eq!(summary["failures"], 0, "{summary:#}");
    // A quarter of 600 000 KiB.
    assert_eq!(summary["memory_limit_bytes"], 600_000 * 1024 / 4, "{summary:#}");
    let found = summary["structures"].as_u64().unwrap();
    assert!(found > 10_000, "{summary:#}");
    let lines = std::fs::read_to_string(dir.path().join("out/structures.jsonl")).unwrap();
    assert_eq!(lines.lines().count() as u64, found);
    assert!(stdout(&output).contains("stopped early (memory limit of 146 MiB)"), "{}", stdout(&output));
}

/// Random testing keeps every sequence it makes: on correct code, a tight
/// limit ends the run as a memory limit, with no finding made up.
#[test]
fn a_tight_memory_limit_on_correct_code_is_a_stop_not_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["random", "bst", "--time-limit", "120s", "--memory-limit-mb", "48", "--out", "out"];
    let output = smallscope(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stopped_by"], "memory limit of 48 MiB", "{summary:#}");
    assert_eq!(summary["failure_group_count"], 0, "{summary:#}");
    assert!(summary["sequences"].as_u64().unwrap() > 10_000, "{summary:#}");
}

/// Random testing commits each new failure group after its sequence, not
/// only every 16 384 sequences: a hang or a Ctrl-C soon after keeps it.
#[test]
fn random_commits_a_new_failure_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = FAILING.to_vec();
    args.extend(["--out", "out"]);
    let output = smallscope(&args, dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let events: Vec<serde_json::Value> = std::fs::read_to_string(dir.path().join("out/events.ndjson"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let failure = events.iter().position(|e| e["event"] == "failure").expect("a failure");
    let next = events[failure..].iter().find(|e| e["event"] == "progress").expect("a commit after it");
    let committed_at = next["resume"]["random"]["sequences"].as_u64().unwrap();
    assert!(committed_at < 3000, "the failure waited for the run's end: {next}");
}

/// A run stopped by Ctrl-C leaves the test files of an earlier, whole run
/// as they were, and says so: they would hold part of the run.
#[test]
fn an_interrupted_run_leaves_earlier_test_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.rs"), "// an earlier run's tests\n").unwrap();
    let child = spawn(&["random", "bst", "--time-limit", "120s", "--emit-tests", "t.rs", "--out", "out"], dir.path());
    // Well into the run: its start is committed.
    let started = Instant::now();
    while !dir.path().join("out/.smallscope/checkpoint.json").exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "the run did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(stderr(&output).contains("no test files written"), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(dir.path().join("t.rs")).unwrap(), "// an earlier run's tests\n");
}

/// Under `cargo smallscope`, which passes the test files itself, the resume
/// command an interrupted run prints leaves them out: given again, they
/// would be given twice, and the command refused.
#[test]
fn the_resume_command_under_cargo_smallscope_leaves_implied_files_out() {
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(["random", "bst", "--time-limit", "120s", "--emit-tests=t.rs", "--emit-failing-tests=f.rs", "--out=out"])
        .env("SMALLSCOPE_PROGRAM", "cargo smallscope")
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !dir.path().join("out/.smallscope/checkpoint.json").exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "the run did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["resume"], "cargo smallscope random bst --time-limit 120s --out=out --resume", "{summary:#}");
}

/// Under `cargo smallscope`, a failure's replay command (`--stop-at`) leaves
/// the crate's test files as the whole run wrote them.
#[test]
fn a_failure_replay_under_cargo_smallscope_keeps_the_crate_tests() {
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["random", "dll-bug-remove", "--sequences", "20000", "--emit-tests=t.rs"];
        args.extend(extra);
        let output = Command::new(env!("CARGO_BIN_EXE_smallscope"))
            .args(&args)
            .env("SMALLSCOPE_PROGRAM", "cargo smallscope")
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        output
    };
    let whole = run(&[]);
    let tests = std::fs::read_to_string(dir.path().join("t.rs")).unwrap();
    // The group's replay command, as the summary prints it.
    let text = stdout(&whole);
    let replay = text.lines().find_map(|l| l.trim().strip_prefix("replay: cargo smallscope random ")).unwrap();
    let stop_at = replay.split_whitespace().skip_while(|w| *w != "--stop-at").nth(1).unwrap();
    let replayed = run(&["--stop-at", stop_at]);
    assert!(stderr(&replayed).contains("the crate's test files are left as they are"), "{}", stderr(&replayed));
    assert_eq!(std::fs::read_to_string(dir.path().join("t.rs")).unwrap(), tests);
}
