//! BEAPI: bounded-exhaustive generation from a type's API.
//!
//! The idea (Politano et al., "Bounded Exhaustive Generation from Program
//! APIs"): run call sequences breadth-first, one level per sequence length;
//! drop a call that misuses the API (`Err`, a failed `assume!`); drop a call
//! whose structures pass the scope; and keep a sequence only if it makes a
//! structure not seen before, compared by canonical form. The search ends
//! when a level makes nothing new. Every structure comes with the shortest
//! sequence that builds it, and every panic with a witness sequence.
//!
//! Then the rest of the API is tested on what the builders made (the
//! paper's §3): each operation that is not a builder is called on every
//! structure, right after its level, with every argument of its domains; what
//! it leaves must still pass `rep_ok`, and it is dropped, never kept
//! ([`Check`] chooses which operations). A panic or a broken invariant is a
//! failure whose witness is the structure's sequence and the call.
//!
//! A parameter that takes a handle (a key or id the API hands out, see
//! [`ParamKind::Handle`](crate::api::ParamKind::Handle)) ranges over the
//! handles that the calls which built the receiver returned, stale ones
//! included. Such a call gets its receiver by replaying those calls, with
//! the handles this replay returned, so a handle that points into its
//! structure points into the receiver: one replay per call that takes one.
//!
//! The scope bounds the objects of each class and, with
//! [`BeapiConfig::collection_length`] (the scope by default), the elements of
//! every collection: otherwise a `Vec<u8>`-backed type would have infinitely
//! many structures.
//!
//! Cost: each level runs every builder on every stored structure made at the
//! level before, times the product of its primitive domains; each run costs
//! one clone, the call, and one linearization per output. Checking costs one
//! clone, the call and one `rep_ok` per structure, checked operation and
//! argument. Memory holds one fingerprint and one step per structure, plus
//! the values of the newest level. Builders (see [`crate::builders`]) keep
//! the number of operations small.
//!
//! ```
//! use smallscope::{Beapi, Builders, Heap};
//!
//! #[derive(Heap, Clone, Debug)]
//! pub struct Stack { items: Vec<u8> }
//!
//! #[smallscope::api(name = "doc-stack")]
//! impl Stack {
//!     pub fn new() -> Self { Stack { items: Vec::new() } }
//!     pub fn push(&mut self, x: u8) { self.items.push(x) }
//!     pub fn pop(&mut self) -> Result<u8, &'static str> { self.items.pop().ok_or("empty") }
//! }
//!
//! // Scope 3 bounds the `Vec` too: stacks of length 0..=3 over {0, 1}, 1 + 2 + 4 + 8.
//! let report = Beapi::<Stack>::new().scope(3).ints(0..2).builders(Builders::All).run().unwrap();
//! assert_eq!(report.structure_count(), 15);
//! ```

mod config;
mod engine;
mod report;
mod resume;
mod skips;
mod state_graph;
mod states;

pub use config::{
    parse_int_range, BeapiConfig, BuilderMethod, Builders, BuildersSetting, Check, ConfigFile, MeasureEdges,
    StateStorage,
};
pub use report::{BeapiReport, Structure};
pub use resume::Resume;
pub use state_graph::{Reach, StateGraph};
pub use states::{fingerprint, StateSet};

pub use crate::events::LevelStats;

use std::marker::PhantomData;
use std::sync::Arc;

use std::hash::BuildHasher as _;

use crate::api::other::OtherStructures;
use crate::api::{OtherValue, StdTraits, Subject};
use crate::events::{Configuration, Event, Note, RunStarted, Sink, Stop};
use crate::runner::{Job, JobError, Killed, Start, StopFlag};
use crate::ConfigError;
use engine::{Context, Search};

/// The builders a run uses, chosen by the layer above the engine (named,
/// all, or identified: see [`crate::builders::resolve`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChosenBuilders {
    pub names: Vec<String>,
    /// Where they came from, for the run's notes.
    pub notes: Vec<String>,
    /// Seconds spent choosing them: part of the run's time and time limit.
    pub seconds: f64,
}

/// How a job gets its builders, inside the worker (identification runs the
/// subject's code): from `config.builders`, stepping past `killed` inputs,
/// ending early when the flag is raised.
pub type ChooseBuilders = fn(&BeapiConfig, &[Killed], &StopFlag) -> Result<ChosenBuilders, ConfigError>;

/// A BEAPI run as a [`Job`]: what a worker runs and restarts.
pub struct BeapiJob<T> {
    config: BeapiConfig,
    choose: ChooseBuilders,
    /// The subject's registered name.
    name: String,
    /// The command that reproduces the run, but for `--builders`, which the
    /// job adds once they are resolved.
    command: Option<String>,
    subject: PhantomData<fn() -> T>,
}

impl<T: Subject + StdTraits> BeapiJob<T> {
    /// A run whose builders `choose` picks when it starts (a resumed run
    /// keeps those it started with).
    pub fn new(config: BeapiConfig, name: String, command: Option<String>, choose: ChooseBuilders) -> Self {
        BeapiJob { config, choose, name, command, subject: PhantomData }
    }
}

impl<T: Subject + StdTraits> Job for BeapiJob<T> {
    type Fold = BeapiReport;

    fn run(&self, start: Start<'_, BeapiReport>, out: &mut dyn Sink) -> Result<(), JobError> {
        self.config.validate()?;
        let resumed = start.resume.filter(|report| !report.run.is_empty());
        let ChosenBuilders { names: builders, notes, seconds: identification_seconds } = match resumed {
            Some(report) => ChosenBuilders { names: report.builders.clone(), ..ChosenBuilders::default() },
            None => (self.choose)(&self.config, start.killed, start.stop)?,
        };
        let config = BeapiConfig { builders: Builders::Named(builders.clone()), ..self.config.clone() };
        // The command repeats the run with the builders it used.
        let command = self.command.as_ref().map(|c| format!("{c} --builders {}", builders.join(",")));
        let cx = Context { run: 0, killed: start.killed, stop: Some(start.stop), out, replay: command.clone() };
        let mut search = Search::<T>::new(&config, &builders, cx)?;
        if let Some(debug) = T::std_traits().debug {
            search.audit_skips(debug);
        }
        // The events name the operations checked, as they name the builders.
        let config = BeapiConfig { check: Check::Named(search.checked_names()), measure: None, ..config.clone() };
        // A measuring run has nothing to resume: a restart measures again,
        // stepping past the inputs that killed the worker.
        let resumed = resumed.filter(|_| self.config.measure.is_none());
        match resumed {
            Some(report) => search.resume(report)?,
            None => {
                search.started_after(identification_seconds);
                let type_name = std::any::type_name::<T>().to_owned();
                search.emit(Event::RunStarted(RunStarted {
                    operations: T::operations().iter().map(|op| op.info()).collect(),
                    ..RunStarted::new(&self.name, type_name, Configuration::Beapi(config.clone()), command)
                }));
                for text in notes.into_iter().chain(search.take_notes()) {
                    search.emit(Event::Note(Note { text }));
                }
            }
        }
        match &self.config.measure {
            Some(measure) => search.measure(measure),
            None => search.run(),
        };
        Ok(())
    }
}

/// What BEAPI reaches with `builders` under `config`, and why it stopped:
/// the search numbered `run` in addresses, stepping past `killed` inputs,
/// and ending early when `stop` is raised. For builders identification,
/// which runs many small searches inside one job.
pub fn reach<T: Subject>(
    config: &BeapiConfig,
    builders: &[String],
    run: u64,
    killed: &[Killed],
    stop: Option<&StopFlag>,
) -> Result<(Reach, Stop), ConfigError> {
    /// Counts structures and gathers their field values; ignores the rest.
    #[derive(Default)]
    struct Count(usize, crate::heap::FieldExtensions);
    impl Sink for Count {
        fn event(&mut self, event: Event) {
            if let Event::Structure(found) = event {
                self.0 += 1;
                if let Some(graph) = &found.graph {
                    self.1.add(graph);
                }
            }
        }
    }
    let mut count = Count::default();
    let cx = Context { run, killed, stop, out: &mut count, replay: None };
    let config = &BeapiConfig { check: Check::None, ..config.clone() };
    let stopped = Search::<T>::new(config, builders, cx)?.run();
    Ok((Reach { field_values: count.1.total(), structures: count.0 }, stopped))
}

/// The state graph of a search with `builders` under `config`, and why it
/// stopped: every state it kept and every call between them, from which
/// [`StateGraph::reach`] gives what any subset of `builders` reaches. Numbered
/// and limited as [`reach`].
pub fn state_graph<T: Subject>(
    config: &BeapiConfig,
    builders: &[String],
    run: u64,
    killed: &[Killed],
    stop: Option<&StopFlag>,
) -> Result<(StateGraph, Stop), ConfigError> {
    let config =
        BeapiConfig { graphs: false, record_canonical: false, pictures: 0, check: Check::None, ..config.clone() };
    let cx = Context { run, killed, stop, out: &mut (), replay: None };
    let mut search = Search::<T>::new(&config, builders, cx)?;
    search.record_graph();
    Ok(search.run_recorded())
}

/// The structures of `S` for a parameter `&S` of another subject's
/// operation, and why their run stopped: a BEAPI run of `S` with
/// `config`'s scope and domains and every operation of `S` as a builder,
/// however long its sequences (see [`crate::api::other`]).
pub(crate) fn other_structures<S: Subject>(
    config: &BeapiConfig,
    killed: &[Killed],
    stop: Option<&StopFlag>,
) -> Result<(OtherStructures, Stop), ConfigError> {
    use crate::events::Fold;
    use crate::sequence::Literal;

    /// Folds the events into a report.
    struct Folding(BeapiReport);
    impl Sink for Folding {
        fn event(&mut self, event: Event) {
            self.0.apply(event);
        }
    }
    let type_name = std::any::type_name::<S>();
    let ops = S::operations();
    let config = &BeapiConfig {
        builders: Builders::All,
        check: Check::None,
        max_length: None,
        state_matching: true,
        omit: Vec::new(),
        misuse_panics: Vec::new(),
        cache_dir: None,
        record_canonical: false,
        pictures: 0,
        graphs: false,
        ..config.clone()
    };
    let operations: Vec<_> = ops.iter().map(|op| op.info()).collect();
    let mut folding = Folding(BeapiReport { operations, ..BeapiReport::default() });
    // A run number of its own, so that inputs that killed an attempt are
    // stepped past in this search only.
    let run = OTHER_RUNS | (rustc_hash::FxBuildHasher.hash_one(type_name) >> 1);
    let started = std::time::Instant::now();
    let names: Vec<String> = ops.iter().map(|op| op.name.to_owned()).collect();
    let cx = Context { run, killed, stop, out: &mut folding, replay: None };
    let mut search = Search::<S>::new(config, &names, cx)?;
    // Where its own other subjects' values came from (or why not).
    let nested_notes = search.take_notes();
    let stopped = search.run();
    let report = folding.0;
    let ty = crate::emit::type_expr(type_name);
    let values: Vec<Literal> = report
        .counted_structures()
        .filter_map(|(index, _)| {
            let program = report.program(index);
            let rust = program.to_rust_block(&report.operations, &ty)?;
            Some(Literal::Other(Arc::new(OtherValue { type_name: type_name.to_owned(), program, rust })))
        })
        .collect();
    if values.len() as u64 > crate::error::MAX_DOMAIN {
        return Err(ConfigError::DomainTooLarge {
            what: format!("`{type_name}` at scope {}", config.scope),
            size: values.len() as u128,
            max: crate::error::MAX_DOMAIN,
        });
    }
    let mut note = format!(
        "`&{type_name}` arguments: its {} structures at scope {}, made by BEAPI in {:.2} s",
        values.len(),
        config.scope,
        started.elapsed().as_secs_f64()
    );
    if stopped != Stop::Complete {
        note.push_str(&format!(" ({}: only those found by then)", stopped.describe()));
    }
    if !report.failures.is_empty() {
        note.push_str(&format!(
            "; its own code failed ({} failure groups), which this run does not report: run BEAPI on it",
            report.failures.len()
        ));
    }
    for nested in nested_notes {
        note.push_str(&format!("; for it, {nested}"));
    }
    Ok((OtherStructures { values: values.into(), note }, stopped))
}

/// Run numbers of the searches that make other subjects' structures: the
/// top bit set, the type name's hash below.
const OTHER_RUNS: u64 = crate::runner::OTHER_API_RUNS;
