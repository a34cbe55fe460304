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

use std::io::{BufRead, Write};

use crate::api::OperationInfo;
use crate::sequence::{Output, Program, Step, StepArg};

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

/// A 128-bit fingerprint of a canonical form, written as 32 hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub u128);

impl serde::Serialize for Fingerprint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{:032x}", self.0))
    }
}

impl<'de> serde::Deserialize<'de> for Fingerprint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        u128::from_str_radix(&text, 16).map(Fingerprint).map_err(serde::de::Error::custom)
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

/// How an input failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// User code panicked.
    Panic,
    /// `rep_ok` returned false.
    RepOkFalse,
    /// A contract check found a broken law.
    Contract,
    /// User code overflowed its stack.
    StackOverflow,
    /// User code aborted the process.
    Abort,
    /// User code exited the process.
    Exit,
    /// Memory passed the limit during user code.
    OutOfMemory,
    /// User code did not return within the call timeout.
    Hang,
    /// The process died another way (a signal).
    Crash,
    /// An input that killed or hung a worker returned when run again in a
    /// fresh one: the code under test is nondeterministic.
    Flaky,
}

impl FailureKind {
    /// The kebab-case name used in outputs.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Panic => "panic",
            FailureKind::RepOkFalse => "rep-ok-false",
            FailureKind::Contract => "contract",
            FailureKind::StackOverflow => "stack-overflow",
            FailureKind::Abort => "abort",
            FailureKind::Exit => "exit",
            FailureKind::OutOfMemory => "out-of-memory",
            FailureKind::Hang => "hang",
            FailureKind::Crash => "crash",
            FailureKind::Flaky => "flaky",
        }
    }

    /// Whether the failure ends the process running the user code (so only a
    /// supervisor outside it can report it).
    pub fn kills_the_process(self) -> bool {
        !matches!(self, FailureKind::Panic | FailureKind::RepOkFalse | FailureKind::Contract | FailureKind::Flaky)
    }
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which user code was running when an input failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum During {
    /// An operation of the API.
    Call,
    /// The subject's `Clone`.
    Clone,
    /// The subject's `Drop`.
    Drop,
    /// The invariant.
    RepOk,
    /// Korat+'s equivalence class.
    EqClass,
    /// A contract check (random testing).
    Check,
    /// A comparison's conversion of a candidate into a value.
    Convert,
}

impl During {
    pub fn name(self) -> &'static str {
        match self {
            During::Call => "call",
            During::Clone => "clone",
            During::Drop => "drop",
            During::RepOk => "rep-ok",
            During::EqClass => "eq-class",
            During::Check => "check",
            During::Convert => "convert",
        }
    }

    /// A code for the in-flight record (see [`crate::runner::flight`]).
    pub(crate) fn code(self) -> u64 {
        self as u64
    }

    pub(crate) fn from_code(code: u64) -> During {
        [During::Call, During::Clone, During::Drop, During::RepOk, During::EqClass, During::Check, During::Convert]
            .get(code as usize)
            .copied()
            .unwrap_or(During::Call)
    }
}

/// A failure group: inputs that fail the same way, with the smallest witness.
///
/// One type for every engine. An engine reports a group when it first finds
/// it; it may report the same `group` again with a smaller witness (random
/// testing simplifies its witnesses at the end), and the last report wins.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Failure {
    /// The group's number in the stream, from 0.
    pub group: u32,
    pub kind: FailureKind,
    pub during: During,
    /// The operation the failing input ended with (the call that panicked,
    /// or after which a check failed), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// The broken contract (random testing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    pub message: String,
    /// `file:line:column` of a panic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Failing inputs found in this group so far.
    pub count: u64,
    pub witness: Witness,
    /// The command that reproduces the failure, when the run came from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
    /// Random testing: sizes of the witness as first found, smallest found and simplified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shrink: Option<Shrink>,
    /// Rust statements that fail on the witness's final values (random
    /// testing; empty for panics).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assertion: Vec<String>,
    /// A picture (Graphviz DOT) of the structure just before the failing
    /// call, or of the structure whose `Clone` or `Drop` failed, when the
    /// run draws pictures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
    /// A picture of what the failing call left, to set beside `picture`:
    /// the structure `rep_ok` failed on after the call, or what a panic in
    /// the call left of its receiver.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture_after: Option<String>,
}

impl Failure {
    /// The first report of group `group`: one failing input, `witness`. The
    /// engine fills in what else it knows.
    pub fn new(group: u32, kind: FailureKind, during: During, message: String, witness: Witness) -> Self {
        Failure {
            group,
            kind,
            during,
            operation: None,
            contract: None,
            message,
            location: None,
            count: 1,
            witness,
            replay: None,
            shrink: None,
            assertion: Vec::new(),
            picture: None,
            picture_after: None,
        }
    }

    /// Adds this report to `groups`: a new group, or a later report of a
    /// known one (a smaller witness), which replaces it.
    pub fn fold_into(self, groups: &mut Vec<Failure>) {
        match groups.get_mut(self.group as usize) {
            Some(known) => *known = self,
            None => groups.push(self),
        }
    }

    /// Sets each group's count from a progress or finish event's counts.
    pub fn take_counts(groups: &mut [Failure], counts: &[u64]) {
        for (failure, count) in groups.iter_mut().zip(counts) {
            failure.count = *count;
        }
    }

    /// The BFS level of a BEAPI witness call.
    pub fn level(&self) -> Option<u32> {
        match self.witness.input {
            Input::Call { level, .. } => Some(level),
            _ => None,
        }
    }

    /// What failed, without the message: ``panic in `add` `` or
    /// ``rep_ok returned false after `remove` ``.
    pub fn headline(&self) -> String {
        // Checks of a value name the call that made it.
        let (code, after_call) = match self.during {
            During::Call => (self.operation.as_ref().map_or("a call".to_owned(), |op| format!("`{op}`")), false),
            During::Clone => ("`Clone`".to_owned(), false),
            During::Drop => ("`Drop`".to_owned(), false),
            During::RepOk => ("rep_ok".to_owned(), true),
            During::EqClass => ("eq_class".to_owned(), false),
            // A contract's name is kebab case; a Korat check is a Rust function.
            During::Check => match self.contract.as_deref() {
                Some(name) if !name.contains('-') => (format!("`{name}`"), true),
                name => (format!("the {} check", name.unwrap_or("contract")), true),
            },
            During::Convert => ("the conversion of a candidate".to_owned(), false),
        };
        let after = match (&self.operation, after_call) {
            (Some(op), true) => format!(" after `{op}`"),
            _ => String::new(),
        };
        match (self.kind, self.during) {
            (FailureKind::RepOkFalse, _) => format!("rep_ok returned false{after}"),
            (FailureKind::Contract, _) => format!("{} broken{after}", self.contract.as_deref().unwrap_or("a contract")),
            (FailureKind::Panic, During::Call) => format!("panic in {code}"),
            (FailureKind::Panic, _) => format!("{code} panicked{after}"),
            (kind, _) => format!("{kind} in {code}{after}"),
        }
    }

    /// The failure on one line, e.g. ``panic in `add`: index out of
    /// bounds at src/x.rs:3:5`` or ``rep_ok returned false after `remove` ``.
    pub fn describe(&self) -> String {
        let what = self.headline();
        let message = self.message.lines().next().unwrap_or("");
        let location = self.location.as_deref().map(|l| format!(" at {l}")).unwrap_or_default();
        match self.kind {
            FailureKind::RepOkFalse => what,
            _ => format!("{what}: {message}{location}"),
        }
    }
}

/// How far a witness was shrunk (random testing), in calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shrink {
    pub first: usize,
    pub smallest: usize,
    pub simplified: usize,
}

/// The input that shows a failure.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Witness {
    /// The input on one line: `s0 = new(); s0.add(1)`, or a candidate's fields.
    pub text: String,
    /// Calls in it (0 for a candidate).
    pub calls: usize,
    pub input: Input,
}

/// A witness input, in the form its engine rebuilds it from.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    /// BEAPI: a call at `level` on earlier structures (by index) and
    /// literals; `output` names the value that broke, if one did.
    Call { level: u32, op: u16, args: Vec<StepArg>, output: Option<Output> },
    /// BEAPI: a structure itself, whose `Clone` or `Drop` failed.
    Structure { index: u64 },
    /// Straight-line calls (random testing).
    Program(Program),
    /// A Korat candidate's field values, as in [`Rebuild::Candidate`].
    Candidate(Vec<Option<i64>>),
}

impl Input {
    /// The calls that make this input, given the last step of each BEAPI
    /// structure (none for a Korat candidate). For a failing call, its
    /// `result` is the variable of the broken value, if any.
    pub fn program<'a>(&'a self, step_of: &dyn Fn(u32) -> &'a Step) -> Program {
        match self {
            Input::Call { op, args, output, .. } => Program::unroll_call(*op, args, *output, step_of),
            Input::Structure { index } => Program::unroll(step_of(*index as u32), step_of),
            Input::Program(program) => program.clone(),
            Input::Candidate(_) => Program::default(),
        }
    }
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

/// Counts of a run so far. Each engine fills the counts that apply to it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Inputs tried: sequences executed (BEAPI, random), candidates (Korat).
    pub explored: u64,
    /// BEAPI: calls of checked operations (not builders) on kept structures.
    #[serde(default)]
    pub checked: u64,
    /// Structures kept: new structures (BEAPI), valid candidates (Korat),
    /// sequences stored for reuse (random).
    pub structures: u64,
    /// Inputs dropped as API misuse.
    #[serde(default)]
    pub misuses: u64,
    /// BEAPI: sequences dropped because a structure passed the scope.
    #[serde(default)]
    pub out_of_scope: u64,
    /// Random: assembled sequences dropped unexecuted, made before.
    #[serde(default)]
    pub redundant: u64,
    /// Failing inputs, over all groups.
    #[serde(default)]
    pub failing: u64,
    /// Random: objects in the largest structure stored for reuse, its root included.
    #[serde(default)]
    pub largest_structure: u64,
    /// BEAPI: calls of each operation, by its index in the API, builders'
    /// and checks' (shorter when the last operations were not called).
    /// (Never skipped when empty: random's journal stores counts with
    /// postcard, which has no field names to tell a skipped field by.)
    #[serde(default)]
    pub operation_calls: Vec<u64>,
    /// BEAPI: the calls of each operation dropped as API misuse.
    #[serde(default)]
    pub operation_misuses: Vec<u64>,
    /// BEAPI: the calls of each operation not made because it was
    /// quarantined (it kept killing the worker).
    #[serde(default)]
    pub quarantined_calls: Vec<u64>,
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
    /// Where the engine is.
    pub resume: Resume,
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

/// Why a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// The engine did all it was asked to.
    Complete,
    TimeLimit,
    /// Random: the requested number of sequences ran.
    SequenceLimit,
    MemoryLimit,
    /// A signal (Ctrl-C, SIGTERM) or the caller stopped it.
    Interrupted,
    /// Random: every sequence it could assemble was made already.
    Stuck,
    /// Korat: `rep_ok` killed the worker on too many candidates (the
    /// supervisor's `max_repeats`): the search ended there.
    Quarantined,
    /// User code failed on inputs where it did not fail again when run a
    /// second time, too often (`MAX_FLAKY`): the run ended there.
    Flaky,
    /// In this process (library mode, `--no-isolation`), calls that did
    /// not return each left a thread behind, too many of them: the run
    /// ended there.
    TooManyHangs,
    /// BEAPI: level after level made only states that differ from kept
    /// structures in what the canonical form leaves out, which grows
    /// without bound: the search ended there (a note says where).
    Unbounded,
}

impl Stop {
    pub fn describe(self) -> &'static str {
        match self {
            Stop::Complete => "complete",
            Stop::TimeLimit => "time limit",
            Stop::SequenceLimit => "sequence limit",
            Stop::MemoryLimit => "memory limit",
            Stop::Interrupted => "interrupted",
            Stop::Stuck => "stuck: every sequence it could assemble was made already",
            Stop::Quarantined => "quarantined: rep_ok kept killing the worker, so the search ended early",
            Stop::Flaky => "flaky: the code under test failed on inputs where it then passed, so the run ended early",
            Stop::Unbounded => {
                "unbounded: levels made only states that the canonical form does not tell apart, so the search ended"
            }
            Stop::TooManyHangs => {
                "too many hangs: each left a thread of this process spinning, so the run ended early (a worker \
                 process, the command line's default, goes on past them)"
            }
        }
    }

    /// Whether the run did not finish what it was asked (a level or a
    /// search is incomplete).
    pub fn is_early(self) -> bool {
        matches!(
            self,
            Stop::TimeLimit
                | Stop::MemoryLimit
                | Stop::Interrupted
                | Stop::Quarantined
                | Stop::Flaky
                | Stop::TooManyHangs
        )
    }
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
}

/// Where an engine sends its events.
pub trait Sink {
    fn event(&mut self, event: Event);

    /// Everything sent so far is final, and the last [`Progress`] sent is a
    /// point to resume from. `journal` is appended to the engine's journal:
    /// state it needs to resume that the events do not hold (random testing;
    /// empty for the other engines).
    fn commit(&mut self, _journal: &[u8]) {}
}

/// Drops every event: for searches run for what they leave, not what they say.
impl Sink for () {
    fn event(&mut self, _: Event) {}
}

impl Sink for Vec<Event> {
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}

/// A report built from events, and what a run resumes from.
pub trait Fold: Default {
    fn apply(&mut self, event: Event);

    /// The run was ended from outside before the engine said why (by its
    /// supervisor: a flaky verdict, too many hangs, a stop): the report
    /// says `stop` unless the engine's own end was folded.
    fn stopped_early(&mut self, stop: Stop);

    /// The name of operation `op` of this run's API, when the report knows
    /// it (for a death reported by its operation's number).
    fn operation_name(&self, _op: u16) -> Option<&str> {
        None
    }
}

/// Writes one event as a line of NDJSON.
pub fn write_ndjson<W: Write + ?Sized>(event: &Event, out: &mut W) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, event)?;
    out.write_all(b"\n")
}

/// Reads NDJSON events; a line that does not parse is an error naming its number.
pub fn read_ndjson(input: impl BufRead) -> impl Iterator<Item = Result<Event, String>> {
    input.lines().enumerate().filter(|(_, line)| !line.as_ref().is_ok_and(|l| l.trim().is_empty())).map(
        |(number, line)| {
            let line = line.map_err(|e| format!("line {}: {e}", number + 1))?;
            serde_json::from_str(&line).map_err(|e| format!("line {}: {e}", number + 1))
        },
    )
}

/// Failing inputs as an engine counts them, in groups of one key each; a
/// group's number is its place in the order the groups were opened.
#[derive(Debug, Clone)]
pub struct FailureGroups<K> {
    groups: Vec<(K, u64)>,
}

impl<K> Default for FailureGroups<K> {
    fn default() -> Self {
        FailureGroups { groups: Vec::new() }
    }
}

impl<K> FailureGroups<K> {
    /// Counts one more input in the group `matches` picks; false if none
    /// does (then [`open`](Self::open) one). Nothing is built for an input
    /// of a known group.
    pub fn count_in(&mut self, matches: impl Fn(&K) -> bool) -> bool {
        match self.groups.iter_mut().find(|(key, _)| matches(key)) {
            Some((_, count)) => {
                *count += 1;
                true
            }
            None => false,
        }
    }

    /// Opens a group of one input; its number.
    pub fn open(&mut self, key: K) -> u32 {
        self.groups.push((key, 1));
        self.groups.len() as u32 - 1
    }

    /// Each group's count, in group order (as [`Progress::group_counts`]).
    pub fn counts(&self) -> Vec<u64> {
        self.groups.iter().map(|(_, count)| *count).collect()
    }
}

impl<K> FromIterator<(K, u64)> for FailureGroups<K> {
    fn from_iter<I: IntoIterator<Item = (K, u64)>>(groups: I) -> Self {
        FailureGroups { groups: groups.into_iter().collect() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::Literal;

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
