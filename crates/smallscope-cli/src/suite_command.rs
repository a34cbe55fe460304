//! `smallscope suite`: a field coverage suite (see [`smallscope::coverage`])
//! from Korat or BEAPI, field-exhaustive or transcoped.
//!
//! The engines run as the `korat` and `beapi` commands do, in supervised
//! workers, each handed a job order (an ascending Korat run that records
//! every structure; BEAPI runs that send each structure's object graph),
//! so a crash or hang in the code under test is a finding here too. The criterion watches each run's commits in the
//! supervisor: it offers every structure to the [`Suite`], keeps those
//! that add a pair, and stops the run once the suite says so.
//!
//! - Korat's stock finitizations fix the size, so scope `n` is one
//!   ascending run over the sizes 1 to `n`: the small scopes are its first
//!   sizes, and their end is a level event.
//! - BEAPI's scope also bounds values, so each small scope is a run of
//!   its own, then the target's.
//!
//! The kept structures become Rust tests through the emission BEAPI has:
//! each test rebuilds one structure by the calls that make it. A Korat
//! suite gets them when its model is a `compare` pairing's (`bst`, `avl`,
//! `binheap`, …): its structures carry the canonical text of the API value
//! they convert to, and a BEAPI run at the target scope, after the suite,
//! finds the calls that build each. Structures the API cannot build at that
//! scope, and every Korat model without an API, are in `suite.jsonl`.
//!
//! The seconds reported are generation time: each run's, from its engine's
//! start to the criterion's stop or the engine's end.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Instant;

use smallscope::beapi::{BeapiConfig, BeapiReport, Check};
use smallscope::coverage::{Criterion, RegressionError, ScopeMeasure, StoppedBy, Suite};
use smallscope::emit::{rust_tests, RustTestOptions};
use smallscope::events::{Event, Rebuild, Stop, StructureFound};
use smallscope::heap::ObjectGraph;
use smallscope::korat::{find_korat_subject, KoratReport, KoratSettings, Space};
use smallscope::order::{BeapiOrder, KoratOrder, Order};
use smallscope::runner::{Batch, Control, Observer};
use smallscope_args::suite::{SuiteArgs, SuiteEngine};
use smallscope_args::{Exit, Format};

use crate::run::{Finished, RunOptions};
use crate::signals::Interrupts;
use crate::summary::{SuiteEdges, SuiteFunctionEdges, SuiteSummary};
use crate::writing::{write_outputs, Budget, OutputFile};
use crate::{find_subject, korat_command, print, program, BadInput};

/// The engine's criterion of the one named by `--criterion`.
pub(crate) fn criterion(args: &SuiteArgs) -> Criterion {
    args.criterion.as_str().parse().expect("the command line's criteria are the engine's (a test checks)")
}

fn check(args: &SuiteArgs) -> Result<(), BadInput> {
    if args.scope == 0 {
        return Err(BadInput("scope must be at least 1 (got 0)".into()));
    }
    if args.small_scope == 0 {
        return Err(BadInput("--small-scope must be at least 1 (got 0)".into()));
    }
    match args.engine {
        SuiteEngine::Korat => {
            let model = find_korat_subject(&args.subject).ok_or_else(|| {
                let known: Vec<&str> = smallscope::korat::registered_korat_subjects().iter().map(|r| r.name).collect();
                crate::unknown("Korat subject", &args.subject, &known)
            })?;
            // Without an API there are no tests (a note says so), and
            // nothing for these two to act on.
            if !model.converts && (args.builders.is_some() || args.check_with.is_some()) {
                let with_api: Vec<&str> =
                    smallscope::compare::registered_comparisons().iter().map(|c| c.name).collect();
                return Err(BadInput(format!(
                    "--builders and --check-with need a subject with an API: the Korat model \
                     `{}` has none (Korat models with one: {})",
                    args.subject,
                    with_api.join(", ")
                )));
            }
        }
        SuiteEngine::Beapi => {
            find_subject(&args.subject)?;
        }
    }
    Ok(())
}

/// The command that repeats this run.
fn command(args: &SuiteArgs) -> String {
    let mut command = format!(
        "{} suite {} --engine {} --criterion {} --scope {}",
        program(),
        args.subject,
        args.engine.name(),
        args.criterion,
        args.scope
    );
    if criterion(args).transcoping().is_some() && args.small_scope != 5 {
        command.push_str(&format!(" --small-scope {}", args.small_scope));
    }
    if let Some(builders) = &args.builders {
        command.push_str(&format!(" --builders {builders}"));
    }
    command
}

/// Whether the kept structures become Rust tests (Korat: only through an API).
fn makes_tests(args: &SuiteArgs) -> bool {
    let wanted = args.out.is_some() || args.emit_tests.is_some();
    wanted
        && match args.engine {
            SuiteEngine::Korat => find_korat_subject(&args.subject).is_some_and(|model| model.converts),
            SuiteEngine::Beapi => true,
        }
}

/// Whether a Korat suite's structures get the calls that build them
/// (BEAPI finds them): for tests, or for measuring edges in a harness
/// built with coverage. Only a model with an API has calls.
fn finds_calls(args: &SuiteArgs) -> bool {
    let converts = find_korat_subject(&args.subject).is_some_and(|model| model.converts);
    makes_tests(args) || (converts && smallscope::edges::count().is_some())
}

/// The Korat run of a suite: sizes 1 to the scope in turn, every valid
/// candidate a structure event (with its API value's canonical text when
/// the suite makes tests).
fn korat_order(args: &SuiteArgs) -> KoratOrder {
    let settings =
        KoratSettings { record: true, ascending: true, canonical: finds_calls(args), ..KoratSettings::new(args.scope) };
    let command = format!("{} korat {} --scope {} --ascending", program(), args.subject, args.scope);
    KoratOrder { subject: args.subject.clone(), settings, command: Some(command) }
}

/// What a suite's BEAPI run sends with each structure besides its canonical text.
#[derive(Clone, Copy, PartialEq)]
enum BeapiFor {
    /// Each structure's object graph: the run makes the suite.
    Suite,
    /// Nothing more: the run finds the calls that build a Korat suite's structures.
    Calls,
}

/// A suite's BEAPI run at `scope`, with the suite's builders and bounds; a
/// suite is made of structures, so the run checks no operation.
fn beapi_order(args: &SuiteArgs, scope: u32, purpose: BeapiFor) -> Result<BeapiOrder, BadInput> {
    let cache_dir = args.cache_dir.clone().unwrap_or_else(|| smallscope_args::DEFAULT_CACHE_DIR.into());
    let mut config = BeapiConfig {
        scope,
        check: Check::None,
        cache_dir: Some(cache_dir),
        record_canonical: true,
        graphs: purpose == BeapiFor::Suite,
        ..BeapiConfig::default()
    };
    crate::bounds::apply(&args.bounds, &mut config)?;
    if let Some(builders) = &args.builders {
        config.builders = builders.parse()?;
    }
    config.validate()?;
    let mut command = format!("{} beapi {} --scope {scope} --check none", program(), args.subject);
    for flag in args.bounds.flags() {
        command.push_str(&format!(" {flag}"));
    }
    Ok(BeapiOrder { subject: args.subject.clone(), config, command: Some(command) })
}

/// The criterion, watching one run: every structure offered to the suite,
/// and, in an ascending Korat run, each size's end.
struct CriterionWatch<'a> {
    suite: &'a mut Suite,
    /// When the engine started (its first commit came): what
    /// [`Suite::offer`]'s seconds, and the generation time, count from.
    clock: Option<Instant>,
    /// The run's generation time is counted (the suite stopped, or the engine ended).
    counted: bool,
    graphs: &'a Graphs,
    /// The scope this run is (an ascending run tags each structure with its own).
    scope: u32,
    /// An ascending Korat run: its level events end sizes, which are scopes
    /// (BEAPI's levels are sequence lengths, not scopes).
    levels_are_scopes: bool,
    gathered: &'a mut Gathered,
    /// Structures that came without a graph (none should).
    without_graph: u64,
    error: Option<RegressionError>,
}

impl CriterionWatch<'_> {
    /// Adds this run's generation time, once: from the engine's start to now.
    fn count_time(&mut self) {
        if let (Some(clock), false) = (self.clock, self.counted) {
            self.counted = true;
            self.gathered.seconds += clock.elapsed().as_secs_f64();
        }
    }

    /// An ascending run finished size `size`: it is a complete scope.
    fn size_done(&mut self, size: u32) {
        self.gathered.scopes.push(self.suite.measure(size));
        let Some(small) = self.suite.small_scope() else { return };
        if size <= small {
            if let Err(error) = self.suite.small_scope_done(size) {
                self.error.get_or_insert(error);
            }
            if size == small {
                self.suite.start_target(false);
            }
        }
    }
}

impl Observer for CriterionWatch<'_> {
    fn batch(&mut self, batch: &Batch) {
        let clock = *self.clock.get_or_insert_with(Instant::now);
        for event in &batch.events {
            if self.suite.stopped().is_some() || self.error.is_some() {
                return;
            }
            match event {
                Event::Structure(found) if !found.variant => {
                    self.gathered.seen += 1;
                    let Some(graph) = self.graphs.of(found) else {
                        self.without_graph += 1;
                        continue;
                    };
                    if self.suite.offer(&graph, clock.elapsed().as_secs_f64()) {
                        let scope = found.level.filter(|_| self.levels_are_scopes).unwrap_or(self.scope);
                        self.gathered.kept.push((scope, found.clone()));
                    }
                    if self.suite.stopped().is_some() {
                        self.count_time();
                    }
                }
                Event::Level(level) if self.levels_are_scopes => self.size_done(level.level),
                Event::RunFinished(_) => self.count_time(),
                _ => {}
            }
        }
    }

    fn poll(&mut self) -> Control {
        // Before its first commit a worker may not be listening for the stop yet.
        let Some(clock) = self.clock else { return Control::Continue };
        let now = clock.elapsed().as_secs_f64();
        if self.suite.stopped().is_none() && self.suite.time_is_up(now) {
            self.count_time();
        }
        if self.suite.stopped().is_some() || self.error.is_some() {
            Control::Interrupt
        } else {
            Control::Continue
        }
    }
}

/// Where a structure's object graph comes from.
enum Graphs {
    /// BEAPI sends it in the structure's event.
    InEvents,
    /// Korat's is made from the candidate, in the space of its size (the
    /// event's level): index 0 is size 1.
    FromCandidates(Vec<Arc<Space>>),
}

impl Graphs {
    fn of<'f>(&self, found: &'f StructureFound) -> Option<Cow<'f, ObjectGraph>> {
        match (self, &found.rebuild, found.level) {
            (Graphs::InEvents, _, _) => found.graph.as_ref().map(Cow::Borrowed),
            (Graphs::FromCandidates(spaces), Rebuild::Candidate(values), Some(size)) => {
                Some(Cow::Owned(spaces.get(size.checked_sub(1)? as usize)?.object_graph(values)))
            }
            (Graphs::FromCandidates(_), _, _) => None,
        }
    }
}

/// What a whole suite run gathered.
#[derive(Default)]
struct Gathered {
    /// Kept structures, with the scope (Korat: the size) each was made at.
    kept: Vec<(u32, StructureFound)>,
    seen: u64,
    failures: u64,
    scopes: Vec<ScopeMeasure>,
    notes: Vec<String>,
    /// The BEAPI report the tests come from, its scope, the structures (by
    /// index) the tests rebuild, and how many kept ones it did not build
    /// (a Korat suite's; none for a BEAPI suite, which is the target's).
    target_report: Option<(u32, BeapiReport, BTreeSet<usize>, usize)>,
    /// Why a run ended the suite from outside (Ctrl-C, a smallscope problem).
    stop: Option<Stop>,
    exit: Option<Exit>,
    /// Generation time: each run's, from its engine's start until the
    /// suite stopped or the engine ended.
    seconds: f64,
}

/// Runs `order` as `scope`'s run, the criterion watching; how it went.
fn run_watched<O: Order>(
    order: &O,
    options: &RunOptions,
    mut watch: CriterionWatch<'_>,
) -> anyhow::Result<Finished<O::Fold>> {
    let mut finished = crate::run::run_observed(order, &run_options(options), &mut watch)?;
    // A run that ended without saying so (interrupted) counts until now.
    watch.count_time();
    settle(&mut finished, watch.gathered)?;
    if let Some(error) = watch.error {
        return Err(BadInput(format!("transcoping from the small scopes: {error}")).into());
    }
    if watch.without_graph > 0 {
        let note = format!("{} structures at scope {} came without a graph", watch.without_graph, watch.scope);
        watch.gathered.notes.push(note);
    }
    Ok(finished)
}

pub fn run(args: &SuiteArgs, options: &RunOptions) -> anyhow::Result<Exit> {
    check(args)?;
    let mut suite = Suite::new(criterion(args), args.scope, args.small_scope);
    let mut gathered = match args.engine {
        SuiteEngine::Korat => korat_suite(args, options, &mut suite)?,
        SuiteEngine::Beapi => beapi_suite(args, options, &mut suite)?,
    };
    let edges = suite_edges(args, options, &mut gathered)?;
    finish(args, suite, gathered, edges)
}

/// In a harness built with coverage: what the suite's calls reach of the
/// crate, beside every structure's (see [`SuiteEdges`]). Two runs that
/// measure, in workers; `None` without coverage, or when the suite has no
/// calls (a Korat model without an API) or was interrupted.
fn suite_edges(args: &SuiteArgs, options: &RunOptions, gathered: &mut Gathered) -> anyhow::Result<Option<SuiteEdges>> {
    let Some(count) = smallscope::edges::count() else { return Ok(None) };
    if gathered.stop.is_some() {
        return Ok(None);
    }
    let Some((_, report, only, _)) = gathered.target_report.as_ref() else {
        let why = format!(
            "no edges measured: the Korat model `{}` has no API, so its structures have no calls",
            args.subject
        );
        gathered.notes.push(why);
        return Ok(None);
    };
    let Some(config) = report.config.clone() else { return Ok(None) };
    let measures = [
        report.measure_edges(only.iter().copied()),
        report.measure_edges(report.counted_structures().map(|(index, _)| index)),
    ];
    let started = Instant::now();
    let mut taken = Vec::new();
    let mut failures = 0;
    for measure in measures {
        let config = BeapiConfig {
            measure: Some(measure),
            graphs: false,
            record_canonical: false,
            pictures: 0,
            time_limit: None,
            ..config.clone()
        };
        let order = BeapiOrder { subject: args.subject.clone(), config, command: None };
        let mut finished: Finished<BeapiReport> = crate::run::run(&order, &run_options(options))?;
        settle(&mut finished, gathered)?;
        if gathered.stop.is_some() {
            return Ok(None);
        }
        failures += finished.fold.failure_count();
        taken.push(std::mem::take(&mut finished.fold.edges));
    }
    if failures > 0 {
        gathered.failures += failures;
        gathered.notes.push(format!(
            "{failures} failing inputs met while measuring edges (every operation on each structure): `{} beapi {} \
             --scope {}` shows them",
            program(),
            args.subject,
            config.scope
        ));
    }
    let [suite, every] = [smallscope::edges::functions(&taken[0]), smallscope::edges::functions(&taken[1])];
    let functions: Vec<SuiteFunctionEdges> = suite
        .into_iter()
        .zip(every)
        .map(|(suite, every)| SuiteFunctionEdges {
            file: suite.file,
            function: suite.function,
            edges: suite.edges,
            suite: suite.taken,
            every_structure: every.taken,
        })
        .collect();
    Ok(Some(SuiteEdges {
        total: count.user as u64,
        suite: taken[0].len() as u64,
        every_structure: taken[1].len() as u64,
        functions,
        seconds: started.elapsed().as_secs_f64(),
    }))
}

/// How a suite runs each engine: every structure is heard, nothing is kept to resume.
fn run_options(options: &RunOptions) -> RunOptions {
    RunOptions { structures: true, out: None, resume: false, ..options.clone() }
}

/// Korat: sizes 1 to the scope in turn, one run.
fn korat_suite(args: &SuiteArgs, options: &RunOptions, suite: &mut Suite) -> anyhow::Result<Gathered> {
    let mut gathered = Gathered::default();
    let order = korat_order(args);
    let spaces =
        (1..=args.scope).map(|size| korat_command::space_at(&args.subject, size)).collect::<Result<Vec<_>, _>>()?;
    let graphs = Graphs::FromCandidates(spaces);
    let watch = CriterionWatch {
        suite: &mut *suite,
        clock: None,
        counted: false,
        graphs: &graphs,
        scope: args.scope,
        levels_are_scopes: true,
        gathered: &mut gathered,
        without_graph: 0,
        error: None,
    };
    let finished: Finished<KoratReport> = run_watched(&order, options, watch)?;
    gathered.failures += finished.fold.failures.iter().map(|f| f.count).sum::<u64>();
    if finds_calls(args) && gathered.stop.is_none() {
        // Some structures are built only through larger ones (red-black
        // trees after removals): larger scopes are tried as `compare`
        // rechecks them, until BEAPI builds every kept structure.
        let recheck = smallscope::compare::find_comparison(&args.subject).map_or(0, |c| c.recheck);
        for scope in args.scope..=args.scope + recheck {
            let Some(report) = api_report(args, scope, options, &mut gathered)? else { break };
            let (only, unbuilt) = built_by_api(&report, &gathered.kept);
            gathered.target_report = Some((scope, report, only, unbuilt));
            if unbuilt == 0 {
                break;
            }
        }
    }
    Ok(gathered)
}

/// The BEAPI run at `scope` whose call sequences rebuild a Korat suite's
/// structures; `None` when it was interrupted.
fn api_report(
    args: &SuiteArgs,
    scope: u32,
    options: &RunOptions,
    gathered: &mut Gathered,
) -> anyhow::Result<Option<BeapiReport>> {
    let order = beapi_order(args, scope, BeapiFor::Calls)?;
    let mut finished: Finished<BeapiReport> = crate::run::run(&order, &run_options(options))?;
    settle(&mut finished, gathered)?;
    if gathered.stop.is_some() {
        return Ok(None);
    }
    let report = std::mem::take(&mut finished.fold);
    if report.stopped_early() {
        gathered.notes.push(
            "the BEAPI run that finds the tests' calls stopped early: structures it did not reach have no test".into(),
        );
    }
    Ok(Some(report))
}

/// Closes a finished run's staging, and notes a stop from outside
/// (Ctrl-C, a smallscope problem), which ends the suite.
fn settle<F>(finished: &mut Finished<F>, gathered: &mut Gathered) -> anyhow::Result<()> {
    finished.staging.close(true)?;
    if finished.signal().is_some() || finished.trouble.is_some() {
        gathered.stop = Some(Stop::Interrupted);
        gathered.exit = Some(finished.exit(false));
    }
    Ok(())
}

/// BEAPI: each small scope a run of its own, then the target.
fn beapi_suite(args: &SuiteArgs, options: &RunOptions, suite: &mut Suite) -> anyhow::Result<Gathered> {
    let mut gathered = Gathered::default();
    let graphs = Graphs::InEvents;
    // Scopes 1 to the small scope (none when not transcoping), then the target.
    let small = suite.small_scope().unwrap_or(0);
    for scope in (1..=small).chain([args.scope]) {
        let target = scope == args.scope;
        if target {
            suite.start_target(true);
        } else {
            suite.start_scope();
        }
        let order = beapi_order(args, scope, BeapiFor::Suite)?;
        let watch = CriterionWatch {
            suite: &mut *suite,
            clock: None,
            counted: false,
            graphs: &graphs,
            scope,
            levels_are_scopes: false,
            gathered: &mut gathered,
            without_graph: 0,
            error: None,
        };
        let mut finished: Finished<BeapiReport> = run_watched(&order, options, watch)?;
        let report = std::mem::take(&mut finished.fold);
        gathered.failures += report.failure_count();
        if report.stopped_early() && !target && gathered.stop.is_none() {
            gathered.notes.push(format!("the run at small scope {scope} stopped early: its measure is incomplete"));
        }
        if target {
            let only = gathered.kept.iter().map(|(_, found)| found.index as usize).collect();
            gathered.target_report = Some((scope, report, only, 0));
            gathered.scopes.push(suite.measure(scope));
        } else if gathered.stop.is_some() {
            break;
        } else {
            gathered.scopes.push(suite.measure(scope));
            // Only the target's structures make the suite.
            gathered.kept.retain(|(s, _)| *s != scope);
            suite.small_scope_done(scope)?;
        }
    }
    Ok(gathered)
}

/// What the notes say of a finished suite: predictions missed or passed.
fn prediction_notes(suite: &Suite, seconds: f64) -> Vec<String> {
    let mut notes = Vec::new();
    if suite.criterion().transcoping().is_some() && suite.small_scope().is_none() {
        notes.push(format!(
            "scope {} is too small to transcope from (it needs 3 smaller scopes): the suite is field-exhaustive",
            suite.scope()
        ));
    }
    let reached = suite.extensions().sizes();
    if let Some(predicted) = suite.predicted_sizes() {
        for (field, &want) in predicted {
            let got = reached.get(field).copied().unwrap_or(0);
            if got < want {
                notes.push(format!("{field}: the engine ended at {got} pairs, short of the predicted {want}"));
            } else if got > want {
                notes.push(format!("{field}: {got} pairs passed the predicted {want}"));
            }
        }
    }
    if let (Some(limit), Some(StoppedBy::Exhausted)) = (suite.predicted_seconds(), suite.stopped()) {
        notes.push(format!("the engine ended before the predicted {limit:.3} s (after {seconds:.3} s)"));
    }
    notes
}

fn finish(args: &SuiteArgs, mut suite: Suite, gathered: Gathered, edges: Option<SuiteEdges>) -> anyhow::Result<Exit> {
    let seconds = gathered.seconds;
    let interrupted = gathered.stop.is_some();
    match interrupted {
        true => suite.interrupted(),
        false => suite.exhausted(),
    }
    let stopped_by = suite.stopped().unwrap_or(StoppedBy::Exhausted);
    let mut notes = gathered.notes;
    notes.extend(prediction_notes(&suite, seconds));
    if let (SuiteEngine::Korat, Some((scope, _, only, unbuilt)), true) =
        (args.engine, &gathered.target_report, makes_tests(args))
    {
        notes.push(tests_note(&gathered.kept, only.len(), *unbuilt, *scope));
    } else if args.engine == SuiteEngine::Korat
        && (args.out.is_some() || args.emit_tests.is_some())
        && !makes_tests(args)
    {
        notes.push(format!(
            "no Rust tests: the Korat model `{}` does not convert to an API type; suite.jsonl has the structures",
            args.subject
        ));
    }
    if interrupted {
        notes.push("interrupted: the suite holds what was kept before".into());
    }
    let mut scopes = gathered.scopes;
    if scopes.last().is_none_or(|m| m.scope != args.scope) {
        // Stopped inside the target's stream: its state then.
        scopes.push(suite.measure(args.scope));
    }
    let replay = command(args);
    let mut summary = SuiteSummary {
        subject: args.subject.clone(),
        engine: args.engine.name().to_owned(),
        criterion: criterion(args),
        scope: args.scope,
        small_scope: suite.small_scope(),
        suite_size: gathered.kept.len() as u64,
        seconds,
        stopped_by,
        field_sizes: suite.extensions().sizes(),
        predicted_sizes: suite.predicted_sizes().cloned(),
        predicted_seconds: suite.predicted_seconds(),
        scopes,
        structures_seen: gathered.seen,
        failures: gathered.failures,
        notes,
        stop: gathered.stop.unwrap_or(Stop::Complete),
        replay: replay.clone(),
        files: Vec::new(),
        edges,
    };
    let tests = gathered.target_report.as_ref().map(|(_, report, only, _)| suite_tests(args, report, only, &replay));
    if let (Some(path), Some(tests)) = (&args.emit_tests, &tests) {
        crate::test_files::write_test_file(path, tests)?;
    }
    if let Some(out) = &args.out {
        let mut files = Vec::new();
        if let Some(tests) = tests {
            files.push(OutputFile::bytes("suite_tests.rs", tests.into_bytes()));
        }
        if args.engine == SuiteEngine::Korat {
            files.push(OutputFile::bytes("suite.jsonl", candidate_lines(&gathered.kept)?));
        }
        let plot = crate::report::field_size_plot(&summary);
        if let Ok(svg) = &plot {
            files.push(OutputFile::bytes("field-sizes.svg", svg.clone().into_bytes()));
        }
        // The page lists the files, itself included.
        summary.files = files.iter().map(|f| f.name.clone()).chain(["report.html".to_owned()]).collect();
        files.push(crate::report::Page::suite(&summary, plot).file());
        let text = serde_json::to_string_pretty(&summary)? + "\n";
        std::fs::create_dir_all(out).map_err(|e| anyhow::anyhow!("making {}: {e}", out.display()))?;
        let budget = Budget::new(Interrupts::install()?, None);
        write_outputs(out, files, &budget, |_, _| Ok(text.into_bytes()))?;
    }
    match args.format {
        Format::Json => print(serde_json::to_string(&summary)?)?,
        Format::Text => print(summary_text(&summary))?,
    }
    Ok(gathered.exit.unwrap_or(Exit::found(summary.failures > 0)))
}

/// The structures of BEAPI's `report` that Korat kept (matched by
/// canonical text), and how many kept structures BEAPI did not build.
fn built_by_api(report: &BeapiReport, kept: &[(u32, StructureFound)]) -> (BTreeSet<usize>, usize) {
    let by_text: HashMap<&str, usize> = report
        .counted_structures()
        .filter_map(|(index, structure)| Some((structure.canonical.as_deref()?, index)))
        .collect();
    let texts = kept.iter().filter_map(|(_, found)| found.canonical.as_deref());
    let (built, unbuilt): (Vec<&str>, Vec<&str>) = texts.partition(|text| by_text.contains_key(text));
    (built.iter().map(|text| by_text[text]).collect(), unbuilt.len())
}

/// What became of a Korat suite's structures as Rust tests.
fn tests_note(kept: &[(u32, StructureFound)], tests: usize, unbuilt: usize, scope: u32) -> String {
    let unconverted = kept.iter().filter(|(_, found)| found.canonical.is_none()).count();
    let mut note = format!(
        "Rust tests rebuild {tests} of the {} kept structures through the API (calls found by BEAPI at scope {scope})",
        kept.len()
    );
    if unbuilt > 0 {
        note.push_str(&format!("; {unbuilt} the API does not build there are in suite.jsonl only"));
    }
    if unconverted > 0 {
        note.push_str(&format!("; converting {unconverted} to the API's type panicked"));
    }
    note
}

/// The kept structures (`only`, by index in BEAPI's `report`) as a Rust test file.
fn suite_tests(args: &SuiteArgs, report: &BeapiReport, only: &BTreeSet<usize>, replay: &str) -> String {
    let subject = find_subject(&args.subject).expect("checked").subject();
    let mut command = replay.to_owned();
    // Under `cargo smallscope` the file is implied: its path is the caller's, not part of the command.
    if let Some(path) = args.emit_tests.as_ref().filter(|_| !crate::files_implied()) {
        command.push_str(&format!(" --emit-tests {}", path.display()));
    }
    if let Some(check) = &args.check_with {
        command.push_str(&format!(" --check-with {check}"));
    }
    let options = RustTestOptions {
        command,
        omit: report.config.as_ref().map(|c| c.omit.clone()).unwrap_or_default(),
        has_rep_ok: subject.has_rep_ok(),
        only: Some(only.clone()),
        check: args.check_with.clone(),
        ..RustTestOptions::default()
    };
    rust_tests(report, &options)
}

/// One line of a Korat suite's `suite.jsonl`: a kept candidate.
#[derive(serde::Serialize)]
struct KeptCandidate<'a> {
    /// The size (the finitization's bound) it was found at.
    size: u32,
    /// Each field's value, as `smallscope korat <subject> --scope <size>`
    /// names them (a reference as its object's index, `null` for null).
    fields: &'a [Option<i64>],
}

fn candidate_lines(kept: &[(u32, StructureFound)]) -> anyhow::Result<Vec<u8>> {
    let mut lines = Vec::new();
    for (size, found) in kept {
        if let Rebuild::Candidate(fields) = &found.rebuild {
            serde_json::to_writer(&mut lines, &KeptCandidate { size: *size, fields })?;
            lines.push(b'\n');
        }
    }
    Ok(lines)
}

/// The text summary: the field table (each small scope, the prediction,
/// what was reached), then the suite's figures.
fn summary_text(summary: &SuiteSummary) -> String {
    let mut text = format!(
        "smallscope suite {}: {}, criterion {}, scope {}",
        summary.subject, summary.engine, summary.criterion, summary.scope
    );
    if let Some(small) = summary.small_scope {
        text.push_str(&format!(" (transcoped from scopes 1 to {small})"));
    }
    let fitted: Vec<&ScopeMeasure> =
        summary.scopes.iter().filter(|m| summary.small_scope.is_some_and(|s| m.scope <= s)).collect();
    let width = summary.field_sizes.keys().map(String::len).max().unwrap_or(5).max(5);
    text.push_str(&format!("\n{:<width$}", "field"));
    for measure in &fitted {
        text.push_str(&format!(" {:>7}", format!("s{}", measure.scope)));
    }
    if summary.predicted_sizes.is_some() {
        text.push_str(&format!(" {:>9}", "predicted"));
    }
    text.push_str(&format!(" {:>8}", "reached"));
    for (field, reached) in &summary.field_sizes {
        text.push_str(&format!("\n{field:<width$}"));
        for measure in &fitted {
            text.push_str(&format!(" {:>7}", measure.field_sizes.get(field).copied().unwrap_or(0)));
        }
        if let Some(predicted) = &summary.predicted_sizes {
            let value = predicted.get(field).map_or("-".to_owned(), usize::to_string);
            text.push_str(&format!(" {value:>9}"));
        }
        text.push_str(&format!(" {reached:>8}"));
    }
    if let Some(limit) = summary.predicted_seconds {
        text.push_str(&format!("\npredicted time: {limit:.3} s"));
    }
    text.push_str(&format!(
        "\nsuite: {} structures of {} seen, {:.3} s; stopped by {}",
        summary.suite_size,
        summary.structures_seen,
        summary.seconds,
        summary.stopped_by.name()
    ));
    if let Some(edges) = &summary.edges {
        text.push_str(&format!(
            "\nedges: the suite's calls take {} of the crate's {} edges, every structure's {} \
             (each built, then every operation called on it with every argument; {:.2} s)",
            edges.suite, edges.total, edges.every_structure, edges.seconds
        ));
        for function in edges.functions.iter().filter(|f| f.suite < f.every_structure) {
            text.push_str(&format!(
                "\n  the suite misses {} of {}'s edges that other structures take",
                function.every_structure - function.suite,
                function.function
            ));
        }
    }
    if summary.failures > 0 {
        text.push_str(&format!("\n{} failing inputs met (run the engine alone to see them)", summary.failures));
    }
    for note in &summary.notes {
        text.push_str(&format!("\nnote: {note}"));
    }
    text.push_str(&format!("\nreplay: {}", summary.replay));
    text
}
