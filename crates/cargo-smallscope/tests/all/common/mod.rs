//! Running `cargo smallscope` as a user does: in a copy of a fixture crate,
//! with cargo's own first argument, and reading what it says.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard};

/// What one `cargo smallscope` command did.
#[derive(Debug)]
pub struct Said {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Said {
    /// Standard error's lines, the progress lines of a terminal aside.
    pub fn error_lines(&self) -> Vec<&str> {
        self.stderr.lines().filter(|l| !l.trim().is_empty()).collect()
    }
}

/// Where the harnesses of every test build: one folder, so that the
/// command line builds once in release mode.
pub fn target_dir() -> PathBuf {
    smallscope_scratch_crate::shared_target_dir("cargo-smallscope-tests")
}

/// Held while a test's `cargo smallscope` builds and runs a harness: every
/// harness builds to `target/release/smallscope` in the shared target
/// folder, so two at once would run each other's binary.
pub fn harness_lock() -> MutexGuard<'static, ()> {
    static HARNESS: Mutex<()> = Mutex::new(());
    HARNESS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `cargo smallscope args…` in `dir`, as cargo starts it.
pub fn cargo_smallscope(dir: &Path, args: &[&str]) -> Said {
    cargo_smallscope_with(dir, args, &[])
}

/// The same, with environment variables set.
pub fn cargo_smallscope_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Said {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cargo-smallscope"));
    command.arg("smallscope").args(args).current_dir(dir).env("CARGO_TARGET_DIR", target_dir());
    for (name, value) in env {
        command.env(name, value);
    }
    let output = {
        let _harness = harness_lock();
        command.output().expect("cargo-smallscope runs")
    };
    Said {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A copy of `fixtures/{name}` in `tmp`, with `cargo smallscope init` run
/// in it, and the harness given the workspace's lock file.
pub fn initialized(name: &str, tmp: &Path) -> PathBuf {
    let dir = smallscope_scratch_crate::copy_fixture(name, tmp);
    let said = cargo_smallscope(&dir, &["init"]);
    assert_eq!(said.code, 0, "{said:?}");
    std::fs::copy(dir.join("Cargo.lock"), dir.join("smallscope/Cargo.lock")).unwrap();
    dir
}

/// `target/smallscope/<subject>/<engine>/summary.json`.
pub fn summary(subject: &str, engine: &str) -> serde_json::Value {
    let path = target_dir().join("smallscope").join(subject).join(engine).join("summary.json");
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}
