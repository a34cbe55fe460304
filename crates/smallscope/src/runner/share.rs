//! A process's share of a run split over a cluster (`--hostfile`): which
//! units of the work (Korat's parts, random's streams) it does. Data the orders and events
//! carry, below the engines.

/// How often a cluster's process 0, waiting for the shares' records, looks
/// at its stop flag.
pub const STOP_POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// Share `index` of `count`: the units whose number is `index` modulo
/// `count`. Units are numbered the same way in every process, so the
/// shares cover the work once between them.
///
/// ```
/// use smallscope::runner::Share;
/// let shares = [Share { index: 0, count: 2 }, Share { index: 1, count: 2 }];
/// for unit in 0..10 {
///     assert_eq!(shares.iter().filter(|s| s.holds(unit)).count(), 1);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Share {
    pub index: u32,
    pub count: u32,
}

impl Share {
    /// Whether unit `unit` is this share's.
    pub fn holds(&self, unit: usize) -> bool {
        unit % self.count.max(1) as usize == self.index as usize
    }
}
