//! Sinks: a report becomes files a person or a tool reads.
//!
//! - [`write_jsonl`]: one JSON object per structure (canonical form and sequence);
//! - [`rust_tests`]: one `#[test]` per structure that rebuilds it through the API
//!   and checks its canonical form, plus an ignored test per failure witness.

mod jsonl;
mod picture;
mod rust_tests;

pub use jsonl::write_jsonl;
pub use picture::{to_dot, to_svg, PictureError};
pub use rust_tests::{rust_tests, type_expr, RustTestOptions};
