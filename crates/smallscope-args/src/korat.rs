//! `smallscope korat`'s arguments.

use crate::{Format, PictureArgs, RunArgs};

#[derive(clap::Args)]
pub struct KoratArgs {
    /// A registered Korat subject (see `smallscope list`).
    pub subject: String,
    /// The bound n of the subject's stock finitization `fin(n)`.
    #[arg(long)]
    pub scope: Option<u32>,
    /// A TOML file in the `beapi` format; its `scope` is used when --scope is not given.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// Threads for the search (0: all cores). Results equal the sequential search's.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Plain Korat: record equivalence classes but do not prune on them (Korat+ is the default when the subject has `eq_class`).
    #[arg(long)]
    pub no_eq_pruning: bool,
    /// Stop after this long, keeping what was found (the search is then incomplete): `10s`, `2m`.
    #[arg(long, value_name = "DURATION")]
    pub time_limit: Option<String>,
    /// How the summary is printed: `text`, or `json` (as `summary.json`).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Search sizes 1, 2, …, scope in turn, as one run: structures in
    /// ascending size, a level line per size (what `suite` runs).
    #[arg(long)]
    pub ascending: bool,
    #[command(flatten)]
    pub pictures: PictureArgs,
    #[command(flatten)]
    pub run: RunArgs,
}
