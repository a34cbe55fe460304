//! Directed random testing: feedback-directed random call sequences, as in
//! Randoop (Pacheco's thesis, chapters 4-7).
//!
//! **The idea.** Keep a component set of call sequences. Build each new
//! sequence by picking an operation at random and filling its arguments
//! with values made by stored sequences (or primitives). Run it: drop it if
//! it misuses the API, report it if it breaks a [`Contract`] or panics, and
//! store it for reuse if it made a value not seen before. Feedback from each
//! run steers the next away from misuse and redundancy.
//!
//! **When to choose it.** For APIs and scopes too large for [`crate::beapi`]
//! to enumerate: it scales with time, not with the size of the state space,
//! but it promises nothing about coverage. **Cost:** a new sequence costs
//! one call plus copies of the values it uses (stored final values are
//! shared, never replayed, when the subject is `Clone`), plus the contract
//! checks. Memory grows with the component set.
//!
//! In a harness built with coverage, `RandomConfig::branch` adds a phase
//! after generation: branch-directed generation (§8.4), which changes the
//! sequences that reached each branch left half-taken until the other side
//! is taken (see the `branch` module; `cargo smallscope branch`).
//!
//! Failing sequences are grouped by broken contract, last call and panic
//! location (MinUnit, §8.2.1), and the smallest of each group is simplified
//! (§6.1). Legal sequences that observe values become regression tests
//! (§7.7). See [`crate::emit::random_error_tests`] and
//! [`crate::emit::random_regression_tests`].
//!
//! ```
//! use smallscope::random::Random;
//! use smallscope::Heap;
//!
//! #[derive(Heap, Clone, Debug, PartialEq, Eq, Hash)]
//! pub struct Stack { items: Vec<i32> }
//!
//! #[smallscope::api(name = "doc-random-stack")]
//! impl Stack {
//!     pub fn new() -> Self { Stack { items: Vec::new() } }
//!     pub fn push(&mut self, x: i32) { self.items.push(x) }
//!     pub fn pop(&mut self) -> Option<i32> { self.items.pop() }
//!     pub fn len(&self) -> usize { self.items.len() }
//! }
//!
//! let report = Random::<Stack>::new().seed(7).sequences(5_000).run().unwrap();
//! assert_eq!(report.sequences, 5_000);
//! assert!(report.failure_groups.is_empty());
//! assert!(!report.regression_tests.is_empty());
//! ```

mod branch;
mod config;
mod contract;
mod execute;
mod generate;
mod group_key;
mod journal;
mod registry;
mod regression;
mod regression_test;
mod report;
mod resume;
mod sequence;
mod simplify;
mod std_ops;
mod stream_record;
mod stream_run;
mod streams;

pub use branch::{CANDIDATES, CANDIDATES_PER_BRANCH, WITNESSES, WITNESS_SOURCES};
pub use config::{FlipToConfirm, IndexPruning, RandomConfig, DEFAULT_TIME_LIMIT};
pub use contract::{assert_contract, std_contracts, Contract};
pub use execute::Broken;
pub use group_key::GroupKey;
pub use registry::{registered_contracts, ContractRegistration};
pub use regression_test::RegressionTest;
pub use report::{witness_program, RandomReport};
pub use resume::Resume;
pub use sequence::Sequence;
pub use stream_record::{StreamGroup, StreamRecord};
pub use streams::{merge, Merged};

use std::marker::PhantomData;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use regex::Regex;

use crate::api::{Operation, OtherDomains, StdTraits, Subject};
use crate::events::{Configuration, Event, Note, RunFinished, RunStarted, Shrink, Sink, Stop};
use crate::runner::{Job, JobError, Observer, RunError, Start, DEFAULT_CALL_TIMEOUT};
use crate::sequence::{Operand, Program};
use crate::ConfigError;
use execute::Executor;
use generate::{failure_event, stage, Generator, Outlet};
use simplify::Simplifier;

/// A random run on subject `T`, configured builder-style.
pub struct Random<T: Subject + StdTraits> {
    config: RandomConfig,
    contracts: Vec<Box<dyn Contract<T>>>,
    call_timeout: Option<Duration>,
    subject: PhantomData<fn() -> T>,
}

impl<T: Subject + StdTraits> Default for Random<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Subject + StdTraits> Random<T> {
    /// Default settings, the standard contracts and the registered ones.
    pub fn new() -> Self {
        Self::with_config(RandomConfig::default())
    }

    pub fn with_config(config: RandomConfig) -> Self {
        let mut contracts = std_contracts::<T>();
        contracts.extend(registered_contracts::<T>());
        Random { config, contracts, call_timeout: Some(DEFAULT_CALL_TIMEOUT), subject: PhantomData }
    }

    pub fn seed(mut self, seed: u64) -> Self {
        self.config.seed = seed;
        self
    }

    pub fn time_limit(mut self, limit: Duration) -> Self {
        self.config.time_limit = Some(limit);
        self
    }

    /// Stops after executing `count` new sequences.
    pub fn sequences(mut self, count: u64) -> Self {
        self.config.sequence_limit = Some(count);
        self
    }

    /// Adds a contract to check after every call.
    pub fn contract(mut self, contract: impl Contract<T> + 'static) -> Self {
        self.contracts.push(Box::new(contract));
        self
    }

    /// A call into the subject's code that runs longer than `timeout` is a
    /// `hang` failure, and the run goes on past it (default 10 s; `None`
    /// lets calls run forever).
    pub fn call_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.call_timeout = timeout;
        self
    }

    pub fn config(&self) -> &RandomConfig {
        &self.config
    }

    /// Runs on a thread of its own, watched for calls that do not return;
    /// see [`crate::runner`] for what it survives.
    pub fn run(self) -> Result<RandomReport, RunError> {
        self.run_observed(&mut ())
    }

    /// [`Random::run`], telling `observer` each commit as it comes.
    pub fn run_observed(self, observer: &mut dyn Observer) -> Result<RandomReport, RunError> {
        self.config.validate()?;
        let job = RandomJob::<T> {
            config: self.config,
            contracts: self.contracts,
            name: std::any::type_name::<T>().to_owned(),
            command: None,
            arrivals: None,
            subject: PhantomData,
        };
        crate::runner::run_in_thread(Arc::new(job) as Arc<dyn Job<Fold = _>>, self.call_timeout, observer)
    }
}

/// A random run as a [`Job`]: generation, then simplification of the
/// failures and the regression tests.
pub struct RandomJob<T> {
    config: RandomConfig,
    contracts: Vec<Box<dyn Contract<T>>>,
    name: String,
    command: Option<String>,
    /// A cluster's process 0: the streams' records, from every process.
    arrivals: Option<Mutex<mpsc::Receiver<Event>>>,
    subject: PhantomData<fn() -> T>,
}

impl<T: Subject + StdTraits> RandomJob<T> {
    /// A run with the standard and the registered contracts.
    pub fn new(config: RandomConfig, name: String, command: Option<String>) -> Self {
        let mut contracts = std_contracts::<T>();
        contracts.extend(registered_contracts::<T>());
        RandomJob { config, contracts, name, command, arrivals: None, subject: PhantomData }
    }

    /// Process 0's job in a cluster: it merges the streams' records that
    /// come on `arrivals` (`Event::Stream`, from every process, in any
    /// order), running no code under test.
    pub fn joining(self, arrivals: mpsc::Receiver<Event>) -> Self {
        RandomJob { arrivals: Some(Mutex::new(arrivals)), ..self }
    }
}

impl<T: Subject + StdTraits> Job for RandomJob<T> {
    type Fold = RandomReport;

    fn run(&self, start: Start<'_, RandomReport>, out: &mut dyn Sink) -> Result<(), JobError> {
        let config = &self.config;
        config.validate()?;
        let mut ops = api_operations::<T>(config)?;
        let names: Vec<&str> = ops.iter().map(|op| op.name).collect();
        ops.extend(std_ops::std_operations::<T>(&names));
        let misuse = misuse_patterns(config)?;
        let traits = T::std_traits();
        let exec = Executor::new(&ops, &self.contracts, &misuse, traits.clone, start.killed);
        if !config.confirm.is_empty() {
            let confirmed = branch::confirm(&exec, &config.confirm);
            let finished = RunFinished {
                stop: Stop::Complete,
                seconds: 0.0,
                counts: Default::default(),
                group_counts: Vec::new(),
                edge_gains: Vec::new(),
                frontier: Vec::new(),
                branching: None,
                confirmed,
                edges: Vec::new(),
            };
            out.event(Event::RunFinished(finished));
            return Ok(());
        }
        if config.branch && crate::edges::count().is_none() {
            return Err(ConfigError::Invalid(
                "branch-directed generation needs a harness built with coverage: run `cargo smallscope branch`, \
                 which builds one"
                    .into(),
            )
            .into());
        }
        if config.streams > 1 || config.share.is_some() || self.arrivals.is_some() {
            return self.run_streams(start, out, &ops, &misuse);
        }
        let resumed = start.resume.filter(|report| !report.run.is_empty());
        let outlet = Outlet {
            out,
            stop: Some(start.stop),
            command: self.command.clone(),
            seconds_before: resumed.map_or(0.0, |r| r.seconds),
        };
        let others = OtherDomains::of(&ops, &config.other_settings(), start.killed, Some(start.stop));
        let mut generator = Generator::new(config, exec.memoized(), traits, outlet, others);
        match resumed {
            Some(report) => {
                generator.restore(start.journal).map_err(JobError::Fault)?;
                let at = report.resume.as_ref().map_or(0, |r| r.sequences);
                if generator.counts.explored != at {
                    return Err(JobError::Fault(format!(
                        "resuming: the journal ends at sequence {} but the events at {at}",
                        generator.counts.explored
                    )));
                }
            }
            None => {
                let configuration = Configuration::Random(config.clone());
                let type_name = std::any::type_name::<T>().to_owned();
                generator.emit(Event::RunStarted(RunStarted {
                    operations: generator.infos.clone(),
                    contracts: self.contracts.iter().map(|c| c.name().to_owned()).collect(),
                    ..RunStarted::new(&self.name, type_name, configuration, self.command.clone())
                }));
                for text in generator.others.notes.clone() {
                    generator.emit(Event::Note(Note { text }));
                }
                // Committed at once, so that a run stopped on the first call
                // that hangs still names its seed and operations.
                generator.commit_start();
            }
        }
        // Nothing past the start committed: the component set is seeded again.
        let stop = generator.run(resumed.is_some_and(|report| report.resume.is_some()));
        let ended = matches!(stop, Stop::SequenceLimit | Stop::TimeLimit | Stop::Stuck);
        let (branching, flips) = match config.branch && ended {
            true => {
                let deadline = config.effective_time_limit().map(|limit| limit.as_secs_f64());
                let (branching, flips) = branch::Director::new(&mut generator, &exec, deadline).run();
                (Some(branching), flips)
            }
            false => (None, Vec::new()),
        };
        let seconds = generator.seconds();
        if stop == Stop::MemoryLimit {
            // Replaying sequences would take the memory that is not there.
            let text = "memory reached its limit: failures are as found, not simplified, and no regression tests \
                        were made"
                .to_owned();
            generator.emit(Event::Note(Note { text }));
            self.report_failures(&mut generator, None);
        } else {
            self.report_failures(&mut generator, Some(&exec));
            for test in regression::regression_tests(&generator, &exec, &flips) {
                generator.emit(Event::RegressionTest(test));
            }
        }
        let finished = RunFinished {
            stop,
            seconds,
            counts: generator.event_counts(),
            group_counts: generator.group_counts(),
            edge_gains: generator.take_edge_gains(),
            frontier: crate::edges::frontier(),
            branching,
            confirmed: Vec::new(),
            edges: Vec::new(),
        };
        generator.emit(Event::RunFinished(finished));
        Ok(())
    }
}

/// The operations a run calls: the API's, or those `config.operations` names.
fn api_operations<T: Subject>(config: &RandomConfig) -> Result<Vec<Operation<T>>, ConfigError> {
    let ops: Vec<Operation<T>> = T::operations();
    if !ops.iter().any(|op| op.is_constructor()) {
        return Err(ConfigError::SubjectWithoutConstructor);
    }
    let Some(names) = &config.operations else { return Ok(ops) };
    let chosen = crate::api::select_operations(&ops, names)?;
    Ok(ops.into_iter().enumerate().filter(|(i, _)| chosen.contains(i)).map(|(_, op)| op).collect())
}

/// The panics `config` counts as misuse.
fn misuse_patterns(config: &RandomConfig) -> Result<Vec<Regex>, ConfigError> {
    let compile =
        |p: &String| Regex::new(p).map_err(|e| ConfigError::BadPattern { pattern: p.clone(), reason: e.to_string() });
    config.misuse_panics.iter().map(compile).collect()
}

/// The legal sequences a seeded random run of `T` makes, as programs over
/// `T`'s operations: the stored ones and the sampled ones that observe a
/// value, until `config`'s limits, without contracts, events or
/// simplification. Addresses number their runs from `run_base`. For
/// observer detection, which looks at what each call did.
pub fn legal_programs<T: Subject + StdTraits>(
    config: &RandomConfig,
    run_base: u64,
    killed: &[crate::runner::Killed],
    stop: Option<&crate::runner::StopFlag>,
) -> Result<Vec<Program>, ConfigError> {
    config.validate()?;
    let ops = api_operations::<T>(config)?;
    let traits = T::std_traits();
    let misuse = misuse_patterns(config)?;
    // A value that broke its invariant is not extended: what a call does
    // to a broken value says nothing of the call (and a walk over a broken
    // list may never end).
    let contracts: Vec<Box<dyn Contract<T>>> = if T::HAS_REP_OK { vec![Box::new(contract::RepOk)] } else { Vec::new() };
    let exec = Executor::new(&ops, &contracts, &misuse, traits.clone, killed).numbered_from(run_base);
    let outlet = Outlet { out: &mut (), stop, command: None, seconds_before: 0.0 };
    let others = OtherDomains::of(&ops, &config.other_settings(), killed, stop);
    let mut generator = Generator::new(config, exec.memoized(), traits, outlet, others);
    generator.run(false);
    // The components make values; the sample holds sequences that end in
    // observing one (up to `config.regression_tests` of them).
    let stored = generator.components.iter().map(|component| component.seq.clone());
    Ok(stored.chain(generator.regression_sample()).map(|seq| seq.flatten()).collect())
}

/// A picture of the value a witness's last call ran on, rebuilt by the
/// calls before it (which ran without failing, the same way, every time).
fn picture_before<T: Subject>(program: &Program) -> Option<String> {
    let (last, before) = program.calls.split_last()?;
    let Some(Operand::Var(receiver)) = last.operands.first() else { return None };
    draw_built::<T>(Program { calls: before.to_vec(), result: Some(*receiver) }, "before the failing call")
}

/// A picture of what a witness's calls left in variable `var` (the value
/// a contract found broken), all of them run again.
fn picture_left<T: Subject>(program: &Program, var: u32) -> Option<String> {
    draw_built::<T>(Program { calls: program.calls.clone(), result: Some(var) }, "after the failing call")
}

/// Builds `program`'s value and draws it with `title`. The value is never
/// dropped: its `Drop` may be what fails.
fn draw_built<T: Subject>(program: Program, title: &str) -> Option<String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let value = std::mem::ManuallyDrop::new(program.build::<T>()?);
        Some(crate::emit::to_dot(&*value, title))
    }))
    .ok()?
}

impl<T: Subject + StdTraits> RandomJob<T> {
    /// Reports each group again with its final witness: simplified (§6.1)
    /// when `exec` replays them; as found when it is `None`, or when the
    /// failure kills the process (a replay would only do it again).
    fn report_failures(&self, generator: &mut Generator<'_, T>, exec: Option<&Executor<'_, T>>) {
        let replacements = match exec {
            Some(_) => simplify::replacement_set(&generator.components),
            None => Vec::new(),
        };
        let mut simplest_ints = self.config.ints.clone();
        simplest_ints.sort_by_key(|&v| (v.abs(), v < 0));
        for index in 0..generator.groups.len() {
            let group = &generator.groups[index];
            let original = group.smallest.clone();
            let before = original.calls.len();
            let exec = exec.filter(|_| !group.failure.kind.kills_the_process());
            let (program, broken) = match exec {
                Some(exec) => {
                    let program = match self.config.simplify {
                        true => Simplifier {
                            exec,
                            target: group.failure.group_key(),
                            replacements: &replacements,
                            ints: &simplest_ints,
                            others: &generator.others,
                        }
                        .simplify(original),
                        false => simplify::renumber(original),
                    };
                    exec.locate_next(stage::SIMPLIFY);
                    let broken = exec.replay(&program, false).failure().cloned();
                    (program, broken.unwrap_or_else(|| group.failure.clone()))
                }
                None => (simplify::renumber(original), group.failure.clone()),
            };
            let contract = self.contracts.iter().find(|c| c.name() == broken.contract);
            let names: Vec<String> = broken.vars.iter().map(|v| format!("s{v}")).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            // After a panic, the invariant too: where the call returns instead
            // (an overflow wraps without overflow checks), it is what fails.
            let rep_ok = self.contracts.iter().find(|c| c.name() == "rep-ok");
            let left = program.last_mutated(&generator.infos).map(|v| format!("s{v}"));
            let assertion = match (contract, rep_ok, left) {
                (Some(contract), _, _) if !names.is_empty() => contract.assertion(&names),
                (_, Some(rep_ok), Some(left)) if broken.kind == crate::events::FailureKind::Panic => {
                    rep_ok.assertion(&[&left])
                }
                _ => Vec::new(),
            };
            let mut event = failure_event(index as u32, &broken, &program, group.count, &generator.infos, None);
            // The replay stops at the sequence that found the group.
            let at = match group.first_at {
                0 => generator.counts.explored,
                at => at,
            };
            event.replay = generator.replay(at);
            event.shrink = Some(Shrink { first: group.first_calls, smallest: before, simplified: program.calls.len() });
            event.assertion = assertion;
            // Only where the run can still replay: not after its memory
            // ran out, nor for a failure that ends the process.
            if self.config.pictures && exec.is_some() {
                event.picture = picture_before::<T>(&program);
                // A broken contract: what the calls left, beside it.
                if let (Some(_), Some(_), Some(&var)) = (&contract, &event.picture, broken.vars.first()) {
                    event.picture_after = picture_left::<T>(&program, var);
                }
            }
            generator.emit(Event::Failure(event));
        }
    }
}
