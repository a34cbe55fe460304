//! A run as data: the job a supervisor hands its workers.
//!
//! A [`JobOrder`] names the registered subject and holds every setting the
//! engine runs with; it serializes (serde) whole, so a worker process reads
//! it from a file and never parses a command line, and `suite` composes
//! runs as orders. [`Order::job`] turns an order back into the engine's
//! [`Job`] in the process that runs it: user types cannot cross a process
//! boundary, their registered names can.
//!
//! The events' record of a run's settings (`run_started`) leaves out what
//! does not change what a run finds (the builders cache, Korat's threads and
//! time limit); an order keeps those too.
//!
//! ```
//! use smallscope::order::{BeapiOrder, JobOrder};
//! let order = BeapiOrder {
//!     subject: "bst".into(),
//!     config: smallscope::BeapiConfig { scope: 2, ..Default::default() },
//!     command: None,
//! };
//! let text = serde_json::to_string(&JobOrder::from(order.clone())).unwrap();
//! assert_eq!(serde_json::from_str::<JobOrder>(&text).unwrap(), JobOrder::Beapi(order));
//! ```
//!
//! This module is at the top of the library: it names every engine, and
//! nothing below it names it.

use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::beapi::{BeapiConfig, BeapiReport};
use crate::builders::{IdentificationReport, IdentifySettings};
use crate::compare::{find_comparison, CompareJob, CompareOptions, CompareSettings, ComparisonReport};
use crate::events::{Event, Fold};
use crate::korat::{find_korat_subject, Arrivals, KoratJob, KoratReport, KoratSettings};
use crate::random::{RandomConfig, RandomReport};
use crate::runner::{Job, Share};
use crate::ConfigError;

/// Any engine's run, as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "engine", rename_all = "snake_case")]
pub enum JobOrder {
    Beapi(BeapiOrder),
    Korat(KoratOrder),
    Random(RandomOrder),
    Compare(CompareOrder),
    Builders(BuildersOrder),
}

/// An order of one engine: what its run folds into, and how to make the job.
pub trait Order: Clone + Into<JobOrder> + Send {
    type Fold: Fold + Clone + Send + 'static;
    /// The engine's job, in this process.
    fn job(&self) -> Result<Arc<dyn Job<Fold = Self::Fold>>, ConfigError>;
    /// The command that repeats the run, when the order came from one.
    fn command(&self) -> Option<&str>;
    /// The run of one process of a cluster: `share` of the work on
    /// `workers` threads, reported for process 0 to join; `None` when the
    /// engine has no cluster mode, an error when the order cannot be shared.
    fn share(&self, _share: Share, _workers: usize) -> Result<Option<Self>, ConfigError> {
        Ok(None)
    }
    /// Process 0's job in a cluster: it folds the shares' reports, arriving
    /// as events on `arrivals`, into the run's events, as one process's run
    /// would have made them.
    fn joining(
        &self,
        _arrivals: mpsc::Receiver<Event>,
    ) -> Result<Option<Arc<dyn Job<Fold = Self::Fold>>>, ConfigError> {
        Ok(None)
    }
}

/// A BEAPI run of the subject registered as `subject`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "BeapiWire", from = "BeapiWire")]
pub struct BeapiOrder {
    pub subject: String,
    pub config: BeapiConfig,
    /// The command that repeats the run (the job adds `--builders`).
    pub command: Option<String>,
}

/// A Korat run of the model registered as `subject`, at `settings.scope`
/// (each size up to it in turn when `settings.ascending`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "KoratWire", from = "KoratWire")]
pub struct KoratOrder {
    pub subject: String,
    pub settings: KoratSettings,
    pub command: Option<String>,
}

/// A random run of the subject registered as `subject`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "RandomWire", from = "RandomWire")]
pub struct RandomOrder {
    pub subject: String,
    pub config: RandomConfig,
    pub command: Option<String>,
}

/// A comparison of the pairing registered as `subject`, at `scope`, with `invariant`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareOrder {
    pub subject: String,
    pub scope: u32,
    pub invariant: String,
    pub options: CompareOptions,
    pub command: Option<String>,
}

/// Builders identification of the subject registered as `subject`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "BuildersWire", from = "BuildersWire")]
pub struct BuildersOrder {
    pub subject: String,
    pub settings: IdentifySettings,
    pub command: Option<String>,
}

/// The registered API subject `name`.
fn subject(name: &str) -> Result<&'static crate::api::Registration, ConfigError> {
    crate::api::find_subject(name).ok_or_else(|| ConfigError::Invalid(format!("no subject registered as `{name}`")))
}

impl Order for BeapiOrder {
    type Fold = BeapiReport;
    fn command(&self) -> Option<&str> {
        self.command.as_deref()
    }
    fn job(&self) -> Result<Arc<dyn Job<Fold = BeapiReport>>, ConfigError> {
        let subject = subject(&self.subject)?.subject();
        Ok(subject.beapi(self.config.clone(), self.subject.clone(), self.command.clone()))
    }
}

impl Order for KoratOrder {
    type Fold = KoratReport;
    fn command(&self) -> Option<&str> {
        self.command.as_deref()
    }
    fn job(&self) -> Result<Arc<dyn Job<Fold = KoratReport>>, ConfigError> {
        Ok(Arc::new(self.korat_job()?))
    }
    fn share(&self, share: Share, workers: usize) -> Result<Option<Self>, ConfigError> {
        let settings = KoratSettings { share: Some(share), threads: workers, ..self.settings.clone() };
        Ok(Some(KoratOrder { settings, ..self.clone() }))
    }
    fn joining(
        &self,
        arrivals: mpsc::Receiver<Event>,
    ) -> Result<Option<Arc<dyn Job<Fold = KoratReport>>>, ConfigError> {
        Ok(Some(Arc::new(self.korat_job()?.joining(Arrivals::new(arrivals)))))
    }
}

impl KoratOrder {
    fn korat_job(&self) -> Result<KoratJob, ConfigError> {
        let name = &self.subject;
        let registration = find_korat_subject(name)
            .ok_or_else(|| ConfigError::Invalid(format!("no Korat model registered as `{name}`")))?;
        let space = |size: u32| {
            (registration.space)(i64::from(size))
                .map_err(|e| ConfigError::Invalid(format!("finitization of `{name}` at scope {size}: {e}")))
        };
        let scope = self.settings.scope;
        let sizes = if self.settings.ascending { 1..=scope } else { scope..=scope };
        let spaces = sizes.map(|size| Ok((size, space(size)?))).collect::<Result<Vec<_>, ConfigError>>()?;
        let (settings, command, invariants) =
            (self.settings.clone(), self.command.clone(), (registration.invariants)());
        Ok(match self.settings.ascending {
            true => KoratJob::ascending(name.clone(), spaces, invariants, settings, command),
            false => {
                let (_, space) = spaces.into_iter().next().expect("one size");
                KoratJob::new(name.clone(), space, invariants, settings, command)
            }
        })
    }
}

impl Order for RandomOrder {
    type Fold = RandomReport;
    fn command(&self) -> Option<&str> {
        self.command.as_deref()
    }
    fn job(&self) -> Result<Arc<dyn Job<Fold = RandomReport>>, ConfigError> {
        let subject = subject(&self.subject)?.subject();
        Ok(subject.random(self.config.clone(), self.subject.clone(), self.command.clone(), None))
    }
    /// The streams `share` holds, one after another (`workers` is for Korat's parts).
    fn share(&self, share: Share, _workers: usize) -> Result<Option<Self>, ConfigError> {
        if self.config.streams < share.count {
            return Err(ConfigError::Invalid(format!(
                "a random run on {} processes is shared out by streams: give --streams {0} or more (one process \
                 with the same --streams writes the same files)",
                share.count
            )));
        }
        let config = RandomConfig { share: Some(share), ..self.config.clone() };
        Ok(Some(RandomOrder { config, ..self.clone() }))
    }
    fn joining(
        &self,
        arrivals: mpsc::Receiver<Event>,
    ) -> Result<Option<Arc<dyn Job<Fold = RandomReport>>>, ConfigError> {
        let subject = subject(&self.subject)?.subject();
        Ok(Some(subject.random(self.config.clone(), self.subject.clone(), self.command.clone(), Some(arrivals))))
    }
}

impl CompareOrder {
    /// The settings the comparison records.
    pub fn settings(&self) -> CompareSettings {
        CompareSettings::new(self.scope, self.invariant.clone(), &self.options)
    }
}

impl Order for CompareOrder {
    type Fold = ComparisonReport;
    fn command(&self) -> Option<&str> {
        self.command.as_deref()
    }
    fn job(&self) -> Result<Arc<dyn Job<Fold = ComparisonReport>>, ConfigError> {
        let registration = find_comparison(&self.subject)
            .ok_or_else(|| ConfigError::Invalid(format!("no comparison registered as `{}`", self.subject)))?;
        Ok(Arc::new(CompareJob::new(registration, self.settings(), self.options.clone(), self.command.clone())))
    }
}

impl Order for BuildersOrder {
    type Fold = IdentificationReport;
    fn command(&self) -> Option<&str> {
        self.command.as_deref()
    }
    fn job(&self) -> Result<Arc<dyn Job<Fold = IdentificationReport>>, ConfigError> {
        let subject = subject(&self.subject)?.subject();
        Ok(subject.builders(self.settings.clone(), self.subject.clone(), self.command.clone()))
    }
}

macro_rules! into_job_order {
    ($($order:ident => $variant:ident),*) => {$(
        impl From<$order> for JobOrder {
            fn from(order: $order) -> JobOrder {
                JobOrder::$variant(order)
            }
        }
    )*};
}
into_job_order!(BeapiOrder => Beapi, KoratOrder => Korat, RandomOrder => Random, CompareOrder => Compare,
    BuildersOrder => Builders);

/// A BEAPI order as written: the recorded config and the builders cache it leaves out.
#[derive(Serialize, Deserialize)]
struct BeapiWire {
    subject: String,
    config: BeapiConfig,
    cache_dir: Option<PathBuf>,
    command: Option<String>,
}

impl From<BeapiOrder> for BeapiWire {
    fn from(order: BeapiOrder) -> Self {
        let cache_dir = order.config.cache_dir.clone();
        BeapiWire { subject: order.subject, config: order.config, cache_dir, command: order.command }
    }
}

impl From<BeapiWire> for BeapiOrder {
    fn from(wire: BeapiWire) -> Self {
        let config = BeapiConfig { cache_dir: wire.cache_dir, ..wire.config };
        BeapiOrder { subject: wire.subject, config, command: wire.command }
    }
}

/// A Korat order as written: the recorded settings and the thread count and
/// time limit they leave out.
#[derive(Serialize, Deserialize)]
struct KoratWire {
    subject: String,
    settings: KoratSettings,
    threads: usize,
    time_limit: Option<Duration>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    share: Option<crate::runner::Share>,
    command: Option<String>,
}

impl From<KoratOrder> for KoratWire {
    fn from(order: KoratOrder) -> Self {
        let (threads, time_limit, share) = (order.settings.threads, order.settings.time_limit, order.settings.share);
        KoratWire {
            subject: order.subject,
            settings: order.settings,
            threads,
            time_limit,
            share,
            command: order.command,
        }
    }
}

impl From<KoratWire> for KoratOrder {
    fn from(wire: KoratWire) -> Self {
        let settings =
            KoratSettings { threads: wire.threads, time_limit: wire.time_limit, share: wire.share, ..wire.settings };
        KoratOrder { subject: wire.subject, settings, command: wire.command }
    }
}

/// A random order as written: the recorded config and the share it leaves out.
#[derive(Serialize, Deserialize)]
struct RandomWire {
    subject: String,
    config: RandomConfig,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    share: Option<crate::runner::Share>,
    command: Option<String>,
}

impl From<RandomOrder> for RandomWire {
    fn from(order: RandomOrder) -> Self {
        let share = order.config.share;
        RandomWire { subject: order.subject, config: order.config, share, command: order.command }
    }
}

impl From<RandomWire> for RandomOrder {
    fn from(wire: RandomWire) -> Self {
        let config = RandomConfig { share: wire.share, ..wire.config };
        RandomOrder { subject: wire.subject, config, command: wire.command }
    }
}

/// A builders order as written: the settings and the builders cache they leave out.
#[derive(Serialize, Deserialize)]
struct BuildersWire {
    subject: String,
    settings: IdentifySettings,
    cache_dir: Option<PathBuf>,
    command: Option<String>,
}

impl From<BuildersOrder> for BuildersWire {
    fn from(order: BuildersOrder) -> Self {
        let cache_dir = order.settings.beapi.cache_dir.clone();
        BuildersWire { subject: order.subject, settings: order.settings, cache_dir, command: order.command }
    }
}

impl From<BuildersWire> for BuildersOrder {
    fn from(wire: BuildersWire) -> Self {
        let mut settings = wire.settings;
        settings.beapi.cache_dir = wire.cache_dir;
        BuildersOrder { subject: wire.subject, settings, command: wire.command }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(order: JobOrder) {
        let text = serde_json::to_string(&order).unwrap();
        assert_eq!(serde_json::from_str::<JobOrder>(&text).unwrap(), order, "{text}");
    }

    /// Every setting survives the file, those the events leave out too.
    #[test]
    fn orders_cross_a_file_whole() {
        let cache_dir = Some(PathBuf::from("/tmp/cache"));
        let config = BeapiConfig { scope: 4, cache_dir: cache_dir.clone(), ..BeapiConfig::default() };
        round_trip(BeapiOrder { subject: "bst".into(), config: config.clone(), command: Some("x".into()) }.into());
        let settings = KoratSettings {
            threads: 3,
            time_limit: Some(Duration::from_millis(1500)),
            ascending: true,
            ..KoratSettings::new(5)
        };
        round_trip(KoratOrder { subject: "binary-tree".into(), settings, command: None }.into());
        let config = RandomConfig { seed: 9, sequence_limit: Some(10), ..RandomConfig::default() };
        round_trip(RandomOrder { subject: "dll".into(), config, command: None }.into());
        let options = CompareOptions { cache_dir, time_limit: Some(Duration::from_secs(2)), ..Default::default() };
        let (scope, invariant) = (3, "rep_ok".to_owned());
        round_trip(CompareOrder { subject: "bst".into(), scope, invariant, options, command: None }.into());
        let settings = IdentifySettings { beapi: config_with_cache(), method: Default::default(), seed: 4 };
        round_trip(BuildersOrder { subject: "bst".into(), settings, command: None }.into());
    }

    fn config_with_cache() -> BeapiConfig {
        BeapiConfig { cache_dir: Some(PathBuf::from("cache")), ..BeapiConfig::default() }
    }

    /// An order for a name nothing registered says so.
    #[test]
    fn unknown_subjects_are_errors() {
        let order = RandomOrder { subject: "no-such".into(), config: RandomConfig::default(), command: None };
        let error = order.job().err().expect("no such subject").to_string();
        assert!(error.contains("no-such"), "{error}");
    }
}
