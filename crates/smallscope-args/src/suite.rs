//! `smallscope suite`'s arguments.

use std::path::PathBuf;

use crate::bounds::SearchBounds;
use crate::Format;

/// The engines a suite can be drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SuiteEngine {
    /// Korat, over the subject's invariant (sizes 1 to the scope in turn).
    Korat,
    /// BEAPI, over the subject's API.
    Beapi,
}

impl SuiteEngine {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SuiteEngine::Korat => "korat",
            SuiteEngine::Beapi => "beapi",
        }
    }
}

#[derive(clap::Args)]
pub struct SuiteArgs {
    /// A registered subject: a Korat model for `--engine korat` (an API
    /// subject with a `compare` pairing is one), an API subject for
    /// `--engine beapi` (see `smallscope list`).
    pub subject: String,
    /// The engine the suite is drawn from: `korat` (over the invariant) or `beapi` (over the API).
    #[arg(long, value_enum)]
    pub engine: SuiteEngine,
    /// What to keep and when to stop: `fet` (field-exhaustive), `fbt-l`,
    /// `fbt-q`, `fbt-a` (stop at the field sizes a line, a parabola or
    /// their average predicts), `time-q`, `time-e`, `time-a` (stop at the
    /// predicted time).
    #[arg(long, default_value = "fet", value_name = "CRITERION")]
    pub criterion: CriterionName,
    /// The target scope: at most N objects per class (Korat: sizes 1 to N).
    #[arg(long)]
    pub scope: u32,
    /// Transcoping measures complete runs at scopes 1 to this (at most the scope less one).
    #[arg(long, default_value_t = 5)]
    pub small_scope: u32,
    /// BEAPI's builders: `auto`, `all`, or method names separated by
    /// commas (with Korat, for the run that finds the tests' calls).
    #[arg(long, value_name = "auto|all|m1,m2")]
    pub builders: Option<String>,
    #[command(flatten)]
    pub bounds: SearchBounds,
    /// Where BEAPI's identified builders are cached (as `beapi` does: `.smallscope/cache`).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Write the kept structures as Rust tests into FILE (Korat: for a
    /// model with an API, a `compare` pairing's; others get a note).
    #[arg(long, value_name = "FILE")]
    pub emit_tests: Option<PathBuf>,
    /// Each structure test also calls PATH(&structure), a check of your
    /// own (e.g. the methods under test, against a model).
    #[arg(long, value_name = "PATH")]
    pub check_with: Option<String>,
    /// How the summary is printed: `text`, or `json` (as `summary.json`).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Write `summary.json`, `report.html`, `field-sizes.svg` and the suite
    /// (`suite_tests.rs`, and for Korat `suite.jsonl`) into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Stop the code under test when the worker's memory passes this many
    /// MiB: an `out-of-memory` failure (and the end of the run when the
    /// memory grew over many calls). Default: half the machine's memory (or
    /// the container's), and at most a quarter of what `ulimit -v` allows.
    #[arg(long, value_name = "MIB")]
    pub memory_limit_mb: Option<u64>,
}

/// `--criterion`'s values: the names of the engine's criteria
/// (`smallscope::coverage::Criterion`, which `smallscope-cli` checks they equal).
pub const CRITERIA: [&str; 7] = ["fet", "fbt-l", "fbt-q", "fbt-a", "time-q", "time-e", "time-a"];

/// A `--criterion` value: one of [`CRITERIA`], named as the engine names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CriterionName(&'static str);

impl CriterionName {
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for CriterionName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::str::FromStr for CriterionName {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let known = CRITERIA.into_iter().find(|name| *name == text);
        known.map(CriterionName).ok_or_else(|| format!("unknown criterion `{text}`; known: {}", CRITERIA.join(", ")))
    }
}
