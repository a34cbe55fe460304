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
//! Cost: each level runs every builder on every stored structure made at the
//! level before, times the product of its primitive domains; each run costs
//! one clone, the call, and one linearization per output. Memory holds one
//! fingerprint and one step per structure, plus the values of the newest
//! level. Builders (see [`crate::builders`]) keep the number of operations small.
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
//! // Stacks of length 0..=3 over {0, 1}: 1 + 2 + 4 + 8.
//! let report = Beapi::<Stack>::new().scope(1).ints(0..2).max_length(4).builders(Builders::All).run().unwrap();
//! assert_eq!(report.structure_count(), 15);
//! ```

mod config;
mod engine;
mod report;
mod states;

pub use config::{parse_int_range, BeapiConfig, Builders, BuildersSetting, ConfigFile, StateStorage};
pub use report::{BeapiReport, FailureGroup, FailureKind, LevelStats, Structure};
pub use states::{fingerprint, StateSet};

use std::marker::PhantomData;
use std::ops::ControlFlow;
use std::ops::Range;
use std::time::Duration;

use crate::api::Subject;
use crate::ConfigError;

/// Hears how a long run is going; the CLI draws a progress bar with it.
pub trait Progress {
    fn level_started(&mut self, _level: u32, _frontier: usize) {}
    /// Called every few thousand executions; `Break` stops the run, keeping
    /// what was found (the report says why in `interrupted`).
    fn tick(&mut self, _explored: u64, _structures: usize) -> ControlFlow<String> {
        ControlFlow::Continue(())
    }
    fn level_finished(&mut self, _stats: &LevelStats) {}
    /// A note on what is happening, e.g. that builders are being identified.
    fn message(&mut self, _text: &str) {}
    /// A failure found, described on one line, as soon as it is found.
    fn found(&mut self, _failure: &str) {}
}

/// A [`Progress`] that ignores everything.
pub struct Silent;
impl Progress for Silent {}

/// A BEAPI run on subject `T`, configured builder-style.
pub struct Beapi<T: Subject> {
    config: BeapiConfig,
    subject: PhantomData<fn() -> T>,
}

impl<T: Subject> Default for Beapi<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Subject> Beapi<T> {
    /// Scope 3, integers `0..scope`, builders identified automatically.
    pub fn new() -> Self {
        Self::with_config(BeapiConfig::default())
    }

    pub fn with_config(config: BeapiConfig) -> Self {
        Beapi { config, subject: PhantomData }
    }

    pub fn config(&self) -> &BeapiConfig {
        &self.config
    }

    /// At most `n` objects of each class per structure.
    pub fn scope(mut self, n: u32) -> Self {
        self.config.scope = n;
        self
    }

    /// Integer arguments range over `range` instead of `0..scope`.
    pub fn ints(mut self, range: Range<i64>) -> Self {
        self.config.ints = Some(range);
        self
    }

    pub fn builders(mut self, builders: Builders) -> Self {
        self.config.builders = builders;
        self
    }

    /// Leaves `Class.field` out of the canonical form.
    pub fn omit(mut self, field: &str) -> Self {
        self.config.omit.push(field.to_owned());
        self
    }

    /// Counts panics whose message matches `pattern` (a regex) as misuse.
    pub fn misuse_panic(mut self, pattern: &str) -> Self {
        self.config.misuse_panics.push(pattern.to_owned());
        self
    }

    /// Turns state matching on or off (off needs [`Beapi::max_length`]).
    pub fn state_matching(mut self, on: bool) -> Self {
        self.config.state_matching = on;
        self
    }

    pub fn max_length(mut self, levels: u32) -> Self {
        self.config.max_length = Some(levels);
        self
    }

    pub fn storage(mut self, storage: StateStorage) -> Self {
        self.config.storage = storage;
        self
    }

    pub fn time_limit(mut self, limit: Duration) -> Self {
        self.config.time_limit = Some(limit);
        self
    }

    /// Records each structure's canonical text in the report.
    pub fn record_canonical(mut self, on: bool) -> Self {
        self.config.record_canonical = on;
        self
    }

    pub fn run(&self) -> Result<BeapiReport, ConfigError> {
        self.run_with_progress(&mut Silent)
    }

    pub fn run_with_progress(&self, progress: &mut dyn Progress) -> Result<BeapiReport, ConfigError> {
        self.config.validate()?;
        let mut note = None;
        let builders = match &self.config.builders {
            Builders::All => T::operations().iter().map(|op| op.name.to_owned()).collect(),
            Builders::Named(names) => names.clone(),
            Builders::Auto => {
                let identified = crate::builders::identify_cached::<T>(&self.config, progress)?;
                let origin = if identified.from_cache { "read from the cache" } else { "identified by hill climbing" };
                note = Some(format!(
                    "builders {origin} at scope {} ({} structures there)",
                    identified.scope, identified.structures
                ));
                identified.builders
            }
        };
        let search = engine::Search::<T>::new(&self.config, &builders)?;
        let mut report = search.run(progress);
        report.notes.splice(0..0, note);
        Ok(report)
    }
}
