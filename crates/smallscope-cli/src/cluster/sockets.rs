//! The cluster's connections, made before timely takes them over: each
//! process listens on its own address, connects to every process before it
//! and accepts every process after it, each new connection opening with the
//! connecting process's index. Done here rather than by timely's own setup,
//! which prints each retry to standard output (where a JSON summary goes)
//! and waits for a missing process forever.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use super::Cluster;

/// How long to wait between tries to connect.
const RETRY: Duration = Duration::from_millis(100);

/// How long a process waits for the others before it says so.
const NOTICE: Duration = Duration::from_secs(3);

/// One stream per other process, in process order, `None` at this one's
/// place: what timely's networking starts from. Gives up after `patience`
/// or when `stopped` says so.
pub fn connect(
    cluster: &Cluster,
    patience: Duration,
    stopped: &dyn Fn() -> bool,
) -> Result<Vec<Option<TcpStream>>, String> {
    let me = cluster.process;
    let own = &cluster.addresses[me];
    let listener = TcpListener::bind(own).map_err(|e| format!("process {me} cannot listen on {own}: {e}"))?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let deadline = Instant::now() + patience;
    let mut streams: Vec<Option<TcpStream>> = (0..cluster.processes()).map(|_| None).collect();
    let missing =
        |streams: &[Option<TcpStream>]| (0..streams.len()).filter(|&i| i != me && streams[i].is_none()).count();
    let absent = |streams: &[Option<TcpStream>]| -> Vec<String> {
        (0..streams.len())
            .filter(|&i| i != me && streams[i].is_none())
            .map(|i| format!("{i} ({})", cluster.addresses[i]))
            .collect()
    };
    let mut told_waiting = false;
    while missing(&streams) > 0 {
        // A process started alone says what it waits for, once.
        if !told_waiting && deadline - Instant::now() < patience.saturating_sub(NOTICE) {
            told_waiting = true;
            crate::progress::say(&format!(
                "process {me}: waiting for process {} to connect (up to {} s), meanwhile searching its share",
                absent(&streams).join(", "),
                patience.as_secs()
            ));
        }
        if stopped() {
            return Err("stopped before the processes connected".into());
        }
        if Instant::now() > deadline {
            return Err(format!(
                "process {} did not connect within {} s: start every process of --hostfile with its --process",
                absent(&streams).join(", "),
                patience.as_secs()
            ));
        }
        for (index, address) in cluster.addresses.iter().enumerate().take(me) {
            if streams[index].is_none() {
                if let Ok(mut stream) = TcpStream::connect(address) {
                    stream.write_all(&(me as u64).to_be_bytes()).map_err(|e| format!("to process {index}: {e}"))?;
                    streams[index] = Some(stream);
                }
            }
        }
        while let Ok((mut stream, _)) = listener.accept() {
            stream.set_nonblocking(false).map_err(|e| e.to_string())?;
            stream.set_read_timeout(Some(patience)).map_err(|e| e.to_string())?;
            let mut index = [0u8; 8];
            stream.read_exact(&mut index).map_err(|e| format!("a connection to process {me}: {e}"))?;
            stream.set_read_timeout(None).map_err(|e| e.to_string())?;
            let index = u64::from_be_bytes(index) as usize;
            if index <= me || index >= streams.len() {
                return Err(format!("process {me} was connected to by a process numbered {index}"));
            }
            streams[index] = Some(stream);
        }
        if missing(&streams) > 0 {
            std::thread::sleep(RETRY);
        }
    }
    for stream in streams.iter().flatten() {
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
    }
    Ok(streams)
}
