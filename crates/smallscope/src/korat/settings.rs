//! A Korat run's settings: data the events carry, below the engine (the
//! events name it; it names nothing of the engine).

use std::time::Duration;

/// A Korat run's settings.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KoratSettings {
    /// The bound `n` of the model's finitization.
    pub scope: u32,
    /// Threads (0: every core). Not part of the run's identity: every
    /// thread count gives the same result.
    #[serde(skip)]
    pub threads: usize,
    /// Korat+: prune on `eq_class` when the invariants define it.
    pub prune_eq_classes: bool,
    /// Report each valid candidate as a structure.
    pub record: bool,
    /// Search `fin(1)`, `fin(2)`, …, `fin(scope)` in turn, as one stream:
    /// structures in ascending size, each tagged with its size as its
    /// level, and a level event at the end of each size (what a field
    /// coverage suite transcopes from).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ascending: bool,
    /// With `record`, give each structure the canonical text of the API
    /// value it converts to (see [`Invariants::canonical`](super::Invariants::canonical)), so that a
    /// suite can find the call sequences that build it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub canonical: bool,
    /// Stop after this long, counted from the run's start (a resumed run
    /// counts the time before): the search is then incomplete. Not part of
    /// the run's identity.
    #[serde(skip)]
    pub time_limit: Option<Duration>,
    /// With `record`, draw the first this many structures (a Graphviz DOT
    /// picture in each structure event) for the report.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pictures: u32,
    /// In a cluster, this process's share of the parts: the run searches
    /// those alone and reports each whole part as a record, for process 0
    /// to join. Not part of the run's identity.
    #[serde(skip)]
    pub share: Option<crate::runner::Share>,
}

impl KoratSettings {
    /// Korat+ at `scope` on one thread, reporting counts only.
    pub fn new(scope: u32) -> Self {
        KoratSettings {
            scope,
            threads: 1,
            prune_eq_classes: true,
            record: false,
            ascending: false,
            canonical: false,
            time_limit: None,
            pictures: 0,
            share: None,
        }
    }
}

pub(super) fn is_zero<N: Default + PartialEq>(n: &N) -> bool {
    *n == N::default()
}
