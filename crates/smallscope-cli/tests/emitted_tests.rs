//! Generated test files compile and pass under `cargo test` in a crate of
//! their own, the way a user would use them; generated failure witnesses
//! are ignored by default and fail when run.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// Emits a test file for `subject` into `tests_dir`; returns the structure count.
fn emit(subject: &str, scope: &str, builders: &str, tests_dir: &Path) -> u64 {
    let file = tests_dir.join(format!("{}.rs", subject.replace('-', "_")));
    let output = Command::new(env!("CARGO_BIN_EXE_smallscope"))
        .args(["beapi", subject, "--scope", scope, "--builders", builders, "--format", "json", "--no-cache"])
        .arg("--emit-tests")
        .arg(&file)
        .output()
        .unwrap();
    assert!(output.status.code().unwrap() <= 1, "{}", String::from_utf8_lossy(&output.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    summary["structures"].as_u64().unwrap()
}

/// Runs `cargo test` in the generated crate and returns (stdout, success).
fn cargo_test(krate: &Path, extra: &[&str]) -> (String, bool) {
    let output = Command::new(env!("CARGO"))
        .args(["test", "--offline", "--quiet", "--manifest-path"])
        .arg(krate.join("Cargo.toml"))
        .arg("--")
        .args(extra)
        .env("CARGO_TARGET_DIR", workspace().join("target/emitted-tests"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    (text, output.status.success())
}

/// Sums `N passed` over every test binary's result line.
fn passed(text: &str) -> u64 {
    text.lines()
        .filter_map(|l| l.strip_prefix("test result: "))
        .filter_map(|l| {
            l.split_once(" passed").map(|(head, _)| head.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        })
        .sum()
}

#[test]
fn generated_tests_compile_and_pass() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path();
    let root = workspace();
    std::fs::create_dir_all(krate.join("tests")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"emitted-tests\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nsmallscope = {{ path = {:?} }}\nsmallscope-subjects = {{ path = {:?} }}\n\n[workspace]\n",
            root.join("crates/smallscope"),
            root.join("crates/smallscope-subjects"),
        ),
    )
    .unwrap();
    std::fs::write(krate.join("src.rs"), "").unwrap();
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(krate.join("src/lib.rs"), "").unwrap();
    std::fs::copy(root.join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();

    // A Box tree, an Rc/Weak cycle, an arena with fallible calls, and a bug.
    let mut expected = 0;
    expected += emit("bst", "4", "new,add", &krate.join("tests"));
    expected += emit("dll", "3", "all", &krate.join("tests"));
    expected += emit("ncl", "3", "all", &krate.join("tests"));
    expected += emit("rbt-bug-fixup", "4", "new,add,remove", &krate.join("tests"));

    let (text, ok) = cargo_test(krate, &[]);
    assert!(ok, "{text}");
    assert_eq!(passed(&text), expected, "{text}");

    // The failure witness reproduces the failure.
    let (text, ok) = cargo_test(krate, &["--ignored"]);
    assert!(!ok, "the witness should fail: {text}");
    assert!(text.contains("failure_new_add_add_add_add_remove"), "{text}");
}
