//! `smallscope builders`'s arguments.

use crate::bounds::SearchBounds;
use crate::{CacheArgs, Format, RunArgs};

/// `--method`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
    /// Hill climbing: fast on small APIs.
    Hc,
    /// The genetic algorithm: for rich APIs (20 to 40 methods).
    Ga,
}

#[derive(clap::Args)]
pub struct BuildersArgs {
    /// A registered subject (see `smallscope list`).
    pub subject: String,
    /// How to search: `hc` (hill climbing) or `ga` (the genetic algorithm).
    #[arg(long, value_enum, default_value = "ga")]
    pub method: MethodArg,
    /// The scope sets of builders are scored at, and compared with the whole API at.
    #[arg(long, default_value_t = 5)]
    pub scope: u32,
    /// The genetic algorithm's seed (any seed should give the same set).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Integer arguments, `A..B` with B excluded (default `0..scope`).
    #[arg(long, value_name = "A..B", allow_hyphen_values = true)]
    pub ints: Option<String>,
    /// Leave `Class.field` out of the canonical form (repeatable).
    #[arg(long = "omit", value_name = "CLASS.FIELD")]
    pub omit: Vec<String>,
    #[command(flatten)]
    pub bounds: SearchBounds,
    /// Stop after this long, keeping the best set so far (not cached): `10s`, `500ms`, `2m`.
    #[arg(long, value_name = "DURATION")]
    pub time_limit: Option<String>,
    /// How the summary is printed: `text`, or `json` (as `summary.json`).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    #[command(flatten)]
    pub cache: CacheArgs,
    #[command(flatten)]
    pub run: RunArgs,
}
