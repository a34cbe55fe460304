//! `smallscope beapi`'s arguments.

use std::path::PathBuf;

use crate::bounds::SearchBounds;
use crate::test_files::TestFiles;
use crate::{CacheArgs, Format, PictureArgs, RunArgs};

#[derive(clap::Args)]
pub struct BeapiArgs {
    /// A registered subject (see `smallscope list`).
    pub subject: String,
    /// At most N objects of each class per structure (root and header nodes count).
    #[arg(long)]
    pub scope: Option<u32>,
    /// Integer arguments, `A..B` with B excluded (default `0..scope`).
    #[arg(long, value_name = "A..B", allow_hyphen_values = true)]
    pub ints: Option<String>,
    /// A TOML file with any of the settings; flags override it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// `auto` (cached, else identified with --builder-method), `all`, or method names separated by commas.
    #[arg(long, value_name = "auto|all|m1,m2")]
    pub builders: Option<String>,
    /// Operations called on every structure to check it (rep_ok and panics after each call),
    /// besides the builders: `all` (every one that is not a builder), `none`, or method names.
    #[arg(long, value_name = "all|none|m1,m2")]
    pub check: Option<String>,
    /// How the summary is printed: `text`, or `json` (as `summary.json`).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// String arguments, separated by commas.
    #[arg(long, value_delimiter = ',')]
    pub strings: Option<Vec<String>>,
    /// Leave `Class.field` out of the canonical form (repeatable).
    #[arg(long = "omit", value_name = "CLASS.FIELD")]
    pub omit: Vec<String>,
    /// Count panics whose message matches REGEX as misuse (repeatable).
    #[arg(long = "misuse-panic", value_name = "REGEX")]
    pub misuse_panics: Vec<String>,
    /// Scope used to identify builders.
    #[arg(long)]
    pub builder_scope: Option<u32>,
    /// How `--builders auto` identifies builders the cache does not hold: `hc` (hill climbing,
    /// the default) or `ga` (the genetic algorithm, for rich APIs).
    #[arg(long, value_name = "hc|ga")]
    pub builder_method: Option<String>,
    /// Keep every sequence, not only those that make new structures (needs --max-length).
    #[arg(long)]
    pub no_state_matching: bool,
    #[command(flatten)]
    pub bounds: SearchBounds,
    /// Store whole canonical forms instead of 128-bit fingerprints.
    #[arg(long)]
    pub exact: bool,
    /// Stop after this long, keeping what was found: `10s`, `1.5s`, `500ms`, `2m` (a plain number is seconds).
    #[arg(long, value_name = "DURATION")]
    pub time_limit: Option<String>,
    #[command(flatten)]
    pub tests: TestFiles,
    #[command(flatten)]
    pub pictures: PictureArgs,
    /// At most this many structure tests in --emit-tests.
    #[arg(long)]
    pub max_tests: Option<usize>,
    #[command(flatten)]
    pub cache: CacheArgs,
    #[command(flatten)]
    pub run: RunArgs,
}
