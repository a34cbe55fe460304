//! [`CompareError`]: why a comparison could not be made.

use crate::runner::RunError;
use crate::ConfigError;

/// What went wrong; none of these is a difference between the sets.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("the model's finitization at scope {scope}: {reason}")]
    Space { scope: u32, reason: String },
    #[error("unknown invariant `{name}`; this comparison knows: {known}")]
    UnknownInvariant { name: String, known: String },
    #[error(
        "a candidate the invariant admits became a value with {bound}: the model or its conversion does not \
         bound the scope as BEAPI does; value: {canonical}"
    )]
    OutOfScope { bound: crate::heap::OutOfScope, canonical: String },
    #[error("converting a candidate the invariant admits panicked: {0}")]
    Materialize(String),
}
