//! [`RandomConfig`]: limits, seed, domains and heuristics of a random run.

use std::sync::Arc;
use std::time::Duration;

use crate::sequence::Program;
use crate::ConfigError;

/// When a value counts as "seen before" for index pruning (thesis §7.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IndexPruning {
    /// Same heap state: isomorphic object graphs, compared on every field
    /// the walk sees, `#[heap(omit)]` ones included, so values that differ
    /// only there are both kept. A `#[heap(skip)]` field is not seen: two
    /// values that differ only in one are merged. The default.
    Heap,
    /// Equal by the type's `PartialEq` (Randoop's default), looked up through
    /// its `Hash`. Falls back to `Heap` when the type has neither.
    Equality,
    /// Every value may be reused.
    Off,
}

impl std::str::FromStr for IndexPruning {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        match s {
            "heap" => Ok(IndexPruning::Heap),
            "equality" | "eq" => Ok(IndexPruning::Equality),
            "off" | "none" => Ok(IndexPruning::Off),
            other => Err(ConfigError::Invalid(format!(
                "unknown index pruning `{other}`: expected `heap`, `equality` or `off`"
            ))),
        }
    }
}

/// How a random run is bounded, seeded and steered.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RandomConfig {
    pub seed: u64,
    /// Stop after this long (default 10 s when no limit is set at all).
    pub time_limit: Option<Duration>,
    /// Stop after executing this many new sequences.
    pub sequence_limit: Option<u64>,
    /// Stop after the sequence numbered this, the run otherwise as its
    /// limits make it (they shape its generation): what a failure's replay
    /// command uses to stop at the sequence that found it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_at: Option<u64>,
    /// Seed values for integer parameters (Randoop's are -1, 0, 1, 10, 100).
    pub ints: Vec<i64>,
    pub chars: Vec<char>,
    pub strings: Vec<Arc<str>>,
    /// Lists for `Vec<u8>` / `&[u8]` parameters have at most this many
    /// elements (a length drawn uniformly, each element as an integer
    /// argument is). Longer than BEAPI's default, which enumerates them all.
    #[serde(default = "default_list_length")]
    pub list_length: usize,
    /// Values of another subject's type (`&Order`) are its structures at
    /// this scope, made by BEAPI with integers `0..other_scope`.
    #[serde(default = "default_other_scope")]
    pub other_scope: u32,
    /// Probability of appending a chosen call several times (§7.5, `N`).
    pub repeat_probability: f64,
    /// Upper bound of the repetition count (§7.5, `max`). The thesis uses
    /// 100; the default is 10, in keeping with the small scope hypothesis:
    /// long repetitions make big values that slow every later call.
    pub max_repeat: u32,
    /// Longer sequences are executed but not kept for reuse.
    pub max_length: usize,
    pub index_pruning: IndexPruning,
    /// Integers returned by calls are reused as arguments, unless their
    /// magnitude is beyond this (§7.4, large numbers).
    pub large_int_limit: i64,
    /// Regexes: a panic whose message matches is misuse, not a failure.
    pub misuse_panics: Vec<String>,
    /// Shrink each failure group's smallest test (§6.1).
    pub simplify: bool,
    /// How many regression tests to keep (a seeded sample of the legal
    /// sequences that observe a value).
    pub regression_tests: usize,
    /// Draw the value each failure group's last call ran on into its event
    /// (a DOT graph, for `report.html`).
    #[serde(default)]
    pub pictures: bool,
    /// Only these operations, by name (the builders, say); `None`: the
    /// whole API.
    #[serde(default)]
    pub operations: Option<Vec<String>>,
    /// In a harness built with coverage: a sequence that takes an edge of
    /// the crate no sequence took before is kept for extension, even when
    /// the values it made were seen (no effect without coverage).
    #[serde(default = "default_edge_feedback")]
    pub edge_feedback: bool,
    /// After generation, branch-directed generation (see
    /// `smallscope::random`'s branch phase): needs a harness built with
    /// coverage. Generation then has half the time limit.
    #[serde(default)]
    pub branch: bool,
    /// Only run these sequences from scratch and tell whether each took
    /// one of its edges: how a `branch` run's flips are confirmed in a
    /// fresh worker.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confirm: Vec<FlipToConfirm>,
    /// Independent runs the run is made of, merged in a fixed order (see
    /// `smallscope::random`'s streams): what a cluster shares out.
    #[serde(default = "one_stream", skip_serializing_if = "is_one_stream")]
    pub streams: u32,
    /// In a cluster, this process's share of the streams: it runs those and
    /// reports each for process 0 to merge. Not part of the recorded
    /// configuration: the run is the same whoever runs which stream.
    #[serde(skip)]
    pub share: Option<crate::runner::Share>,
}

impl Default for RandomConfig {
    fn default() -> Self {
        RandomConfig {
            seed: 0,
            time_limit: None,
            sequence_limit: None,
            stop_at: None,
            ints: vec![-1, 0, 1, 2, 3, 10, 100],
            chars: vec!['a', ' ', '#'],
            strings: vec!["".into(), "hi!".into()],
            list_length: default_list_length(),
            other_scope: default_other_scope(),
            repeat_probability: 0.1,
            max_repeat: 10,
            max_length: 100,
            index_pruning: IndexPruning::Heap,
            large_int_limit: 10_000,
            misuse_panics: Vec::new(),
            simplify: true,
            regression_tests: 200,
            pictures: false,
            operations: None,
            edge_feedback: true,
            branch: false,
            confirm: Vec::new(),
            streams: 1,
            share: None,
        }
    }
}

/// The default time limit when neither limit is given.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

impl RandomConfig {
    /// Checks the settings, naming the first bad one.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.time_limit == Some(Duration::ZERO) {
            return Err(ConfigError::Invalid("the time limit must be more than zero".into()));
        }
        if self.sequence_limit == Some(0) || self.stop_at == Some(0) {
            return Err(ConfigError::Invalid("the sequence limit must be at least 1".into()));
        }
        if !(0.0..=1.0).contains(&self.repeat_probability) {
            return Err(ConfigError::Invalid(format!(
                "the repeat probability must be between 0 and 1, not {}",
                self.repeat_probability
            )));
        }
        if self.ints.is_empty() {
            return Err(ConfigError::Invalid("the integer domain is empty".into()));
        }
        if self.chars.is_empty() || self.strings.is_empty() {
            return Err(ConfigError::Invalid("the char and string domains need at least one value".into()));
        }
        if self.other_scope == 0 {
            return Err(ConfigError::Invalid("the scope of other subjects' structures must be at least 1".into()));
        }
        if self.max_length == 0 {
            return Err(ConfigError::Invalid("the maximum sequence length must be at least 1".into()));
        }
        if self.streams == 0 {
            return Err(ConfigError::Invalid("the stream count must be at least 1".into()));
        }
        if self.streams > 1 {
            if self.sequence_limit.is_some_and(|limit| limit < u64::from(self.streams)) {
                return Err(ConfigError::Invalid(format!(
                    "{} streams need a sequence limit of at least {0}, one sequence each",
                    self.streams
                )));
            }
            if self.branch || self.stop_at.is_some() || !self.confirm.is_empty() {
                return Err(ConfigError::Invalid(
                    "the branch phase and --stop-at run one stream: give --streams 1 (a stream's replay command \
                     names its own seed)"
                        .into(),
                ));
            }
        }
        for pattern in &self.misuse_panics {
            regex::Regex::new(pattern)
                .map_err(|e| ConfigError::Invalid(format!("bad misuse-panic regex `{pattern}`: {e}")))?;
        }
        Ok(())
    }

    /// The BEAPI settings that make other subjects' structures.
    pub fn other_settings(&self) -> crate::beapi::BeapiConfig {
        crate::beapi::BeapiConfig {
            scope: self.other_scope,
            time_limit: self.effective_time_limit(),
            ..crate::beapi::BeapiConfig::default()
        }
    }

    /// The number of the last sequence the run makes, when one bounds it
    /// (the sequence limit, or `stop_at` when sooner).
    pub fn last_sequence(&self) -> Option<u64> {
        self.sequence_limit.into_iter().chain(self.stop_at).min()
    }

    /// The time generation may take: the limit in force, or half of it
    /// when the branch phase comes after.
    pub fn generation_time_limit(&self) -> Option<Duration> {
        self.effective_time_limit().map(|limit| if self.branch { limit / 2 } else { limit })
    }

    /// The time limit in force: the one given, or 10 s when no limit is.
    pub fn effective_time_limit(&self) -> Option<Duration> {
        match (self.time_limit, self.last_sequence()) {
            (Some(t), _) => Some(t),
            (None, Some(_)) => None,
            (None, None) => Some(DEFAULT_TIME_LIMIT),
        }
    }
}

/// Events written before list parameters existed have no `list_length`.
fn default_list_length() -> usize {
    4
}

/// Events written before coverage had it on, as it is by default.
fn default_edge_feedback() -> bool {
    true
}

/// Events written before streams existed are of one stream.
fn one_stream() -> u32 {
    1
}

fn is_one_stream(streams: &u32) -> bool {
    *streams == 1
}

/// Events written before other subjects' parameters existed have no `other_scope`.
fn default_other_scope() -> u32 {
    3
}

/// A sequence to run again from scratch, in a fresh worker, to confirm a
/// flip: it should take one of `edges` (numbers of the same binary's edges).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FlipToConfirm {
    pub program: Program,
    pub edges: Vec<u32>,
}
