//! smallscope: bounded-exhaustive test inputs for Rust heap structures.
//!
//! Mark a type with `#[derive(Heap)]` and its API with `#[smallscope::api]`,
//! and smallscope builds **every** structure of that type that the API can
//! reach within a scope (the small scope hypothesis: most bugs show on small
//! inputs), each with the shortest call sequence that builds it.
//!
//! The pipeline: a subject ([`heap`], [`api`](mod@api)) feeds an engine ([`beapi`],
//! [`korat`], or [`random`] for APIs too large to enumerate), whose findings
//! flow out as [`events`] and go to sinks ([`emit`]). A criterion
//! ([`coverage`]: field-exhaustive, or transcoped from small scopes) can
//! filter that stream down to a small suite and stop the engine early. The
//! [`runner`] runs the engines' user code and survives its bugs.
//!
//! ```
//! use smallscope::{Beapi, Builders, Heap};
//!
//! #[derive(Heap, Clone, Debug)]
//! pub struct Node { key: i32, next: Option<Box<Node>> }
//!
//! #[derive(Heap, Clone, Debug)]
//! pub struct Stack { top: Option<Box<Node>> }
//!
//! #[smallscope::api(name = "doc-linked-stack")]
//! impl Stack {
//!     pub fn new() -> Self { Stack { top: None } }
//!     pub fn push(&mut self, key: i32) {
//!         let next = self.top.take();
//!         self.top = Some(Box::new(Node { key, next }));
//!     }
//! }
//!
//! // Scope 2: at most two nodes; keys 0 and 1. 1 + 2 + 4 stacks.
//! let report = Beapi::<Stack>::new().scope(2).builders(Builders::All).run().unwrap();
//! assert_eq!(report.structure_count(), 7);
//! ```

extern crate self as smallscope;

pub mod api;
pub mod beapi;
pub mod builders;
pub mod compare;
pub mod coverage;
pub mod edges;
pub mod emit;
mod error;
pub mod events;
mod generate;
pub mod heap;
pub mod korat;
pub mod order;
mod other_values;
pub mod random;
pub mod runner;
pub mod sequence;

pub use api::Subject;
pub use beapi::{BeapiConfig, BeapiReport, Builders, Check};
pub use error::{duration_text, parse_duration, positive_seconds, ConfigError, MAX_DOMAIN};
pub use generate::Beapi;
pub use heap::Heap;
pub use runner::RunError;
pub use smallscope_macros::{api, Heap};

/// Declares a precondition: when `cond` is false the call is API misuse and
/// its sequence is dropped, not reported as a failure.
///
/// ```
/// pub fn withdraw(balance: &mut u32, amount: u32) {
///     smallscope::assume!(amount <= *balance);
///     *balance -= amount;
/// }
/// ```
#[macro_export]
macro_rules! assume {
    ($cond:expr $(,)?) => {
        if !$cond {
            $crate::api::assume_failed(::core::stringify!($cond))
        }
    };
}
