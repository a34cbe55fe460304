//! [`StopFlag`]: how a job is asked to stop early, shared with the code
//! that runs other subjects' searches inside it.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use crate::events::Stop;

/// Asks a running job to stop early, keeping what it found, and says why.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicU8>);

const INTERRUPTED: u8 = 1;

impl StopFlag {
    pub fn new() -> Self {
        Self::default()
    }

    /// A flag that reads `flag`: a signal handler sets it to 1 (interrupted).
    pub fn shared(flag: Arc<AtomicU8>) -> Self {
        StopFlag(flag)
    }

    /// Asks the job to stop: interrupted.
    pub fn stop(&self) {
        self.0.store(INTERRUPTED, Ordering::Relaxed);
    }

    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed) != 0
    }

    /// Why the job is asked to stop, if it is.
    pub fn reason(&self) -> Option<Stop> {
        (self.0.load(Ordering::Relaxed) != 0).then_some(Stop::Interrupted)
    }
}
