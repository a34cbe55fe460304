//! A Korat search as a [`Job`]: its events, commits as the parts and the
//! chunks of long parts end (so a part that runs for hours is not held in
//! memory, and a stop keeps what it found), and the report they fold into.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use super::part_record::RecordIdentity;
use super::search::{self, CandidateFailure, Invariants, Kept, PartedSearch, SearchOptions};
use super::space::{SlotDomain, Space};
use super::Candidate;
use super::NULL_VALUE;
use super::{Arrivals, KoratSettings, PartRecord, Resume};
use crate::events::{
    Configuration, Counts, During, Event, Failure, FailureGroups, FailureKind, Fold, Input, LevelStats, Note, Progress,
    Rebuild, RunFinished, RunStarted, Sink, Stop, StructureFound, Witness,
};
use crate::runner::{Job, JobError, Killed, Share, Start, StopFlag};

/// What a Korat run found, folded from its events.
///
/// Serialized, it is the body of the run's JSON summary, named as the
/// summary names it (see [`BeapiReport`](crate::BeapiReport)).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct KoratReport {
    #[serde(skip)]
    pub run: String,
    /// The registered name.
    #[serde(rename = "subject")]
    pub name: String,
    /// The model's Rust type.
    #[serde(rename = "type")]
    pub model: String,
    #[serde(skip)]
    pub settings: Option<KoratSettings>,
    /// Field names, as `Class#object.field`.
    #[serde(skip)]
    pub fields: Vec<String>,
    /// Candidates on which `rep_ok` held.
    #[serde(rename = "structures")]
    pub found: u64,
    /// Candidates `rep_ok` was run on.
    pub explored: u64,
    pub seconds: f64,
    /// Equivalence classes covered (Korat+); the summary says how many.
    #[serde(serialize_with = "count", skip_deserializing)]
    pub classes: BTreeSet<u64>,
    /// The valid candidates, when the run reports them.
    #[serde(skip)]
    pub structures: Vec<Vec<Option<i64>>>,
    /// The structures drawn (the first `pictures`): index, canonical text
    /// when recorded, and DOT picture.
    #[serde(skip)]
    pub pictures: Vec<(usize, Option<String>, String)>,
    #[serde(rename = "failure_groups")]
    pub failures: Vec<Failure>,
    /// What the run says of itself (a quarantine).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip)]
    pub stop: Option<Stop>,
    #[serde(skip)]
    pub resume: Option<Resume>,
    /// A share run's chunks (cluster mode), by what tells them apart.
    #[serde(skip)]
    pub parts: BTreeMap<RecordIdentity, PartRecord>,
}

/// A set as its size.
fn count<S: serde::Serializer>(set: &BTreeSet<u64>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(set.len() as u64)
}

impl KoratReport {
    fn take_counts(&mut self, counts: &Counts, groups: &[u64], seconds: f64) {
        self.found = counts.structures;
        self.explored = counts.explored;
        self.seconds = seconds;
        Failure::take_counts(&mut self.failures, groups);
    }
}

impl Fold for KoratReport {
    fn stopped_early(&mut self, stop: Stop) {
        self.stop.get_or_insert(stop);
    }

    fn apply(&mut self, event: Event) {
        match event {
            Event::RunStarted(started) => {
                self.run = started.run;
                self.name = started.subject;
                self.model = started.type_name;
                self.fields = started.fields;
                if let Configuration::Korat(settings) = started.configuration {
                    self.settings = Some(settings);
                }
            }
            Event::Structure(found) => {
                if let Some(picture) = found.picture {
                    self.pictures.push((self.structures.len(), found.canonical, picture));
                }
                if let Rebuild::Candidate(values) = found.rebuild {
                    self.structures.push(values);
                }
            }
            Event::Failure(failure) => failure.fold_into(&mut self.failures),
            Event::Progress(progress) => {
                self.take_counts(&progress.counts, &progress.group_counts, progress.seconds);
                if let crate::events::Resume::Korat(resume) = progress.resume {
                    self.classes.extend(resume.classes.iter().copied());
                    self.resume = Some(resume);
                }
            }
            Event::RunFinished(finished) => {
                self.take_counts(&finished.counts, &finished.group_counts, finished.seconds);
                self.stop = Some(finished.stop);
            }
            Event::Note(note) => self.notes.push(note.text),
            // A resumed share run reports its earlier chunks again: kept once.
            Event::Part(record) => {
                self.parts.insert(record.identity(), record);
            }
            Event::Level(_)
            | Event::RegressionTest(_)
            | Event::Difference(_)
            | Event::Compared(_)
            | Event::Identified(_)
            | Event::Stream(_) => {}
        }
    }
}

/// A Korat search over a laid-out space, or (ascending) over several in turn.
pub struct KoratJob {
    name: String,
    /// Each search's size (its level) and space, in order.
    spaces: Vec<(u32, Arc<Space>)>,
    invariants: Arc<dyn Invariants + Send + Sync>,
    settings: KoratSettings,
    command: Option<String>,
    /// Process 0 of a cluster: parts come as records from every process's
    /// share run, and are joined instead of searched.
    arrivals: Option<Arrivals>,
}

impl KoratJob {
    pub fn new(
        name: String,
        space: Arc<Space>,
        invariants: Arc<dyn Invariants + Send + Sync>,
        settings: KoratSettings,
        command: Option<String>,
    ) -> Self {
        KoratJob { name, spaces: vec![(settings.scope, space)], invariants, settings, command, arrivals: None }
    }

    /// An ascending run (see [`KoratSettings::ascending`]): `spaces` are
    /// each size's space, smallest first.
    pub fn ascending(
        name: String,
        spaces: Vec<(u32, Arc<Space>)>,
        invariants: Arc<dyn Invariants + Send + Sync>,
        settings: KoratSettings,
        command: Option<String>,
    ) -> Self {
        KoratJob {
            name,
            spaces,
            invariants,
            settings: KoratSettings { ascending: true, ..settings },
            command,
            arrivals: None,
        }
    }

    /// This job on process 0 of a cluster: it joins the parts that arrive
    /// as records from the processes' share runs, and searches none itself.
    pub fn joining(self, arrivals: Arrivals) -> Self {
        KoratJob { arrivals: Some(arrivals), ..self }
    }

    /// A candidate's fields as values: a reference as its object's index,
    /// `None` for null.
    fn decode(space: &Space, values: &[u32]) -> Vec<Option<i64>> {
        space
            .slots
            .iter()
            .zip(values)
            .map(|(domain, &index)| match domain {
                SlotDomain::Values(domain) => Some(domain[index as usize]).filter(|&v| v != NULL_VALUE),
                SlotDomain::Ref { .. } => domain.object(index).map(i64::from),
            })
            .collect()
    }

    fn witness(space: &Space, values: &[u32]) -> Witness {
        let decoded = Self::decode(space, values);
        let text = decoded
            .iter()
            .enumerate()
            .map(|(slot, value)| {
                let value = value.map_or("null".to_owned(), |v| v.to_string());
                format!("{} = {value}", space.slot_name(slot))
            })
            .collect::<Vec<_>>()
            .join(", ");
        Witness { text, calls: 0, input: Input::Candidate(decoded) }
    }
}

/// When a search commits: at the end of a part, or of a chunk of a long
/// part, that crossed a multiple of [`CommitCadence::CANDIDATES`] explored,
/// not after every one. A commit
/// costs a pipe write and the supervisor's fold, and the small sizes of an
/// ascending run have thousands of tiny parts. The points depend on the
/// counts alone, so the events are the same on every run, resumed or not,
/// whatever the thread count.
struct CommitCadence {
    /// Candidates explored at the end of the part before.
    explored: u64,
    /// Every part commits: the code under test has killed a worker, and may
    /// again before the next multiple of [`Self::CANDIDATES`].
    every_part: bool,
}

impl CommitCadence {
    /// Candidates between commits: a few milliseconds of search.
    const CANDIDATES: u64 = 16_384;

    fn new(explored: u64, every_part: bool) -> Self {
        CommitCadence { explored, every_part }
    }

    /// Whether a part that ended `explored` candidates in commits.
    fn due(&mut self, explored: u64) -> bool {
        let due = self.every_part || explored / Self::CANDIDATES != self.explored / Self::CANDIDATES;
        self.explored = explored;
        due
    }
}

/// Sends where the run is, for a resumed run to carry on from, and commits.
fn commit_progress(
    out: &mut dyn Sink,
    seconds: f64,
    counts: &Counts,
    groups: &FailureGroups<GroupKey>,
    resume: Resume,
) {
    out.event(Event::Progress(Progress {
        seconds,
        counts: counts.clone(),
        group_counts: groups.counts(),
        edge_gains: Vec::new(),
        resume: crate::events::Resume::Korat(resume),
    }));
    out.commit(&[]);
}

/// Why a search ended early when `rep_ok` was quarantined.
fn quarantine_note(killed: &[Killed], explored: u64) -> String {
    let Some(quarantining) = killed.iter().find(|k| k.quarantines) else {
        return "the search ended early: `rep_ok` was quarantined".into();
    };
    let repeats = Killed::repeats_text(killed, quarantining);
    let code = match quarantining.during {
        During::Check => "the check",
        _ => "`rep_ok`",
    };
    format!(
        "{code} quarantined after {repeats}: the search ended there, after {explored} candidates; the \
         candidates after it are not checked (fix {code}, or raise --max-repeats)"
    )
}

/// Sets a run's stop flag when its time limit passes, unless dropped
/// first: the search then needs no clock reads of its own.
struct Deadline {
    passed: Arc<AtomicBool>,
    _cancel: mpsc::Sender<()>,
}

impl Deadline {
    fn start(left: Duration, stop: &StopFlag) -> Deadline {
        let (cancel, cancelled) = mpsc::channel::<()>();
        let (passed, stop) = (Arc::new(AtomicBool::new(false)), stop.clone());
        let flag = passed.clone();
        std::thread::spawn(move || {
            if cancelled.recv_timeout(left) == Err(mpsc::RecvTimeoutError::Timeout) {
                flag.store(true, Ordering::Relaxed);
                stop.stop();
            }
        });
        Deadline { passed, _cancel: cancel }
    }

    fn passed(&self) -> bool {
        self.passed.load(Ordering::Relaxed)
    }
}

/// What Korat failures are grouped by.
type GroupKey = (FailureKind, crate::events::During, String, Option<String>);

impl Job for KoratJob {
    type Fold = KoratReport;

    fn run(&self, start: Start<'_, KoratReport>, out: &mut dyn Sink) -> Result<(), JobError> {
        if let Some(share) = self.settings.share {
            return self.run_share(share, start, out);
        }
        let started = Instant::now();
        let resumed = start.resume.filter(|report| !report.run.is_empty());
        let mut counts = Counts::default();
        let mut groups: FailureGroups<GroupKey> = FailureGroups::default();
        let (mut parts_done, mut skip, mut seconds_before, mut structures) = (0, None, 0.0, 0u64);
        let mut position = None;
        let mut first_search = 0;
        let mut search_began = (0, 0);
        match resumed {
            Some(report) => {
                counts.explored = report.explored;
                counts.structures = report.found;
                counts.failing = report.failures.iter().map(|f| f.count).sum();
                groups = report
                    .failures
                    .iter()
                    .map(|f| ((f.kind, f.during, f.message.clone(), f.location.clone()), f.count))
                    .collect();
                let resume = report.resume.clone().unwrap_or_default();
                parts_done = resume.parts_done as usize;
                skip = resume.skip;
                position = resume.position;
                first_search = resume.search as usize;
                search_began = (resume.structures_before, resume.explored_before);
                seconds_before = report.seconds;
                structures = report.structures.len() as u64;
            }
            None => self.start_run(out),
        }
        let deadline = self.settings.time_limit.map(|limit| {
            let left = limit.saturating_sub(Duration::from_secs_f64(seconds_before));
            Deadline::start(left, start.stop)
        });
        if let Some(died) = search::to_rerun(start.killed) {
            if let Some((_, space)) = self.spaces.get(search::search_of(died)) {
                let failure = search::rerun_alone(space.clone(), &*self.invariants, died);
                counts.failing += 1;
                self.file(space, failure, &mut groups, out);
                // Kept even if the search dies again before its next commit.
                out.commit(&[]);
            }
        }
        let classes_before: BTreeSet<u64> = resumed.map(|r| r.classes.clone()).unwrap_or_default();
        let mut classes = classes_before;
        let record = self.settings.record;
        let canonical = self.settings.canonical;
        let invariants = &*self.invariants;
        let keep = |candidate: &Candidate| {
            let text = canonical.then(|| invariants.canonical(candidate)).flatten();
            record.then(|| (candidate.values().to_vec(), text))
        };
        let ascending = self.settings.ascending;
        let seconds = |started: &Instant| seconds_before + started.elapsed().as_secs_f64();
        let mut complete = true;
        let mut halted = false;
        // A cluster's records ended before the search did.
        let mut lost = false;
        for (search_index, (size, space)) in self.spaces.iter().enumerate().skip(first_search) {
            let resuming = search_index == first_search;
            // Inside a part, a stop commits off the chunk boundaries: the
            // cadence counts from the boundary before it, as an
            // uninterrupted run does, so that both commit at the same points.
            let off_boundary = match (resuming, &position) {
                (true, Some(position)) => position.explored % search::CHUNK,
                _ => 0,
            };
            let search = PartedSearch {
                space: space.clone(),
                invariants: &*self.invariants,
                options: SearchOptions { prune_eq_classes: self.settings.prune_eq_classes },
                threads: self.settings.threads,
                killed: start.killed,
                parts_done: if resuming { parts_done } else { 0 },
                skip: if resuming { skip.take() } else { None },
                position: if resuming { position.take() } else { None },
                stop: Some(start.stop),
                // Parts and probes number below 2^32.
                run_base: (search_index as u64) << 32,
            };
            let level = ascending.then_some(*size);
            if !resuming {
                search_began = (counts.structures, counts.explored);
            }
            let (structures_before, explored_before) = search_began;
            let level_started = Instant::now();
            let mut all_parts = None;
            let mut done = if resuming { parts_done } else { 0 };
            let mut cadence = CommitCadence::new(counts.explored - off_boundary, !start.killed.is_empty());
            let mut pending = None;
            let mut told = |report: search::PartReport<Kept>| {
                // Classes first covered since the last commit, over the parts not committed.
                let mut new_classes = pending.take().map_or_else(Vec::new, |r: Resume| r.classes);
                if let Some(outcome) = report.outcome {
                    halted |= outcome.halted;
                    counts.explored += outcome.stats.explored;
                    counts.structures += outcome.stats.found;
                    for class in outcome.stats.classes {
                        if classes.insert(class) {
                            new_classes.push(class);
                        }
                    }
                    for (values, canonical) in outcome.found {
                        let values = Self::decode(space, &values);
                        let picture = (structures < u64::from(self.settings.pictures)).then(|| {
                            crate::emit::graph_to_dot(&space.object_graph(&values), &format!("structure {structures}"))
                        });
                        out.event(Event::Structure(StructureFound {
                            index: structures,
                            level,
                            fingerprint: None,
                            canonical,
                            rebuild: Rebuild::Candidate(values),
                            variant: false,
                            picture,
                            graph: None,
                        }));
                        structures += 1;
                    }
                    for failure in outcome.failures {
                        counts.failing += 1;
                        self.file(space, failure, &mut groups, out);
                    }
                }
                done = report.index + usize::from(report.position.is_none());
                all_parts = Some(report.parts);
                let resume = Resume {
                    parts_done: done as u64,
                    parts: report.parts as u64,
                    skip: report.skip,
                    classes: new_classes,
                    search: search_index as u32,
                    structures_before,
                    explored_before,
                    position: report.position,
                };
                match cadence.due(counts.explored) {
                    true => {
                        pending = None;
                        commit_progress(out, seconds(&started), &counts, &groups, resume);
                    }
                    false => pending = Some(resume),
                }
            };
            match &self.arrivals {
                None => search.run(&keep, &mut told),
                Some(arrivals) => {
                    let from = super::JoinFrom {
                        parts_done: search.parts_done,
                        skip: search.skip.clone(),
                        position: search.position.as_ref(),
                    };
                    let mut reruns = Vec::new();
                    let joined =
                        arrivals.join(search_index as u32, from, start.stop, &mut told, &mut |f| reruns.push(f));
                    for failure in reruns {
                        counts.failing += 1;
                        self.file(space, failure, &mut groups, out);
                    }
                    lost |= joined.is_err();
                }
            }
            // A cluster's lost records are sent again on resume: what was
            // joined since the last commit is joined again, at the same points.
            if let Some(resume) = pending.filter(|_| !lost) {
                commit_progress(out, seconds(&started), &counts, &groups, resume);
            }
            // No part told: nothing was searched (stopped at once, or a cluster's records lost).
            complete = match all_parts {
                Some(parts) => done >= parts,
                None => !lost && !start.stop.is_set(),
            };
            if !complete {
                break;
            }
            if let Some(level) = level {
                out.event(Event::Level(LevelStats {
                    level,
                    structures: (counts.structures - structures_before) as usize,
                    explored: counts.explored - explored_before,
                    seconds: level_started.elapsed().as_secs_f64(),
                    ..LevelStats::default()
                }));
                // A resumed run starts at the next search, not again at this one's end.
                let resume = Resume {
                    search: search_index as u32 + 1,
                    structures_before: counts.structures,
                    explored_before: counts.explored,
                    ..Resume::default()
                };
                commit_progress(out, seconds(&started), &counts, &groups, resume);
            }
        }
        if lost {
            // As if killed: the run stays at its last commit, which every
            // share's records (sent again on resume) carry on from.
            return Err(JobError::Fault("the parts from another process of the cluster stopped coming".into()));
        }
        // A halted search left parts unsearched, whether or not they were told.
        let stop = match (complete, halted) {
            (_, true) => {
                out.event(Event::Note(Note { text: quarantine_note(start.killed, counts.explored) }));
                Stop::Quarantined
            }
            (true, false) => Stop::Complete,
            (false, false) if deadline.as_ref().is_some_and(Deadline::passed) => Stop::TimeLimit,
            (false, false) => start.stop.reason().unwrap_or(Stop::Interrupted),
        };
        out.event(Event::RunFinished(RunFinished {
            group_counts: groups.counts(),
            ..RunFinished::new(stop, seconds(&started), counts)
        }));
        Ok(())
    }
}

impl KoratJob {
    /// A share run (cluster mode): the parts `share` holds are searched on
    /// this process's threads, each reported whole as an [`Event::Part`]
    /// and committed as it ends, in any order; process 0 joins them. A
    /// resumed share run searches only the parts it has not reported.
    fn run_share(&self, share: Share, start: Start<'_, KoratReport>, out: &mut dyn Sink) -> Result<(), JobError> {
        let started = Instant::now();
        let resumed = start.resume.filter(|report| !report.run.is_empty());
        let mut counts = Counts::default();
        let mut done: BTreeSet<(u32, u64)> = BTreeSet::new();
        match resumed {
            Some(report) => {
                for record in report.parts.values() {
                    if record.position.is_none() && !record.rerun() {
                        done.insert((record.search, record.index));
                        counts.explored += record.explored;
                        counts.structures += record.structures;
                    }
                    // Again, for a process 0 that starts afresh.
                    out.event(Event::Part(record.clone()));
                }
                out.commit(&[]);
            }
            None => self.start_run(out),
        }
        let deadline = self.settings.time_limit.map(|limit| Deadline::start(limit, start.stop));
        if let Some(died) = search::to_rerun(start.killed) {
            let search_index = search::search_of(died);
            if let Some((_, space)) = self.spaces.get(search_index) {
                let failure = search::rerun_alone(space.clone(), &*self.invariants, died);
                counts.failing += 1;
                out.event(Event::Part(PartRecord::rerun_failure(
                    search_index as u32,
                    died.address.run & u64::from(u32::MAX),
                    failure,
                )));
                out.commit(&[]);
            }
        }
        let (record, canonical, invariants) = (self.settings.record, self.settings.canonical, &*self.invariants);
        let keep = |candidate: &Candidate| {
            let text = canonical.then(|| invariants.canonical(candidate)).flatten();
            record.then(|| (candidate.values().to_vec(), text))
        };
        let mut halted = false;
        for (search_index, (_, space)) in self.spaces.iter().enumerate() {
            let search = PartedSearch {
                space: space.clone(),
                invariants,
                options: SearchOptions { prune_eq_classes: self.settings.prune_eq_classes },
                threads: self.settings.threads,
                killed: start.killed,
                parts_done: 0,
                skip: None,
                position: None,
                stop: Some(start.stop),
                run_base: (search_index as u64) << 32,
            };
            let done_here =
                done.iter().filter(|(s, _)| *s as usize == search_index).map(|&(_, i)| i as usize).collect();
            // Each part's chunks so far.
            let mut chunks: BTreeMap<usize, u32> = BTreeMap::new();
            search.run_share(share, &done_here, &keep, &mut |parts, index, outcome, position| {
                if position.as_ref().is_some_and(|p| p.explored % search::CHUNK != 0) {
                    // A stop's chunk, off the chunk boundaries: a resumed
                    // share searches the part again, in whole chunks.
                    return;
                }
                counts.explored += outcome.stats.explored;
                counts.structures += outcome.stats.found;
                counts.failing += outcome.failures.len() as u64;
                halted |= outcome.halted;
                let chunk = chunks.entry(index).or_default();
                let record = outcome.into_record(search_index as u32, parts, (index, *chunk), position);
                *chunk += 1;
                out.event(Event::Part(record));
                out.commit(&[]);
            });
            if halted || start.stop.is_set() {
                break;
            }
        }
        let stop = match (halted, start.stop.is_set()) {
            (true, _) => Stop::Quarantined,
            (false, false) => Stop::Complete,
            (false, true) if deadline.as_ref().is_some_and(Deadline::passed) => Stop::TimeLimit,
            (false, true) => start.stop.reason().unwrap_or(Stop::Interrupted),
        };
        out.event(Event::RunFinished(RunFinished::new(stop, started.elapsed().as_secs_f64(), counts)));
        Ok(())
    }

    /// The run's first event: its settings and fields.
    fn start_run(&self, out: &mut dyn Sink) {
        let configuration = Configuration::Korat(self.settings.clone());
        let (_, last) = self.spaces.last().expect("a job has a space");
        let type_name = last.classes.first().map_or(String::new(), |c| c.name.to_owned());
        out.event(Event::RunStarted(RunStarted {
            fields: (0..last.slots.len()).map(|slot| last.slot_name(slot)).collect(),
            ..RunStarted::new(&self.name, type_name, configuration, self.command.clone())
        }));
    }

    /// Counts a failing candidate in its group, reporting a new group.
    fn file(&self, space: &Space, failure: CandidateFailure, groups: &mut FailureGroups<GroupKey>, out: &mut dyn Sink) {
        let CandidateFailure { kind, during, message, location, values } = failure;
        if groups.count_in(|(k, d, m, l)| (*k, *d) == (kind, during) && *m == message && *l == location) {
            return;
        }
        let group = groups.open((kind, during, message.clone(), location.clone()));
        // A check's witness is a valid structure: drawn, as the structures are.
        let picture = (during == During::Check).then(|| {
            crate::emit::graph_to_dot(&space.object_graph(&Self::decode(space, &values)), "the structure checked")
        });
        out.event(Event::Failure(Failure {
            location,
            replay: self.command.clone(),
            contract: (during == During::Check).then(|| self.invariants.check_name().unwrap_or("check").to_owned()),
            picture,
            ..Failure::new(group, kind, during, message, Self::witness(space, &values))
        }));
    }
}
