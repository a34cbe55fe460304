//! `smallscope korat`: run Korat on a registered model and report.

use std::process::ExitCode;
use std::sync::Arc;

use smallscope::korat::{find_korat_subject, registered_korat_subjects, KoratJob, KoratReport, KoratSettings, Space};
use smallscope::runner::Job;

use crate::beapi_command::Format;
use crate::run::RunOptions;
use crate::summary::KoratSummary;
use crate::{print, program, BadInput, RunArgs};

#[derive(clap::Args)]
pub struct KoratArgs {
    /// A registered Korat subject (see `smallscope list`).
    pub subject: String,
    /// The bound n of the subject's stock finitization `fin(n)`.
    #[arg(long)]
    pub scope: Option<u32>,
    /// A TOML file in the `beapi` format; its `scope` is used when --scope is not given.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// Threads for the search (0: all cores). Results equal the sequential search's.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Plain Korat: record equivalence classes but do not prune on them (Korat+ is the default when the subject has `eq_class`).
    #[arg(long)]
    pub no_eq_pruning: bool,
    /// Stop after this many seconds, keeping what was found (the search is then incomplete).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// How the summary is printed: `text`, or `json` (as `summary.json`).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Send every valid candidate as a structure event, as --out does
    /// (what `suite` runs each size with).
    #[arg(long, hide = true)]
    pub record: bool,
    /// Search sizes 1, 2, …, scope in turn, as one stream (what `suite` runs).
    #[arg(long, hide = true)]
    pub ascending: bool,
    /// With --record, give each structure the canonical text of the API
    /// value it converts to (a `compare` pairing's model; what `suite`
    /// finds tests for).
    #[arg(long, hide = true)]
    pub canonical: bool,
    #[command(flatten)]
    pub pictures: crate::PictureArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

impl KoratArgs {
    fn scope(&self) -> Result<u32, BadInput> {
        let file_scope = match &self.config {
            Some(path) => smallscope::beapi::ConfigFile::load(path)?.scope,
            None => None,
        };
        let scope = self
            .scope
            .or(file_scope)
            .ok_or_else(|| BadInput("give a scope: --scope N (or `scope = N` in the config file)".into()))?;
        if scope == 0 {
            return Err(BadInput("scope must be at least 1 (got 0)".into()));
        }
        Ok(scope)
    }

    fn time_limit(&self) -> Result<Option<std::time::Duration>, BadInput> {
        Ok(self.time_limit.map(|s| smallscope::positive_seconds("--time-limit", s)).transpose()?)
    }

    pub fn space(&self, scope: u32) -> Result<Arc<Space>, BadInput> {
        let registration = find_korat_subject(&self.subject).ok_or_else(|| {
            let known: Vec<&str> = registered_korat_subjects().iter().map(|r| r.name).collect();
            crate::unknown("Korat subject", &self.subject, &known)
        })?;
        (registration.space)(i64::from(scope))
            .map_err(|e| BadInput(format!("finitization of `{}` at scope {scope}: {e}", self.subject)))
    }

    /// The command that repeats this run (the thread count changes nothing).
    fn command(&self, scope: u32) -> String {
        let mut command = format!("{} korat {} --scope {scope}", program(), self.subject);
        if self.no_eq_pruning {
            command.push_str(" --no-eq-pruning");
        }
        command
    }

    /// The run as a job: what the supervisor runs, and its workers.
    pub fn job(&self) -> Result<Arc<dyn Job<Fold = KoratReport>>, BadInput> {
        let scope = self.scope()?;
        let space = self.space(scope)?;
        let registration = find_korat_subject(&self.subject).expect("found by `space`");
        let settings = KoratSettings {
            threads: self.threads,
            prune_eq_classes: !self.no_eq_pruning,
            record: self.run.out.is_some() || self.record,
            canonical: self.canonical,
            time_limit: self.time_limit()?,
            pictures: self.pictures.drawn(&self.run),
            ..KoratSettings::new(scope)
        };
        let (name, invariants, command) =
            (self.subject.clone(), (registration.invariants)(), Some(self.command(scope)));
        if self.ascending {
            let spaces = (1..scope).map(|size| Ok((size, self.space(size)?))).chain([Ok((scope, space))]);
            let spaces = spaces.collect::<Result<Vec<_>, BadInput>>()?;
            return Ok(Arc::new(KoratJob::ascending(name, spaces, invariants, settings, command)));
        }
        Ok(Arc::new(KoratJob::new(name, space, invariants, settings, command)))
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

pub fn run(args: &KoratArgs, options: &RunOptions) -> anyhow::Result<ExitCode> {
    let job = args.job()?;
    let scope = args.scope()?;
    let space_size = args.space(scope)?.size();
    let mut finished = crate::run::run(job, &options.timed(args.time_limit()?))?;
    let report = std::mem::take(&mut finished.fold);
    let stop = finished.stop(report.stop);
    let pruned = !args.no_eq_pruning && !report.classes.is_empty();
    let facts = finished.facts(report.run.clone(), stop, args.command(scope));
    let summary = KoratSummary {
        subject: args.subject.clone(),
        type_name: report.model.clone(),
        engine: if pruned { "korat+" } else { "korat" }.into(),
        scope,
        structures: report.found,
        explored: report.explored,
        seconds: report.seconds,
        space_size,
        classes: report.classes.len(),
        failures: report.failures.iter().map(|f| f.count).sum(),
        failure_groups: report.failures.clone(),
        notes: report.notes.clone(),
        run: facts,
    };
    let mut files = Vec::new();
    if args.run.out.is_some() {
        files.push(crate::writing::OutputFile::lines("structures.jsonl", |out| {
            for (index, fields) in report.structures.iter().enumerate() {
                serde_json::to_writer(&mut *out, &CandidateRecord { index, fields })?;
                out.write_all(b"\n")?;
            }
            Ok(())
        }));
        files.push(crate::report::Page::korat(&summary, &report).file());
    }
    let summary = finished.write(&args.run, files, summary, |s| &mut s.run)?;
    match args.format {
        Format::Json => print(serde_json::to_string(&summary)?)?,
        Format::Text => {
            let mut text = format!(
                "smallscope korat {}: scope {}, {} fields, space of {:.3e} candidates\n",
                summary.subject,
                summary.scope,
                report.fields.len(),
                summary.space_size
            );
            text.push_str(&format!(
                "total: {} structures, {} candidates explored, {:.3} s ({:.0} candidates/s)",
                summary.structures,
                summary.explored,
                summary.seconds,
                summary.explored as f64 / summary.seconds.max(1e-9)
            ));
            if summary.classes > 0 {
                text.push_str(&format!("\nequivalence classes covered: {}", summary.classes));
            }
            if summary.run.stop.is_early() {
                text.push_str(&format!("\nstopped early ({}): the search is incomplete", summary.run.stop_text()));
            }
            for note in &summary.notes {
                text.push_str(&format!("\nnote: {note}"));
            }
            for (i, failure) in summary.failure_groups.iter().enumerate() {
                text.push_str(&format!("\n\nfailure {}: {} ({} candidates)", i + 1, failure.describe(), failure.count));
                text.push_str(&format!("\n  candidate: {}", failure.witness.text));
            }
            crate::run::finish_text(&mut text, &summary.run, None);
            print(text)?;
        }
    }
    Ok(finished.exit_code(!summary.failure_groups.is_empty()))
}
