//! Generating structures from an API: [`Beapi`], the library's way to run
//! BEAPI, with its builders chosen by [`crate::builders`] (named, the whole
//! API, or identified and cached) before the engine starts. The engine
//! itself ([`crate::beapi`]) takes a list of builders and knows nothing of
//! how it was chosen.

use std::marker::PhantomData;
use std::ops::Range;
use std::sync::Arc;
use std::time::Duration;

use crate::api::{StdTraits, Subject};
use crate::beapi::{BeapiConfig, BeapiJob, BeapiReport, BuilderMethod, Builders, Check, StateStorage};
use crate::runner::{Job, Observer, RunError, DEFAULT_CALL_TIMEOUT};

/// A BEAPI run on subject `T`, configured builder-style.
pub struct Beapi<T: Subject + StdTraits> {
    config: BeapiConfig,
    call_timeout: Option<Duration>,
    subject: PhantomData<fn() -> T>,
}

impl<T: Subject + StdTraits> Default for Beapi<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Subject + StdTraits> Beapi<T> {
    /// Scope 3, integers `0..scope`, builders identified automatically.
    pub fn new() -> Self {
        Self::with_config(BeapiConfig::default())
    }

    pub fn with_config(config: BeapiConfig) -> Self {
        Beapi { config, call_timeout: Some(DEFAULT_CALL_TIMEOUT), subject: PhantomData }
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

    /// Lists for `Vec<u8>` / `&[u8]` parameters hold at most `length`
    /// integers (default 2): every such list is tried.
    pub fn list_length(mut self, length: u32) -> Self {
        self.config.list_length = length;
        self
    }

    pub fn builders(mut self, builders: Builders) -> Self {
        self.config.builders = builders;
        self
    }

    /// Which operations that are not builders are called on every kept
    /// structure to check it (default: [`Check::All`]).
    pub fn check(mut self, check: Check) -> Self {
        self.config.check = check;
        self
    }

    /// At most `length` elements in each collection of a structure
    /// (default: the scope; `u32::MAX` for no bound).
    pub fn collection_length(mut self, length: u32) -> Self {
        self.config.collection_length = Some(length);
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

    /// Draws the first `n` structures, and the input of each failure, into
    /// their events (DOT graphs, for `report.html`).
    pub fn pictures(mut self, n: u32) -> Self {
        self.config.pictures = n;
        self
    }

    /// How `Builders::Auto` identifies builders the cache does not hold
    /// (default: hill climbing).
    pub fn builder_method(mut self, method: BuilderMethod) -> Self {
        self.config.builder_method = method;
        self
    }

    /// Scope used to identify builders (`Builders::Auto`; default 5, and
    /// never more than the run's scope).
    pub fn builder_scope(mut self, n: u32) -> Self {
        self.config.builder_scope = n;
        self
    }

    /// Caches identified builders in `dir`, keyed by the API and settings
    /// (default: no cache in library mode).
    pub fn cache_dir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.config.cache_dir = Some(dir.into());
        self
    }

    /// A call into the subject's code that runs longer than `timeout` is a
    /// `hang` failure, and the run goes on past it (default 10 s; `None`
    /// lets calls run forever).
    pub fn call_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// Runs the search on a thread of its own, watched for calls that do
    /// not return; see [`crate::runner`] for what it survives.
    pub fn run(&self) -> Result<BeapiReport, RunError> {
        self.run_observed(&mut ())
    }

    /// [`Beapi::run`], telling `observer` each commit as it comes.
    pub fn run_observed(&self, observer: &mut dyn Observer) -> Result<BeapiReport, RunError> {
        self.config.validate()?;
        let name = std::any::type_name::<T>().to_owned();
        let job = BeapiJob::<T>::new(self.config.clone(), name, None, crate::builders::resolve::<T>);
        crate::runner::run_in_thread(Arc::new(job) as Arc<dyn Job<Fold = _>>, self.call_timeout, observer)
    }
}
