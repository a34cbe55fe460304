//! Where a random run is at a commit: data the events carry, below the
//! engine (the events name it; it names nothing of the engine).

/// Where a random run is at a commit; the rest is in its journal.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Resume {
    /// New sequences executed.
    pub sequences: u64,
}
