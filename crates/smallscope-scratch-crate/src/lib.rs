//! A throwaway Cargo crate for tests: generated test files (BEAPI's
//! `--emit-tests`, random's `error_tests.rs` and `regression_tests.rs`) are
//! compiled and run in a crate of their own, the way a user would use them,
//! and code that must not compile (a misused `#[smallscope::api]`) is built
//! to read the compiler's error.
//!
//! Every scratch crate builds in one target directory beside the
//! workspace's (`$CARGO_TARGET_DIR/emitted-tests`), so their dependencies
//! build once.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace exists")
}

/// Where scratch crates build.
fn target_dir() -> PathBuf {
    shared_target_dir("emitted-tests")
}

/// A target folder beside the workspace's, `$CARGO_TARGET_DIR/{name}`,
/// shared by the tests that build crates of their own, so that their
/// dependencies build once.
pub fn shared_target_dir(name: &str) -> PathBuf {
    let base = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace().join("target"), PathBuf::from);
    base.join(name)
}

/// Copies the fixture crate `fixtures/{name}` to `to`, as a user's clone of
/// it: its sources and manifest, the workspace paths in the manifest made
/// absolute, and the workspace's lock file (so that what the workspace
/// pins builds as it does there; anything else comes from crates.io).
pub fn copy_fixture(name: &str, to: &Path) -> PathBuf {
    let from = workspace().join("fixtures").join(name);
    let root = to.join(name);
    copy_folder(&from.join("src"), &root.join("src"));
    let manifest = std::fs::read_to_string(from.join("Cargo.toml")).expect("the fixture has a manifest");
    let crates = workspace().join("crates");
    let manifest = manifest.replace("path = \"../../crates/", &format!("path = \"{}/", crates.display()));
    std::fs::write(root.join("Cargo.toml"), manifest).expect("writing the manifest");
    std::fs::copy(workspace().join("Cargo.lock"), root.join("Cargo.lock")).expect("copying the lock file");
    root
}

/// Copies the folder `from` to `to`, files and folders within.
pub fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("making a folder");
    for entry in std::fs::read_dir(from).expect("reading a fixture folder") {
        let entry = entry.expect("reading a fixture folder");
        let path = entry.path();
        match path.is_dir() {
            true => copy_folder(&path, &to.join(entry.file_name())),
            false => {
                std::fs::copy(&path, to.join(entry.file_name())).expect("copying a fixture file");
            }
        }
    }
}

/// What one `cargo` command printed, and whether it succeeded.
#[derive(Debug)]
pub struct CargoRun {
    /// Standard output, then standard error.
    pub text: String,
    pub success: bool,
}

impl CargoRun {
    /// `N passed`, summed over every test binary's result line.
    pub fn passed(&self) -> u64 {
        self.counts("passed")
    }

    /// `N failed`, summed over every test binary's result line.
    pub fn failed(&self) -> u64 {
        self.counts("failed")
    }

    fn counts(&self, what: &str) -> u64 {
        self.text
            .lines()
            .filter_map(|line| line.strip_prefix("test result: "))
            .filter_map(|line| {
                let (head, _) = line.split_once(&format!(" {what}"))?;
                head.rsplit(' ').next()?.parse::<u64>().ok()
            })
            .sum()
    }
}

/// A crate at a directory of the caller's (a temporary one), depending on
/// workspace crates by path, with the workspace's lock file so that it
/// builds offline.
pub struct ScratchCrate {
    root: PathBuf,
}

impl ScratchCrate {
    /// Writes the crate `name` at `root`, depending on the workspace crates
    /// `dependencies` (directory names under `crates/` or `fixtures/`, e.g.
    /// `smallscope`).
    pub fn new(root: &Path, name: &str, dependencies: &[&str]) -> ScratchCrate {
        let workspace = workspace();
        std::fs::create_dir_all(root.join("tests")).expect("creating the scratch crate");
        std::fs::create_dir_all(root.join("src")).expect("creating the scratch crate");
        let dependencies: String = dependencies
            .iter()
            .map(|dependency| {
                let path = ["crates", "fixtures"]
                    .map(|folder| workspace.join(folder).join(dependency))
                    .into_iter()
                    .find(|path| path.is_dir())
                    .unwrap_or_else(|| panic!("no workspace crate `{dependency}`"));
                format!("{dependency} = {{ path = {path:?} }}\n")
            })
            .collect();
        let manifest = format!(
            "[package]\nname = {name:?}\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\n{dependencies}\n[workspace]\n"
        );
        std::fs::write(root.join("Cargo.toml"), manifest).expect("writing the manifest");
        std::fs::write(root.join("src/lib.rs"), "").expect("writing the library");
        std::fs::copy(workspace.join("Cargo.lock"), root.join("Cargo.lock")).expect("copying the lock file");
        ScratchCrate { root: root.to_owned() }
    }

    /// A crate that is there already (a copied fixture).
    pub fn open(root: &Path) -> ScratchCrate {
        assert!(root.join("Cargo.toml").is_file(), "no crate at {}", root.display());
        ScratchCrate { root: root.to_owned() }
    }

    /// The crate's directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Its `tests` directory, where test files go.
    pub fn tests_dir(&self) -> PathBuf {
        self.root.join("tests")
    }

    /// Writes `tests/{name}.rs`.
    pub fn write_test(&self, name: &str, text: &str) {
        std::fs::write(self.tests_dir().join(format!("{name}.rs")), text).expect("writing a test file");
    }

    /// Replaces `src/lib.rs`.
    pub fn write_lib(&self, text: &str) {
        std::fs::write(self.root.join("src/lib.rs"), text).expect("writing the library");
    }

    /// `cargo test` over every test file, with `test_args` for the test binaries.
    pub fn cargo_test(&self, test_args: &[&str]) -> CargoRun {
        self.cargo(&["test", "--quiet"], &["--"], test_args)
    }

    /// `cargo test --test {name}`: one test file.
    pub fn cargo_test_file(&self, name: &str) -> CargoRun {
        self.cargo_test_file_with(name, &[])
    }

    /// `cargo test --test {name}` with `test_args` for the test binary; its
    /// output has a `test <name> ... <verdict>` line per test.
    pub fn cargo_test_file_with(&self, name: &str, test_args: &[&str]) -> CargoRun {
        self.cargo(&["test", "--test", name], &["--"], test_args)
    }

    /// `cargo build` of the library, to read what the compiler says.
    pub fn cargo_build(&self) -> CargoRun {
        self.cargo(&["build"], &[], &[])
    }

    fn cargo(&self, command: &[&str], separator: &[&str], rest: &[&str]) -> CargoRun {
        let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(command)
            .arg("--offline")
            .arg("--manifest-path")
            .arg(self.root.join("Cargo.toml"))
            .args(separator)
            .args(rest)
            .env("CARGO_TARGET_DIR", target_dir())
            .output()
            .expect("running cargo");
        let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
        CargoRun { text, success: output.status.success() }
    }
}
