//! `--emit-tests` and `--emit-failing-tests`: the Rust test files a run
//! writes, the same three options for every engine that makes tests.

use std::path::PathBuf;

/// Where a run writes its Rust tests.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TestFiles {
    /// Write the tests that pass today into FILE: one per structure (beapi),
    /// or the regression tests (random).
    #[arg(long, value_name = "FILE")]
    pub emit_tests: Option<PathBuf>,
    /// Write one test per failure group into FILE, replaying its simplified
    /// witness; each fails until the bug is fixed. Without it, beapi puts
    /// them in --emit-tests, ignored.
    #[arg(long, value_name = "FILE")]
    pub emit_failing_tests: Option<PathBuf>,
    /// Mark the failing tests `#[ignore]` with the reason: `cargo test`
    /// passes, `cargo test -- --ignored` reproduces the failures.
    #[arg(long)]
    pub ignore_failing_tests: bool,
}

impl TestFiles {
    /// Whether any test file is asked for.
    pub fn any(&self) -> bool {
        self.emit_tests.is_some() || self.emit_failing_tests.is_some()
    }
}
