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
mod regression;
mod report;
mod sequence;
mod simplify;
mod std_ops;

pub use config::{IndexPruning, RandomConfig, DEFAULT_TIME_LIMIT};
pub use contract::{assert_contract, std_contracts, Contract};
pub use execute::{Failure, GroupKey};
pub use registry::{registered_contracts, ContractRegistration};
pub use report::{FailureGroup, RandomReport, RegressionTest};
pub use sequence::Sequence;

use std::marker::PhantomData;
use std::time::Instant;

use regex::Regex;

use crate::api::{Operation, StdTraits, Subject};
use crate::beapi::{Progress, Silent};
use crate::ConfigError;
use execute::Executor;
use generate::{Generator, Stop};
use simplify::Simplifier;

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
        let exec = Executor::new(&ops, &self.contracts, &misuse, traits.clone);
        let started = Instant::now();
        let mut generator = Generator::new(config, exec.memoized(), traits);
        let stop = generator.run(started, progress);
        let seconds = started.elapsed().as_secs_f64();
        progress.message(&format!("simplifying {} failure groups", generator.groups.len()));
        let replacements = simplify::replacement_set(&generator.components);
        let mut simplest_ints = config.ints.clone();
        simplest_ints.sort_by_key(|&v| (v.abs(), v < 0));

        let failure_groups = generator
            .groups
            .iter()
            .map(|group| {
                let original = group.smallest.clone();
                let before = original.calls.len();
                let program = if config.simplify {
                    let simplifier = Simplifier {
                        exec: &exec,
                        target: group.failure.group_key(),
                        replacements: &replacements,
                        ints: &simplest_ints,
                    };
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
                    sequence: program.to_text(&generator.infos),
                    assertion,
                    program,
                }
            })
            .collect();
        let regression_tests = regression::regression_tests(&generator, &exec);
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
            operations: generator.infos.clone(),
        })
    }
}
