//! Where a BEAPI run is at a commit: data the events carry, below the
//! engine (the events name it; it names nothing of the engine).

/// Where a BEAPI run is at a commit: the level, its frontier and the engine's
/// choice of how to rebuild stored structures. The counts are in the
/// [`Progress`](crate::events::Progress) event that carries it.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Resume {
    pub level: u32,
    /// The first structure made at this level.
    pub level_start: u64,
    /// The first structure of the level before (the frontier ends at `level_start`).
    pub frontier_start: u64,
    /// Sequences executed before this level.
    pub level_explored: u64,
    /// Checked calls made before this level.
    #[serde(default)]
    pub level_checked: u64,
    /// Seconds into the run when this level started.
    pub level_seconds: f64,
    /// Stored structures are rebuilt by replay (`Clone` was shallow or failed).
    pub replay: bool,
    pub clone_checks: u32,
    pub clones_looked_at: u32,
    /// The collection fields whose bound a note told of.
    #[serde(default)]
    pub collections: Vec<String>,
    /// Calls each collection bound dropped, by `Class.field`.
    #[serde(default)]
    pub cut: Vec<(String, u64)>,
    /// The skipped fields a note said were merged.
    #[serde(default)]
    pub skips: Vec<String>,
}
