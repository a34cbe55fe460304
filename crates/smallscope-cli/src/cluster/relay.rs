//! What passes between the processes: a timely dataflow with one worker
//! per process, whose one stream carries each share's reports (events, as
//! their NDJSON line) to process 0's worker.
//!
//! The dataflow runs in the supervisor process, beside the share's run and
//! never inside the worker that calls the code under test. When every
//! process has closed its input and process 0 has taken everything, the
//! stream's frontier empties and every process's relay ends. A process
//! that dies breaks timely's connections: the others' relays end with an
//! error instead, and their runs stop to be resumed.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use smallscope::events::Event;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::WorkerConfig;
use timely_communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely_communication::allocator::{AllocatorBuilder, ProcessBuilder};

use super::Cluster;

/// What a share sends process 0: its reports, and at its end, how often
/// its worker was restarted (which the run's summary counts).
#[derive(serde::Serialize, serde::Deserialize)]
enum Envelope {
    Event(Box<Event>),
    Restarts(u32),
}

/// Where process 0 puts what arrives.
pub struct Arrived {
    pub events: mpsc::Sender<Event>,
    /// The restarts of every share's worker, added up.
    pub restarts: Arc<AtomicU32>,
}

/// How long a relay waits between looks for something to send.
const POLL: Duration = Duration::from_millis(20);

/// This process's end of the exchange.
pub struct Relay {
    outgoing: Option<mpsc::Sender<Vec<u8>>>,
    thread: Option<JoinHandle<Result<(), String>>>,
    /// Set when the relay is dropped unfinished.
    abandoned: Arc<AtomicBool>,
    /// Set once every process is connected.
    connected: Arc<AtomicBool>,
}

impl Relay {
    /// Connects to the cluster's other processes (in the background: the
    /// share's run starts at once). On process 0, what every process sends
    /// arrives on `arrivals`.
    pub fn start(cluster: &Cluster, arrivals: Option<Arrived>, patience: Duration) -> Relay {
        quiet_connection_panics();
        let (outgoing, from_share) = mpsc::channel::<Vec<u8>>();
        let abandoned = Arc::new(AtomicBool::new(false));
        // The worker closure is `Fn` and `Sync`: its one call takes these.
        let ends = Arc::new(Mutex::new(Some((from_share, arrivals))));
        let connected = Arc::new(AtomicBool::new(false));
        let (gave_up, cluster, joined) = (abandoned.clone(), cluster.clone(), connected.clone());
        let thread = std::thread::Builder::new()
            .name("smallscope-relay".into())
            .spawn(move || {
                let sockets = super::sockets::connect(&cluster, patience, &|| gave_up.load(Ordering::Relaxed))?;
                joined.store(true, Ordering::Relaxed);
                let hooks = timely_communication::Hooks::default();
                let local = ProcessBuilder::new_typed_vector(1, hooks.refill.clone(), hooks.spill.clone());
                let (builders, guard) = initialize_networking_from_sockets(local, sockets, cluster.process, 1, hooks)
                    .map_err(|e| format!("the cluster's connections: {e}"))?;
                let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
                let guards =
                    timely::execute::execute_from(builders, Box::new(guard), WorkerConfig::default(), move |worker| {
                        let taken = ends.lock().unwrap_or_else(|p| p.into_inner()).take();
                        let (from_share, arrivals) = taken.expect("one timely worker per process");
                        let mut input = InputHandle::<u64, _>::new();
                        let probe = ProbeHandle::new();
                        worker.dataflow(|scope| {
                            scope
                                .input_from(&mut input)
                                .container::<Vec<Vec<u8>>>()
                                .exchange(|_| 0)
                                .inspect(move |line: &Vec<u8>| deliver(arrivals.as_ref(), line))
                                .probe_with(&probe);
                        });
                        let mut round = 0;
                        loop {
                            match from_share.recv_timeout(POLL) {
                                Ok(line) => {
                                    input.send(line);
                                    while let Ok(line) = from_share.try_recv() {
                                        input.send(line);
                                    }
                                    round += 1;
                                    input.advance_to(round);
                                }
                                Err(mpsc::RecvTimeoutError::Timeout) => {}
                                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                            }
                            worker.step();
                        }
                        drop(input);
                        while !probe.done() {
                            worker.step_or_park(Some(POLL));
                        }
                    })?;
                // A worker that panicked (a connection lost) is an `Err` here.
                guards.join().into_iter().collect::<Result<Vec<()>, String>>().map(drop)
            })
            .expect("spawning the relay thread");
        Relay { outgoing: Some(outgoing), thread: Some(thread), abandoned, connected }
    }

    /// Whether every process has connected, for after the relay is gone.
    pub fn connected(&self) -> Arc<AtomicBool> {
        self.connected.clone()
    }

    /// Sends `event` to process 0.
    pub fn send(&self, event: &Event) {
        self.send_envelope(&Envelope::Event(Box::new(event.clone())));
    }

    /// Whether the exchange ended before this process closed its input:
    /// a connection broke, and the share's run should stop.
    pub fn broken(&self) -> bool {
        self.outgoing.is_some() && self.thread.as_ref().is_some_and(JoinHandle::is_finished)
    }

    /// Tells process 0 how often this share's worker was restarted.
    pub fn send_restarts(&self, restarts: u32) {
        self.send_envelope(&Envelope::Restarts(restarts));
    }

    fn send_envelope(&self, envelope: &Envelope) {
        if let (Some(outgoing), Ok(line)) = (&self.outgoing, serde_json::to_vec(envelope)) {
            let _ = outgoing.send(line);
        }
    }

    /// Closes this process's input and waits until every process's reports
    /// are with process 0, or the exchange fails.
    pub fn finish(mut self) -> Result<(), String> {
        drop(self.outgoing.take());
        let thread = self.thread.take().expect("finished once");
        let failed = |_| {
            let first = FIRST_PANIC.lock().unwrap_or_else(|p| p.into_inner()).clone();
            Err(format!("the connection to another process was lost ({})", first.unwrap_or_default()))
        };
        thread.join().unwrap_or_else(failed)
    }
}

impl Drop for Relay {
    /// Unfinished (the share stopped early): stop trying to connect.
    fn drop(&mut self) {
        self.abandoned.store(true, Ordering::Relaxed);
    }
}

/// The first panic of the exchange's threads, for the error that says so.
static FIRST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Timely's threads panic when a peer's connection breaks (a process died):
/// that is told once, as the run's error, not as a panic and its backtrace.
fn quiet_connection_panics() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let name = thread.name().unwrap_or_default();
            if !name.starts_with("timely:") && name != "smallscope-relay" {
                return previous(info);
            }
            let payload = info.payload();
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned());
            FIRST_PANIC.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(text.unwrap_or_default());
        }));
    });
}

/// Process 0: hands an arrived line on, as what it is.
fn deliver(arrived: Option<&Arrived>, line: &[u8]) {
    let Some(arrived) = arrived else { return };
    match serde_json::from_slice::<Envelope>(line) {
        Ok(Envelope::Event(event)) => {
            let _ = arrived.events.send(*event);
        }
        Ok(Envelope::Restarts(restarts)) => {
            arrived.restarts.fetch_add(restarts, Ordering::Relaxed);
        }
        Err(error) => eprintln!("note: a report from another process could not be read ({error}); passed over"),
    }
}
