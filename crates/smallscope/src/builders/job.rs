//! Builders identification as a [`Job`]: what `smallscope builders` runs in
//! a supervised worker (identification runs the subject's code), with its
//! result as one [`Event::Identified`].

use std::marker::PhantomData;
use std::time::Instant;

use super::{identify_cached, Genetic, Identification, IdentifySettings, Method};
use crate::api::{StdTraits, Subject};
use crate::beapi::{BeapiConfig, BuilderMethod};
use crate::events::{Configuration, Counts, Event, Fold, RunFinished, RunStarted, Sink, Stop};
use crate::runner::{Job, JobError, Start};

impl IdentifySettings {
    /// The method, with the seed for the genetic algorithm.
    pub fn method(&self) -> Method {
        match self.method {
            BuilderMethod::HillClimbing => Method::HillClimbing,
            BuilderMethod::Genetic => Method::Genetic(Genetic { seed: self.seed, ..Genetic::default() }),
        }
    }
}

/// An identification's events, folded.
#[derive(Debug, Clone, Default)]
pub struct IdentificationReport {
    pub run: String,
    pub name: String,
    pub identification: Option<Identification>,
    pub stop: Option<Stop>,
}

impl Fold for IdentificationReport {
    fn stopped_early(&mut self, stop: Stop) {
        self.stop.get_or_insert(stop);
    }

    fn apply(&mut self, event: Event) {
        match event {
            Event::RunStarted(started) => {
                self.run = started.run;
                self.name = started.subject;
            }
            Event::Identified(identification) => self.identification = Some(identification),
            Event::RunFinished(finished) => self.stop = Some(finished.stop),
            _ => {}
        }
    }
}

/// Builders identification of `T` as a job. It runs whole: an attempt that
/// dies starts again, stepping past the input that killed it.
pub struct IdentifyJob<T> {
    settings: IdentifySettings,
    name: String,
    command: Option<String>,
    subject: PhantomData<fn() -> T>,
}

impl<T: Subject + StdTraits> IdentifyJob<T> {
    pub fn new(settings: IdentifySettings, name: String, command: Option<String>) -> Self {
        IdentifyJob { settings, name, command, subject: PhantomData }
    }
}

impl<T: Subject + StdTraits> Job for IdentifyJob<T> {
    type Fold = IdentificationReport;

    fn run(&self, start: Start<'_, IdentificationReport>, out: &mut dyn Sink) -> Result<(), JobError> {
        let started = Instant::now();
        let config = &self.settings.beapi;
        config.validate()?;
        let type_name = std::any::type_name::<T>().to_owned();
        let configuration = Configuration::Builders(self.settings.clone());
        out.event(Event::RunStarted(RunStarted {
            operations: T::operations().iter().map(|op| op.info()).collect(),
            ..RunStarted::new(&self.name, type_name, configuration, self.command.clone())
        }));
        let identified = identify_cached::<T>(config, self.settings.method(), start.killed, Some(start.stop))?;
        let mut stop = identified.stopped.unwrap_or(Stop::Complete);
        // The whole API at the same scope, numbered as the scorer numbers it.
        let all: Vec<usize> = (0..T::operations().len()).collect();
        let names: Vec<String> = T::operations().iter().map(|op| op.name.to_owned()).collect();
        let whole = BeapiConfig { scope: identified.scope, graphs: false, ..config.clone() };
        let (api, api_stop) =
            crate::beapi::reach::<T>(&whole, &names, super::run_number(&all), start.killed, Some(start.stop))?;
        if stop == Stop::Complete {
            stop = api_stop;
        }
        let counts = Counts {
            explored: identified.evaluations as u64,
            structures: identified.structures as u64,
            ..Counts::default()
        };
        out.event(Event::Identified(Identification {
            structures_builders: identified.structures,
            structures_api: api.structures,
            seconds: identified.seconds,
            from_cache: identified.from_cache,
            identified,
        }));
        let seconds = started.elapsed().as_secs_f64();
        out.event(Event::RunFinished(RunFinished::new(stop, seconds, counts)));
        Ok(())
    }
}
