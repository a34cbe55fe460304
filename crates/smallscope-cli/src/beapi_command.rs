//! `smallscope beapi`: run BEAPI on a registered subject and report.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use smallscope::beapi::{parse_int_range, BeapiConfig, BeapiReport, ConfigFile, StateStorage};
use smallscope::emit::{rust_failing_tests, rust_tests, write_jsonl, RustTestOptions, Witnesses};
use smallscope::events::Stop;
use smallscope::runner::Job;

use crate::run::RunOptions;
use crate::summary::{BeapiSummary, OperationUse, Role};
use crate::test_files::TestFiles;
use crate::writing::OutputFile;
use crate::{find_subject, print, program, BadInput, RunArgs};

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(clap::Args)]
pub struct BeapiArgs {
    /// A registered subject (see `smallscope list`).
    pub subject: String,
    /// At most N objects of each class per structure (root and header nodes count).
    #[arg(long)]
    pub scope: Option<u32>,
    /// Integer arguments, `A..B` with B excluded (default `0..scope`).
    #[arg(long, value_name = "A..B", allow_hyphen_values = true)]
    pub ints: Option<String>,
    /// A TOML file with any of the settings; flags override it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// `auto` (cached, else identified with --builder-method), `all`, or method names separated by commas.
    #[arg(long, value_name = "auto|all|m1,m2")]
    pub builders: Option<String>,
    /// Operations called on every structure to check it (rep_ok and panics after each call),
    /// besides the builders: `all` (every one that is not a builder), `none`, or method names.
    #[arg(long, value_name = "all|none|m1,m2")]
    pub check: Option<String>,
    /// How the summary is printed: `text`, or `json` (as `summary.json`).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// String arguments, separated by commas.
    #[arg(long, value_delimiter = ',')]
    pub strings: Option<Vec<String>>,
    /// Leave `Class.field` out of the canonical form (repeatable).
    #[arg(long = "omit", value_name = "CLASS.FIELD")]
    pub omit: Vec<String>,
    /// Count panics whose message matches REGEX as misuse (repeatable).
    #[arg(long = "misuse-panic", value_name = "REGEX")]
    pub misuse_panics: Vec<String>,
    /// Scope used to identify builders.
    #[arg(long)]
    pub builder_scope: Option<u32>,
    /// How `--builders auto` identifies builders the cache does not hold: `hc` (hill climbing,
    /// the default) or `ga` (the genetic algorithm, for rich APIs).
    #[arg(long, value_name = "hc|ga")]
    pub builder_method: Option<String>,
    /// Keep every sequence, not only those that make new structures (needs --max-length).
    #[arg(long)]
    pub no_state_matching: bool,
    #[command(flatten)]
    pub bounds: crate::bounds::SearchBounds,
    /// Store whole canonical forms instead of 128-bit fingerprints.
    #[arg(long)]
    pub exact: bool,
    /// Stop after this many seconds, keeping what was found.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    #[command(flatten)]
    pub tests: TestFiles,
    #[command(flatten)]
    pub pictures: crate::PictureArgs,
    /// At most this many structure tests in --emit-tests.
    #[arg(long)]
    pub max_tests: Option<usize>,
    #[command(flatten)]
    pub cache: crate::CacheArgs,
    /// Send each structure's object graph and canonical text in its event
    /// (what `suite` runs each scope with).
    #[arg(long, hide = true)]
    pub field_graphs: bool,
    /// Send each structure's canonical text in its event (what `suite`
    /// matches a Korat suite's structures with).
    #[arg(long, hide = true)]
    pub canonical: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

impl BeapiArgs {
    /// Defaults, then the config file, then flags.
    fn config(&self) -> Result<BeapiConfig, BadInput> {
        let mut config = BeapiConfig::default();
        let mut scope_given = false;
        if let Some(path) = &self.config {
            let file = ConfigFile::load(path)?;
            scope_given = file.scope.is_some();
            file.apply(&mut config)?;
        }
        if let Some(scope) = self.scope {
            config.scope = scope;
            scope_given = true;
        }
        if !scope_given {
            return Err(BadInput("give a scope: --scope N (or `scope = N` in the config file)".into()));
        }
        if let Some(ints) = &self.ints {
            config.ints = Some(parse_int_range(ints)?);
        }
        if let Some(builders) = &self.builders {
            config.builders = builders.parse()?;
        }
        if let Some(check) = &self.check {
            config.check = check.parse()?;
        }
        if let Some(strings) = &self.strings {
            config.strings = strings.clone();
        }
        self.bounds.apply(&mut config)?;
        config.omit.extend(self.omit.iter().cloned());
        config.misuse_panics.extend(self.misuse_panics.iter().cloned());
        if let Some(scope) = self.builder_scope {
            config.builder_scope = scope;
        }
        if let Some(method) = &self.builder_method {
            config.builder_method = method.parse()?;
        }
        if self.no_state_matching {
            config.state_matching = false;
        }
        if self.exact {
            config.storage = StateStorage::Exact;
        }
        if let Some(seconds) = self.time_limit {
            config.time_limit = Some(smallscope::positive_seconds("--time-limit", seconds)?);
        }
        config.cache_dir = self.cache.dir();
        config.record_canonical = self.run.out.is_some() || self.tests.any() || self.field_graphs || self.canonical;
        config.graphs = self.field_graphs;
        config.pictures = self.pictures.drawn(&self.run);
        config.validate()?;
        Ok(config)
    }

    /// The command that repeats this run; the job adds `--builders`.
    fn command(&self, config: &BeapiConfig) -> String {
        let mut command = format!("{} beapi {} --scope {}", program(), self.subject, config.scope);
        if let Some(ints) = &self.ints {
            command.push_str(&format!(" --ints={ints}"));
        }
        if let Some(config) = &self.config {
            command.push_str(&format!(" --config {}", config.display()));
        }
        if let Some(strings) = &self.strings {
            command.push_str(&format!(" --strings {}", strings.join(",")));
        }
        if let Some(check) = &self.check {
            command.push_str(&format!(" --check {check}"));
        }
        for flag in self.bounds.flags() {
            command.push_str(&format!(" {flag}"));
        }
        for field in &self.omit {
            command.push_str(&format!(" --omit {field}"));
        }
        for pattern in &self.misuse_panics {
            command.push_str(&format!(" --misuse-panic {pattern:?}"));
        }
        if self.no_state_matching {
            command.push_str(" --no-state-matching");
        }
        command
    }

    /// The run as a job: what the supervisor runs, and its workers.
    pub fn job(&self) -> Result<Arc<dyn Job<Fold = BeapiReport>>, BadInput> {
        let registration = find_subject(&self.subject)?;
        let config = self.config()?;
        let command = self.command(&config);
        Ok(registration.subject().beapi(config, self.subject.clone(), Some(command)))
    }
}

pub fn run(args: &BeapiArgs, options: &RunOptions) -> anyhow::Result<ExitCode> {
    args.tests.check()?;
    let job = args.job()?;
    let subject = find_subject(&args.subject)?.subject();
    let options = options.timed(args.config()?.time_limit);
    let mut finished = crate::run::run(job, &options)?;
    let report = &std::mem::take(&mut finished.fold);
    let stop = finished.stop(report.stop);
    let replay = match report.command.clone() {
        Some(command) => command,
        None => args.command(&args.config()?),
    };
    let facts = finished.facts(report.run.clone(), stop, replay.clone());
    let summary = BeapiSummary {
        subject: args.subject.clone(),
        type_name: report.subject.clone(),
        engine: "beapi".into(),
        scope: report.scope,
        builders: report.builders.clone(),
        checked: report.checked.clone(),
        structures: report.structure_count(),
        explored: report.explored,
        checked_calls: report.checked_calls,
        operations: crate::summary::OperationUse::of(report),
        misuses: report.misuses,
        out_of_scope: report.out_of_scope,
        failures: report.failure_count(),
        failure_groups: report.failures.clone(),
        levels: report.levels.clone(),
        seconds: report.seconds,
        timed_out: stop == Stop::TimeLimit,
        notes: report.notes.clone(),
        run: facts,
    };
    let mut files = Vec::new();
    if args.run.out.is_some() {
        files.push(OutputFile::lines("structures.jsonl", |out| write_jsonl(report, out)));
        files.push(crate::report::Page::beapi(&summary, report).file());
    }
    let summary = finished.write(&args.run, files, summary, |s| &mut s.run)?;
    let options = RustTestOptions {
        command: args.tests.regenerate(&replay),
        omit: report.config.as_ref().map(|c| c.omit.clone()).unwrap_or_default(),
        has_rep_ok: subject.has_rep_ok(),
        max_tests: args.max_tests,
        witnesses: match args.tests.emit_failing_tests {
            Some(_) => Witnesses::Apart,
            None => Witnesses::Ignored,
        },
        hang_seconds: options.hang_seconds(),
        ..RustTestOptions::default()
    };
    finished.write_more("tests", || {
        args.tests.write(
            summary.run.stop,
            || rust_tests(report, &options),
            || rust_failing_tests(report, &options, args.tests.ignore_failing_tests),
        )
    })?;
    match args.format {
        Format::Json => print(serde_json::to_string(&summary)?)?,
        Format::Text => print_text(&summary)?,
    }
    Ok(finished.exit_code(!report.failures.is_empty()))
}

fn print_text(summary: &BeapiSummary) -> anyhow::Result<()> {
    let mut text = format!(
        "smallscope beapi {}: scope {}, builders {}\n",
        summary.subject,
        summary.scope,
        summary.builders.join(", ")
    );
    let of_role = |role: Role| summary.operations.iter().filter(move |op| op.role == role);
    let checked: Vec<String> = of_role(Role::Checked).map(OperationUse::describe).collect();
    if !checked.is_empty() {
        text.push_str(&format!("checked on every structure: {}\n", checked.join(", ")));
    }
    let not_called: Vec<&str> = of_role(Role::NotCalled).map(|op| op.name.as_str()).collect();
    if !not_called.is_empty() {
        text.push_str(&format!("never called, so not tested: {} (--check all calls them)\n", not_called.join(", ")));
    }
    let checks = summary.checked_calls > 0;
    let (head, row) = if checks { ("checked", 14) } else { ("", 0) };
    text.push_str(&format!("{:>6} {:>14} {:>14} {head:>row$} {:>10}\n", "level", "structures", "explored", "seconds"));
    for level in &summary.levels {
        let checked = if checks { level.checked.to_string() } else { String::new() };
        text.push_str(&format!(
            "{:>6} {:>14} {:>14} {checked:>row$} {:>10.3}\n",
            level.level, level.structures, level.explored, level.seconds
        ));
    }
    let memory = summary
        .run
        .peak_memory_bytes
        .map(|b| format!(", peak memory {:.1} MiB", b as f64 / (1024.0 * 1024.0)))
        .unwrap_or_default();
    let checked = if checks { format!(", {} checked calls", summary.checked_calls) } else { String::new() };
    text.push_str(&format!(
        "total: {} structures, {} sequences explored{checked} ({} misuse, {} out of scope), {} failures, {:.3} s{memory}",
        summary.structures, summary.explored, summary.misuses, summary.out_of_scope, summary.failures, summary.seconds
    ));
    if summary.run.stop.is_early() {
        text.push_str(&format!("\nstopped early ({}): the last level is incomplete", summary.run.stop_text()));
    }
    for note in &summary.notes {
        text.push_str(&format!("\nnote: {note}"));
    }
    for (i, failure) in summary.failure_groups.iter().enumerate() {
        text.push_str(&format!("\n\nfailure {}: {} ({} sequences)", i + 1, failure.describe(), failure.count));
        text.push_str(&format!("\n  witness ({} calls): {}", failure.witness.calls, failure.witness.text));
    }
    crate::run::finish_text(&mut text, &summary.run, None);
    print(text)
}
