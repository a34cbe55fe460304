//! Streams: one random run as `K` independent ones, merged in a fixed
//! order, so that a cluster's processes can share it and write what one
//! process writes.
//!
//! **The idea.** With [`RandomConfig::streams`] `= K`, stream `s` is a run
//! of its own: seeded `seed + s`, with its portion of the sequence limit and
//! of the regression tests, and a component set of its own. It is exactly
//! the one-stream run `--seed <seed + s> --sequences <portion>`, which its
//! failures' replay commands name. Streams share nothing, so they run
//! anywhere: one after another in one process, or stream `s` on process
//! `s mod n` of a cluster (`--hostfile`). The merge takes them in stream
//! order wherever they ran, so the outputs depend on `K`, not on `n`:
//!
//! - failure groups with the same key (contract, last call, panic site) are
//!   one group: the counts add up, the witness is the shortest simplified
//!   one (the earlier stream's on a tie), and groups are numbered in the
//!   order the streams found them;
//! - regression tests follow one another in stream order;
//! - counts add up (the largest structure is the largest of any stream).
//!
//! **When to choose it.** To spread a long run over machines. **Cost:** a
//! stream reuses only what it stored itself, so `K` streams of `N / K`
//! sequences build shorter sequences than one run of `N` (each component
//! set is `K` times smaller); one stream (the default) keeps today's
//! outputs.
//!
//! ```
//! use smallscope::random::RandomConfig;
//! let config = RandomConfig { seed: 7, streams: 3, sequence_limit: Some(10), ..RandomConfig::default() };
//! let portions: Vec<_> = (0..3).map(|s| config.stream(s, None)).map(|c| (c.seed, c.sequence_limit)).collect();
//! assert_eq!(portions, [(7, Some(4)), (8, Some(3)), (9, Some(3))]);
//! ```

use std::collections::HashMap;
use std::time::Duration;

use super::{RandomConfig, RegressionTest, StreamRecord};
use crate::events::{Counts, Failure, Stop};

impl RandomConfig {
    /// Stream `stream`'s run: seeded `seed + stream`, with its portion of
    /// the sequence limit and of the regression tests, and `time` as its
    /// time limit.
    pub fn stream(&self, stream: u32, time: Option<Duration>) -> RandomConfig {
        let streams = self.streams;
        RandomConfig {
            seed: self.seed.wrapping_add(u64::from(stream)),
            sequence_limit: self.sequence_limit.map(|limit| portion(limit, streams, stream)),
            regression_tests: portion(self.regression_tests as u64, streams, stream) as usize,
            time_limit: time,
            streams: 1,
            ..self.clone()
        }
    }
}

/// Part `part` of `total` cut into `parts` as even as can be, the first
/// ones a unit larger.
fn portion(total: u64, parts: u32, part: u32) -> u64 {
    let parts = u64::from(parts.max(1));
    total / parts + u64::from(u64::from(part) < total % parts)
}

/// A stream's replay command: the run's command with the stream's seed.
pub(super) fn stream_command(command: &str, seed: u64, stream_seed: u64) -> String {
    command.replacen(&format!(" --seed {seed}"), &format!(" --seed {stream_seed}"), 1)
}

/// The streams' findings as one run's.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    pub stop: Stop,
    pub counts: Counts,
    /// Numbered from 0, in the order the streams found them.
    pub failures: Vec<Failure>,
    pub regression_tests: Vec<RegressionTest>,
    /// Each note once, in the order the streams said them.
    pub notes: Vec<String>,
}

/// Merges `records`, which must come in stream order. The stop is the first
/// stream's stop other than its sequence limit (a time limit, say), or
/// the sequence limit when every stream reached its own.
pub fn merge<'r>(records: impl IntoIterator<Item = &'r StreamRecord>) -> Merged {
    let mut merged = Merged {
        stop: Stop::SequenceLimit,
        counts: Counts::default(),
        failures: Vec::new(),
        regression_tests: Vec::new(),
        notes: Vec::new(),
    };
    let mut group_of = HashMap::new();
    for record in records {
        if merged.stop == Stop::SequenceLimit {
            merged.stop = record.stop;
        }
        add_counts(&mut merged.counts, &record.counts);
        for group in &record.groups {
            match group_of.get(&group.key) {
                Some(&index) => {
                    let known: &mut Failure = &mut merged.failures[index];
                    let count = known.count + group.failure.count;
                    if group.failure.witness.calls < known.witness.calls {
                        *known = Failure { group: index as u32, ..group.failure.clone() };
                    }
                    known.count = count;
                }
                None => {
                    group_of.insert(group.key.clone(), merged.failures.len());
                    merged.failures.push(Failure { group: merged.failures.len() as u32, ..group.failure.clone() });
                }
            }
        }
        merged.regression_tests.extend(record.regression_tests.iter().cloned());
        for note in &record.notes {
            if !merged.notes.contains(note) {
                merged.notes.push(note.clone());
            }
        }
    }
    merged
}

/// The counts of `records` together, without merging what they found.
pub(super) fn counts_of<'r>(records: impl IntoIterator<Item = &'r StreamRecord>) -> Counts {
    let mut total = Counts::default();
    records.into_iter().for_each(|record| add_counts(&mut total, &record.counts));
    total
}

/// Adds a stream's counts to the run's.
fn add_counts(total: &mut Counts, counts: &Counts) {
    total.explored += counts.explored;
    total.checked += counts.checked;
    total.structures += counts.structures;
    total.misuses += counts.misuses;
    total.out_of_scope += counts.out_of_scope;
    total.redundant += counts.redundant;
    total.failing += counts.failing;
    total.largest_structure = total.largest_structure.max(counts.largest_structure);
    for (sum, list) in [
        (&mut total.operation_calls, &counts.operation_calls),
        (&mut total.operation_misuses, &counts.operation_misuses),
        (&mut total.quarantined_calls, &counts.quarantined_calls),
    ] {
        if sum.len() < list.len() {
            sum.resize(list.len(), 0);
        }
        sum.iter_mut().zip(list).for_each(|(sum, n)| *sum += n);
    }
    total.edges_covered = total.edges_covered.max(counts.edges_covered);
    total.edges_total = total.edges_total.max(counts.edges_total);
}
