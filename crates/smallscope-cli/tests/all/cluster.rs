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

#[test]
fn a_process_killed_mid_run_is_resumed_to_the_files_of_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let expected = one_process(&KORAT, dir.path());
    let hosts = hostfile(dir.path(), 2);
    let first = start(&KORAT, &hosts, 0, "two", dir.path());
    let mut second = start(&KORAT, &hosts, 1, "two-1", dir.path());
    // Killed once it has searched and sent a few parts.
    let staged = dir.path().join("two-1/.smallscope-share-1/.smallscope/events.ndjson");
    let began = Instant::now();
    while std::fs::metadata(&staged).map_or(0, |m| m.len()) < 100_000 && began.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(10));
    }
    second.kill().unwrap();
    let _ = second.wait();
    let first = finish(first);
    let message = stderr(&first);
    assert_eq!(first.status.code(), Some(2), "process 0 should stop with the cluster's fault: {message}");
    assert!(message.contains("the connection to another process was lost"), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    assert!(stdout(&first).contains("--resume"), "{}", stdout(&first));
    let mut resume = KORAT.to_vec();
    resume.push("--resume");
    both(&resume, &hosts, dir.path());
    let written = outputs(&dir.path().join("two"));
    assert_eq!(written.len(), expected.len());
    for ((name, bytes), (_, expected)) in written.iter().zip(&expected) {
        assert!(bytes == expected, "{name} differs from one process's after the resume");
    }
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
