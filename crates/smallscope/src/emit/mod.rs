//! Sinks: a report becomes files a person or a tool reads.
//!
//! - [`write_jsonl`]: one JSON object per structure (canonical form and sequence);
//! - [`rust_tests`]: one `#[test]` per structure that rebuilds it through the API
//!   and checks its canonical form, plus an ignored test per failure witness
//!   (or, with [`Witnesses::Apart`], the witnesses in [`rust_failing_tests`]);
//! - [`random_error_tests`] and [`random_regression_tests`]: the failing and the
//!   regression tests of a random run.

mod atomic;
mod jsonl;
mod picture;
mod random_tests;
mod rust_tests;

pub use atomic::{write_atomically, AtomicFile};
pub use jsonl::{write_jsonl, StructureRecord};
pub use picture::{dot_to_svg, graph_to_dot, mark_changes, to_dot, to_svg, PictureError};
pub use random_tests::{describe, random_error_tests, random_regression_tests, RandomTestOptions};
pub(crate) use rust_tests::rep_ok_holds;

use crate::events::FailureKind;

/// The lints a generated test file turns off: its code is written, not
/// read, and a file with no tests (no failure found) leaves its helpers,
/// imports and type alias unused.
const GENERATED_ALLOWS: &str = "#![allow(unused_mut, unused_variables, unused_imports, dead_code, clippy::all)]\n\n";
pub use rust_tests::{rust_failing_tests, rust_tests, type_expr, RustTestOptions, Witnesses};

/// The `#[ignore]` line of a test that reproduces a failure of `kind`, or
/// nothing. A test that would end the test binary (an abort, a stack
/// overflow) is always ignored: it would take every other test with it. A
/// hang is not: its test fails after a call timeout ([`witness_body`]).
fn failing_test_ignore(kind: FailureKind, ignored: bool) -> String {
    if kind.kills_the_process() && kind != FailureKind::Hang {
        format!("#[ignore = \"{kind}: it stops the test binary; run it alone\"]\n")
    } else if ignored {
        format!("#[ignore = \"{kind} found by smallscope: fails until fixed; run with --ignored\"]\n")
    } else {
        String::new()
    }
}

/// How long the generated test of a `hang` waits for its witness when the
/// run does not say: the default call timeout, in whole seconds.
fn hang_test_seconds(given: Option<u64>) -> u64 {
    given.unwrap_or(crate::runner::DEFAULT_CALL_TIMEOUT.as_secs()).max(1)
}

/// Writes a witness test's body `lines` into `out`, indented; a `hang`'s
/// inside [`returns_within`](crate::runner::returns_within), waiting
/// `hang_seconds`, so that it fails instead of never returning.
fn witness_body(out: &mut String, kind: FailureKind, hang_seconds: u64, lines: impl IntoIterator<Item = String>) {
    let hang = kind == FailureKind::Hang;
    let indent = if hang { "        " } else { "    " };
    if hang {
        out.push_str(&format!("    smallscope::runner::returns_within({hang_seconds}, move || {{\n"));
    }
    for line in lines {
        out.push_str(&format!("{indent}{line}\n"));
    }
    if hang {
        out.push_str("    });\n");
    }
}
