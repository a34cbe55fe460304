//! `smallscope bench`'s arguments: the benchmark tables and their settings.

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub kind: BenchKind,
}

#[derive(clap::Subcommand)]
pub enum BenchKind {
    /// BEAPI configurations at growing scopes (paper Table 2), then the bst targets.
    Beapi(BeapiBench),
    /// Korat on its benchmark models: found, explored, seconds, candidates per second.
    Korat(KoratBench),
    /// Random testing throughput: sequences per second, one thread and all cores.
    Random(RandomBench),
    /// What running the engine in a supervised worker costs, against the same run in process.
    Isolation(IsolationBench),
    /// Builders identification: HC and GA time and sets, largest BEAPI scope, random with builders (paper Table 3).
    Builders(BuildersBench),
    /// Field coverage suites: size and generation time per policy and scope (the field coverage paper's Tables II and III).
    Suites(SuitesBench),
    /// Cluster mode: the same run on one process and on several over localhost, its speed-up.
    Cluster(ClusterBench),
}

#[derive(clap::Args)]
pub struct ClusterBench {
    /// Runs of each command in each mode, alternated (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Processes of the cluster, each with one worker, on this host.
    #[arg(long, default_value_t = 2)]
    pub processes: usize,
    /// Korat runs, `subject:scope`, separated by commas.
    #[arg(long, value_delimiter = ',', default_value = "binary-tree:13")]
    pub korat: Vec<String>,
    /// Random runs, `subject:sequences`, separated by commas: each with one stream per process.
    #[arg(long, value_delimiter = ',', default_value = "dll:2000000")]
    pub random: Vec<String>,
}

#[derive(clap::Args)]
pub struct IsolationBench {
    /// Runs of each command in each mode (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Sequences of the random run.
    #[arg(long, default_value_t = 1_000_000)]
    pub sequences: u64,
    /// Scope of the BEAPI run.
    #[arg(long, default_value_t = 10)]
    pub scope: u32,
}

#[derive(clap::Args)]
pub struct RandomBench {
    /// Seconds per cell (the time limit of each run).
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Seed of the first generator; generator `i` of a parallel cell gets `seed + i`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Count the instructions per sequence instead of timing: runs `smallscope
    /// random SUBJECT --sequences N --seed S --format json --no-isolation`
    /// under `valgrind --tool=callgrind` for every built-in subject (or those
    /// of --subjects).
    #[arg(long)]
    pub instructions: bool,
    /// With --instructions: the sequences of each run.
    #[arg(long, default_value_t = 50_000)]
    pub sequences: u64,
    /// With --instructions: subjects, separated by commas (default: every built-in one).
    #[arg(long, value_delimiter = ',')]
    pub subjects: Vec<String>,
}

#[derive(clap::Args)]
pub struct KoratBench {
    /// `subject:from-to` (or `subject:n`) items, separated by commas. Default:
    /// the rows measured against Korat 1.0 (binary-tree:13, search-tree:9,
    /// red-black-tree:10, sorted-list:12); with --instructions, the rows
    /// counted with callgrind (binary-tree:10, search-tree:8,
    /// red-black-tree:9, sorted-list:10).
    #[arg(long, value_delimiter = ',')]
    pub runs: Vec<String>,
    /// Threads per search (0: all cores).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Count the instructions per explored candidate instead of timing:
    /// runs `smallscope korat SUBJECT --scope N --threads 1 --format json
    /// --no-isolation` under `valgrind --tool=callgrind` (Debian package
    /// `valgrind`), which counts the same on a busy machine.
    #[arg(long)]
    pub instructions: bool,
    /// Only the hand-written search of SUBJECT:SCOPE, as JSON (what
    /// --instructions runs under callgrind for its `by hand` rows).
    #[arg(long, hide = true, value_name = "SUBJECT:SCOPE")]
    pub by_hand: Option<String>,
}

#[derive(clap::Args)]
pub struct BeapiBench {
    /// Subjects, separated by commas.
    #[arg(long, value_delimiter = ',', default_value = "bst,avl,rbt,ncl")]
    pub subjects: Vec<String>,
    /// Seconds allowed per run.
    #[arg(long, default_value_t = 60.0)]
    pub limit: f64,
    /// First scope.
    #[arg(long, default_value_t = 3)]
    pub from: u32,
    /// Last scope.
    #[arg(long, default_value_t = 15)]
    pub to: u32,
    /// Memory allowed per run, in MiB; a run over it counts as over the limit.
    #[arg(long, default_value_t = 12_288)]
    pub memory_limit_mb: u64,
    /// Skip the bst performance-target table.
    #[arg(long)]
    pub no_targets: bool,
    /// Only the bst performance-target table.
    #[arg(long)]
    pub targets_only: bool,
    /// Count the instructions per explored sequence instead of timing: runs
    /// `smallscope beapi SUBJECT --scope N --check none --format json
    /// --no-isolation` under `valgrind --tool=callgrind` (Debian package
    /// `valgrind`) for every built-in BEAPI subject (or those of --runs),
    /// after a run outside callgrind has cached its builders, with the
    /// hand-written search of bst beside the engine's.
    #[arg(long)]
    pub instructions: bool,
    /// With --instructions: `subject:from-to` (or `subject:n`) items,
    /// separated by commas, instead of every subject at its default scope.
    #[arg(long, value_delimiter = ',')]
    pub runs: Vec<String>,
    /// Only the hand-written bst search at this scope, as JSON (what
    /// --instructions runs under callgrind for its `by hand` rows).
    #[arg(long, hide = true)]
    pub by_hand: Option<u32>,
}

#[derive(clap::Args)]
pub struct BuildersBench {
    /// Subjects of the identification and largest-scope tables, separated by commas.
    #[arg(long, value_delimiter = ',', default_value = "bst,binheap,rbt,ncl-full,tree-map,union-find,scheduler,lits")]
    pub subjects: Vec<String>,
    /// The scope builders are identified at.
    #[arg(long, default_value_t = 5)]
    pub scope: u32,
    /// The GA runs with seeds 0..N.
    #[arg(long, default_value_t = 5)]
    pub seeds: u64,
    /// Seconds allowed per BEAPI run in the largest-scope table (0: skip the table).
    #[arg(long, default_value_t = 60.0)]
    pub limit: f64,
    /// Seconds of each random run in Table 3, separated by commas (empty: skip the table).
    #[arg(long, value_delimiter = ',', default_value = "5,10,20")]
    pub random_seconds: Vec<f64>,
    /// Subjects of Table 3, separated by commas.
    #[arg(long, value_delimiter = ',', default_value = "ncl-full,tree-map,scheduler,lits")]
    pub random_subjects: Vec<String>,
    /// Memory allowed per run, in MiB.
    #[arg(long, default_value_t = 12_288)]
    pub memory_limit_mb: u64,
}

#[derive(clap::Args)]
pub struct SuitesBench {
    /// `engine:subject` items, separated by commas. Default: the paper's
    /// subjects on both engines: the sorted list, the BST, the AVL tree
    /// (BEAPI's TreeSet) and the binomial heap.
    #[arg(long, value_delimiter = ',')]
    pub runs: Vec<String>,
    /// The scopes, `from-to`.
    #[arg(long, default_value = "5-8")]
    pub scopes: String,
    /// The small scope transcoping measures up to.
    #[arg(long, default_value_t = 5)]
    pub small_scope: u32,
    /// Also measure each suite's coverage and mutation score (BEAPI subjects
    /// and Korat's search-tree, whose candidates become `bst` values).
    #[arg(long)]
    pub quality: bool,
    /// With --quality: the smallscope checkout whose subjects are measured
    /// (copied, with the suites as a test target).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub checkout: PathBuf,
}
