//! `smallscope random`'s arguments.

use crate::test_files::TestFiles;
use crate::{Format, RunArgs};

#[derive(clap::Args)]
pub struct RandomArgs {
    /// A registered subject (see `smallscope list`).
    pub subject: String,
    /// Stop after this long: `10s`, `1.5s`, `500ms`, `2m`; a plain number is seconds (default 10s when no limit is given).
    #[arg(long, value_name = "DURATION")]
    pub time_limit: Option<String>,
    /// Stop after executing this many new sequences; with a seed, this repeats a run exactly.
    #[arg(long, value_name = "N")]
    pub sequences: Option<u64>,
    /// Stop after sequence N, the run otherwise as its other options make it
    /// (what a failure's replay command uses to stop where it was found).
    #[arg(long, value_name = "N")]
    pub stop_at: Option<u64>,
    /// The random generator's seed: the same seed and sequence count repeat a run exactly.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How the summary is printed: `text`, or `json` (as `summary.json`).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Seed values for integer arguments: `A..B` (B excluded), as `beapi` takes them, or values
    /// separated by commas (`-1,7,100`), or both (`0..4,100`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, value_name = "A..B")]
    pub ints: Option<Vec<String>>,
    /// When a value counts as seen before: `heap` (same canonical form), `equality` (`==`) or `off`.
    #[arg(long, default_value = "heap")]
    pub index_pruning: String,
    /// Probability of repeating a chosen call several times.
    #[arg(long, value_name = "P")]
    pub repeat_probability: Option<f64>,
    /// Most repetitions of one call.
    #[arg(long, value_name = "N")]
    pub max_repeat: Option<u32>,
    /// Longer sequences are not kept for reuse.
    #[arg(long, value_name = "CALLS")]
    pub max_length: Option<usize>,
    /// Lists for `Vec<u8>` / `&[u8]` parameters hold at most N integers (default 4).
    #[arg(long, value_name = "N")]
    pub list_length: Option<usize>,
    /// Values of another subject's type (`&Order`) are its structures at scope N (default 3).
    #[arg(long, value_name = "N")]
    pub other_scope: Option<u32>,
    /// Count panics whose message matches REGEX as misuse (repeatable).
    #[arg(long = "misuse-panic", value_name = "REGEX")]
    pub misuse_panics: Vec<String>,
    /// Call only these methods (the builders, say), separated by commas (default: the whole API).
    #[arg(long, value_delimiter = ',', value_name = "m1,m2")]
    pub operations: Option<Vec<String>>,
    /// How many regression tests to write.
    #[arg(long, value_name = "N")]
    pub regression_tests: Option<usize>,
    /// Split the run into K independent streams (seeds seed..seed+K-1, the limits shared out), merged in
    /// stream order: what cluster mode (`--hostfile`) spreads over its processes, with the same files.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub streams: u32,
    /// Keep failing sequences as found, without simplifying them.
    #[arg(long)]
    pub no_simplify: bool,
    /// In a harness built with coverage, keep only sequences that make new values for extension, not
    /// also those that take an edge of the crate no sequence took before.
    #[arg(long)]
    pub no_edge_feedback: bool,
    #[command(flatten)]
    pub tests: TestFiles,
    /// `--out DIR` writes `error_tests.rs`, `regression_tests.rs` and `failures.json` too.
    #[command(flatten)]
    pub run: RunArgs,
}
