//! `smallscope korat`: run Korat on a registered model and report.

use std::sync::Arc;
use std::time::Duration;

use smallscope::events::Stop;
use smallscope::korat::{find_korat_subject, registered_korat_subjects, KoratReport, KoratSettings, Space};
use smallscope::order::KoratOrder;
use smallscope_args::korat::KoratArgs;

use crate::engine_command::EngineCommand;
use crate::run::RunOptions;
use crate::summary::{started_or, KoratSummary, RunFacts};
use crate::writing::OutputFile;
use crate::{program, BadInput};

/// The scope: --scope, else the config file's.
fn scope_of(args: &KoratArgs) -> Result<u32, BadInput> {
    let file_scope = match &args.config {
        Some(path) => smallscope::beapi::ConfigFile::load(path)?.scope,
        None => None,
    };
    let scope = args
        .scope
        .or(file_scope)
        .ok_or_else(|| BadInput("give a scope: --scope N (or `scope = N` in the config file)".into()))?;
    if scope == 0 {
        return Err(BadInput("scope must be at least 1 (got 0)".into()));
    }
    Ok(scope)
}

fn time_limit(args: &KoratArgs) -> Result<Option<Duration>, BadInput> {
    Ok(args.time_limit.as_deref().map(|t| smallscope::parse_duration("--time-limit", t)).transpose()?)
}

/// The candidate space of the Korat model `subject` at `scope`.
pub fn space_at(subject: &str, scope: u32) -> Result<Arc<Space>, BadInput> {
    let registration = find_korat_subject(subject).ok_or_else(|| {
        let known: Vec<&str> = registered_korat_subjects().iter().map(|r| r.name).collect();
        crate::unknown("Korat subject", subject, &known)
    })?;
    (registration.space)(i64::from(scope))
        .map_err(|e| BadInput(format!("finitization of `{subject}` at scope {scope}: {e}")))
}

/// The command that repeats this run (the thread count changes nothing).
fn command(args: &KoratArgs, scope: u32) -> String {
    let mut command = format!("{} korat {} --scope {scope}", program(), args.subject);
    if args.no_eq_pruning {
        command.push_str(" --no-eq-pruning");
    }
    if args.ascending {
        command.push_str(" --ascending");
    }
    command
}

/// `smallscope korat`, made from its arguments.
pub struct KoratCommand<'a> {
    args: &'a KoratArgs,
    order: KoratOrder,
    /// Candidates in the whole space, for the summary.
    space_size: f64,
}

impl<'a> KoratCommand<'a> {
    pub fn new(args: &'a KoratArgs) -> Result<Self, BadInput> {
        let scope = scope_of(args)?;
        let space_size = space_at(&args.subject, scope)?.size();
        let settings = KoratSettings {
            threads: args.threads,
            prune_eq_classes: !args.no_eq_pruning,
            record: args.run.out.is_some(),
            ascending: args.ascending,
            time_limit: time_limit(args)?,
            pictures: args.pictures.drawn(&args.run),
            ..KoratSettings::new(scope)
        };
        let order = KoratOrder { subject: args.subject.clone(), settings, command: Some(command(args, scope)) };
        Ok(KoratCommand { args, order, space_size })
    }
}

/// One line of a Korat run's `structures.jsonl`: a valid candidate.
#[derive(serde::Serialize)]
struct CandidateRecord<'a> {
    index: usize,
    /// Each field's value, by the names in `events.ndjson`'s start (a
    /// reference as its object's index, `null` for null).
    fields: &'a [Option<i64>],
}

impl EngineCommand for KoratCommand<'_> {
    type Args = KoratArgs;
    type Order = KoratOrder;
    type Summary<'a> = KoratSummary<'a>;
    const NAME: &'static str = "korat";

    fn args(&self) -> &KoratArgs {
        self.args
    }
    fn order(&self) -> &KoratOrder {
        &self.order
    }
    fn time_limit(&self) -> Option<Duration> {
        self.order.settings.time_limit
    }
    fn ended(report: &KoratReport) -> (String, Option<Stop>) {
        (report.run.clone(), report.stop)
    }

    fn summarize<'a>(&self, report: &'a KoratReport, run: RunFacts) -> Option<KoratSummary<'a>> {
        let pruned = !self.args.no_eq_pruning && !report.classes.is_empty();
        Some(KoratSummary {
            report: started_or(report, !report.name.is_empty(), |r| r.name = self.args.subject.clone()),
            engine: if pruned { "korat+" } else { "korat" }.into(),
            scope: self.order.settings.scope,
            space_size: self.space_size,
            failures: report.failures.iter().map(|f| f.count).sum(),
            run,
        })
    }

    fn files<'a>(
        &self,
        summary: &KoratSummary<'_>,
        report: &'a KoratReport,
        _: &RunOptions,
    ) -> anyhow::Result<Vec<OutputFile<'a>>> {
        let structures = OutputFile::lines("structures.jsonl", |out| {
            for (index, fields) in report.structures.iter().enumerate() {
                serde_json::to_writer(&mut *out, &CandidateRecord { index, fields })?;
                out.write_all(b"\n")?;
            }
            Ok(())
        });
        Ok(vec![structures, crate::report::Page::korat(summary, report).file()])
    }

    fn text(&self, summary: &KoratSummary<'_>, report: &KoratReport) -> String {
        let mut text = format!(
            "smallscope korat {}: scope {}, {} fields, space of {:.3e} candidates\n",
            summary.report.name,
            summary.scope,
            report.fields.len(),
            summary.space_size
        );
        text.push_str(&format!(
            "total: {} structures, {} candidates explored, {:.3} s ({:.0} candidates/s)",
            report.found,
            report.explored,
            report.seconds,
            report.explored as f64 / report.seconds.max(1e-9)
        ));
        if !report.classes.is_empty() {
            text.push_str(&format!("\nequivalence classes covered: {}", report.classes.len()));
        }
        if summary.run.stop.is_early() {
            text.push_str(&format!("\nstopped early ({}): the search is incomplete", summary.run.stop_text()));
        }
        for note in &report.notes {
            text.push_str(&format!("\nnote: {note}"));
        }
        for (i, failure) in report.failures.iter().enumerate() {
            text.push_str(&format!("\n\nfailure {}: {} ({} candidates)", i + 1, failure.describe(), failure.count));
            text.push_str(&format!("\n  candidate: {}", failure.witness.text));
        }
        crate::run::finish_text(&mut text, &summary.run, None);
        text
    }

    fn found(&self, summary: &KoratSummary<'_>) -> bool {
        !summary.report.failures.is_empty()
    }
}
