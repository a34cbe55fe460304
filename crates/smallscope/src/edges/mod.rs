//! Edge coverage of the code under test, as LLVM's SanitizerCoverage
//! reports it: the runtime its calls land in.
//!
//! A harness built with coverage (`cargo smallscope --coverage`) has the
//! crate under test compiled with `-Cpasses=sancov-module` and
//! `trace-pc-guard`, `trace-compares` and `pc-table`: each edge of its
//! control flow calls [`__sanitizer_cov_trace_pc_guard`] with a guard (a
//! `u32`) of its own, and at start each module hands over its guards and
//! the address of each. Nothing else is instrumented.
//!
//! **Only the user's edges count.** The crate under test holds more code
//! than its author wrote: smallscope's engines and std's generics,
//! instantiated for its types where it registers them. [`enable`] reads the
//! binary's line tables once and keeps an edge when the innermost frame of
//! its inline stack that is not std's or a registry crate's is on a line of
//! the user's crate that is not an attribute: code on the line of
//! `#[derive(Heap)]` or `#[smallscope::api]` is what the macro wrote, and
//! code without a line is the compiler's. So std code inlined into the
//! user's functions counts as theirs, and smallscope's code never does.
//! Every other guard stays 0.
//!
//! **Cost.** Enabling reads the line tables: milliseconds per thousand
//! instrumented edges. An edge that is not the user's costs a call, a load
//! and a branch each time it is taken; a user's edge, an atomic swap the
//! first time and a load after. Comparisons are recorded only when asked
//! ([`comparisons`]).
//!
//! ```no_run
//! // In a harness built with coverage:
//! let edges = smallscope::edges::enable(std::path::Path::new("/path/to/my-crate")).unwrap();
//! println!("{} of the crate's edges so far, of {}", smallscope::edges::covered(), edges.user);
//! ```

/// The functions instrumented code calls. Only in binaries that ask for
/// them (feature `sancov`, which the command line turns on): a binary with
/// a runtime of its own (libFuzzer's) would otherwise define them twice.
#[cfg(feature = "sancov")]
mod callbacks;
pub mod comparisons;
mod control_flow;
mod functions;
mod guards;
mod lines;
mod trace;

pub use control_flow::{frontier, FrontierBranch};
pub use functions::{functions, FunctionEdges};
pub use guards::{count, covered, covered_sites, enable, files, instrumented, mark, take_new};
pub use guards::{EdgeCount, EdgesError};
pub use lines::{EdgeSite, LineTablesError};
pub use trace::{traced, untraced, Trace};
