//! Cluster mode: one run over two processes on this host (`--hostfile` of
//! two localhost ports, `--process 0|1`) writes what one process writes,
//! survives one of them being killed through `--resume`, and refuses bad
//! cluster options.

use std::path::Path;
use std::process::{Child, Output};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::common::{outputs, refused, smallscope, spawn, stderr, stdout};

/// A hostfile of `count` localhost ports free a moment ago, in `dir`:
/// below the ephemeral range (from 32768 on Linux), where outgoing
/// connections of other tests would take them meanwhile.
fn hostfile(dir: &Path, count: usize) -> String {
    // Distinct between the tests of this process, which run at once.
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let base = u64::from(std::process::id()) * 97;
    let mut ports = Vec::new();
    while ports.len() < count {
        let port = 20_000 + (base + NEXT.fetch_add(1, Ordering::Relaxed)) % 12_000;
        if std::net::TcpListener::bind(("127.0.0.1", port as u16)).is_ok() {
            ports.push(port);
        }
    }
    let lines: Vec<String> = ports.iter().map(|port| format!("127.0.0.1:{port}")).collect();
    let path = dir.join("hosts");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.to_string_lossy().into_owned()
}

/// Starts process `index` of the cluster in `hosts` with `args`, writing into `out`.
fn start(args: &[&str], hosts: &str, index: usize, out: &str, dir: &Path) -> Child {
    let index = index.to_string();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--out", out, "--hostfile", hosts, "--process", &index]);
    spawn(&all, dir)
}

fn finish(child: Child) -> Output {
    child.wait_with_output().unwrap()
}

/// Runs `args` as both processes of the cluster in `hosts`, into `two` and
/// `two-1`; both must end cleanly.
fn both(args: &[&str], hosts: &str, dir: &Path) -> (Output, Output) {
    let first = start(args, hosts, 0, "two", dir);
    let second = start(args, hosts, 1, "two-1", dir);
    let (first, second) = (finish(first), finish(second));
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    (first, second)
}

const KORAT: [&str; 4] = ["korat", "binary-tree", "--scope", "12"];

/// The files of a one-process run of `args`.
fn one_process(args: &[&str], dir: &Path) -> crate::common::Files {
    let mut all = args.to_vec();
    all.extend(["--out", "one"]);
    let output = smallscope(&all, dir);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    outputs(&dir.join("one"))
}

#[test]
fn korat_on_two_processes_writes_the_files_of_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let expected = one_process(&KORAT, dir.path());
    let hosts = hostfile(dir.path(), 2);
    let (first, second) = both(&KORAT, &hosts, dir.path());
    // Catalan(12) trees, found once between the two processes.
    assert!(stdout(&first).contains("total: 208012 structures"), "{}", stdout(&first));
    assert!(stdout(&second).contains("process 1 of 2 searched its share"), "{}", stdout(&second));
    let written = outputs(&dir.path().join("two"));
    assert_eq!(written.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(), {
        expected.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>()
    });
    for ((name, bytes), (_, expected)) in written.iter().zip(&expected) {
        assert!(bytes == expected, "{name} differs from one process's");
    }
    // Both shares handed everything over: nothing is kept to resume.
    assert!(!dir.path().join("two/.smallscope-share-0").exists());
    assert!(!dir.path().join("two-1/.smallscope-share-1").exists());
}

/// Runs `args` on both processes, kills process 1 once its staged events
/// say `sent` (it has sent some of its share), checks that process 0
/// stops with the cluster's fault, and resumes both to the end.
fn killed_and_resumed(args: &[&str], dir: &Path, sent: &dyn Fn(&str) -> bool) {
    let hosts = hostfile(dir, 2);
    let first = start(args, &hosts, 0, "two", dir);
    let mut second = start(args, &hosts, 1, "two-1", dir);
    let staged = dir.join("two-1/.smallscope-share-1/.smallscope/events.ndjson");
    let began = Instant::now();
    while !std::fs::read_to_string(&staged).is_ok_and(|t| sent(&t)) && began.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    second.kill().unwrap();
    let _ = second.wait();
    let first = finish(first);
    let message = stderr(&first);
    assert_eq!(first.status.code(), Some(2), "process 0 should stop with the cluster's fault: {message}");
    assert!(message.contains("the connection to another process was lost"), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    assert!(stdout(&first).contains("--resume"), "{}", stdout(&first));
    let mut resume = args.to_vec();
    resume.push("--resume");
    both(&resume, &hosts, dir);
}

#[test]
fn a_process_killed_mid_run_is_resumed_to_the_files_of_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let expected = one_process(&KORAT, dir.path());
    // Killed once it has searched and sent a few parts.
    killed_and_resumed(&KORAT, dir.path(), &|events| events.len() >= 100_000);
    let written = outputs(&dir.path().join("two"));
    assert_eq!(written.len(), expected.len());
    for ((name, bytes), (_, expected)) in written.iter().zip(&expected) {
        assert!(bytes == expected, "{name} differs from one process's after the resume");
    }
}

/// A random run shared out by streams, long enough to be killed mid-stream.
const RANDOM: [&str; 6] = ["random", "dll", "--sequences", "400000", "--streams", "4"];

/// Asserts that the files in `two` are `expected`, a one-process run's
/// into `one` (the test files name the folder they were written to).
fn same_as_one_process(two: &Path, expected: &crate::common::Files) {
    let written = outputs(two);
    assert_eq!(written.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(), {
        expected.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>()
    });
    for ((name, bytes), (_, expected)) in written.iter().zip(expected) {
        let expected = String::from_utf8_lossy(expected).replace("--out one", "--out two");
        assert!(String::from_utf8_lossy(bytes) == expected, "{name} differs from one process's");
    }
}

#[test]
fn random_streams_on_two_processes_write_the_files_of_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["random", "dll", "--sequences", "200000", "--streams", "2"];
    let expected = one_process(&args, dir.path());
    let hosts = hostfile(dir.path(), 2);
    let (first, second) = both(&args, &hosts, dir.path());
    assert!(stdout(&first).contains("200000 sequences"), "{}", stdout(&first));
    assert!(stdout(&second).contains("process 1 of 2 searched its share"), "{}", stdout(&second));
    same_as_one_process(&dir.path().join("two"), &expected);
    // Fewer streams than processes would leave a process idle: refused.
    let message = refused(&["random", "dll", "--sequences", "9", "--hostfile", &hosts, "--process", "0"]);
    assert!(message.contains("give --streams 2 or more"), "{message}");
}

#[test]
fn a_random_process_killed_mid_stream_is_resumed_to_the_files_of_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let expected = one_process(&RANDOM, dir.path());
    // Killed in its second stream, once its first is sent.
    killed_and_resumed(&RANDOM, dir.path(), &|events| events.contains(r#""event":"stream""#));
    same_as_one_process(&dir.path().join("two"), &expected);
}

#[test]
fn a_process_started_alone_says_what_it_waits_for_and_stops_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = hostfile(dir.path(), 2);
    let args = ["random", "dll", "--sequences", "100000000", "--streams", "2"];
    let child = start(&args, &hosts, 0, "alone", dir.path());
    // Past the three seconds after which it says what it waits for.
    std::thread::sleep(Duration::from_secs(4));
    let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let output = finish(child);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(130), "{message}");
    assert!(message.contains("waiting for process 1 (127.0.0.1:"), "{message}");
    assert!(message.contains("stopped before the other processes connected"), "{message}");
    // Nothing was joined: no summary saying so.
    assert!(!stdout(&output).contains("failure groups"), "{}", stdout(&output));
}

#[test]
fn cluster_options_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = hostfile(dir.path(), 2);
    let message = refused(&["korat", "binary-tree", "--scope", "3", "--hostfile", &hosts, "--process", "2"]);
    assert!(message.contains("names 2 processes, numbered from 0"), "{message}");
    let message = refused(&["korat", "binary-tree", "--scope", "3", "--hostfile", &hosts]);
    assert!(message.contains("needs --process I"), "{message}");
    let bad = dir.path().join("bad-hosts");
    std::fs::write(&bad, "127.0.0.1\n").unwrap();
    let bad = bad.to_string_lossy().into_owned();
    let message = refused(&["korat", "binary-tree", "--scope", "3", "--hostfile", &bad, "--process", "0"]);
    assert!(message.contains("line 1: `127.0.0.1` is not `host:port`"), "{message}");
    let message = refused(&["beapi", "bst", "--scope", "3", "--hostfile", &hosts, "--process", "0"]);
    assert!(message.contains("`beapi` has no cluster mode yet"), "{message}");
}
