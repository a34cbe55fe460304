//! The finding vocabulary: one versioned, typed event stream for every engine.
//!
//! An engine does not return a report; it hands [`Event`]s to a [`Sink`] as
//! it goes: [`RunStarted`] once, then a [`StructureFound`] per structure it
//! keeps, a [`Failure`] per new failure group, [`LevelStats`] and
//! [`Progress`] along the way, and [`RunFinished`] at the end. A report (a
//! [`BeapiReport`](crate::beapi::BeapiReport), a random run's
//! [`RandomReport`](crate::random::RandomReport)) is a fold over the stream.
//! The same stream crosses a process boundary unchanged, as NDJSON, and is
//! what `--out DIR` stores as `events.ndjson`:
//!
//! ```text
//! {"event":"run_started","schema":1,"engine":"beapi","subject":"bst",...}
//! {"event":"structure","index":0,"level":1,"fingerprint":"7f3a..","rebuild":{"step":{..}}}
//! {"event":"failure","group":0,"kind":"panic","during":"call","operation":"add",...}
//! {"event":"run_finished","stop":"complete","seconds":1.72,"counts":{..}}
//! ```
//!
//! Every [`Progress`] event is a point the run can be resumed from: it carries
//! the engine's own position ([`Resume`]), and the events before it are all a
//! resumed run needs besides the engine's journal (see [`Sink::commit`]).
//!
//! [`SCHEMA_VERSION`] changes when a field changes meaning or goes away;
//! added fields and events do not change it.

mod branching;
mod counts;
mod failure;
mod failure_kind;
mod fingerprint;
mod stop;
mod stream;
mod structure_line;

pub use branching::{BranchTried, Branching, Flip, Strategy, StrategyTally};
pub use counts::Counts;
pub use failure::{Failure, FailureGroups, Input, Shrink, Witness};
pub use failure_kind::{During, FailureKind};
pub use fingerprint::Fingerprint;
pub use stop::Stop;
pub use stream::{read_ndjson, write_ndjson, Fold, Sink};

use crate::api::OperationInfo;
use crate::sequence::Step;

/// The version of the event schema, in every [`RunStarted`].
pub const SCHEMA_VERSION: u32 = 1;

/// One thing an engine reports.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    RunStarted(RunStarted),
    Structure(StructureFound),
    Failure(Failure),
    Level(LevelStats),
    Progress(Progress),
    Note(Note),
    /// A legal sequence of a random run and what its calls returned.
    RegressionTest(crate::random::RegressionTest),
    /// A structure in one set of a comparison and not the other.
    Difference(crate::compare::Difference),
    /// A comparison's result, its witnesses aside (they come as differences).
    Compared(crate::compare::Comparison),
    /// Builders identification's result.
    Identified(crate::builders::Identification),
    /// A Korat part searched by one process of a cluster, for process 0 to join.
    Part(crate::korat::PartRecord),
    /// A random run's stream, done: what it found, for the run to merge.
    Stream(crate::random::StreamRecord),
    RunFinished(RunFinished),
}

/// Which engine made a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    Beapi,
    Korat,
    Random,
    Compare,
    /// Builders identification (`smallscope builders`).
    Builders,
}

/// An engine's settings, as it ran with them.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Configuration {
    Beapi(crate::beapi::BeapiConfig),
    Korat(crate::korat::KoratSettings),
    Random(crate::random::RandomConfig),
    Compare(crate::compare::CompareSettings),
    Builders(crate::builders::IdentifySettings),
}

impl Configuration {
    pub fn engine(&self) -> Engine {
        match self {
            Configuration::Beapi(_) => Engine::Beapi,
            Configuration::Korat(_) => Engine::Korat,
            Configuration::Random(_) => Engine::Random,
            Configuration::Compare(_) => Engine::Compare,
            Configuration::Builders(_) => Engine::Builders,
        }
    }

    /// The random seed, for engines that use one.
    pub fn seed(&self) -> Option<u64> {
        match self {
            Configuration::Random(config) => Some(config.seed),
            Configuration::Builders(settings) => Some(settings.seed),
            _ => None,
        }
    }
}

/// What was run: the first event of every stream.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunStarted {
    /// [`SCHEMA_VERSION`] of the stream.
    pub schema: u32,
    /// A hash of the engine, subject and configuration: two runs of the same
    /// job have the same id, so files of one run are recognised as such.
    pub run: String,
    pub engine: Engine,
    /// The subject's registered name.
    pub subject: String,
    /// The subject's Rust type (for Korat, the model's).
    pub type_name: String,
    pub configuration: Configuration,
    /// The random seed, for engines that use one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The command that reproduces the run, when it came from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The API, in declaration order: steps and programs refer to it by index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<OperationInfo>,
    /// Korat: the name of each field of a candidate, as `Class#object.field`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
    /// Random testing: the contracts checked after every call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contracts: Vec<String>,
}

impl RunStarted {
    /// The start of a run of `subject` with `configuration`: its schema,
    /// engine, seed and run id follow from them. The API, fields and
    /// contracts are left for the engine that has them.
    pub fn new(subject: &str, type_name: String, configuration: Configuration, command: Option<String>) -> Self {
        let (engine, seed) = (configuration.engine(), configuration.seed());
        RunStarted {
            schema: SCHEMA_VERSION,
            run: Self::run_id(engine, subject, &configuration, seed),
            engine,
            subject: subject.to_owned(),
            type_name,
            configuration,
            seed,
            command,
            operations: Vec::new(),
            fields: Vec::new(),
            contracts: Vec::new(),
        }
    }

    /// The run id of a job: a hash of what determines its outputs.
    fn run_id(engine: Engine, subject: &str, configuration: &Configuration, seed: Option<u64>) -> String {
        let key = serde_json::to_string(&(SCHEMA_VERSION, engine, subject, configuration, seed))
            .expect("configurations serialize");
        format!("{:016x}", xxhash_rust::xxh3::xxh3_64(key.as_bytes()))
    }
}

/// A structure an engine kept.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StructureFound {
    /// Its place in the stream's structures, from 0.
    pub index: u64,
    /// BEAPI: the level (sequence length in BFS rounds) at which it was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// The fingerprint of its state key: its canonical form, or, when the
    /// subject omits fields from that form, the state with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<Fingerprint>,
    /// Its canonical text, when the run records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical: Option<String>,
    pub rebuild: Rebuild,
    /// A state that differs from an earlier structure only in omitted
    /// fields: the search extends it (a bug may hide there), but it is not
    /// counted as a structure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub variant: bool,
    /// Its picture as a Graphviz DOT graph (see [`to_dot`](crate::emit::to_dot)),
    /// for the first structures of a run that draws them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
    /// Its object graph, when the run sends it for a field coverage
    /// criterion (BEAPI; Korat's follows from its candidate and space).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<crate::heap::ObjectGraph>,
}

/// How to make a structure again.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rebuild {
    /// The last call of its shortest sequence; structure arguments are
    /// earlier structures of the stream, by index.
    Step(Step),
    /// A Korat candidate: each field's value (a reference as the object's
    /// index), `null` for a null reference or value.
    Candidate(Vec<Option<i64>>),
}

/// Counts for one BEAPI level (sequence length).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LevelStats {
    pub level: u32,
    /// Structures first made at this level.
    pub structures: usize,
    /// Sequences executed at this level.
    pub explored: u64,
    /// Calls of checked operations on the structures this level made.
    #[serde(default)]
    pub checked: u64,
    pub seconds: f64,
}

/// A point the run can be resumed from, with the counts there.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    /// Seconds since the run started, resumed runs included.
    pub seconds: f64,
    pub counts: Counts,
    /// Failing inputs per failure group, by group number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group_counts: Vec<u64>,
    /// Random, with coverage: when the crate's edges grew since the last
    /// progress.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edge_gains: Vec<EdgeGain>,
    /// Where the engine is.
    pub resume: Resume,
}

/// A point of coverage over a run: after sequence `sequences`, the run had
/// taken `edges` of the crate's edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EdgeGain {
    pub sequences: u64,
    pub edges: u64,
}

/// An engine's position, enough (with the events before it and its
/// journal) to carry on from there.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resume {
    Beapi(crate::beapi::Resume),
    Korat(crate::korat::Resume),
    Random(crate::random::Resume),
}

/// Something the user should know about the run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Note {
    pub text: String,
}

/// The last event of a stream.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunFinished {
    pub stop: Stop,
    /// Seconds the engine ran, resumed runs included.
    pub seconds: f64,
    pub counts: Counts,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group_counts: Vec<u64>,
    /// As in [`Progress`]: edge gains since the last progress.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edge_gains: Vec<EdgeGain>,
    /// Random, with coverage: the crate's branches with a side taken and
    /// a side not, at the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frontier: Vec<crate::edges::FrontierBranch>,
    /// Random's branch phase (`branch`), when it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branching: Option<Branching>,
    /// A run that only confirms flips: for each, whether it took its side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confirmed: Vec<bool>,
    /// A run that only measures edges (BEAPI's [`MeasureEdges`](crate::beapi::MeasureEdges)):
    /// the user's edges its calls took, by number, each once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<u32>,
}

impl RunFinished {
    /// A run's end with its counts, and nothing of what some engines add
    /// (groups, edges, the branch phase's findings).
    pub fn new(stop: Stop, seconds: f64, counts: Counts) -> Self {
        RunFinished {
            stop,
            seconds,
            counts,
            group_counts: Vec::new(),
            edge_gains: Vec::new(),
            frontier: Vec::new(),
            branching: None,
            confirmed: Vec::new(),
            edges: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::{Literal, Output, StepArg};

    #[test]
    fn events_round_trip_through_ndjson() {
        let events = vec![
            Event::Structure(StructureFound {
                index: 3,
                level: Some(2),
                fingerprint: Some(Fingerprint(u128::MAX - 5)),
                canonical: Some("S#0{x: 1}".into()),
                rebuild: Rebuild::Step(Step {
                    op: 1,
                    args: vec![
                        StepArg::Structure(0),
                        StepArg::Literal(Literal::Str("a".into())),
                        StepArg::Literal(Literal::OptionInt(None)),
                        StepArg::Literal(Literal::OptionInt(Some(-2))),
                        StepArg::Literal(Literal::IntList(vec![1, 2].into())),
                    ],
                    output: Output::Param(0),
                }),
                variant: true,
                picture: Some("digraph { n0 }".into()),
                graph: None,
            }),
            Event::Failure(Failure {
                group: 0,
                kind: FailureKind::StackOverflow,
                during: During::Clone,
                operation: Some("add".into()),
                contract: None,
                message: "thread overflowed its stack".into(),
                location: None,
                count: 1,
                witness: Witness {
                    text: "s0 = new()".into(),
                    calls: 1,
                    input: Input::Candidate(vec![Some(1), None, Some(-3)]),
                },
                replay: None,
                shrink: None,
                assertion: Vec::new(),
                picture: Some("digraph { n0 }".into()),
                picture_after: Some("digraph { n0 -> n0 }".into()),
            }),
            Event::Note(Note { text: "a note".into() }),
        ];
        let mut bytes = Vec::new();
        for event in &events {
            write_ndjson(event, &mut bytes).unwrap();
        }
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with("{\"event\":\"structure\""), "{text}");
        assert!(text.contains("\"kind\":\"stack-overflow\""), "{text}");
        let back: Vec<Event> = read_ndjson(&bytes[..]).collect::<Result<_, _>>().unwrap();
        assert_eq!(back, events);
        // A one-character string stays a string, not a char.
        assert!(text.contains("{\"str\":\"a\"}"), "{text}");
        // `Option<u8>` and list arguments.
        assert!(
            text.contains("{\"option_int\":null}},{\"literal\":{\"option_int\":-2}},{\"literal\":{\"int_list\":[1,2]}"),
            "{text}"
        );
    }

    #[test]
    fn a_bad_line_is_named() {
        let error = read_ndjson(&b"{\"event\":\"note\",\"text\":\"x\"}\n{oops\n"[..]).nth(1).unwrap().unwrap_err();
        assert!(error.starts_with("line 2:"), "{error}");
    }
}
