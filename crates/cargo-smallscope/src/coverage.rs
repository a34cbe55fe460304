//! `--coverage`: the harness with the crate under test instrumented by
//! LLVM's SanitizerCoverage, and nothing else, so that a run can say which
//! of the crate's edges it took (see `smallscope::edges`).
//!
//! Cargo has no per-package compiler flags on stable, so the build runs
//! with this program as `RUSTC_WRAPPER`: called with rustc's path and
//! arguments, it adds the instrumentation to the one compilation of the
//! crate named in [`CRATE_VAR`], keeps the line tables in the harness's
//! binary, and runs rustc. A profile override gives the crate under test
//! line tables, which also gives it (and the harness above it) builds of
//! their own: the plain ones stay built beside them, and nothing else is
//! compiled again.

use std::ffi::{OsStr, OsString};
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::Command;

use crate::project::{CargoOptions, Project};

/// The crate (by `--crate-name`) a coverage build instruments.
pub const CRATE_VAR: &str = "SMALLSCOPE_COVERAGE_CRATE";

/// What rustc is given for the crate under test: edges with their
/// addresses, comparisons, and the line tables that tell the crate's
/// edges from the code it instantiates.
const RUSTC_FLAGS: &[&str] = &[
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=3",
    "-Cllvm-args=-sanitizer-coverage-trace-pc-guard",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares",
    "-Cllvm-args=-sanitizer-coverage-control-flow",
    "-Cllvm-args=-sanitizer-coverage-prune-blocks=0",
    "-Cdebuginfo=line-tables-only",
];

/// The harness's binary, which must keep the line tables.
const HARNESS_CRATE: &str = "smallscope";

/// Makes `cargo` a coverage build of the package `package`, whose library
/// is `krate`, with this program as the wrapper.
pub fn instrument(cargo: &mut Command, package: &str, krate: &str) -> std::io::Result<()> {
    cargo.env("RUSTC_WRAPPER", std::env::current_exe()?).env(CRATE_VAR, krate);
    cargo.arg("--config").arg(format!("profile.release.package.{package:?}.debug=\"line-tables-only\""));
    Ok(())
}

/// Tells the harness `command` runs that it was built with coverage, and
/// where the crate under test is, when `--coverage` was given.
pub fn pass_on(command: &mut Command, options: &CargoOptions, project: &Project) {
    if options.coverage {
        command.env(smallscope_args::COVERAGE_VAR, &project.dir);
    }
}

/// When cargo started this process as the wrapper of a coverage build:
/// runs rustc, instrumenting the crate under test, and does not return.
pub fn wrap_rustc_if_asked() {
    let Some(krate) = std::env::var_os(CRATE_VAR) else { return };
    let mut args = std::env::args_os().skip(1);
    let Some(rustc) = args.next() else { return };
    // Cargo names rustc (or a driver in its place) first; a user who left
    // the variable set and typed a command is not a build.
    if !Path::new(&rustc).file_name().is_some_and(|name| name.to_string_lossy().contains("rustc")) {
        return;
    }
    let args: Vec<OsString> = args.collect();
    let named = |name: &OsStr| args.windows(2).any(|pair| pair[0] == "--crate-name" && pair[1] == name);
    let mut command = Command::new(rustc);
    command.args(&args);
    if named(&krate) {
        command.args(RUSTC_FLAGS);
    } else if named(OsStr::new(HARNESS_CRATE)) {
        command.arg("-Cstrip=none");
    }
    let error = command.exec();
    eprintln!("error: cargo smallscope --coverage could not run rustc: {error}");
    std::process::exit(101);
}
