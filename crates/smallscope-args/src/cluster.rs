//! The cluster options: one run over several processes (timely dataflow's
//! configuration), on one host or many.

/// Where the processes of a cluster run, and which one this is. Global:
/// given once, before or after the command.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ClusterArgs {
    /// Run as one process of a cluster: FILE has one `host:port` per
    /// process (process 0 first), and the process count is its line count.
    /// Every process runs the same command with its own --process; process
    /// 0 writes the run's files and prints its summary. Korat only, for now.
    #[arg(long, global = true, value_name = "FILE")]
    pub hostfile: Option<std::path::PathBuf>,
    /// This process's line in --hostfile, counted from 0.
    #[arg(long, global = true, value_name = "I", requires = "hostfile")]
    pub process: Option<usize>,
    /// Workers in each process of the cluster (Korat: search threads over the process's parts).
    #[arg(long, global = true, value_name = "W", requires = "hostfile",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub workers: Option<u32>,
}
