//! What a run counts: a leaf of the event schema, which engines' records
//! (a random stream's) carry without naming the events.

/// Counts of a run so far. Each engine fills the counts that apply to it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Inputs tried: sequences executed (BEAPI, random), candidates (Korat).
    pub explored: u64,
    /// BEAPI: calls of checked operations (not builders) on kept structures.
    #[serde(default)]
    pub checked: u64,
    /// Structures kept: new structures (BEAPI), valid candidates (Korat),
    /// sequences stored for reuse (random).
    pub structures: u64,
    /// Inputs dropped as API misuse.
    #[serde(default)]
    pub misuses: u64,
    /// BEAPI: sequences dropped because a structure passed the scope.
    #[serde(default)]
    pub out_of_scope: u64,
    /// Random: assembled sequences dropped unexecuted, made before.
    #[serde(default)]
    pub redundant: u64,
    /// Failing inputs, over all groups.
    #[serde(default)]
    pub failing: u64,
    /// Random: objects in the largest structure stored for reuse, its root included.
    #[serde(default)]
    pub largest_structure: u64,
    /// BEAPI: calls of each operation, by its index in the API, builders'
    /// and checks' (shorter when the last operations were not called).
    /// (Never skipped when empty: random's journal stores counts with
    /// postcard, which has no field names to tell a skipped field by.)
    #[serde(default)]
    pub operation_calls: Vec<u64>,
    /// BEAPI: the calls of each operation dropped as API misuse.
    #[serde(default)]
    pub operation_misuses: Vec<u64>,
    /// BEAPI: the calls of each operation not made because it was
    /// quarantined (it kept killing the worker).
    #[serde(default)]
    pub quarantined_calls: Vec<u64>,
    /// Random, in a harness built with coverage: edges of the crate under
    /// test taken.
    #[serde(default)]
    pub edges_covered: u64,
    /// Random, in a harness built with coverage: the crate's edges.
    #[serde(default)]
    pub edges_total: u64,
}
