//! What the command-line tests share: running the binary and reading its output.

#![allow(dead_code)] // Each test file uses a part.

use std::path::Path;
use std::process::{Command, Output};

/// Runs `smallscope` with `args` in `dir`.
pub fn smallscope(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smallscope")).args(args).current_dir(dir).output().expect("binary runs")
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
