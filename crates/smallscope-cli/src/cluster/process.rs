//! One process of a cluster: its share of the work as an ordinary
//! supervised run whose reports go to process 0; on process 0, also the
//! run proper, which joins the shares' reports into the run's events and
//! files, as one process would have made them.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use smallscope::events::{Event, Stop};
use smallscope::order::Order as _;
use smallscope::runner::{Batch, Control, Observer, Share};
use smallscope_args::Exit;

use super::relay::{Arrived, Relay};
use super::Cluster;
use crate::engine_command::{report, EngineCommand, FoldOf};
use crate::run::{Finished, RunOptions};
use crate::BadInput;

/// How long a process waits for the others to start and connect.
const PATIENCE: Duration = Duration::from_secs(120);

/// Runs `command` as process `cluster.process` of the cluster.
pub fn run<C: EngineCommand>(command: C, cluster: &Cluster, options: &RunOptions) -> anyhow::Result<Exit> {
    let options = &options.timed(command.time_limit());
    let share = Share { index: cluster.process as u32, count: cluster.processes() as u32 };
    let no_cluster_mode = || BadInput(format!("`{}` has no cluster mode yet: run it without --hostfile", C::NAME));
    let share_order =
        command.order().share(share, cluster.workers).map_err(BadInput::from)?.ok_or_else(no_cluster_mode)?;
    // Each process keeps its share's commits apart, to resume them.
    let share_options = RunOptions {
        out: options.out.as_ref().map(|out| out.join(format!(".smallscope-share-{}", cluster.process))),
        structures: false,
        cluster: None,
        ..options.clone()
    };
    if cluster.process != 0 {
        let relay = Relay::start(cluster, None, PATIENCE);
        let shared = run_share::<C>(&share_order, &share_options, relay);
        return finish_share(&command, cluster, shared);
    }
    let (arrivals_in, arrivals) = mpsc::channel::<Event>();
    let job = command.order().joining(arrivals).map_err(BadInput::from)?.ok_or_else(no_cluster_mode)?;
    let restarts = Arc::new(AtomicU32::new(0));
    let arrived = Arrived { events: arrivals_in, restarts: restarts.clone() };
    let relay = Relay::start(cluster, Some(arrived), PATIENCE);
    let connected = relay.connected();
    // The join runs no code under test: on a thread of this process, held
    // to no memory limit of its own (the share's worker has the limit).
    let join_options = RunOptions { isolation: false, memory_limit: None, cluster: None, ..options.clone() };
    let (shared, joined) = std::thread::scope(|scope| {
        let share_options = &share_options;
        let share_thread = scope.spawn(move || run_share::<C>(&share_order, share_options, relay));
        let joined = crate::run::run_job(command.order(), job, &join_options, &mut ());
        (share_thread.join(), joined)
    });
    let mut finished = joined?;
    let shared = shared.unwrap_or_else(|_| Err(anyhow::anyhow!("this process's share ended in a panic")));
    // Never connected: nothing was joined, and a summary would only say so.
    if !connected.load(Ordering::Relaxed) {
        let signal = shared.as_ref().ok().and_then(|shared| shared.signal);
        let trouble = share_trouble(shared).unwrap_or_else(|| {
            "stopped before the other processes connected: run every process again with --resume".into()
        });
        crate::progress::say(&format!("error: {trouble}"));
        return Ok(signal.map_or(Exit::Fault, Exit::Signal));
    }
    // The join ran no code under test: the restarts are the shares', the
    // worker's memory this process's share's, held to the run's limit.
    finished.restarts = restarts.load(Ordering::Relaxed);
    finished.memory_limit = options.memory_limit;
    if let Ok(shared) = &shared {
        finished.peak_memory = shared.peak_memory;
    }
    finished.supervisor_peak_memory = crate::memory::peak_memory_bytes().filter(|_| options.isolation);
    // What stopped the join's records, if anything did, says more than the join.
    if let Some(trouble) = share_trouble(shared) {
        finished.trouble = Some(trouble);
    }
    report(command, finished, options)
}

/// What a share's run and its relay came to: the share's trouble, or the exchange's.
struct Shared {
    trouble: Option<String>,
    peak_memory: Option<u64>,
    exchange: Result<(), String>,
    complete: bool,
    /// The signal that stopped the share, if one did.
    signal: Option<i32>,
}

/// Runs this process's share, sending each report to process 0 as it is
/// committed, then waits for the exchange to end.
fn run_share<C: EngineCommand>(order: &C::Order, options: &RunOptions, relay: Relay) -> anyhow::Result<Shared> {
    let mut finished: Finished<FoldOf<C>> = crate::run::run_observed(order, options, &mut Forward(&relay))?;
    // The share searched all it holds (a quarantine ends it too): its reports are final.
    let stop = finished.stop(C::ended(&finished.fold).1);
    let complete = finished.trouble.is_none() && matches!(stop, Stop::Complete | Stop::Quarantined);
    relay.send_restarts(finished.restarts);
    let exchange = match complete || relay.broken() {
        true => relay.finish(),
        // Stopped early: the others are told by the lost connection.
        false => Ok(()),
    };
    if complete && exchange.is_ok() {
        // Everything it found is with process 0.
        finished.staging.close(true)?;
        if let Some(out) = &options.out {
            let _ = std::fs::remove_dir(out); // Only if nothing else is in it.
        }
    }
    let signal = finished.signal();
    Ok(Shared { trouble: finished.trouble, peak_memory: finished.peak_memory, exchange, complete, signal })
}

/// The trouble a share's run had, said for the run's report.
fn share_trouble(shared: anyhow::Result<Shared>) -> Option<String> {
    match shared {
        Err(error) => Some(format!("this process's share: {error:#}")),
        Ok(Shared { trouble: Some(trouble), .. }) => Some(format!("this process's share: {trouble}")),
        Ok(Shared { exchange: Err(error), .. }) => {
            Some(format!("the cluster: {error}; run every process again with --resume"))
        }
        Ok(_) => None,
    }
}

/// A process other than 0: says what its share did.
fn finish_share<C: EngineCommand>(
    command: &C,
    cluster: &Cluster,
    shared: anyhow::Result<Shared>,
) -> anyhow::Result<Exit> {
    let (complete, signal) = shared.as_ref().map_or((false, None), |s| (s.complete, s.signal));
    let subject = smallscope_args::EngineArgs::subject(command.args()).to_owned();
    let (process, processes) = (cluster.process, cluster.processes());
    match share_trouble(shared) {
        Some(trouble) => {
            crate::progress::say(&format!("error: {trouble}"));
            Ok(Exit::Fault)
        }
        None if !complete => {
            crate::print(format!(
                "smallscope {} {subject}: process {process} of {processes} stopped before its share was searched; \
                 run every process again with --resume",
                C::NAME
            ))?;
            // Stopped by a signal, or by a limit: process 0 tells the run's stop.
            Ok(signal.map_or(Exit::Clean, Exit::Signal))
        }
        None => {
            crate::print(format!(
                "smallscope {} {subject}: process {process} of {processes} searched its share; process 0 reports the run",
                C::NAME
            ))?;
            Ok(Exit::Clean)
        }
    }
}

/// Sends each committed report of a share (a Korat part's chunk, a random
/// stream) to process 0.
struct Forward<'r>(&'r Relay);

impl Observer for Forward<'_> {
    fn batch(&mut self, batch: &Batch) {
        for event in batch.events.iter().filter(|e| matches!(e, Event::Part(_) | Event::Stream(_))) {
            self.0.send(event);
        }
    }
    fn poll(&mut self) -> Control {
        match self.0.broken() {
            true => Control::Interrupt,
            false => Control::Continue,
        }
    }
}
