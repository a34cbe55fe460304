//! What a search for builders is: a strategy that chooses a set of
//! operations by its score, and what it chose.

use super::{Fitness, Scorer};
use crate::events::Stop;
use crate::ConfigError;

/// A way to choose builders from scored sets.
pub trait Strategy {
    /// The short name: `hc`, `ga`.
    fn name(&self) -> &'static str;
    /// The chosen set, by operation index, sorted.
    fn choose(&self, scorer: &Scorer<'_>) -> Result<Choice, ConfigError>;
}

/// What a strategy chose.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// Operation indices, sorted.
    pub set: Vec<usize>,
    /// `None` when nothing was scored before a limit.
    pub fitness: Option<Fitness>,
    /// Set when a limit or the stop flag ended the search early.
    pub stopped: Option<Stop>,
}
