//! Subjects registered with `#[smallscope::api]`, found at run time through `inventory`.

use std::marker::PhantomData;
use std::sync::{mpsc, Arc};

use super::{OperationInfo, StdTraits, Subject};
use crate::beapi::{BeapiConfig, BeapiJob, BeapiReport};
use crate::builders::{IdentificationReport, IdentifyJob, IdentifySettings};
use crate::events::Event;
use crate::heap::Schema;
use crate::random::{RandomConfig, RandomJob, RandomReport};
use crate::runner::Job;

/// One registered subject: a name and a way to reach its type-erased engines.
pub struct Registration {
    pub name: &'static str,
    handle: fn() -> Box<dyn ErasedSubject>,
}

impl Registration {
    /// Registers `T` under `name`; used by `#[smallscope::api]`.
    pub const fn new<T: Subject + StdTraits>(name: &'static str) -> Self {
        Registration { name, handle: erase::<T> }
    }

    pub fn subject(&self) -> Box<dyn ErasedSubject> {
        (self.handle)()
    }
}

inventory::collect!(Registration);

fn erase<T: Subject + StdTraits>() -> Box<dyn ErasedSubject> {
    Box::new(SubjectHandle::<T>(PhantomData))
}

/// A subject's engines, callable without naming its type.
pub trait ErasedSubject {
    /// The Rust path of the type, e.g. `my_crate::list::List`.
    fn type_name(&self) -> &'static str;
    fn operations(&self) -> Vec<OperationInfo>;
    fn schema(&self) -> Schema;
    fn has_rep_ok(&self) -> bool;
    /// A BEAPI run of the subject registered as `name`; `command` reproduces it.
    fn beapi(&self, config: BeapiConfig, name: String, command: Option<String>) -> Arc<dyn Job<Fold = BeapiReport>>;
    /// A random run with the standard and the registered contracts; with
    /// `arrivals`, a cluster's process 0, which merges the streams' records.
    fn random(
        &self,
        config: RandomConfig,
        name: String,
        command: Option<String>,
        arrivals: Option<mpsc::Receiver<Event>>,
    ) -> Arc<dyn Job<Fold = RandomReport>>;
    /// Builders identification (`smallscope builders`).
    fn builders(
        &self,
        settings: IdentifySettings,
        name: String,
        command: Option<String>,
    ) -> Arc<dyn Job<Fold = IdentificationReport>>;
}

/// The [`ErasedSubject`] of `T`.
pub struct SubjectHandle<T>(PhantomData<fn() -> T>);

impl<T: Subject> SubjectHandle<T> {
    pub fn new() -> Self {
        SubjectHandle(PhantomData)
    }
}

impl<T: Subject> Default for SubjectHandle<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Subject + StdTraits> ErasedSubject for SubjectHandle<T> {
    fn type_name(&self) -> &'static str {
        std::any::type_name::<T>()
    }
    fn operations(&self) -> Vec<OperationInfo> {
        T::operations().iter().map(|op| op.info()).collect()
    }
    fn schema(&self) -> Schema {
        Schema::of::<T>()
    }
    fn has_rep_ok(&self) -> bool {
        T::HAS_REP_OK
    }
    fn beapi(&self, config: BeapiConfig, name: String, command: Option<String>) -> Arc<dyn Job<Fold = BeapiReport>> {
        Arc::new(BeapiJob::<T>::new(config, name, command, crate::builders::resolve::<T>))
    }
    fn random(
        &self,
        config: RandomConfig,
        name: String,
        command: Option<String>,
        arrivals: Option<mpsc::Receiver<Event>>,
    ) -> Arc<dyn Job<Fold = RandomReport>> {
        let job = RandomJob::<T>::new(config, name, command);
        Arc::new(match arrivals {
            Some(arrivals) => job.joining(arrivals),
            None => job,
        })
    }
    fn builders(
        &self,
        settings: IdentifySettings,
        name: String,
        command: Option<String>,
    ) -> Arc<dyn Job<Fold = IdentificationReport>> {
        Arc::new(IdentifyJob::<T>::new(settings, name, command))
    }
}

/// Every registered subject, sorted by name.
pub fn registered_subjects() -> Vec<&'static Registration> {
    let mut all: Vec<_> = inventory::iter::<Registration>.into_iter().collect();
    all.sort_by_key(|r| r.name);
    all
}

/// The subject registered as `name`.
pub fn find_subject(name: &str) -> Option<&'static Registration> {
    inventory::iter::<Registration>.into_iter().find(|r| r.name == name)
}
