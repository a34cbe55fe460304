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

mod config;
mod contract;
mod execute;
mod generate;
mod registry;
mod sequence;
mod simplify;
mod std_ops;

pub use config::{IndexPruning, RandomConfig, DEFAULT_TIME_LIMIT};
pub use contract::{assert_contract, std_contracts, Contract};
pub use execute::{Failure, GroupKey};
pub use registry::{registered_contracts, ContractRegistration};
pub use sequence::Sequence;
pub use simplify::Shrink;

use std::marker::PhantomData;
use std::time::Instant;

use regex::Regex;

use crate::api::{Access, Operation, OperationInfo, ParamKind, ReturnKind, StdTraits, Subject};
use crate::beapi::{Progress, Silent};
use crate::sequence::{Call, Literal, Operand, Program};
use crate::ConfigError;
use execute::Executor;
use generate::{Generator, Stop};
use simplify::{Replacement, Simplifier};

/// One failure group: a broken contract after one operation, with the
/// smallest failing sequence found, simplified.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FailureGroup {
    pub contract: String,
    pub operation: String,
    /// Where it panicked, for panics.
    pub location: Option<String>,
    pub message: String,
    /// Failing sequences found in this group.
    pub count: u64,
    /// Calls of the first failing sequence found in this group.
    pub first_calls: usize,
    /// Calls of the smallest failing sequence, before and after simplification.
    pub calls_before: usize,
    pub calls_after: usize,
    /// The simplified sequence as one line, e.g. `s0 = new(); s0.add(1)`.
    pub sequence: String,
    /// Rust statements that fail on the final values (empty for a panic).
    pub assertion: Vec<String>,
    #[serde(skip)]
    pub program: Program,
}

/// A legal sequence and what its calls returned, to be checked again later.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RegressionTest {
    pub sequence: String,
    /// Per call, the `Debug` rendering of its result when it is a value that
    /// renders the same in two executions.
    pub observations: Vec<Option<String>>,
    /// How many of the last calls are observers added to check the final state.
    pub final_observers: usize,
    #[serde(skip)]
    pub program: Program,
}

/// What a random run did and found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RandomReport {
    /// The subject's Rust type.
    pub subject: String,
    pub engine: &'static str,
    pub seed: u64,
    /// New sequences executed.
    pub sequences: u64,
    /// Executed sequences that misused the API.
    pub illegal: u64,
    /// Assembled sequences dropped unexecuted, made before.
    pub redundant: u64,
    pub legal: u64,
    /// Sequences kept in the component set for reuse.
    pub stored: usize,
    pub failure_groups: Vec<FailureGroup>,
    pub regression_tests: Vec<RegressionTest>,
    pub seconds: f64,
    pub sequences_per_second: f64,
    /// `time limit`, `sequence limit`, `stuck` or why it was interrupted.
    pub stopped_by: String,
    pub contracts: Vec<String>,
    pub operations: Vec<OperationInfo>,
}

/// A random run on subject `T`, configured builder-style.
pub struct Random<T: Subject + StdTraits> {
    config: RandomConfig,
    contracts: Vec<Box<dyn Contract<T>>>,
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
        Random { config, contracts, subject: PhantomData }
    }

    pub fn seed(mut self, seed: u64) -> Self {
        self.config.seed = seed;
        self
    }

    pub fn time_limit(mut self, limit: std::time::Duration) -> Self {
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

    pub fn config(&self) -> &RandomConfig {
        &self.config
    }

    pub fn run(self) -> Result<RandomReport, ConfigError> {
        self.run_with_progress(&mut Silent)
    }

    pub fn run_with_progress(self, progress: &mut dyn Progress) -> Result<RandomReport, ConfigError> {
        let config = &self.config;
        config.validate()?;
        let mut ops: Vec<Operation<T>> = T::operations();
        if !ops.iter().any(|op| op.is_constructor()) {
            return Err(ConfigError::SubjectWithoutConstructor);
        }
        let names: Vec<&str> = ops.iter().map(|op| op.name).collect();
        ops.extend(std_ops::std_operations::<T>(&names));
        let misuse = config
            .misuse_panics
            .iter()
            .map(|p| Regex::new(p).map_err(|e| ConfigError::BadPattern { pattern: p.clone(), reason: e.to_string() }))
            .collect::<Result<Vec<_>, _>>()?;
        let traits = T::std_traits();
        let exec = Executor {
            ops: &ops,
            contracts: &self.contracts,
            misuse: &misuse,
            clone: traits.clone,
            checked: Some(Default::default()),
        };
        let started = Instant::now();
        let mut generator = Generator::new(config, exec, traits);
        let stop = generator.run(started, progress);
        let seconds = started.elapsed().as_secs_f64();
        let exec =
            Executor { ops: &ops, contracts: &self.contracts, misuse: &misuse, clone: traits.clone, checked: None };
        progress.message(&format!("simplifying {} failure groups", generator.groups.len()));
        let replacements = replacement_set(&generator);

        let failure_groups = generator
            .groups
            .iter()
            .map(|group| {
                let original = group.smallest.clone();
                let before = original.calls.len();
                let program = if config.simplify {
                    let mut ints = config.ints.clone();
                    ints.sort_by_key(|&v| (v.abs(), v < 0));
                    let simplifier =
                        Simplifier { exec: &exec, target: group.key.clone(), replacements: &replacements, ints };
                    simplifier.simplify(original)
                } else {
                    simplify::renumber(original)
                };
                let replay = exec.replay(&program, false);
                let failure = replay.failure().cloned().unwrap_or_else(|| group.failure.clone());
                let contract = self.contracts.iter().find(|c| c.name() == failure.contract);
                let names: Vec<String> = failure.vars.iter().map(|v| format!("s{v}")).collect();
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                let assertion = match contract {
                    Some(contract) if !names.is_empty() => contract.assertion(&names),
                    _ => Vec::new(),
                };
                FailureGroup {
                    contract: failure.contract.clone(),
                    operation: ops[usize::from(failure.op)].name.to_owned(),
                    location: failure.location.clone(),
                    message: failure.message.clone(),
                    count: group.count,
                    first_calls: group.first_calls,
                    calls_before: before,
                    calls_after: program.calls.len(),
                    sequence: program.to_text(&infos(&ops)),
                    assertion,
                    program,
                }
            })
            .collect();
        let regression_tests = regression_tests(&generator, &exec, &ops);
        let counts = generator.counts;
        Ok(RandomReport {
            subject: std::any::type_name::<T>().to_owned(),
            engine: "random",
            seed: config.seed,
            sequences: counts.executed,
            illegal: counts.illegal,
            redundant: counts.redundant,
            legal: counts.legal,
            stored: generator.components.len(),
            failure_groups,
            regression_tests,
            seconds,
            sequences_per_second: counts.executed as f64 / seconds.max(1e-9),
            stopped_by: match stop {
                Stop::TimeLimit => "time limit".into(),
                Stop::SequenceLimit => "sequence limit".into(),
                Stop::Stuck => "stuck: every sequence it could assemble was made already".into(),
                Stop::Interrupted(why) => why,
            },
            contracts: self.contracts.iter().map(|c| c.name().to_owned()).collect(),
            operations: infos(&ops),
        })
    }
}

fn infos<T>(ops: &[Operation<T>]) -> Vec<OperationInfo> {
    ops.iter().map(|op| op.info()).collect()
}

/// How many stored sequences may serve as replacements, and how long.
const REPLACEMENT_SET_SIZE: usize = 2_000;
const REPLACEMENT_MAX_CALLS: usize = 8;

/// Short stored sequences, shortest and simplest first (§6.1: more general
/// replacements are tried first).
fn replacement_set<T>(generator: &Generator<'_, T>) -> Vec<Replacement> {
    let mut candidates: Vec<(usize, u32, usize)> = generator
        .components
        .iter()
        .enumerate()
        .filter(|(_, c)| c.seq.len() <= REPLACEMENT_MAX_CALLS)
        .map(|(i, c)| (c.seq.len(), literal_weight(&c.seq.flatten()), i))
        .collect();
    candidates.sort_unstable();
    candidates.truncate(REPLACEMENT_SET_SIZE);
    candidates
        .into_iter()
        .map(|(_, _, i)| {
            let component = &generator.components[i];
            Replacement { program: component.seq.flatten(), vars: component.reusable.clone() }
        })
        .collect()
}

/// How far a program's literals are from the simplest ones.
fn literal_weight(program: &Program) -> u32 {
    program
        .calls
        .iter()
        .flat_map(|c| &c.operands)
        .map(|o| match o {
            Operand::Literal(Literal::Int(v)) => v.unsigned_abs().min(1_000) as u32,
            Operand::Literal(_) => 1,
            Operand::Var(_) => 0,
        })
        .sum()
}

/// Appends a call of every observer (`&self`, no other parameter, returning
/// a value, infallible) on every value alive at the end, so that a test
/// also pins down the final state, as Randoop's observer checks do.
fn observe_final_state<T>(program: &mut Program, ops: &[Operation<T>]) {
    let observers: Vec<u16> = ops
        .iter()
        .enumerate()
        .filter(|(_, op)| {
            op.params == [ParamKind::Subject(Access::Ref)] && op.returns == ReturnKind::Value && !op.fallible
        })
        .map(|(i, _)| i as u16)
        .collect();
    let mut alive: Vec<u32> = program.calls.iter().filter_map(|c| c.binds).collect();
    for call in &program.calls {
        for (operand, kind) in call.operands.iter().zip(&ops[usize::from(call.op)].params) {
            if let (Operand::Var(v), ParamKind::Subject(Access::Owned)) = (operand, kind) {
                alive.retain(|a| a != v);
            }
        }
    }
    for var in alive {
        for &op in &observers {
            program.calls.push(Call { op, operands: vec![Operand::Var(var)], binds: None });
        }
    }
}

/// How many times a regression test is executed before its values are
/// trusted. The thesis executes twice; more runs are needed because a
/// small `HashSet` renders in the same order in two runs once in a few
/// (each set gets new hash keys, but few orders are possible).
const EXECUTIONS: usize = 10;

/// The sampled legal sequences, executed [`EXECUTIONS`] times: a rendering
/// that differs between runs, or that shows an address, is not kept as an oracle.
fn regression_tests<T: crate::heap::Heap>(
    generator: &Generator<'_, T>,
    exec: &Executor<'_, T>,
    ops: &[Operation<T>],
) -> Vec<RegressionTest> {
    let infos = infos(ops);
    let address = Regex::new(r"0x[0-9a-fA-F]{4,}").expect("valid regex");
    let mut seen = rustc_hash::FxHashSet::default();
    let mut out = Vec::new();
    for seq in &generator.regression_sample() {
        if !seen.insert(seq.key()) {
            continue;
        }
        let mut program = simplify::renumber(seq.flatten());
        let generated = program.calls.len();
        observe_final_state(&mut program, ops);
        let first = exec.replay(&program, true);
        if first.stopped.is_some() {
            continue; // not deterministic enough to be a test
        }
        let mut observations: Vec<Option<String>> =
            first.rendered.into_iter().map(|r| r.filter(|text| !address.is_match(text))).collect();
        for _ in 1..EXECUTIONS {
            let again = exec.replay(&program, true);
            if again.stopped.is_some() {
                observations.clear();
                break;
            }
            for (kept, seen) in observations.iter_mut().zip(again.rendered) {
                if *kept != seen {
                    *kept = None;
                }
            }
        }
        if observations.iter().all(Option::is_none) {
            continue;
        }
        let final_observers = program.calls.len() - generated;
        out.push(RegressionTest { sequence: program.to_text(&infos), observations, final_observers, program });
    }
    out
}
