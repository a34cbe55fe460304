//! `smallscope compare`'s arguments.

use crate::bounds::SearchBounds;
use crate::{CacheArgs, Format, RunArgs};

#[derive(clap::Args)]
pub struct CompareArgs {
    /// A subject with a registered Korat model (`smallscope list` shows `compare` for it).
    pub subject: String,
    /// At most N objects of each class per structure (root and header nodes count), integers 0..N, on both sides.
    #[arg(long)]
    pub scope: u32,
    /// Which of the model's invariants to compare (default: the first registered).
    #[arg(long)]
    pub invariant: Option<String>,
    /// BEAPI's builders: `auto` (hill climbing, cached), `all`, or method names separated by commas.
    /// Structures whose shape depends on history (balanced trees) need a removal among them.
    #[arg(long, value_name = "auto|all|m1,m2", default_value = "auto")]
    pub builders: String,
    /// Scope used to identify builders.
    #[arg(long, default_value_t = 5)]
    pub builder_scope: u32,
    /// Also run BEAPI at scopes N+1..=N+K (until all are explained) to mark structures only the
    /// invariant admits that the API reaches through larger ones (0: off; default: the subject's, 1 or 3).
    #[arg(long, value_name = "K")]
    pub recheck: Option<u32>,
    /// Show (and draw) at most this many witnesses per side, one per kind of difference.
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub witnesses: usize,
    /// Leave `Class.field` out of the canonical form on both sides (repeatable).
    #[arg(long = "omit", value_name = "CLASS.FIELD")]
    pub omit: Vec<String>,
    #[command(flatten)]
    pub bounds: SearchBounds,
    /// Stop BEAPI after this long (the comparison is then incomplete): `10s`, `500ms`, `2m`.
    #[arg(long, value_name = "DURATION")]
    pub time_limit: Option<String>,
    /// How the summary is printed: `text`, or `json` (as `summary.json`).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// `--out DIR` writes `witness-<side>-<k>.dot` and `.svg` for the shown witnesses, and `comparison.json`.
    #[command(flatten)]
    pub run: RunArgs,
}
