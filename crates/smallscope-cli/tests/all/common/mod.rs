//! What the command-line tests share: running the binary and reading its output.

#![allow(dead_code)] // Each test file uses a part.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// Runs `smallscope` with `args` in `dir`.
pub fn smallscope(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smallscope")).args(args).current_dir(dir).output().expect("binary runs")
}

/// Starts `smallscope` with `args` in `dir`, its output piped.
pub fn spawn(args: &[&str], dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

pub fn catalan(n: u64) -> u64 {
    (0..n).fold(1, |c, i| c * 2 * (2 * i + 1) / (i + 2))
}

pub fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs a command that must be refused as bad input (exit 2, an `error`
/// message, no panic), and returns its message.
pub fn refused(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(args, dir.path());
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?} should exit 2; stderr: {message}");
    assert!(!message.contains("panicked"), "{args:?} panicked: {message}");
    assert!(message.starts_with("error"), "{args:?}: {message}");
    message
}

/// Runs a command that must be refused as bad input, in one line of stderr.
pub fn refused_in_one_line(args: &[&str]) -> String {
    let message = refused(args);
    assert_eq!(message.trim_end().lines().count(), 1, "{args:?}: one line expected: {message}");
    message
}

/// Keys whose values are timings or measurements, which two runs need not share.
const TIMINGS: [&str; 6] = [
    "seconds",
    "level_seconds",
    "sequences_per_second",
    "peak_memory_bytes",
    "supervisor_peak_memory_bytes",
    "wall_seconds",
];

fn drop_timings(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|key, _| !TIMINGS.contains(&key.as_str()));
            map.values_mut().for_each(drop_timings);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_timings),
        _ => {}
    }
}

/// JSON (one document, or one per line) with its timings left out: what
/// two runs of the same job must agree on byte for byte.
pub fn timeless(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let whole: Result<serde_json::Value, _> = serde_json::from_str(&text);
    let documents: Vec<serde_json::Value> = match whole {
        Ok(document) => vec![document],
        Err(_) => text.lines().map(|line| serde_json::from_str(line).expect("a JSON line")).collect(),
    };
    documents
        .into_iter()
        .map(|mut document| {
            drop_timings(&mut document);
            document.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A report page with what was measured (times, memory) left out: the
/// text of each element of class `measured`.
pub fn unmeasured(page: &str) -> String {
    const MARK: &str = "class=\"measured\">";
    let mut out = String::new();
    let mut rest = page;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at + MARK.len()]);
        rest = &rest[at + MARK.len()..];
        rest = &rest[rest.find('<').unwrap_or(rest.len())..];
    }
    out.push_str(rest);
    out
}

/// A run's files, by name.
pub type Files = Vec<(String, Vec<u8>)>;

/// Every file of `dir`, by name; JSON files without their timings.
pub fn outputs(dir: &Path) -> Files {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap();
            let bytes = if name.ends_with(".json") || name.ends_with(".ndjson") {
                timeless(&bytes).into_bytes()
            } else if name.ends_with(".html") {
                unmeasured(&String::from_utf8_lossy(&bytes)).into_bytes()
            } else {
                bytes
            };
            (name, bytes)
        })
        .collect();
    out.sort();
    out
}
