//! Where a run's Rust tests go in the user's crate: one test target per
//! subject, `tests/smallscope_<subject>.rs`, with a module per engine run in
//! `tests/smallscope_<subject>/`. Failing tests are a module of it too,
//! `#[ignore]`d, or a target of their own,
//! `tests/smallscope_<subject>_failing.rs`, that fails until the bugs are
//! fixed.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Problem;

/// Where failing tests go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FailingTests {
    /// In the subject's test target, `#[ignore]`d with the reason.
    #[default]
    Ignore,
    /// In a test target of their own, where they fail.
    Separate,
}

impl FailingTests {
    pub fn parse(text: &str) -> Option<FailingTests> {
        match text {
            "ignore" => Some(FailingTests::Ignore),
            "separate" => Some(FailingTests::Separate),
            _ => None,
        }
    }

    /// The other place.
    fn other(self) -> FailingTests {
        match self {
            FailingTests::Ignore => FailingTests::Separate,
            FailingTests::Separate => FailingTests::Ignore,
        }
    }
}

/// The test files of one subject.
#[derive(Debug, Clone)]
pub struct TestTargets {
    tests: PathBuf,
    /// The subject as part of a Rust name: `my_lru` for `my-lru`.
    stem: String,
}

impl TestTargets {
    pub fn new(crate_dir: &Path, subject: &str) -> TestTargets {
        let stem: String = subject.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        TestTargets { tests: crate_dir.join("tests"), stem: format!("smallscope_{}", stem.to_ascii_lowercase()) }
    }

    /// `tests/smallscope_<subject>.rs`, or its `_failing` sibling.
    fn root(&self, failing: bool) -> PathBuf {
        self.tests.join(format!("{}.rs", self.target(failing)))
    }

    fn target(&self, failing: bool) -> String {
        match failing {
            false => self.stem.clone(),
            true => format!("{}_failing", self.stem),
        }
    }

    /// The module files of `engine`'s run: its passing tests, and where its
    /// failing tests go under `failing`.
    fn modules(&self, engine: &str, failing: FailingTests) -> (PathBuf, PathBuf) {
        let passing = self.tests.join(self.target(false)).join(format!("{engine}.rs"));
        let failing = match failing {
            FailingTests::Ignore => self.tests.join(self.target(false)).join(format!("{engine}_failing.rs")),
            FailingTests::Separate => self.tests.join(self.target(true)).join(format!("{engine}.rs")),
        };
        (passing, failing)
    }

    /// The options that make `engine` write its tests here (a `suite` has
    /// no failing tests).
    pub fn args(&self, engine: &str, failing: FailingTests) -> Vec<String> {
        let (passing_file, failing_file) = self.modules(engine, failing);
        let mut args = vec![format!("--emit-tests={}", passing_file.display())];
        if engine == "suite" {
            return args;
        }
        args.push(format!("--emit-failing-tests={}", failing_file.display()));
        if failing == FailingTests::Ignore {
            args.push("--ignore-failing-tests".into());
        }
        args
    }

    /// Whether `engine`'s run wrote one of its module files at `since` or later.
    pub fn written_since(&self, engine: &str, failing: FailingTests, since: std::time::SystemTime) -> bool {
        let (passing, failing) = self.modules(engine, failing);
        [passing, failing]
            .iter()
            .any(|file| std::fs::metadata(file).and_then(|m| m.modified()).is_ok_and(|modified| modified >= since))
    }

    /// After `engine`'s run: drops its failing tests kept the other way,
    /// rewrites both targets' roots to name the modules there, and formats
    /// them. Returns the roots that have tests.
    pub fn finish(&self, engine: &str, failing: FailingTests) -> Result<Vec<PathBuf>, Problem> {
        let (_, other_way) = self.modules(engine, failing.other());
        if other_way.is_file() {
            std::fs::remove_file(&other_way)
                .map_err(|e| Problem::new(format!("cannot remove {}: {e}", other_way.display())))?;
        }
        let mut roots = Vec::new();
        for failing in [false, true] {
            if self.write_root(failing)? {
                roots.push(self.root(failing));
            }
        }
        format(&roots);
        Ok(roots)
    }

    /// Writes a target's root naming its modules, or removes it when it
    /// has none. Whether it has modules.
    fn write_root(&self, failing: bool) -> Result<bool, Problem> {
        let dir = self.tests.join(self.target(failing));
        let mut modules: Vec<String> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter_map(|entry| entry.file_name().to_str()?.strip_suffix(".rs").map(str::to_owned))
            .collect();
        modules.sort();
        let root = self.root(failing);
        if modules.is_empty() {
            if root.is_file() {
                std::fs::remove_file(&root)
                    .map_err(|e| Problem::new(format!("cannot remove {}: {e}", root.display())))?;
            }
            return Ok(false);
        }
        let what = match failing {
            false => "one module per engine run, each headed by the command that regenerates it",
            true => "the failures, one module per engine run; each test fails until its bug is fixed",
        };
        let mut text =
            format!("//! Tests smallscope generated: {what}.\n//! `cargo smallscope` rewrites this file.\n\n");
        // A test target's root finds modules beside it, not in its folder.
        let folder = self.target(failing);
        for module in modules {
            text.push_str(&format!("#[path = \"{folder}/{module}.rs\"]\nmod {module};\n"));
        }
        write_atomically(&root, &text).map_err(|e| Problem::new(format!("cannot write {}: {e}", root.display())))?;
        Ok(true)
    }
}

/// Writes `text` to `path` whole or not at all: into a temporary file
/// beside it, renamed over it, so a kill leaves the old file, never half
/// of the new one.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(text.as_bytes())?;
    // A temporary file is private; a test target is an ordinary file.
    file.as_file().set_permissions(std::fs::Permissions::from_mode(0o644))?;
    file.as_file().sync_all()?;
    file.persist(path).map(drop).map_err(|e| e.error)
}

/// Formats the test files with the crate's `rustfmt` settings, when rustfmt
/// is there; the files compile either way.
fn format(roots: &[PathBuf]) {
    if roots.is_empty() {
        return;
    }
    let rustfmt = std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into());
    let status = Command::new(rustfmt).args(["--edition", "2021"]).args(roots).status();
    if !matches!(status, Ok(s) if s.success()) {
        eprintln!("note: rustfmt did not run on the generated tests; they are left as written");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_is_replaced_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("smallscope_bst.rs");
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o644);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
