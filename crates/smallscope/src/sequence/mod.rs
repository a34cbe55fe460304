//! Call sequences: how each structure is rebuilt through the API.
//!
//! Engines do not store whole sequences. Each structure records only the last
//! call that made it (a [`Step`]); arguments that are structures point back to
//! the structures that made them, so sequences share their prefixes. A
//! [`Program`] unrolls that chain into straight-line calls, ready to replay or
//! to print as Rust.
//!
//! `program.rs` holds sequences as data (what events and reports carry);
//! `execute.rs` runs them through a subject's operations.

mod execute;
mod program;

pub use execute::CallWatch;
pub use program::{statement, Call, Literal, Operand, OtherValue, Output, Program, Step, StepArg};
