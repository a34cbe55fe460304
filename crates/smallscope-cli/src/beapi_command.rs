//! `smallscope beapi`: run BEAPI on a registered subject and report.

use std::time::Duration;

use smallscope::beapi::{parse_int_range, BeapiConfig, BeapiReport, ConfigFile, StateStorage};
use smallscope::emit::{rust_failing_tests, rust_tests, write_jsonl, RustTestOptions, Witnesses};
use smallscope::events::Stop;
use smallscope::order::BeapiOrder;
use smallscope_args::beapi::BeapiArgs;

use crate::engine_command::EngineCommand;
use crate::run::RunOptions;
use crate::summary::{started_or, BeapiSummary, OperationUse, Role, RunFacts};
use crate::writing::OutputFile;
use crate::{find_subject, program, test_files, BadInput};

/// Defaults, then the config file, then flags.
fn config(args: &BeapiArgs) -> Result<BeapiConfig, BadInput> {
    let mut config = BeapiConfig::default();
    let mut scope_given = false;
    if let Some(path) = &args.config {
        let file = ConfigFile::load(path)?;
        scope_given = file.scope.is_some();
        file.apply(&mut config)?;
    }
    if let Some(scope) = args.scope {
        config.scope = scope;
        scope_given = true;
    }
    if !scope_given {
        return Err(BadInput("give a scope: --scope N (or `scope = N` in the config file)".into()));
    }
    if let Some(ints) = &args.ints {
        config.ints = Some(parse_int_range(ints)?);
    }
    if let Some(builders) = &args.builders {
        config.builders = builders.parse()?;
    }
    if let Some(check) = &args.check {
        config.check = check.parse()?;
    }
    if let Some(strings) = &args.strings {
        config.strings = strings.clone();
    }
    crate::bounds::apply(&args.bounds, &mut config)?;
    config.omit.extend(args.omit.iter().cloned());
    config.misuse_panics.extend(args.misuse_panics.iter().cloned());
    if let Some(scope) = args.builder_scope {
        config.builder_scope = scope;
    }
    if let Some(method) = &args.builder_method {
        config.builder_method = method.parse()?;
    }
    if args.no_state_matching {
        config.state_matching = false;
    }
    if args.exact {
        config.storage = StateStorage::Exact;
    }
    if let Some(limit) = &args.time_limit {
        config.time_limit = Some(smallscope::parse_duration("--time-limit", limit)?);
    }
    config.cache_dir = args.cache.dir();
    config.record_canonical = args.run.out.is_some() || args.tests.any();
    config.pictures = args.pictures.drawn(&args.run);
    config.validate()?;
    Ok(config)
}

/// The command that repeats this run; the job adds `--builders`.
fn command(args: &BeapiArgs, config: &BeapiConfig) -> String {
    let mut command = format!("{} beapi {} --scope {}", program(), args.subject, config.scope);
    if let Some(ints) = &args.ints {
        command.push_str(&format!(" --ints={ints}"));
    }
    if let Some(config) = &args.config {
        command.push_str(&format!(" --config {}", config.display()));
    }
    if let Some(strings) = &args.strings {
        command.push_str(&format!(" --strings {}", strings.join(",")));
    }
    if let Some(check) = &args.check {
        command.push_str(&format!(" --check {check}"));
    }
    for flag in args.bounds.flags() {
        command.push_str(&format!(" {flag}"));
    }
    for field in &args.omit {
        command.push_str(&format!(" --omit {field}"));
    }
    for pattern in &args.misuse_panics {
        command.push_str(&format!(" --misuse-panic {pattern:?}"));
    }
    if args.no_state_matching {
        command.push_str(" --no-state-matching");
    }
    command
}

/// `smallscope beapi`, made from its arguments.
pub struct BeapiCommand<'a> {
    args: &'a BeapiArgs,
    order: BeapiOrder,
    /// Whether the subject has a `rep_ok` (its tests call it).
    has_rep_ok: bool,
}

impl<'a> BeapiCommand<'a> {
    pub fn new(args: &'a BeapiArgs) -> Result<Self, BadInput> {
        test_files::check(&args.tests)?;
        let file = args.config.as_deref().and_then(|path| ConfigFile::load(path).ok());
        if let Some(note) = file.and_then(|file| file.old_spellings_note()) {
            eprintln!("note: {note}");
        }
        let has_rep_ok = find_subject(&args.subject)?.subject().has_rep_ok();
        let config = config(args)?;
        let command = Some(command(args, &config));
        let order = BeapiOrder { subject: args.subject.clone(), config, command };
        Ok(BeapiCommand { args, order, has_rep_ok })
    }

    fn test_options(&self, report: &BeapiReport, replay: &str, options: &RunOptions) -> RustTestOptions {
        RustTestOptions {
            command: test_files::regenerate(&self.args.tests, replay),
            omit: report.config.as_ref().map(|c| c.omit.clone()).unwrap_or_default(),
            has_rep_ok: self.has_rep_ok,
            max_tests: self.args.max_tests,
            witnesses: match self.args.tests.emit_failing_tests {
                Some(_) => Witnesses::Apart,
                None => Witnesses::Ignored,
            },
            hang_seconds: options.hang_seconds(),
            ..RustTestOptions::default()
        }
    }
}

impl EngineCommand for BeapiCommand<'_> {
    type Args = BeapiArgs;
    type Order = BeapiOrder;
    type Summary<'a> = BeapiSummary<'a>;
    const NAME: &'static str = "beapi";

    fn args(&self) -> &BeapiArgs {
        self.args
    }
    fn order(&self) -> &BeapiOrder {
        &self.order
    }
    fn time_limit(&self) -> Option<Duration> {
        self.order.config.time_limit
    }
    fn ended(report: &BeapiReport) -> (String, Option<Stop>) {
        (report.run.clone(), report.stop)
    }
    /// The job's command names the builders it found.
    fn replay(&self, report: &BeapiReport) -> String {
        report.command.clone().or(self.order.command.clone()).unwrap_or_default()
    }

    fn summarize<'a>(&self, report: &'a BeapiReport, run: RunFacts) -> Option<BeapiSummary<'a>> {
        Some(BeapiSummary {
            engine: "beapi".into(),
            structures: report.structure_count(),
            operations: OperationUse::of(report),
            failures: report.failure_count(),
            timed_out: run.stop == Stop::TimeLimit,
            report: started_or(report, !report.name.is_empty(), |r| r.name = self.args.subject.clone()),
            run,
        })
    }

    fn files<'a>(
        &self,
        summary: &BeapiSummary<'_>,
        report: &'a BeapiReport,
        _: &RunOptions,
    ) -> anyhow::Result<Vec<OutputFile<'a>>> {
        Ok(vec![
            OutputFile::lines("structures.jsonl", |out| write_jsonl(report, out)),
            crate::report::Page::beapi(summary, report).file(),
        ])
    }

    fn wants_tests(&self, _: &BeapiReport) -> bool {
        self.args.tests.any()
    }

    fn write_tests(
        &self,
        summary: &BeapiSummary<'_>,
        report: &BeapiReport,
        options: &RunOptions,
    ) -> anyhow::Result<()> {
        let options = self.test_options(report, &summary.run.replay, options);
        test_files::write(
            &self.args.tests,
            summary.run.stop,
            || rust_tests(report, &options),
            || rust_failing_tests(report, &options, self.args.tests.ignore_failing_tests),
        )
    }

    fn text(&self, summary: &BeapiSummary<'_>, _: &BeapiReport) -> String {
        text(summary)
    }

    fn found(&self, summary: &BeapiSummary<'_>) -> bool {
        !summary.report.failures.is_empty()
    }
}

fn text(summary: &BeapiSummary<'_>) -> String {
    let report = &summary.report;
    if report.builders.is_empty() {
        // Stopped while builders were identified: no search to tell of.
        let mut text = format!("smallscope beapi {}: stopped before the search began", report.name);
        for note in &report.notes {
            text.push_str(&format!("\nnote: {note}"));
        }
        crate::run::finish_text(&mut text, &summary.run, None);
        return text;
    }
    let mut text =
        format!("smallscope beapi {}: scope {}, builders {}\n", report.name, report.scope, report.builders.join(", "));
    let of_role = |role: Role| summary.operations.iter().filter(move |op| op.role == role);
    let checked: Vec<String> = of_role(Role::Checked).map(OperationUse::describe).collect();
    if !checked.is_empty() {
        text.push_str(&format!("checked on every structure: {}\n", checked.join(", ")));
    }
    let not_called: Vec<&str> = of_role(Role::NotCalled).map(|op| op.name.as_str()).collect();
    if !not_called.is_empty() {
        text.push_str(&format!("never called, so not tested: {} (--check all calls them)\n", not_called.join(", ")));
    }
    let checks = report.checked_calls > 0;
    let (head, row) = if checks { ("checked", 14) } else { ("", 0) };
    text.push_str(&format!("{:>6} {:>14} {:>14} {head:>row$} {:>10}\n", "level", "structures", "explored", "seconds"));
    for level in &report.levels {
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
    let checked = if checks { format!(", {} checked calls", report.checked_calls) } else { String::new() };
    text.push_str(&format!(
        "total: {} structures, {} sequences explored{checked} ({} misuse, {} out of scope), {}, {:.3} s{memory}",
        summary.structures,
        report.explored,
        report.misuses,
        report.out_of_scope,
        crate::summary::counted(summary.failures, "failure"),
        report.seconds
    ));
    if summary.run.stop.is_early() {
        text.push_str(&format!("\nstopped early ({}): the last level is incomplete", summary.run.stop_text()));
    }
    for note in &report.notes {
        text.push_str(&format!("\nnote: {note}"));
    }
    for (i, failure) in report.failures.iter().enumerate() {
        text.push_str(&format!("\n\nfailure {}: {} ({} sequences)", i + 1, failure.describe(), failure.count));
        text.push_str(&format!("\n  witness ({} calls): {}", failure.witness.calls, failure.witness.text));
    }
    crate::run::finish_text(&mut text, &summary.run, None);
    text
}
