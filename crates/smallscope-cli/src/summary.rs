//! The JSON summaries, typed: what `--format json` prints and `--out`
//! writes as `summary.json`, each made from a run's folded events. `bench`
//! reads the same types.

use std::borrow::Cow;
use std::collections::BTreeMap;

use smallscope::compare::{Comparison, Verdict, Witness};
use smallscope::coverage::{Criterion, ScopeMeasure, StoppedBy};
use smallscope::events::{Stop, SCHEMA_VERSION};
use smallscope::korat::KoratReport;
use smallscope::random::RandomReport;
use smallscope::BeapiReport;

/// What every summary says of how the run went.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunFacts {
    /// The events' schema version.
    pub schema: u32,
    /// The run's id, as in `events.ndjson`.
    pub run: String,
    pub stop: Stop,
    /// Times a worker was restarted past an input that killed it.
    pub restarts: u32,
    /// The worker's peak memory (in process: this process's): what the
    /// memory limit bounds.
    pub peak_memory_bytes: Option<u64>,
    /// The supervising process's own peak, which holds what the run found
    /// (under the memory limit too), when the run had workers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supervisor_peak_memory_bytes: Option<u64>,
    /// The memory limit the worker and this process were held to, when the
    /// run had one (given, or the default the machine allows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_limit_bytes: Option<u64>,
    /// This invocation's seconds by the wall clock, up to the run's end:
    /// hangs, worker restarts and builders identification included, which
    /// an engine's own `seconds` leave out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_seconds: Option<f64>,
    /// The command that repeats the run.
    pub replay: String,
    /// The command that carries an interrupted run on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<String>,
    /// The files of this run in `--out` (this summary aside).
    #[serde(default)]
    pub files: Vec<String>,
    /// Files cut short or not written (by the time limit or a signal):
    /// `--resume` writes them whole.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partial: Vec<crate::writing::PartialFile>,
    /// A failure the run stopped on before it could confirm and report it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreported: Option<String>,
}

impl RunFacts {
    pub fn new(run: String, stop: Stop, restarts: u32, peak_memory_bytes: Option<u64>, replay: String) -> Self {
        RunFacts {
            schema: SCHEMA_VERSION,
            run,
            stop,
            restarts,
            peak_memory_bytes,
            supervisor_peak_memory_bytes: None,
            memory_limit_bytes: None,
            wall_seconds: None,
            replay,
            resume: None,
            files: Vec::new(),
            partial: Vec::new(),
            unreported: None,
        }
    }

    /// Why the run stopped, in words; a memory limit with its size.
    pub fn stop_text(&self) -> String {
        match (self.stop, self.memory_limit_bytes) {
            (Stop::MemoryLimit, Some(bytes)) => format!("{} of {} MiB", self.stop.describe(), bytes >> 20),
            (stop, _) => stop.describe().to_string(),
        }
    }
}

/// A command's summary: serialized as `summary.json` and `--format json`,
/// with the facts of the run every summary holds.
pub trait Summary: serde::Serialize {
    fn facts(&mut self) -> &mut RunFacts;
}

macro_rules! summaries {
    ($($summary:ty),*) => {$(
        impl Summary for $summary {
            fn facts(&mut self) -> &mut RunFacts {
                &mut self.run
            }
        }
    )*};
}

summaries!(BuildersSummary, BeapiSummary<'_>, KoratSummary<'_>, RandomSummary<'_>, CompareSummary);

/// `smallscope builders --format json`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BuildersSummary {
    pub subject: String,
    #[serde(rename = "type")]
    pub type_name: String,
    /// `hc` or `ga`.
    pub method: String,
    /// The genetic algorithm's seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub scope: u32,
    /// In API order.
    pub builders: Vec<String>,
    /// Methods observer detection left out of the search.
    pub observers: Vec<String>,
    /// Every method's role, with the evidence for each non-observer.
    pub roles: Vec<smallscope::builders::observers::MethodRole>,
    /// How identification went, when there is something to say (detection cut short).
    pub notes: Vec<String>,
    /// Field values plus the paper's tie-break term in [0, 1].
    pub fitness: f64,
    pub field_values: usize,
    /// Structures at `scope` with the builders, and with the whole API.
    pub structures_builders: usize,
    pub structures_api: usize,
    /// Sets of methods scored.
    pub evaluations: usize,
    /// Seconds identification took (0 when read from the cache).
    pub seconds: f64,
    pub from_cache: bool,
    pub run: RunFacts,
}

/// `report`, borrowed; or, when its run stopped before its first event
/// (`started` is false: the report knows neither its subject nor its
/// settings), a copy that `fill` gives what the command asked for.
/// `count` and `noun`, plural but for one: `1 failure`, `2 failures`.
pub fn counted(count: u64, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{count} {noun}s"),
    }
}

pub fn started_or<'a, R: Clone>(report: &'a R, started: bool, fill: impl FnOnce(&mut R)) -> Cow<'a, R> {
    if started {
        return Cow::Borrowed(report);
    }
    let mut filled = report.clone();
    fill(&mut filled);
    Cow::Owned(filled)
}

/// `smallscope beapi --format json`: the run's report, with what only the
/// command knows.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct BeapiSummary<'a> {
    #[serde(flatten)]
    pub report: Cow<'a, BeapiReport>,
    pub engine: String,
    /// Structures counted (those that differ from an earlier one only in
    /// omitted fields left out).
    pub structures: usize,
    /// Every operation of the API: what the run did with it, and its calls.
    #[serde(default)]
    pub operations: Vec<OperationUse>,
    /// Failing sequences, over all groups.
    pub failures: u64,
    /// The time limit stopped the run before its last level was done.
    pub timed_out: bool,
    #[serde(flatten)]
    pub run: RunFacts,
}

/// What a BEAPI run did with one operation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OperationUse {
    pub name: String,
    pub role: Role,
    /// Calls made (builders: to extend sequences; checked: on kept structures).
    pub calls: u64,
    /// Calls dropped as API misuse (`Err`, a failed `assume!`).
    pub misuses: u64,
}

/// How a BEAPI run used an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// It extended sequences: the structures are what the builders make.
    Builder,
    /// It was called on every kept structure, and what it made was checked.
    Checked,
    /// It was never called (`--check` left it out): its bugs cannot show.
    NotCalled,
}

impl OperationUse {
    /// Every operation of `report`'s API with its role and calls.
    pub fn of(report: &BeapiReport) -> Vec<OperationUse> {
        (report.operations.iter().enumerate())
            .map(|(index, op)| {
                let role = if report.builders.contains(&op.name) {
                    Role::Builder
                } else if report.checked.contains(&op.name) {
                    Role::Checked
                } else {
                    Role::NotCalled
                };
                let (calls, misuses) = report.calls_of(index);
                OperationUse { name: op.name.clone(), role, calls, misuses }
            })
            .collect()
    }

    /// `remove (120 calls, 12 misuse)`.
    pub fn describe(&self) -> String {
        match self.misuses {
            0 => format!("{} ({} calls)", self.name, self.calls),
            misuses => format!("{} ({} calls, {misuses} misuse)", self.name, self.calls),
        }
    }
}

/// `smallscope korat --format json`: the run's report, with what only the
/// command knows.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct KoratSummary<'a> {
    #[serde(flatten)]
    pub report: Cow<'a, KoratReport>,
    /// `korat`, or `korat+` when equivalence classes pruned the search.
    pub engine: String,
    pub scope: u32,
    /// Candidates in the whole space (the product of the field domains).
    pub space_size: f64,
    /// Failing candidates, over all groups.
    pub failures: u64,
    #[serde(flatten)]
    pub run: RunFacts,
}

/// `smallscope random --format json`: the run's report, with what only the
/// command knows.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RandomSummary<'a> {
    #[serde(flatten)]
    pub report: Cow<'a, RandomReport>,
    pub engine: String,
    pub sequences_per_second: f64,
    pub failure_group_count: usize,
    pub regression_test_count: usize,
    /// `time limit`, `sequence limit`, `stuck`, `interrupted`, `memory limit`.
    pub stopped_by: String,
    #[serde(flatten)]
    pub run: RunFacts,
}

/// A witness as `compare` shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WitnessSummary {
    /// Its place among the witnesses of its side, smallest first, from 1.
    pub position: usize,
    #[serde(flatten)]
    pub witness: Witness,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dot_file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg_file: Option<String>,
}

/// The two sides of a comparison.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sides<T> {
    pub only_api: T,
    pub only_invariant: T,
}

/// One engine's part of a comparison.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EngineFigures {
    pub structures: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explored: Option<u64>,
    pub seconds: f64,
}

/// `smallscope compare --format json`, and `comparison.json`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompareSummary {
    pub subject: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub engine: String,
    pub scope: u32,
    pub invariant: String,
    pub api_structures: usize,
    pub invariant_structures: usize,
    pub only_api: usize,
    pub only_invariant: usize,
    pub both: usize,
    pub verdict: Verdict,
    pub relation: String,
    pub verdict_text: String,
    pub builders: Vec<String>,
    pub recheck_scope: Option<u32>,
    pub scope_artifacts: usize,
    pub incomplete: bool,
    pub beapi: EngineFigures,
    pub korat: EngineFigures,
    pub seconds: f64,
    /// Kinds of difference on each side.
    pub kinds: Sides<usize>,
    /// The witnesses shown on each side.
    pub witnesses: Sides<Vec<WitnessSummary>>,
    pub notes: Vec<String>,
    #[serde(flatten)]
    pub run: RunFacts,
}

impl CompareSummary {
    pub fn new(subject: &str, comparison: &Comparison, witnesses: Sides<Vec<WitnessSummary>>, run: RunFacts) -> Self {
        let c = comparison;
        CompareSummary {
            subject: subject.to_owned(),
            type_name: c.subject.clone(),
            engine: "compare".into(),
            scope: c.scope,
            invariant: c.invariant.clone(),
            api_structures: c.api_structures,
            invariant_structures: c.invariant_structures,
            only_api: c.only_api.len(),
            only_invariant: c.only_invariant.len(),
            both: c.both,
            verdict: c.verdict,
            relation: c.verdict.relation().to_owned(),
            verdict_text: c.verdict_line(),
            builders: c.builders.clone(),
            recheck_scope: c.recheck_scope,
            scope_artifacts: c.scope_artifacts,
            incomplete: c.incomplete,
            beapi: EngineFigures { structures: c.api_structures as u64, explored: None, seconds: c.beapi_seconds },
            korat: EngineFigures {
                structures: c.korat_found,
                explored: Some(c.korat_explored),
                seconds: c.korat_seconds,
            },
            seconds: c.seconds,
            kinds: Sides {
                only_api: Comparison::kinds(&c.only_api),
                only_invariant: Comparison::kinds(&c.only_invariant),
            },
            witnesses,
            notes: c.notes.clone(),
            run,
        }
    }
}

/// `smallscope suite --format json`: a field coverage suite.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SuiteSummary {
    pub subject: String,
    /// `korat` or `beapi`.
    pub engine: String,
    pub criterion: Criterion,
    pub scope: u32,
    /// The scopes transcoping measured were 1 to this; `None` for FET (or
    /// a target too small to transcope from).
    pub small_scope: Option<u32>,
    /// Structures kept.
    pub suite_size: u64,
    /// Seconds to generate the suite, small scopes included: each run's,
    /// from its engine's start until the criterion stopped it or the engine
    /// ended (starting a worker, and a stopped one winding down, are not
    /// generation).
    pub seconds: f64,
    pub stopped_by: StoppedBy,
    /// Pairs reached per field, by `Class.field`.
    pub field_sizes: BTreeMap<String, usize>,
    /// The size policies' prediction per field at `scope`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_sizes: Option<BTreeMap<String, usize>>,
    /// The time policies' predicted seconds at `scope`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_seconds: Option<f64>,
    /// The suite at the end of each scope's run, in order: the small
    /// scopes' (what was fitted), then, for Korat, each larger size, and
    /// last the target's.
    pub scopes: Vec<ScopeMeasure>,
    /// Structures the engine made before the suite stopped.
    pub structures_seen: u64,
    /// Failing inputs met on the way, over every scope's run.
    pub failures: u64,
    /// What the user should know: predictions missed or passed, scopes cut short.
    pub notes: Vec<String>,
    pub stop: Stop,
    /// The command that repeats the run.
    pub replay: String,
    /// The files of this run in `--out` (this summary aside).
    #[serde(default)]
    pub files: Vec<String>,
    /// In a harness built with coverage: the crate's edges the suite's
    /// calls take, beside every structure's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edges: Option<SuiteEdges>,
}

/// What a suite's calls reach of the crate under test, measured in-process
/// (`smallscope::edges`): each structure built again by its calls, then
/// every operation that takes a structure called on it with every argument
/// of BEAPI's domains, as `beapi --check all` calls them. The same calls
/// on every structure of the scope (the bounded-exhaustive set) say what
/// the suite could reach.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SuiteEdges {
    /// The crate's edges.
    pub total: u64,
    /// Edges the suite's calls took.
    pub suite: u64,
    /// Edges the same calls on every structure took.
    pub every_structure: u64,
    /// Per function of the crate, in that order: its edges, and what each took.
    pub functions: Vec<SuiteFunctionEdges>,
    /// Seconds the two measures took (not generation time).
    pub seconds: f64,
}

/// One function's edges, and how many the suite's and every structure's calls took.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SuiteFunctionEdges {
    pub file: String,
    /// Demangled, as the line tables name it.
    pub function: String,
    pub edges: u32,
    pub suite: u32,
    pub every_structure: u32,
}

/// `file:line`, the file relative to the current folder (the crate's,
/// under `cargo smallscope`).
pub fn place(site: &smallscope::edges::EdgeSite) -> String {
    format!("{}:{}", relative(&site.file), site.line)
}

/// A file relative to the current folder, when it is under it.
pub fn relative(file: &str) -> String {
    let file = std::path::Path::new(file);
    let cwd = std::env::current_dir().ok();
    cwd.as_deref().and_then(|dir| file.strip_prefix(dir).ok()).unwrap_or(file).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use smallscope::events::{During, Failure, FailureKind, Input, Witness};

    fn facts() -> RunFacts {
        RunFacts::new("run-1".into(), Stop::Complete, 0, None, "smallscope beapi bst".into())
    }

    /// The report is the summary's body: its counts reach the JSON under
    /// the summary's names, its bulk does not, and the JSON reads back.
    #[test]
    fn a_beapi_report_is_its_summary_body() {
        let witness = Witness { text: "s0 = new()".into(), calls: 1, input: Input::Program(Default::default()) };
        let report = BeapiReport {
            run: "run-1".into(),
            name: "bst".into(),
            subject: "Bst".into(),
            scope: 3,
            builders: vec!["new".into(), "add".into()],
            explored: 40,
            misuses: 2,
            failures: vec![Failure {
                count: 3,
                ..Failure::new(0, FailureKind::Panic, During::Call, "boom".into(), witness)
            }],
            seconds: 0.5,
            command: Some("not in the summary".into()),
            ..BeapiReport::default()
        };
        let summary = BeapiSummary {
            report: Cow::Borrowed(&report),
            engine: "beapi".into(),
            structures: 7,
            operations: Vec::new(),
            failures: report.failure_count(),
            timed_out: false,
            run: facts(),
        };
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!((json["subject"].as_str(), json["type"].as_str()), (Some("bst"), Some("Bst")));
        assert_eq!((json["explored"].as_u64(), json["misuses"].as_u64()), (Some(40), Some(2)));
        assert_eq!((json["failures"].as_u64(), json["failure_groups"][0]["count"].as_u64()), (Some(3), Some(3)));
        assert_eq!((json["structures"].as_u64(), json["run"].as_str()), (Some(7), Some("run-1")));
        assert!(json.get("command").is_none() && json.get("operation_calls").is_none(), "{json}");
        let read: BeapiSummary<'_> = serde_json::from_value(json).unwrap();
        assert_eq!((read.report.name.as_str(), read.report.subject.as_str()), ("bst", "Bst"));
        assert_eq!((read.report.explored, read.report.failures.len(), read.structures), (40, 1, 7));
        assert_eq!(read.run, facts());
    }

    /// A run stopped before its first event has no name: the summary
    /// names it after the subject asked for, without copying a named one.
    #[test]
    fn an_unnamed_report_takes_the_subject_asked_for() {
        let named = |report: &KoratReport, subject: &str| {
            let subject = subject.to_owned();
            started_or(report, !report.name.is_empty(), |report| report.name = subject).into_owned()
        };
        let unnamed = KoratReport::default();
        assert_eq!(named(&unnamed, "binary-tree").name, "binary-tree");
        let report = KoratReport { name: "sll".into(), classes: [1, 5].into(), found: 4, ..KoratReport::default() };
        assert!(matches!(started_or(&report, true, |_| unreachable!()), Cow::Borrowed(_)));
        let json = serde_json::to_value(named(&report, "other")).unwrap();
        assert_eq!((json["classes"].as_u64(), json["structures"].as_u64()), (Some(2), Some(4)), "{json}");
    }
}
