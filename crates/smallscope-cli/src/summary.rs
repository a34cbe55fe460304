//! The JSON summaries, typed: what `--format json` prints and `--out`
//! writes as `summary.json`, each made from a run's folded events. `bench`
//! reads the same types.

use smallscope::compare::{Comparison, Verdict, Witness};
use smallscope::events::{Failure, LevelStats, Stop, SCHEMA_VERSION};

/// What every summary says of how the run went.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunFacts {
    /// The events' schema version.
    pub schema: u32,
    /// The run's id, as in `events.ndjson`.
    pub run: String,
    pub stop: Stop,
    /// Times a worker was restarted past an input that killed it.
    pub restarts: u32,
    pub peak_memory_bytes: Option<u64>,
    /// The command that repeats the run.
    pub replay: String,
    /// The command that carries an interrupted run on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<String>,
    /// The files of this run in `--out` (this summary aside).
    #[serde(default)]
    pub files: Vec<String>,
}

impl RunFacts {
    pub fn new(run: String, stop: Stop, restarts: u32, peak_memory_bytes: Option<u64>, replay: String) -> Self {
        RunFacts {
            schema: SCHEMA_VERSION,
            run,
            stop,
            restarts,
            peak_memory_bytes,
            replay,
            resume: None,
            files: Vec::new(),
        }
    }
}

/// `smallscope beapi --format json`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BeapiSummary {
    pub subject: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub engine: String,
    pub scope: u32,
    pub builders: Vec<String>,
    pub structures: usize,
    pub explored: u64,
    pub misuses: u64,
    pub out_of_scope: u64,
    /// Failing sequences, over all groups.
    pub failures: u64,
    pub failure_groups: Vec<Failure>,
    pub levels: Vec<LevelStats>,
    pub seconds: f64,
    /// The time limit stopped the run before its last level was done.
    pub timed_out: bool,
    pub notes: Vec<String>,
    #[serde(flatten)]
    pub run: RunFacts,
}

/// `smallscope korat --format json`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KoratSummary {
    pub subject: String,
    #[serde(rename = "type")]
    pub type_name: String,
    /// `korat`, or `korat+` when equivalence classes pruned the search.
    pub engine: String,
    pub scope: u32,
    pub structures: u64,
    pub explored: u64,
    pub seconds: f64,
    /// Candidates in the whole space (the product of the field domains).
    pub space_size: f64,
    /// Equivalence classes covered (Korat+).
    pub classes: usize,
    pub failures: u64,
    pub failure_groups: Vec<Failure>,
    #[serde(flatten)]
    pub run: RunFacts,
}

/// `smallscope random --format json`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RandomSummary {
    pub subject: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub engine: String,
    pub seed: u64,
    pub sequences: u64,
    pub sequences_per_second: f64,
    pub illegal: u64,
    pub redundant: u64,
    pub legal: u64,
    pub stored: u64,
    pub failure_groups: Vec<Failure>,
    pub failure_group_count: usize,
    pub regression_test_count: usize,
    pub seconds: f64,
    /// `time limit`, `sequence limit`, `stuck`, `interrupted`, `memory limit`.
    pub stopped_by: String,
    pub contracts: Vec<String>,
    pub notes: Vec<String>,
    #[serde(flatten)]
    pub run: RunFacts,
}

/// A witness as `compare` shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WitnessSummary {
    /// Its place among the witnesses of its side, smallest first, from 1.
    pub position: usize,
    #[serde(flatten)]
    pub witness: Witness,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dot_file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg_file: Option<String>,
}

/// The two sides of a comparison.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sides<T> {
    pub only_api: T,
    pub only_invariant: T,
}

/// One engine's part of a comparison.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EngineFigures {
    pub structures: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explored: Option<u64>,
    pub seconds: f64,
}

/// `smallscope compare --format json`, and `comparison.json`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompareSummary {
    pub subject: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub engine: String,
    pub scope: u32,
    pub invariant: String,
    pub api_structures: usize,
    pub invariant_structures: usize,
    pub only_api: usize,
    pub only_invariant: usize,
    pub both: usize,
    pub verdict: Verdict,
    pub relation: String,
    pub verdict_text: String,
    pub builders: Vec<String>,
    pub recheck_scope: Option<u32>,
    pub scope_artifacts: usize,
    pub incomplete: bool,
    pub beapi: EngineFigures,
    pub korat: EngineFigures,
    pub seconds: f64,
    /// Kinds of difference on each side.
    pub kinds: Sides<usize>,
    /// The witnesses shown on each side.
    pub witnesses: Sides<Vec<WitnessSummary>>,
    pub notes: Vec<String>,
    #[serde(flatten)]
    pub run: RunFacts,
}

impl CompareSummary {
    pub fn new(subject: &str, comparison: &Comparison, witnesses: Sides<Vec<WitnessSummary>>, run: RunFacts) -> Self {
        let c = comparison;
        CompareSummary {
            subject: subject.to_owned(),
            type_name: c.subject.clone(),
            engine: "compare".into(),
            scope: c.scope,
            invariant: c.invariant.clone(),
            api_structures: c.api_structures,
            invariant_structures: c.invariant_structures,
            only_api: c.only_api.len(),
            only_invariant: c.only_invariant.len(),
            both: c.both,
            verdict: c.verdict,
            relation: c.verdict.relation().to_owned(),
            verdict_text: c.verdict_line(),
            builders: c.builders.clone(),
            recheck_scope: c.recheck_scope,
            scope_artifacts: c.scope_artifacts,
            incomplete: c.incomplete,
            beapi: EngineFigures { structures: c.api_structures as u64, explored: None, seconds: c.beapi_seconds },
            korat: EngineFigures {
                structures: c.korat_found,
                explored: Some(c.korat_explored),
                seconds: c.korat_seconds,
            },
            seconds: c.seconds,
            kinds: Sides {
                only_api: Comparison::kinds(&c.only_api),
                only_invariant: Comparison::kinds(&c.only_invariant),
            },
            witnesses,
            notes: c.notes.clone(),
            run,
        }
    }
}
