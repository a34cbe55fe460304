//! A random run of several streams (see the `streams` module): each stream
//! generated, simplified and sampled on its own and recorded whole; then
//! the records merged into the run's failures and regression tests. In a
//! cluster, a process runs and records its share of the streams, and
//! process 0 merges the records that arrive from all of them.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use regex::Regex;

use super::execute::Executor;
use super::generate::{Generator, Outlet};
use super::streams::{counts_of, merge, stream_command};
use super::{regression, RandomJob, RandomReport, Resume, StreamGroup, StreamRecord};
use crate::api::{Operation, OtherDomains, StdTraits, Subject};
use crate::events::{Configuration, Counts, Event, Failure, Note, Progress, RunFinished, RunStarted, Sink, Stop};
use crate::runner::{JobError, Start, STOP_POLL};

/// Stream `s`'s user code is numbered from `s * STAGES`: apart from every
/// other stream's (each stage of a run is a run number below it).
const STAGES: u64 = 8;

impl<T: Subject + StdTraits> RandomJob<T> {
    /// Runs the streams this process holds (all of them, but in a cluster),
    /// or, on a cluster's process 0, joins the records that arrive; then,
    /// but for a share, merges them into the run's findings.
    pub(super) fn run_streams(
        &self,
        start: Start<'_, RandomReport>,
        out: &mut dyn Sink,
        ops: &[Operation<T>],
        misuse: &[Regex],
    ) -> Result<(), JobError> {
        let config = &self.config;
        let started = Instant::now();
        let resumed = start.resume.filter(|report| !report.run.is_empty());
        let seconds_before = resumed.map_or(0.0, |report| report.seconds);
        let seconds = || seconds_before + started.elapsed().as_secs_f64();
        let records = resumed.map(|r| r.streams.clone()).unwrap_or_default();
        let mut told = Told { records, out, partial: None };
        if resumed.is_none() {
            let configuration = Configuration::Random(config.clone());
            told.out.event(Event::RunStarted(RunStarted {
                operations: ops.iter().map(|op| op.info()).collect(),
                contracts: self.contracts.iter().map(|c| c.name().to_owned()).collect(),
                ..RunStarted::new(
                    &self.name,
                    std::any::type_name::<T>().to_owned(),
                    configuration,
                    self.command.clone(),
                )
            }));
            told.out.commit(&[]);
        } else if config.share.is_some() {
            // Process 0 may have lost what it had not committed: sent again.
            for record in told.records.values() {
                told.out.event(Event::Stream(record.clone()));
            }
            told.out.commit(&[]);
        }
        let stop = match &self.arrivals {
            Some(arrivals) => {
                let arrivals = arrivals.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                join(&arrivals, config.streams, start, &mut told, &seconds)?
            }
            None => self.search(start, ops, misuse, &mut told, &seconds),
        };
        let Told { records, out, partial } = told;
        if config.share.is_some() {
            let stop = stop.unwrap_or(Stop::Complete);
            out.event(Event::RunFinished(RunFinished::new(stop, seconds(), counts_of(records.values()))));
            return Ok(());
        }
        // Stopped to be resumed: what the streams found so far is told, the
        // stream cut short included (a resumed run generates it again and
        // tells each group again, by number); notes and tests wait for the end.
        let resumable = matches!(stop, Some(Stop::Interrupted | Stop::MemoryLimit));
        let merged = merge(records.values().chain(&partial));
        match resumable {
            // The time spent counts against the limit when the run resumes.
            true => out.event(progress(seconds(), merged.counts.clone())),
            false => merged.notes.into_iter().for_each(|text| out.event(Event::Note(Note { text }))),
        }
        let group_counts = merged.failures.iter().map(|failure| failure.count).collect();
        merged.failures.into_iter().for_each(|failure| out.event(Event::Failure(failure)));
        if !resumable {
            merged.regression_tests.into_iter().for_each(|test| out.event(Event::RegressionTest(test)));
        }
        let finished =
            RunFinished { group_counts, ..RunFinished::new(stop.unwrap_or(merged.stop), seconds(), merged.counts) };
        out.event(Event::RunFinished(finished));
        Ok(())
    }

    /// Runs the streams this process holds and has not recorded, in order;
    /// what stopped them early, if anything did.
    fn search(
        &self,
        start: Start<'_, RandomReport>,
        ops: &[Operation<T>],
        misuse: &[Regex],
        told: &mut Told<'_>,
        seconds: &dyn Fn() -> f64,
    ) -> Option<Stop> {
        let config = &self.config;
        let held: Vec<u32> = (0..config.streams)
            .filter(|&s| config.share.is_none_or(|share| share.holds(s as usize)) && !told.records.contains_key(&s))
            .collect();
        let others = OtherDomains::of(ops, &config.other_settings(), start.killed, Some(start.stop));
        let limit = config.effective_time_limit().map(|limit| limit.as_secs_f64());
        for (done, &stream) in held.iter().enumerate() {
            let asked = start.stop.reason();
            if asked.is_some_and(|stop| stop != Stop::TimeLimit) {
                return asked;
            }
            // The time left, shared by the streams left; a stream with none
            // is recorded empty, so that the run's streams are all told.
            let time = limit.map(|limit| (limit - seconds()) / (held.len() - done) as f64);
            if asked.is_some() || time.is_some_and(|time| time <= 0.0) {
                told.tell(unrun(stream), seconds());
                continue;
            }
            let time = time.map(Duration::from_secs_f64);
            let record = self.stream(stream, time, start, ops, misuse, others.clone());
            let stop = record.stop;
            if stop == Stop::Interrupted {
                told.partial = Some(record);
                return Some(stop);
            }
            told.tell(record, seconds());
            if stop == Stop::MemoryLimit {
                return Some(stop);
            }
        }
        None
    }

    /// Generates stream `stream`, simplifies its failures and samples its
    /// regression tests, as the one-stream run of its seed would.
    fn stream(
        &self,
        stream: u32,
        time: Option<Duration>,
        start: Start<'_, RandomReport>,
        ops: &[Operation<T>],
        misuse: &[Regex],
        others: OtherDomains,
    ) -> StreamRecord {
        let config = self.config.stream(stream, time);
        let traits = T::std_traits();
        let exec = Executor::new(ops, &self.contracts, misuse, traits.clone, start.killed)
            .numbered_from(u64::from(stream) * STAGES);
        let mut events = Vec::new();
        let mut notes = others.notes.clone();
        let command = self.command.as_deref().map(|c| stream_command(c, self.config.seed, config.seed));
        let outlet = Outlet { out: &mut events, stop: Some(start.stop), command, seconds_before: 0.0 };
        let mut generator = Generator::new(&config, exec.memoized(), traits, outlet, others);
        let stop = generator.run(false);
        match stop {
            Stop::Interrupted => {}
            Stop::MemoryLimit => self.report_failures(&mut generator, None),
            _ => {
                self.report_failures(&mut generator, Some(&exec));
                for test in regression::regression_tests(&generator, &exec, &[]) {
                    generator.emit(Event::RegressionTest(test));
                }
            }
        }
        let (seconds, counts) = (generator.seconds(), generator.event_counts());
        let keys: Vec<_> = generator.groups.iter().map(|group| (group.failure.group_key(), group.count)).collect();
        drop(generator);
        let (mut failures, mut regression_tests) = (Vec::new(), Vec::new());
        for event in events {
            match event {
                Event::Failure(failure) => failure.fold_into(&mut failures),
                Event::RegressionTest(test) => regression_tests.push(test),
                Event::Note(note) => notes.push(note.text),
                _ => {}
            }
        }
        let groups = keys
            .into_iter()
            .zip(failures)
            .map(|((key, count), failure)| StreamGroup { key, failure: Failure { count, ..failure } })
            .collect();
        StreamRecord { stream, stop, seconds, counts, groups, regression_tests, notes }
    }
}

/// A stream the time limit left no time for.
fn unrun(stream: u32) -> StreamRecord {
    StreamRecord {
        stream,
        stop: Stop::TimeLimit,
        seconds: 0.0,
        counts: Counts::default(),
        groups: Vec::new(),
        regression_tests: Vec::new(),
        notes: vec![format!(
            "stream {stream} had no time left: a longer --time-limit or fewer --streams runs every stream"
        )],
    }
}

/// The records told so far, and where they are told.
struct Told<'o> {
    records: BTreeMap<u32, StreamRecord>,
    out: &'o mut dyn Sink,
    /// The stream a stop cut short, as far as it went: reported, not recorded.
    partial: Option<StreamRecord>,
}

impl Told<'_> {
    /// Records `record`, with the run's counts after it, and commits.
    fn tell(&mut self, record: StreamRecord, seconds: f64) {
        self.records.insert(record.stream, record.clone());
        self.out.event(Event::Stream(record));
        self.out.event(progress(seconds, counts_of(self.records.values())));
        self.out.commit(&[]);
    }
}

/// The run's progress at `counts`: streams resume by their records, so the
/// resume point only carries the count.
fn progress(seconds: f64, counts: Counts) -> Event {
    let resume = crate::events::Resume::Random(Resume { sequences: counts.explored });
    Event::Progress(Progress { seconds, counts, group_counts: Vec::new(), edge_gains: Vec::new(), resume })
}

/// Process 0 of a cluster: tells the records arriving from every process
/// in stream order, each once, until all `streams` are told; what stopped
/// it early, if anything did; a fault when the records stop coming.
fn join(
    arrivals: &mpsc::Receiver<Event>,
    streams: u32,
    start: Start<'_, RandomReport>,
    told: &mut Told<'_>,
    seconds: &dyn Fn() -> f64,
) -> Result<Option<Stop>, JobError> {
    let mut waiting = BTreeMap::new();
    loop {
        while let Some(next) = (0..streams).find(|s| !told.records.contains_key(s)) {
            let Some(record) = waiting.remove(&next) else { break };
            told.tell(record, seconds());
        }
        if told.records.len() as u32 == streams {
            return Ok(None);
        }
        // A time limit stops each share, which then sends what it made:
        // the join waits for it (a lost share ends the wait).
        if let Some(stop) = start.stop.reason().filter(|&stop| stop != Stop::TimeLimit) {
            return Ok(Some(stop));
        }
        match arrivals.recv_timeout(STOP_POLL) {
            Ok(Event::Stream(record)) if !told.records.contains_key(&record.stream) => {
                waiting.insert(record.stream, record);
            }
            Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(JobError::Fault("the streams from another process of the cluster stopped coming".into()))
            }
        }
    }
}
