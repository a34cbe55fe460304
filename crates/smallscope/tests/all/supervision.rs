//! The runner layer: runs resume from any commit to the same end, and the
//! library API survives calls that never return.

#![allow(clippy::new_without_default, clippy::len_without_is_empty)] // Subjects as a user writes them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use smallscope::beapi::BeapiJob;
use smallscope::events::{During, Event, FailureKind, Fold, Sink, Stop};
use smallscope::korat::{self, Korat, KoratJob, KoratSettings, Ref};
use smallscope::random::{RandomConfig, RandomJob};
use smallscope::runner::{Job, Start, StopFlag};
use smallscope::{Beapi, BeapiConfig, Builders, Heap};

/// A stack whose `push(0)` onto `[1]` never returns; other calls are plain.
#[derive(Heap, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sleepy {
    items: Vec<u8>,
}

#[smallscope::api(name = "test-sleepy")]
impl Sleepy {
    pub fn new() -> Self {
        Sleepy { items: Vec::new() }
    }

    pub fn push(&mut self, x: u8) {
        if self.items == [1] && x == 0 {
            // Asleep, not spinning: the thread left behind costs no CPU.
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
        self.items.push(x);
    }

    pub fn pop(&mut self) -> Option<u8> {
        self.items.pop()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }
}

/// A stack with nothing wrong with it, for the resume checks.
#[derive(Heap, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Plain {
    items: Vec<u8>,
}

#[smallscope::api(name = "test-plain")]
impl Plain {
    pub fn new() -> Self {
        Plain { items: Vec::new() }
    }

    pub fn push(&mut self, x: u8) {
        self.items.push(x);
    }

    pub fn pop(&mut self) -> Option<u8> {
        self.items.pop()
    }

    /// Breaks after five pushes of 3: a failure group to carry across commits.
    pub fn top(&self) -> Option<u8> {
        assert!(self.items.iter().filter(|&&x| x == 3).count() < 5, "too many threes");
        self.items.last().copied()
    }
}

#[derive(Korat)]
pub struct Tree {
    root: Option<Ref<Node>>,
    #[korat(ints = n..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct Node {
    left: Option<Ref<Node>>,
    right: Option<Ref<Node>>,
}

/// Binary trees with `size` nodes.
fn plain_tree(tree: TreeView<'_>) -> bool {
    let mut seen = Vec::new();
    let mut work: Vec<NodeView<'_>> = tree.root().into_iter().collect();
    while let Some(node) = work.pop() {
        if seen.contains(&node) {
            return false;
        }
        seen.push(node);
        work.extend(node.left());
        work.extend(node.right());
    }
    seen.len() as i64 == tree.size()
}

/// As [`plain_tree`], but sleeps forever on the tree of 3 whose root has
/// only a right child that has only a left child.
fn sleepy_tree(tree: TreeView<'_>) -> bool {
    let ok = plain_tree(tree);
    let right = tree.root().filter(|root| root.left().is_none()).and_then(|root| root.right());
    let leaf = right.filter(|n| n.right().is_none()).and_then(|n| n.left());
    if ok && tree.size() == 3 && leaf.is_some_and(|leaf| leaf.left().is_none() && leaf.right().is_none()) {
        loop {
            std::thread::sleep(Duration::from_secs(3600));
        }
    }
    ok
}

/// Events and where each commit falls (events before it, its journal).
#[derive(Default)]
struct Recorder {
    events: Vec<Event>,
    commits: Vec<(usize, Vec<u8>)>,
}

impl Sink for Recorder {
    fn event(&mut self, event: Event) {
        self.events.push(event);
    }
    fn commit(&mut self, journal: &[u8]) {
        self.commits.push((self.events.len(), journal.to_vec()));
    }
}

/// The event with its timings zeroed: two runs agree on everything else.
fn timeless(event: &Event) -> Event {
    let mut event = event.clone();
    match &mut event {
        Event::Progress(p) => {
            p.seconds = 0.0;
            if let smallscope::events::Resume::Beapi(resume) = &mut p.resume {
                resume.level_seconds = 0.0;
            }
        }
        Event::Level(l) => l.seconds = 0.0,
        Event::RunFinished(f) => f.seconds = 0.0,
        _ => {}
    }
    event
}

/// A stack whose `Drop` panics on `[2, 1]`, every copy of it.
#[derive(Heap, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Brittle {
    items: Vec<u8>,
}

#[smallscope::api(name = "test-brittle")]
impl Brittle {
    pub fn new() -> Self {
        Brittle { items: Vec::new() }
    }

    pub fn push(&mut self, x: u8) {
        self.items.push(x);
    }
}

impl Drop for Brittle {
    fn drop(&mut self) {
        if self.items == [2, 1] && !std::thread::panicking() {
            panic!("dropping [2, 1]");
        }
    }
}

/// Runs `job` whole, then again from each of a few of its commits, and
/// checks that every resumed run ends with the same events.
fn resumes_to_the_same_end<F: Fold + Clone + Send + 'static>(job: &dyn Job<Fold = F>, what: &str) {
    resumes_from_commits(job, what, |whole| {
        let commits = whole.commits.len();
        vec![1, commits / 2, commits - 2]
    });
}

/// As [`resumes_to_the_same_end`], from the commits `picks` chooses of so
/// many (the last is the end of the run, which is not resumed).
fn resumes_from_commits<F: Fold + Clone + Send + 'static>(
    job: &dyn Job<Fold = F>,
    what: &str,
    picks: impl Fn(&Recorder) -> Vec<usize>,
) {
    let stop = StopFlag::new();
    let mut whole = Recorder::default();
    job.run(Start { resume: None, journal: &[], killed: &[], stop: &stop }, &mut whole).unwrap();
    assert!(whole.commits.len() >= 3, "{what}: only {} commits", whole.commits.len());
    for pick in picks(&whole) {
        let (at, _) = whole.commits[pick];
        let mut fold = F::default();
        for event in &whole.events[..at] {
            fold.apply(event.clone());
        }
        let journal: Vec<u8> = whole.commits[..=pick].iter().flat_map(|(_, j)| j.clone()).collect();
        let mut resumed = Recorder::default();
        job.run(Start { resume: Some(&fold), journal: &journal, killed: &[], stop: &stop }, &mut resumed).unwrap();
        let expected: Vec<Event> = whole.events[at..].iter().map(timeless).collect();
        let got: Vec<Event> = resumed.events.iter().map(timeless).collect();
        assert_eq!(got.len(), expected.len(), "{what}: resumed from commit {pick} of {}", whole.commits.len());
        for (i, (a, b)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(a, b, "{what}: event {i} after commit {pick}");
        }
    }
}

#[test]
fn beapi_resumes_from_any_commit_to_the_same_end() {
    let config = BeapiConfig {
        scope: 1,
        ints: Some(0..4),
        max_length: Some(8),
        builders: Builders::All,
        record_canonical: true,
        ..BeapiConfig::default()
    };
    let job = BeapiJob::<Plain>::new(config, "test-plain".into(), None, smallscope::builders::resolve::<Plain>);
    resumes_to_the_same_end(&job, "beapi");
}

#[test]
fn beapi_resumes_from_inside_a_level_to_the_same_end() {
    // Level 3 pushes each of 70 values onto 70 stacks: commits fall inside it.
    let config = BeapiConfig {
        scope: 1,
        ints: Some(0..70),
        max_length: Some(3),
        builders: Builders::Named(vec!["new".into(), "push".into()]),
        ..BeapiConfig::default()
    };
    let job = BeapiJob::<Plain>::new(config, "test-plain".into(), None, smallscope::builders::resolve::<Plain>);
    resumes_from_commits(&job, "beapi inside a level", |whole| (0..whole.commits.len() - 1).collect());
}

#[test]
fn beapi_resumes_past_a_panicking_drop_to_the_same_end() {
    let config = BeapiConfig {
        scope: 1,
        ints: Some(0..4),
        max_length: Some(4),
        builders: Builders::Named(vec!["new".into(), "push".into()]),
        ..BeapiConfig::default()
    };
    let job = BeapiJob::<Brittle>::new(config, "test-brittle".into(), None, smallscope::builders::resolve::<Brittle>);
    resumes_from_commits(&job, "beapi with a panicking drop", |whole| (0..whole.commits.len() - 1).collect());
}

#[test]
fn random_resumes_from_any_commit_to_the_same_end() {
    let config = RandomConfig { seed: 3, sequence_limit: Some(60_000), ..RandomConfig::default() };
    let job = RandomJob::<Plain>::new(config, "test-plain".into(), None);
    resumes_to_the_same_end(&job, "random");
}

#[test]
fn korat_resumes_from_any_part_to_the_same_end() {
    for threads in [1, 2] {
        let settings = KoratSettings { threads, record: true, ..KoratSettings::new(6) };
        let space = korat::space::<Tree>(6).unwrap();
        let job =
            KoratJob::new("test-tree".into(), space, Arc::new(korat::from_fn::<Tree>(plain_tree)), settings, None);
        resumes_to_the_same_end(&job, &format!("korat, {threads} threads"));
    }
}

/// Tree invariants that ask the run to stop once the search found `at`
/// valid candidates: a stop that lands inside a part. (`eq_class` is
/// called on the search's valid candidates only, not on the probes that
/// split it.)
struct StopsAt {
    stop: StopFlag,
    at: u64,
    found: AtomicU64,
}

impl korat::Invariants for StopsAt {
    fn rep_ok(&self, candidate: &korat::Candidate) -> bool {
        plain_tree(<Tree as korat::Model>::root(candidate))
    }

    fn eq_class(&self, _candidate: &korat::Candidate) -> Option<u64> {
        if self.found.fetch_add(1, Ordering::Relaxed) + 1 == self.at {
            self.stop.stop();
        }
        None
    }
}

fn structures(events: &[Event]) -> Vec<&Event> {
    events.iter().filter(|e| matches!(e, Event::Structure(_))).collect()
}

fn finished_counts(events: &[Event]) -> Option<smallscope::events::Counts> {
    events.iter().find_map(|e| match e {
        Event::RunFinished(finished) => Some(finished.counts.clone()),
        _ => None,
    })
}

#[test]
fn a_korat_run_stopped_inside_a_part_resumes_there_to_the_same_structures() {
    for threads in [1, 2] {
        let settings = KoratSettings { threads, record: true, ..KoratSettings::new(6) };
        let space = korat::space::<Tree>(6).unwrap();
        let plain = Arc::new(korat::from_fn::<Tree>(plain_tree));
        let job = KoratJob::new("test-tree".into(), space.clone(), plain, settings.clone(), None);
        let never = StopFlag::new();
        let mut whole = Recorder::default();
        job.run(Start { resume: None, journal: &[], killed: &[], stop: &never }, &mut whole).unwrap();

        let stop = StopFlag::new();
        let stopping = Arc::new(StopsAt { stop: stop.clone(), at: 20, found: AtomicU64::new(0) });
        let stopped_job = KoratJob::new("test-tree".into(), space, stopping, settings, None);
        let mut stopped = Recorder::default();
        stopped_job.run(Start { resume: None, journal: &[], killed: &[], stop: &stop }, &mut stopped).unwrap();
        let (at, _) = *stopped.commits.last().expect("a stopped run commits what it found");
        let mut fold = korat::KoratReport::default();
        stopped.events[..at].iter().for_each(|e| fold.apply(e.clone()));
        let resume = fold.resume.clone().expect("a resume point");
        if threads == 1 {
            assert!(resume.position.is_some(), "stopped inside part {} of {}", resume.parts_done, resume.parts);
        }
        let kept = structures(&stopped.events[..at]).len();
        assert!(kept >= 19, "{threads} threads: {kept} structures kept of the 20 found before the stop");

        let mut rest = Recorder::default();
        job.run(Start { resume: Some(&fold), journal: &[], killed: &[], stop: &never }, &mut rest).unwrap();
        let mut resumed = structures(&stopped.events[..at]);
        resumed.extend(structures(&rest.events));
        assert_eq!(resumed, structures(&whole.events), "{threads} threads");
        assert_eq!(finished_counts(&rest.events), finished_counts(&whole.events), "{threads} threads");
        // From the stop on, the resumed run's events, commits included, are the whole run's.
        let (got, all): (Vec<Event>, Vec<Event>) =
            (rest.events.iter().map(timeless).collect(), whole.events.iter().map(timeless).collect());
        assert!(all.ends_with(&got), "{threads} threads: the resumed run's events differ from the whole run's");
    }
}

#[test]
fn a_beapi_call_that_never_returns_is_a_hang_and_the_run_goes_on() {
    let started = Instant::now();
    let report = Beapi::<Sleepy>::new()
        .collection_length(u32::MAX)
        .scope(1)
        .ints(0..2)
        .max_length(3)
        .builders(Builders::Named(vec!["new".into(), "push".into()]))
        .call_timeout(Some(Duration::from_millis(300)))
        .run()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(report.stop, Some(Stop::Complete));
    // Level 3 has the pushes onto [0] and [1], but for push(0) onto [1].
    assert_eq!(report.structure_count(), 1 + 2 + 3);
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    let hang = &report.failures[0];
    assert_eq!((hang.kind, hang.during, hang.operation.as_deref()), (FailureKind::Hang, During::Call, Some("push")));
    assert_eq!(hang.witness.text, "s0 = new(); s0.push(1); s0.push(0)");
}

#[test]
fn a_random_call_that_never_returns_is_a_hang_and_the_run_goes_on() {
    let report = smallscope::random::Random::<Sleepy>::new()
        .seed(1)
        .sequences(3_000)
        .call_timeout(Some(Duration::from_millis(300)))
        .run()
        .unwrap();
    assert_eq!(report.sequences, 3_000);
    let hangs: Vec<_> = report.failure_groups.iter().filter(|g| g.kind == FailureKind::Hang).collect();
    assert_eq!(hangs.len(), 1, "{:?}", report.failure_groups);
    assert!(hangs[0].witness.text.ends_with("push(0)"), "{}", hangs[0].witness.text);
    assert_eq!(hangs[0].operation.as_deref(), Some("push"));
}

#[test]
fn a_korat_rep_ok_that_never_returns_is_a_hang_and_the_search_goes_on() {
    let plain = korat::run::<Tree>(3, korat::from_fn::<Tree>(plain_tree)).unwrap();
    let settings = KoratSettings::new(3);
    let job = KoratJob::new(
        "test-sleepy-tree".into(),
        korat::space::<Tree>(3).unwrap(),
        Arc::new(korat::from_fn::<Tree>(sleepy_tree)),
        settings,
        None,
    );
    let report = smallscope::runner::run_in_thread(
        Arc::new(job) as Arc<dyn Job<Fold = korat::KoratReport>>,
        Some(Duration::from_millis(300)),
        &mut (),
    )
    .unwrap();
    // The hung candidate counts as explored and not found; the rest is as without it.
    assert_eq!(report.explored, plain.explored);
    assert_eq!(report.found, plain.found - 1);
    assert_eq!(report.failures.len(), 1);
    assert_eq!((report.failures[0].kind, report.failures[0].during), (FailureKind::Hang, During::RepOk));
}

/// A stack whose `push` onto three elements ends the process, as some code
/// does on a state it cannot handle.
#[derive(Heap, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Exiting {
    items: Vec<u8>,
}

#[smallscope::api(name = "test-exiting")]
impl Exiting {
    pub fn new() -> Self {
        Exiting { items: Vec::new() }
    }

    pub fn push(&mut self, x: u8) {
        if self.items.len() == 2 {
            std::process::exit(0);
        }
        self.items.push(x);
    }
}

/// Set in the child process of [`an_exit_in_library_mode_is_said_and_is_not_a_success`].
const RUN_EXITING: &str = "SMALLSCOPE_TEST_RUN_EXITING";

/// The library runs the code under test in this process: an `exit(0)` in
/// it ends the caller's process. That cannot be survived, but it must not
/// pass for success: the process says which call it was and exits 2.
#[test]
fn an_exit_in_library_mode_is_said_and_is_not_a_success() {
    if std::env::var_os(RUN_EXITING).is_some() {
        let report =
            Beapi::<Exiting>::new().scope(3).builders(Builders::Named(vec!["new".into(), "push".into()])).run();
        // Not reached: the third push ends the process.
        println!("the run returned: {:?}", report.map(|r| r.structure_count()));
        return;
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "supervision::an_exit_in_library_mode_is_said_and_is_not_a_success", "--nocapture"])
        .env(RUN_EXITING, "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("error: the code under test ended the process (exit) during call"), "{stderr}");
    assert!(!String::from_utf8_lossy(&output.stdout).contains("the run returned"));
}
