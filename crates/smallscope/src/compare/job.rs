//! A registered comparison as a [`Job`](crate::runner::Job): its events and
//! the report they fold into.

use super::{CompareOptions, CompareRegistration, CompareSettings, Comparison, Difference, Side};
use crate::runner::JobError;
use crate::ConfigError;
use std::time::Instant;

/// A registered comparison as a [`Job`](crate::runner::Job). A comparison runs whole: it has no
/// commit to resume from, and an attempt that dies starts again.
pub struct CompareJob {
    registration: &'static CompareRegistration,
    settings: CompareSettings,
    options: CompareOptions,
    command: Option<String>,
}

impl CompareJob {
    pub fn new(
        registration: &'static CompareRegistration,
        settings: CompareSettings,
        options: CompareOptions,
        command: Option<String>,
    ) -> Self {
        CompareJob { registration, settings, options, command }
    }
}

/// A comparison's events, folded.
#[derive(Debug, Clone, Default)]
pub struct ComparisonReport {
    pub run: String,
    pub name: String,
    pub comparison: Comparison,
    pub stop: Option<crate::events::Stop>,
}

impl crate::events::Fold for ComparisonReport {
    fn stopped_early(&mut self, stop: crate::events::Stop) {
        self.stop.get_or_insert(stop);
    }

    fn apply(&mut self, event: crate::events::Event) {
        use crate::events::Event;
        match event {
            Event::RunStarted(started) => {
                self.run = started.run;
                self.name = started.subject;
            }
            Event::Difference(difference) => match difference.side {
                Side::OnlyApi => self.comparison.only_api.push(difference.witness),
                Side::OnlyInvariant => self.comparison.only_invariant.push(difference.witness),
            },
            Event::Compared(comparison) => {
                let (only_api, only_invariant) = (
                    std::mem::take(&mut self.comparison.only_api),
                    std::mem::take(&mut self.comparison.only_invariant),
                );
                self.comparison = Comparison { only_api, only_invariant, ..comparison };
            }
            Event::RunFinished(finished) => self.stop = Some(finished.stop),
            _ => {}
        }
    }
}

impl crate::runner::Job for CompareJob {
    type Fold = ComparisonReport;

    fn run(
        &self,
        _start: crate::runner::Start<'_, ComparisonReport>,
        out: &mut dyn crate::events::Sink,
    ) -> Result<(), JobError> {
        use crate::events::{Configuration, Counts, Event, RunFinished, RunStarted, Stop};
        let started = Instant::now();
        let configuration = Configuration::Compare(self.settings.clone());
        out.event(Event::RunStarted(RunStarted::new(
            self.registration.name,
            String::new(),
            configuration,
            self.command.clone(),
        )));
        let mut comparison = (self.registration.run)(self.settings.scope, &self.settings.invariant, &self.options)
            .map_err(|e| ConfigError::Invalid(e.to_string()))?;
        for (side, witnesses) in
            [(Side::OnlyApi, &mut comparison.only_api), (Side::OnlyInvariant, &mut comparison.only_invariant)]
        {
            for (position, witness) in std::mem::take(witnesses).into_iter().enumerate() {
                out.event(Event::Difference(Difference { side, position, witness }));
            }
        }
        let counts = Counts {
            explored: comparison.korat_explored,
            structures: (comparison.api_structures + comparison.invariant_structures) as u64,
            ..Counts::default()
        };
        let stop = if comparison.incomplete { Stop::TimeLimit } else { Stop::Complete };
        out.event(Event::Compared(comparison));
        out.event(Event::RunFinished(RunFinished::new(stop, started.elapsed().as_secs_f64(), counts)));
        Ok(())
    }
}
