//! Cluster mode (`--hostfile`): one run over several processes, on one
//! host or many, that exchange the engine's work over timely dataflow.
//!
//! Every process runs its share of the work as an ordinary supervised run
//! (worker process, restarts, staging), and relays what its share reports to
//! process 0, which joins it into the run's events and writes the files. The
//! code under test never runs in the process that talks to the others, so
//! a crash in it stays a finding, as in one process. See
//! `docs/cluster.md` for what is exchanged and how it scales.

mod config;
mod process;
mod relay;
mod sockets;

pub use config::Cluster;
pub use process::run;
